//! Git processes a killed run left behind.
//!
//! A run killed alone (`kill -9 PID`, the OOM killer), not with its process group, leaves its
//! `git` children running, and their own children: `git worktree add -b NAME` creates the
//! branch in a `git branch NAME` child of its own. Such an orphan can create a branch after a
//! resumed run has discarded it, or hold a ref's lock file that the resumed run takes for
//! stale. Before it touches a branch of a killed run, a resumed run waits for them to end.

use std::path::Path;
use std::time::{Duration, Instant};

/// Longest wait for a killed run's git processes: `git worktree add` on a large tree takes
/// seconds; beyond this the process is someone else's, not an orphan finishing its step.
pub const ORPHAN_WAIT: Duration = Duration::from_secs(5);

/// How often the process table is read while waiting.
const POLL: Duration = Duration::from_millis(20);

/// Waits, at most `limit`, until no `git` process names `branch` on its command line (as
/// `git worktree add -b BRANCH` and its `git branch BRANCH` child do). Whether they ended.
/// Where there is no `/proc` (not Linux), there is nothing to wait for.
pub fn wait_for_git_naming(branch: &str, limit: Duration) -> bool {
    let started = Instant::now();
    while git_process_naming(Path::new("/proc"), branch) {
        if started.elapsed() >= limit {
            return false;
        }
        std::thread::sleep(POLL);
    }
    true
}

/// Whether a `git` process listed in `proc` (a procfs) has `branch`, or its ref, as one of its
/// arguments.
fn git_process_naming(proc: &Path, branch: &str) -> bool {
    let Ok(entries) = std::fs::read_dir(proc) else {
        return false;
    };
    let full_ref = format!("refs/heads/{branch}");
    entries.flatten().any(|entry| {
        let is_pid = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()));
        if !is_pid {
            return false;
        }
        // `/proc/PID/cmdline`: the arguments, each ended by a NUL; unreadable once it exited.
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            return false;
        };
        let mut args = cmdline.split(|b| *b == 0).map(String::from_utf8_lossy);
        let is_git = args.next().is_some_and(|program| {
            Path::new(program.as_ref())
                .file_name()
                .is_some_and(|f| f == "git")
        });
        is_git && args.any(|a| a == branch || a == full_ref)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A procfs with one process per `(pid, arguments)`.
    fn fake_proc(processes: &[(&str, &[&str])]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (pid, args) in processes {
            let p = dir.path().join(pid);
            std::fs::create_dir(&p).unwrap();
            let mut cmdline = args.join("\0");
            cmdline.push('\0');
            std::fs::write(p.join("cmdline"), cmdline).unwrap();
        }
        std::fs::create_dir(dir.path().join("self")).unwrap();
        dir
    }

    #[test]
    fn a_git_process_creating_the_branch_is_found_and_others_are_not() {
        let proc = fake_proc(&[
            (
                "12",
                &["/usr/bin/git", "branch", "slopguard/fix/1", "abc123"],
            ),
            ("13", &["git", "log", "slopguard/fix/12"]),
            ("14", &["vim", "slopguard/fix/3"]),
            (
                "15",
                &["git", "update-ref", "-d", "refs/heads/slopguard/fix/4"],
            ),
        ]);
        assert!(git_process_naming(proc.path(), "slopguard/fix/1"));
        assert!(git_process_naming(proc.path(), "slopguard/fix/4"));
        // Another branch whose name starts the same, and a program that is not git.
        assert!(!git_process_naming(proc.path(), "slopguard/fix/12x"));
        assert!(!git_process_naming(proc.path(), "slopguard/fix/3"));
        assert!(!git_process_naming(Path::new("/no/such/proc"), "x"));
    }

    #[test]
    fn the_wait_ends_when_the_git_process_ends() {
        const NAME: &str = "slopguard/orphan-wait-test";
        // A shell alias: git, with the branch among its arguments, waits for the shell.
        let mut child = std::process::Command::new("git")
            .args(["-c", "alias.hold=!sleep 1; :", "hold", NAME])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while !git_process_naming(Path::new("/proc"), NAME) {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "git never started"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(wait_for_git_naming(NAME, Duration::from_secs(30)));
        assert!(!git_process_naming(Path::new("/proc"), NAME));
        child.wait().unwrap();
    }
}
