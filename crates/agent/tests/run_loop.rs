//! The run loop in-process against a scripted model, on a Python repository whose tests run
//! with `unittest`: G7 and G8 block and the retry lands; a subtask whose replies never parse
//! fails cleanly and the run goes on; a dry run commits nothing. The user's tree stays
//! byte-identical and the store holds one observation per subtask.
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use scripted_llm::{Script, ScriptedServer};
use slopguard_agent::dynamic::DynamicOptions;
use slopguard_agent::run::{NoProgress, PlanSource, RunOptions, RunStatus, SubtaskStatus, execute};
use slopguard_llm::LlmConfig;
use slopguard_planning::plan::{Action, Plan, Subtask, Task};

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const CALC: &str = "def add(a, b):\n    return a - b\n\n\ndef helper():\n    return 5\n";
const TESTS: &str = "import unittest\n\nfrom calc import add, helper\n\n\nclass CalcTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n\n    def test_helper(self):\n        self.assertEqual(helper(), 5)\n";

fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    git(r, &["init", "-q", "-b", "main"]);
    git(r, &["config", "user.email", "t@example.com"]);
    git(r, &["config", "user.name", "t"]);
    std::fs::write(r.join("calc.py"), CALC).unwrap();
    std::fs::write(r.join("notes.txt"), "notes\n").unwrap();
    std::fs::create_dir_all(r.join("tests")).unwrap();
    std::fs::write(r.join("tests/__init__.py"), "").unwrap();
    std::fs::write(r.join("tests/test_calc.py"), TESTS).unwrap();
    git(r, &["add", "-A"]);
    git(r, &["commit", "-q", "-m", "init"]);
    std::fs::write(r.join("notes.txt"), "uncommitted user work\n").unwrap();
    dir
}

