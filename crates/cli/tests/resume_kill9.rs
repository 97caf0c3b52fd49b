//! `slopguard run` killed with SIGKILL at random points, then `--resume`d until it finishes:
//! every subtask is committed exactly once, in order, and the user's working tree (including an
//! uncommitted edit and an untracked file) stays byte-identical. The model is a scripted
//! OpenAI-compatible server; after each kill a fresh server serves the replies of the subtasks
//! that the branch does not hold yet.
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]
#![allow(
    unsafe_code,
    reason = "the test kills or inspects the processes it started through libc"
)]

mod common;
use common::git;

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use scripted_llm::{Script, ScriptedServer};
use slopguard_testkit::snapshot;

const N: usize = 4;

fn make_repo(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["config", "user.email", "t@example.com"]);
    git(dir, &["config", "user.name", "t"]);
    std::fs::create_dir_all(dir.join("pkg")).unwrap();
    for i in 1..=N {
        std::fs::write(
            dir.join(format!("pkg/m{i}.py")),
            format!("def value_{i}():\n    return 0\n"),
        )
        .unwrap();
    }
    std::fs::write(dir.join("README.md"), "# sample\n").unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "init"]);
    // The user's own uncommitted work, which the run must never touch.
    std::fs::write(dir.join("README.md"), "# sample\n\nwork in progress\n").unwrap();
    std::fs::write(dir.join("scratch.txt"), "untracked\n").unwrap();
}

fn plan_json() -> String {
    let subtasks: Vec<serde_json::Value> = (1..=N)
        .map(|i| {
            serde_json::json!({"title": format!("Return {i} from value_{i}"),
                "description": format!("value_{i} must return {i}"),
                "file_hints": [format!("pkg/m{i}.py")], "action": "modify"})
        })
        .collect();
    serde_json::json!({"tasks": [{"id": "T001", "title": "Fix values", "priority": 1,
        "subtasks": subtasks}]})
    .to_string()
}

fn reply(i: usize) -> String {
    serde_json::json!({"commit_message": format!("Return {i} from value_{i}"),
        "patches": [{"action": "modify", "path": format!("pkg/m{i}.py"),
            "edits": [{"search": "    return 0\n", "replace": format!("    return {i}\n")}]}]})
    .to_string()
}

/// Subtask ids on the branch, in order (from the commit trailers).
fn committed(repo: &Path, branch: &str) -> Vec<String> {
    if Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["rev-parse", "--verify", "--quiet", branch])
        .output()
        .map(|o| !o.status.success())
        .unwrap_or(true)
    {
        return Vec::new();
    }
    git(
        repo,
        &[
            "log",
            "--reverse",
            "--format=%B",
            &format!("main..{branch}"),
        ],
    )
    .lines()
    .filter_map(|l| l.strip_prefix("Slopguard-Subtask: ").map(str::to_string))
    .collect()
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn one_seed(seed: u64, max_delay_ms: u64) -> (usize, Duration) {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    make_repo(&repo);
    let plan = dir.path().join("plan.json");
    std::fs::write(&plan, plan_json()).unwrap();
    let db = format!("sqlite://{}", dir.path().join("store.db").display());
    let wt = dir.path().join("wt");
    let before = snapshot(&repo);
    let status_before = git(&repo, &["status", "--porcelain"]);
    let head_before = git(&repo, &["rev-parse", "HEAD"]);
    let branch = "sg/kill";
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut kills = 0;
    let start = Instant::now();
    for round in 0..40 {
        let done = committed(&repo, branch);
        let script = (1..=N)
            .filter(|i| !done.contains(&format!("T001-S{i:02}")))
            .fold(Script::new(), |s, i| s.content(reply(i)));
        let server = ScriptedServer::start(script).unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_slopguard"));
        cmd.arg("run")
            .arg(&repo)
            .args(["--llm-url", &server.url(), "--db", &db])
            .args([
                "--no-tests",
                "--no-analysis-run",
                "--candidates",
                "1",
                "--quiet",
                "--format",
                "json",
            ])
            .arg("--worktree")
            .arg(&wt)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.path().join("stderr.txt")).unwrap())
            .process_group(0);
        // Killed before the run state was first written: nothing to resume, start again.
        let started = repo
            .join(".slopguard/runs")
            .read_dir()
            .is_ok_and(|mut d| d.any(|e| e.is_ok_and(|e| e.path().join("state.json").exists())));
        if !started {
            cmd.arg("--plan-from-file")
                .arg(&plan)
                .args(["--branch", branch]);
        } else {
            cmd.arg("--resume");
        }
        let mut child = cmd.spawn().unwrap();
        let delay = if round < 12 {
            rng.next() % max_delay_ms
        } else {
            u64::MAX
        };
        let t0 = Instant::now();
        let status = loop {
            if let Some(st) = child.try_wait().unwrap() {
                break Some(st);
            }
            if t0.elapsed() >= Duration::from_millis(delay) {
                // Half the time the whole process group (a crash), else only the run process.
                let pid = child.id() as i32;
                let target = if rng.next().is_multiple_of(2) {
                    -pid
                } else {
                    pid
                };
                // SAFETY: kill(2) on the process (group) this test started.
                unsafe {
                    libc::kill(target, libc::SIGKILL);
                }
                let _ = child.wait();
                kills += 1;
                break None;
            }
            assert!(t0.elapsed() < Duration::from_secs(120), "run hung");
            std::thread::sleep(Duration::from_millis(2));
        };
        if let Some(st) = status {
            assert_eq!(
                st.code(),
                Some(0),
                "seed {seed} round {round}: run failed: {}",
                std::fs::read_to_string(dir.path().join("stderr.txt")).unwrap_or_default()
            );
            break;
        }
        // Orphans of a killed run (git, python) finish or die quickly.
        std::thread::sleep(Duration::from_millis(30));
    }
    let ids = committed(&repo, branch);
    let expected: Vec<String> = (1..=N).map(|i| format!("T001-S{i:02}")).collect();
    assert_eq!(ids, expected, "seed {seed}: commits lost or duplicated");
    for i in 1..=N {
        let text = git(&repo, &["show", &format!("{branch}:pkg/m{i}.py")]);
        assert!(text.contains(&format!("return {i}")), "seed {seed}: {text}");
    }
    assert_eq!(snapshot(&repo), before, "seed {seed}: user tree changed");
    assert_eq!(git(&repo, &["status", "--porcelain"]), status_before);
    assert_eq!(git(&repo, &["rev-parse", "HEAD"]), head_before);
    (kills, start.elapsed())
}

#[test]
fn sigkill_at_random_points_then_resume() {
    let seeds: u64 = std::env::var("SLOPGUARD_KILL_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let mut total_kills = 0;
    for seed in 1..=seeds {
        let (kills, took) = one_seed(seed, 900);
        total_kills += kills;
        eprintln!("seed {seed}: {kills} kills, finished in {took:?}");
    }
    assert!(total_kills > 0, "no run was ever killed: raise the delays");
}
