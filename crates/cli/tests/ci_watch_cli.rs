//! `slopguard ci-watch` and `run --ci-watch` through the binary: the preconditions (token, URL)
//! fail with one clear line and exit 2 before anything is written; `run --ci-watch` without a
//! pull request says the watch was skipped and the run keeps its own result. The watch itself
//! (fake GitHub, scripted model, bare remote) is tested in `crates/agent/tests/ci_watch.rs`.

mod common;

use std::process::Command;

use common::{Repo, bin};
use scripted_llm::{Script, ScriptedServer};

fn ci_watch(repo: &Repo, args: &[&str]) -> std::process::Output {
    Command::new(bin())
        .current_dir(repo.path())
        .arg("ci-watch")
        .args(args)
        .env_remove("GITHUB_TOKEN")
        .env_remove("GH_TOKEN")
        .env("SLOPGUARD_GITHUB_API", "http://127.0.0.1:9")
        .env("NO_COLOR", "1")
        .output()
        .expect("slopguard runs")
}

fn repo() -> Repo {
    let r = Repo::new();
    r.write("a.py", "x = 1\n");
    r.commit("init");
    r.git(&[
        "remote",
        "add",
        "origin",
        "https://github.com/acme/widget.git",
    ]);
    r
}

#[test]
fn no_token_is_one_clear_line_and_exit_2_with_nothing_written() {
    let r = repo();
    let refs = r.git(&["for-each-ref"]);
    let out = ci_watch(&r, &["https://github.com/acme/widget/pull/7"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with("slopguard: error: GITHUB_TOKEN (or GH_TOKEN) is not set"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was changed"), "{stderr}");
    assert!(out.stdout.is_empty(), "the error is the one line on stderr");
    assert!(!r.path().join(".slopguard").exists());
    assert_eq!(r.git(&["for-each-ref"]), refs);
}

#[test]
fn json_output_of_a_refused_url() {
    let r = repo();
    let out = ci_watch(
        &r,
        &[
            "https://github.com/acme/widget/issues/7",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "error");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("https://github.com/OWNER/REPO/pull/NUMBER")
    );
    assert_eq!(v["rounds"], serde_json::json!([]));
}

#[test]
fn run_ci_watch_without_a_pull_request_is_skipped_and_the_run_succeeds() {
    let r = Repo::new();
    r.write("notes.txt", "notes\n");
    r.commit("init");
    let plan = r.path().join("..").join(format!(
        "plan-{}.json",
        r.path().file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(
        &plan,
        r#"{"tasks": [{"id": "T001", "title": "Notes", "priority": 1, "description": "",
            "subtasks": [{"id": "", "title": "Extend the notes", "description": "",
                          "file_hints": ["notes.txt"], "action": "modify"}]}]}"#,
    )
    .unwrap();
    let reply = serde_json::json!({"commit_message": "notes", "patches": [{"action": "modify",
        "path": "notes.txt", "content": "notes\nmore notes\n"}]})
    .to_string();
    let llm = ScriptedServer::start(Script::new().content(reply).repeat_last()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(bin())
        .current_dir(r.path())
        .args(["run", "--plan-from-file"])
        .arg(&plan)
        .args(["--llm-url", &llm.url(), "--model", "scripted-model"])
        .args(["--no-store", "--no-analysis-run", "--candidates", "1"])
        .args(["--ci-watch", "--quiet", "--format", "json"])
        .env(
            "SLOPGUARD_DB",
            format!("sqlite://{}", tmp.path().join("s.db").display()),
        )
        .env("GITHUB_TOKEN", "t0ken")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&plan);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "completed");
    assert_eq!(
        v["ci_watch"]["skipped"], "no pull request (no `origin` remote)",
        "{v:#}"
    );
}