fn snapshot(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut m = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name == ".git" || name == ".slopguard" {
                continue;
            }
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                m.insert(
                    p.strip_prefix(root).unwrap().display().to_string(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    m
}

/// True (and says so) when python3 is not installed: the repository's tests cannot run.
fn python_missing() -> bool {
    let missing = Command::new("python3").arg("--version").output().is_err();
    if missing {
        eprintln!("python3 missing; skipped");
    }
    missing
}

/// A fresh repository and store for one run.
struct Fixture {
    dir: tempfile::TempDir,
    tmp: tempfile::TempDir,
    db: String,
}

impl Fixture {
    /// `None` (the test is skipped) when python3 is missing.
    fn new() -> Option<Fixture> {
        if python_missing() {
            return None;
        }
        let tmp = tempfile::tempdir().unwrap();
        let db = format!("sqlite://{}", tmp.path().join("store.db").display());
        Some(Fixture {
            dir: repo(),
            tmp,
            db,
        })
    }

    fn opts(&self, url: &str) -> RunOptions {
        opts(self.dir.path(), url, &self.db, &self.tmp.path().join("wt"))
    }
}

/// A modify subtask with `hints`; its id comes from the plan's normalisation.
fn subtask(title: &str, hints: &[&str]) -> Subtask {
    Subtask {
        id: String::new(),
        title: title.into(),
        description: String::new(),
        file_hints: hints.iter().map(|s| s.to_string()).collect(),
        action: Action::Modify,
    }
}

/// A plan of one task, `T001` titled `title`, with `subtasks`.
fn one_task(title: &str, subtasks: Vec<Subtask>) -> Plan {
    Plan {
        tasks: vec![Task {
            id: "T001".into(),
            title: title.into(),
            priority: 1,
            description: String::new(),
            subtasks,
        }],
    }
}

fn plan() -> Plan {
    one_task(
        "Fix add",
        vec![
            subtask("Make add return the sum", &["calc.py"]),
            subtask("Document add in notes", &["notes.txt"]),
        ],
    )
}

fn patch(search: &str, replace: &str) -> String {
    serde_json::json!({"commit_message": "Fix add: return the sum", "patches": [{"action": "modify",
        "path": "calc.py", "edits": [{"search": search, "replace": replace}]}]})
    .to_string()
}

/// The reply of the notes subtask: a whole-file rewrite of `notes.txt`.
fn notes_patch() -> String {
    serde_json::json!({"commit_message": "notes", "patches": [{"action": "modify",
        "path": "notes.txt", "content": "notes\nadd returns the sum\n"}]})
    .to_string()
}

fn opts(repo: &Path, url: &str, db: &str, wt: &Path) -> RunOptions {
    RunOptions {
        path: repo.to_path_buf(),
        branch: Some("sg/loop".into()),
        plan: PlanSource::Given(plan()),
        llm: LlmConfig::single(url, "scripted-model"),
        db: Some(db.to_string()),
        analysis_toolchain: false,
        measure_after: false,
        worktree: Some(wt.to_path_buf()),
        dynamic: DynamicOptions::default(),
        candidates: slopguard_agent::run::candidates::CandidateCount::Fixed(1),
        // These tests script the model's answers; the repair templates (which would fix
        // `a - b` on their own) have a test of their own.
        templates: false,
        ..RunOptions::default()
    }
}

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
        .filter(|a| a.guard == "intent-review" && a.status == "blocked")
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

fn branch_log(fx: &Fixture) -> String {
    git(fx.dir.path(), &["log", "--format=%s", "main..sg/loop"])
}

fn trace_events(summary: &slopguard_agent::run::RunSummary) -> String {
    std::fs::read_to_string(&summary.trace_path).unwrap()
}

const DEVIL: &str = "- [high] calc.py:5: helper() is never tested with other values";
const FIXED_CALC: &str = "def add(a, b):\n    return a + b\n\n\ndef helper():\n    return 5\n";

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

#[test]
fn with_no_frame_in_the_code_a_statement_of_the_tested_function_is_offered_alone_and_lands() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // The assertion fails inside the test, so no frame names a line of calc.py: the first
    // candidate is asked for `add`'s one statement, and its one-line answer is spliced in.
    let script = Script::new()
        .content("```python\nreturn a + b\n```\n")
        .content(format!("calc.py\n```python\n{CALC}```\n"));
    let server = ScriptedServer::start(script).unwrap();
    let mut o = fx.opts(&server.url());
    o.plan = PlanSource::Given(one_task(
        "Fix add",
        vec![subtask("Fix the failing test test_add", &["calc.py"])],
    ));
    o.candidates = slopguard_agent::run::candidates::CandidateCount::Fixed(2);
    let summary = execute(&o, &NoProgress).unwrap();
    assert_eq!(
        summary.subtasks().next().unwrap().status,
        SubtaskStatus::Committed
    );
    let requests = server.chat_requests();
    let first = requests[0].to_string();
    assert!(first.contains("This line of `add` is wrong:"), "{first}");
    assert!(
        !first.contains("FILES:"),
        "the focused prompt shows no files: {first}"
    );
    assert_eq!(git(fx.dir.path(), &["show", "sg/loop:calc.py"]), FIXED_CALC);
    assert!(trace_events(&summary).contains("worker.suspect_lines"));
}

#[test]
fn a_subtask_whose_tests_an_earlier_subtask_fixed_is_skipped_without_a_model_call() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // The planner made one subtask per failing test; the first fix makes `test_add` pass, so
    // the second has nothing left to do.
    let script = Script::new().content(patch("    return a - b\n", "    return a + b\n"));
    let server = ScriptedServer::start(script).unwrap();
    let mut o = fx.opts(&server.url());
    o.plan = PlanSource::Given(one_task(
        "Fix the failing tests",
        vec![
            subtask("Fix test_add", &["calc.py"]),
            subtask("Make test_add pass for negative numbers", &["calc.py"]),
        ],
    ));
    let summary = execute(&o, &NoProgress).unwrap();
    let all: Vec<_> = summary.subtasks().collect();
    assert_eq!(all[0].status, SubtaskStatus::Committed, "{:#?}", all[0]);
    assert_eq!(all[1].status, SubtaskStatus::Skipped, "{:#?}", all[1]);
    let why = all[1].error.as_deref().unwrap_or_default();
    assert!(
        why.contains("pass since an earlier subtask landed"),
        "{why}"
    );
    assert!(why.contains("test_add"), "{why}");
    assert_eq!(summary.run.status, RunStatus::Completed);
    assert_eq!(
        server.chat_requests().len(),
        1,
        "no model call for the skipped subtask"
    );
    assert!(trace_events(&summary).contains("worker.subtask.skipped"));
}

