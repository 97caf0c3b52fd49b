//! Git processes a killed run left behind.
//!
//! A run killed alone (`kill -9 PID`, the OOM killer), not with its process group, leaves its
//! `git` children running, and their own children: `git worktree add -b NAME` creates the
//! branch in a `git branch NAME` child of its own, and a `git -C WORKTREE reset --hard` moves
//! (or creates again) the branch its worktree has checked out. Such an orphan can create a
//! branch after a resumed run has discarded it, or hold a ref's lock file that the resumed run
//! takes for stale. Before it touches a branch of a killed run, a resumed run waits for them to
//! end.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Longest wait for a killed run's git processes: `git worktree add` on a large tree takes
/// seconds; beyond this the process is someone else's, not an orphan finishing its step.
pub const ORPHAN_WAIT: Duration = Duration::from_secs(5);

/// How often the process table is read while waiting.
const POLL: Duration = Duration::from_millis(20);

/// Waits, at most `limit`, until no `git` process works on `branch`: one that names the
/// branch (or its ref) on its command line, as `git worktree add -b BRANCH` and its `git branch
/// BRANCH` child do, or one that works in a worktree of `worktrees` (`git -C WORKTREE reset
/// --hard COMMIT` moves the branch the worktree has checked out, and creates it again when it
/// was deleted meanwhile). Whether they ended. Where there is no `/proc` (not Linux), there is
/// nothing to wait for.
pub fn wait_for_git_on_branch(branch: &str, worktrees: &[PathBuf], limit: Duration) -> bool {
    // A process's working directory is read resolved (`/proc/PID/cwd`), and a worktree may be
    // named through a symlinked temp dir: both spellings are looked for.
    let worktrees: Vec<PathBuf> = worktrees
        .iter()
        .flat_map(|w| [Some(w.clone()), w.canonicalize().ok()])
        .flatten()
        .collect();
    let started = Instant::now();
    while git_process_on_branch(Path::new("/proc"), branch, &worktrees) {
        if started.elapsed() >= limit {
            return false;
        }
        std::thread::sleep(POLL);
    }
    true
}

/// Whether a `git` process listed in `proc` (a procfs) names `branch` or its ref among its
/// arguments, or has one of `worktrees` (or a directory in one) as an argument (`-C DIR`) or
/// as its working directory.
fn git_process_on_branch(proc: &Path, branch: &str, worktrees: &[PathBuf]) -> bool {
    let Ok(entries) = std::fs::read_dir(proc) else {
        return false;
    };
    let full_ref = format!("refs/heads/{branch}");
    let in_a_worktree = |dir: &Path| worktrees.iter().any(|w| dir.starts_with(w));
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
        if !is_git {
            return false;
        }
        let works_on_branch = args.any(|a| {
            a == branch || a == full_ref || (a.starts_with('/') && in_a_worktree(Path::new(&*a)))
        });
        works_on_branch
            || std::fs::read_link(entry.path().join("cwd")).is_ok_and(|cwd| in_a_worktree(&cwd))
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
        let on = |branch: &str| git_process_on_branch(proc.path(), branch, &[]);
        assert!(on("slopguard/fix/1"));
        assert!(on("slopguard/fix/4"));
        // Another branch whose name starts the same, and a program that is not git.
        assert!(!on("slopguard/fix/12x"));
        assert!(!on("slopguard/fix/3"));
        assert!(!git_process_on_branch(Path::new("/no/such/proc"), "x", &[]));
    }

    #[test]
    fn a_git_process_working_in_the_branchs_worktree_is_found() {
        let proc = fake_proc(&[
            (
                "21",
                &["git", "-C", "/tmp/wt/run-1", "reset", "--hard", "abc123"],
            ),
            ("22", &["git", "-C", "/tmp/wt/run-10", "status"]),
        ]);
        let in_worktree = |proc: &Path, worktree: &str| {
            git_process_on_branch(proc, "b", &[PathBuf::from(worktree)])
        };
        assert!(in_worktree(proc.path(), "/tmp/wt/run-1"));
        assert!(in_worktree(proc.path(), "/tmp/wt"));
        // A worktree whose name merely starts the same is another's.
        assert!(!in_worktree(proc.path(), "/tmp/wt/run"));
        assert!(!git_process_on_branch(proc.path(), "b", &[]));
        // A git whose working directory is in the worktree (`cd WORKTREE && git ...`).
        let cwd_proc = fake_proc(&[("23", &["git", "status"])]);
        std::os::unix::fs::symlink("/tmp/wt/run-2/src", cwd_proc.path().join("23/cwd")).unwrap();
        assert!(in_worktree(cwd_proc.path(), "/tmp/wt/run-2"));
        assert!(!in_worktree(cwd_proc.path(), "/tmp/wt/run-1"));
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
        while !git_process_on_branch(Path::new("/proc"), NAME, &[]) {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "git never started"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(wait_for_git_on_branch(NAME, &[], Duration::from_secs(30)));
        assert!(!git_process_on_branch(Path::new("/proc"), NAME, &[]));
        child.wait().unwrap();
    }
}
