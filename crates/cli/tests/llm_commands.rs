//! `slopguard analyze`, `plan` and `doctor` driven as a binary; `plan` against the scripted
//! OpenAI-compatible server and against a dead endpoint.
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use scripted_llm::{Script, ScriptedServer};
use serde_json::Value;
use slopguard_testkit::{BUILD_OUTPUTS, copy_dir};

fn sample_copy(lang: &str) -> (tempfile::TempDir, PathBuf) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/samples")
        .join(lang);
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&src, dir.path(), BUILD_OUTPUTS);
    let p = dir.path().to_path_buf();
    (dir, p)
}

fn slopguard() -> Command {
    let mut c = Command::cargo_bin("slopguard").unwrap();
    for k in [
        "SLOPGUARD_LLM_URL",
        "SLOPGUARD_LLM_MODEL",
        "SLOPGUARD_PLANNER_URL",
        "SLOPGUARD_PLANNER_MODEL",
        "SLOPGUARD_DB",
    ] {
        c.env_remove(k);
    }
    // Never read the developer's own store.
    c.env("SLOPGUARD_DB", "sqlite::memory:");
    c
}

/// A plan that ignores the failing test and plans a README-only subtask.
const SLOPPY_PLAN: &str = r#"{"tasks": [
  {"id": "T001", "title": "Improve documentation", "priority": 2, "description": "docs",
   "subtasks": [{"id": "T001-S01", "title": "Update README", "description": "Add badges",
                 "file_hints": ["README.md"], "action": "modify"}]},
  {"id": "T002", "title": "Add CI", "priority": 3, "description": "ci",
   "subtasks": [{"id": "T002-S01", "title": "Add a workflow", "description": "run tests",
                 "file_hints": [".github/workflows/ci.yml"], "action": "create"},]},
]}"#;

