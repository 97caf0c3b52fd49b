//! Recorded hook events fed to the built `slopguard` binary: exact output JSON and exit codes.
//!
//! The binary comes from the workspace's target directory (built by `cargo build -p
//! slopguard-cli` when missing).
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use slopguard_testkit::git;

fn binary() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let exe = std::env::current_exe().unwrap();
            // target/debug/deps/binary-xxxx -> target/debug/slopguard
            let dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
            let bin = dir.join("slopguard");
            // Make sure the binary is current (a no-op when it is).
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let ok = Command::new(cargo)
                .args(["build", "-q", "-p", "slopguard-cli"])
                .status()
                .map(|s| s.success())
                .unwrap_or(false);
            assert!(ok && bin.exists(), "could not build the slopguard binary");
            bin
        })
        .clone()
}

struct Repo {
    dir: tempfile::TempDir,
    session: String,
}

const CALC: &str = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n";

impl Repo {
    fn new(name: &str) -> Repo {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        git(d, &["init", "-q"]);
        std::fs::write(d.join("calc.py"), CALC).unwrap();
        std::fs::write(d.join(".gitignore"), ".slopguard/\n").unwrap();
        git(d, &["add", "."]);
        git(d, &["commit", "-qm", "init"]);
        Repo {
            dir,
            session: format!("sess-{name}"),
        }
    }

    fn path(&self) -> PathBuf {
        self.dir.path().canonicalize().unwrap()
    }

