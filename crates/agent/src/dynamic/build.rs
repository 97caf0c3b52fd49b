//! The build gate: the build check of every ecosystem the tree is a project of, judged
//! against the build failures the baseline recorded, so that a finding that was already
//! there blocks nothing.

use std::collections::BTreeMap;
use std::time::Duration;

use slopguard_toolchain::{BuildResult, RepoFiles};

use super::Verdict;
use crate::records::Baseline;

/// The build guard: the build check of every ecosystem the tree is a project of (`cargo test
/// --no-run`, `go build` and `go vet`, `tsc --noEmit` or `node --check`, every Python or Ruby
/// file compiled). Blocks when one fails with a finding it did not have at `base` (its
/// [`Baseline::build_failures`]); skipped when none could run.
pub fn build_guard(files: &RepoFiles, timeout: Duration, base: Option<&Baseline>) -> Verdict {
    let before = base.and_then(|b| b.build_failures.as_ref());
    let mut errors = Vec::new();
    let mut skipped = Vec::new();
    let mut ran = 0;
    for build in slopguard_toolchain::run_builds(files, timeout) {
        let tool = build.tool;
        match build.result {
            BuildResult::Passed => ran += 1,
            BuildResult::Failed(output) => {
                ran += 1;
                if !adds_failures(before.and_then(|b| b.get(&tool)), &output) {
                    tracing::debug!("{tool} failed as it did before the change");
                    continue;
                }
                errors.push(format!("{tool} failed:\n{output}"));
            }
            BuildResult::TimedOut(_) => {
                ran += 1;
                errors.push(format!(
                    "{tool} timed out after {} s (process group killed)",
                    timeout.as_secs()
                ));
            }
            BuildResult::Missing(hint) => skipped.push(format!("{tool} not run: {hint}")),
            BuildResult::NotApplicable(_) => {}
        }
    }
    if !errors.is_empty() {
        return Verdict::Block(format!(
            "The project no longer builds after your change:\n{}",
            errors.join("\n")
        ));
    }
    if ran == 0 {
        return Verdict::Skipped(if skipped.is_empty() {
            "no build system recognised".into()
        } else {
            skipped.join("; ")
        });
    }
    if !skipped.is_empty() {
        tracing::warn!("build guard partly skipped: {}", skipped.join("; "));
    }
    Verdict::Pass
}

/// The build checks that fail on `files` as they are, by tool, each with its output's lines
/// counted ([`failure_lines`]): the baseline [`build_guard`] compares a change's failures
/// with. A check that times out or is missing is not a failure here.
pub fn build_failures(
    files: &RepoFiles,
    timeout: Duration,
) -> BTreeMap<String, BTreeMap<String, usize>> {
    slopguard_toolchain::run_builds(files, timeout)
        .into_iter()
        .filter_map(|build| match build.result {
            BuildResult::Failed(output) => Some((build.tool, failure_lines(&output))),
            _ => None,
        })
        .collect()
}

/// The lines of a build check's output, trimmed, without their line and column numbers
/// (`./size.go:208:10: composite literal uses unkeyed fields` -> `./size.go:_: composite
/// literal uses unkeyed fields`, `line 12` -> `line _`), each with how often it occurs: a
/// finding that was there before a change is the same line after it, wherever the change
/// moved it, and a second finding of the same kind counts once more.
pub fn failure_lines(output: &str) -> BTreeMap<String, usize> {
    static LOCATION: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(:\d+)+\b|\bline \d+").expect("a valid pattern")
    });
    let mut lines = BTreeMap::new();
    for line in output.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let line = LOCATION.replace_all(line, |c: &regex::Captures<'_>| {
            if c[0].starts_with(':') {
                ":_"
            } else {
                "line _"
            }
        });
        *lines.entry(line.into_owned()).or_insert(0) += 1;
    }
    lines
}

/// Whether a build check's failing `output` holds a line that its failure before the change
/// (`before`; `None`: it passed, or the baseline was not captured) did not, or more of one.
fn adds_failures(before: Option<&BTreeMap<String, usize>>, output: &str) -> bool {
    let Some(before) = before else {
        return true;
    };
    failure_lines(output)
        .iter()
        .any(|(line, n)| before.get(line).is_none_or(|m| n > m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_guard_python() {
        if !slopguard_toolchain::process::on_path("python3") {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ok.py"), "x = 1\n").unwrap();
        let timeout = Duration::from_secs(30);
        assert_eq!(
            build_guard(&RepoFiles::walk(dir.path()), timeout, None),
            Verdict::Pass
        );
        std::fs::write(dir.path().join("bad.py"), "def f(:\n").unwrap();
        assert!(matches!(
            build_guard(&RepoFiles::walk(dir.path()), timeout, None),
            Verdict::Block(m) if m.contains("bad.py")
        ));
        assert!(!dir.path().join("__pycache__").exists());
    }

    #[test]
    fn a_build_failure_already_there_blocks_only_what_a_change_adds_to_it() {
        if !slopguard_toolchain::process::on_path("python3") {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("ok.py"), "x = 1\n").unwrap();
        std::fs::write(root.join("old.py"), "print 'python 2'\n").unwrap();
        let timeout = Duration::from_secs(30);
        let base = Baseline {
            build_failures: Some(build_failures(&RepoFiles::walk(root), timeout)),
            ..Baseline::default()
        };
        assert_eq!(base.build_failures.as_ref().map(|f| f.len()), Some(1));
        // The same failure, moved down two lines by an edit of the broken file.
        std::fs::write(root.join("old.py"), "\n\nprint 'python 2'\n").unwrap();
        std::fs::write(root.join("ok.py"), "x = 2\n").unwrap();
        assert_eq!(
            build_guard(&RepoFiles::walk(root), timeout, Some(&base)),
            Verdict::Pass
        );
        // Without the baseline's failures it blocks, as before.
        assert!(matches!(
            build_guard(&RepoFiles::walk(root), timeout, None),
            Verdict::Block(_)
        ));
        // A new failure in another file blocks, and names it.
        std::fs::write(root.join("ok.py"), "def f(:\n").unwrap();
        assert!(matches!(
            build_guard(&RepoFiles::walk(root), timeout, Some(&base)),
            Verdict::Block(m) if m.contains("ok.py")
        ));
    }

    #[test]
    fn a_finding_counts_once_more_when_a_change_repeats_it_elsewhere() {
        let before = failure_lines("./size.go:208:10: composite literal uses unkeyed fields\n");
        assert_eq!(
            before.keys().collect::<Vec<_>>(),
            ["./size.go:_: composite literal uses unkeyed fields"]
        );
        let moved = "./size.go:209:10: composite literal uses unkeyed fields\n";
        assert!(!adds_failures(Some(&before), moved));
        let twice = format!("{moved}./size.go:140:3: composite literal uses unkeyed fields\n");
        assert!(adds_failures(Some(&before), &twice));
        assert!(adds_failures(
            Some(&before),
            "./size.go:12:2: undefined: x\n"
        ));
        assert!(adds_failures(None, moved));
        assert_eq!(
            failure_lines("  File \"old.py\", line 3\n")
                .keys()
                .collect::<Vec<_>>(),
            ["File \"old.py\", line _"]
        );
    }
}
