//! The forge phase against a local HTTP server standing in for the GitHub REST API: the exact
//! request (path, headers, JSON body), push through git, the local fallback, URL targets.
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

use std::collections::VecDeque;
use std::path::Path;

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::IntoResponse;
use serde_json::{Value, json};
use slopguard_agent::run::summary::{
    RunRecord, RunSummary, SubtaskStatus, SubtaskSummary, TaskSummary,
};
use slopguard_forge::{
    self as forge, ForgeConfig, GitHubClient, GitHubRepo, NewPull, PrOutcome, PublishRequest,
};
use slopguard_testkit::git_trimmed as git;

/// One request the fake GitHub received.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    path_and_query: String,
    headers: HeaderMap,
    body: Value,
}

#[derive(Clone, Default)]
struct Fake {
    seen: Arc<Mutex<Vec<Seen>>>,
    replies: Arc<Mutex<VecDeque<(u16, Value)>>>,
}

async fn handle(
    State(f): State<Fake>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> impl IntoResponse {
    f.seen.lock().unwrap().push(Seen {
        method: method.to_string(),
        path_and_query: uri
            .path_and_query()
            .map(|p| p.to_string())
            .unwrap_or_default(),
        headers,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    });
    let (status, reply) = f
        .replies
        .lock()
        .unwrap()
        .pop_front()
        .unwrap_or((500, json!({"message": "no scripted reply"})));
    (
        StatusCode::from_u16(status).unwrap(),
        [("content-type", "application/json")],
        reply.to_string(),
    )
}

/// Starts the fake GitHub on 127.0.0.1 in a background thread; returns its base URL.
fn start_fake(replies: Vec<(u16, Value)>) -> (String, Fake) {
    let fake = Fake::default();
    fake.replies.lock().unwrap().extend(replies);
    let state = fake.clone();
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
            let app = Router::new().fallback(handle).with_state(state);
            axum::serve(listener, app).await.unwrap();
        });
    });
    let addr = rx.recv().unwrap();
    (format!("http://{addr}"), fake)
}

/// A repository with a `main` commit and a `slopguard/r-1` branch one commit ahead.
fn repo_with_branch(dir: &Path) -> String {
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["config", "user.email", "t@example.invalid"]);
    git(dir, &["config", "user.name", "T"]);
    git(dir, &["config", "commit.gpgsign", "false"]);
    std::fs::write(dir.join("a.txt"), "one\n").unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", "base"]);
    git(dir, &["checkout", "-qb", "slopguard/r-1"]);
    std::fs::write(dir.join("a.txt"), "two\n").unwrap();
    git(dir, &["commit", "-qam", "fix: two"]);
    let head = git(dir, &["rev-parse", "HEAD"]);
    git(dir, &["checkout", "-q", "main"]);
    head
}

