//! The same suite against SQLite (always) and PostgreSQL (when `SLOPGUARD_TEST_PG` is set; CI
//! sets it via `scripts/ci-postgres.sh`).
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

use std::sync::Arc;

use slopguard_store::failure_memory::{self, PlanSubtaskRef, Window};
use slopguard_store::*;

/// A unique suffix so parallel tests (and reruns on a shared PostgreSQL) never collide.
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

/// Opens each available backend `handles` times (several handles on one database exercise
/// separate connections, as separate processes would). The temp dir keeps the SQLite file alive.
async fn backends(handles: usize) -> Vec<(String, Vec<Store>, Option<tempfile::TempDir>)> {
    let mut out = Vec::new();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let url = format!("sqlite://{}", dir.path().join("sub/store.db").display());
    let mut stores = Vec::new();
    for _ in 0..handles {
        stores.push(Store::open(&url).await.unwrap());
    }
    out.push(("sqlite".to_owned(), stores, Some(dir)));
    match std::env::var("SLOPGUARD_TEST_PG") {
        Ok(pg) if !pg.is_empty() => {
            let mut stores = Vec::new();
            for _ in 0..handles {
                stores.push(Store::open(&pg).await.unwrap());
            }
            out.push(("postgres".to_owned(), stores, None));
        }
        _ => eprintln!("NOTICE: SLOPGUARD_TEST_PG unset: PostgreSQL backend skipped"),
    }
    out
}

