//! Which repair templates to try, and where: the statement a frame names (or those the
//! coverage sets apart), each followed by the literal constants it reads, the first target
//! (the lead), the definitions the failing tests call and those they call in the same file,
//! [`MAX_TEMPLATES`] fixes with a statement insertion after every few, then a wider sweep of
//! the same places up to [`MAX_EXTENDED`] for a phase with time left.

use std::collections::{BTreeMap, BTreeSet};

use slopguard_change::Tree;
use slopguard_lang::DefKind;
use slopguard_planning::analysis::is_test_file;
use slopguard_worker::{context, templates};

use super::MAX_TEMPLATES;
use crate::run::carry::SubtaskRun;

/// Most statement insertions among the [`MAX_TEMPLATES`].
pub(super) const MAX_INSERTIONS: usize = 16;

/// Most fixes in the queue with the wider sweep's: the first [`MAX_TEMPLATES`] are judged
/// in every language within the phase's time, the rest where the tests run fast enough
/// (a Ruby or Python suite judges a template in a fraction of a second, a Go one in one
/// to two), so the phase's time, not a count, ends the queue there.
pub(super) const MAX_EXTENDED: usize = 240;

/// Most statement insertions among the [`MAX_EXTENDED`].
const MAX_EXTENDED_INSERTIONS: usize = 48;

/// One-token fixes tried before each statement insertion: a missing statement is a rarer
/// bug than a wrong token, and an insertion needs a test run as often.
const TOKEN_FIXES_PER_INSERTION: usize = 3;

/// The template fixes for `run`, most suspicious places first: the [`MAX_TEMPLATES`] of
/// [`sweep`], then the fixes a wider sweep of the same places adds, up to [`MAX_EXTENDED`]
/// in all. The first part does not depend on the second: the fixes a run reaches in a slow
/// suite's time are the same whatever the wider sweep holds.
pub(super) fn candidate_fixes(run: &SubtaskRun, tree: &dyn Tree) -> Queued {
    queue(&places(run, tree), tree)
}

/// The fixes of [`candidate_fixes`], in order, and how many at their end come from the
/// wider sweep.
pub(super) struct Queued {
    pub(super) fixes: Vec<templates::TemplateFix>,
    pub(super) wider: usize,
}

/// The queue over `places` ([`candidate_fixes`]).
pub(super) fn queue(places: &[(String, templates::Places)], tree: &dyn Tree) -> Queued {
    let sources = sources(places, tree);
    let mut fixes = sweep(&sources, MAX_TEMPLATES, MAX_INSERTIONS);
    let first = fixes.len();
    let queued: BTreeSet<(String, usize, String)> = fixes.iter().map(fix_key).collect();
    let wider = sweep(&sources, MAX_EXTENDED, MAX_EXTENDED_INSERTIONS);
    fixes.extend(
        wider
            .into_iter()
            .filter(|f| !queued.contains(&fix_key(f)))
            .take(MAX_EXTENDED.saturating_sub(first)),
    );
    Queued {
        wider: fixes.len() - first,
        fixes,
    }
}

/// What tells two fixes apart: one line of one file, changed to one text.
fn fix_key(fix: &templates::TemplateFix) -> (String, usize, String) {
    (fix.path.clone(), fix.line, fix.after.clone())
}

/// Each file of `places` that can be read, with its text and places: read once for both
/// sweeps.
pub(super) fn sources<'p>(
    places: &'p [(String, templates::Places)],
    tree: &dyn Tree,
) -> Vec<(&'p str, String, &'p templates::Places)> {
    places
        .iter()
        .filter_map(|(path, places)| {
            Some((path.as_str(), context::source_text(tree, path)?, places))
        })
        .collect()
}

/// At most `max` fixes at the places of `sources` ([`sources`]): one-token changes, with an
/// inserted statement (at most `max_insertions`) after every [`TOKEN_FIXES_PER_INSERTION`] of
/// them: the update a comparison's branch leaves out ([`templates::updates`]), then a
/// statement copied from elsewhere in the file ([`templates::insertions`]).
pub(super) fn sweep(
    sources: &[(&str, String, &templates::Places)],
    max: usize,
    max_insertions: usize,
) -> Vec<templates::TemplateFix> {
    let mut token_fixes = Vec::new();
    let mut insertions = Vec::new();
    for &(path, ref text, places) in sources {
        let room = (max - max_insertions).saturating_sub(token_fixes.len());
        token_fixes.extend(templates::fixes(path, text, places, room));
        // The update a comparison's branch leaves out is made for its place; a copied
        // statement is a guess at which of the file's statements is missing.
        let room = max_insertions.saturating_sub(insertions.len());
        insertions.extend(templates::updates(path, text, places, room));
        let room = max_insertions.saturating_sub(insertions.len());
        insertions.extend(templates::insertions(path, text, places, room));
    }
    interleave(token_fixes, insertions, TOKEN_FIXES_PER_INSERTION)
}