/// The fixture with a second failing test, `test_add_zero`: `add` must be right for 0 too.
fn two_failing_tests(fx: &Fixture) {
    let r = fx.dir.path();
    let tests = TESTS.replace(
        "    def test_helper(self):",
        "    def test_add_zero(self):\n        self.assertEqual(add(0, 4), 4)\n\n    def test_helper(self):",
    );
    std::fs::write(r.join("tests/test_calc.py"), tests).unwrap();
    git(r, &["add", "tests/test_calc.py"]);
    git(r, &["commit", "-q", "-m", "test add with zero"]);
}

/// One subtask about the failing tests, two attempts of one candidate each.
fn fix_tests_options(fx: &Fixture, url: &str) -> RunOptions {
    let mut o = fx.opts(url);
    o.plan = PlanSource::Given(one_task(
        "Fix add",
        vec![subtask("Fix the failing tests", &["calc.py"])],
    ));
    o.max_attempts = 2;
    o
}

/// A fix of `add` that makes `test_add` pass but not `test_add_zero`.
const PARTIAL_ADD: &str = "    return a + b if a else a - b\n";

/// Runs the two-failing-tests fixture where the first attempt's answer is [`PARTIAL_ADD`] and
/// the second's is `second` (with `--allow-partial` when `allow_partial`); the subtask must end
/// `expected` after two attempts. `None` (the test is skipped) when python3 is missing.
fn partial_then(
    second: String,
    allow_partial: bool,
    expected: SubtaskStatus,
) -> Option<(Fixture, ScriptedServer, slopguard_agent::run::RunSummary)> {
    let fx = Fixture::new()?;
    two_failing_tests(&fx);
    let script = Script::new()
        .content(patch("    return a - b\n", PARTIAL_ADD))
        .content(second);
    let server = ScriptedServer::start(script).unwrap();
    let mut o = fix_tests_options(&fx, &server.url());
    o.allow_partial = allow_partial;
    let summary = execute(&o, &NoProgress).unwrap();
    let s = summary.subtasks().next().unwrap();
    assert_eq!(s.status, expected, "{s:#?}");
    assert_eq!(s.attempts, 2);
    Some((fx, server, summary))
}

#[test]
fn a_partial_fix_waits_for_the_next_attempt_and_a_complete_one_lands_instead() {
    let Some((fx, server, summary)) = partial_then(
        patch("    return a - b\n", "    return a + b\n"),
        false,
        SubtaskStatus::Committed,
    ) else {
        return;
    };
    assert_eq!(git(fx.dir.path(), &["show", "sg/loop:calc.py"]), FIXED_CALC);
    // The second attempt heard what the partial fix left failing.
    let second = server.chat_requests()[1].to_string();
    assert!(second.contains("test_add_zero"), "{second}");
    assert!(trace_events(&summary).contains("worker.partial.carried"));
}

#[test]
fn a_partial_fix_lands_at_the_last_attempt_only_when_allowed_and_then_says_so() {
    let Some((fx, _server, summary)) = partial_then(
        "I am not sure what to change.".into(),
        true,
        SubtaskStatus::Partial,
    ) else {
        return;
    };
    let landed = git(fx.dir.path(), &["show", "sg/loop:calc.py"]);
    assert!(landed.contains(PARTIAL_ADD), "{landed}");
    let s = summary.subtasks().next().unwrap();
    assert_eq!(s.still_failing.len(), 1, "{s:#?}");
    assert!(s.still_failing[0].contains("test_add_zero"), "{s:#?}");
    assert_eq!(
        summary.run.status,
        RunStatus::Partial,
        "a partial fix never completes a run"
    );
}

