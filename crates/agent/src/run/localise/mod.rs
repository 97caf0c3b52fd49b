//! Where the bug most likely is, before any candidate: the functions a subtask's failing tests
//! point at, most likely first, and the statements to offer alone.
//!
//! Two sources, the better first. The tests' coverage ([`localise_by_coverage`]): the suite
//! runs once more recording which lines each test runs, and the lines the failing tests run
//! while the passing ones do not are the most suspect (Ochiai); this finds a helper the tests
//! never name. Where no runner can record coverage, the tests' source
//! ([`function_targets_by_source`]): the functions they call, those they are named after
//! first. In the pipeline: ... -> per subtask -> failure context -> **localise** -> templates
//! and prompts.

use crate::records::RunPhase;
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use serde_json::json;
use slopguard_toolchain::{RepoFiles, Spectrum, TestLimits, ochiai};

use crate::dynamic;
use crate::records::Baseline;
use slopguard_worker::fault_line::FaultLine;
use slopguard_worker::{context, context::FailureContext, prompt};

use super::carry::SubtaskRun;
use super::context::Ctx;
use super::progress::ProgressEvent;

/// What the tests' coverage says about where the bug is.
pub(super) struct Localisation {
    /// Which lines each test ran.
    spectrum: Spectrum,
    /// The suspicion of each line the failing tests ran, by path and line
    /// ([`Spectrum::suspicion`]).
    lines: BTreeMap<(String, u32), f64>,
    /// Some line outside the tests scores more than a line every test runs. When none does,
    /// the spectrum still says which functions the failing tests ran, but not which of them
    /// is more suspect: the tests' source orders them.
    sets_apart: bool,
}

/// Suites slower than this (at the baseline) are not run a second time to record coverage.
const MAX_COVERED_SUITE: Duration = Duration::from_secs(60);

/// Runs the tests once more recording which lines each one runs, and scores the lines the
/// failing ones ran: the lines only failing tests run are the most suspect. `None` when no
/// ecosystem of the project can record per-test coverage, the suite is too slow to run again
/// ([`MAX_COVERED_SUITE`]), or no failing test ran a line of the project.
pub(super) fn localise_by_coverage(
    cx: &Ctx<'_>,
    run: &SubtaskRun,
    base: &Baseline,
) -> Option<Localisation> {
    let suite = Duration::from_millis(base.suite_ms);
    if base.suite_ms == 0 || suite > MAX_COVERED_SUITE {
        return None;
    }
    let limits = coverage_limits(cx, base);
    let started = Instant::now();
    let spectrum = slopguard_toolchain::per_test_coverage(&RepoFiles::walk(&cx.worktree), &limits);
    cx.time("coverage", started);
    let cov = Localisation::new(spectrum.filter(Spectrum::localises)?);
    let top = cov
        .most_suspect()
        .map(|((path, line), score)| format!("{path}:{line} ({score:.2})"));
    cx.emit(
        RunPhase::Execution,
        "worker.coverage",
        json!({"subtask_id": run.id, "tests": cov.spectrum.tests.len(),
               "failing": cov.spectrum.tests.iter().filter(|t| !t.passed).count(),
               "most_suspect": top, "sets_apart": cov.sets_apart,
               "ms": started.elapsed().as_millis() as u64}),
    );
    let found = if cov.sets_apart {
        format!("most suspect line {}", top.as_deref().unwrap_or_default())
    } else {
        "no line sets the failing tests apart (the passing ones run every line they run); \
         the functions they ran, in the order the tests' source gives"
            .to_string()
    };
    cx.progress.on(&ProgressEvent::Candidate(format!(
        "{} coverage of {} tests ({:.0} s): {found}",
        run.id,
        cov.spectrum.tests.len(),
        started.elapsed().as_secs_f64(),
    )));
    Some(cov)
}

/// The limits of a coverage recording: the run's test limits, the suite cut at four times its
/// baseline time plus 30 s (a recording runs each test with a tracer).
pub(super) fn coverage_limits(cx: &Ctx<'_>, base: &Baseline) -> TestLimits {
    let suite = Duration::from_millis(base.suite_ms);
    let limits = dynamic::test_limits(Some(base), cx.opts.dynamic.test_timeout);
    TestLimits {
        suite: limits.suite.min(suite * 4 + Duration::from_secs(30)),
        ..limits
    }
}

