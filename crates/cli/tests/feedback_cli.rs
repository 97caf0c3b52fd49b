//! `slopguard feedback`: intake from an argument, stdin and a file; empty feedback refused;
//! triage against the scripted model (a confident bug, a low-confidence escalation, an answer
//! repaired once, unknown classes and out-of-range confidence refused after one correction),
//! every move recorded in a real SQLite store.
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

use std::process::Command as StdCommand;

use assert_cmd::Command;
use scripted_llm::{Script, ScriptedServer};
use serde_json::Value;

const STATS: &str = "def total(values):\n    return sum(values)\n\n\ndef average(values):\n    return total(values) / (len(values) - 1)\n";

/// A repository with a seeded bug, and a store beside it.
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
        std::fs::write(repo.join("calc/stats.py"), STATS).unwrap();
        std::fs::write(
            repo.join("tests/test_stats.py"),
            "from calc.stats import average\n\n\ndef test_average():\n    assert average([1, 2]) == 1.5\n",
        )
        .unwrap();
        for args in [
            &["init", "-q", "-b", "main"][..],
            &["add", "-A"],
            &[
                "-c",
                "user.email=t@example.com",
                "-c",
                "user.name=t",
                "commit",
                "-q",
                "-m",
                "init",
            ],
        ] {
            let ok = StdCommand::new("git")
                .args(args)
                .current_dir(&repo)
                .status()
                .unwrap();
            assert!(ok.success());
        }
        let db = format!("sqlite://{}", dir.path().join("store.db").display());
        Sample { dir, db }
    }

    fn repo(&self) -> std::path::PathBuf {
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
            .arg(&self.db);
        c
    }

    fn json(&self, args: &[&str]) -> Value {
        let mut all = args.to_vec();
        all.extend(["--format", "json"]);
        let out = self.cmd(&all).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }

    fn add(&self, text: &str) -> i64 {
        self.json(&["add", text])["id"].as_i64().unwrap()
    }

    /// Triages `id` against a scripted model answering `replies`; (exit code, stdout, stderr,
    /// requests made).
    fn triage(&self, id: i64, replies: &[&str]) -> (i32, String, String, usize) {
        let mut script = Script::new();
        for r in replies {
            script = script.content(*r);
        }
        let server = ScriptedServer::start(script).unwrap();
        let out = self
            .cmd(&[
                "triage",
                &id.to_string(),
                "--llm-url",
                &server.url(),
                "--model",
                "scripted-model",
            ])
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            server.chat_requests().len(),
        )
    }

    fn state(&self, id: i64) -> String {
        self.json(&["show", &id.to_string()])["item"]["state"]
            .as_str()
            .unwrap()
            .to_string()
    }
}

const CONFIDENT_BUG: &str = r#"{"class": "bug", "root_cause": "average divides by len(values) - 1 instead of len(values)", "files": ["calc/stats.py"], "confidence": 85}"#;

