//! The run loop in-process against a scripted model, on a Python repository whose tests run
//! with `unittest`: G7 and G8 block and the retry lands; a subtask whose replies never parse
//! fails cleanly and the run goes on; a dry run commits nothing. The user's tree stays
//! byte-identical and the store holds one observation per subtask.
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

mod common;

use common::*;
use std::path::Path;

use scripted_llm::{Script, ScriptedServer};
use slopguard_agent::run::summary::ActivityStatus;
use slopguard_agent::run::{NoProgress, PlanSource, RunStatus, SubtaskStatus, execute};

#[test]
fn guards_block_then_retry_lands_and_bad_json_fails_cleanly() {
    if python_missing() {
        return;
    }
    let dir = repo();
    let r = dir.path();
    let before = snapshot(r);
    let tmp = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", tmp.path().join("store.db").display());
    // Drops `helper` and fixes nothing: no changed definition to salvage.
    let drop_helper = serde_json::json!({"commit_message": "fix", "patches": [{"action": "modify",
        "path": "calc.py", "content": "def add(a, b):\n    return a - b\n"}]})
    .to_string();
    let script = Script::new()
        // S01 attempt 1: drops `helper` (G7 blocks before anything is written).
        .content(drop_helper)
        // attempt 2: fixes add but breaks helper (G8: test_helper passed at the baseline).
        .content(patch(
            "    return a - b\n\n\ndef helper():\n    return 5\n",
            "    return a + b\n\n\ndef helper():\n    return 6\n",
        ))
        // attempt 3: the fix.
        .content(patch("    return a - b\n", "    return a + b\n"))
        // S02: never valid JSON (every attempt and every correction turn).
        .content("I think you should edit notes.txt, here is how: {oops")
        .repeat_last();
    let server = ScriptedServer::start(script).unwrap();
    let summary = execute(
        &opts(r, &server.url(), &db, &tmp.path().join("wt")),
        &NoProgress,
    )
    .unwrap();

    let s1 = &summary.run.tasks[0].subtasks[0];
    assert_eq!(s1.status, SubtaskStatus::Committed, "{s1:#?}");
    assert_eq!(s1.attempts, 3);
    let fired = s1.guards_fired();
    assert!(
        fired.contains(&"symbol-preservation".to_string()),
        "{fired:?}"
    );
    assert!(fired.contains(&"test-regression".to_string()), "{fired:?}");
    let s2 = &summary.run.tasks[0].subtasks[1];
    assert_eq!(s2.status, SubtaskStatus::Failed);
    assert!(
        s2.failure_modes.contains(&"json_parse_bad".to_string()),
        "{:?}",
        s2.failure_modes
    );
    assert_eq!(summary.run.status, RunStatus::Partial);

    // The branch holds exactly the guarded commit; the fix is in it.
    let log = git(r, &["log", "--format=%s", "main..sg/loop"]);
    assert_eq!(log.lines().count(), 1, "{log}");
    let calc = git(r, &["show", "sg/loop:calc.py"]);
    assert!(
        calc.contains("return a + b") && calc.contains("return 5"),
        "{calc}"
    );
    let body = git(r, &["log", "-1", "--format=%B", "sg/loop"]);
    assert!(body.contains("Slopguard-Subtask: T001-S01"), "{body}");
    // The user's tree is untouched and the worktree is gone.
    assert_eq!(snapshot(r), before);
    assert!(!tmp.path().join("wt").exists());
    // The baseline advanced: test_add no longer counts as failing.
    let st = slopguard_agent::state::load(Path::new(&summary.state_path)).unwrap();
    assert!(st.baseline.unwrap().failing.is_empty());
    // Trace events of the seeds are there.
    let trace = std::fs::read_to_string(&summary.trace_path).unwrap();
    for ev in [
        "run.begin",
        "critic_ast_diff.fail",
        "critic_test_regression.fail",
        "critic_build_retry.success",
        "worker.subtask.failed",
        "run.exit_clean",
    ] {
        assert!(
            trace.contains(&format!("\"event\":\"{ev}\"")),
            "missing {ev}"
        );
    }
    // One observation per subtask.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let rows = rt.block_on(async {
        let store = slopguard_store::Store::open(&db).await.unwrap();
        store
            .agent_log(&slopguard_store::LogQuery {
                run_id: Some(summary.run.run_id.clone()),
                ..Default::default()
            })
            .await
            .unwrap()
    });
    assert_eq!(rows.len(), 2, "{rows:#?}");
}