impl Localisation {
    /// The lines of `spectrum` scored, and whether any sets the failing tests apart.
    fn new(spectrum: Spectrum) -> Localisation {
        let lines = spectrum.suspicion();
        let mut cov = Localisation {
            spectrum,
            lines,
            sets_apart: false,
        };
        cov.sets_apart = cov
            .most_suspect()
            .is_some_and(|(_, score)| score > every_test_score(&cov.spectrum) + 1e-9);
        cov
    }

    /// The recording itself, for the gates that compare a fix's recording with it.
    pub(super) fn into_spectrum(self) -> Spectrum {
        self.spectrum
    }

    /// The most suspect line outside the tests, with its score.
    fn most_suspect(&self) -> Option<(&(String, u32), f64)> {
        self.lines
            .iter()
            .filter(|((path, _), _)| !slopguard_planning::analysis::is_test_file(path))
            .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(a.0)))
            .map(|(key, score)| (key, *score))
    }
}

/// The suspicion of a line every test runs. A spectrum whose best line outside the tests
/// scores no more than this says nothing about where the bug is: every line the failing tests
/// run, the passing ones run too (a wrong value computed on a path all tests take), and
/// ranking by it would put whatever function comes first in the file first.
fn every_test_score(spectrum: &Spectrum) -> f64 {
    let failing = spectrum.tests.iter().filter(|t| !t.passed).count();
    let passing = spectrum.tests.len() - failing;
    slopguard_toolchain::ochiai(failing, passing, failing)
}

/// The suspicion of each scored line of `start..=end` of `path`.
fn line_scores<'a>(
    cov: &'a Localisation,
    path: &str,
    start: usize,
    end: usize,
) -> impl Iterator<Item = f64> + 'a {
    let key = |l: usize| (path.to_string(), u32::try_from(l).unwrap_or(u32::MAX));
    cov.lines.range(key(start)..=key(end)).map(|(_, s)| *s)
}

/// The highest suspicion of the lines `start..=end` of `path`.
fn range_suspicion(cov: &Localisation, path: &str, start: usize, end: usize) -> f64 {
    line_scores(cov, path, start, end).fold(0.0, f64::max)
}

/// How many lines of `start..=end` of `path` score `score` (the function's highest): where
/// functions tie on their most suspect line, the one holding more such lines is where the
/// failing tests' path differs most.
fn lines_scoring(cov: &Localisation, path: &str, start: usize, end: usize, score: f64) -> usize {
    line_scores(cov, path, start, end)
        .filter(|s| (s - score).abs() < 1e-9)
        .count()
}

/// The Ochiai suspicion of the whole of `start..=end` of `path`, as if it were one line: a
/// test ran it when it ran any of its lines. An entry point every test runs scores lower than
/// a helper only the failing tests reach, where their lines score the same.
fn span_suspicion(cov: &Localisation, path: &str, start: usize, end: usize) -> f64 {
    let (start, end) = (
        u32::try_from(start).unwrap_or(u32::MAX),
        u32::try_from(end).unwrap_or(u32::MAX),
    );
    let (mut failed, mut passed, mut total_failed) = (0, 0, 0);
    for t in &cov.spectrum.tests {
        let ran = t
            .lines
            .get(path)
            .is_some_and(|l| l.range(start..=end).next().is_some());
        match (t.passed, ran) {
            (false, true) => failed += 1,
            (true, true) => passed += 1,
            _ => {}
        }
        total_failed += usize::from(!t.passed);
    }
    ochiai(failed, passed, total_failed)
}

/// A definition of one or two lines (a getter, a wrapper): after longer ones of equal
/// suspicion, which hold more statements to be wrong; the templates try the short ones anyway.
fn is_trivial(f: &prompt::FunctionTarget) -> bool {
    f.end.saturating_sub(f.start) < 2
}