#[test]
fn intake_from_an_argument_stdin_and_a_file_and_empty_feedback_refused() {
    let s = Sample::new();
    let a = s.add("average() divides by n-1");
    let out = s
        .cmd(&["add", "-", "--severity", "high", "--on", "calc/stats.py:6"])
        .write_stdin("the mean of [1, 2] is 3\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    let file = s.dir.path().join("fb.txt");
    std::fs::write(&file, "spread() is wrong for one value\n").unwrap();
    let out = s
        .cmd(&["add", "--file", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let listed = s.json(&["list"]);
    let rows = listed.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r["state"] == "pending"));
    let from_stdin = rows
        .iter()
        .find(|r| r["body"]["source"] == "stdin")
        .unwrap();
    assert_eq!(from_stdin["body"]["text"], "the mean of [1, 2] is 3");
    assert_eq!(from_stdin["body"]["severity"], "high");
    assert_eq!(from_stdin["target"], "calc/stats.py:6");
    assert!(rows.iter().any(|r| r["body"]["source"] == "file"));
    assert_eq!(s.state(a), "pending");

    let out = s.cmd(&["add", "   "]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the feedback is empty"));
    let out = s
        .cmd(&["add", "x", "--severity", "urgent"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = s.cmd(&["show", "999"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no feedback item 999"));
    assert_eq!(s.json(&["list"]).as_array().unwrap().len(), 3);
}

#[test]
fn triage_says_it_is_waiting_for_the_model() {
    // The reviewer model takes 11 s: the plain progress on stderr repeats what is awaited.
    let s = Sample::new();
    let id = s.add("average() divides by n-1");
    let server = ScriptedServer::start(Script::new().delayed(11_000, CONFIDENT_BUG)).unwrap();
    let out = s
        .cmd(&["triage", &id.to_string(), "--llm-url", &server.url()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    for line in [
        "[00:00] triage (waiting for the reviewer model)",
        "] still working: triage (waiting for the reviewer model)",
    ] {
        assert!(stderr.contains(line), "missing {line:?} in:\n{stderr}");
    }
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("triaged (bug, confidence 85)"),
        "the result stays on stdout"
    );
}

#[test]
fn a_confident_bug_is_triaged_and_localised_to_the_right_file() {
    let s = Sample::new();
    let id = s.add("average() divides by n-1");
    let (code, out, err, requests) = s.triage(id, &[CONFIDENT_BUG]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(requests, 1);
    assert!(out.contains("triaged (bug, confidence 85)"), "{out}");
    let shown = s.json(&["show", &id.to_string()]);
    let item = &shown["item"];
    assert_eq!(item["state"], "triaged");
    assert_eq!(item["detail"]["triage"]["class"], "bug");
    assert_eq!(item["detail"]["triage"]["files"][0], "calc/stats.py");
    assert_eq!(
        item["detail"]["localisation"]["files"][0]["path"],
        "calc/stats.py"
    );
    let history = shown["history"].as_array().unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0]["to"], "triaged");
    assert_eq!(history[0]["note"], "bug, confidence 85");
    // Triaged once: a second triage is refused and changes nothing.
    let (code, _, err, requests) = s.triage(id, &[CONFIDENT_BUG]);
    assert_eq!((code, requests), (2, 0), "{err}");
    assert!(err.contains("not pending"), "{err}");
}

#[test]
fn low_confidence_is_escalated_never_guessed_at() {
    let s = Sample::new();
    let id = s.add("something feels slow");
    let (code, out, _, _) = s.triage(
        id,
        &[r#"{"class": "performance", "root_cause": "unclear", "files": ["calc/nope.py"], "confidence": 40}"#],
    );
    assert_eq!(code, 0);
    assert!(out.contains("escalated"), "{out}");
    assert!(
        out.contains("`calc/nope.py` named by the model does not exist"),
        "{out}"
    );
    let item = &s.json(&["show", &id.to_string()])["item"];
    assert_eq!(item["state"], "escalated");
    assert_eq!(item["detail"]["triage"]["class"], "out-of-scope");
    assert_eq!(item["detail"]["triage"]["proposed_class"], "performance");
}

#[test]
fn a_malformed_answer_is_repaired_once_then_refused() {
    let s = Sample::new();
    // Bad JSON, then a good answer: triaged after one correction.
    let id = s.add("average() divides by n-1");
    let (code, _, err, requests) = s.triage(id, &["class: bug, sure", CONFIDENT_BUG]);
    assert_eq!((code, requests), (0, 2), "{err}");
    assert_eq!(s.state(id), "triaged");
    // An unknown class twice: refused, the item stays pending.
    let id = s.add("average() divides by n-1");
    let unknown = r#"{"class": "refactor", "root_cause": "x", "files": [], "confidence": 90}"#;
    let (code, _, err, requests) = s.triage(id, &[unknown, unknown]);
    assert_eq!((code, requests), (1, 2), "{err}");
    assert!(err.contains("refused after one correction"), "{err}");
    assert!(err.contains("refactor"), "{err}");
    assert_eq!(s.state(id), "pending");
    // A confidence out of range twice: refused too.
    let high = r#"{"class": "bug", "root_cause": "x", "files": [], "confidence": 150}"#;
    let (code, _, err, _) = s.triage(id, &[high, high]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("150"), "{err}");
    assert_eq!(s.state(id), "pending");
}

#[test]
fn a_dead_endpoint_names_the_url_and_leaves_the_item_pending() {
    let s = Sample::new();
    let id = s.add("average() divides by n-1");
    let out = s
        .cmd(&[
            "triage",
            &id.to_string(),
            "--llm-url",
            "http://127.0.0.1:9/v1",
            "--model",
            "m",
            "--llm-timeout",
            "2",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("http://127.0.0.1:9/v1"));
    assert_eq!(s.state(id), "pending");
}

/// A fake GitHub REST API on loopback answering every request with `body` (JSON); the requests'
/// heads (request line and headers, lower-cased header names as sent) are recorded.
fn fake_github(body: String) -> (String, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut head = String::new();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                head.push_str(&line);
            }
            log.lock().unwrap().push(head);
            let reply = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(reply.as_bytes());
        }
    });
    (base, seen)
}

#[test]
fn review_comments_addressed_to_the_bot_are_polled_from_github_once_each() {
    let s = Sample::new();
    let ok = StdCommand::new("git")
        .args([
            "remote",
            "add",
            "origin",
            "https://github.com/acme/stats.git",
        ])
        .current_dir(s.repo())
        .status()
        .unwrap();
    assert!(ok.success());
    let comments = serde_json::json!([
        {"id": 7, "body": "@slopguard average() divides by n-1", "path": "calc/stats.py", "line": 5,
         "html_url": "https://github.com/acme/stats/pull/3#discussion_r7",
         "user": {"login": "alice", "type": "User"}},
        {"id": 8, "body": "Looks good to me.", "path": "calc/stats.py", "line": 1,
         "html_url": "https://github.com/acme/stats/pull/3#discussion_r8",
         "user": {"login": "bob", "type": "User"}},
        {"id": 9, "body": "@slopguard re-run please", "html_url": "https://github.com/acme/stats/pull/3#discussion_r9",
         "user": {"login": "ci[bot]", "type": "Bot"}}
    ]);
    let (api, seen) = fake_github(comments.to_string());
    let poll = |token: Option<&str>| {
        let mut c = s.cmd(&["poll", "--format", "json"]);
        c.env_remove("GITHUB_TOKEN")
            .env_remove("GH_TOKEN")
            .env_remove("GITHUB_API_URL")
            .env("SLOPGUARD_GITHUB_API", &api);
        if let Some(t) = token {
            c.env("GITHUB_TOKEN", t);
        }
        c.output().unwrap()
    };
    let out = poll(Some("t0ken"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["repo"], "acme/stats");
    assert_eq!(report["added"].as_array().unwrap().len(), 1, "{report}");
    assert_eq!(report["added"][0]["comment_id"], 7);
    let head = seen.lock().unwrap()[0].clone();
    assert!(
        head.starts_with(
            "GET /repos/acme/stats/pulls/comments?sort=created&direction=asc&per_page=100&page=1 "
        ),
        "{head}"
    );
    assert!(
        head.to_lowercase().contains("authorization: bearer t0ken"),
        "{head}"
    );
    let id = report["added"][0]["id"].as_i64().unwrap();
    let item = &s.json(&["show", &id.to_string()])["item"];
    assert_eq!(item["state"], "pending");
    assert_eq!(item["target"], "calc/stats.py:5");
    let text = item["body"]["text"].as_str().unwrap();
    assert!(
        text.starts_with("average() divides by n-1\n\n(review comment by @alice: https://github.com/acme/stats/pull/3#discussion_r7)"),
        "{text}"
    );
    assert_eq!(item["body"]["source"], "github-comment:7");
    // Polled again: nothing new.
    let again: Value = serde_json::from_slice(&poll(Some("t0ken")).stdout).unwrap();
    assert_eq!(again["added"].as_array().unwrap().len(), 0);
    assert_eq!(again["already_taken"], 1);
    // The polled item is triaged like any other: localised by its line.
    let triage =
        r#"{"class": "bug", "root_cause": "n-1", "files": ["calc/stats.py"], "confidence": 85}"#;
    let (code, _, err, _) = s.triage(id, &[triage]);
    assert_eq!(code, 0, "{err}");
    let loc = &s.json(&["show", &id.to_string()])["item"]["detail"]["localisation"];
    assert_eq!(loc["files"][0]["path"], "calc/stats.py", "{loc}");
    // No token: a usage error saying what to set.
    let out = poll(None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("set GITHUB_TOKEN"));
}
