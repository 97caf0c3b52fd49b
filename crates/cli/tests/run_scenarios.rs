//! End-to-end scenarios of `slopguard run` against the scripted OpenAI-compatible server (real
//! HTTP on loopback), driving the built binary on copies of the bench ladder's rungs with an
//! operator plan (`--plan-from-file`, so no planner call). The recorded model replies are
//! fixtures under `tests/scenarios/<name>/` (`script.yaml`, `plan.json`).
//!
//! After every scenario: the branch holds only guarded commits (one per landed subtask, with the
//! subtask and run trailers, touching exactly the files the summary reports), the user's working
//! tree, index and HEAD are byte-identical to before (including uncommitted edits and untracked
//! files), and the store (SQLite at a temp path) holds one observation per subtask.
//!
//! Toolchains: the Python rungs need `python3` (pytest is optional: the runner falls back to
//! unittest), the JavaScript rung `node`, the Rust rung `cargo`. A scenario whose toolchain is
//! missing is skipped with a notice on stderr.

mod common;
use common::git;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use scripted_llm::{Script, ScriptedServer};
use serde_json::Value;
use slopguard_testkit::{BUILD_OUTPUTS, copy_dir, snapshot};

fn ladder(rung: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/ladder")
        .join(rung)
}

fn scenario_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios")
        .join(name)
}

fn on_path(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// True (and a notice printed) when a required toolchain is missing.
fn skip_without(scenario: &str, programs: &[&str]) -> bool {
    for p in programs {
        if !on_path(p) {
            eprintln!("run_scenarios: skipping {scenario}: `{p}` is not installed");
            return true;
        }
    }
    false
}

/// The user's side of the repository: files, HEAD, index entries, status.
#[derive(Debug, PartialEq)]
struct UserState {
    files: BTreeMap<String, Vec<u8>>,
    head: String,
    head_ref: String,
    index: String,
    status: String,
}

fn user_state(repo: &Path) -> UserState {
    UserState {
        files: snapshot(repo),
        head: git(repo, &["rev-parse", "HEAD"]),
        head_ref: git(repo, &["symbolic-ref", "HEAD"]),
        index: git(repo, &["ls-files", "--stage"]),
        status: git(
            repo,
            &[
                "status",
                "--porcelain=v1",
                "--untracked-files=all",
                "--ignored",
            ],
        )
        .lines()
        .filter(|l| !l.contains(".slopguard"))
        .collect::<Vec<_>>()
        .join("\n"),
    }
}

/// A scenario's sandbox: the user's repository (a committed ladder rung plus uncommitted edits
/// and an untracked file), a store path and a worktree path.
struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    fn new(rung: &str) -> Sandbox {
        let dir = tempfile::tempdir().expect("tempdir");
        let s = Sandbox { dir };
        let repo = s.repo();
        copy_dir(&ladder(rung), &repo, BUILD_OUTPUTS);
        git(&repo, &["init", "-q", "-b", "main"]);
        git(&repo, &["config", "user.email", "user@example.invalid"]);
        git(&repo, &["config", "user.name", "User"]);
        git(&repo, &["config", "commit.gpgsign", "false"]);
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "-q", "-m", "ladder rung"]);
        // The user's own work in progress, which the run must not touch.
        let readme = repo.join("README.md");
        let mut text = std::fs::read_to_string(&readme).expect("README");
        text.push_str("\nLocal notes, not committed.\n");
        std::fs::write(&readme, text).expect("write");
        std::fs::write(repo.join("scratch-notes.txt"), "untracked\n").expect("write");
        s
    }

    fn repo(&self) -> PathBuf {
        self.dir.path().join("repo")
    }

    fn db_path(&self) -> PathBuf {
        self.dir.path().join("store.db")
    }

    fn worktree(&self) -> PathBuf {
        self.dir.path().join("worktree")
    }
}

/// What one run produced.
struct RunResult {
    code: i32,
    summary: Value,
    stderr: String,
    requests: Vec<Value>,
}