fn summary(commit: &str) -> RunSummary {
    RunSummary {
        run: RunRecord {
            run_id: "r-1".into(),
            branch: "slopguard/r-1".into(),
            base: "main".into(),
            model: "scripted-model".into(),
            tasks: vec![TaskSummary {
                id: "T001".into(),
                title: "Fix the counter".into(),
                priority: 1,
                subtasks: vec![SubtaskSummary {
                    id: "T001-S01".into(),
                    title: "Write two".into(),
                    status: SubtaskStatus::Committed,
                    commit: Some(commit.into()),
                    attempts: 1,
                    touched_files: vec!["a.txt".into()],
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        },
        ..Default::default()
    }
}

fn header<'a>(s: &'a Seen, name: &str) -> &'a str {
    s.headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

#[test]
fn create_pull_sends_the_exact_github_request() {
    let (base, fake) = start_fake(vec![(
        201,
        json!({"number": 42, "html_url": "https://github.com/acme/widget/pull/42"}),
    )]);
    let client = GitHubClient::new(&base, "tok-123").unwrap();
    let repo = GitHubRepo {
        owner: "acme".into(),
        name: "widget".into(),
    };
    let pull = NewPull {
        title: "slopguard: fix".into(),
        head: "slopguard/r-1".into(),
        base: "main".into(),
        body: "## body\n".into(),
        draft: true,
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let pr = rt.block_on(client.create_pull(&repo, &pull)).unwrap();
    assert_eq!(pr.number, 42);
    assert_eq!(pr.html_url, "https://github.com/acme/widget/pull/42");
    assert!(!pr.updated_existing);

    let seen = fake.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1);
    let r = &seen[0];
    assert_eq!(r.method, "POST");
    assert_eq!(r.path_and_query, "/repos/acme/widget/pulls");
    assert_eq!(header(r, "authorization"), "Bearer tok-123");
    assert_eq!(header(r, "accept"), "application/vnd.github+json");
    assert_eq!(header(r, "x-github-api-version"), "2022-11-28");
    assert_eq!(
        header(r, "user-agent"),
        format!("slopguard/{}", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(header(r, "content-type"), "application/json");
    assert_eq!(
        r.body,
        json!({"title": "slopguard: fix", "head": "slopguard/r-1", "base": "main",
               "body": "## body\n", "draft": true})
    );
}

#[test]
fn existing_pull_for_the_branch_is_updated() {
    let (base, fake) = start_fake(vec![
        (
            422,
            json!({"message": "Validation Failed",
                   "errors": [{"message": "A pull request already exists for acme:slopguard/r-1."}]}),
        ),
        (
            200,
            json!([{"number": 7, "html_url": "https://github.com/acme/widget/pull/7"}]),
        ),
        (
            200,
            json!({"number": 7, "html_url": "https://github.com/acme/widget/pull/7"}),
        ),
    ]);
    let client = GitHubClient::new(&base, "t").unwrap();
    let repo = GitHubRepo {
        owner: "acme".into(),
        name: "widget".into(),
    };
    let pull = NewPull {
        title: "T".into(),
        head: "slopguard/r-1".into(),
        base: "main".into(),
        body: "B".into(),
        draft: false,
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let pr = rt.block_on(client.create_pull(&repo, &pull)).unwrap();
    assert_eq!(pr.number, 7);
    assert!(pr.updated_existing);
    let seen = fake.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 3);
    assert_eq!(seen[1].method, "GET");
    assert_eq!(
        seen[1].path_and_query,
        "/repos/acme/widget/pulls?head=acme%3Aslopguard%2Fr-1&state=open"
    );
    assert_eq!(seen[2].method, "PATCH");
    assert_eq!(seen[2].path_and_query, "/repos/acme/widget/pulls/7");
    assert_eq!(seen[2].body, json!({"title": "T", "body": "B"}));
}

#[test]
fn publish_pushes_the_branch_and_opens_the_pr() {
    let (base, fake) = start_fake(vec![(
        201,
        json!({"number": 3, "html_url": "https://github.com/acme/widget/pull/3"}),
    )]);
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    let forge_root = tmp.path().join("forge");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(forge_root.join("acme")).unwrap();
    let bare = forge_root.join("acme").join("widget.git");
    git(
        tmp.path(),
        &["init", "-q", "--bare", bare.to_str().unwrap()],
    );
    let head = repo_with_branch(&work);
    git(
        &work,
        &[
            "remote",
            "add",
            "origin",
            "https://github.com/acme/widget.git",
        ],
    );
    // Route the GitHub URL to the local bare repository.
    git(
        &work,
        &[
            "config",
            &format!("url.{}/.insteadOf", forge_root.display()),
            "https://github.com/",
        ],
    );
    let sum = summary(&head);
    let out_dir = tmp.path().join("runs").join("r-1");
    let cfg = ForgeConfig {
        token: Some("tok".into()),
        api_base: base,
        ..ForgeConfig::default()
    };
    let outcome = forge::publish(
        &PublishRequest {
            repo_dir: &work,
            branch: "slopguard/r-1",
            base: "main",
            summary: &sum,
            out_dir: &out_dir,
        },
        &cfg,
    )
    .unwrap();
    let PrOutcome::Opened {
        number,
        url,
        body_path,
    } = &outcome
    else {
        panic!("expected an opened PR, got {outcome:?}");
    };
    assert_eq!(*number, 3);
    assert_eq!(url, "https://github.com/acme/widget/pull/3");
    assert_eq!(body_path, &out_dir.join("PR.md"));
    // The branch arrived on the "remote".
    assert_eq!(git(&bare, &["rev-parse", "refs/heads/slopguard/r-1"]), head);
    // The request carried the rendered body.
    let seen = fake.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].path_and_query, "/repos/acme/widget/pulls");
    assert_eq!(seen[0].body["body"], json!(forge::render_body(&sum)));
    assert_eq!(seen[0].body["title"], json!("slopguard: Fix the counter"));
    assert_eq!(seen[0].body["head"], json!("slopguard/r-1"));
    assert_eq!(seen[0].body["draft"], json!(false));
    let file = std::fs::read_to_string(body_path).unwrap();
    assert!(file.starts_with("# slopguard: Fix the counter\n\n## slopguard run `r-1`"));
}

#[test]
fn without_token_or_github_remote_the_body_goes_to_a_file() {
    let (base, fake) = start_fake(vec![]);
    let tmp = tempfile::tempdir().unwrap();
    let head = repo_with_branch(tmp.path());
    let sum = summary(&head);
    let out_dir = tmp.path().join(".slopguard/runs/r-1");
    let run = |cfg: &ForgeConfig| {
        forge::publish(
            &PublishRequest {
                repo_dir: tmp.path(),
                branch: "slopguard/r-1",
                base: "main",
                summary: &sum,
                out_dir: &out_dir,
            },
            cfg,
        )
        .unwrap()
    };
    let with_token = ForgeConfig {
        token: Some("tok".into()),
        api_base: base.clone(),
        ..ForgeConfig::default()
    };
    // No remote at all.
    let o = run(&with_token);
    assert_eq!(
        o,
        PrOutcome::Local {
            body_path: out_dir.join("PR.md"),
            reason: "no `origin` remote".into()
        }
    );
    assert!(o.describe().starts_with("PR body written to "));
    // Another forge.
    git(
        tmp.path(),
        &["remote", "add", "origin", "git@gitlab.com:acme/widget.git"],
    );
    let PrOutcome::Local { reason, .. } = run(&with_token) else {
        panic!("gitlab remote must stay local");
    };
    assert_eq!(reason, "`origin` is not a GitHub remote");
    // GitHub remote, no token.
    git(
        tmp.path(),
        &[
            "remote",
            "set-url",
            "origin",
            "git@github.com:acme/widget.git",
        ],
    );
    let PrOutcome::Local { reason, body_path } = run(&ForgeConfig {
        token: None,
        api_base: base,
        ..ForgeConfig::default()
    }) else {
        panic!("no token must stay local");
    };
    assert_eq!(reason, "GITHUB_TOKEN is not set");
    let text = std::fs::read_to_string(body_path).unwrap();
    assert!(text.contains("| T001-S01 Write two | committed |"));
    assert!(fake.seen.lock().unwrap().is_empty(), "no request was made");
}

#[test]
fn api_error_keeps_the_branch_local_and_says_why() {
    let (base, _fake) = start_fake(vec![(401, json!({"message": "Bad credentials"}))]);
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let forge_root = tmp.path().join("forge");
    std::fs::create_dir_all(forge_root.join("acme")).unwrap();
    git(
        tmp.path(),
        &[
            "init",
            "-q",
            "--bare",
            forge_root.join("acme/widget.git").to_str().unwrap(),
        ],
    );
    let head = repo_with_branch(&work);
    git(
        &work,
        &["remote", "add", "origin", "https://github.com/acme/widget"],
    );
    git(
        &work,
        &[
            "config",
            &format!("url.{}/.insteadOf", forge_root.display()),
            "https://github.com/",
        ],
    );
    // `https://github.com/acme/widget` maps to `forge/acme/widget`; git finds `widget.git`.
    let sum = summary(&head);
    let o = forge::publish(
        &PublishRequest {
            repo_dir: &work,
            branch: "slopguard/r-1",
            base: "main",
            summary: &sum,
            out_dir: &tmp.path().join("out"),
        },
        &ForgeConfig {
            token: Some("bad".into()),
            api_base: base,
            ..ForgeConfig::default()
        },
    )
    .unwrap();
    let PrOutcome::Local { reason, .. } = o else {
        panic!("an API error must leave the branch local");
    };
    assert_eq!(
        reason,
        "branch pushed, but opening the PR failed: GitHub API answered 401: Bad credentials"
    );
}

#[test]
fn push_failure_keeps_the_branch_local() {
    let tmp = tempfile::tempdir().unwrap();
    let head = repo_with_branch(tmp.path());
    git(
        tmp.path(),
        &[
            "remote",
            "add",
            "origin",
            "https://github.com/acme/widget.git",
        ],
    );
    // Route to a path that is not a repository: the push fails without any network.
    git(
        tmp.path(),
        &[
            "config",
            &format!("url.{}/.insteadOf", tmp.path().join("nowhere").display()),
            "https://github.com/",
        ],
    );
    let sum = summary(&head);
    let o = forge::publish(
        &PublishRequest {
            repo_dir: tmp.path(),
            branch: "slopguard/r-1",
            base: "main",
            summary: &sum,
            out_dir: &tmp.path().join("out"),
        },
        &ForgeConfig {
            token: Some("t".into()),
            api_base: "http://127.0.0.1:9".into(),
            ..ForgeConfig::default()
        },
    )
    .unwrap();
    let PrOutcome::Local { reason, body_path } = o else {
        panic!("a failed push must stay local");
    };
    assert!(reason.starts_with("push failed: git push:"), "{reason}");
    assert!(body_path.exists());
}

#[test]
fn git_url_targets_are_cloned_then_refreshed() {
    let tmp = tempfile::tempdir().unwrap();
    let origin = tmp.path().join("origin");
    std::fs::create_dir_all(&origin).unwrap();
    repo_with_branch(&origin);
    let cache = tmp.path().join("cache");
    let url = format!("file://{}", origin.display());

    let first = forge::target::prepare_target_in(&url, &cache).unwrap();
    assert!(first.cloned);
    assert_eq!(first.url.as_deref(), Some(url.as_str()));
    assert!(first.path.starts_with(&cache));
    assert_eq!(
        std::fs::read_to_string(first.path.join("a.txt")).unwrap(),
        "one\n"
    );

    // New upstream commit: the cached clone is refreshed, not re-cloned.
    std::fs::write(origin.join("a.txt"), "three\n").unwrap();
    git(&origin, &["commit", "-qam", "three"]);
    let second = forge::target::prepare_target_in(&url, &cache).unwrap();
    assert!(!second.cloned);
    assert_eq!(second.path, first.path);
    assert_eq!(
        std::fs::read_to_string(second.path.join("a.txt")).unwrap(),
        "three\n"
    );

    // A local directory is used in place.
    let local = forge::target::prepare_target_in(origin.to_str().unwrap(), &cache).unwrap();
    assert!(!local.cloned);
    assert_eq!(local.path, origin.canonicalize().unwrap());

    // Neither a directory nor a URL; an unreachable URL.
    assert!(forge::target::prepare_target_in("no/such/dir", &cache).is_err());
    let bad = format!("file://{}", tmp.path().join("missing").display());
    assert!(forge::target::prepare_target_in(&bad, &cache).is_err());
    assert!(
        std::fs::read_dir(&cache).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .contains("partial")),
        "a failed clone leaves nothing behind"
    );
}