    fn event(&self, name: &str) -> String {
        let text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/events")
                .join(name),
        )
        .unwrap();
        text.replace("{{CWD}}", self.path().to_str().unwrap())
            .replace("{{SESSION}}", &self.session)
    }

    fn run_raw(&self, agent: &str, stdin: &str) -> Output {
        let mut child = Command::new(binary())
            .args(["hook", agent])
            .current_dir(self.path())
            .env("SLOPGUARD_DB", db_url(self.path()))
            .env_remove("SLOPGUARD_CONFIG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    }

    fn run(&self, agent: &str, event: &str) -> (i32, Option<Value>, String) {
        let out = self.run_raw(agent, &self.event(event));
        let stdout = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let json = (!stdout.is_empty()).then(|| {
            serde_json::from_str(&stdout)
                .unwrap_or_else(|e| panic!("stdout not JSON ({e}): {stdout}"))
        });
        (
            out.status.code().unwrap_or(-1),
            json,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn write(&self, rel: &str, text: &str) {
        std::fs::write(self.path().join(rel), text).unwrap();
    }
}

fn deny_reason(v: &Value) -> String {
    let hso = &v["hookSpecificOutput"];
    assert_eq!(hso["hookEventName"], "PreToolUse", "{v}");
    assert_eq!(hso["permissionDecision"], "deny", "{v}");
    assert_eq!(
        v.as_object().unwrap().len(),
        1,
        "only hookSpecificOutput: {v}"
    );
    assert_eq!(hso.as_object().unwrap().len(), 3, "exact keys: {v}");
    hso["permissionDecisionReason"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn blocked_write_that_drops_a_function() {
    let repo = Repo::new("drop");
    let (code, out, _) = repo.run("claude", "claude_write_drops_function.json");
    assert_eq!(code, 0);
    let reason = deny_reason(&out.expect("a deny answer"));
    assert!(
        reason.contains("sub"),
        "names the dropped function: {reason}"
    );
    assert!(
        reason.starts_with("slopguard blocked this edit"),
        "{reason}"
    );
}

#[test]
fn allowed_edit_prints_nothing() {
    let repo = Repo::new("edit");
    let (code, out, stderr) = repo.run("claude", "claude_edit_ok.json");
    assert_eq!((code, out), (0, None), "stderr: {stderr}");
}

#[test]
fn task_file_states_the_intent_edits_are_judged_against() {
    let repo = Repo::new("task");
    let manifest = "{\n  \"name\": \"calc\",\n  \"dependencies\": {}\n}\n";
    repo.write("package.json", manifest);
    git(&repo.path(), &["add", "."]);
    git(&repo.path(), &["commit", "-qm", "manifest"]);
    let path = repo.path().join("package.json");
    let edit = serde_json::json!({
        "session_id": repo.session, "transcript_path": "/tmp/t.jsonl",
        "cwd": repo.path(), "permission_mode": "default", "hook_event_name": "PreToolUse",
        "tool_name": "Edit", "tool_use_id": "toolu_task",
        "tool_input": {"file_path": path, "old_string": "\"dependencies\": {}",
                       "new_string": "\"dependencies\": {\"left-pad\": \"1.3.0\"}",
                       "replace_all": false}
    })
    .to_string();
    let answer = |stdin: &str| {
        let out = repo.run_raw("claude", stdin);
        assert_eq!(out.status.code(), Some(0));
        let stdout = String::from_utf8_lossy(&out.stdout).trim().to_string();
        (!stdout.is_empty()).then(|| serde_json::from_str::<Value>(&stdout).unwrap())
    };
    // No task file: the hook does not know the task, so an unasked manifest edit only warns.
    assert_eq!(answer(&edit), None);
    // A task about calc.py: the dependency was not asked for.
    std::fs::create_dir_all(repo.path().join(".slopguard")).unwrap();
    repo.write(
        ".slopguard/task.toml",
        "title = \"Fix the subtraction in calc.py\"\n",
    );
    let reason = deny_reason(&answer(&edit).expect("a deny answer"));
    assert!(reason.contains("package.json"), "{reason}");
    assert!(reason.contains("manifest"), "{reason}");
    // The same task, allowing the manifest.
    repo.write(
        ".slopguard/task.toml",
        "title = \"Add left-pad\"\nallowed_manifests = [\"package.json\"]\n",
    );
    assert_eq!(answer(&edit), None);
    // A task file that does not parse denies (fail closed on a guard error) and says so.
    repo.write(".slopguard/task.toml", "title = \n");
    let reason = deny_reason(&answer(&edit).expect("a deny answer"));
    assert!(reason.contains(".slopguard/task.toml"), "{reason}");
    // So does an empty one (it would judge every edit against a task that asks for nothing),
    // saying what the file should hold.
    repo.write(".slopguard/task.toml", "");
    let reason = deny_reason(&answer(&edit).expect("a deny answer"));
    assert!(reason.contains(".slopguard/task.toml"), "{reason}");
    assert!(
        reason.contains("the file is empty: expected `title`"),
        "{reason}"
    );
}

#[test]
fn codex_apply_patch_that_breaks_syntax_is_denied() {
    let repo = Repo::new("codex-syntax");
    let (code, out, _) = repo.run("codex", "codex_apply_patch_breaks_syntax.json");
    assert_eq!(code, 0);
    let reason = deny_reason(&out.expect("a deny answer"));
    assert!(reason.contains("calc.py"), "{reason}");
    let (code, out, stderr) = repo.run("codex", "codex_apply_patch_ok.json");
    assert_eq!(
        (code, out),
        (0, None),
        "a good patch passes; stderr: {stderr}"
    );
}

fn block_reason(v: &Value) -> String {
    assert_eq!(v["decision"], "block", "{v}");
    assert_eq!(v.as_object().unwrap().len(), 2, "exact keys: {v}");
    v["reason"].as_str().unwrap().to_string()
}

#[test]
fn stop_without_validation_blocks_once_then_allows() {
    let repo = Repo::new("stop");
    // No edits yet: nothing to verify.
    assert_eq!(repo.run("claude", "claude_stop.json").1, None);
    repo.write("calc.py", &CALC.replace("a - b", "b - a"));
    assert_eq!(repo.run("claude", "claude_post_edit.json").1, None);
    let (code, out, _) = repo.run("claude", "claude_stop.json");
    assert_eq!(code, 0);
    let reason = block_reason(&out.expect("blocked"));
    assert!(reason.contains("no validation has succeeded"), "{reason}");
    assert!(reason.contains("calc.py"), "{reason}");
    // The second stop (stop_hook_active) is let through: never an endless loop.
    let (code, out, stderr) = repo.run("claude", "claude_stop_active.json");
    assert_eq!((code, out), (0, None));
    assert!(stderr.contains("already blocked once"), "{stderr}");
}

#[test]
fn stop_after_tests_pass_on_current_tree_allows_and_a_later_change_blocks() {
    let repo = Repo::new("fresh");
    repo.write("calc.py", &CALC.replace("a - b", "b - a"));
    repo.run("claude", "claude_post_edit.json");
    assert_eq!(
        repo.run("claude", "claude_post_bash_cargo_test.json").1,
        None
    );
    let (code, out, stderr) = repo.run("claude", "claude_stop.json");
    assert_eq!((code, out), (0, None), "stderr: {stderr}");
    // A file changes after the tests passed: the evidence is stale.
    repo.write("calc.py", &CALC.replace("a - b", "a - b - 0"));
    repo.run("claude", "claude_post_edit.json");
    let (code, out, _) = repo.run("claude", "claude_stop.json");
    assert_eq!(code, 0);
    let reason = block_reason(&out.expect("stale evidence blocks"));
    assert!(
        reason.contains("passed earlier, but files changed since"),
        "{reason}"
    );
}

#[test]
fn goal_with_one_uncovered_criterion_blocks_naming_it() {
    let repo = Repo::new("goal");
    std::fs::create_dir_all(repo.path().join(".slopguard")).unwrap();
    repo.write(
        ".slopguard/goal.toml",
        "goal = \"fix sub\"\n\n[[criteria]]\nid = \"unit-tests\"\ncommand = \"cargo test\"\n\n\
         [[criteria]]\nid = \"mul-works\"\ndescription = \"multiplication is covered\"\ntest = \"tests::mul\"\n\n\
         [[criteria]]\nid = \"lint\"\ncommand = \"cargo clippy\"\n",
    );
    repo.write("calc.py", &CALC.replace("a - b", "b - a"));
    repo.run("codex", "claude_post_edit.json");
    repo.run("codex", "claude_post_bash_cargo_test.json");
    let (code, out, _) = repo.run("codex", "codex_stop.json");
    assert_eq!(code, 0);
    let reason = block_reason(&out.expect("blocked"));
    assert!(reason.contains("1 of 3 acceptance criteria"), "{reason}");
    assert!(reason.contains("`lint`"), "{reason}");
    assert!(
        !reason.contains("`unit-tests`") && !reason.contains("`mul-works`"),
        "{reason}"
    );
}

#[test]
fn a_goal_file_that_cannot_be_used_blocks_the_stop_once_naming_it() {
    let repo = Repo::new("bad-goal");
    std::fs::create_dir_all(repo.path().join(".slopguard")).unwrap();
    // No edits yet: a broken goal file does not keep a session that changed nothing working.
    repo.write(".slopguard/goal.toml", "[[criteria]]\nid = \"lint\"\n");
    let (code, out, stderr) = repo.run("claude", "claude_stop.json");
    assert_eq!((code, out), (0, None), "{stderr}");
    repo.write("calc.py", &CALC.replace("a - b", "b - a"));
    repo.run("claude", "claude_post_edit.json");
    // Tests passed on this tree, so only the goal file stands in the way.
    repo.run("claude", "claude_post_bash_cargo_test.json");
    for (content, says) in [
        (
            "[[criteria]]\nid = \"lint\"\n",
            "criterion 'lint' needs a `command` or a `test`",
        ),
        ("", "no acceptance criteria"),
        ("[[criteria]\nid = \"lint\"\n", "invalid goal file"),
    ] {
        repo.write(".slopguard/goal.toml", content);
        let (code, out, stderr) = repo.run("claude", "claude_stop.json");
        assert_eq!(code, 0, "{content:?}: {stderr}");
        let reason = block_reason(&out.unwrap_or_else(|| panic!("{content:?}: not blocked")));
        assert!(reason.contains(".slopguard/goal.toml"), "{reason}");
        assert!(reason.contains(says), "{content:?}: {reason}");
        assert!(
            reason.contains("each with an `id` and a `command` or a `test`"),
            "{reason}"
        );
        assert!(stderr.contains(".slopguard/goal.toml"), "{stderr}");
        // The next stop of the sequence is let through: never an endless loop.
        let (code, out, stderr) = repo.run("claude", "claude_stop_active.json");
        assert_eq!((code, out), (0, None), "{content:?}: {stderr}");
    }
    // Fixed: the criterion is checked again (the tests that ran cover it).
    repo.write(
        ".slopguard/goal.toml",
        "[[criteria]]\nid = \"unit-tests\"\ncommand = \"cargo test\"\n",
    );
    let (code, out, stderr) = repo.run("claude", "claude_stop.json");
    assert_eq!((code, out), (0, None), "{stderr}");
}

#[test]
fn seventh_edit_of_one_file_nudges_once() {
    let repo = Repo::new("doom");
    let mut nudges = Vec::new();
    for i in 1..=10 {
        let (code, out, _) = repo.run("claude", "claude_post_edit.json");
        assert_eq!(code, 0);
        if let Some(v) = out {
            nudges.push((i, v));
        }
    }
    assert_eq!(nudges.len(), 1, "one nudge, not two: {nudges:?}");
    let (i, v) = &nudges[0];
    assert_eq!(*i, 7);
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "PostToolUse");
    let text = v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        text.contains("`calc.py` has now been edited 7 times"),
        "{text}"
    );
    assert_eq!(v.as_object().unwrap().len(), 1);
}

#[test]
fn malformed_input_fails_open_by_default_and_closed_when_configured() {
    let repo = Repo::new("garbled");
    let out = repo.run_raw("claude", "{not json");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("hook input is not a JSON object"), "{err}");
    assert!(err.contains("let through"), "{err}");

    repo.write(
        "slopguard.toml",
        "[hooks]\nfail_closed_on_bad_input = true\n",
    );
    let out = repo.run_raw("codex", "");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("blocked: hooks.fail_closed_on_bad_input = true"),
        "{err}"
    );
}

#[test]
fn guard_failure_denies_by_default_and_passes_when_configured() {
    let repo = Repo::new("crash");
    // A guard configuration the guard stack cannot load (an unknown guard) makes judging fail;
    // the hook settings in the same file still load.
    repo.write("slopguard.toml", "[guards.no-such-guard]\nenabled = true\n");
    let run = |repo: &Repo| {
        let mut child = Command::new(binary())
            .args(["hook", "claude"])
            .env_remove("SLOPGUARD_CONFIG")
            .current_dir(repo.path())
            .env("SLOPGUARD_DB", db_url(repo.path()))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(repo.event("claude_edit_ok.json").as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let out = run(&repo);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let reason = deny_reason(&v);
    assert!(
        reason.contains("the guards failed while judging this edit"),
        "{reason}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("guards failed"));

    repo.write(
        "slopguard.toml",
        "[hooks]\nfail_closed_on_guard_error = false\n\n[guards.no-such-guard]\nenabled = true\n",
    );
    let out = run(&repo);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("let through"));
}

#[test]
fn concurrent_hook_processes_never_lose_an_update() {
    let repo = Repo::new("concurrent");
    let event = repo.event("claude_post_edit.json");
    let children: Vec<_> = (0..12)
        .map(|_| {
            let mut c = Command::new(binary())
                .args(["hook", "claude"])
                .current_dir(repo.path())
                .env("SLOPGUARD_DB", db_url(repo.path()))
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            c.stdin.take().unwrap().write_all(event.as_bytes()).unwrap();
            c
        })
        .collect();
    // A hook that could not write its update says so on stderr (and lets the edit through).
    let mut said = String::new();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(out.status.success());
        said.push_str(&String::from_utf8_lossy(&out.stderr));
    }
    // Read the session back from the same database the hook processes wrote.
    use slopguard_hooks::store::SessionStore;
    let store = slopguard_hooks::db_store::DbStore::open(Some(&db_url(repo.path()))).unwrap();
    let state = store.update("sess-concurrent", Box::new(|_| {})).unwrap();
    assert_eq!(state.edits, 12, "the hooks said: {said}");
    assert_eq!(state.files["calc.py"].total, 12);
}

/// Each test's own session store (SQLite beside the test repository, not inside it).
fn db_url(repo: impl AsRef<std::path::Path>) -> String {
    let name = repo
        .as_ref()
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("repo");
    let dir = std::env::temp_dir().join("slopguard-hook-tests");
    let _ = std::fs::create_dir_all(&dir);
    format!(
        "sqlite://{}/{name}-{}.db",
        dir.display(),
        std::process::id()
    )
}

#[test]
fn hook_settings_come_from_the_config_flag_when_given() {
    let repo = Repo::new("config-flag");
    let elsewhere = tempfile::tempdir().unwrap();
    let toml = elsewhere.path().join("team.toml");
    std::fs::write(&toml, "[hooks]\nfail_closed_on_bad_input = true\n").unwrap();
    let out = Command::new(binary())
        .arg("--config")
        .arg(&toml)
        .args(["hook", "codex"])
        .current_dir(repo.path())
        .env("SLOPGUARD_DB", db_url(repo.path()))
        .env_remove("SLOPGUARD_CONFIG")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("blocked: hooks.fail_closed_on_bad_input = true"),
        "{err}"
    );
}

/// A Write outside the project through the binary: denied in the exact PreToolUse JSON, then
/// put to the user once the project's slopguard.toml says `outside_root = "ask"`.
#[test]
fn write_outside_the_project_is_denied_or_asked() {
    let repo = Repo::new("outside");
    let write = |path: &str| {
        serde_json::json!({
            "session_id": repo.session, "cwd": repo.path(), "hook_event_name": "PreToolUse",
            "tool_name": "Write", "tool_input": {"file_path": path, "content": "x = 1\n"}
        })
        .to_string()
    };
    let answer = |stdin: &str| {
        let out = repo.run_raw("claude", stdin);
        assert_eq!(out.status.code(), Some(0));
        serde_json::from_slice::<Value>(&out.stdout).expect("a JSON answer")
    };
    for path in ["/etc/evil.py", "dir/../../outside.py"] {
        let reason = deny_reason(&answer(&write(path)));
        assert!(reason.contains("outside the project root"), "{reason}");
    }
    repo.write("slopguard.toml", "[hooks]\noutside_root = \"ask\"\n");
    let asked = answer(&write("/etc/evil.py"));
    assert_eq!(
        asked["hookSpecificOutput"]["permissionDecision"], "ask",
        "{asked}"
    );
}