#[test]
fn dry_run_commits_nothing() {
    let dir = repo();
    let r = dir.path();
    let before = snapshot(r);
    let branches = git(r, &["branch", "--list"]);
    let tmp = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", tmp.path().join("store.db").display());
    let script = Script::new()
        .content(patch("    return a - b\n", "    return a + b\n"))
        .content(notes_patch());
    let server = ScriptedServer::start(script).unwrap();
    let mut o = opts(r, &server.url(), &db, &tmp.path().join("wt"));
    o.dry_run = true;
    // The tests run: the first subtask fixes `test_add` and is reverted, so the second one is
    // judged against the unchanged tree, where `test_add` still fails (not a regression).
    let summary = execute(&o, &NoProgress).unwrap();
    assert!(summary.run.dry_run);
    assert!(
        summary
            .subtasks()
            .all(|s| s.status == SubtaskStatus::Passed),
        "{summary:#?}"
    );
    assert!(summary.commits().is_empty());
    assert_eq!(git(r, &["branch", "--list"]), branches);
    assert_eq!(snapshot(r), before);
}

#[test]
fn the_run_budget_stops_other_subtasks_but_not_the_one_behind_the_failing_tests() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    let plan = one_task(
        "Notes, then the bug",
        vec![
            subtask("Document add in notes", &["notes.txt"]),
            subtask(
                "Fix the failing test: make add return the sum",
                &["calc.py"],
            ),
        ],
    );
    // The notes subtask's only reply is slow and useless: by its end the 1 s run budget is
    // spent, so it gets no second attempt; the bug's subtask still runs and lands.
    let script = Script::new()
        .delayed(2_500, "I would rather not.")
        .content(patch("    return a - b\n", "    return a + b\n"));
    let server = ScriptedServer::start(script).unwrap();
    let mut o = fx.opts(&server.url());
    o.plan = PlanSource::Given(plan);
    o.run_budget = Some(std::time::Duration::from_secs(1));
    let summary = execute(&o, &NoProgress).unwrap();
    let all: Vec<_> = summary.subtasks().collect();
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].status, SubtaskStatus::Failed, "{:#?}", all[0]);
    assert_eq!(all[0].attempts, 1, "no attempt starts after the budget");
    assert_eq!(all[1].status, SubtaskStatus::Committed, "{:#?}", all[1]);
    assert_eq!(server.chat_requests().len(), 2);
}

#[test]
fn the_reviewer_refuses_a_candidate_and_the_retry_lands_only_when_it_agrees() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    let fix = patch("    return a - b\n", "    return a + b\n");
    let script = Script::new()
        // Attempt 1: the worker's fix, which the reviewer refuses.
        .content(fix.clone())
        .content("VERDICT: reject - it should also document add")
        // Attempt 2: the same fix; the reviewer agrees and the tests decide.
        .content(fix)
        .content("VERDICT: ok")
        // The second subtask (notes): its reply, then the reviewer's ok.
        .content(notes_patch())
        .content("VERDICT: ok");
    let server = ScriptedServer::start(script).unwrap();
    let mut o = fx.opts(&server.url());
    o.model_gates = vec!["intent-review".into()];
    let summary = execute(&o, &NoProgress).unwrap();
    let first = summary.subtasks().next().unwrap();
    assert_eq!(first.status, SubtaskStatus::Committed, "{first:#?}");
    assert_eq!(first.attempts, 2);
    let refused: Vec<_> = first
        .guard_activity
        .iter()
        .filter(|a| a.guard == "intent-review" && a.status == ActivityStatus::Blocked)
        .collect();
    assert_eq!(refused.len(), 1, "{:#?}", first.guard_activity);
    assert_eq!(refused[0].attempt, 1);
    let requests = server.chat_requests();
    assert_eq!(requests.len(), 6);
    // The reviewer saw the diff; the retry heard the reviewer's reason.
    let review = requests[1]["messages"][1]["content"].as_str().unwrap();
    assert!(review.contains("+    return a + b"), "{review}");
    let retry = requests[2]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["content"].as_str())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(retry.contains("it should also document add"), "{retry}");
}

#[test]
fn without_the_reviewer_no_review_call_is_made() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    let script = Script::new()
        .content(patch("    return a - b\n", "    return a + b\n"))
        .content(notes_patch());
    let server = ScriptedServer::start(script).unwrap();
    let o = fx.opts(&server.url());
    let summary = execute(&o, &NoProgress).unwrap();
    assert!(
        summary
            .subtasks()
            .all(|s| s.status == SubtaskStatus::Committed)
    );
    assert_eq!(
        server.chat_requests().len(),
        2,
        "one worker call per subtask"
    );
}

/// The calc subtask alone, for the critics' runs.
fn calc_only() -> PlanSource {
    PlanSource::Given(one_task(
        "Fix add",
        vec![subtask("Make add return the sum", &["calc.py"])],
    ))
}

/// A whole-file reply for calc.py (the refiner's and the defender's format).
fn calc_file(message: &str, content: &str) -> String {
    format!("{message}\ncalc.py\n```python\n{content}```\n")
}