fn run_scenario(sb: &Sandbox, name: &str, extra: &[&str]) -> RunResult {
    let dir = scenario_dir(name);
    let script = Script::from_file(&dir.join("script.yaml")).expect("script fixture");
    let server = ScriptedServer::start(script).expect("scripted server");
    let db = format!("sqlite://{}", sb.db_path().display());
    let plan = dir.join("plan.json");
    let repo = sb.repo();
    let worktree = sb.worktree();
    let mut args: Vec<&str> = vec![
        "run",
        repo.to_str().expect("utf-8 path"),
        "--plan-from-file",
        plan.to_str().expect("utf-8 path"),
        "--model",
        "scripted-model",
        "--db",
        &db,
        "--worktree",
        worktree.to_str().expect("utf-8 path"),
        "--no-analysis-run",
        // The scenarios script the model's answers; the repair templates are tested apart.
        "--no-templates",
        "--timeout",
        "300",
        "--format",
        "json",
        "--quiet",
    ];
    if !extra.contains(&"--candidates") {
        // One candidate per attempt unless the scenario is about candidates: each script step
        // is one attempt's reply.
        args.extend(["--candidates", "1"]);
    }
    let url = server.url();
    args.extend(["--llm-url", &url]);
    args.extend_from_slice(extra);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_slopguard"));
    cmd.current_dir(sb.dir.path())
        .args(&args)
        .env("NO_COLOR", "1");
    for (k, _) in std::env::vars() {
        if k.starts_with("SLOPGUARD_") || k == "GITHUB_TOKEN" || k == "GH_TOKEN" {
            cmd.env_remove(k);
        }
    }
    let out = cmd.output().expect("slopguard runs");
    let code = out.status.code().unwrap_or(-1);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{name}: stdout is not the JSON summary ({e}); exit {code}\nstdout: {}\nstderr: {stderr}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    RunResult {
        code,
        summary,
        stderr,
        requests: server.chat_requests(),
    }
}

fn subtasks(summary: &Value) -> Vec<Value> {
    summary["tasks"]
        .as_array()
        .expect("tasks")
        .iter()
        .flat_map(|t| t["subtasks"].as_array().cloned().unwrap_or_default())
        .collect()
}

/// Guard slugs that blocked `attempt` of a subtask.
fn blocked_on(st: &Value, attempt: u64) -> Vec<String> {
    let mut v: Vec<String> = st["guard_activity"]
        .as_array()
        .expect("guard_activity")
        .iter()
        .filter(|a| a["attempt"].as_u64() == Some(attempt) && a["status"] == "blocked")
        .map(|a| a["guard"].as_str().unwrap_or("").to_string())
        .collect();
    v.sort();
    v.dedup();
    v
}

/// The last user message of a chat request.
fn last_user_message(req: &Value) -> String {
    req["messages"]
        .as_array()
        .and_then(|m| m.iter().rev().find(|m| m["role"] == "user"))
        .and_then(|m| m["content"].as_str())
        .unwrap_or("")
        .to_string()
}

/// Observations of the run in the SQLite store, read with Python's sqlite3 (no async runtime
/// needed here): (subtask id, outcome, failure modes JSON, commit).
fn observations(db: &Path, run_id: &str) -> Vec<(String, String, String, String)> {
    let code = "import json, sqlite3, sys\n\
                c = sqlite3.connect(sys.argv[1])\n\
                rows = c.execute('SELECT subtask_id, outcome, failure_modes, commit_sha FROM observations WHERE run_id = ? ORDER BY id', (sys.argv[2],)).fetchall()\n\
                print(json.dumps([[r[0] or '', r[1], r[2], r[3] or ''] for r in rows]))\n";
    let out = Command::new("python3")
        .args(["-c", code, db.to_str().expect("utf-8"), run_id])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "reading the store: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Vec<String>> = serde_json::from_slice(&out.stdout).expect("rows");
    rows.into_iter()
        .map(|r| (r[0].clone(), r[1].clone(), r[2].clone(), r[3].clone()))
        .collect()
}