/// The first line of the body of the definition at `start..=end` of `source`: after its
/// decorators and its first line, which Python and Ruby run when the file loads (every test
/// would seem to run the function); the definition's only line when it has one.
fn body_start(source: &[&str], start: usize, end: usize) -> usize {
    let mut header = start;
    while header < end
        && source
            .get(header.saturating_sub(1))
            .is_some_and(|l| l.trim_start().starts_with('@'))
    {
        header += 1;
    }
    (header + 1).min(end)
}

/// Whether a failing test calls a method that renders a value as text itself
/// (`result := d.String()`, `err.Error()`, `x.toString()`): then the text is what the test
/// checks, and the rendering methods are code under test, not the message's printers.
fn renders_under_test(fc: &FailureContext) -> bool {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(r"\.(String|GoString|Error|Format|toString|inspect|to_s)\s*\(")
            .expect("renderer call regex")
    });
    fc.tests.iter().any(|(_, _, source)| re.is_match(source))
}

/// Methods that render a value as text (`__repr__`, `String`, `toString`, `to_s`, `fmt`): a
/// failing assertion runs them to print its message, so the failing tests alone run them,
/// whatever the bug. They come after the other functions a failing test ran.
fn renders_for_messages(name: &str) -> bool {
    const RENDERERS: &[&str] = &[
        "__repr__",
        "__str__",
        "__format__",
        "String",
        "GoString",
        "Error",
        "Format",
        "toString",
        "inspect",
        "to_s",
        "fmt",
    ];
    let simple = name.rsplit([':', '.', '#']).next().unwrap_or(name);
    RENDERERS.contains(&simple)
}

/// `statements` ordered by how suspect their lines are, the most first (a stable sort: equal
/// ones keep their order), at most `max`.
pub(super) fn most_suspect_first(
    mut statements: Vec<FaultLine>,
    cov: &Localisation,
    max: usize,
) -> Vec<FaultLine> {
    statements.sort_by(|a, b| {
        let score = |f: &FaultLine| range_suspicion(cov, &f.path, f.start, f.end);
        score(b).total_cmp(&score(a))
    });
    statements.truncate(max);
    statements
}

/// The first `max` of `ranked` (statements ordered by [`most_suspect_first`]) whose lines
/// score above a line every test runs: the statements the failing tests' paths set apart from
/// the passing ones'. Empty when the coverage sets no line apart (then its ranking says
/// nothing about which statement is wrong).
pub(super) fn set_apart(cov: &Localisation, ranked: &[FaultLine], max: usize) -> Vec<FaultLine> {
    let floor = every_test_score(&cov.spectrum) + 1e-9;
    ranked
        .iter()
        .filter(|l| range_suspicion(cov, &l.path, l.start, l.end) > floor)
        .take(max)
        .cloned()
        .collect()
}

