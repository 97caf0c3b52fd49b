//! Runs the enabled static guards over one change and assembles the report.

use std::sync::Arc;
use std::time::Instant;

use slopguard_change::{ChangeSet, Task};

use crate::{
    Config, Context, Finding, GuardOutcome, GuardStatus, ParseCache, Report, Severity, Verdict,
    registry,
};

/// Runs every enabled guard of the registry on `change`.
pub fn run_static(change: &ChangeSet, task: Option<&Task>, config: &Config) -> Report {
    run_static_with(change, task, config, |_| {})
}

/// [`run_static`] parsing through `parses`, a cache shared with other changes (see
/// [`ParseCache::bounded`]).
pub fn run_static_in(
    change: &ChangeSet,
    task: Option<&Task>,
    config: &Config,
    parses: Arc<ParseCache>,
) -> Report {
    let started = Instant::now();
    run_context(&Context::with_parses(change, task, config, parses), started)
}

/// Like [`run_static`], letting the caller prepare the context first (e.g. supply a
/// fingerprint computed once per run).
pub fn run_static_with(
    change: &ChangeSet,
    task: Option<&Task>,
    config: &Config,
    prepare: impl FnOnce(&Context<'_>),
) -> Report {
    let started = Instant::now();
    let cx = Context::new(change, task, config);
    prepare(&cx);
    run_context(&cx, started)
}

/// Runs the guards in order on a prepared context.
fn run_context(cx: &Context<'_>, started: Instant) -> Report {
    let (findings, outcomes) = run_guards(cx, cx.config());
    report(cx, cx.change(), findings, outcomes, started)
}

/// [`run_static`] for one change checked alone (`check`), using a second
/// thread: while the guards run in order, it parses and analyses the change's source files
/// from the last one back, each file's before version first, so that the parses (most of a
/// check's time) are shared between two cores: the guards start from the first file, the
/// helper from the last, and they meet in between. A modified file's after version is
/// re-parsed from its before version's tree by whichever thread wants it first, waiting for
/// the other thread's parse of the before version if need be (a re-parse costs a few percent
/// of a fresh one). Each file version is still parsed once (the guards and the helper share
/// the context's parse cache, a version being parsed by one is waited for by the other), so
/// the report is the same as [`run_static`]'s; only the guards' timings differ.
/// Not for callers that already check changes in parallel (`replay -j`). The parses go
/// through `parses`, which may keep analyses between checks ([`ParseCache::with_store`]).
pub fn run_static_parallel(
    change: &ChangeSet,
    task: Option<&Task>,
    config: &Config,
    parses: Arc<ParseCache>,
) -> Report {
    let started = Instant::now();
    let cx = Context::with_parses(change, task, config, parses);
    let (findings, outcomes) = std::thread::scope(|s| {
        if !cx.files().is_empty() {
            s.spawn(|| prefetch_parses(cx.files()));
        }
        run_guards(&cx, config)
    });
    report(&cx, change, findings, outcomes, started)
}

/// Parses and analyses the before version of every source file, then the after versions,
/// last file first: the guards start with the after versions of the first files, which are
/// parsed incrementally from their before versions, so those are wanted first. A panic is
/// left for the guard that meets the same input to report.
fn prefetch_parses(files: &[crate::FileView<'_>]) {
    for file in files.iter().rev() {
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            file.before_analysis();
        }));
    }
    for file in files.iter().rev() {
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            file.after_analysis();
        }));
    }
}

/// Runs every enabled guard over the context, in registry order: the findings and each
/// guard's outcome.
fn run_guards(cx: &Context<'_>, config: &Config) -> (Vec<Finding>, Vec<GuardOutcome>) {
    let mut findings: Vec<Finding> = Vec::new();
    let mut outcomes = Vec::new();
    for guard in registry() {
        let info = guard.info();
        if !config.enabled(info.slug) {
            outcomes.push(GuardOutcome {
                guard: info.slug,
                code: info.code,
                status: GuardStatus::Disabled,
                micros: 0,
            });
            continue;
        }
        let t = Instant::now();
        let out = check_isolated(*guard, cx);
        let mut out = out;
        if let Some(forced) = config.common(info.slug).severity {
            for f in &mut out {
                f.severity = Severity::from(forced);
            }
        }
        let status = match out.iter().map(|f| f.severity).max() {
            Some(Severity::Block) => GuardStatus::Blocked,
            Some(Severity::Warn) => GuardStatus::Warned,
            None => GuardStatus::Passed,
        };
        outcomes.push(GuardOutcome {
            guard: info.slug,
            code: info.code,
            status,
            micros: t.elapsed().as_micros() as u64,
        });
        findings.extend(out);
    }
    (findings, outcomes)
}

/// The report of one check: findings most severe first, then by path and line.
fn report(
    cx: &Context<'_>,
    change: &ChangeSet,
    mut findings: Vec<Finding>,
    guards: Vec<GuardOutcome>,
    started: Instant,
) -> Report {
    findings.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.path.cmp(&b.path))
            .then_with(|| a.line.cmp(&b.line))
    });
    let verdict = match findings.iter().map(|f| f.severity).max() {
        Some(Severity::Block) => Verdict::Block,
        Some(Severity::Warn) => Verdict::Warn,
        None => Verdict::Pass,
    };
    Report {
        schema_version: 1,
        verdict,
        source: change.source.clone(),
        files: change.changes.iter().map(|c| c.path.clone()).collect(),
        findings,
        guards,
        metrics: cx.metrics(),
        elapsed_ms: started.elapsed().as_secs_f64() * 1000.0,
    }
}

/// Runs one guard; a guard that panics (a slopguard bug, e.g. on input nobody foresaw) does not
/// take the whole check down: its panic becomes a warning saying the change was not judged by
/// it, and the other guards still run.
fn check_isolated(guard: &dyn crate::Guard, cx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| guard.check(cx, &mut out)));
    match run {
        Ok(()) => out,
        Err(panic) => {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            let slug = guard.info().slug;
            vec![Finding::new(
                guard.info(),
                Severity::Warn,
                format!(
                    "the {slug} guard crashed on this change and did not judge it ({why}); \
                     please report this as a slopguard bug"
                ),
            )]
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use slopguard_change::{FileChange, MemTree};

    use super::*;
    use crate::GuardInfo;

    struct Crashes;
    static CRASHES: GuardInfo = GuardInfo {
        slug: "crashes",
        code: None,
        summary: "panics",
        doc: "",
        default_enabled: true,
        failure_mode: "patcher_reject",
        trace_event: "critic_crashes.fail",
    };
    impl crate::Guard for Crashes {
        fn info(&self) -> &'static GuardInfo {
            &CRASHES
        }
        fn check(&self, _: &Context<'_>, _: &mut Vec<Finding>) {
            let text = "- ⚠️ x";
            let _ = &text[..7]; // slicing inside a character: panics
        }
    }

    #[test]
    fn a_panicking_guard_becomes_a_warning_and_the_check_goes_on() {
        let change = ChangeSet::new(
            Arc::new(MemTree::new(Default::default())),
            vec![FileChange::create("a.txt", "x\n")],
            "test",
        );
        let config = Config::default();
        let cx = Context::new(&change, None, &config);
        let out = check_isolated(&Crashes, &cx);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].severity, Severity::Warn);
        assert!(
            out[0].message.contains("crashed on this change"),
            "{}",
            out[0].message
        );
    }
}
