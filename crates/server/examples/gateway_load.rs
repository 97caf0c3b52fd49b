//! Load bench of the observer gateway on loopback: seeds the store to `--rows` observations
//! (1M by default; reused when already there), starts the gateway in-process, and drives it
//! with `--concurrency` keep-alive clients doing a mix of `POST /observation` and
//! `GET /repo/agent-log` (the planner's two windows: 24h/20 and 7d/200) for `--seconds` or
//! `--max-requests`, whichever comes first. Prints throughput and p50/p90/p99 latency.
//!
//! ```text
//! cargo run --release -p slopguard-server --example gateway_load -- --db sqlite:///tmp/sg-bench.db
//! cargo run --release -p slopguard-server --example gateway_load -- --db postgres://u:p@127.0.0.1/db
//! ```
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use slopguard_server::{AppState, serve_on};
use slopguard_store::{FailureMode, NewObservation, Outcome, Store, now_ms};

struct Args {
    db: String,
    rows: i64,
    seconds: u64,
    concurrency: usize,
    max_requests: u64,
    write_percent: u64,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        db: format!(
            "sqlite://{}",
            std::env::temp_dir().join("slopguard-bench.db").display()
        ),
        rows: 1_000_000,
        seconds: 10,
        concurrency: 16,
        max_requests: 1_000_000,
        write_percent: 50,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut val = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--db" => a.db = val()?,
            "--rows" => a.rows = val()?.parse().map_err(|e| format!("--rows: {e}"))?,
            "--seconds" => a.seconds = val()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--concurrency" => {
                a.concurrency = val()?.parse().map_err(|e| format!("--concurrency: {e}"))?
            }
            "--max-requests" => {
                a.max_requests = val()?.parse().map_err(|e| format!("--max-requests: {e}"))?
            }
            "--write-percent" => {
                a.write_percent = val()?
                    .parse()
                    .map_err(|e| format!("--write-percent: {e}"))?
            }
            other => return Err(format!("unknown flag {other}")),
        }
    }
    a.seconds = a.seconds.clamp(1, 600);
    a.concurrency = a.concurrency.clamp(1, 512);
    a.write_percent = a.write_percent.min(100);
    Ok(a)
}

const REPOS: u64 = 20;
const AGENTS: [&str; 5] = ["worker", "planner", "reviewer", "claude-code", "codex"];

/// A deterministic pseudo-random observation (xorshift over `i`).
fn synthetic(i: u64, now: i64) -> NewObservation {
    let mut x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let outcome = match next() % 10 {
        0..=5 => Outcome::Success,
        6..=7 => Outcome::Fail,
        8 => Outcome::Skipped,
        _ => Outcome::Partial,
    };
    let mut o = NewObservation::new(
        &format!("repo-{}", next() % REPOS),
        &format!("run-{}", next() % 50_000),
        AGENTS[(next() % AGENTS.len() as u64) as usize],
        outcome,
    );
    o.subtask_id = Some(format!("T{:03}-S{}", next() % 40, next() % 5));
    o.model = Some("qwen2.5-coder-1.5b".into());
    o.branch = Some("slopguard/fix".into());
    o.touched_files = (0..1 + next() % 3)
        .map(|_| format!("src/mod{}/file{}.py", next() % 30, next() % 50))
        .collect();
    if outcome != Outcome::Success && outcome != Outcome::Skipped {
        o.failure_modes = vec![FailureMode::ALL[(next() % FailureMode::ALL.len() as u64) as usize]];
    }
    o.confidence = Some((next() % 100) as f64 / 100.0);
    // Spread over the last 30 days.
    o.ts_ms = Some(now - (next() % (30 * 86_400_000)) as i64);
    o
}

async fn seed(store: &Store, rows: i64) -> Result<(), Box<dyn std::error::Error>> {
    let have = store.count_observations().await?;
    if have >= rows {
        println!("seed: {have} rows present, reusing");
        return Ok(());
    }
    let t = Instant::now();
    let now = now_ms();
    let mut i = have as u64;
    while (i as i64) < rows {
        let n = (rows - i as i64).min(50_000) as u64;
        let batch: Vec<NewObservation> = (i..i + n).map(|k| synthetic(k, now)).collect();
        store.record_observations_bulk(&batch).await?;
        i += n;
        if i.is_multiple_of(200_000) {
            println!("seed: {i} rows ({:.0?})", t.elapsed());
        }
    }
    println!("seed: {} rows inserted in {:.1?}", rows - have, t.elapsed());
    Ok(())
}

