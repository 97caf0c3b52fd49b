//! Runs the enabled static guards over one change and assembles the report.

use std::time::Instant;

use slopguard_change::{ChangeSet, Task};

use crate::{
    Config, Context, Finding, GuardOutcome, GuardStatus, Report, Severity, Verdict, registry,
};

/// Runs every enabled guard of the registry on `change`.
pub fn run_static(change: &ChangeSet, task: Option<&Task>, config: &Config) -> Report {
    run_static_with(change, task, config, |_| {})
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
        let mut out = Vec::new();
        guard.check(&cx, &mut out);
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
        guards: outcomes,
        metrics: cx.metrics(),
        elapsed_ms: started.elapsed().as_secs_f64() * 1000.0,
    }
}