/// `first` with one item of `second` after every `every` of its items; what is left of
/// either at the end.
pub(super) fn interleave<T>(first: Vec<T>, second: Vec<T>, every: usize) -> Vec<T> {
    let mut out = Vec::with_capacity(first.len() + second.len());
    let mut second = second.into_iter();
    for (i, item) in first.into_iter().enumerate() {
        out.push(item);
        if (i + 1) % every.max(1) == 0
            && let Some(other) = second.next()
        {
            out.push(other);
        }
    }
    out.extend(second);
    out
}

/// Lines above a frame's statement tried with it first: the condition guarding a `raise`.
const FOCUS_LINES_ABOVE: usize = 2;

/// Fixes tried at each statement the coverage sets apart before the sweep over the lead (the
/// rest of its fixes come in the sweep): enough for the one-token operators (a comparison, a
/// bound, a negation, a counterpart) without another variable's or member's many alternatives
/// filling the cap at a statement that is only suspected.
const FIXES_PER_SET_APART: usize = 8;

/// Where to try, per file in order of first mention: the statement a frame names (with the
/// lines just above it) first, else the statements the coverage sets apart; then the first
/// target (the lead, tried operators ahead of the rest), the definitions the failing tests
/// call, then the definitions of the same file those call.
fn places(run: &SubtaskRun, tree: &dyn Tree) -> Vec<(String, templates::Places)> {
    let hung = run
        .failure
        .as_ref()
        .is_some_and(|f| f.output.contains(HANG_MARK));
    let frame_focus = run
        .fault_line
        .as_ref()
        .filter(|l| l.suspect_in.is_none())
        .map(|l| {
            let around_the_frame = (l.start.saturating_sub(FOCUS_LINES_ABOVE).max(1), l.end);
            let range = hung
                .then(|| context::source_text(tree, &l.path))
                .flatten()
                .and_then(|text| enclosing_loop(&text, l.start))
                .unwrap_or(around_the_frame);
            (l.path.clone(), range)
        });
    // Without a frame, the statements the coverage sets apart: a one-token bug on one of them
    // would otherwise wait until each operator before its own had gone over the lead's every
    // line, and the cap can come first.
    let (focus, focus_limit): (Vec<(String, (usize, usize))>, _) = match frame_focus {
        Some(f) => (vec![f], None),
        None => (
            run.set_apart
                .iter()
                .map(|l| (l.path.clone(), (l.start, l.end)))
                .collect(),
            Some(FIXES_PER_SET_APART),
        ),
    };
    let focus = with_constants_read(focus, tree);
    // The first target of the tests' coverage is tried operators ahead of the other regions.
    let lead = run
        .functions
        .first()
        .map(|f| (f.path.clone(), (f.start, f.end)));
    // `regions` lists the frame's file first, so the focus always has its file.
    regions(run, tree)
        .into_iter()
        .map(|(path, regions)| {
            let focus = focus
                .iter()
                .filter(|(p, _)| *p == path)
                .map(|(_, r)| *r)
                .collect();
            let lead = lead.as_ref().filter(|(p, _)| *p == path).map(|(_, r)| *r);
            let cleared = cleared_lines(run, &path, &regions);
            (
                path,
                templates::Places {
                    focus,
                    focus_limit,
                    lead,
                    regions,
                    cleared,
                },
            )
        })
        .collect()
}

/// A definition's simple name and its 1-based line.
type NamedLine = (String, usize);