/// The invariants every scenario must keep.
fn assert_invariants(sb: &Sandbox, before: &UserState, r: &RunResult) {
    let repo = sb.repo();
    let s = &r.summary;
    // 1. The user's working tree, index and HEAD are untouched.
    let after = user_state(&repo);
    assert_eq!(
        before.files.keys().collect::<Vec<_>>(),
        after.files.keys().collect::<Vec<_>>(),
        "the set of files in the user's working tree changed"
    );
    for (path, bytes) in &before.files {
        assert!(
            after.files.get(path) == Some(bytes),
            "the user's file {path} changed"
        );
    }
    assert_eq!(before, &after, "the user's HEAD, index or status changed");

    // 2. The branch holds only guarded commits: one per committed subtask, in order, each with
    //    the subtask and run trailers and touching exactly the reported files.
    let run_id = s["run_id"].as_str().expect("run_id");
    let branch = s["branch"].as_str().expect("branch");
    let base = s["base_commit"].as_str().expect("base_commit");
    assert_eq!(
        base,
        before.head.trim(),
        "the branch starts at the user's HEAD"
    );
    // A run that committed nothing leaves no branch (and reports none).
    let commits: Vec<String> = if branch.is_empty() {
        Vec::new()
    } else {
        git(
            &repo,
            &[
                "rev-list",
                "--reverse",
                &format!("{base}..refs/heads/{branch}"),
            ],
        )
        .lines()
        .map(str::to_string)
        .collect()
    };
    let committed: Vec<Value> = subtasks(s)
        .into_iter()
        .filter(|st| st["status"] == "committed")
        .collect();
    assert_eq!(
        commits.len(),
        committed.len(),
        "one commit per committed subtask; commits: {commits:?}"
    );
    for (commit, st) in commits.iter().zip(&committed) {
        assert_eq!(st["commit"].as_str(), Some(commit.as_str()));
        let msg = git(&repo, &["log", "-1", "--format=%B", commit]);
        let id = st["id"].as_str().expect("id");
        assert!(
            msg.contains(&format!("Slopguard-Subtask: {id}\n")),
            "{commit} lacks the subtask trailer:\n{msg}"
        );
        assert!(
            msg.contains(&format!("Slopguard-Run: {run_id}")),
            "{commit} lacks the run trailer:\n{msg}"
        );
        let mut files: Vec<String> = git(
            &repo,
            &["diff-tree", "--no-commit-id", "--name-only", "-r", commit],
        )
        .lines()
        .map(str::to_string)
        .collect();
        files.sort();
        let mut reported: Vec<String> = st["touched_files"]
            .as_array()
            .expect("touched_files")
            .iter()
            .map(|f| f.as_str().unwrap_or("").to_string())
            .collect();
        reported.sort();
        assert_eq!(
            files, reported,
            "{commit} touches other files than reported"
        );
        // The guards that passed the landed attempt are named in the message.
        assert!(msg.contains("Guards passed: "), "{msg}");
    }
    // The worktree is gone (not kept) and the branch is not checked out anywhere else.
    assert!(
        !sb.worktree().exists(),
        "the run's worktree was not removed"
    );

    // 3. One observation per subtask in the store, with the right outcome.
    let obs = observations(&sb.db_path(), run_id);
    let all = subtasks(s);
    assert_eq!(
        obs.len(),
        all.len(),
        "one observation per subtask; got {obs:?}"
    );
    for st in &all {
        let id = st["id"].as_str().expect("id");
        let mine: Vec<_> = obs.iter().filter(|o| o.0 == id).collect();
        assert_eq!(mine.len(), 1, "observations of {id}: {mine:?}");
        let expected = if st["status"] == "failed" {
            "fail"
        } else {
            "success"
        };
        assert_eq!(mine[0].1, expected, "outcome of {id}");
        assert_eq!(
            mine[0].3,
            st["commit"].as_str().unwrap_or(""),
            "commit of {id} in the store"
        );
    }
}

fn file_on_branch(repo: &Path, branch: &str, path: &str) -> String {
    git(repo, &["show", &format!("refs/heads/{branch}:{path}")])
}

/// A "blocked once, then the retry lands" scenario: runs `scenario` on a copy of `rung` and
/// checks that its only subtask was committed by attempt 2 after `guard` blocked attempt 1, with
/// one model request per attempt. Returns the sandbox, the user's state before the run, the run
/// and the subtask, for the scenario's own checks.
fn blocked_once_then_landed(
    rung: &str,
    scenario: &str,
    guard: &str,
) -> (Sandbox, UserState, RunResult, Value) {
    let sb = Sandbox::new(rung);
    let before = user_state(&sb.repo());
    let r = run_scenario(&sb, scenario, &[]);
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    let st = subtasks(&r.summary)[0].clone();
    assert_eq!(st["status"], "committed", "{st:#}");
    assert_eq!(st["attempts"], 2);
    assert!(blocked_on(&st, 1).contains(&guard.to_string()), "{st:#}");
    assert!(blocked_on(&st, 2).is_empty(), "{st:#}");
    assert_eq!(r.requests.len(), 2);
    (sb, before, r, st)
}

