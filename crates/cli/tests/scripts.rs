//! The setup scripts say what they leave running and stop it when asked:
//! `scripts/llm-setup.sh --stop` stops the server it started (and only that).
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

use std::path::PathBuf;
use std::process::{Command, Stdio};

fn script(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../scripts")
        .join(name)
}

fn stop(venv: &std::path::Path) -> (Option<i32>, String, String) {
    let out = Command::new("bash")
        .arg(script("llm-setup.sh"))
        .arg("--stop")
        .env("LLM_VENV", venv)
        .output()
        .expect("bash runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn llm_setup_stop_stops_the_server_it_started_and_says_so() {
    let venv = tempfile::tempdir().unwrap();
    // Nothing started: nothing to stop, and it says why.
    let (code, stdout, stderr) = stop(venv.path());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.is_empty(), "progress belongs on stderr: {stdout}");
    assert!(stderr.contains("nothing to stop"), "{stderr}");

    // A "server" (a sleeping process) whose pid the script recorded: stopped, and reported.
    let mut server = Command::new("sleep")
        .arg("300")
        .stdin(Stdio::null())
        .spawn()
        .expect("sleep runs");
    std::fs::write(venv.path().join("server.pid"), server.id().to_string()).unwrap();
    let (code, _, stderr) = stop(venv.path());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!("stopped the model server (pid {})", server.id())),
        "{stderr}"
    );
    let status = server.wait().unwrap();
    assert!(
        !status.success(),
        "the server was killed, not left to finish"
    );
    assert!(!venv.path().join("server.pid").exists());

    // Its pid file outliving it: said, and cleaned up.
    std::fs::write(venv.path().join("server.pid"), server.id().to_string()).unwrap();
    let (code, _, stderr) = stop(venv.path());
    assert_eq!(code, Some(0));
    assert!(stderr.contains("was not running any more"), "{stderr}");
    assert!(!venv.path().join("server.pid").exists());
}

#[test]
fn test_sh_says_the_postgresql_tests_ran_without_printing_the_password() {
    // A stand-in `cargo` records its arguments and exits 3: test.sh must pass its status on
    // and end with the PostgreSQL line either way.
    let bin = tempfile::tempdir().unwrap();
    let fake = bin.path().join("cargo");
    std::fs::write(&fake, "#!/bin/sh\necho \"fake cargo $*\"\nexit 3\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .arg(script("test.sh"))
        .arg("--lib")
        .env("PATH", path)
        .env(
            "SLOPGUARD_TEST_PG",
            "postgres://slopguard:hunter2@127.0.0.1:5432/slopguard_test",
        )
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(
        stdout.contains("fake cargo test --workspace --no-fail-fast -j2 --lib"),
        "{stdout}"
    );
    let last = stdout.lines().last().unwrap_or("");
    assert_eq!(
        last,
        "test.sh: PostgreSQL tests: RAN against postgres://slopguard:***@127.0.0.1:5432/slopguard_test"
    );
    assert!(!stdout.contains("hunter2"), "{stdout}");
}

#[test]
fn long_script_steps_say_they_are_still_running_and_keep_their_exit_status() {
    let run = |command: &str| {
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!(
                "source {}; {command}",
                script("lib/heartbeat.sh").display()
            ))
            .env("HEARTBEAT_SECS", "1")
            .output()
            .expect("bash runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stderr) = run("with_heartbeat 'building' sleep 2.6");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("building: still running (1 s)"), "{stderr}");
    assert!(stderr.contains("building: still running (2 s)"), "{stderr}");

    let (code, stderr) = run("with_heartbeat 'quick' true");
    assert_eq!(code, Some(0));
    assert!(stderr.is_empty(), "a short step prints nothing: {stderr}");

    let (code, _) = run("with_heartbeat 'failing' bash -c 'exit 3'");
    assert_eq!(code, Some(3), "the command's own exit status comes back");
}

/// Runs `scripts/main-job.sh` on the SQL-injection rung with this build's binary, the scripted
/// model answering every worker call with `reply`, and the rung's plan (no planner call).
/// Returns the exit code, stdout, stderr and the work directory (kept until dropped).
fn main_job(reply: &str, max_attempts: &str) -> (Option<i32>, String, String, tempfile::TempDir) {
    main_job_with(SQL_PLAN, reply, max_attempts)
}

/// One subtask, about the failing tests (so the planner's post-processing adds none).
const SQL_PLAN: &str = r#"{"tasks": [{"id": "T001", "title": "Fix the SQL injection behind the failing tests",
            "priority": 1, "description": "find_user formats the name into the SQL text.",
            "subtasks": [{"title": "Make the failing tests pass: a ? placeholder in find_user",
              "description": "Pass the name as a query parameter.",
              "file_hints": ["src/db.py"], "action": "modify"}]}]}"#;