#[test]
fn analyze_json_reports_failing_test_ids() {
    let (_d, root) = sample_copy("python");
    let out = slopguard()
        .args(["analyze", "--format", "json"])
        .arg(&root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["metrics"].as_array().unwrap().len(), 11);
    let tr = v["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "test_results")
        .unwrap();
    assert_eq!(tr["status"], "fail");
    assert_eq!(v["failing_tests"][0]["file"], "tests/test_ops.py");
}

#[test]
fn analyze_says_what_it_is_doing_while_the_tests_run() {
    // The sample's tests take 11 s: the plain progress repeats what is being done meanwhile,
    // and stdout stays the report alone.
    let (_d, root) = sample_copy("python");
    std::fs::write(
        root.join("tests/test_slow.py"),
        "import time\nimport unittest\n\n\nclass SlowTest(unittest.TestCase):\n    def test_slow(self):\n        time.sleep(11)\n",
    )
    .unwrap();
    let out = slopguard()
        .args(["analyze", "--format", "json"])
        .arg(&root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    for line in [
        "[00:00] analysis (running the build and the tests)",
        "] still working: analysis (running the build and the tests)",
    ] {
        assert!(stderr.contains(line), "missing {line:?} in:\n{stderr}");
    }
    let v: Value = serde_json::from_slice(&out.stdout).expect("stdout is the JSON report");
    assert_eq!(v["metrics"].as_array().unwrap().len(), 11);
    // --quiet: nothing on stderr about progress.
    let quiet = slopguard()
        .args(["analyze", "--no-run", "--quiet"])
        .arg(&root)
        .output()
        .unwrap();
    let quiet_err = String::from_utf8_lossy(&quiet.stderr);
    assert_eq!(quiet.status.code(), Some(0), "{quiet_err}");
    assert!(!quiet_err.contains("analysis"), "{quiet_err}");
}

#[test]
fn plan_on_failing_tests_makes_the_fix_task_without_asking_the_planner() {
    let (_d, root) = sample_copy("python");
    let server =
        ScriptedServer::start(Script::new().models(&["qwen"]).fenced_json(SLOPPY_PLAN)).unwrap();
    let out = slopguard()
        .args(["plan", "--format", "json", "--llm-url", &server.url()])
        .args(["--model", "qwen"])
        .arg(&root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let tasks = v["plan"]["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 1, "only the failing tests' task: {tasks:?}");
    assert_eq!(tasks[0]["id"], "T000");
    assert_eq!(tasks[0]["subtasks"][0]["file_hints"][0], "calc/ops.py");
    let events: Vec<&str> = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(
        events,
        vec!["plan.real_bug_synthesized", "plan.planner_skipped"]
    );
    assert!(
        server.chat_requests().is_empty(),
        "the planner was not asked"
    );
}

#[test]
fn plan_without_a_test_run_asks_the_planner_and_applies_post_processors() {
    let (_d, root) = sample_copy("python");
    let server =
        ScriptedServer::start(Script::new().models(&["qwen"]).fenced_json(SLOPPY_PLAN)).unwrap();
    let out = slopguard()
        .args([
            "plan",
            "--no-run",
            "--format",
            "json",
            "--llm-url",
            &server.url(),
        ])
        .args(["--model", "qwen"])
        .arg(&root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let tasks = v["plan"]["tasks"].as_array().unwrap();
    assert!(
        !tasks.iter().any(|t| t["id"] == "T001"),
        "Layer-B dropped the README-only task: {tasks:?}"
    );
    assert_eq!(tasks[0]["id"], "T002", "{tasks:?}");
    let events: Vec<&str> = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(events, vec!["plan.readme_banished"]);
    assert_eq!(
        v["llm"]["repairs"],
        serde_json::json!(["extract", "trailing_commas"])
    );
    // The request carried the report and the structured-output schema.
    let req = &server.chat_requests()[0];
    assert_eq!(req["model"], "qwen");
    assert_eq!(req["response_format"]["type"], "json_schema");
}

#[test]
fn plan_prints_plain_progress_lines_and_a_heartbeat_while_the_model_thinks() {
    let (_d, root) = sample_copy("python");
    // The planner takes 11 s: the plain view says it is still waiting at least once meanwhile.
    let plan = SLOPPY_PLAN.replace(",]", "]").replace("},\n]", "}\n]");
    let server = ScriptedServer::start(Script::new().delayed(11_000, plan.clone())).unwrap();
    let out = slopguard()
        .args(["plan", "--no-run", "--llm-url", &server.url()])
        .arg(&root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    for line in [
        "[00:00] analysis (metrics only)",
        "] planning (waiting for the model)",
        "] still working: planning (waiting for the model)",
    ] {
        assert!(stderr.contains(line), "missing {line:?} in:\n{stderr}");
    }
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let server = ScriptedServer::start(Script::new().content(plan)).unwrap();
    let quiet = slopguard()
        .args(["plan", "--no-run", "--quiet", "--llm-url", &server.url()])
        .arg(&root)
        .output()
        .unwrap();
    let quiet_err = String::from_utf8_lossy(&quiet.stderr);
    assert_eq!(quiet.status.code(), Some(0), "{quiet_err}");
    assert!(
        !quiet_err.contains("planning"),
        "--quiet prints no progress: {quiet_err}"
    );
}

#[test]
fn plan_text_output_and_scope_docs() {
    let (_d, root) = sample_copy("python");
    let server = ScriptedServer::start(
        Script::new().content(SLOPPY_PLAN.replace(",]", "]").replace("},\n]", "}\n]")),
    )
    .unwrap();
    let out = slopguard()
        .args([
            "plan",
            "--no-run",
            "--scope",
            "docs",
            "--llm-url",
            &server.url(),
        ])
        .arg(&root)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("scope.metrics_filtered"), "{stdout}");
    assert!(stdout.contains("scope.plan_filtered"), "{stdout}");
    assert!(
        stdout.contains("non-doc files: .github/workflows/ci.yml"),
        "{stdout}"
    );
    assert!(stdout.contains("Plan (0 tasks, 0 subtasks)"), "{stdout}");
}

#[test]
fn plan_against_dead_endpoint_names_the_url_and_the_fix() {
    let (_d, root) = sample_copy("python");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/v1");
    let out = slopguard()
        .args(["plan", "--no-run", "--llm-url", &url])
        .arg(&root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&url), "{stderr}");
    assert!(stderr.contains("SLOPGUARD_LLM_URL"), "{stderr}");
    assert!(stderr.contains("--llm-url"), "{stderr}");
}

#[test]
fn plan_from_file_skips_the_llm() {
    let (_d, root) = sample_copy("python");
    let plan = root.join("plan.json");
    std::fs::write(
        &plan,
        SLOPPY_PLAN.replace(",]", "]").replace("},\n]", "}\n]"),
    )
    .unwrap();
    // No server at all: the LLM must not be contacted.
    let out = slopguard()
        .args([
            "plan",
            "--format",
            "json",
            "--llm-url",
            "http://127.0.0.1:9/v1",
            "--plan-from-file",
        ])
        .arg(&plan)
        .arg(&root)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["source"], "file");
    assert_eq!(v["plan"]["tasks"][0]["id"], "T000");
    let bad = root.join("bad.json");
    std::fs::write(&bad, "{\"tasks\": 3}").unwrap();
    let out = slopguard()
        .args(["plan", "--plan-from-file"])
        .arg(&bad)
        .arg(&root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid plan file"));
}

#[test]
fn planner_garbage_exits_1_after_bounded_corrections() {
    let (_d, root) = sample_copy("python");
    let server = ScriptedServer::start(Script::new().content("I refuse.").repeat_last()).unwrap();
    let out = slopguard()
        .args(["plan", "--no-run", "--llm-url", &server.url()])
        .arg(&root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no usable plan"));
    assert_eq!(
        server.chat_requests().len(),
        3,
        "1 request + 2 correction turns"
    );
}

#[test]
fn doctor_reports_llm_and_toolchains() {
    let server = ScriptedServer::start(Script::new().models(&["qwen"]).context_size(4096)).unwrap();
    let out = slopguard()
        .args([
            "doctor",
            "--format",
            "json",
            "--llm-url",
            &server.url(),
            "--model",
            "qwen",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let llm = &v["checks"][0];
    assert_eq!(llm["status"], "ok");
    assert!(llm["detail"].as_str().unwrap().contains("context 4096"));
    assert_eq!(v["guards_ready"], true);
    assert_eq!(v["agent_ready"], true);
    // No model: the guards can still run, so the exit is 0; the agent is not ready, and the
    // fix names commands an installed binary's user has.
    let out = slopguard()
        .args(["doctor", "--llm-url", "http://127.0.0.1:9/v1"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("missing") && text.contains("127.0.0.1:9"),
        "{text}"
    );
    assert!(text.contains("fix:"), "{text}");
    assert!(!text.contains("scripts/llm-setup.sh"), "{text}");
    assert!(
        text.contains("guards (check, replay, hook, serve): ready"),
        "{text}"
    );
    assert!(
        text.contains("agent (run, plan, feedback fix):     not ready"),
        "{text}"
    );
    // `--agent`: the agent's needs decide.
    let out = slopguard()
        .args(["doctor", "--agent", "--llm-url", "http://127.0.0.1:9/v1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}
