//! No orphans: `slopguard analyze` on a repository whose test hangs (and has started a child of
//! its own), stopped by SIGTERM or SIGINT, leaves no process of the test run's group behind;
//! stopped by SIGKILL, the test runner dies with it (Linux's parent-death signal) and so does
//! the test's own child (the reaper kills the group when slopguard's end of its pipe closes).
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]
#![allow(
    unsafe_code,
    reason = "the test kills or inspects the processes it started through libc"
)]
#![cfg(target_os = "linux")]

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{Repo, bin};

/// A Python project whose only test writes its process group, its pid and its own child's pid
/// to `$SG_HANG_MARK`, then sleeps for five minutes.
fn hanging_repo() -> Repo {
    let repo = Repo::new();
    repo.write("calc.py", "def add(a, b):\n    return a + b\n");
    repo.write(
        "test_calc.py",
        "import os, subprocess, time\n\n\
         from calc import add\n\n\n\
         def test_hangs():\n    \
             child = subprocess.Popen(['sleep', '300'])\n    \
             with open(os.environ['SG_HANG_MARK'] + '.tmp', 'w') as f:\n        \
                 f.write(f'{os.getpgid(0)} {os.getpid()} {child.pid}')\n    \
             os.rename(os.environ['SG_HANG_MARK'] + '.tmp', os.environ['SG_HANG_MARK'])\n    \
             time.sleep(300)\n    \
             assert add(1, 2) == 3\n",
    );
    repo.commit("a test that hangs");
    repo
}

/// Starts `slopguard analyze` on the repository and waits until the hanging test has written
/// its mark: (slopguard, process group of the test run, test runner pid, the test's child pid).
fn analyze_until_the_test_hangs(repo: &Repo, mark: &Path) -> (Child, i32, i32, i32) {
    let child = Command::new(bin())
        .args(["analyze", "--format", "json"])
        .arg(repo.path())
        .env("SG_HANG_MARK", mark)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("slopguard starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    while !mark.exists() {
        assert!(Instant::now() < deadline, "the test never started");
        std::thread::sleep(Duration::from_millis(100));
    }
    let text = std::fs::read_to_string(mark).unwrap();
    let ids: Vec<i32> = text
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    (child, ids[0], ids[1], ids[2])
}

/// Live (not zombie) processes whose process group is `pgid`, from `/proc`.
fn group_members(pgid: i32) -> Vec<i32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // pid (comm) state ppid pgrp ...: comm may hold spaces, so read after the last ')'.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest.split_whitespace().collect())
            .unwrap_or_default();
        if fields.len() > 2 && fields[0] != "Z" && fields[2] == pgid.to_string() {
            out.push(pid);
        }
    }
    out
}

fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .is_some_and(|(_, r)| !r.trim_start().starts_with('Z'))
    })
}

/// Polls `done` for up to five seconds.
fn within_5s(mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}

/// Kills whatever a failed assertion left behind.
struct Cleanup(i32, i32);

impl Drop for Cleanup {
    fn drop(&mut self) {
        // SAFETY: kill(2) on the test's own process group and its child; no memory touched.
        unsafe {
            libc::kill(-self.0, libc::SIGKILL);
            libc::kill(self.1, libc::SIGKILL);
        }
    }
}

/// Whether `python3` with pytest is installed (the hanging test needs a runner).
fn has_pytest() -> bool {
    Command::new("python3")
        .args(["-c", "import pytest"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn stopped_by(signal: libc::c_int) {
    if !has_pytest() {
        eprintln!("NOTICE: python3 with pytest not installed: the no-orphans test is skipped");
        return;
    }
    let repo = hanging_repo();
    let mark = repo.path().join("..").join(format!(
        "hang-mark-{}-{signal}",
        repo.path().file_name().unwrap().to_string_lossy()
    ));
    let (mut slopguard, pgid, runner, grandchild) = analyze_until_the_test_hangs(&repo, &mark);
    let _cleanup = Cleanup(pgid, grandchild);
    assert_ne!(
        pgid,
        slopguard.id() as i32,
        "the test run has its own process group"
    );
    assert!(
        group_members(pgid).contains(&grandchild),
        "the test's child is in the group"
    );
    // SAFETY: kill(2) on the slopguard process this test started.
    unsafe {
        libc::kill(slopguard.id() as i32, signal);
    }
    let status = slopguard.wait().unwrap();
    if signal != libc::SIGKILL {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            status.signal(),
            Some(signal),
            "slopguard dies of the signal"
        );
        assert!(
            within_5s(|| group_members(pgid).is_empty()),
            "processes of the test run's group survived: {:?}",
            group_members(pgid)
        );
    } else {
        assert!(
            within_5s(|| !alive(runner)),
            "the test runner survived slopguard's SIGKILL"
        );
        assert!(
            within_5s(|| !alive(grandchild)),
            "the test's own child survived slopguard's SIGKILL"
        );
    }
    let _ = std::fs::remove_file(&mark);
}

#[test]
fn sigterm_kills_the_test_run_group() {
    stopped_by(libc::SIGTERM);
}

#[test]
fn sigint_kills_the_test_run_group() {
    stopped_by(libc::SIGINT);
}

#[test]
fn sigkill_takes_the_test_runner_and_its_children_down() {
    stopped_by(libc::SIGKILL);
}
