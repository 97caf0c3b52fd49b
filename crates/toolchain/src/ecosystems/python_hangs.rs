//! The per-test limit of Python's test runners: the plugin (pytest) and driver (unittest)
//! `python_hang_guard.py`, written once per version into a cache directory put first on
//! `PYTHONPATH`, the environment that arms it, and the progress file it leaves (which tests
//! passed, failed, and which one a killed run was in).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::python::{pytest_file, unittest_file};
use crate::{TestLimits, TestRun};

/// The environment every Python run gets.
const ENV: [(&str, &str); 2] = [("PYTHONDONTWRITEBYTECODE", "1"), ("PYTHONUNBUFFERED", "1")];

/// The module name of the per-test limit plugin (pytest) and driver (unittest).
pub(super) const GUARD_MODULE: &str = "slopguard_hang_guard";

/// The per-test limit for both runners: `SLOPGUARD_PER_TEST_SECS` seconds of wall-clock time
/// per setup, call and teardown (`signal.setitimer`, main thread, POSIX), then the test fails
/// with a message naming it and "timed out after N s"; the run goes on. Each test's start and
/// verdict go to the file `SLOPGUARD_PROGRESS` names (`start <id>`, `<verdict> <id>`), so a
/// run killed at the suite limit still says what ran and which test hung. Loaded by pytest
/// with `-p slopguard_hang_guard`; run as `python -m slopguard_hang_guard` it drives
/// `unittest discover -v` with the same limit.
///
/// With `SLOPGUARD_COVERAGE` set to a file path, the pytest plugin also records which lines of
/// the project each test runs (`sys.settrace` from configuration on; lines run outside any
/// test, such as module code at import, count for every test) and whether it passed, and writes them there as JSON when the session ends:
const GUARD_SOURCE: &str = include_str!("python_hang_guard.py");

/// The directory holding [`GUARD_SOURCE`] as `slopguard_hang_guard.py`: one per user and
/// version of the source, `slopguard/py-guard-<hash>` under the user's cache directory
/// (`dirs::cache_dir`: `$XDG_CACHE_HOME`, else `~/.cache`, as the analysis cache), shared by
/// every process. It was one directory per
/// process under `/tmp`, never removed: a machine that ran the tests kept over a thousand.
/// Without a home, the directory is per process under the system's temporary directory.
///
/// The file is checked on every call and written again when it is missing (a cache emptied
/// by hand); it is written under a temporary name and renamed, so a concurrent run never
/// imports half of it.
pub(super) fn guard_dir() -> Option<&'static Path> {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        dirs::cache_dir()
            .map(|cache| {
                cache
                    .join("slopguard")
                    .join(format!("py-guard-{:016x}", fnv1a(GUARD_SOURCE)))
            })
            .unwrap_or_else(|| {
                std::env::temp_dir().join(format!("slopguard-py-guard-{}", std::process::id()))
            })
    });
    ensure_guard_file(dir)?;
    Some(dir)
}

/// Writes [`GUARD_SOURCE`] into `dir` unless it is there.
fn ensure_guard_file(dir: &Path) -> Option<()> {
    let file = dir.join(format!("{GUARD_MODULE}.py"));
    if !file.is_file() {
        std::fs::create_dir_all(dir).ok()?;
        let partial = dir.join(format!("{GUARD_MODULE}.py.{}.partial", std::process::id()));
        std::fs::write(&partial, GUARD_SOURCE).ok()?;
        std::fs::rename(&partial, &file).ok()?;
    }
    Some(())
}

/// FNV-1a of `text`: a stable name for a version of the guard's source.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Numbers the files of each run in [`guard_dir`].
static RUNS: AtomicUsize = AtomicUsize::new(0);

/// A fresh path in [`guard_dir`] for one run's `kind` of file (removed by the caller),
/// `<kind>-<process>-<run>.<ext>`: named by process and run as the directory is shared.
pub(super) fn run_file(kind: &str, ext: &str) -> Option<PathBuf> {
    let n = RUNS.fetch_add(1, Ordering::Relaxed);
    guard_dir().map(|d| d.join(format!("{kind}-{}-{n}.{ext}", std::process::id())))
}

/// A fresh progress file path for one run ([`run_file`]).
pub(super) fn progress_file() -> Option<PathBuf> {
    run_file("progress", "log")
}

/// The environment of a guarded run: [`ENV`], the guard's directory first on `PYTHONPATH`,
/// the per-test limit and the progress file.
pub(super) fn guarded_env(limits: &TestLimits, progress: Option<&Path>) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = ENV
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    if let Some(dir) = guard_dir() {
        let mut path = dir.display().to_string();
        if let Some(old) = std::env::var_os("PYTHONPATH").filter(|p| !p.is_empty()) {
            path.push(':');
            path.push_str(&old.to_string_lossy());
        }
        env.push(("PYTHONPATH".into(), path));
        env.push((
            "SLOPGUARD_PER_TEST_SECS".into(),
            format!("{}", limits.per_test.as_secs_f64().max(0.1)),
        ));
    }
    if let Some(p) = progress {
        env.push(("SLOPGUARD_PROGRESS".into(), p.display().to_string()));
    }
    env
}

/// What the progress file says: the verdicts it logged (as a run) and the test that started
/// last without a verdict (the one a killed run was in).
pub(super) fn read_progress(path: Option<&Path>) -> (TestRun, Option<String>) {
    let mut run = TestRun::default();
    let mut open: Option<String> = None;
    let text = path
        .and_then(|p| std::fs::read_to_string(p).ok())
        .unwrap_or_default();
    for line in text.lines() {
        let Some((word, id)) = line.split_once(' ') else {
            continue;
        };
        match word {
            "start" => open = Some(id.to_string()),
            "passed" => {
                run.passed += 1;
                run.push_passing(id);
            }
            "failed" => {
                run.failed += 1;
                run.push_failing(id, pytest_file(id).or_else(|| unittest_file(id)));
            }
            "skipped" => run.skipped += 1,
            _ => {}
        }
        if word != "start" && open.as_deref() == Some(id) {
            open = None;
        }
    }
    run.ran = run.passed + run.failed > 0;
    (run, open)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guard_file_is_written_once_and_again_when_gone() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("py-guard");
        let file = dir.join(format!("{GUARD_MODULE}.py"));
        ensure_guard_file(&dir).expect("written");
        assert_eq!(std::fs::read_to_string(&file).expect("read"), GUARD_SOURCE);
        std::fs::write(&file, "# kept\n").expect("write");
        ensure_guard_file(&dir).expect("there");
        assert_eq!(std::fs::read_to_string(&file).expect("read"), "# kept\n");
        std::fs::remove_file(&file).expect("rm");
        ensure_guard_file(&dir).expect("written again");
        assert_eq!(std::fs::read_to_string(&file).expect("read"), GUARD_SOURCE);
        let names: Vec<_> = std::fs::read_dir(&dir)
            .expect("ls")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[test]
    fn the_guard_directory_is_shared_and_named_by_the_source() {
        let dir = guard_dir().expect("a guard directory");
        assert_eq!(guard_dir(), Some(dir));
        assert!(dir.join(format!("{GUARD_MODULE}.py")).is_file());
        if dirs::cache_dir().is_some() {
            let name = dir.file_name().expect("a name").to_string_lossy();
            assert_eq!(name, format!("py-guard-{:016x}", fnv1a(GUARD_SOURCE)));
        }
    }
}
