//! The self-correction loop end to end against the scripted model, on a Python sample with a
//! seeded bug that no test covers (`average()` divides by n-1): feedback -> triage (bug, 85)
//! -> localised to calc/stats.py -> fix and regression test on `slopguard/fix/<id>`, the test
//! failing without the fix and passing with it (really run) -> PR body quoting the feedback ->
//! merged -> verify writes the failure-memory row. And each way to be refused: pass-on-both,
//! fail-on-both, a fix that breaks a guard, a large job waiting for approval, a red verify.
//!
//! Needs `python3` (the sample's tests are unittest-style; pytest runs them too when present).
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

use std::path::PathBuf;
use std::process::Command as StdCommand;

use assert_cmd::Command;
use scripted_llm::{Script, ScriptedServer};
use serde_json::Value;
use slopguard_testkit::python_missing;

const STATS: &str = "\"\"\"Statistics helpers.\"\"\"\n\n\ndef total(values):\n    \"\"\"Sum of the values.\"\"\"\n    return sum(values)\n\n\ndef average(values):\n    \"\"\"Arithmetic mean of the values.\"\"\"\n    return total(values) / (len(values) - 1)\n";
const TESTS: &str = "import unittest\n\nfrom calc.stats import total\n\n\nclass StatsTest(unittest.TestCase):\n    def test_total(self):\n        self.assertEqual(total([1, 2, 3]), 6)\n";

const FIXED_STATS: &str = "\"\"\"Statistics helpers.\"\"\"\n\n\ndef total(values):\n    \"\"\"Sum of the values.\"\"\"\n    return sum(values)\n\n\ndef average(values):\n    \"\"\"Arithmetic mean of the values.\"\"\"\n    return total(values) / len(values)\n";

/// The test file with a regression test for `average` (`expected` is what it asserts).
fn tests_with_average(expected: &str) -> String {
    format!(
        "import unittest\n\nfrom calc.stats import average, total\n\n\nclass StatsTest(unittest.TestCase):\n    def test_total(self):\n        self.assertEqual(total([1, 2, 3]), 6)\n\n    def test_average_divides_by_the_count(self):\n        self.assertEqual(average([1, 2, 3]), {expected})\n"
    )
}

/// A worker reply rewriting both files whole.
fn reply(stats: &str, tests: &str) -> String {
    format!(
        "fix(stats): average divides by the count\ncalc/stats.py\n```python\n{stats}```\ntests/test_stats.py\n```python\n{tests}```\n"
    )
}

const TRIAGE_BUG: &str = r#"{"class": "bug", "root_cause": "average divides by len(values) - 1 instead of len(values)", "files": ["calc/stats.py"], "confidence": 85}"#;

struct Sample {
    dir: tempfile::TempDir,
    db: String,
}

impl Sample {
    fn new() -> Sample {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(repo.join("calc")).unwrap();
        std::fs::create_dir_all(repo.join("tests")).unwrap();
        std::fs::write(repo.join("calc/__init__.py"), "").unwrap();
        std::fs::write(repo.join("calc/stats.py"), STATS).unwrap();
        std::fs::write(repo.join("tests/__init__.py"), "").unwrap();
        std::fs::write(repo.join("tests/test_stats.py"), TESTS).unwrap();
        git(&repo, &["init", "-q", "-b", "main"]);
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "-q", "-m", "init"]);
        let db = format!("sqlite://{}", dir.path().join("store.db").display());
        Sample { dir, db }
    }

    fn repo(&self) -> PathBuf {
        self.dir.path().join("repo")
    }

    fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::cargo_bin("slopguard").unwrap();
        for (k, _) in std::env::vars() {
            if k.starts_with("SLOPGUARD_") {
                c.env_remove(k);
            }
        }
        c.arg("feedback")
            .args(args)
            .arg("--repo")
            .arg(self.repo())
            .arg("--db")
            .arg(&self.db)
            .env("NO_COLOR", "1");
        c
    }

    /// Runs a model-backed step against `replies`: (exit code, stdout, stderr).
    fn with_model(&self, args: &[&str], replies: &[&str]) -> (i32, String, String) {
        let (code, out, err, _) = self.with_model_asked(args, replies);
        (code, out, err)
    }

    /// As [`Sample::with_model`], with the requests' last user messages.
    fn with_model_asked(
        &self,
        args: &[&str],
        replies: &[&str],
    ) -> (i32, String, String, Vec<String>) {
        self.with_named_model(args, replies, "scripted-model")
    }

    /// As [`Sample::with_model_asked`], the model called `model`.
    fn with_named_model(
        &self,
        args: &[&str],
        replies: &[&str],
        model: &str,
    ) -> (i32, String, String, Vec<String>) {
        let mut script = Script::new();
        for r in replies {
            script = script.content(*r);
        }
        let server = ScriptedServer::start(script).unwrap();
        let mut all = args.to_vec();
        let url = server.url();
        all.extend(["--llm-url", &url, "--model", model]);
        let out = self.cmd(&all).output().unwrap();
        let asked = server
            .chat_requests()
            .iter()
            .filter_map(|r| {
                let msgs = r["messages"].as_array()?;
                msgs.iter()
                    .rev()
                    .find(|m| m["role"] == "user")
                    .and_then(|m| m["content"].as_str())
                    .map(str::to_string)
            })
            .collect();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            asked,
        )
    }

    fn show(&self, id: i64) -> Value {
        let out = self
            .cmd(&["show", &id.to_string(), "--format", "json"])
            .output()
            .unwrap();
        assert!(out.status.success());
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// A triaged item for `text` (the triage answered by `triage`).
    fn triaged(&self, text: &str, triage: &str) -> i64 {
        let out = self
            .cmd(&["add", text, "--format", "json"])
            .output()
            .unwrap();
        let id = serde_json::from_slice::<Value>(&out.stdout).unwrap()["id"]
            .as_i64()
            .unwrap();
        let (code, _, err) = self.with_model(&["triage", &id.to_string()], &[triage]);
        assert_eq!(code, 0, "{err}");
        id
    }

    /// `feedback fix` with one candidate per attempt.
    fn fix(&self, id: i64, attempts: &str, replies: &[&str]) -> (i32, String, String) {
        self.with_model(
            &[
                "fix",
                &id.to_string(),
                "--candidates",
                "1",
                "--max-attempts",
                attempts,
                "--quiet",
            ],
            replies,
        )
    }
}

