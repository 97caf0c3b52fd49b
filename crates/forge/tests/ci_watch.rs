//! The CI watch end to end against a local HTTP server standing in for GitHub's REST API (the
//! pull request, its check runs, an Actions job's log behind a redirect), the scripted model as
//! the LLM and a local bare repository as the push remote (the clone's `origin` is a GitHub URL
//! that git's `insteadOf` sends to the bare repository).
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Redirect, Response};
use scripted_llm::{Script, ScriptedServer};
use serde_json::{Value, json};
use slopguard_agent::run::candidates::CandidateCount;
use slopguard_agent::run::{NoProgress, RunOptions, execute};
use slopguard_forge::ForgeConfig;
use slopguard_forge::ci::{self, Hooks, LogBudget, WatchOptions, WatchReport, WatchStatus};
use slopguard_llm::LlmConfig;
use slopguard_testkit::{git_trimmed as git, python_missing, snapshot};

const CALC: &str = "def add(a, b):\n    return a - b\n\n\ndef helper():\n    return 5\n";
const TESTS: &str = "import unittest\n\nfrom calc import add, helper\n\n\nclass CalcTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n\n    def test_helper(self):\n        self.assertEqual(helper(), 5)\n";

/// An Actions job log of the failing unittest run, as GitHub serves it.
const JOB_LOG: &str = "\
2024-05-01T10:00:00.0000000Z Current runner version: '2.316.0'
2024-05-01T10:00:01.0000000Z ##[group]Run actions/checkout@v4
2024-05-01T10:00:01.2000000Z ##[endgroup]
2024-05-01T10:00:03.0000000Z ##[group]Run python -m unittest -v
2024-05-01T10:00:03.2000000Z ##[endgroup]
2024-05-01T10:00:04.0000000Z test_add (tests.test_calc.CalcTest.test_add) ... FAIL
2024-05-01T10:00:04.0000000Z ======================================================================
2024-05-01T10:00:04.0000000Z FAIL: test_add (tests.test_calc.CalcTest.test_add)
2024-05-01T10:00:04.0000000Z Traceback (most recent call last):
2024-05-01T10:00:04.0000000Z   File \"/home/runner/work/widget/widget/tests/test_calc.py\", line 8, in test_add
2024-05-01T10:00:04.0000000Z     self.assertEqual(add(2, 3), 5)
2024-05-01T10:00:04.0000000Z AssertionError: -1 != 5 (add in calc.py)
2024-05-01T10:00:04.0000000Z FAILED (failures=1)
2024-05-01T10:00:04.5000000Z ##[error]Process completed with exit code 1.
";

/// What the fake's check runs say.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ci {
    /// The PR's head fails; any other commit runs once, then passes.
    FailThenGreen,
    /// Every commit's checks stay in progress.
    NeverFinishes,
}

#[derive(Clone)]
struct Fake {
    ci: Ci,
    head_sha: String,
    polls: Arc<Mutex<HashMap<String, u32>>>,
    seen: Arc<Mutex<Vec<String>>>,
}

fn check(id: u64, status: &str, conclusion: Option<&str>) -> Value {
    json!({"total_count": 1, "check_runs": [{"id": id, "name": "test", "status": status,
        "conclusion": conclusion, "app": {"slug": "github-actions"},
        "output": {"title": null, "summary": null}}]})
}

async fn handle(State(f): State<Fake>, uri: Uri) -> Response {
    let path = uri.path().to_string();
    f.seen.lock().unwrap().push(path.clone());
    if path == "/repos/acme/widget/pulls/7" {
        let pr = json!({"number": 7, "state": "open", "html_url": "https://github.com/acme/widget/pull/7",
            "head": {"sha": f.head_sha, "ref": "fix-add", "repo": {"full_name": "acme/widget"}},
            "base": {"ref": "main", "repo": {"full_name": "acme/widget"}}});
        return axum::Json(pr).into_response();
    }
    if path == "/repos/acme/widget/actions/jobs/101/logs" {
        return Redirect::to("/blob/job-101.txt").into_response();
    }
    if path == "/blob/job-101.txt" {
        return JOB_LOG.into_response();
    }
    if let Some(sha) = path
        .strip_prefix("/repos/acme/widget/commits/")
        .and_then(|p| p.strip_suffix("/check-runs"))
    {
        let n = {
            let mut polls = f.polls.lock().unwrap();
            let n = polls.entry(sha.to_string()).or_default();
            *n += 1;
            *n
        };
        let body = match f.ci {
            Ci::NeverFinishes => check(101, "in_progress", None),
            Ci::FailThenGreen if sha == f.head_sha => check(101, "completed", Some("failure")),
            Ci::FailThenGreen if n == 1 => check(102, "in_progress", None),
            Ci::FailThenGreen => check(102, "completed", Some("success")),
        };
        return axum::Json(body).into_response();
    }
    (
        StatusCode::NOT_FOUND,
        axum::Json(json!({"message": "Not Found"})),
    )
        .into_response()
}