#[test]
fn by_default_a_partial_fix_does_not_land_and_the_subtask_fails() {
    let Some((fx, _server, summary)) = partial_then(
        "I am not sure what to change.".into(),
        false,
        SubtaskStatus::Failed,
    ) else {
        return;
    };
    // Nothing landed, so the run left no branch behind.
    assert!(summary.run.branch.is_empty(), "{}", summary.run.branch);
    let branches = git(fx.dir.path(), &["branch", "--list", "sg/loop"]);
    assert!(branches.trim().is_empty(), "{branches}");
    assert_eq!(summary.run.status, RunStatus::Failed);
    assert!(trace_events(&summary).contains("worker.partial.refused"));
}

#[test]
fn failing_tests_define_the_task_so_no_planner_call_is_made() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // The script holds the worker's answer only: a planner call would consume it and the run
    // would land nothing.
    let script = Script::new().content(patch("    return a - b\n", "    return a + b\n"));
    let server = ScriptedServer::start(script).unwrap();
    let mut o = fx.opts(&server.url());
    o.plan = PlanSource::Llm;
    o.analysis_toolchain = true;
    let summary = execute(&o, &NoProgress).unwrap();
    let all: Vec<_> = summary.subtasks().collect();
    assert_eq!(all.len(), 1, "{all:#?}");
    assert_eq!(all[0].status, SubtaskStatus::Committed, "{:#?}", all[0]);
    assert_eq!(all[0].file_hints, ["calc.py"], "{:#?}", all[0]);
    assert_eq!(summary.run.status, RunStatus::Completed);
    let requests = server.chat_requests();
    assert_eq!(requests.len(), 1, "one worker call, no planner call");
    assert!(
        requests[0].to_string().contains("test_add"),
        "the worker heard the failing test"
    );
    assert!(trace_events(&summary).contains("plan.planner_skipped"));
    assert_eq!(git(fx.dir.path(), &["show", "sg/loop:calc.py"]), FIXED_CALC);
}

#[test]
fn a_repair_template_fixes_a_one_token_bug_and_the_model_call_beside_it_is_given_up() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // The first candidate's model call starts beside the templates; its reply would break
    // `add` and comes long after the template won: it is given up, never judged.
    let slow = patch("    return a - b\n", "    return 0\n");
    let server = ScriptedServer::start(Script::new().delayed(60_000, slow)).unwrap();
    let mut o = fix_tests_options(&fx, &server.url());
    o.templates = true;
    let summary = execute(&o, &NoProgress).unwrap();
    let s = summary.subtasks().next().unwrap();
    assert_eq!(s.status, SubtaskStatus::Committed, "{s:#?}");
    assert_eq!(s.fix_source.as_deref(), Some("template"));
    assert_eq!(
        s.commit_title.as_deref(),
        Some("Fix `add`: `return a - b` -> `return a + b`")
    );
    assert_eq!(s.candidates, 0, "no model candidate was judged: {s:#?}");
    assert_eq!(git(fx.dir.path(), &["show", "sg/loop:calc.py"]), FIXED_CALC);
    assert!(trace_events(&summary).contains("worker.templates"));
}

#[test]
fn when_no_template_fixes_the_bug_the_reply_asked_for_beside_them_is_the_first_candidate() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // `add` returns `b`: no one-token change makes it the sum.
    let r = fx.dir.path();
    std::fs::write(r.join("calc.py"), CALC.replace("return a - b", "return b")).unwrap();
    git(r, &["commit", "-qam", "add returns b"]);
    let server =
        ScriptedServer::start(Script::new().content(patch("    return b\n", "    return a + b\n")))
            .unwrap();
    let mut o = fix_tests_options(&fx, &server.url());
    o.templates = true;
    let summary = execute(&o, &NoProgress).unwrap();
    let s = summary.subtasks().next().unwrap();
    assert_eq!(s.status, SubtaskStatus::Committed, "{s:#?}");
    assert_eq!(s.fix_source.as_deref(), Some("json"), "{s:#?}");
    assert_eq!(
        server.chat_requests().len(),
        1,
        "one model call, asked once"
    );
    let log = &s.attempt_log[0].candidates;
    assert!(log[0].contains("repair templates: none of"), "{log:?}");
    assert!(log[1].contains("candidate 1"), "{log:?}");
    assert_eq!(git(fx.dir.path(), &["show", "sg/loop:calc.py"]), FIXED_CALC);
    // The trace says which candidate won.
    let trace = trace_events(&summary);
    let won = trace
        .lines()
        .find(|l| l.contains("worker.candidate.won"))
        .unwrap_or_else(|| panic!("no winner in the trace: {trace}"));
    let won: serde_json::Value = serde_json::from_str(won).unwrap();
    assert_eq!(won["data"]["candidate"], 1, "{won}");
    assert_eq!(won["data"]["attempt"], 1, "{won}");
}