#[test]
fn feedback_is_triaged_fixed_with_a_proven_regression_test_and_verified_after_merge() {
    if python_missing() {
        return;
    }
    let s = Sample::new();
    let id = s.triaged("average() divides by n-1", TRIAGE_BUG);
    let item = &s.show(id)["item"];
    assert_eq!(item["detail"]["triage"]["confidence"], 85);
    assert_eq!(
        item["detail"]["localisation"]["files"][0]["path"],
        "calc/stats.py"
    );
    let good = reply(FIXED_STATS, &tests_with_average("2"));
    let (code, out, err) = s.fix(id, "1", &[&good]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("fix-pr-open"), "{out}");
    let shown = s.show(id);
    let fix = &shown["item"]["detail"]["fix"];
    assert_eq!(fix["branch"], "slopguard/fix/1");
    let proven: Vec<String> = serde_json::from_value(fix["fails_without_fix"].clone()).unwrap();
    assert_eq!(proven.len(), 1, "{fix}");
    assert!(
        proven[0].contains("test_average_divides_by_the_count"),
        "{proven:?}"
    );
    // The branch holds the fix and the test; the user's main is untouched.
    let changed = git(
        &s.repo(),
        &["diff", "--name-only", "main", "slopguard/fix/1"],
    );
    assert_eq!(
        changed.lines().collect::<Vec<_>>(),
        vec!["calc/stats.py", "tests/test_stats.py"]
    );
    assert_eq!(
        std::fs::read_to_string(s.repo().join("calc/stats.py")).unwrap(),
        STATS
    );
    let body = std::fs::read_to_string(fix["pr_body"].as_str().unwrap()).unwrap();
    assert!(body.contains("## Fix for feedback #1"), "{body}");
    assert!(body.contains("> average() divides by n-1\n"), "{body}");
    assert!(
        body.contains("fails without the fix, passes with it"),
        "{body}"
    );

    // Verify before the merge: the test is not on main -> reopened, exit 1, loudly.
    let out = s.cmd(&["verify", &id.to_string()]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("REOPENED feedback 1"), "{err}");
    assert_eq!(s.show(id)["item"]["state"], "reopened");

    // Fixed again (reopened -> triaged is a move the loop makes) and merged: verified.
    let s2 = Sample::new();
    let id2 = s2.triaged("average() divides by n-1", TRIAGE_BUG);
    let (code, _, err) = s2.fix(id2, "1", &[&good]);
    assert_eq!(code, 0, "{err}");
    git(&s2.repo(), &["merge", "-q", "--ff-only", "slopguard/fix/1"]);
    let out = s2
        .cmd(&["verify", &id2.to_string(), "--rev", "main"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("verified"));
    let shown = s2.show(id2);
    assert_eq!(shown["item"]["state"], "verified");
    let moves: Vec<String> = shown["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["to"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(moves, vec!["triaged", "in-fix", "fix-pr-open", "verified"]);
    // The memory row: the symptom, the class and the files.
    let db_path = s2.dir.path().join("store.db");
    let row = StdCommand::new("python3")
        .arg("-c")
        .arg("import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute(\"SELECT touched_files, extra FROM observations WHERE agent='slopguard-feedback'\").fetchone())")
        .arg(&db_path)
        .output()
        .unwrap();
    let row = String::from_utf8_lossy(&row.stdout);
    assert!(
        row.contains("calc/stats.py") && row.contains("tests/test_stats.py"),
        "{row}"
    );
    assert!(
        row.contains("average() divides by n-1") && row.contains("bug"),
        "{row}"
    );
    // The next feedback on the same file is triaged knowing that fix.
    let out = s2
        .cmd(&["add", "average() of an empty list crashes"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let (code, _, err, asked) = s2.with_model_asked(&["triage", "2"], &[TRIAGE_BUG]);
    assert_eq!(code, 0, "{err}");
    assert!(
        asked[0].contains("Earlier feedback on these files, fixed and verified:\n- \"average() divides by n-1\" (bug; calc/stats.py, tests/test_stats.py)"),
        "{}",
        asked[0]
    );
}

#[test]
fn a_test_that_passes_without_the_fix_is_refused_as_pass_on_both() {
    if python_missing() {
        return;
    }
    let s = Sample::new();
    let id = s.triaged("average() divides by n-1", TRIAGE_BUG);
    // The "regression test" only checks total(): it passes on the base too.
    let weak = tests_with_average("2").replace(
        "self.assertEqual(average([1, 2, 3]), 2)",
        "self.assertEqual(total([2]), 2)",
    );
    let (code, _, err) = s.fix(id, "1", &[&reply(FIXED_STATS, &weak)]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("pass-on-both"), "{err}");
    assert_eq!(s.show(id)["item"]["state"], "triaged");
    assert!(!git(&s.repo(), &["branch", "--list", "slopguard/fix/*"]).contains("fix"));
}

#[test]
fn a_fix_that_does_not_fix_its_own_test_is_refused_as_fail_on_both() {
    if python_missing() {
        return;
    }
    let s = Sample::new();
    let id = s.triaged("average() divides by n-1", TRIAGE_BUG);
    // The code is left as it was; the new test fails with the "fix" too.
    let (code, _, err) = s.fix(id, "1", &[&reply(STATS, &tests_with_average("2"))]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("fail-on-both"), "{err}");
    assert_eq!(s.show(id)["item"]["state"], "triaged");
}

#[test]
fn a_fix_that_breaks_a_guard_is_refused_and_a_retry_lands() {
    if python_missing() {
        return;
    }
    let s = Sample::new();
    let id = s.triaged("average() divides by n-1", TRIAGE_BUG);
    // First attempt drops total(), which the tests still import: symbol-preservation (G7).
    let dropped = "def average(values):\n    return sum(values) / len(values)\n";
    let good = reply(FIXED_STATS, &tests_with_average("2"));
    let (code, out, err) = s.fix(id, "2", &[&reply(dropped, &tests_with_average("2")), &good]);
    assert_eq!(code, 0, "{out}\n{err}");
    let item = &s.show(id)["item"];
    assert_eq!(item["state"], "fix-pr-open");
    let branch_stats = git(&s.repo(), &["show", "slopguard/fix/1:calc/stats.py"]);
    assert!(branch_stats.contains("def total"), "{branch_stats}");
    // The first attempt was stopped by the static guard, before any test ran.
    let pr = PathBuf::from(item["detail"]["fix"]["pr_body"].as_str().unwrap());
    let trace = std::fs::read_to_string(pr.with_file_name("trace.jsonl")).unwrap();
    assert!(
        trace.contains("critic_ast_diff.fail") && trace.contains("\"symbol\":\"total\""),
        "{trace}"
    );
}

#[test]
fn a_large_job_waits_for_approval() {
    if python_missing() {
        return;
    }
    let s = Sample::new();
    let arch = r#"{"class": "architectural", "root_cause": "statistics belong in a service", "files": ["calc/stats.py"], "confidence": 80}"#;
    let id = s.triaged("move the statistics into a service layer", arch);
    let (code, out, _) = s.fix(id, "1", &[]);
    assert_eq!(code, 0);
    assert!(
        out.contains("awaiting-approval (an architectural change)"),
        "{out}"
    );
    assert_eq!(s.show(id)["item"]["state"], "awaiting-approval");
    let (code, _, err) = s.fix(id, "1", &[]);
    assert_eq!(code, 2);
    assert!(err.contains("waiting for approval"), "{err}");
    let out = s.cmd(&["approve", &id.to_string()]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(s.show(id)["item"]["state"], "in-fix");
    let out = s.cmd(&["approve", &id.to_string()]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_fix_killed_midway_is_resumed_from_its_state() {
    if python_missing() {
        return;
    }
    let s = Sample::new();
    let id = s.triaged("average() divides by n-1", TRIAGE_BUG);
    // The model takes 30 s to answer: the fix is killed while it waits.
    let server = ScriptedServer::start(Script::new().delayed(30_000, "too late")).unwrap();
    let url = server.url();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("slopguard"))
        .args([
            "feedback",
            "fix",
            &id.to_string(),
            "--candidates",
            "1",
            "--quiet",
        ])
        .args(["--llm-url", &url, "--model", "scripted-model"])
        .arg("--repo")
        .arg(s.repo())
        .args(["--db", &s.db])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while server.chat_requests().is_empty() {
        assert!(
            started.elapsed().as_secs() < 60,
            "the fix never asked the model"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert_eq!(s.show(id)["item"]["state"], "in-fix");
    let good = reply(FIXED_STATS, &tests_with_average("2"));
    let (code, out, err) = s.with_model(
        &["resume", &id.to_string(), "--candidates", "1", "--quiet"],
        &[&good],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(s.show(id)["item"]["state"], "fix-pr-open");
    let changed = git(
        &s.repo(),
        &["diff", "--name-only", "main", "slopguard/fix/1"],
    );
    assert_eq!(changed.lines().count(), 2, "{changed}");
}

/// `feedback fix` with one candidate per attempt and the critic as `critic` says:
/// (exit code, stdout, stderr, the requests' last user messages).
fn fix_with_critic(
    s: &Sample,
    id: i64,
    attempts: &str,
    critic: &str,
    replies: &[&str],
) -> (i32, String, String, Vec<String>) {
    s.with_model_asked(
        &[
            "fix",
            &id.to_string(),
            "--candidates",
            "1",
            "--max-attempts",
            attempts,
            "--critic",
            critic,
            "--quiet",
        ],
        replies,
    )
}

/// A critic's answer.
fn critic_says(finding: &str, confidence: u8) -> String {
    format!(r#"{{"finding": "{finding}", "confidence": {confidence}}}"#)
}

/// The `critic.review` events of the fix's run.
fn critic_events(s: &Sample, id: i64) -> Vec<Value> {
    let pr = s.show(id)["item"]["detail"]["fix"]["pr_body"]
        .as_str()
        .unwrap()
        .to_string();
    let trace = std::fs::read_to_string(PathBuf::from(pr).with_file_name("trace.jsonl")).unwrap();
    trace
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["event"] == "critic.review")
        .map(|e| e["data"].clone())
        .collect()
}

fn pr_body_of(s: &Sample, id: i64) -> String {
    let item = s.show(id);
    std::fs::read_to_string(item["item"]["detail"]["fix"]["pr_body"].as_str().unwrap()).unwrap()
}

/// The regression test that only checks total(): it passes without the fix (pass-on-both).
fn weak_tests() -> String {
    tests_with_average("2").replace(
        "self.assertEqual(average([1, 2, 3]), 2)",
        "self.assertEqual(total([2]), 2)",
    )
}

#[test]
fn a_confident_critic_finding_reaches_the_next_attempt_and_is_not_repeated_in_the_pr_body() {
    if python_missing() {
        return;
    }
    let s = Sample::new();
    let id = s.triaged("average() divides by n-1", TRIAGE_BUG);
    let nothing = critic_says("", 0);
    let hint = critic_says(
        "the new test never calls average(); assert average([1, 2, 3]) == 2",
        85,
    );
    let weak = reply(FIXED_STATS, &weak_tests());
    let good = reply(FIXED_STATS, &tests_with_average("2"));
    let (code, out, err, asked) = fix_with_critic(
        &s,
        id,
        "2",
        "on",
        &[&nothing, &weak, &hint, &good, &nothing],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(
        asked.len(),
        5,
        "plan, attempt 1, its critique, attempt 2, the landing's"
    );
    assert!(!asked[1].contains("never calls average()"), "{}", asked[1]);
    assert!(
        asked[3].contains("[critic] a reviewer's note on attempt 1 (confidence 85): the new test never calls average()"),
        "{}",
        asked[3]
    );
    // Acted on, so not in the self-review.
    assert!(!pr_body_of(&s, id).contains("never calls average()"));
    let actions: Vec<String> = critic_events(&s, id)
        .iter()
        .map(|d| d["action"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(actions, vec!["fed_back", "none"]);
    assert!(out.contains("critic: "), "{out}");
}

#[test]
fn a_middling_finding_goes_to_the_pr_body_only_and_a_weak_one_is_dropped() {
    if python_missing() {
        return;
    }
    let s = Sample::new();
    let id = s.triaged("average() divides by n-1", TRIAGE_BUG);
    let on_plan = critic_says("average([]) still divides by zero", 70);
    let on_attempt = critic_says("the docstring could mention the count", 40);
    let weak = reply(FIXED_STATS, &weak_tests());
    let good = reply(FIXED_STATS, &tests_with_average("2"));
    let landed = critic_says("the test name is long", 65);
    let (code, out, err, asked) = fix_with_critic(
        &s,
        id,
        "2",
        "on",
        &[&on_plan, &weak, &on_attempt, &good, &landed],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    for prompt in [&asked[1], &asked[3]] {
        assert!(!prompt.contains("divides by zero"), "{prompt}");
        assert!(!prompt.contains("docstring"), "{prompt}");
    }
    let body = pr_body_of(&s, id);
    assert!(body.contains("### Self-review"), "{body}");
    assert!(
        body.contains("- average([]) still divides by zero (on plan, confidence 70)"),
        "{body}"
    );
    assert!(
        body.contains("- the test name is long (on landed, confidence 65)"),
        "{body}"
    );
    assert!(!body.contains("docstring"), "{body}");
    assert!(
        out.contains("self-review: average([]) still divides by zero"),
        "{out}"
    );
    let events = critic_events(&s, id);
    assert_eq!(events[0]["action"], "dropped");
    assert_eq!(events[0]["finding"]["confidence"], 40);
    assert_eq!(events[1]["action"], "kept");
    assert_eq!(
        s.show(id)["item"]["detail"]["plan_critique"]["action"],
        "kept"
    );
}

#[test]
fn a_confident_finding_on_the_plan_reaches_the_first_attempt() {
    if python_missing() {
        return;
    }
    let s = Sample::new();
    let id = s.triaged("average() divides by n-1", TRIAGE_BUG);
    let on_plan = critic_says("the test must call average([1, 2, 3]) and expect 2", 90);
    let good = reply(FIXED_STATS, &tests_with_average("2"));
    let (code, out, err, asked) =
        fix_with_critic(&s, id, "1", "on", &[&on_plan, &good, &critic_says("", 0)]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        asked[1].contains(
            "Also: a reviewer's note on plan (confidence 90): the test must call average([1, 2, 3])"
        ),
        "{}",
        asked[1]
    );
}

#[test]
fn a_malformed_critic_answer_is_sent_back_once_then_ignored_and_never_blocks_the_fix() {
    if python_missing() {
        return;
    }
    let s = Sample::new();
    let id = s.triaged("average() divides by n-1", TRIAGE_BUG);
    let good = reply(FIXED_STATS, &tests_with_average("2"));
    // Prose, then an out-of-range confidence: ignored. The landing's answer is fenced with a
    // trailing comma: repaired like every model JSON, and kept.
    let landed =
        "```json\n{\"finding\": \"average([]) divides by zero\", \"confidence\": 75,}\n```";
    let replies = [
        "The plan looks fine to me.",
        r#"{"finding": "x", "confidence": 150}"#,
        good.as_str(),
        landed,
    ];
    let (code, out, err, asked) = fix_with_critic(&s, id, "1", "on", &replies);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(asked.len(), 4);
    assert!(
        asked[1].contains("That answer cannot be used: it is not JSON"),
        "{}",
        asked[1]
    );
    assert!(
        err.contains(
            "warning: the critic's answer was ignored after 2 tries: it does not match the schema"
        ),
        "{err}"
    );
    assert_eq!(
        s.show(id)["item"]["detail"]["plan_critique"]["action"],
        "ignored"
    );
    assert!(
        pr_body_of(&s, id).contains("- average([]) divides by zero (on landed, confidence 75)")
    );
}

#[test]
fn with_the_critic_off_no_extra_model_call_is_made() {
    if python_missing() {
        return;
    }
    let good = reply(FIXED_STATS, &tests_with_average("2"));
    // Asked off.
    let s = Sample::new();
    let id = s.triaged("average() divides by n-1", TRIAGE_BUG);
    let (code, _, err, asked) = fix_with_critic(&s, id, "1", "off", &[&good]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(asked.len(), 1);
    assert!(critic_events(&s, id).is_empty());
    // Auto with a 1.5B model: off.
    let s = Sample::new();
    let id = s.triaged("average() divides by n-1", TRIAGE_BUG);
    let fix = [
        "fix",
        "1",
        "--candidates",
        "1",
        "--max-attempts",
        "1",
        "--quiet",
    ];
    let (code, _, err, asked) = s.with_named_model(&fix, &[&good], "qwen2.5-coder:1.5b");
    assert_eq!(code, 0, "{err}");
    assert_eq!(asked.len(), 1);
    assert!(
        s.show(id)["item"]["detail"]["critic"]
            .as_str()
            .unwrap()
            .contains("under 3B"),
    );
    // slopguard.toml turns it on for the same model.
    let s = Sample::new();
    std::fs::write(
        s.repo().join("slopguard.toml"),
        "[feedback]\ncritic = \"on\"\n",
    )
    .unwrap();
    git(&s.repo(), &["add", "slopguard.toml"]);
    git(&s.repo(), &["commit", "-q", "-m", "critic on"]);
    let id = s.triaged("average() divides by n-1", TRIAGE_BUG);
    let none = critic_says("", 0);
    let (code, _, err, asked) =
        s.with_named_model(&fix, &[&none, &good, &none], "qwen2.5-coder:1.5b");
    assert_eq!(code, 0, "{err}");
    assert_eq!(asked.len(), 3);
    assert_eq!(critic_events(&s, id).len(), 1);
}

const ARCH: &str = r#"{"class": "architectural", "root_cause": "statistics belong in a service", "files": ["calc/stats.py"], "confidence": 80}"#;

/// A revised plan as the reviewer model answers it.
fn revised_plan(change: &str) -> String {
    format!(
        r#"{{"root_cause": "average divides by len(values) - 1", "proposed_change": "{change}", "test_sketch": "assert average([1, 2, 3]) == 2", "files": ["calc/stats.py"], "test_file": "tests/test_stats.py", "estimated_lines": 4}}"#
    )
}

#[test]
fn a_waiting_plan_is_refined_at_most_three_times_then_approved_and_fixed() {
    if python_missing() {
        return;
    }
    let s = Sample::new();
    let id = s.triaged("move the statistics into a service layer", ARCH);
    let (code, out, _) = s.fix(id, "1", &[]);
    assert_eq!(code, 0);
    assert!(out.contains("slopguard feedback refine 1"), "{out}");
    let note = "no service layer: only make average() divide by the count";
    for round in 1..=3 {
        let change = format!("round {round}: divide by len(values) in average()");
        let (code, out, err, asked) =
            s.with_model_asked(&["refine", "1", note], &[&revised_plan(&change)]);
        assert_eq!(code, 0, "{out}\n{err}");
        assert!(
            out.contains(&format!("plan refined (round {round} of 3)")),
            "{out}"
        );
        assert!(
            asked[0].contains(&format!("THE OPERATOR ASKS:\n{note}")),
            "{}",
            asked[0]
        );
        if round > 1 {
            // The model revises the plan of the round before.
            assert!(
                asked[0].contains(&format!("round {}:", round - 1)),
                "{}",
                asked[0]
            );
        }
    }
    let shown = s.show(id);
    assert_eq!(shown["item"]["state"], "awaiting-approval");
    assert_eq!(
        shown["item"]["detail"]["refinements"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    let refinements: Vec<String> = shown["history"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["from"] == "awaiting-approval" && h["to"] == "awaiting-approval")
        .map(|h| h["note"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(refinements.len(), 3);
    assert_eq!(refinements[2], format!("refinement 3/3: {note}"));
    // A fourth round is refused before any model call.
    let (code, _, err, asked) = s.with_model_asked(&["refine", "1", "again"], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("feedback 1 has had 3 refinement rounds"),
        "{err}"
    );
    assert!(asked.is_empty());
    // Approved, the refined plan is what the worker hears.
    assert!(s.cmd(&["approve", "1"]).output().unwrap().status.success());
    let good = reply(FIXED_STATS, &tests_with_average("2"));
    let (code, out, err, asked) = s.with_model_asked(
        &[
            "fix",
            "1",
            "--candidates",
            "1",
            "--max-attempts",
            "1",
            "--quiet",
        ],
        &[&good],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        asked[0].contains(&format!("the operator's note on the plan: {note}")),
        "{}",
        asked[0]
    );
    assert!(
        asked[0].contains("the revised plan: round 3: divide by len(values) in average()"),
        "{}",
        asked[0]
    );
    assert_eq!(s.show(id)["item"]["state"], "fix-pr-open");
}

#[test]
fn a_malformed_refinement_keeps_the_plan_and_reject_still_works() {
    if python_missing() {
        return;
    }
    let s = Sample::new();
    let triaged = s.triaged("average() divides by n-1", TRIAGE_BUG);
    // Only a waiting plan is refined.
    let (code, _, err, asked) = s.with_model_asked(&["refine", &triaged.to_string(), "x"], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("only a plan waiting for approval is refined"),
        "{err}"
    );
    assert!(asked.is_empty());
    let id = s.triaged("move the statistics into a service layer", ARCH);
    s.fix(id, "1", &[]);
    let before = s.show(id)["item"]["detail"]["plan"].clone();
    let (code, _, err, asked) = s.with_model_asked(
        &["refine", &id.to_string(), "smaller please"],
        &["Sure, here is a smaller plan.", r#"{"root_cause": ""}"#],
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(asked.len(), 2, "one correction, then refused");
    assert!(err.contains("refused after one correction"), "{err}");
    assert!(
        err.contains("keeps its plan and still waits for approval"),
        "{err}"
    );
    let item = &s.show(id)["item"];
    assert_eq!(item["state"], "awaiting-approval");
    assert_eq!(item["detail"]["plan"], before);
    assert!(item["detail"].get("refinements").is_none());
    // A good round, then reject.
    let (code, _, err, _) = s.with_model_asked(
        &["refine", &id.to_string(), "smaller please"],
        &[&revised_plan("divide by the count")],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        s.cmd(&["reject", &id.to_string()])
            .output()
            .unwrap()
            .status
            .success()
    );
    assert_eq!(s.show(id)["item"]["state"], "rejected");
}

/// Scripted-model requests of one `feedback fix --format json`, split into the critic's and
/// the rest: (critic calls, critic tokens, other calls, other tokens, wall time, the command's
/// own account of the critic).
fn fix_cost(critic: &str, replies: &[&str]) -> (usize, u64, usize, u64, f64, Value) {
    let s = Sample::new();
    let id = s.triaged("average() divides by n-1", TRIAGE_BUG);
    let mut script = Script::new();
    for r in replies {
        script = script.content(*r);
    }
    let server = ScriptedServer::start(script).unwrap();
    let url = server.url();
    let started = std::time::Instant::now();
    let id = id.to_string();
    let out = s
        .cmd(&[
            "fix",
            &id,
            "--candidates",
            "1",
            "--max-attempts",
            "2",
            "--critic",
            critic,
            "--quiet",
            "--format",
            "json",
            "--llm-url",
            &url,
            "--model",
            "scripted-model",
        ])
        .output()
        .unwrap();
    let wall = started.elapsed().as_secs_f64();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let (mut critic_calls, mut critic_tokens, mut other_calls, mut other_tokens) = (0, 0, 0, 0);
    for r in server.chat_requests() {
        // The scripted server's own estimate: a quarter of the request's bytes.
        let tokens = r.to_string().len() as u64 / 4;
        if r.to_string().contains("strict code reviewer") {
            critic_calls += 1;
            critic_tokens += tokens;
        } else {
            other_calls += 1;
            other_tokens += tokens;
        }
    }
    (
        critic_calls,
        critic_tokens,
        other_calls,
        other_tokens,
        wall,
        report["critic"].clone(),
    )
}

#[test]
fn the_critic_costs_one_short_call_per_step() {
    if python_missing() {
        return;
    }
    let weak = reply(FIXED_STATS, &weak_tests());
    let good = reply(FIXED_STATS, &tests_with_average("2"));
    let none = critic_says("", 0);
    let hint = critic_says("the new test never calls average()", 85);
    let (c_calls, c_tokens, w_calls, w_tokens, on_wall, account) =
        fix_cost("on", &[&none, &weak, &hint, &good, &none]);
    let (off_c, _, off_w, off_tokens, off_wall, off_account) = fix_cost("off", &[&weak, &good]);
    // The plan, the refused attempt, the landing: one call each; the worker's calls unchanged.
    assert_eq!((c_calls, w_calls), (3, 2));
    assert_eq!((off_c, off_w), (0, 2));
    assert_eq!(account["calls"], 3);
    assert_eq!(off_account["calls"], 0);
    // Prompt sizes: each critic call is shorter than a worker call.
    assert!(c_tokens / 3 < w_tokens / 2, "{c_tokens} vs {w_tokens}");
    eprintln!(
        "critic cost: on: {c_calls} critic calls ~{c_tokens} prompt tokens (its own account: {account}), \
         {w_calls} worker calls ~{w_tokens} tokens, {on_wall:.2} s; off: {off_w} calls ~{off_tokens} \
         tokens, {off_wall:.2} s"
    );
}

/// The files of the fix branch of item `id`: (path, content), sorted.
fn fix_branch_files(s: &Sample, id: i64) -> Vec<(String, String)> {
    let branch = format!("slopguard/fix/{id}");
    let mut files: Vec<(String, String)> =
        git(&s.repo(), &["diff", "--name-only", "main", &branch])
            .lines()
            .map(|p| {
                (
                    p.to_string(),
                    git(&s.repo(), &["show", &format!("{branch}:{p}")]),
                )
            })
            .collect();
    files.sort();
    files
}

/// What a fix must never change or leave behind in the user's clone: the work tree's status,
/// HEAD, the branches and the registered worktrees (counted: their paths differ per run).
fn clone_state(s: &Sample) -> (String, String, String, usize) {
    let repo = s.repo();
    (
        git(&repo, &["status", "--porcelain"]),
        git(&repo, &["rev-parse", "HEAD"]),
        git(&repo, &["branch", "--list", "--format=%(refname:short)"]),
        git(&repo, &["worktree", "list", "--porcelain"])
            .lines()
            .filter(|l| l.starts_with("worktree "))
            .count(),
    )
}

/// One `feedback fix` killed with SIGKILL at random points (the process, or its whole group as
/// a crash would) and resumed until it ends; the kills made.
fn fix_killed_and_resumed(seed: u64, good: &str) -> (usize, Sample, i64) {
    use std::os::unix::process::CommandExt;
    let s = Sample::new();
    let (status_before, head_before, ..) = clone_state(&s);
    let id = s.triaged("average() divides by n-1", TRIAGE_BUG);
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut kills = 0;
    for round in 0..30 {
        let server = ScriptedServer::start(Script::new().content(good).repeat_last()).unwrap();
        let verb = if round == 0 { "fix" } else { "resume" };
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("slopguard"))
            .args([
                "feedback",
                verb,
                &id.to_string(),
                "--candidates",
                "1",
                "--quiet",
            ])
            .args(["--llm-url", &server.url(), "--model", "scripted-model"])
            .arg("--repo")
            .arg(s.repo())
            .args(["--db", &s.db])
            .stdout(std::process::Stdio::null())
            .stderr(std::fs::File::create(s.dir.path().join("stderr.txt")).unwrap())
            .process_group(0)
            .spawn()
            .unwrap();
        let delay = if round < 8 { next() % 1500 } else { u64::MAX };
        let started = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break Some(status);
            }
            if started.elapsed() >= std::time::Duration::from_millis(delay) {
                let pid = child.id() as i32;
                let target = if next() % 2 == 0 { -pid } else { pid };
                // SAFETY: kill(2) on the process (group) this test started.
                unsafe {
                    libc::kill(target, libc::SIGKILL);
                }
                let _ = child.wait();
                kills += 1;
                break None;
            }
            assert!(started.elapsed().as_secs() < 120, "the fix hung");
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        if let Some(status) = status {
            let mut stderr =
                std::fs::read_to_string(s.dir.path().join("stderr.txt")).unwrap_or_default();
            if status.code() != Some(0) {
                // What the kill left, to tell a branch nobody discarded from one recreated.
                let left = std::process::Command::new("sh")
                    .arg("-c")
                    .arg(
                        "git worktree list --porcelain; ls .git/worktrees; git for-each-ref refs/heads; \
                         cat .git/logs/refs/heads/slopguard/fix/*; find .git -name '*.lock'; \
                         ps -eo pid,ppid,etimes,args | grep '[g]it '",
                    )
                    .current_dir(s.repo())
                    .output()
                    .unwrap();
                stderr.push_str(&String::from_utf8_lossy(&left.stdout));
            }
            assert_eq!(
                status.code(),
                Some(0),
                "seed {seed} round {round}: {stderr}"
            );
            let (status_after, head_after, ..) = clone_state(&s);
            assert_eq!(
                status_after, status_before,
                "seed {seed}: the user's tree changed"
            );
            assert_eq!(head_after, head_before, "seed {seed}: HEAD moved");
            return (kills, s, id);
        }
        std::thread::sleep(std::time::Duration::from_millis(30));
    }
    panic!("seed {seed}: the fix never finished");
}

/// `feedback fix` killed with SIGKILL at random points and resumed: every seed ends with the
/// item's fix PR open, the same branch an uninterrupted fix makes, and the user's clone as it
/// was (status, HEAD, branches, worktrees). `SLOPGUARD_FIX_KILL_SEEDS` seeds (default 2).
#[test]
fn a_fix_killed_at_random_points_and_resumed_ends_as_an_uninterrupted_one() {
    if python_missing() {
        return;
    }
    let good = reply(FIXED_STATS, &tests_with_average("2"));
    let reference = Sample::new();
    let before = clone_state(&reference);
    let id = reference.triaged("average() divides by n-1", TRIAGE_BUG);
    let (code, _, err) = reference.fix(id, "1", &[&good]);
    assert_eq!(code, 0, "{err}");
    let expected_files = fix_branch_files(&reference, id);
    let expected_state = clone_state(&reference);
    assert_eq!(expected_state.0, before.0);
    assert_eq!(expected_state.1, before.1);
    let seeds: u64 = std::env::var("SLOPGUARD_FIX_KILL_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let mut total = 0;
    for seed in 1..=seeds {
        let (kills, s, id) = fix_killed_and_resumed(seed, &good);
        total += kills;
        assert_eq!(s.show(id)["item"]["state"], "fix-pr-open", "seed {seed}");
        assert_eq!(fix_branch_files(&s, id), expected_files, "seed {seed}");
        let (.., branches, worktrees) = clone_state(&s);
        assert_eq!(branches, expected_state.2, "seed {seed}: branches differ");
        assert_eq!(
            worktrees,
            expected_state.3,
            "seed {seed}: worktrees left behind:\n{}",
            git(&s.repo(), &["worktree", "list", "--porcelain"])
        );
        eprintln!("seed {seed}: {kills} kills");
    }
    eprintln!("{total} kills over {seeds} seeds");
    assert!(
        total > 0 || seeds < 2,
        "no fix was ever killed: shorten the delays"
    );
}