/// Starts the fake GitHub on 127.0.0.1; returns its base URL.
fn start_fake(fake: Fake) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            let app = Router::new().fallback(handle).with_state(fake);
            axum::serve(listener, app).await.unwrap();
        });
    });
    format!("http://{}", rx.recv().unwrap())
}

/// A clone with a PR branch `fix-add` (calc.py's bug, a failing test) pushed to a bare
/// repository that the clone's GitHub `origin` is rewritten to.
struct Setup {
    tmp: tempfile::TempDir,
    clone: PathBuf,
    bare: PathBuf,
    head: String,
}

impl Setup {
    fn new() -> Setup {
        let tmp = tempfile::tempdir().unwrap();
        let bare = tmp.path().join("widget.git");
        let clone = tmp.path().join("clone");
        std::fs::create_dir_all(&clone).unwrap();
        git(
            tmp.path(),
            &["init", "-q", "--bare", "-b", "main", "widget.git"],
        );
        git(&clone, &["init", "-q", "-b", "main"]);
        git(&clone, &["config", "user.email", "t@example.com"]);
        git(&clone, &["config", "user.name", "t"]);
        git(&clone, &["config", "commit.gpgsign", "false"]);
        std::fs::write(clone.join("calc.py"), CALC).unwrap();
        std::fs::create_dir_all(clone.join("tests")).unwrap();
        std::fs::write(clone.join("tests/__init__.py"), "").unwrap();
        std::fs::write(clone.join("tests/test_calc.py"), TESTS).unwrap();
        git(&clone, &["add", "-A"]);
        git(&clone, &["commit", "-qm", "calc"]);
        git(&clone, &["checkout", "-qb", "fix-add"]);
        std::fs::write(clone.join("notes.txt"), "notes\n").unwrap();
        git(&clone, &["add", "-A"]);
        git(&clone, &["commit", "-qm", "notes"]);
        let head = git(&clone, &["rev-parse", "HEAD"]);
        let github = "https://github.com/acme/widget.git";
        git(&clone, &["remote", "add", "origin", github]);
        let rewrite = format!("url.{}.insteadOf", bare.display());
        git(&clone, &["config", &rewrite, github]);
        git(&clone, &["push", "-q", "origin", "main", "fix-add"]);
        git(&clone, &["checkout", "-q", "main"]);
        std::fs::write(clone.join("notes.txt"), "uncommitted user work\n").unwrap();
        Setup {
            tmp,
            clone,
            bare,
            head,
        }
    }

    fn remote_head(&self) -> String {
        git(&self.bare, &["rev-parse", "refs/heads/fix-add"])
    }

    fn template(&self, llm_url: &str) -> RunOptions {
        RunOptions {
            llm: LlmConfig::single(llm_url, "scripted-model"),
            db: Some(format!(
                "sqlite://{}",
                self.tmp.path().join("store.db").display()
            )),
            max_attempts: 1,
            candidates: CandidateCount::Fixed(1),
            // The fixer's model answers are scripted; the repair templates (which would fix
            // `a - b` alone) are tested in run_loop.
            templates: false,
            ..RunOptions::default()
        }
    }
}

fn fast(deadline: Duration) -> WatchOptions {
    WatchOptions {
        deadline,
        poll_interval: Duration::from_millis(50),
        max_interval: Duration::from_millis(200),
        rounds: 2,
        log_budget: LogBudget::default(),
    }
}

fn fake(ci: Ci, head: &str) -> (String, Fake) {
    let f = Fake {
        ci,
        head_sha: head.to_string(),
        polls: Default::default(),
        seen: Default::default(),
    };
    (start_fake(f.clone()), f)
}

fn forge(api: &str, token: Option<&str>) -> ForgeConfig {
    ForgeConfig {
        token: token.map(str::to_string),
        api_base: api.to_string(),
        ..ForgeConfig::default()
    }
}

fn watch(
    s: &Setup,
    forge: &ForgeConfig,
    template: &RunOptions,
    opts: &WatchOptions,
) -> WatchReport {
    let fix = |o: &RunOptions| execute(o, &NoProgress);
    let notes = Mutex::new(Vec::<String>::new());
    let note = |l: &str| notes.lock().unwrap().push(l.to_string());
    ci::watch(
        &ci::WatchRequest {
            pr_url: "https://github.com/acme/widget/pull/7",
            repo_dir: &s.clone,
            forge,
            fix_template: template,
        },
        opts,
        &Hooks {
            fix: &fix,
            note: &note,
        },
    )
}