/// `focus` with, right after each statement, the one-line constants of its file whose value
/// is a plain literal and which it reads, unless an earlier statement reads them or a focus
/// range holds them (`.take(MAX_PACKET)` -> `const MAX_PACKET: usize = 129;`). A wrong limit
/// or default sits on a line no coverage records (only the statements reading it run), so
/// the sweep reached it after every statement of the definitions the tests call: in the
/// development half's rust-rle-codec run, 58th of a queue the Rust suite judged 40 of
/// within the phase's time. Each costs a few fixes (a bound one off, another literal).
pub(super) fn with_constants_read(
    focus: Vec<(String, (usize, usize))>,
    tree: &dyn Tree,
) -> Vec<(String, (usize, usize))> {
    let mut files: BTreeMap<&str, (Vec<String>, Vec<NamedLine>)> = BTreeMap::new();
    for (path, _) in &focus {
        files.entry(path.as_str()).or_insert_with(|| {
            let Some(text) = context::source_text(tree, path) else {
                return (Vec::new(), Vec::new());
            };
            let lines: Vec<String> = text.lines().map(str::to_owned).collect();
            let constants = context::definitions(path, &text)
                .into_iter()
                .filter(|d| {
                    matches!(d.kind, DefKind::Const | DefKind::Static)
                        && d.end_line == d.start_line
                        && lines
                            .get(d.start_line as usize - 1)
                            .is_some_and(|l| literal_value(l))
                })
                .map(|d| (d.simple_name().to_owned(), d.start_line as usize))
                .collect();
            (lines, constants)
        });
    }
    let held = |path: &str, line: usize| {
        focus
            .iter()
            .any(|(p, (a, b))| p == path && *a <= line && line <= *b)
    };
    let mut out: Vec<(String, (usize, usize))> = Vec::with_capacity(focus.len());
    for (path, (start, end)) in &focus {
        out.push((path.clone(), (*start, *end)));
        let (lines, constants) = &files[path.as_str()];
        let read = lines
            .get(start.saturating_sub(1)..(*end).min(lines.len()))
            .map(|l| l.join("\n"))
            .unwrap_or_default();
        for (name, line) in constants {
            let range = (path.clone(), (*line, *line));
            if !held(path, *line)
                && !out.contains(&range)
                && slopguard_lang::word_positions(&read, name).next().is_some()
            {
                out.push(range);
            }
        }
    }
    out
}

/// Whether the value a one-line definition assigns is a plain literal: a number, a quoted
/// string or a boolean (`= 129;`, `= "keep"`, `= True`), not an expression or a call.
pub(super) fn literal_value(line: &str) -> bool {
    let Some((_, value)) = line.split_once('=') else {
        return false;
    };
    let value = value.trim().trim_end_matches([';', ',']).trim_end();
    let quoted = value.len() >= 2
        && ['"', '\'']
            .iter()
            .any(|q| value.starts_with(*q) && value.ends_with(*q))
        && !value[1..value.len() - 1].contains(['"', '\'']);
    let number = value
        .trim_start_matches('-')
        .starts_with(|c: char| c.is_ascii_digit())
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
    quoted || number || matches!(value, "true" | "false" | "True" | "False")
}

/// The lines of `path` the coverage clears ([`Spectrum::run_by_passing_only`]), tried after
/// the others: none when the recording holds fewer failing tests than the subtask's targets
/// (a failing test it missed may run them), nor a region's first line (a signature runs when
/// the file loads, whichever test that is counted to).
///
/// [`Spectrum::run_by_passing_only`]: slopguard_toolchain::Spectrum::run_by_passing_only
fn cleared_lines(run: &SubtaskRun, path: &str, regions: &[(usize, usize)]) -> BTreeSet<usize> {
    let Some(spectrum) = &run.spectrum else {
        return BTreeSet::new();
    };
    let failing = spectrum.tests.iter().filter(|t| !t.passed).count();
    if failing == 0 || failing < run.targets.len() {
        return BTreeSet::new();
    }
    spectrum
        .run_by_passing_only(path)
        .into_iter()
        .map(|l| l as usize)
        .filter(|l| !regions.iter().any(|(start, _)| start == l))
        .collect()
}

/// What the runners print for a test cut at the per-test limit (a hang).
const HANG_MARK: &str = "timed out after";

/// Longest loop taken as the focus of a hang.
const MAX_LOOP_LINES: usize = 40;

/// The loop a test hung in, as 1-based lines from its header to the end of its body: the
/// nearest line at or above `frame` that opens a loop (`while`, `for`, `loop`, `do`, `until`)
/// and is not indented deeper than the frame, through the last line indented deeper than that
/// header. A test that never ends is a loop whose condition or progress is wrong; the frame
/// where the runner cut it is anywhere in that loop, often not on the statement to change (a
/// bisection's `lo = mid` below its `while lo < hi:`). `None` when no loop encloses the frame
/// or it is longer than [`MAX_LOOP_LINES`].
pub(super) fn enclosing_loop(text: &str, frame: usize) -> Option<(usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let frame_indent = indent(lines.get(frame.checked_sub(1)?)?);
    let header = (frame.saturating_sub(MAX_LOOP_LINES).max(1)..=frame)
        .rev()
        .find(|&n| {
            let l = lines[n - 1];
            let t = l.trim_start();
            indent(l) <= frame_indent
                && ["while", "for", "loop", "do", "until"].iter().any(|k| {
                    t.strip_prefix(k)
                        .is_some_and(|rest| rest.starts_with([' ', '(', '{', ':']))
                })
        })?;
    let header_indent = indent(lines[header - 1]);
    let mut end = header;
    for (i, l) in lines.iter().enumerate().skip(header) {
        if l.trim().is_empty() {
            continue;
        }
        if indent(l) <= header_indent {
            break;
        }
        end = i + 1;
    }
    (end > header && end - header < MAX_LOOP_LINES).then_some((header, end))
}

