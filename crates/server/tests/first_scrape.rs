//! A fresh gateway's first answers: `/metrics` is never empty, `/` lists every endpoint and
//! each listed endpoint exists. A test binary of its own, so that the process-wide metrics
//! recorder has seen nothing before the first scrape (as in a freshly started `serve`).

use std::net::SocketAddr;
use std::sync::Arc;

use serde_json::Value;
use slopguard_server::{AppState, ENDPOINTS, serve_on};
use slopguard_store::Store;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_scrape_index_and_health_alias() {
    slopguard_server::client::install_crypto();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&format!("sqlite://{}", dir.path().join("gw.db").display()))
        .await
        .unwrap();
    let token = "t0ken";
    let state =
        Arc::new(AppState::new(store, Some(token.into()), &[dir.path().to_path_buf()]).unwrap());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    let (_stop, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(serve_on(listener, state, 4096, async {
        let _ = rx.await;
    }));
    let base = format!("http://{addr}");
    let http = reqwest::Client::new();

    // The very first request of the process is a scrape: it has samples, not just comments.
    let r = http
        .get(format!("{base}/metrics"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let text = r.text().await.unwrap();
    let samples: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    assert!(!samples.is_empty(), "first scrape has no samples:\n{text}");
    assert!(text.lines().any(|l| l == "slopguard_up 1"), "{text}");
    assert!(
        text.contains("slopguard_uptime_seconds ") && text.contains("slopguard_build_info{"),
        "{text}"
    );

    // `/health` answers like `/healthz`, without the token (probes carry none).
    for path in ["/health", "/healthz"] {
        let r = http.get(format!("{base}{path}")).send().await.unwrap();
        assert_eq!(r.status(), 200, "{path}");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["status"], "ok", "{path}: {body}");
    }

    // `/` lists the endpoints, without the token.
    let r = http.get(format!("{base}/")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let index: Value = r.json().await.unwrap();
    let listed: Vec<&str> = index["endpoints"]
        .as_array()
        .expect("an endpoints list")
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = ENDPOINTS.iter().map(|e| e.path).collect();
    assert_eq!(listed, expected);
    for path in [
        "/",
        "/health",
        "/healthz",
        "/readyz",
        "/metrics",
        "/observation",
        "/claim",
    ] {
        assert!(listed.contains(&path), "{path} missing from {index}");
    }

    // Every listed endpoint is routed: none answers the fallback's "no such endpoint".
    for e in ENDPOINTS {
        let path = e.path.replace("<path>", "README.md");
        let method = e.methods.split('|').next().unwrap();
        let req = match method {
            "GET" => http.get(format!("{base}{path}")),
            "POST" => http.post(format!("{base}{path}")).body("{}"),
            other => panic!("unexpected method {other}"),
        };
        let r = req.bearer_auth(token).send().await.unwrap();
        let status = r.status().as_u16();
        let body = r.text().await.unwrap();
        assert!(
            !(status == 404 && body.contains("no such endpoint")),
            "{method} {path} is listed but not routed: {body}"
        );
    }
    // An unknown path says where the list is.
    let r = http
        .get(format!("{base}/nope"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    assert!(
        r.text()
            .await
            .unwrap()
            .contains("`GET /` lists the endpoints")
    );
}