fn trace_events(report: &WatchReport) -> Vec<String> {
    let text = std::fs::read_to_string(report.trace_path.as_ref().unwrap()).unwrap();
    text.lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["event"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

fn patch(path: &str, content: &str) -> String {
    json!({"commit_message": "Fix add: return the sum", "patches": [{"action": "modify",
        "path": path, "content": content}]})
    .to_string()
}

#[test]
fn a_failing_check_gets_a_fix_pushed_then_green() {
    if python_missing() {
        return;
    }
    let s = Setup::new();
    let before = snapshot(&s.clone);
    let (api, f) = fake(Ci::FailThenGreen, &s.head);
    let fixed = CALC.replace("a - b", "a + b");
    let llm = ScriptedServer::start(Script::new().content(patch("calc.py", &fixed))).unwrap();

    let report = watch(
        &s,
        &forge(&api, Some("t0ken")),
        &s.template(&llm.url()),
        &fast(Duration::from_secs(120)),
    );
    eprintln!("{}", report.to_text());

    assert_eq!(report.status, WatchStatus::Green, "{}", report.to_text());
    assert_eq!(report.rounds.len(), 2, "{}", report.to_text());
    let first = &report.rounds[0];
    assert_eq!(first.sha, s.head);
    assert_eq!(first.verdict, "failed");
    let log = first.log.as_ref().unwrap();
    assert_eq!(log.step, "Run python -m unittest -v");
    assert!(
        log.lines
            .iter()
            .any(|l| l.contains("AssertionError: -1 != 5"))
    );
    assert_eq!(first.hints, vec!["tests/test_calc.py", "calc.py"]);
    let fix = first.fix.as_ref().unwrap();
    assert!(fix.pushed, "{fix:?}");
    let commit = fix.commit.clone().unwrap();
    // The remote branch moved to the fix, on top of the PR's head, with the fixed code.
    assert_eq!(s.remote_head(), commit);
    assert_eq!(git(&s.bare, &["rev-parse", &format!("{commit}^")]), s.head);
    assert_eq!(
        git(&s.bare, &["show", &format!("{commit}:calc.py")]),
        fixed.trim_end()
    );
    assert_eq!(report.rounds[1].sha, commit);
    assert_eq!(report.rounds[1].verdict, "green");
    // The second commit was polled until its check finished: backoff, then green.
    assert_eq!(f.polls.lock().unwrap()[&commit], 2);
    let seen = f.seen.lock().unwrap().clone();
    assert!(seen.contains(&"/blob/job-101.txt".to_string()), "{seen:?}");
    // The model saw the log excerpt.
    let asked = serde_json::to_string(&llm.requests()).unwrap();
    assert!(
        asked.contains("AssertionError: -1 != 5"),
        "the prompt carries the log"
    );
    let events = trace_events(&report);
    for e in [
        "ci.watch.begin",
        "ci.poll",
        "ci.log",
        "ci.fix.begin",
        "ci.fix.end",
        "ci.push",
        "ci.watch.end",
    ] {
        assert!(events.iter().any(|x| x == e), "{e} missing in {events:?}");
    }
    // The user's working tree is as it was.
    assert_eq!(snapshot(&s.clone), before);
    assert!(report.to_text().contains("pushed"), "{}", report.to_text());
}

/// Watches a failing CI whose fixer model answers `reply` every time, and checks that the
/// watch ends with the fix refused.
fn watch_a_refused_fix(s: &Setup, api: &str, reply: String) -> WatchReport {
    let llm = ScriptedServer::start(Script::new().content(reply).repeat_last()).unwrap();
    let report = watch(
        s,
        &forge(api, Some("t0ken")),
        &s.template(&llm.url()),
        &fast(Duration::from_secs(120)),
    );
    assert_eq!(
        report.status,
        WatchStatus::FixFailed,
        "{}",
        report.to_text()
    );
    report
}

#[test]
fn a_fix_that_fails_the_guards_is_not_pushed() {
    if python_missing() {
        return;
    }
    let s = Setup::new();
    let (api, _f) = fake(Ci::FailThenGreen, &s.head);
    // Asked for `add` alone, the fixer answers with an `add` that does not parse (the syntax
    // guard blocks it).
    let broken = patch("calc.py", "def add(a, b:\n    return a + b\n");
    let report = watch_a_refused_fix(&s, &api, broken);

    let fix = report.rounds[0].fix.as_ref().unwrap();
    assert!(!fix.pushed && fix.commit.is_none(), "{fix:?}");
    assert!(fix.blocked_by.iter().any(|g| g == "syntax"), "{fix:?}");
    assert_eq!(s.remote_head(), s.head, "nothing pushed");
    assert!(
        report.message.contains("nothing was pushed"),
        "{}",
        report.message
    );
    assert!(!trace_events(&report).iter().any(|e| e == "ci.push"));
}

#[test]
fn a_model_chosen_path_outside_the_repository_is_refused() {
    if python_missing() {
        return;
    }
    let s = Setup::new();
    let (api, _f) = fake(Ci::FailThenGreen, &s.head);
    let escape = json!({"commit_message": "fix", "patches": [{"action": "create",
        "path": "../escaped.py", "content": "def add(a, b):\n    return a + b\n"}]})
    .to_string();
    let report = watch_a_refused_fix(&s, &api, escape);

    let fix = report.rounds[0].fix.as_ref().unwrap();
    assert!(fix.blocked_by.iter().any(|g| g == "containment"), "{fix:?}");
    assert_eq!(s.remote_head(), s.head, "nothing pushed");
    // Nothing was written beside the clone, nor beside any worktree under the temp dir.
    assert!(!s.tmp.path().join("escaped.py").exists());
    assert!(
        !std::env::temp_dir()
            .join("slopguard-worktrees/escaped.py")
            .exists()
    );
}

#[test]
fn the_deadline_stops_cleanly() {
    let s = Setup::new();
    let (api, f) = fake(Ci::NeverFinishes, &s.head);
    let llm = ScriptedServer::start(Script::new()).unwrap();
    let started = Instant::now();

    let report = watch(
        &s,
        &forge(&api, Some("t0ken")),
        &s.template(&llm.url()),
        &fast(Duration::from_millis(700)),
    );
    eprintln!("{}", report.to_text());

    assert_eq!(report.status, WatchStatus::Deadline, "{}", report.to_text());
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(
        report.message.contains("test was still running"),
        "{}",
        report.message
    );
    // Backoff: 50, 100, 200, 200 ms ... within 0.7 s is a handful of polls, not hundreds (on
    // a loaded machine as few as one: the bound that matters is the upper one).
    let polls = f.polls.lock().unwrap()[&s.head];
    assert!((1..=8).contains(&polls), "{polls} polls");
    assert_eq!(report.polls, polls);
    assert!(llm.requests().is_empty(), "no model call");
    assert_eq!(s.remote_head(), s.head);
    assert_eq!(report.rounds[0].verdict, "pending");
    assert!(trace_events(&report).iter().any(|e| e == "ci.watch.end"));
}

#[test]
fn no_token_no_remote_or_no_network_is_a_clear_error_and_nothing_changes() {
    let s = Setup::new();
    let (api, f) = fake(Ci::FailThenGreen, &s.head);
    let llm = ScriptedServer::start(Script::new()).unwrap();
    let template = s.template(&llm.url());
    let refs = git(&s.clone, &["for-each-ref"]);
    let before = snapshot(&s.clone);

    let no_token = watch(
        &s,
        &forge(&api, None),
        &template,
        &fast(Duration::from_secs(5)),
    );
    assert_eq!(no_token.status, WatchStatus::Error);
    assert!(
        no_token.message.contains("GITHUB_TOKEN"),
        "{}",
        no_token.message
    );
    assert!(
        f.seen.lock().unwrap().is_empty(),
        "no request without a token"
    );

    git(
        &s.clone,
        &[
            "remote",
            "set-url",
            "origin",
            "https://gitlab.com/acme/widget.git",
        ],
    );
    let no_remote = watch(
        &s,
        &forge(&api, Some("t0ken")),
        &template,
        &fast(Duration::from_secs(5)),
    );
    assert_eq!(no_remote.status, WatchStatus::Error);
    assert!(
        no_remote
            .message
            .contains("git remote add origin https://github.com/acme/widget.git"),
        "{}",
        no_remote.message
    );
    git(
        &s.clone,
        &[
            "remote",
            "set-url",
            "origin",
            "https://github.com/acme/widget.git",
        ],
    );

    // A port nobody listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let offline = watch(
        &s,
        &forge(&dead, Some("t0ken")),
        &template,
        &fast(Duration::from_secs(5)),
    );
    assert_eq!(offline.status, WatchStatus::Error);
    assert!(
        offline
            .message
            .contains("cannot read pull request #7 of acme/widget"),
        "{}",
        offline.message
    );

    for r in [&no_token, &no_remote, &offline] {
        assert!(r.trace_path.is_none() && r.rounds.is_empty(), "{r:?}");
    }
    assert!(!s.clone.join(".slopguard").exists(), "nothing written");
    assert_eq!(git(&s.clone, &["for-each-ref"]), refs);
    assert_eq!(snapshot(&s.clone), before);
    assert_eq!(s.remote_head(), s.head);
    assert!(llm.requests().is_empty());
}