#[test]
fn a_model_fixes_the_bug_in_one_go() {
    if skip_without("a", &["python3"]) {
        return;
    }
    let sb = Sandbox::new("rung-3-python-sql");
    let before = user_state(&sb.repo());
    let r = run_scenario(&sb, "a_fix_in_one_go", &[]);
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    assert_eq!(r.summary["status"], "completed");
    let st = &subtasks(&r.summary)[0];
    assert_eq!(st["status"], "committed");
    assert_eq!(st["attempts"], 1);
    assert!(blocked_on(st, 1).is_empty(), "{st:#}");
    assert_eq!(r.requests.len(), 1);
    let branch = r.summary["branch"].as_str().expect("branch");
    let db = file_on_branch(&sb.repo(), branch, "src/db.py");
    assert!(db.contains("WHERE name = ?\", (name,)"), "{db}");
    assert!(db.contains("conn.row_factory = sqlite3.Row"));
    // The fix made the failing tests pass: the baseline advanced, nothing regressed.
    let passed: Vec<&str> = st["guard_activity"]
        .as_array()
        .expect("activity")
        .iter()
        .filter(|a| a["status"] == "passed")
        .map(|a| a["guard"].as_str().unwrap_or(""))
        .collect();
    assert!(passed.contains(&"test-regression"), "{passed:?}");
    assert!(passed.contains(&"symbol-preservation"), "{passed:?}");
    // No GitHub remote: the PR body is written locally and its path reported.
    let pr = &r.summary["pr"];
    assert_eq!(pr["opened"], false, "{pr:#}");
    let body_path = pr["body_path"].as_str().expect("pr.body_path");
    let body = std::fs::read_to_string(body_path).expect("PR body file");
    assert!(
        body.contains(branch) || body.contains("src/db.py"),
        "{body}"
    );
    assert_invariants(&sb, &before, &r);
}

#[test]
fn with_auto_candidates_the_first_full_fix_lands_while_the_next_is_written() {
    if skip_without("j-auto", &["python3"]) {
        return;
    }
    let sb = Sandbox::new("rung-3-python-sql");
    let before = user_state(&sb.repo());
    // Two scripted replies: the statement fixed, then the file copied back. With `auto` the
    // second candidate's call starts while the first one's tests run; the first lands at
    // once, and the second is given up, never judged. Without the eager judging, all twelve
    // candidates of `auto` would be sampled first.
    let r = run_scenario(&sb, "j_fault_line", &["--candidates", "auto"]);
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    let st = &subtasks(&r.summary)[0];
    assert_eq!(st["status"], "committed", "{st:#}");
    assert_eq!(st["attempts"], 1, "{st:#}");
    let lines: Vec<String> = st["attempt_log"][0]["candidates"]
        .as_array()
        .expect("candidate lines")
        .iter()
        .map(|c| c.as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("passed static gates"), "{lines:?}");
    let branch = r.summary["branch"].as_str().expect("branch");
    let db = file_on_branch(&sb.repo(), branch, "src/db.py");
    assert!(db.contains("WHERE name = ?\", (name,)"), "{db}");
    assert_invariants(&sb, &before, &r);
}

#[test]
fn b_a_fix_that_dropped_functions_is_blocked_by_g7_then_salvaged_without_the_loss() {
    if skip_without("b", &["python3"]) {
        return;
    }
    let sb = Sandbox::new("rung-3-python-sql");
    let before = user_state(&sb.repo());
    let r = run_scenario(&sb, "b_drop_function_g7", &[]);
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    let st = subtasks(&r.summary)[0].clone();
    assert_eq!(st["status"], "committed", "{st:#}");
    // The reply as sent was refused by G7; its fix, spliced into the file as it was, landed in
    // the same attempt: no second model call.
    assert_eq!(st["attempts"], 1, "{st:#}");
    assert_eq!(st["fix_source"], "salvaged", "{st:#}");
    assert!(
        blocked_on(&st, 1).contains(&"symbol-preservation".to_string()),
        "{st:#}"
    );
    assert_eq!(r.requests.len(), 1);
    let db = file_on_branch(
        &sb.repo(),
        r.summary["branch"].as_str().expect("b"),
        "src/db.py",
    );
    assert!(db.contains("def init_schema(conn):") && db.contains("def seed(conn):"));
    assert!(db.contains("WHERE name = ?"), "{db}");
    assert_invariants(&sb, &before, &r);
}