/// Line ranges to try, per file in order of first mention (the file of the statement a frame
/// names first): the subtask's target functions, the definitions the failing tests call, then
/// the definitions of the same file those call and the targets call; the frame's statement
/// itself only when none of those holds it.
///
/// A statement is not a definition: as a region of its own it would be the narrowest region
/// around its line, and a statement insertion takes that region for the line's definition, so
/// it would never insert before the frame's statement (a region's first line is its signature)
/// nor see the variables its definition binds.
fn regions(run: &SubtaskRun, tree: &dyn Tree) -> Vec<(String, Vec<(usize, usize)>)> {
    let mut by_path: Vec<(String, Vec<(usize, usize)>)> = Vec::new();
    if let Some(l) = &run.fault_line {
        by_path.push((l.path.clone(), Vec::new()));
    }
    // The functions the failing tests most likely broke (by their coverage when it was
    // recorded: a helper the tests never name), before the rest of what they call.
    for f in &run.functions {
        add(&mut by_path, &f.path, (f.start, f.end));
    }
    let exercised = run
        .failure
        .as_ref()
        .map(|f| f.exercised.clone())
        .unwrap_or_default();
    for (path, _, start, end) in &exercised {
        add(&mut by_path, path, (*start, *end));
    }
    for (path, range) in one_hop(&exercised, &run.functions, tree) {
        add(&mut by_path, &path, range);
    }
    if let Some(l) = &run.fault_line {
        add_unless_held(&mut by_path, &l.path, (l.start, l.end));
    }
    if by_path.is_empty() {
        // No definition of the files to change is called by name from the failing tests (a
        // method reached through an object, a module-level table): small files whole.
        for path in run.subtask.file_hints.iter().filter(|p| !is_test_file(p)) {
            let lines = tree
                .read(path)
                .ok()
                .flatten()
                .map_or(0, |b| b.split(|c| *c == b'\n').count());
            if (1..=MAX_WHOLE_FILE_LINES).contains(&lines) {
                add(&mut by_path, path, (1, lines));
            }
        }
    }
    by_path
}

/// Adds `range` of `path` to `by_path` once, keeping the order of first mention.
fn add(by_path: &mut Vec<(String, Vec<(usize, usize)>)>, path: &str, range: (usize, usize)) {
    match by_path.iter_mut().find(|(p, _)| p == path) {
        Some((_, ranges)) if !ranges.contains(&range) => ranges.push(range),
        Some(_) => {}
        None => by_path.push((path.to_string(), vec![range])),
    }
}

/// Adds `range` of `path` to `by_path` unless a range of the same file already holds it.
pub(super) fn add_unless_held(
    by_path: &mut Vec<(String, Vec<(usize, usize)>)>,
    path: &str,
    range: (usize, usize),
) {
    let held = by_path
        .iter()
        .any(|(p, ranges)| p == path && ranges.iter().any(|(a, b)| *a <= range.0 && range.1 <= *b));
    if !held {
        add(by_path, path, range);
    }
}

/// Longest file tried whole when the failing tests name no definition of it.
const MAX_WHOLE_FILE_LINES: usize = 400;

/// The definitions one call away: those the `exercised` definitions (called by the failing
/// tests) mention, then those the `targets` mention ([`callees`]), in that order. A helper
/// every test runs (so the coverage sets none of its lines apart) is often called by a target
/// rather than by what the tests call by name (a trait method the tests call reaches a free
/// function, the target, whose helper holds the bug).
pub(super) fn one_hop(
    exercised: &[(String, String, usize, usize)],
    targets: &[context::FunctionTarget],
    tree: &dyn Tree,
) -> Vec<(String, (usize, usize))> {
    let targets: Vec<(String, String, usize, usize)> = targets
        .iter()
        .map(|f| (f.path.clone(), f.name.clone(), f.start, f.end))
        .collect();
    [callees(exercised, tree), callees(&targets, tree)]
        .into_iter()
        .flat_map(|by_path| {
            by_path
                .into_iter()
                .flat_map(|(path, ranges)| ranges.into_iter().map(move |r| (path.clone(), r)))
        })
        .collect()
}

/// The definitions of each exercised definition's file that its body mentions by name (one
/// hop: the helper where the bug may sit).
pub(super) fn callees(
    exercised: &[(String, String, usize, usize)],
    tree: &dyn Tree,
) -> BTreeMap<String, Vec<(usize, usize)>> {
    let mut out: BTreeMap<String, Vec<(usize, usize)>> = BTreeMap::new();
    for (path, name, start, end) in exercised {
        for d in context::called_definitions(tree, path, name, (*start, *end)) {
            out.entry(path.clone())
                .or_default()
                .push((d.start_line as usize, d.end_line as usize));
        }
    }
    out
}