/// [`main_job`] with the operator plan `plan` (JSON).
fn main_job_with(
    plan_json: &str,
    reply: &str,
    max_attempts: &str,
) -> (Option<i32>, String, String, tempfile::TempDir) {
    use scripted_llm::{Script, ScriptedServer};
    let server = ScriptedServer::start(
        Script::new()
            .models(&["scripted-model"])
            .content(reply)
            .repeat_last(),
    )
    .expect("scripted server");
    let work = tempfile::tempdir().unwrap();
    let plan = work.path().join("plan.json");
    std::fs::write(&plan, plan_json).unwrap();
    let mut cmd = Command::new("bash");
    cmd.arg(script("main-job.sh"));
    for (k, _) in std::env::vars() {
        if k.starts_with("SLOPGUARD_") || k == "GITHUB_TOKEN" || k == "GH_TOKEN" {
            cmd.env_remove(k);
        }
    }
    let out = cmd
        .env("SLOPGUARD_BIN", env!("CARGO_BIN_EXE_slopguard"))
        .env("SLOPGUARD_LLM_URL", server.url())
        .env("SLOPGUARD_LLM_MODEL", "scripted-model")
        .env("SLOPGUARD_CANDIDATES", "1")
        .env("MAIN_JOB_DIR", work.path())
        .env("MAIN_JOB_PLAN", &plan)
        .env("MAIN_JOB_MAX_ATTEMPTS", max_attempts)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("bash runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        work,
    )
}

fn last_lines(text: &str, n: usize) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].to_vec()
}

fn python3_missing() -> bool {
    let found = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("NOTICE: python3 not on PATH: the main job's sample cannot run its tests");
    }
    !found
}

#[test]
fn the_main_job_ends_saying_what_it_fixed_and_how_to_look_at_it() {
    if python3_missing() {
        return;
    }
    let fix = "fix(db): pass the name as a query parameter\nsrc/db.py\n<<<<<<< SEARCH\n    row = conn.execute(f\"SELECT id, name, email FROM users WHERE name = '{name}'\").fetchone()\n=======\n    row = conn.execute(\"SELECT id, name, email FROM users WHERE name = ?\", (name,)).fetchone()\n>>>>>>> REPLACE\n";
    let (code, stdout, stderr, _work) = main_job(fix, "3");
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    // Progress reached stderr as plain lines while it ran, and each step said its time.
    for line in ["] phase execution", "] T001-S01 committed"] {
        assert!(stderr.contains(line), "missing `{line}` in:\n{stderr}");
    }
    let binary = format!(
        "== slopguard: {} (SLOPGUARD_BIN)",
        env!("CARGO_BIN_EXE_slopguard")
    );
    assert!(stderr.contains(&binary), "{stderr}");
    for step in ["binary", "slopguard run"] {
        let done = format!("== {step} done in ");
        let line = stderr.lines().find(|l| l.starts_with(&done));
        let secs = line.and_then(|l| l[done.len()..].strip_suffix(" s"));
        assert!(
            secs.is_some_and(|s| s.parse::<u64>().is_ok()),
            "no `{done}N s` line:\n{stderr}"
        );
    }
    let last = last_lines(&stdout, 2);
    assert!(
        last[0].starts_with("main-job: FIXED — landed on slopguard/")
            && last[0].ends_with(": fix(db): pass the name as a query parameter"),
        "{stdout}"
    );
    // The second line is a command that works: `git -C REPO show BRANCH`, and the PR body.
    let how = last[1]
        .strip_prefix("main-job: look at it with: ")
        .unwrap_or_else(|| panic!("{stdout}"));
    let (show, pr) = how.split_once("   (PR body: ").expect("PR body named");
    let words: Vec<&str> = show.split_whitespace().collect();
    assert_eq!(words[..2], ["git", "-C"], "{show}");
    let shown = Command::new("git")
        .args(&words[1..])
        .args(["--stat", "--format=%s"])
        .output()
        .unwrap();
    assert!(shown.status.success(), "{show}");
    assert!(String::from_utf8_lossy(&shown.stdout).contains("src/db.py"));
    let pr = pr.strip_suffix(')').expect("closing parenthesis");
    let body = std::fs::read_to_string(pr).unwrap_or_else(|e| panic!("{pr}: {e}"));
    assert!(
        body.contains("Every commit on this branch passed"),
        "{body}"
    );
    // An endpoint was given, so no model server was started and none is said to be running.
    assert!(!stdout.contains("== left running"), "{stdout}");
}