/// Runs the calc fix with `critics` on, the worker's reply first, then `critic_replies`.
fn run_with_critics(
    fx: &Fixture,
    critics: &[&str],
    critic_replies: &[String],
) -> (slopguard_agent::run::RunSummary, ScriptedServer) {
    let mut script = Script::new().content(patch("    return a - b\n", "    return a + b\n"));
    for r in critic_replies {
        script = script.content(r.clone());
    }
    let server = ScriptedServer::start(script).unwrap();
    let mut o = fx.opts(&server.url());
    o.plan = calc_only();
    o.critics = Some(critics.iter().map(|c| c.to_string()).collect());
    let summary = execute(&o, &NoProgress).unwrap();
    assert_eq!(
        summary.subtasks().next().unwrap().status,
        SubtaskStatus::Committed
    );
    (summary, server)
}

const DEVIL: &str = "- [high] calc.py:5: helper() is never tested with other values";

#[test]
fn a_refiner_patch_that_drops_a_definition_or_breaks_syntax_is_reverted() {
    for (refined, gate) in [
        ("def add(a, b):\n    return a + b\n", "symbol-preservation"),
        (
            "def add(a, b:\n    return a + b\n\n\ndef helper():\n    return 5\n",
            "syntax",
        ),
    ] {
        let Some(fx) = Fixture::new() else {
            return;
        };
        let replies = [DEVIL.to_string(), calc_file("Tidy calc", refined)];
        let (summary, server) = run_with_critics(&fx, &["devil", "refiner", "judge"], &replies);
        let critics = summary.run.critics.as_ref().expect("critics ran");
        match critics.refiner.as_ref().expect("a revision was proposed") {
            slopguard_agent::critics::RevisionOutcome::Reverted { reason } => {
                assert!(reason.contains(gate), "{gate}: {reason}")
            }
            kept => panic!("{gate}: kept {kept:?}"),
        }
        assert_eq!(critics.findings.len(), 1);
        assert_eq!(critics.findings[0].critic, "devil");
        // The judge is never asked about a revision the gates refused.
        assert_eq!(server.chat_requests().len(), 3);
        assert_eq!(
            branch_log(&fx).lines().count(),
            1,
            "only the worker's commit"
        );
        let wt_calc = git(fx.dir.path(), &["show", "sg/loop:calc.py"]);
        assert_eq!(wt_calc, FIXED_CALC, "the worker's version ships");
        let trace = trace_events(&summary);
        assert!(trace.contains("critic_refiner.reverted"), "{trace}");
        assert!(trace.contains("critic_devil.finding"), "{trace}");
    }
}

#[test]
fn the_judge_decides_between_the_workers_and_the_refiners_version() {
    let refined = "def add(a, b):\n    \"\"\"The sum of a and b.\"\"\"\n    return a + b\n\n\ndef helper():\n    return 5\n";
    for (verdict, kept) in [
        ("PREFER: v0 - the docstring adds nothing", false),
        ("PREFER: v1 - documents add", true),
    ] {
        let Some(fx) = Fixture::new() else {
            return;
        };
        let replies = [
            DEVIL.to_string(),
            calc_file("Document add", refined),
            verdict.to_string(),
        ];
        let (summary, server) = run_with_critics(&fx, &["devil", "refiner", "judge"], &replies);
        assert_eq!(
            server.chat_requests().len(),
            4,
            "worker, devil, refiner, judge"
        );
        let critics = summary.run.critics.as_ref().unwrap();
        assert_eq!(critics.judge.as_deref(), Some(verdict));
        let log = branch_log(&fx);
        let calc = git(fx.dir.path(), &["show", "sg/loop:calc.py"]);
        if kept {
            assert!(
                matches!(
                    critics.refiner,
                    Some(slopguard_agent::critics::RevisionOutcome::Kept { .. })
                ),
                "{critics:?}"
            );
            assert_eq!(log.lines().count(), 2, "{log}");
            assert!(log.starts_with("refiner: Document add"), "{log}");
            assert_eq!(calc, refined);
        } else {
            assert_eq!(log.lines().count(), 1, "{log}");
            assert_eq!(calc, FIXED_CALC);
            assert!(trace_events(&summary).contains("critic_judge.verdict"));
        }
    }
}