/// The functions of the project's files (not tests) that a failing test ran, the most suspect
/// first by their most suspect line ([`range_suspicion`]), then by how many lines score that
/// ([`lines_scoring`]), then as a whole ([`span_suspicion`]); a one- or two-line definition
/// after longer ones ([`is_trivial`]); then in the order `by_source` ranks them (the tests'
/// source). Methods that render values for messages come last ([`renders_for_messages`]),
/// unless the failing tests render values themselves (`rendered`: [`renders_under_test`]).
fn covered_functions(
    cov: &Localisation,
    tree: &dyn slopguard_change::Tree,
    by_source: &[prompt::FunctionTarget],
    rendered: bool,
) -> Vec<prompt::FunctionTarget> {
    let paths: BTreeSet<&str> = cov
        .lines
        .keys()
        .map(|(p, _)| p.as_str())
        .filter(|p| !slopguard_planning::analysis::is_test_file(p))
        .collect();
    let mut scored: Vec<(prompt::FunctionTarget, (bool, f64, usize, f64))> = Vec::new();
    for path in paths {
        let Some(text) = context::source_text(tree, path) else {
            continue;
        };
        let source: Vec<&str> = text.lines().collect();
        for d in context::definitions(path, &text) {
            if d.kind != slopguard_lang::DefKind::Function {
                continue;
            }
            let (start, end) = (d.start_line as usize, d.end_line as usize);
            let body = body_start(&source, start, end);
            let line = range_suspicion(cov, path, body, end);
            if line > 0.0 {
                let f = prompt::FunctionTarget {
                    path: path.to_string(),
                    name: d.name.clone(),
                    start,
                    end,
                };
                let at_top = lines_scoring(cov, path, body, end, line);
                let span = span_suspicion(cov, path, body, end);
                let for_messages = !rendered && renders_for_messages(&d.name);
                scored.push((f, (for_messages, line, at_top, span)));
            }
        }
    }
    let source_rank = |f: &prompt::FunctionTarget| {
        by_source
            .iter()
            .position(|g| g.path == f.path && g.start == f.start)
            .unwrap_or(usize::MAX)
    };
    let by_source_first = !cov.sets_apart;
    scored.sort_by(|(a, (ra, la, na, sa)), (b, (rb, lb, nb, sb))| {
        ra.cmp(rb)
            .then_with(|| match by_source_first {
                true => source_rank(a).cmp(&source_rank(b)),
                false => std::cmp::Ordering::Equal,
            })
            .then(lb.total_cmp(la))
            .then(nb.cmp(na))
            .then(sb.total_cmp(sa))
            .then(is_trivial(a).cmp(&is_trivial(b)))
            .then(source_rank(a).cmp(&source_rank(b)))
    });
    scored.into_iter().map(|(f, _)| f).collect()
}

/// Most functions offered alone to the model per subtask.
pub(super) const MAX_FUNCTION_TARGETS: usize = 3;

/// The functions and methods of the files to change that the failing tests call, most likely
/// first: those a failing test is named after (`test_last_page_rounds_up` -> `last_page`,
/// `TestMergeUnsorted` -> `Merge`), then the others; within each, the ones the passing tests of
/// the same files call least first ([`suspicion`]), else in the order the tests mention them;
/// then the functions of its file that the first one calls (a helper where the bug may sit). Types,
/// constants and modules the tests name are left out: the fix of a bug they exercise is in a
/// function, and so are the tests themselves (a test file among the files to change is not
/// where the fix goes). With the tests' coverage, the functions a failing test ran
/// come first, the most suspect first ([`covered_functions`]). At most
/// [`MAX_FUNCTION_TARGETS`].
pub(super) fn function_targets(
    fc: &FailureContext,
    targets: &BTreeSet<String>,
    tree: &dyn slopguard_change::Tree,
    coverage: Option<&Localisation>,
) -> Vec<prompt::FunctionTarget> {
    let by_source = function_targets_by_source(fc, targets, tree);
    let Some(cov) = coverage else {
        return by_source;
    };
    let mut ranked = covered_functions(cov, tree, &by_source, renders_under_test(fc));
    for f in by_source {
        if !ranked
            .iter()
            .any(|g| g.path == f.path && g.start == f.start)
        {
            ranked.push(f);
        }
    }
    ranked.truncate(MAX_FUNCTION_TARGETS);
    ranked
}