#[test]
fn the_main_job_says_partly_fixed_when_a_subtask_after_the_fix_failed() {
    if python3_missing() {
        return;
    }
    // The fix lands; the second subtask gets the same answer again, which no longer applies.
    let plan = SQL_PLAN.replace(
        r#""action": "modify"}]"#,
        r#""action": "modify"}, {"title": "Say in seed's docstring that it is idempotent",
              "description": "", "file_hints": ["src/db.py"], "action": "modify"}]"#,
    );
    let fix = "fix(db): pass the name as a query parameter\nsrc/db.py\n<<<<<<< SEARCH\n    row = conn.execute(f\"SELECT id, name, email FROM users WHERE name = '{name}'\").fetchone()\n=======\n    row = conn.execute(\"SELECT id, name, email FROM users WHERE name = ?\", (name,)).fetchone()\n>>>>>>> REPLACE\n";
    let (code, stdout, stderr, _work) = main_job_with(&plan, fix, "1");
    assert_eq!(code, Some(1), "{stdout}\n{stderr}");
    let last = last_lines(&stdout, 2);
    assert!(
        last[0].starts_with("main-job: PARTLY FIXED — landed on slopguard/")
            && last[0].contains(": fix(db): pass the name as a query parameter; not fixed: ")
            && last[0].contains("Say in seed's docstring that it is idempotent")
            && last[0].ends_with("(slopguard exit 1)"),
        "{stdout}"
    );
    assert!(
        last[1].starts_with("main-job: look at it with: git -C "),
        "{stdout}"
    );
}

#[test]
fn the_main_job_ends_saying_exactly_why_nothing_was_fixed() {
    if python3_missing() {
        return;
    }
    let (code, stdout, stderr, _work) = main_job("I am not sure what to change here.", "1");
    assert_eq!(code, Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("(no branch: nothing was committed)"),
        "{stdout}"
    );
    // The PR body and the summary name no empty branch and claim no passed commits.
    assert!(!stdout.contains("branch ``"), "{stdout}");
    assert!(
        stdout.contains(" · no branch (nothing was committed)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("No branch (nothing was committed) on HEAD"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("Every commit on this branch passed"),
        "{stdout}"
    );
    let last = last_lines(&stdout, 2);
    assert!(
        last[0].starts_with(
            "main-job: NOT FIXED — no patch passed the guards and the tests: failed after 1 attempt(s); last findings: "
        ),
        "{stdout}"
    );
    // The findings follow: the line does not stop at "last findings:".
    assert!(
        last[0].len()
            > "main-job: NOT FIXED — no patch passed the guards and the tests: failed after 1 attempt(s); last findings: "
                .len()
                + 10,
        "{stdout}"
    );
    assert!(
        last[1].starts_with("main-job: every candidate and its verdict: ")
            && last[1].contains("trace.jsonl"),
        "{stdout}"
    );
}

#[test]
fn the_main_job_refuses_a_slopguard_bin_that_is_not_a_program() {
    let work = tempfile::tempdir().unwrap();
    let out = Command::new("bash")
        .arg(script("main-job.sh"))
        .env("SLOPGUARD_BIN", work.path().join("missing"))
        .env("MAIN_JOB_DIR", work.path())
        .env("SLOPGUARD_LLM_URL", "http://127.0.0.1:9/v1")
        .stdin(Stdio::null())
        .output()
        .expect("bash runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("is not an executable file"), "{stderr}");
}