#[test]
fn a_qa_revision_that_fails_the_tests_is_not_applied() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    let questions =
        "Q: What does add(2, 3) return?\nQ: Is helper still used?\nQ: Are the tests run?"
            .to_string();
    let defence = format!(
        "A1: 5\nA2: yes\nA3: yes\n{}",
        calc_file(
            "Make add multiply",
            "def add(a, b):\n    return a * b\n\n\ndef helper():\n    return 5\n"
        )
    );
    let (summary, server) = run_with_critics(&fx, &["qa"], &[questions, defence]);
    assert_eq!(server.chat_requests().len(), 3);
    let critics = summary.run.critics.as_ref().unwrap();
    assert_eq!(critics.qa.len(), 3);
    assert_eq!(critics.qa[0].answer, "5");
    match critics.qa_revision.as_ref().unwrap() {
        slopguard_agent::critics::RevisionOutcome::Reverted { reason } => {
            assert!(reason.contains("test_add"), "{reason}")
        }
        kept => panic!("a failing revision was kept: {kept:?}"),
    }
    assert_eq!(git(fx.dir.path(), &["show", "sg/loop:calc.py"]), FIXED_CALC);
}

#[test]
fn the_panel_and_the_self_critic_report_findings_and_a_review() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    let replies = [
        "- [medium] calc.py:2: no test for negative numbers".to_string(),
        "- none".to_string(),
        "- [low] calc.py: add a docstring".to_string(),
        "Fixes add to return the sum; tests pass.\nCheck: callers that relied on the difference.\nFindings:\n- [low] tests/test_calc.py: only one case".to_string(),
    ];
    let (summary, server) = run_with_critics(&fx, &["panel", "self-critic"], &replies);
    assert_eq!(
        server.chat_requests().len(),
        5,
        "worker, three personas, self-critic"
    );
    let critics = summary.run.critics.as_ref().unwrap();
    let by: Vec<&str> = critics.findings.iter().map(|f| f.critic.as_str()).collect();
    assert_eq!(by, ["panel:developer", "panel:contributor", "self-critic"]);
    assert!(
        critics
            .self_review
            .as_deref()
            .unwrap()
            .starts_with("Fixes add")
    );
    assert!(critics.tokens > 0 && critics.calls == 4, "{critics:?}");
    let body = slopguard_forge::render_body(&summary);
    assert!(body.contains("### Critics"), "{body}");
    assert!(body.contains("no test for negative numbers"), "{body}");
    assert!(body.contains("> Fixes add to return the sum"), "{body}");
    assert!(trace_events(&summary).contains("critic_panel.review.end"));
    assert_eq!(
        branch_log(&fx).lines().count(),
        1,
        "advisory critics change nothing"
    );
    // The report is one observation of the store, for later runs.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let store = rt.block_on(slopguard_store::Store::open(&fx.db)).unwrap();
    let query = slopguard_store::LogQuery {
        agent: Some("slopguard-critics".into()),
        ..Default::default()
    };
    let rows = rt.block_on(store.agent_log(&query)).unwrap();
    assert_eq!(rows.len(), 1, "{rows:#?}");
    assert_eq!(rows[0].touched_files, ["calc.py", "tests/test_calc.py"]);
}

/// The step critic's answer: one finding with its confidence.
fn step_critic_says(finding: &str, confidence: u8) -> String {
    serde_json::json!({"finding": finding, "confidence": confidence}).to_string()
}

#[test]
fn the_step_critic_feeds_a_confident_finding_to_the_next_attempt_and_keeps_a_softer_one() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    let script = Script::new()
        // Attempt 1: the search text is not in calc.py, so every gate refuses it.
        .content(patch("    return a * b\n", "    return a + b\n"))
        .content(step_critic_says(
            "the search text quotes a line calc.py does not have",
            85,
        ))
        // Attempt 2 lands; the critic's note on the landing is kept for the self-review.
        .content(patch("    return a - b\n", "    return a + b\n"))
        .content(step_critic_says("no test adds negative numbers", 70));
    let server = ScriptedServer::start(script).unwrap();
    let mut o = fx.opts(&server.url());
    o.plan = calc_only();
    o.step_critic = true;
    let summary = execute(&o, &NoProgress).unwrap();
    assert_eq!(
        summary.subtasks().next().unwrap().status,
        SubtaskStatus::Committed
    );
    let requests = server.chat_requests();
    assert_eq!(requests.len(), 4, "worker, critic, worker, critic");
    let second_attempt = requests[2].to_string();
    assert!(
        second_attempt.contains("[critic] a reviewer's note on attempt 1 (confidence 85)"),
        "{second_attempt}"
    );
    assert_eq!(
        summary.run.self_review.len(),
        1,
        "{:?}",
        summary.run.self_review
    );
    assert_eq!(summary.run.self_review[0].step, "landed");
    assert_eq!(summary.run.self_review[0].confidence, 70);
    let body = slopguard_forge::render_body(&summary);
    assert!(body.contains("### Self-review"), "{body}");
    assert!(
        body.contains("| landed | 70 | no test adds negative numbers |"),
        "{body}"
    );
    let trace = trace_events(&summary);
    assert_eq!(trace.matches("\"critic.review\"").count(), 2, "{trace}");
}
