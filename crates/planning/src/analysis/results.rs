//! The `build` and `test_results` metrics, from the toolchain's build checks and test runs
//! (`slopguard_toolchain`): a missing tool is unknown, never a pass.

use slopguard_toolchain::{Build, BuildResult, TestRun};

use super::metrics::{W_BUILD, W_TEST_RESULTS};
use super::{Metric, Status};

/// The `build` metric: every detected ecosystem must build; unknown when none could be
/// checked.
pub(super) fn build_metric(builds: &[Build]) -> Metric {
    let mut details = Vec::new();
    let (mut known, mut ok) = (0u32, 0u32);
    for b in builds {
        match &b.result {
            BuildResult::Passed => {
                known += 1;
                ok += 1;
                details.push(format!("{}: ok", b.tool));
            }
            BuildResult::Failed(output) => {
                known += 1;
                let last: Vec<&str> = output.lines().rev().take(4).collect();
                let last: Vec<&str> = last.into_iter().rev().collect();
                details.push(format!("{}: FAILED: {}", b.tool, last.join(" | ")));
            }
            BuildResult::TimedOut(after) => {
                known += 1;
                details.push(format!(
                    "{}: FAILED: timed out after {:.0} s",
                    b.tool,
                    after.as_secs_f64()
                ));
            }
            BuildResult::Missing(hint) => details.push(format!("{} not run: {hint}", b.tool)),
            BuildResult::NotApplicable(why) => details.push(format!("{}: {why}", b.tool)),
        }
    }
    if known == 0 {
        if details.is_empty() {
            details.push("no recognised build system".into());
        }
        return Metric::unknown("build", "Build", W_BUILD, details);
    }
    Metric::scored("build", "Build", W_BUILD, ok as f64 / known as f64, details)
}

/// The `test_results` metric: unknown when nothing ran; otherwise the pass ratio, and a fail
/// whenever any test fails or the suite does not run.
pub(super) fn test_results_metric(run: &TestRun) -> Metric {
    if !run.ran && !run.broken {
        return Metric::unknown(
            "test_results",
            "Test results",
            W_TEST_RESULTS,
            run.details.clone(),
        );
    }
    let total = run.passed + run.failed;
    let mut details = vec![format!("{} passed, {} failed", run.passed, run.failed)];
    for t in run.failing.iter().take(20) {
        match &t.file {
            Some(f) => details.push(format!("FAILED {} ({f})", t.id)),
            None => details.push(format!("FAILED {}", t.id)),
        }
    }
    details.extend(run.details.iter().cloned());
    let failing = run.failed > 0 || run.broken;
    let mut score = if total == 0 {
        0.0
    } else {
        run.passed as f64 / total as f64
    };
    if failing {
        score = score.min(0.49);
    }
    let mut m = Metric::scored(
        "test_results",
        "Test results",
        W_TEST_RESULTS,
        score,
        details,
    );
    m.status = if failing {
        Status::Fail
    } else {
        Status::of(score)
    };
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_metric_verdicts() {
        assert_eq!(
            test_results_metric(&TestRun::not_run("x")).status,
            Status::Unknown
        );
        let ok = TestRun {
            ran: true,
            passed: 3,
            ..TestRun::default()
        };
        assert_eq!(test_results_metric(&ok).status, Status::Pass);
        let bad = TestRun {
            ran: true,
            passed: 9,
            failed: 1,
            ..TestRun::default()
        };
        let m = test_results_metric(&bad);
        assert_eq!(m.status, Status::Fail);
        assert!(m.score.unwrap() < 0.5);
    }

    #[test]
    fn build_metric_counts_only_what_could_be_checked() {
        let missing = [Build::new(
            "go build",
            BuildResult::Missing("install Go".into()),
        )];
        assert_eq!(build_metric(&missing).status, Status::Unknown);
        let mixed = [
            Build::new("cargo test --no-run", BuildResult::Passed),
            Build::new("python compile", BuildResult::Failed("a.py: bad".into())),
        ];
        let m = build_metric(&mixed);
        assert_eq!(m.score, Some(0.5));
        assert!(
            m.details[1].contains("FAILED: a.py: bad"),
            "{:?}",
            m.details
        );
    }
}