#[test]
fn a_reply_that_comes_while_templates_remain_is_judged_before_them_and_lands() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // Many one-token changes to try, none of them the fix (the branch is reached by two
    // changes at least, and its sum is one off); the model's reply comes at once.
    let r = fx.dir.path();
    let add = "def add(a, b):\n    if a > 100 and b > 100 and a < 1000 and b < 1000:\n        return a + b + 1\n    return b\n";
    std::fs::write(
        r.join("calc.py"),
        CALC.replace("def add(a, b):\n    return a - b\n", add),
    )
    .unwrap();
    git(r, &["commit", "-qam", "add returns b below 100"]);
    let server =
        ScriptedServer::start(Script::new().content(patch("    return b\n", "    return a + b\n")))
            .unwrap();
    let mut o = fix_tests_options(&fx, &server.url());
    o.templates = true;
    o.candidates = slopguard_agent::run::candidates::CandidateCount::Auto;
    let summary = execute(&o, &NoProgress).unwrap();
    let s = summary.subtasks().next().unwrap();
    assert_eq!(s.status, SubtaskStatus::Committed, "{s:#?}");
    assert_eq!(s.fix_source.as_deref(), Some("json"), "{s:#?}");
    assert!(git(r, &["show", "sg/loop:calc.py"]).contains("    return a + b\n"));
    // The template phase never ended: the model's fix landed while templates remained.
    let trace = trace_events(&summary);
    assert!(trace.contains("worker.candidate.won"), "{trace}");
    assert!(!trace.contains("\"worker.templates\""), "{trace}");
}

/// A run of the fix-tests subtask whose model answers the whole-file prompt with `calc.py` as
/// `content`. The brief prompts come first (`add`'s statement, then `add` alone): answered
/// with prose, so the whole-file prompt's answer is the one judged.
fn run_whole_file_reply(
    fx: &Fixture,
    message: &str,
    content: &str,
) -> slopguard_agent::run::RunSummary {
    let reply = serde_json::json!({"commit_message": message, "patches": [{"action": "modify",
        "path": "calc.py", "content": content}]})
    .to_string();
    let server = ScriptedServer::start(
        Script::new()
            .content("I am not sure what is wrong.")
            .content("I am not sure what is wrong.")
            .content(reply),
    )
    .unwrap();
    let mut opts = fix_tests_options(fx, &server.url());
    opts.candidates = slopguard_agent::run::candidates::CandidateCount::Fixed(3);
    execute(&opts, &NoProgress).unwrap()
}

#[test]
fn a_fix_that_dropped_an_unrelated_function_is_salvaged_and_lands_without_the_loss() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // The whole file rewritten: `add` fixed, `helper` (which a passing test calls) dropped.
    let summary = run_whole_file_reply(&fx, "files changed", "def add(a, b):\n    return a + b\n");
    let s = summary.subtasks().next().unwrap();
    assert_eq!(s.status, SubtaskStatus::Committed, "{s:#?}");
    assert_eq!(s.fix_source.as_deref(), Some("salvaged"));
    assert_eq!(git(fx.dir.path(), &["show", "sg/loop:calc.py"]), FIXED_CALC);
    // The model's stray first line is not the subject.
    assert_eq!(
        s.commit_title.as_deref(),
        Some("Fix `add`: `return a - b` -> `return a + b`")
    );
    assert!(trace_events(&summary).contains("worker.candidate.salvaged"));
}