fn obs(repo: &str, run: &str, agent: &str, outcome: Outcome, ts: i64) -> NewObservation {
    let mut o = NewObservation::new(repo, run, agent, outcome);
    o.ts_ms = Some(ts);
    o
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn observations_roundtrip_and_filters() {
    for (name, stores, _keep) in backends(1).await {
        let s = &stores[0];
        let repo = uniq("repo");
        let other = uniq("other");
        let now = now_ms();
        let mut full = obs(&repo, "run-1", "worker", Outcome::Fail, now - 1000);
        full.subtask_id = Some("T1-S1".into());
        full.model = Some("qwen".into());
        full.branch = Some("b".into());
        full.commit_sha = Some("abc".into());
        full.touched_files = vec!["src/a.py".into()];
        full.failure_modes = vec![FailureMode::AstDiff, FailureMode::SyntaxInvalid];
        full.confidence = Some(0.5);
        full.extra = Some(serde_json::json!({"k": [1, 2]}));
        let id1 = s.record_observation(&full).await.unwrap();
        let id2 = s
            .record_observation(&obs(&repo, "run-2", "reviewer", Outcome::Success, now))
            .await
            .unwrap();
        s.record_observation(&obs(
            &repo,
            "run-1",
            "worker",
            Outcome::Skipped,
            now - 3 * 86_400_000,
        ))
        .await
        .unwrap();
        s.record_observation(&obs(&other, "run-1", "worker", Outcome::Fail, now))
            .await
            .unwrap();
        assert!(id2 > id1, "{name}");

        let all = s
            .agent_log(&LogQuery {
                repo: Some(repo.clone()),
                ..Default::default()
            })
            .await
            .unwrap();
        assert_eq!(all.len(), 3, "{name}");
        assert_eq!(all[0].id, id2, "{name}: newest first");
        let row = &all[1];
        assert_eq!(row.id, id1);
        assert_eq!(row.subtask_id.as_deref(), Some("T1-S1"));
        assert_eq!(row.model.as_deref(), Some("qwen"));
        assert_eq!(row.commit_sha.as_deref(), Some("abc"));
        assert_eq!(row.touched_files, vec!["src/a.py".to_string()]);
        assert_eq!(
            row.failure_modes,
            vec![FailureMode::AstDiff, FailureMode::SyntaxInvalid]
        );
        assert_eq!(row.confidence, Some(0.5));
        assert_eq!(row.extra, Some(serde_json::json!({"k": [1, 2]})));
        assert_eq!(row.ts_ms, now - 1000);
        assert!(row.ts.ends_with('Z'), "{}", row.ts);

        let q = |f: &dyn Fn(&mut LogQuery)| {
            let mut q = LogQuery {
                repo: Some(repo.clone()),
                ..Default::default()
            };
            f(&mut q);
            q
        };
        let since = s
            .agent_log(&q(&|q| q.since_ms = Some(now - 86_400_000)))
            .await
            .unwrap();
        assert_eq!(since.len(), 2, "{name}");
        let by_run = s
            .agent_log(&q(&|q| q.run_id = Some("run-1".into())))
            .await
            .unwrap();
        assert_eq!(by_run.len(), 2, "{name}");
        let by_agent = s
            .agent_log(&q(&|q| q.agent = Some("reviewer".into())))
            .await
            .unwrap();
        assert_eq!(by_agent.len(), 1, "{name}");
        // The database-built JSON answers the same rows as the typed path, for every filter.
        for query in [
            q(&|_| {}),
            q(&|q| q.since_ms = Some(now - 86_400_000)),
            q(&|q| q.run_id = Some("run-1".into())),
            q(&|q| q.limit = Some(2)),
            q(&|q| q.repo = Some("no-such-repo".into())),
        ] {
            let typed = s.agent_log(&query).await.unwrap();
            let json = s.agent_log_json(&query).await.unwrap();
            let parsed: Vec<ObservationRow> = serde_json::from_str(&json).unwrap();
            assert_eq!(parsed, typed, "{name}: {json}");
        }
        let limited = s.agent_log(&q(&|q| q.limit = Some(1))).await.unwrap();
        assert_eq!(limited.len(), 1, "{name}");
        assert_eq!(limited[0].id, id2);

        // G9 over the store's rows, scoped to the repo.
        let mut f2 = full.clone();
        f2.ts_ms = Some(now - 500);
        s.record_observation(&f2).await.unwrap();
        let rows = s
            .agent_log(&Window::WIDE.query(&repo, now_ms()))
            .await
            .unwrap();
        let mem = failure_memory::failure_memory(&repo, &rows);
        assert_eq!(mem.failures("src/a.py"), 4, "{name}: two rows x two modes");
        let plan = vec![PlanSubtaskRef {
            task_id: "T1".into(),
            subtask_id: "T1-S1".into(),
            file_hints: vec!["src/a.py".into()],
        }];
        assert_eq!(
            failure_memory::filter_plan(&plan, &mem, failure_memory::DEFAULT_THRESHOLD).len(),
            1
        );
        let other_rows = s
            .agent_log(&Window::WIDE.query(&other, now_ms()))
            .await
            .unwrap();
        assert!(
            failure_memory::filter_plan(
                &plan,
                &failure_memory::failure_memory(&other, &other_rows),
                2
            )
            .is_empty()
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_concurrent_claims_exactly_one_wins() {
    for (name, stores, _keep) in backends(5).await {
        let path = uniq("src/lib.rs");
        let stores = Arc::new(stores);
        let mut tasks = Vec::new();
        for i in 0..50 {
            let stores = stores.clone();
            let path = path.clone();
            tasks.push(tokio::spawn(async move {
                let s = &stores[i % stores.len()];
                s.acquire_claim(&ClaimRequest {
                    repo: "r".into(),
                    path,
                    agent: format!("agent-{i}"),
                    run_id: None,
                    ttl_seconds: Some(60),
                })
                .await
                .unwrap()
            }));
        }
        let mut won = 0;
        let mut held = 0;
        for t in tasks {
            match t.await.unwrap() {
                ClaimOutcome::Acquired(_) => won += 1,
                ClaimOutcome::Held(_) => held += 1,
            }
        }
        assert_eq!((won, held), (1, 49), "{name}");
        let live = stores[0].list_claims(Some("r"), Some(&path)).await.unwrap();
        assert_eq!(live.len(), 1, "{name}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn claim_owner_release_ttl_and_expiry() {
    for (name, stores, _keep) in backends(1).await {
        let s = &stores[0];
        let path = uniq("src/main.rs");
        let req = |agent: &str, ttl: Option<i64>| ClaimRequest {
            repo: String::new(),
            path: path.clone(),
            agent: agent.into(),
            run_id: Some("run".into()),
            ttl_seconds: ttl,
        };
        let now = now_ms();
        // TTL clamps.
        let ClaimOutcome::Acquired(c) = s.acquire_claim_at(&req("a", Some(1)), now).await.unwrap()
        else {
            panic!("{name}: first claim must win");
        };
        assert_eq!(c.expires_at_ms - now, 30_000, "{name}: clamped up to 30 s");
        // Held by a: b gets Held naming a.
        let ClaimOutcome::Held(h) = s.acquire_claim(&req("b", None)).await.unwrap() else {
            panic!("{name}: must be held");
        };
        assert_eq!(h.agent, "a");
        // Non-owner release by path is refused; unknown lock id is not found.
        let r = s
            .release_claim(&ClaimRelease::PathAgent {
                repo: String::new(),
                path: path.clone(),
                agent: "b".into(),
            })
            .await
            .unwrap();
        assert!(matches!(r, ReleaseOutcome::NotOwner(_)), "{name}: {r:?}");
        let r = s
            .release_claim(&ClaimRelease::LockId("nope".into()))
            .await
            .unwrap();
        assert_eq!(r, ReleaseOutcome::NotFound, "{name}");
        // Owner releases by lock id; then b can take it with a long TTL (clamped to 3600 s).
        let r = s
            .release_claim(&ClaimRelease::LockId(c.lock_id.clone()))
            .await
            .unwrap();
        assert!(matches!(r, ReleaseOutcome::Released(_)), "{name}");
        let t = now_ms();
        let ClaimOutcome::Acquired(c2) = s
            .acquire_claim_at(&req("b", Some(99_999)), t)
            .await
            .unwrap()
        else {
            panic!("{name}: free path must be taken");
        };
        assert_eq!(
            c2.expires_at_ms - t,
            3_600_000,
            "{name}: clamped down to 1 h"
        );
        // Owner releases by path + agent.
        let r = s
            .release_claim(&ClaimRelease::PathAgent {
                repo: String::new(),
                path: path.clone(),
                agent: "b".into(),
            })
            .await
            .unwrap();
        assert!(matches!(r, ReleaseOutcome::Released(_)), "{name}");
        // An expired claim (taken an hour ago with a 30 s TTL) is re-taken by someone else.
        let old = now_ms() - 3_600_000;
        assert!(matches!(
            s.acquire_claim_at(&req("a", Some(30)), old).await.unwrap(),
            ClaimOutcome::Acquired(_)
        ));
        assert!(
            s.list_claims(None, Some(&path)).await.unwrap().is_empty(),
            "{name}: expired not listed"
        );
        let ClaimOutcome::Acquired(c3) = s.acquire_claim(&req("c", None)).await.unwrap() else {
            panic!("{name}: expired claim must be re-taken");
        };
        assert_eq!(c3.agent, "c");
        assert_eq!(s.list_claims(None, Some(&path)).await.unwrap().len(), 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn session_updates_are_atomic_across_handles() {
    for (name, stores, _keep) in backends(4).await {
        let sid = uniq("session");
        assert_eq!(stores[0].get_session(&sid).await.unwrap(), None);
        let stores = Arc::new(stores);
        let mut tasks = Vec::new();
        for i in 0..40 {
            let stores = stores.clone();
            let sid = sid.clone();
            tasks.push(tokio::spawn(async move {
                stores[i % stores.len()]
                    .update_session(&sid, |v| {
                        let n = v.get("n").and_then(|n| n.as_i64()).unwrap_or(0);
                        v["n"] = serde_json::json!(n + 1);
                    })
                    .await
                    .unwrap()
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        let state = stores[0].get_session(&sid).await.unwrap().unwrap();
        assert_eq!(state["n"], 40, "{name}: lost updates");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn evidence_runs_feedback() {
    for (name, stores, _keep) in backends(1).await {
        let s = &stores[0];
        let sid = uniq("sess");
        let ev = NewEvidence {
            session_id: sid.clone(),
            argv: vec!["cargo".into(), "test".into()],
            command: "cargo test".into(),
            exit_code: Some(0),
            tests_passed: Some(10),
            tests_failed: Some(0),
            tests_collected: Some(10),
            tree_hash: Some("deadbeef".into()),
            ts_ms: None,
        };
        let a = s.add_evidence(&ev).await.unwrap();
        let b = s
            .add_evidence(&NewEvidence {
                exit_code: Some(101),
                tests_failed: Some(2),
                ..ev.clone()
            })
            .await
            .unwrap();
        let rows = s.list_evidence(&sid).await.unwrap();
        assert_eq!(
            rows.iter().map(|r| r.id).collect::<Vec<_>>(),
            vec![a, b],
            "{name}"
        );
        assert_eq!(rows[0].evidence.argv, ev.argv);
        assert_eq!(rows[1].evidence.tests_failed, Some(2));
        assert_eq!(rows[0].evidence.tree_hash.as_deref(), Some("deadbeef"));

        let run = uniq("run");
        s.start_run(&run, "repo", Some(&serde_json::json!({"model": "m"})))
            .await
            .unwrap();
        assert!(s.finish_run(&run, "done").await.unwrap());
        let r = s.get_run(&run).await.unwrap().unwrap();
        assert_eq!(r.status, "done");
        assert!(r.finished_at_ms.is_some());
        assert!(!s.finish_run(&uniq("nope"), "done").await.unwrap());

        let repo = uniq("fbrepo");
        let id = s
            .add_feedback(&NewFeedback {
                repo: repo.clone(),
                run_id: Some(run.clone()),
                kind: "false_positive".into(),
                target: Some("G7".into()),
                body: serde_json::json!({"why": "rename"}),
            })
            .await
            .unwrap();
        let fb = s.list_feedback(&repo, 10).await.unwrap();
        assert_eq!(fb.len(), 1, "{name}");
        assert_eq!(fb[0].feedback.body["why"], "rename");
        assert_eq!(fb[0].state, "pending", "{name}");
        // A transition moves the item only from the state it is in, with its note kept.
        let to_triaged = FeedbackTransition {
            feedback_id: id,
            from: "pending".into(),
            to: "triaged".into(),
            note: "bug, confidence 85".into(),
            detail: serde_json::json!({"triage": {"class": "bug"}}),
        };
        assert!(s.transition_feedback(&to_triaged).await.unwrap(), "{name}");
        assert!(!s.transition_feedback(&to_triaged).await.unwrap(), "{name}");
        let missing = FeedbackTransition {
            feedback_id: id + 1_000_000,
            ..to_triaged.clone()
        };
        assert!(!s.transition_feedback(&missing).await.unwrap(), "{name}");
        let item = s.feedback(id).await.unwrap().expect("the item");
        assert_eq!(item.state, "triaged");
        assert_eq!(item.detail["triage"]["class"], "bug");
        assert!(item.updated_ms >= item.ts_ms);
        let history = s.feedback_history(id).await.unwrap();
        assert_eq!(history.len(), 1, "{name}");
        assert_eq!(
            (history[0].from.as_str(), history[0].to.as_str()),
            ("pending", "triaged")
        );
        assert_eq!(history[0].note, "bug, confidence 85");
        assert!(s.feedback(id + 1_000_000).await.unwrap().is_none());
        s.ping().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn reopen_is_cheap_and_bulk_insert_counts() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("x.db").display());
    let s = Store::open(&url).await.unwrap();
    let rows: Vec<NewObservation> = (0..1234)
        .map(|i| obs("bulk", "run", "w", Outcome::Success, i))
        .collect();
    assert_eq!(s.record_observations_bulk(&rows).await.unwrap(), 1234);
    s.close().await;
    let t = std::time::Instant::now();
    let s = Store::open(&url).await.unwrap();
    let opened = t.elapsed();
    assert_eq!(s.count_observations().await.unwrap(), 1234);
    assert!(opened.as_millis() < 500, "reopen took {opened:?}");
    assert!(Store::open("mysql://x").await.is_err());
    let m = Store::open("sqlite::memory:").await.unwrap();
    m.record_observation(&obs("m", "r", "a", Outcome::Fail, 1))
        .await
        .unwrap();
    assert_eq!(m.count_observations().await.unwrap(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn writes_are_committed_before_they_return() {
    // Each write must be visible to another handle (another process, in real use) as soon as
    // it returns: nothing may stay in an open transaction after the call.
    for (name, stores, _keep) in backends(2).await {
        let (a, b) = (&stores[0], &stores[1]);
        let sid = uniq("vis");
        a.add_evidence(&NewEvidence {
            session_id: sid.clone(),
            argv: vec![],
            command: "true".into(),
            exit_code: Some(0),
            tests_passed: None,
            tests_failed: None,
            tests_collected: None,
            tree_hash: None,
            ts_ms: None,
        })
        .await
        .unwrap();
        assert_eq!(
            b.list_evidence(&sid).await.unwrap().len(),
            1,
            "{name}: evidence"
        );
        let path = uniq("vis.rs");
        let req = ClaimRequest {
            repo: String::new(),
            path: path.clone(),
            agent: "a".into(),
            run_id: None,
            ttl_seconds: None,
        };
        let ClaimOutcome::Acquired(c) = a.acquire_claim(&req).await.unwrap() else {
            panic!("{name}");
        };
        assert_eq!(
            b.list_claims(None, Some(&path)).await.unwrap().len(),
            1,
            "{name}: claim"
        );
        a.release_claim(&ClaimRelease::LockId(c.lock_id))
            .await
            .unwrap();
        assert!(
            b.list_claims(None, Some(&path)).await.unwrap().is_empty(),
            "{name}: release"
        );
        let run = uniq("vis-run");
        let id = a
            .record_observation(&NewObservation::new("vis", &run, "a", Outcome::Success))
            .await
            .unwrap();
        let rows = b
            .agent_log(&LogQuery {
                run_id: Some(run),
                ..Default::default()
            })
            .await
            .unwrap();
        assert_eq!(
            rows.iter().map(|r| r.id).collect::<Vec<_>>(),
            vec![id],
            "{name}: observation"
        );
        a.update_session(&sid, |v| v["x"] = serde_json::json!(1))
            .await
            .unwrap();
        assert_eq!(
            b.get_session(&sid).await.unwrap().unwrap()["x"],
            1,
            "{name}: session"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_wal_is_checkpointed_in_the_background() {
    // The connections' own automatic checkpoint only starts at thousands of WAL pages; the
    // store checkpoints every few hundred commits on a read connection instead, so the main file
    // receives the pages long before that.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wal.db");
    let store = Store::open_sqlite(&path).await.unwrap();
    let main_size = || std::fs::metadata(&path).unwrap().len();
    let before = main_size();
    for i in 0..300 {
        let mut o = obs("r", "run", "a", Outcome::Fail, i);
        o.touched_files = vec![format!("src/file_{i}.rs"); 8];
        store.record_observation(&o).await.unwrap();
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while main_size() == before && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(
        main_size() > before,
        "no checkpoint copied the WAL into the main file ({before} bytes)"
    );
    assert_eq!(store.count_observations().await.unwrap(), 300);
}