#[test]
fn c_broken_passing_test_is_blocked_by_g8_and_the_retry_lands() {
    if skip_without("c", &["python3"]) {
        return;
    }
    let (sb, before, r, st) = blocked_once_then_landed(
        "rung-3-python-sql",
        "c_break_passing_test_g8",
        "test-regression",
    );
    assert_eq!(
        blocked_on(&st, 1),
        vec!["test-regression".to_string()],
        "{st:#}"
    );
    let g8 = st["guard_activity"]
        .as_array()
        .expect("activity")
        .iter()
        .find(|a| a["attempt"] == 1 && a["guard"] == "test-regression")
        .expect("G8 verdict")
        .clone();
    assert_eq!(g8["code"], "G8");
    assert!(
        g8["messages"][0]
            .as_str()
            .unwrap_or("")
            .contains("test_find_known_user"),
        "{g8:#}"
    );
    // The retry's prompt carries the broken tests.
    assert!(last_user_message(&r.requests[1]).contains("test_find_known_user"));
    let db = file_on_branch(
        &sb.repo(),
        r.summary["branch"].as_str().expect("b"),
        "src/db.py",
    );
    assert!(db.contains("conn.row_factory = sqlite3.Row"), "{db}");
    assert!(db.contains("WHERE name = ?\", (name,)"), "{db}");
    assert_invariants(&sb, &before, &r);
}

#[test]
fn d_skipping_the_failing_test_is_blocked_by_test_integrity() {
    if skip_without("d", &["node", "python3"]) {
        return;
    }
    let (sb, before, r, st) =
        blocked_once_then_landed("rung-4-js-slugify", "d_skip_failing_test", "test-integrity");
    // The skipped test never reached the branch; the code fix did.
    let branch = r.summary["branch"].as_str().expect("b");
    let t = file_on_branch(&sb.repo(), branch, "test/slugify.test.js");
    assert!(!t.contains("test.skip"), "{t}");
    assert!(file_on_branch(&sb.repo(), branch, "src/slugify.js").contains("/[^a-z0-9]+/g"));
    assert_eq!(
        st["touched_files"],
        serde_json::json!(["src/slugify.js"]),
        "{st:#}"
    );
    assert_invariants(&sb, &before, &r);
}

#[test]
fn d_skip_marker_is_blocked_by_static_test_integrity_even_under_unittest() {
    if skip_without("d2", &["python3"]) {
        return;
    }
    let sb = Sandbox::new("rung-0-python-calc");
    let before = user_state(&sb.repo());
    let r = run_scenario(&sb, "d2_unittest_skip_marker", &[]);
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    let st = &subtasks(&r.summary)[0];
    assert_eq!(st["status"], "committed", "{st:#}");
    assert_eq!(st["attempts"], 2);
    assert!(
        st["guard_activity"]
            .as_array()
            .expect("activity")
            .iter()
            .any(|a| a["attempt"] == 1
                && a["guard"] == "test-integrity"
                && a["phase"] == "static"
                && a["status"] == "blocked"),
        "{st:#}"
    );
    assert!(blocked_on(st, 2).is_empty(), "{st:#}");
    let branch = r.summary["branch"].as_str().expect("b");
    assert!(!file_on_branch(&sb.repo(), branch, "tests/test_stats.py").contains("unittest.skip"));
    assert_invariants(&sb, &before, &r);
}