#[test]
fn a_passing_fix_lands_without_the_edit_the_tests_do_not_need() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // `add` fixed, and `helper` rewritten to the same value nobody asked for: the tests pass
    // with or without that second edit, so it is put back as it was before landing.
    let summary = run_whole_file_reply(
        &fx,
        "Fix add",
        "def add(a, b):\n    return a + b\n\n\ndef helper():\n    return int(\"5\")\n",
    );
    let s = summary.subtasks().next().unwrap();
    assert_eq!(s.status, SubtaskStatus::Committed, "{s:#?}");
    assert_eq!(git(fx.dir.path(), &["show", "sg/loop:calc.py"]), FIXED_CALC);
    assert!(trace_events(&summary).contains("worker.candidate.trimmed"));
    // What the tests need is never trimmed: a fix of one part lands as it came.
    let fx = Fixture::new().unwrap();
    let server = ScriptedServer::start(
        Script::new().content(patch("    return a - b\n", "    return a + b\n")),
    )
    .unwrap();
    let summary = execute(&fix_tests_options(&fx, &server.url()), &NoProgress).unwrap();
    assert_eq!(git(fx.dir.path(), &["show", "sg/loop:calc.py"]), FIXED_CALC);
    assert!(!trace_events(&summary).contains("worker.candidate.trimmed"));
}

/// True (and says so) when pytest is not installed: the per-test coverage needs it.
fn pytest_missing() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import pytest"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("pytest missing; skipped");
    }
    !ok
}

#[test]
fn the_tests_coverage_points_the_first_candidate_at_the_helper_the_test_never_names() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    if pytest_missing() {
        return;
    }
    // `get` and `parse` are what the failing test calls; the bug is in `_value`, which only
    // `parse` calls and only the failing test's input reaches past its first line.
    let r = fx.dir.path();
    let ini = "def parse(text):\n    return dict(_pair(line) for line in text.splitlines())\n\n\n\
               def _pair(line):\n    key, _, value = line.partition('=')\n    return key.strip(), _value(value)\n\n\n\
               def _value(value):\n    if ';' in value:\n        value = value.split(';')[0]\n    return value\n\n\n\
               def get(config, key):\n    return config.get(key)\n";
    let tests = "from ini import get, parse\n\n\n\
                 def test_plain():\n    assert get(parse('a=1'), 'a') == '1'\n\n\n\
                 def test_keys():\n    assert sorted(parse('a=1\\nb=2')) == ['a', 'b']\n\n\n\
                 def test_comment():\n    assert get(parse('a = 1 ; note'), 'a') == '1'\n";
    std::fs::write(r.join("calc.py"), FIXED_CALC).unwrap();
    std::fs::write(r.join("ini.py"), ini).unwrap();
    std::fs::write(r.join("tests/test_ini.py"), tests).unwrap();
    git(r, &["add", "-A"]);
    git(r, &["commit", "-q", "-m", "ini"]);
    // The statement only the failing test runs is the first asked for.
    let script = Script::new().content("```python\nvalue = value.split(';')[0].strip()\n```\n");
    let server = ScriptedServer::start(script).unwrap();
    let mut o = fx.opts(&server.url());
    o.plan = PlanSource::Given(one_task(
        "Fix the failing test",
        vec![subtask("Fix the failing test test_comment", &["ini.py"])],
    ));
    let summary = execute(&o, &NoProgress).unwrap();
    let first = server.chat_requests()[0].to_string();
    assert!(first.contains("This line of `_value` is wrong:"), "{first}");
    assert!(
        first.contains(r#"        value = value.split(';')[0]\n```\nWrite that line"#),
        "{first}"
    );
    assert_eq!(
        summary.subtasks().next().unwrap().status,
        SubtaskStatus::Committed
    );
    assert!(
        git(r, &["show", "sg/loop:ini.py"])
            .contains("        value = value.split(';')[0].strip()\n    return value\n")
    );
    let trace = trace_events(&summary);
    assert!(trace.contains("\"worker.coverage\""), "{trace}");
}