/// [`function_targets`] from the tests' source alone: what they call and are named after.
fn function_targets_by_source(
    fc: &FailureContext,
    targets: &BTreeSet<String>,
    tree: &dyn slopguard_change::Tree,
) -> Vec<prompt::FunctionTarget> {
    let test_words: Vec<Vec<String>> = targets
        .iter()
        .map(|t| name_words(&context::short_name(t)))
        .collect();
    let named_after = |name: &str| {
        let words = name_words(name.rsplit([':', '.', '#']).next().unwrap_or(name));
        !words.is_empty()
            && test_words
                .iter()
                .any(|t| t.windows(words.len()).any(|w| w == words.as_slice()))
    };
    let mut kinds = DefinitionKinds::default();
    let functions: Vec<prompt::FunctionTarget> = fc
        .exercised
        .iter()
        .filter(|(path, _, start, _)| {
            !slopguard_planning::analysis::is_test_file(path)
                && kinds.is_function(tree, path, *start)
        })
        .map(|(path, name, start, end)| prompt::FunctionTarget {
            path: path.clone(),
            name: name.clone(),
            start: *start,
            end: *end,
        })
        .collect();
    let (mut ranked, mut rest): (Vec<_>, Vec<_>) =
        functions.into_iter().partition(|f| named_after(&f.name));
    let failing_names: BTreeSet<String> = targets.iter().map(|t| context::short_name(t)).collect();
    let passing = context::passing_test_words(tree, fc, &failing_names);
    let failing: Vec<BTreeSet<String>> = fc
        .tests
        .iter()
        .map(|(_, _, src)| context::identifier_words(src))
        .collect();
    for group in [&mut ranked, &mut rest] {
        group.sort_by(|a, b| {
            let (sa, sb) = (
                suspicion(a, &failing, &passing),
                suspicion(b, &failing, &passing),
            );
            sb.total_cmp(&sa).then(is_trivial(a).cmp(&is_trivial(b)))
        });
    }
    ranked.extend(rest);
    if let Some(top) = ranked.first().cloned() {
        let mut helpers: Vec<prompt::FunctionTarget> =
            context::called_definitions(tree, &top.path, &top.name, (top.start, top.end))
                .into_iter()
                .filter(|d| d.kind == slopguard_lang::DefKind::Function)
                .map(|d| prompt::FunctionTarget {
                    path: top.path.clone(),
                    name: d.name.clone(),
                    start: d.start_line as usize,
                    end: d.end_line as usize,
                })
                .collect();
        // The helpers with statements to be wrong first: one-line wrappers defined above a
        // longer helper took the last places (`const strip = () => ''`).
        helpers.sort_by_key(is_trivial);
        for helper in helpers {
            if !ranked
                .iter()
                .any(|f| f.path == helper.path && f.start == helper.start)
            {
                ranked.push(helper);
            }
        }
    }
    ranked.truncate(MAX_FUNCTION_TARGETS);
    ranked
}

/// How suspect the function `f` is by the tests that mention it (Ochiai, the spectrum
/// score of fault localisation, over mentions instead of coverage): mentioned by every failing
/// test and no passing one, 1; by the passing tests as often as by the failing ones, lower.
/// A test that runs the function without its name ([`slopguard_lang::runs_implicitly`])
/// mentions it. The sort is stable, so equal scores keep the order of mention.
fn suspicion(
    f: &prompt::FunctionTarget,
    failing: &[BTreeSet<String>],
    passing: &[BTreeSet<String>],
) -> f64 {
    let language = match slopguard_lang::detect(&f.path, b"") {
        slopguard_lang::FileKind::Code(language) => Some(language),
        _ => None,
    };
    let mentions = |words: &&BTreeSet<String>| {
        words.contains(f.simple_name())
            || language
                .is_some_and(|l| slopguard_lang::runs_implicitly(l, &f.name, |w| words.contains(w)))
    };
    let in_failing = failing.iter().filter(mentions).count();
    let in_passing = passing.iter().filter(mentions).count();
    ochiai(in_failing, in_passing, failing.len())
}

/// The lowercase words of an identifier or test name: split at non-alphanumerics and at
/// camel-case humps (`TestMergeUnsorted` -> `test merge unsorted`, `last_page` -> `last page`).
fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            prev_lower = false;
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            continue;
        }
        if c.is_uppercase() && prev_lower && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        word.extend(c.to_lowercase());
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// The kinds of the definitions of each file read so far, by first line.
#[derive(Default)]
struct DefinitionKinds(std::collections::BTreeMap<String, Vec<(usize, bool)>>);

impl DefinitionKinds {
    /// Whether the definition of `path` starting at line `start` is a function or method.
    fn is_function(&mut self, tree: &dyn slopguard_change::Tree, path: &str, start: usize) -> bool {
        let defs = self.0.entry(path.to_string()).or_insert_with(|| {
            let text = context::source_text(tree, path).unwrap_or_default();
            context::definitions(path, &text)
                .iter()
                .map(|d| {
                    (
                        d.start_line as usize,
                        d.kind == slopguard_lang::DefKind::Function,
                    )
                })
                .collect()
        });
        defs.iter()
            .any(|(line, function)| *line == start && *function)
    }
}

#[cfg(test)]
mod tests;