#[test]
fn e_unparseable_output_fails_the_subtask_cleanly_and_the_run_continues() {
    if skip_without("e", &["python3"]) {
        return;
    }
    let sb = Sandbox::new("rung-0-python-calc");
    let before = user_state(&sb.repo());
    let r = run_scenario(&sb, "e_unparseable_three_times", &[]);
    // Some subtasks failed: exit 1, status partial.
    assert_eq!(r.code, 1, "stderr: {}", r.stderr);
    assert_eq!(r.summary["status"], "partial");
    let all = subtasks(&r.summary);
    assert_eq!(all.len(), 2);
    let first = &all[0];
    assert_eq!(first["status"], "failed", "{first:#}");
    assert_eq!(first["attempts"], 3);
    assert!(first["commit"].is_null());
    for attempt in 1..=3 {
        assert_eq!(
            blocked_on(first, attempt),
            vec!["json".to_string()],
            "{first:#}"
        );
        let outcome = &first["attempt_log"][attempt as usize - 1]["outcome"];
        assert_eq!(outcome, "apply_error", "no reply became a change");
    }
    assert_eq!(
        first["failure_modes"],
        serde_json::json!(["json_parse_bad"])
    );
    assert!(
        first["error"]
            .as_str()
            .unwrap_or("")
            .contains("failed after 3 attempt"),
        "{first:#}"
    );
    let second = &all[1];
    assert_eq!(second["status"], "committed", "{second:#}");
    assert_eq!(second["attempts"], 1);
    // Three unusable replies (one per attempt), then the fix.
    assert_eq!(r.requests.len(), 4);
    // All four count in the run's token tally, the unusable ones included (the scripted server
    // reports a quarter of each request's length as its prompt tokens).
    let prompt: u64 = r
        .requests
        .iter()
        .map(|q| q.to_string().len() as u64 / 4)
        .sum();
    assert_eq!(
        r.summary["usage"]["prompt"], prompt,
        "{:#}",
        r.summary["usage"]
    );
    let stats = file_on_branch(
        &sb.repo(),
        r.summary["branch"].as_str().expect("b"),
        "calc/stats.py",
    );
    assert!(
        stats.contains("return total(values) / len(values)"),
        "{stats}"
    );
    let obs = observations(&sb.db_path(), r.summary["run_id"].as_str().expect("id"));
    let failed = obs.iter().find(|o| o.0 == "T001-S01").expect("S01");
    assert!(failed.2.contains("json_parse_bad"), "{failed:?}");
    assert_invariants(&sb, &before, &r);
}

#[test]
fn f_unasked_package_json_edit_is_blocked_by_g1() {
    if skip_without("f", &["node", "python3"]) {
        return;
    }
    let (sb, before, r, _) =
        blocked_once_then_landed("rung-4-js-slugify", "f_manifest_edit_g1", "manifest-block");
    assert!(last_user_message(&r.requests[1]).contains("package.json"));
    let branch = r.summary["branch"].as_str().expect("b");
    assert_eq!(
        file_on_branch(&sb.repo(), branch, "package.json"),
        std::fs::read_to_string(ladder("rung-4-js-slugify").join("package.json")).expect("read")
    );
    assert_invariants(&sb, &before, &r);
}

#[test]
fn f_unasked_cargo_toml_edit_is_blocked_by_g1() {
    if skip_without("f2", &["cargo", "python3"]) {
        return;
    }
    let (sb, before, r, _) = blocked_once_then_landed(
        "rung-2-rust-stack",
        "f2_cargo_manifest_g1",
        "manifest-block",
    );
    let branch = r.summary["branch"].as_str().expect("b");
    assert!(!file_on_branch(&sb.repo(), branch, "Cargo.toml").contains("smallvec"));
    assert!(file_on_branch(&sb.repo(), branch, "src/lib.rs").contains("self.items.last()"));
    assert_invariants(&sb, &before, &r);
}