#[test]
fn before_a_long_function_its_most_suspect_statement_is_asked_for_first() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // `add` is 30 lines long (a long docstring): writing it back would cost the model
    // hundreds of tokens, so the first candidate is asked for its one statement.
    let r = fx.dir.path();
    let doc: String = (0..27)
        .map(|i| format!("    line {i} of the docs\n"))
        .collect();
    let long_add = format!("def add(a, b):\n    \"\"\"Adds.\n{doc}    \"\"\"\n    return a - b\n");
    let calc = CALC.replace("def add(a, b):\n    return a - b\n", &long_add);
    std::fs::write(r.join("calc.py"), &calc).unwrap();
    git(r, &["add", "-A"]);
    git(r, &["commit", "-q", "-m", "long add"]);
    let script = Script::new().content("```python\nreturn a + b\n```\n");
    let server = ScriptedServer::start(script).unwrap();
    let mut o = fx.opts(&server.url());
    o.plan = PlanSource::Given(one_task(
        "Fix add",
        vec![subtask("Fix the failing test test_add", &["calc.py"])],
    ));
    let summary = execute(&o, &NoProgress).unwrap();
    let first = server.chat_requests()[0].to_string();
    assert!(first.contains("This line of `add` is wrong:"), "{first}");
    assert_eq!(
        summary.subtasks().next().unwrap().status,
        SubtaskStatus::Committed
    );
    assert!(git(r, &["show", "sg/loop:calc.py"]).contains("    return a + b\n"));
}

#[test]
fn a_fix_that_sends_a_passing_test_down_another_branch_is_refused_and_the_next_one_lands() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    if pytest_missing() {
        return;
    }
    // `clamp` returns `lo` above the range. The first answer fixes that and also makes
    // `x <= lo` the first test: `test_at_lo` still passes, by the first branch now instead of
    // the last. The second answer fixes the return alone.
    let r = fx.dir.path();
    let clamp = "def clamp(x, lo, hi):\n    if x < lo:\n        return lo\n    if x > hi:\n        return lo\n    return x\n";
    let tests = "from clamp import clamp\n\n\n\
                 def test_high():\n    assert clamp(15, 0, 10) == 10\n\n\n\
                 def test_low():\n    assert clamp(-5, 0, 10) == 0\n\n\n\
                 def test_at_lo():\n    assert clamp(0, 0, 10) == 0\n";
    std::fs::write(r.join("calc.py"), FIXED_CALC).unwrap();
    std::fs::write(r.join("clamp.py"), clamp).unwrap();
    std::fs::write(r.join("tests/test_clamp.py"), tests).unwrap();
    git(r, &["add", "-A"]);
    git(r, &["commit", "-q", "-m", "clamp"]);
    let shifted = clamp
        .replace("x < lo", "x <= lo")
        .replace("hi:\n        return lo", "hi:\n        return hi");
    let right = clamp.replace("hi:\n        return lo", "hi:\n        return hi");
    // Both answers are the function `clamp` whole (an answer holding the target definition
    // is spliced in place of it, whatever the prompt asked for).
    let script = Script::new()
        .content(format!("```python\n{shifted}```\n"))
        .content(format!("```python\n{right}```\n"));
    let server = ScriptedServer::start(script).unwrap();
    let mut o = fx.opts(&server.url());
    o.plan = PlanSource::Given(one_task(
        "Fix clamp",
        vec![subtask("Fix the failing test test_high", &["clamp.py"])],
    ));
    o.max_attempts = 2;
    let summary = execute(&o, &NoProgress).unwrap();
    let s = summary.subtasks().next().unwrap();
    assert_eq!(s.status, SubtaskStatus::Committed, "{s:#?}");
    assert_eq!(s.attempts, 2, "{s:#?}");
    assert_eq!(git(r, &["show", "sg/loop:clamp.py"]), right);
    // The first attempt's findings say why (the retry's definition prompt shows them).
    assert!(
        s.attempt_log[0].feedback.contains("kept-behaviour"),
        "{:?}",
        s.attempt_log[0]
    );
    let trace = trace_events(&summary);
    assert!(trace.contains("critic_kept_behaviour.fail"), "{trace}");
    assert!(
        trace.contains("test_at_lo passed before the fix and now runs clamp.py:3"),
        "{trace}"
    );
}
