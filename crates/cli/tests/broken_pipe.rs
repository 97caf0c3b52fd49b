//! A reader that goes away (`slopguard guards | head -1`) ends a command quietly: exit 0, no
//! panic message, whatever the command prints.

mod common;

use std::process::{Command, Stdio};

use common::{Repo, bin};

/// Runs slopguard in `dir` with stdout a pipe whose read end is already closed, so the first
/// write fails with `EPIPE` (deterministically, unlike closing the pipe after spawning).
/// Returns the exit code and stderr.
fn with_closed_stdout(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let out = Command::new(bin())
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("slopguard runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn closed_stdout_ends_every_printing_command_quietly() {
    let repo = Repo::new();
    repo.write("src/app.py", "def main():\n    return 1\n");
    repo.commit("initial");
    repo.write("src/app.py", "def main():\n    return 2\n");
    repo.commit("second");
    let cases: &[&[&str]] = &[
        &["guards"],
        &["guards", "--format", "json"],
        &["guards", "explain", "G7"],
        &["--help"],
        &["analyze", "--no-run", "--quiet"],
        &["analyze", "--no-run", "--quiet", "--format", "json"],
        &["replay", "HEAD~1..HEAD"],
        &["replay", "HEAD~1..HEAD", "--format", "json"],
        &[
            "feedback",
            "add",
            "average() divides by n-1",
            "--db",
            "sqlite://feedback.db",
        ],
    ];
    for args in cases {
        let (code, stderr) = with_closed_stdout(repo.path(), args);
        assert!(
            !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "slopguard {args:?} reported the closed pipe: {stderr}"
        );
        assert_eq!(code, Some(0), "slopguard {args:?}: {stderr}");
    }
}

#[test]
fn check_keeps_its_verdict_when_stdout_is_closed() {
    // `slopguard check | head -1` under `set -o pipefail` must still fail on a blocked change.
    let repo = Repo::new();
    repo.write("src/app.py", "def main():\n    return 1\n");
    repo.commit("initial");
    for format in ["text", "json", "sarif"] {
        let (code, stderr) = with_closed_stdout(repo.path(), &["check", "--format", format]);
        assert_eq!(code, Some(0), "clean tree, {format}: {stderr}");
    }
    repo.write("src/app.py", "def main(:\n    return 1\n");
    for format in ["text", "json", "sarif"] {
        let (code, stderr) = with_closed_stdout(repo.path(), &["check", "--format", format]);
        assert!(!stderr.contains("panicked"), "{format}: {stderr}");
        assert_eq!(code, Some(1), "blocked change, {format}: {stderr}");
    }
}

#[test]
fn other_errors_still_reach_stderr_with_stdout_closed() {
    // The quiet exit is for the broken pipe only: a real error keeps its message and code.
    let repo = Repo::new();
    let (code, stderr) = with_closed_stdout(repo.path(), &["guards", "explain", "G99"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("unknown guard `G99`"), "{stderr}");
}