fn pct(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let idx = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[idx.min(sorted.len() - 1)]) / 1000.0
}

fn report(name: &str, lat: &mut [u32], secs: f64) {
    lat.sort_unstable();
    println!(
        "{name:<22} {:>9} req {:>10.0} req/s   p50 {:>6.2} ms   p90 {:>6.2} ms   p99 {:>6.2} ms   max {:>7.2} ms",
        lat.len(),
        lat.len() as f64 / secs,
        pct(lat, 0.50),
        pct(lat, 0.90),
        pct(lat, 0.99),
        pct(lat, 1.0),
    );
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = parse_args()?;
    slopguard_server::client::install_crypto();
    let store = Store::open(&args.db).await?;
    println!("store: {} ({:?})", store.url(), store.backend());
    seed(&store, args.rows).await?;
    let total_rows = store.count_observations().await?;

    let state = Arc::new(AppState::new(store.clone(), None, &[std::env::temp_dir()])?);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve_on(listener, state, 1 << 20, async {
        let _ = stop_rx.await;
    }));

    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(args.concurrency)
        .timeout(Duration::from_secs(10))
        .build()?;
    // Warm-up: connections and caches.
    for _ in 0..50 {
        let _ = http
            .get(format!(
                "{base}/repo/agent-log?repo=repo-1&since=24h&limit=20"
            ))
            .send()
            .await?
            .bytes()
            .await?;
    }

    let issued = Arc::new(AtomicU64::new(0));
    let errors = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let start = Instant::now();
    let mut tasks = Vec::new();
    for w in 0..args.concurrency {
        let http = http.clone();
        let base = base.clone();
        let issued = issued.clone();
        let errors = errors.clone();
        let (max, write_percent) = (args.max_requests, args.write_percent);
        tasks.push(tokio::spawn(async move {
            let (mut posts, mut narrow, mut wide) = (Vec::new(), Vec::new(), Vec::new());
            let now = now_ms();
            loop {
                let n = issued.fetch_add(1, Ordering::Relaxed);
                if n >= max || Instant::now() >= deadline {
                    break;
                }
                let repo = format!("repo-{}", (n + w as u64) % REPOS);
                let t = Instant::now();
                let (ok, bucket) = if (n * 7919) % 100 < write_percent {
                    let obs = synthetic(1_000_000_000 + n, now);
                    let r = http
                        .post(format!("{base}/observation"))
                        .json(&obs)
                        .send()
                        .await;
                    (
                        matches!(r, Ok(ref r) if r.status().is_success())
                            && r.unwrap().bytes().await.is_ok(),
                        &mut posts,
                    )
                } else if n.is_multiple_of(2) {
                    let r = http
                        .get(format!(
                            "{base}/repo/agent-log?repo={repo}&since=24h&limit=20"
                        ))
                        .send()
                        .await;
                    (
                        matches!(r, Ok(ref r) if r.status().is_success())
                            && r.unwrap().bytes().await.is_ok(),
                        &mut narrow,
                    )
                } else {
                    let r = http
                        .get(format!(
                            "{base}/repo/agent-log?repo={repo}&since=7d&limit=200"
                        ))
                        .send()
                        .await;
                    (
                        matches!(r, Ok(ref r) if r.status().is_success())
                            && r.unwrap().bytes().await.is_ok(),
                        &mut wide,
                    )
                };
                let us = t.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                if ok {
                    bucket.push(us);
                } else {
                    errors.fetch_add(1, Ordering::Relaxed);
                }
            }
            (posts, narrow, wide)
        }));
    }
    let (mut posts, mut narrow, mut wide) = (Vec::new(), Vec::new(), Vec::new());
    for t in tasks {
        let (p, n, w) = t.await?;
        posts.extend(p);
        narrow.extend(n);
        wide.extend(w);
    }
    let secs = start.elapsed().as_secs_f64();
    let _ = stop_tx.send(());
    let _ = server.await;

    println!(
        "load: {:?} backend, {} rows present, {} clients, {:.1} s, {}% writes",
        store.backend(),
        total_rows,
        args.concurrency,
        secs,
        args.write_percent
    );
    let mut all: Vec<u32> = posts.iter().chain(&narrow).chain(&wide).copied().collect();
    report("mixed (all)", &mut all, secs);
    report("POST /observation", &mut posts, secs);
    report("GET agent-log 24h/20", &mut narrow, secs);
    report("GET agent-log 7d/200", &mut wide, secs);
    println!("errors: {}", errors.load(Ordering::Relaxed));
    store.close().await;
    Ok(())
}