#[test]
fn g_of_four_candidates_only_the_one_that_passes_every_gate_lands() {
    if skip_without("g", &["python3"]) {
        return;
    }
    let sb = Sandbox::new("rung-0-python-calc");
    let before = user_state(&sb.repo());
    let r = run_scenario(&sb, "g_three_candidates", &["--candidates", "4"]);
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    let st = &subtasks(&r.summary)[0];
    assert_eq!(st["status"], "committed", "{st:#}");
    assert_eq!(st["attempts"], 1);
    assert_eq!(st["candidates"], 4);
    assert_eq!(st["candidates_beaten"], 3);
    assert_eq!(r.requests.len(), 4);
    let blocked = blocked_on(st, 1);
    assert!(
        blocked.contains(&"symbol-preservation".to_string()),
        "{blocked:?}"
    );
    assert!(
        blocked.contains(&"test-regression".to_string()),
        "{blocked:?}"
    );
    let branch = r.summary["branch"].as_str().expect("branch");
    let stats = file_on_branch(&sb.repo(), branch, "calc/stats.py");
    assert!(
        stats.contains("return total(values) / len(values)"),
        "{stats}"
    );
    assert!(stats.contains("return result\n"), "{stats}");
    assert!(stats.contains("def spread"), "{stats}");
    let log = git(
        &sb.repo(),
        &["log", "--format=%s", &format!("HEAD..{branch}")],
    );
    assert_eq!(log.trim(), "fix(stats): average uses true division");
    assert_invariants(&sb, &before, &r);
}

#[test]
fn h_the_majority_patch_lands_when_several_pass() {
    if skip_without("h", &["python3"]) {
        return;
    }
    let sb = Sandbox::new("rung-0-python-calc");
    let before = user_state(&sb.repo());
    let r = run_scenario(&sb, "h_majority_vote", &["--candidates", "3"]);
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    let st = &subtasks(&r.summary)[0];
    assert_eq!(st["status"], "committed", "{st:#}");
    let branch = r.summary["branch"].as_str().expect("branch");
    let stats = file_on_branch(&sb.repo(), branch, "calc/stats.py");
    assert!(
        stats.contains("return total(values) / len(values)\n"),
        "{stats}"
    );
    assert!(!stats.contains("sum(values)"), "{stats}");
    let candidates: Vec<String> = st["attempt_log"][0]["candidates"]
        .as_array()
        .expect("candidate lines")
        .iter()
        .map(|c| c.as_str().unwrap_or("").to_string())
        .collect();
    assert!(
        candidates[2].contains("same patch as candidate 2"),
        "{candidates:?}"
    );
    assert_invariants(&sb, &before, &r);
}

#[test]
fn j_the_statement_where_the_tests_break_is_asked_for_alone_and_spliced() {
    if skip_without("j", &["python3"]) {
        return;
    }
    let sb = Sandbox::new("rung-3-python-sql");
    let before = user_state(&sb.repo());
    let r = run_scenario(&sb, "j_fault_line", &["--candidates", "2"]);
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    let st = &subtasks(&r.summary)[0];
    assert_eq!(st["status"], "committed", "{st:#}");
    assert_eq!(r.requests.len(), 2);
    let asked = last_user_message(&r.requests[0]);
    // The statement inside the definition the tests call: asked with that definition alone,
    // with the error it raised, not with the whole file.
    assert!(
        asked.contains("This line of `find_user` is where the failing tests break, raising"),
        "{asked}"
    );
    assert!(!asked.contains("FILES:"), "{asked}");
    assert!(asked.contains("WHERE name = '{name}'"), "{asked}");
    let candidates = st["attempt_log"][0]["candidates"].to_string();
    assert!(candidates.contains("changes nothing"), "{candidates}");
    assert!(candidates.contains("src/db.py: line"), "{candidates}");
    let branch = r.summary["branch"].as_str().expect("branch");
    let db = file_on_branch(&sb.repo(), branch, "src/db.py");
    assert!(
        db.contains("\n    row = conn.execute(\"SELECT id, name, email FROM users WHERE name = ?\", (name,)).fetchone()\n    return dict(row)"),
        "{db}"
    );
    assert_invariants(&sb, &before, &r);
}

