//! Gateway tests over loopback HTTP, against SQLite and (when `SLOPGUARD_TEST_PG` is set)
//! PostgreSQL.
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use slopguard_server::{AppState, GatewayClient, serve_on};
use slopguard_store::*;
use slopguard_testkit::{TEST_IDENTITY, git};

const TOKEN: &str = "s3cret-token";

fn uniq(tag: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!(
        "{tag}-{}-{}-{}",
        std::process::id(),
        now_ms(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

struct Backend {
    name: &'static str,
    url: String,
    _dir: Option<tempfile::TempDir>,
}

fn backends() -> Vec<Backend> {
    let dir = tempfile::tempdir().unwrap();
    let mut out = vec![Backend {
        name: "sqlite",
        url: format!("sqlite://{}", dir.path().join("gw.db").display()),
        _dir: Some(dir),
    }];
    match std::env::var("SLOPGUARD_TEST_PG") {
        Ok(pg) if !pg.is_empty() => out.push(Backend {
            name: "postgres",
            url: pg,
            _dir: None,
        }),
        _ => eprintln!("NOTICE: SLOPGUARD_TEST_PG unset: PostgreSQL backend skipped"),
    }
    out
}

struct Gw {
    base: String,
    store: Store,
    http: reqwest::Client,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Gw {
    async fn start(url: &str, token: Option<&str>, roots: &[PathBuf], body_limit: usize) -> Gw {
        slopguard_server::client::install_crypto();
        let store = Store::open(url).await.unwrap();
        let state =
            Arc::new(AppState::new(store.clone(), token.map(str::to_owned), roots).unwrap());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr: SocketAddr = listener.local_addr().unwrap();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(serve_on(listener, state, body_limit, async {
            let _ = rx.await;
        }));
        Gw {
            base: format!("http://{addr}"),
            store,
            http: reqwest::Client::new(),
            _stop: tx,
        }
    }

    fn get(&self, path: &str) -> reqwest::RequestBuilder {
        self.http
            .get(format!("{}{path}", self.base))
            .bearer_auth(TOKEN)
    }
    fn post(&self, path: &str) -> reqwest::RequestBuilder {
        self.http
            .post(format!("{}{path}", self.base))
            .bearer_auth(TOKEN)
    }
    fn delete(&self, path: &str) -> reqwest::RequestBuilder {
        self.http
            .delete(format!("{}{path}", self.base))
            .bearer_auth(TOKEN)
    }
}

async fn json_of(r: reqwest::Response) -> (u16, Value) {
    let s = r.status().as_u16();
    let text = r.text().await.unwrap();
    (
        s,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// A small git repo with a Python file, a revert in its history, and a caller.
fn sample_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q", "-b", "main"]);
    std::fs::create_dir_all(d.join("pkg")).unwrap();
    std::fs::write(
        d.join("pkg/mod.py"),
        "import os\nfrom json import dumps\n\ndef helper(x):\n    return x\n\nclass Thing:\n    pass\n",
    )
    .unwrap();
    std::fs::write(
        d.join("main.py"),
        "from pkg.mod import helper\n\nprint(helper(1))\n",
    )
    .unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "initial"]);
    std::fs::write(
        d.join("pkg/mod.py"),
        "import os\nfrom json import dumps\n\ndef helper(x):\n    return x + 1\n\nclass Thing:\n    pass\n",
    )
    .unwrap();
    git(d, &["commit", "-q", "-am", "bump helper"]);
    git(d, &["revert", "--no-edit", "HEAD"]);
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn auth_limits_roots_and_validation() {
    let root = tempfile::tempdir().unwrap();
    for b in backends() {
        let gw = Gw::start(&b.url, Some(TOKEN), &[root.path().to_path_buf()], 4096).await;
        let name = b.name;
        // Health is open; everything else needs the token.
        let r = gw
            .http
            .get(format!("{}/healthz", gw.base))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{name}");
        let r = gw
            .http
            .get(format!("{}/repo/agent-log", gw.base))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 401, "{name}: no token");
        let r = gw
            .http
            .get(format!("{}/repo/agent-log", gw.base))
            .bearer_auth("wrong")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 403, "{name}: wrong token");
        assert_eq!(
            gw.get("/repo/agent-log").send().await.unwrap().status(),
            200
        );
        assert_eq!(gw.get("/readyz").send().await.unwrap().status(), 200);

        // Oversized body -> 413.
        let big =
            json!({"run_id": "r", "agent": "a", "outcome": "success", "extra": "x".repeat(10_000)});
        let (s, body) = json_of(gw.post("/observation").json(&big).send().await.unwrap()).await;
        assert_eq!(s, 413, "{name}: {body}");

        // Malformed JSON -> 400 with a message.
        let (s, body) = json_of(
            gw.post("/observation")
                .header("content-type", "application/json")
                .body("{\"run_id\": ")
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(s, 400, "{name}");
        assert_eq!(body["error"], "malformed_json");
        assert!(
            body["message"].as_str().unwrap().contains("malformed JSON"),
            "{body}"
        );

        // Unknown failure mode -> 400 naming the allowed set.
        let (s, body) = json_of(
            gw.post("/observation")
                .json(&json!({"run_id": "r", "agent": "a", "outcome": "fail", "failure_modes": ["made_up"]}))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(s, 400, "{name}");
        let msg = body["message"].as_str().unwrap();
        assert!(
            msg.contains("made_up") && msg.contains("json_emit") && msg.contains("test_integrity"),
            "{msg}"
        );
        assert_eq!(body["allowed_failure_modes"].as_array().unwrap().len(), 17);
        // Missing field and bad outcome -> 400 too.
        let (s, _) = json_of(
            gw.post("/observation")
                .json(&json!({"agent": "a"}))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(s, 400);
        let (s, body) = json_of(
            gw.post("/observation")
                .json(&json!({"run_id": "r", "agent": "a", "outcome": "meh"}))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(s, 400);
        assert!(
            body["message"].as_str().unwrap().contains("aborted"),
            "{body}"
        );

        // Targets outside the roots -> 403 (absolute, traversal, file paths).
        for url in [
            "/repo/fingerprint?target=/etc",
            "/repo/context?target=../../../../etc",
            "/file/imports?path=/etc/passwd",
            "/file/exports?path=../../../../../etc/passwd",
            "/repo/churn/x.py?target=/tmp",
        ] {
            let (s, body) = json_of(gw.get(url).send().await.unwrap()).await;
            assert_eq!(s, 403, "{name} {url}: {body}");
            assert_eq!(body["error"], "forbidden_target");
        }
        // Bad query values -> 400.
        let (s, _) = json_of(gw.get("/repo/agent-log?since=soon").send().await.unwrap()).await;
        assert_eq!(s, 400);
        let (s, _) = json_of(gw.get("/repo/agent-log?limit=-3").send().await.unwrap()).await;
        assert_eq!(s, 400);

        // Metrics in Prometheus text.
        let text = gw
            .get("/metrics")
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(text.contains("slopguard_http_requests_total"), "{text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn observation_roundtrip_wire_shape() {
    let root = tempfile::tempdir().unwrap();
    for b in backends() {
        let gw = Gw::start(&b.url, None, &[root.path().to_path_buf()], 1 << 20).await;
        let run = uniq("run");
        let (s, body) = json_of(
            gw.http
                .post(format!("{}/observation", gw.base))
                .json(&json!({
                    "run_id": run, "agent": "worker", "subtask_id": "T1-S1", "model": "m",
                    "branch": "b", "commit_sha": "abc", "outcome": "fail",
                    "touched_files": ["a.py"], "failure_modes": ["ast_diff"], "confidence": 0.25,
                    "extra": {"k": 1}, "repo": "r1"
                }))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(s, 200, "{}: {body}", b.name);
        let id = body["id"].as_i64().unwrap();
        let (s, rows) = json_of(
            gw.http
                .get(format!(
                    "{}/repo/agent-log?since=24h&limit=20&run_id={run}",
                    gw.base
                ))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(s, 200);
        let rows = rows.as_array().unwrap();
        assert_eq!(rows.len(), 1, "{}", b.name);
        let row = &rows[0];
        for key in [
            "id",
            "ts",
            "run_id",
            "agent",
            "subtask_id",
            "model",
            "branch",
            "commit_sha",
            "outcome",
            "touched_files",
            "failure_modes",
            "confidence",
        ] {
            assert!(row.get(key).is_some(), "{}: missing {key} in {row}", b.name);
        }
        assert_eq!(row["id"], id);
        assert_eq!(row["failure_modes"], json!(["ast_diff"]));
        assert_eq!(row["outcome"], "fail");
        assert_eq!(row["repo"], "r1");

        // The fail-open client reads the same rows and posts through the same interface.
        let client = GatewayClient::new(&gw.base, None);
        let mut o = NewObservation::new("r1", &run, "reviewer", Outcome::Success);
        o.touched_files = vec!["a.py".into()];
        let id2 = client.post_observation(&o).await.unwrap();
        assert!(id2 > id);
        let rows = client
            .agent_log(&LogQuery {
                run_id: Some(run.clone()),
                ..Default::default()
            })
            .await;
        assert_eq!(rows.len(), 2, "{}", b.name);
        assert_eq!(rows[0].id, id2, "newest first");
        let local = LocalObserver::new(gw.store.clone());
        assert_eq!(
            local
                .agent_log(&LogQuery {
                    run_id: Some(run.clone()),
                    ..Default::default()
                })
                .await,
            rows
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn claims_over_http() {
    let root = tempfile::tempdir().unwrap();
    for b in backends() {
        let gw =
            Arc::new(Gw::start(&b.url, Some(TOKEN), &[root.path().to_path_buf()], 1 << 20).await);
        let name = b.name;
        let path = uniq("src/lib.rs");
        let mut tasks = Vec::new();
        for i in 0..50 {
            let gw = gw.clone();
            let path = path.clone();
            tasks.push(tokio::spawn(async move {
                let r = gw
                    .post("/claim")
                    .json(&json!({"path": path, "agent": format!("agent-{i}"), "ttl_seconds": 120}))
                    .send()
                    .await
                    .unwrap();
                json_of(r).await
            }));
        }
        let mut winners = Vec::new();
        let mut conflicts = 0;
        for t in tasks {
            let (s, body) = t.await.unwrap();
            match s {
                200 => winners.push(body),
                409 => {
                    assert_eq!(body["error"], "already_claimed");
                    assert!(body["held_by"]["agent"].is_string());
                    assert!(body["held_by"].get("lock_id").is_none(), "lock id leaked");
                    conflicts += 1;
                }
                other => panic!("{name}: unexpected {other} {body}"),
            }
        }
        assert_eq!((winners.len(), conflicts), (1, 49), "{name}");
        let win = &winners[0];
        let lock_id = win["lock_id"].as_str().unwrap().to_owned();
        let owner = win["agent"].as_str().unwrap().to_owned();
        assert!(win["expires_at"].is_string());

        let (s, list) = json_of(gw.get(&format!("/claim?path={path}")).send().await.unwrap()).await;
        assert_eq!(s, 200);
        assert_eq!(list.as_array().unwrap().len(), 1);

        // Non-owner DELETE refused; path without agent is a 400; unknown lock id 404.
        let (s, body) = json_of(
            gw.delete(&format!("/claim?path={path}&agent=intruder"))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(s, 403, "{name}: {body}");
        assert_eq!(body["error"], "not_owner");
        let (s, _) = json_of(
            gw.delete(&format!("/claim?path={path}"))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(s, 400);
        let (s, _) = json_of(gw.delete("/claim?lock_id=0000").send().await.unwrap()).await;
        assert_eq!(s, 404);
        // Still held.
        let (s, _) = json_of(
            gw.post("/claim")
                .json(&json!({"path": path, "agent": "late"}))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(s, 409);
        // Owner releases by lock id; a second release is 404.
        let (s, body) = json_of(
            gw.delete(&format!("/claim?lock_id={lock_id}"))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(s, 200, "{name}: {body}");
        assert_eq!(body["agent"], owner.as_str());
        let (s, _) = json_of(
            gw.delete(&format!("/claim?lock_id={lock_id}"))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(s, 404);
        // Release by path + owning agent.
        let (s, _) = json_of(
            gw.post("/claim")
                .json(&json!({"path": path, "agent": "second", "ttl_seconds": 5}))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(s, 200);
        let (s, _) = json_of(
            gw.delete(&format!("/claim?path={path}&agent=second"))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(s, 200);

        // An expired claim (taken an hour ago, 30 s TTL) is taken over.
        let old = now_ms() - 3_600_000;
        gw.store
            .acquire_claim_at(
                &ClaimRequest {
                    repo: String::new(),
                    path: path.clone(),
                    agent: "stale".into(),
                    run_id: None,
                    ttl_seconds: Some(30),
                },
                old,
            )
            .await
            .unwrap();
        let (s, body) = json_of(
            gw.post("/claim")
                .json(&json!({"path": path, "agent": "fresh"}))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(s, 200, "{name}: expired claim must be retaken: {body}");
        assert_eq!(body["ttl_seconds"], 300);

        // Malformed claim body -> 400.
        let (s, _) = json_of(
            gw.post("/claim")
                .json(&json!({"agent": "x"}))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(s, 400);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn repo_endpoints_on_a_git_repo() {
    let repo = sample_repo();
    let root = repo.path().to_path_buf();
    let gw = Gw::start(
        "sqlite::memory:",
        None,
        std::slice::from_ref(&root),
        1 << 20,
    )
    .await;
    let get = |p: &str| gw.http.get(format!("{}{p}", gw.base)).send();

    let (s, churn) = json_of(get("/repo/churn/pkg/mod.py").await.unwrap()).await;
    assert_eq!(s, 200, "{churn}");
    assert_eq!(churn["modifications"], 3, "{churn}");
    assert_eq!(churn["reverts"], 1, "{churn}");
    assert_eq!(churn["authors"], json!([TEST_IDENTITY.0]));
    let (s, blame) = json_of(get("/repo/blame/pkg/mod.py").await.unwrap()).await;
    assert_eq!(s, 200, "{blame}");
    let lines = blame["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[0]["content"], "import os");
    assert_eq!(lines[0]["author"], TEST_IDENTITY.0);
    let (s, ctx) = json_of(get("/repo/context").await.unwrap()).await;
    assert_eq!(s, 200, "{ctx}");
    assert_eq!(ctx["files"], 2);
    assert_eq!(ctx["languages"][0]["name"], "python");

    let (s, fp) = json_of(get("/repo/fingerprint").await.unwrap()).await;
    assert_eq!(s, 200, "{fp}");
    for key in [
        "commit_sha",
        "languages",
        "stack",
        "declared_deps",
        "declared_frameworks",
        "entrypoints",
        "manifest_files",
    ] {
        assert!(fp.get(key).is_some(), "missing {key} in {fp}");
    }
    assert!(fp["commit_sha"].is_string(), "{fp}");
    let target = root.to_string_lossy().into_owned();
    let (s, _) = json_of(
        gw.http
            .get(format!("{}/repo/fingerprint", gw.base))
            .query(&[("target", target.as_str())])
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(s, 200);

    let (s, imports) = json_of(get("/file/imports?path=pkg/mod.py").await.unwrap()).await;
    assert_eq!(s, 200, "{imports}");
    let modules: Vec<&str> = imports["imports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["module"].as_str().unwrap())
        .collect();
    assert!(
        modules.contains(&"os") && modules.contains(&"json"),
        "{imports}"
    );
    let (s, exports) = json_of(get("/file/exports?path=pkg/mod.py").await.unwrap()).await;
    assert_eq!(s, 200, "{exports}");
    let names: Vec<&str> = exports["exports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["helper", "Thing"], "{exports}");
    let (s, sym) = json_of(get("/symbol?path=pkg/mod.py&name=helper").await.unwrap()).await;
    assert_eq!(s, 200, "{sym}");
    assert_eq!(sym["signature"], "def helper(x):");
    assert_eq!(sym["callers"], json!(["main.py"]));
    let (s, _) = json_of(get("/symbol?path=pkg/mod.py&name=nope").await.unwrap()).await;
    assert_eq!(s, 404);
    let (s, _) = json_of(get("/file/imports?path=missing.py").await.unwrap()).await;
    assert_eq!(s, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_fails_open_when_gateway_is_down() {
    // A port nobody listens on.
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    drop(l);
    let client = GatewayClient::new(&format!("http://{addr}"), Some("t".into()));
    let t = std::time::Instant::now();
    assert!(client.agent_log(&LogQuery::default()).await.is_empty());
    assert!(
        client
            .post_observation(&NewObservation::new("r", "run", "a", Outcome::Success))
            .await
            .is_none()
    );
    assert!(client.fingerprint(Path::new(".")).await.is_none());
    assert!(
        client
            .claim(&ClaimRequest {
                repo: String::new(),
                path: "p".into(),
                agent: "a".into(),
                run_id: None,
                ttl_seconds: None
            })
            .await
            .is_none()
    );
    assert!(!client.healthy().await);
    assert!(t.elapsed() < Duration::from_secs(10));

    // A gateway that never answers: the 2 s timeout bounds the wait.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let silent_addr = silent.local_addr().unwrap();
    let _keep = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((sock, _)) = silent.accept().await {
            held.push(sock);
        }
    });
    let client = GatewayClient::new(&format!("http://{silent_addr}"), None);
    let t = std::time::Instant::now();
    assert!(client.agent_log(&LogQuery::default()).await.is_empty());
    let waited = t.elapsed();
    assert!(
        waited >= Duration::from_millis(1500) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
}

/// Child half of the kill -9 test: serves the store named by the environment and prints its
/// address. Does nothing in a normal test run.
#[test]
fn kill9_child_server() {
    let Ok(url) = std::env::var("SLOPGUARD_KILL9_CHILD_DB") else {
        return;
    };
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async move {
        let store = Store::open(&url).await.unwrap();
        let root = std::env::temp_dir();
        let state = Arc::new(AppState::new(store, None, &[root]).unwrap());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        println!("LISTENING {}", listener.local_addr().unwrap());
        use std::io::Write;
        std::io::stdout().flush().unwrap();
        serve_on(listener, state, 1 << 20, std::future::pending())
            .await
            .unwrap();
    });
}

/// Most observations one writer of the kill -9 test posts. The acknowledged rows are read back
/// per writer, so this must stay below [`MAX_LOG_LIMIT`]: an earlier version read the whole
/// run in one query, which returned only the newest 5,000 rows once a fast machine acknowledged
/// more, and so reported the oldest ids as lost.
const KILL9_MAX_PER_WRITER: usize = 3_000;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn kill9_during_write_burst_loses_no_acknowledged_observation() {
    use tokio::io::AsyncBufReadExt;
    slopguard_server::client::install_crypto();
    for b in backends() {
        let exe = std::env::current_exe().unwrap();
        let mut child = tokio::process::Command::new(exe)
            .args([
                "--exact",
                "kill9_child_server",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("SLOPGUARD_KILL9_CHILD_DB", &b.url)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut lines = tokio::io::BufReader::new(stdout).lines();
        let addr = tokio::time::timeout(Duration::from_secs(30), async {
            while let Some(line) = lines.next_line().await.unwrap() {
                if let Some(i) = line.find("LISTENING ") {
                    return line[i + "LISTENING ".len()..].trim().to_owned();
                }
            }
            panic!("child exited without listening");
        })
        .await
        .unwrap();
        let run = uniq("kill9");
        let acked = Arc::new(std::sync::Mutex::new(Vec::<i64>::new()));
        let mut writers = Vec::new();
        for w in 0..8 {
            let acked = acked.clone();
            let base = format!("http://{addr}");
            let run = run.clone();
            writers.push(tokio::spawn(async move {
                let http = reqwest::Client::builder()
                    .timeout(Duration::from_secs(5))
                    .build()
                    .unwrap();
                for i in 0..KILL9_MAX_PER_WRITER {
                    let r = http
                        .post(format!("{base}/observation"))
                        .json(
                            &json!({"run_id": run, "agent": format!("w{w}"), "outcome": "success",
                                      "touched_files": [format!("f{i}.py")]}),
                        )
                        .send()
                        .await;
                    let Ok(r) = r else { break };
                    let Ok(v) = r.json::<Value>().await else {
                        break;
                    };
                    match v["id"].as_i64() {
                        Some(id) => acked.lock().unwrap().push(id),
                        None => break,
                    }
                }
            }));
        }
        // Let the burst run (until more than 20 writes were acknowledged, which takes a few
        // hundred milliseconds on a quiet machine and seconds on a loaded one), then kill -9
        // mid-flight.
        let burst_started = std::time::Instant::now();
        while acked.lock().unwrap().len() <= 20 && burst_started.elapsed() < Duration::from_secs(20)
        {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        child.start_kill().unwrap();
        let _ = child.wait().await;
        for w in writers {
            let _ = w.await;
        }
        let acked = acked.lock().unwrap().clone();
        assert!(
            acked.len() > 20,
            "{}: burst too small ({})",
            b.name,
            acked.len()
        );
        assert!(
            acked.len() < 8 * KILL9_MAX_PER_WRITER,
            "{}: every writer finished before the kill; the test proved nothing",
            b.name
        );
        // Reopen (SQLite recovers from the WAL) and check every acknowledged id is there,
        // reading each writer's rows on their own so no query reaches the row limit.
        let store = Store::open(&b.url).await.unwrap();
        let mut present = std::collections::HashSet::new();
        for w in 0..8 {
            let rows = store
                .agent_log(&LogQuery {
                    run_id: Some(run.clone()),
                    agent: Some(format!("w{w}")),
                    limit: Some(MAX_LOG_LIMIT),
                    ..Default::default()
                })
                .await
                .unwrap();
            assert!(
                rows.len() < MAX_LOG_LIMIT as usize,
                "w{w}: read-back truncated"
            );
            present.extend(rows.iter().map(|r| r.id));
        }
        let missing: Vec<_> = acked.iter().filter(|id| !present.contains(id)).collect();
        assert!(
            missing.is_empty(),
            "{}: lost acknowledged ids {missing:?}",
            b.name
        );
        eprintln!(
            "{}: {} acknowledged, {} stored, none lost",
            b.name,
            acked.len(),
            present.len()
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn feedback_is_taken_in_with_the_token_and_validated() {
    let root = tempfile::tempdir().unwrap();
    for b in backends() {
        let gw = Gw::start(&b.url, Some(TOKEN), &[root.path().to_path_buf()], 64 * 1024).await;
        let name = b.name;
        let repo = uniq("fbgw");
        let item = json!({"repo": repo, "text": "average() divides by n-1\n", "on": "calc/stats.py:6", "severity": "high"});
        // Same auth as every other endpoint.
        let r = gw
            .http
            .post(format!("{}/feedback", gw.base))
            .json(&item)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 401, "{name}");
        let (s, body) = json_of(gw.post("/feedback").json(&item).send().await.unwrap()).await;
        assert_eq!(s, 200, "{name}: {body}");
        assert_eq!(body["state"], "pending");
        let id = body["id"].as_i64().unwrap();
        let row = gw.store.feedback(id).await.unwrap().expect("stored");
        assert_eq!(row.state, "pending");
        assert_eq!(row.feedback.kind, "review");
        assert_eq!(row.feedback.target.as_deref(), Some("calc/stats.py:6"));
        // The loop reads it as it reads `slopguard feedback add`'s items.
        let intake = slopguard_store::review::Intake::from_row(&row).expect("a review item");
        assert_eq!(intake.text, "average() divides by n-1");
        assert_eq!(intake.source, "gateway");
        assert_eq!(intake.severity, slopguard_store::review::Severity::High);
        // Refused: empty text, unknown severity, no repo, unknown fields.
        for bad in [
            json!({"repo": repo, "text": "  "}),
            json!({"repo": repo, "text": "x", "severity": "urgent"}),
            json!({"repo": "", "text": "x"}),
            json!({"repo": repo, "text": "x", "priority": 1}),
        ] {
            let (s, body) = json_of(gw.post("/feedback").json(&bad).send().await.unwrap()).await;
            assert_eq!(s, 400, "{name}: {bad} -> {body}");
            assert_eq!(body["error"], "invalid_feedback", "{body}");
        }
    }
}