#[test]
fn k_a_statement_sent_back_unchanged_is_continued_in_its_conversation_at_once() {
    if skip_without("k", &["python3"]) {
        return;
    }
    let sb = Sandbox::new("rung-3-python-sql");
    let before = user_state(&sb.repo());
    let r = run_scenario(&sb, "k_copy_back_continued", &["--candidates", "auto"]);
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    let st = &subtasks(&r.summary)[0];
    assert_eq!(st["status"], "committed", "{st:#}");
    assert_eq!(st["attempts"], 1, "{st:#}");
    // A third call may be under way while the second answer is judged.
    assert!(r.requests.len() >= 2, "{:#?}", r.requests);
    // The second request is the first conversation, continued: the same opening, the copy as
    // the model's turn, then the request to change it. Not a fresh prompt about another
    // statement or definition.
    let first = r.requests[0]["messages"].as_array().expect("messages");
    let second = r.requests[1]["messages"].as_array().expect("messages");
    assert_eq!(second.len(), first.len() + 2, "{second:#?}");
    assert_eq!(&second[..first.len()], &first[..]);
    assert_eq!(second[first.len()]["role"], "assistant");
    assert!(
        second[first.len()]["content"]
            .as_str()
            .unwrap_or("")
            .contains("WHERE name = '{name}'"),
        "{second:#?}"
    );
    assert!(
        last_user_message(&r.requests[1]).contains("That is the code as it already is"),
        "{second:#?}"
    );
    let branch = r.summary["branch"].as_str().expect("branch");
    let db = file_on_branch(&sb.repo(), branch, "src/db.py");
    assert!(db.contains("WHERE name = ?\", (name,)"), "{db}");
    assert_invariants(&sb, &before, &r);
}

#[test]
fn i_an_exhausted_subtask_budget_fails_the_subtask_cleanly() {
    if skip_without("i", &["python3"]) {
        return;
    }
    let sb = Sandbox::new("rung-0-python-calc");
    let before = user_state(&sb.repo());
    let r = run_scenario(
        &sb,
        "i_budget_exhausted",
        &["--candidates", "3", "--subtask-budget", "1"],
    );
    assert_eq!(r.code, 1, "stderr: {}", r.stderr);
    let st = &subtasks(&r.summary)[0];
    assert_eq!(st["status"], "failed", "{st:#}");
    assert_eq!(st["attempts"], 1);
    assert_eq!(r.requests.len(), 1);
    let error = st["error"].as_str().unwrap_or("");
    assert!(error.contains("time budget (1 s) ran out"), "{error}");
    // The last findings are the one candidate's: asked for `average` alone, it sent the file
    // back with `average` unchanged.
    assert!(error.contains("changes nothing"), "{error}");
    // Nothing was committed: no branch is left behind.
    assert_eq!(r.summary["branch"], "", "{:#}", r.summary);
    let branches = git(&sb.repo(), &["branch", "--list", "slopguard/*"]);
    assert!(branches.trim().is_empty(), "{branches}");
    assert_invariants(&sb, &before, &r);
}

#[test]
fn progress_is_plain_lines_when_stderr_is_not_a_terminal() {
    if skip_without("progress", &["python3"]) {
        return;
    }
    let sb = Sandbox::new("rung-3-python-sql");
    let dir = scenario_dir("a_fix_in_one_go");
    // The model takes 11 s: the plain view says it is still working at least once meanwhile.
    let fix = "fix(db): pass the name as a query parameter\nsrc/db.py\n<<<<<<< SEARCH\n    row = conn.execute(f\"SELECT id, name, email FROM users WHERE name = '{name}'\").fetchone()\n=======\n    row = conn.execute(\"SELECT id, name, email FROM users WHERE name = ?\", (name,)).fetchone()\n>>>>>>> REPLACE\n";
    let server = ScriptedServer::start(
        Script::new()
            .models(&["scripted-model"])
            .delayed(11_000, fix),
    )
    .expect("scripted server");
    let repo = sb.repo();
    let out = Command::new(env!("CARGO_BIN_EXE_slopguard"))
        .current_dir(sb.dir.path())
        .args(["run", repo.to_str().expect("utf-8"), "--plan-from-file"])
        .arg(dir.join("plan.json"))
        .args(["--model", "scripted-model", "--llm-url", &server.url()])
        .args([
            "--no-store",
            "--no-analysis-run",
            "--no-templates",
            "--candidates",
            "1",
        ])
        .arg("--worktree")
        .arg(sb.worktree())
        .env("NO_COLOR", "1")
        .output()
        .expect("slopguard runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    for line in [
        "] phase execution",
        "] subtask 1/1 T001-S01",
        "] T001-S01 attempt 1/3",
        "T001-S01 attempt 1 candidate 1 (t=0.2)",
        "] T001-S01 committed",
        "] still working: T001-S01 attempt 1/3 (waiting for the model or the tests)",
    ] {
        assert!(stderr.contains(line), "missing `{line}` in:\n{stderr}");
    }
}
