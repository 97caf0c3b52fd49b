//! The run loop on a subtask behind failing tests, in-process against a scripted model: the
//! statement or definition offered alone, the partial fix, the repair templates beside the
//! model, salvage, trimming, the coverage's targets, the kept-behaviour gate and a change near
//! a fix mended in its conversation.
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

mod common;

use common::*;

use scripted_llm::{Script, ScriptedServer};
use slopguard_agent::run::{NoProgress, PlanSource, RunOptions, RunStatus, SubtaskStatus, execute};

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
fn the_next_attempt_asks_for_the_definition_first_and_lists_the_answer_the_tests_refused() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // One candidate an attempt: the first, for `add`'s one statement, builds and fails the
    // test; the second attempt asks for `add` whole first, and its prompt lists the refused
    // answer with what the test printed.
    let script = Script::new()
        .content("```python\nreturn a * b\n```\n")
        .content("```python\ndef add(a, b):\n    return a + b\n```\n");
    let server = ScriptedServer::start(script).unwrap();
    let mut o = fix_tests_options(&fx, &server.url());
    o.candidates = slopguard_agent::run::candidates::CandidateCount::Fixed(1);
    let summary = execute(&o, &NoProgress).unwrap();
    let s = summary.subtasks().next().unwrap();
    assert_eq!(s.status, SubtaskStatus::Committed, "{s:#?}");
    assert_eq!(s.attempts, 2);
    let requests = server.chat_requests();
    let first = requests[0].to_string();
    assert!(first.contains("This line of `add` is wrong:"), "{first}");
    assert!(!first.contains("were tried"), "{first}");
    let second = requests[1].to_string();
    assert!(
        second.contains("Write the complete fixed `add`"),
        "{second}"
    );
    let listed = second
        .find("These changes to `add` were tried and are wrong")
        .unwrap_or_else(|| panic!("{second}"));
    assert!(second[listed..].contains("return a * b"), "{second}");
    assert!(second[listed..].contains("6 != 5"), "{second}");
    assert_eq!(git(fx.dir.path(), &["show", "sg/loop:calc.py"]), FIXED_CALC);
}

#[test]
fn a_statement_asked_again_in_the_same_attempt_hears_the_answer_the_tests_refused() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // Candidates as they come: the first answer (the statement) is judged while the
    // definition is written, and fails the test; the definition sends the same change; the
    // statement asked again, in the same attempt, lists the refused answer.
    let script = Script::new()
        .content("```python\nreturn a * b\n```\n")
        .content("```python\ndef add(a, b):\n    return a * b\n```\n")
        .content("```python\nreturn a + b\n```\n")
        .content("```python\ndef add(a, b):\n    return a + b\n```\n");
    let server = ScriptedServer::start(script).unwrap();
    let mut o = fix_tests_options(&fx, &server.url());
    o.candidates = slopguard_agent::run::candidates::CandidateCount::Auto;
    let summary = execute(&o, &NoProgress).unwrap();
    let s = summary.subtasks().next().unwrap();
    assert_eq!(s.status, SubtaskStatus::Committed, "{s:#?}");
    assert_eq!(s.attempts, 1);
    let requests = server.chat_requests();
    let again = requests[2].to_string();
    assert!(again.contains("This line of `add` is wrong:"), "{again}");
    let listed = again
        .find("These answers were tried and are wrong")
        .unwrap_or_else(|| panic!("{again}"));
    assert!(again[listed..].contains("return a * b"), "{again}");
    assert!(again[listed..].contains("6 != 5"), "{again}");
    assert_eq!(git(fx.dir.path(), &["show", "sg/loop:calc.py"]), FIXED_CALC);
}

#[test]
fn a_patch_the_tests_refused_is_not_judged_again_in_a_later_attempt() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // The second attempt sends the first one's refused change again (as the whole
    // definition it asked for): it is turned down at once, without a second build and test
    // run; the third attempt's fix lands.
    let script = Script::new()
        .content("```python\nreturn a * b\n```\n")
        .content("```python\ndef add(a, b):\n    return a * b\n```\n")
        .content("```python\ndef add(a, b):\n    return a + b\n```\n");
    let server = ScriptedServer::start(script).unwrap();
    let mut o = fix_tests_options(&fx, &server.url());
    o.candidates = slopguard_agent::run::candidates::CandidateCount::Fixed(1);
    o.max_attempts = 3;
    let summary = execute(&o, &NoProgress).unwrap();
    let s = summary.subtasks().next().unwrap();
    assert_eq!(s.status, SubtaskStatus::Committed, "{s:#?}");
    assert_eq!(s.attempts, 3);
    let trace = trace_events(&summary);
    assert_eq!(
        trace
            .matches("same patch as one refused in an earlier attempt")
            .count(),
        1,
        "{trace}"
    );
    // The tests refused the first answer, and did not run for the repeat.
    assert_eq!(
        trace.matches("worker.tests.still_failing").count(),
        1,
        "{trace}"
    );
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

/// A run with the repair templates whose model reply (`slow`, which would break the code) comes
/// a minute late: asserts that a template fix landed first, and returns the summary.
fn a_template_lands_first(fx: &Fixture, slow: String) -> slopguard_agent::run::RunSummary {
    let server = ScriptedServer::start(Script::new().delayed(60_000, slow)).unwrap();
    let mut o = fix_tests_options(fx, &server.url());
    o.templates = true;
    let summary = execute(&o, &NoProgress).unwrap();
    let s = summary.subtasks().next().unwrap();
    assert_eq!(s.status, SubtaskStatus::Committed, "{s:#?}");
    assert_eq!(s.fix_source.as_deref(), Some("template"));
    summary
}

#[test]
fn a_repair_template_fixes_a_one_token_bug_and_the_model_call_beside_it_is_given_up() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // The first candidate's model call starts beside the templates; its reply would break
    // `add` and comes long after the template won: it is given up, never judged.
    let summary = a_template_lands_first(&fx, patch("    return a - b\n", "    return 0\n"));
    let s = summary.subtasks().next().unwrap();
    assert_eq!(
        s.commit_title.as_deref(),
        Some("Fix `add`: `return a - b` -> `return a + b`")
    );
    assert_eq!(s.candidates, 0, "no model candidate was judged: {s:#?}");
    assert_eq!(git(fx.dir.path(), &["show", "sg/loop:calc.py"]), FIXED_CALC);
    let body = git(fx.dir.path(), &["log", "-1", "--format=%B", "sg/loop"]);
    assert!(
        body.contains("Found by a repair template (no model reply).")
            && !body.contains("Chosen among"),
        "the body names where the fix came from:\n{body}"
    );
    let trace = trace_events(&summary);
    assert!(trace.contains("worker.templates"));
    // The queue and each judged template are in the trace: the winner fixed the one failing
    // test and broke none.
    let event = |name: &str| -> Vec<serde_json::Value> {
        trace
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|e| e["event"] == name)
            .map(|e| e["data"].clone())
            .collect()
    };
    let queued = event("worker.templates.queued");
    assert!(
        queued[0]["fixes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["after"] == "return a + b" && f["line"] == 2),
        "{queued:?}"
    );
    let judged = event("worker.template.judged");
    let winner = judged
        .iter()
        .find(|j| j["line"] == 2 && j["operator"] == "arithmetic")
        .unwrap_or_else(|| panic!("{judged:?}"));
    assert_eq!(winner["targets_fixed"], 1, "{winner}");
    assert_eq!(winner["newly_failing"], 0, "{winner}");
    // No other change of `return a - b` passes `add(2, 3) == 5`: nothing to review.
    assert_eq!(s.also_passing, None, "{s:#?}");
}

#[test]
fn a_template_fix_the_tests_cannot_tell_from_another_lands_and_names_the_other() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // `discount` gives 10 below 100 and should above it. `total > 100`, `total >= 100` and
    // `not (total < 100)` all pass the two tests: they differ only at 100, which no test tries.
    let r = fx.dir.path();
    let calc = format!(
        "{FIXED_CALC}\n\ndef discount(total):\n    if total < 100:\n        return 10\n    return 0\n"
    );
    let tests = "from calc import discount\n\n\n\
                 def test_large_order():\n    assert discount(150) == 10\n\n\n\
                 def test_small_order():\n    assert discount(50) == 0\n";
    std::fs::write(r.join("calc.py"), &calc).unwrap();
    std::fs::write(r.join("tests/test_calc.py"), tests).unwrap();
    git(r, &["commit", "-qam", "discount"]);
    let summary = a_template_lands_first(&fx, patch("    return 0\n", "    return 1\n"));
    let s = summary.subtasks().next().unwrap();
    let other = s
        .also_passing
        .as_deref()
        .unwrap_or_else(|| panic!("{s:#?}"));
    let line = calc
        .lines()
        .position(|l| l.contains("total < 100"))
        .unwrap();
    assert!(
        other.starts_with(&format!("calc.py:{} `if total < 100:` -> ", line + 1)),
        "{other}"
    );
    // The landed fix is the one judged first, written back after the other was tried.
    let landed = git(r, &["show", "sg/loop:calc.py"]);
    let landed_line = landed.lines().nth(line).unwrap().trim().to_string();
    assert_ne!(landed_line, "if total < 100:", "{landed}");
    assert!(
        !other.ends_with(&format!("`{landed_line}`")),
        "{other} / {landed}"
    );
    assert!(
        summary
            .to_text()
            .contains("they cannot tell the two fixes apart"),
        "{}",
        summary.to_text()
    );
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

/// The options of a run with the repair templates and the Qwen infill format, sampling as
/// `slopguard run` does by default (`--candidates auto`).
fn infill_options(fx: &Fixture, url: &str) -> RunOptions {
    let mut o = fix_tests_options(fx, url);
    o.templates = true;
    o.candidates = slopguard_agent::run::candidates::CandidateCount::Auto;
    o.infill =
        slopguard_agent::run::InfillSetting::Format(slopguard_worker::infill::FimFormat::Qwen);
    o
}

/// `add` made to return `a * b - b`, committed: no one-token change makes it the sum.
fn no_template_fixes_add(r: &std::path::Path) {
    std::fs::write(
        r.join("calc.py"),
        CALC.replace("return a - b", "return a * b - b"),
    )
    .unwrap();
    git(r, &["commit", "-qam", "add returns a * b - b"]);
}

#[test]
fn the_models_infill_of_a_statement_it_was_not_shown_lands_before_any_chat_candidate() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // No one-token change fixes `add`. The model, asked to fill in `add`'s statement without
    // seeing it, first writes the statement as it is (no change), then the sum; the chat
    // reply asked for next would break `add` and comes too late.
    let r = fx.dir.path();
    no_template_fixes_add(r);
    let slow = patch("    return a * b - b\n", "    return 0\n");
    let script = Script::new()
        .completion("a * b - b")
        .completion("a + b")
        .delayed(60_000, slow);
    let server = ScriptedServer::start(script).unwrap();
    let summary = execute(&infill_options(&fx, &server.url()), &NoProgress).unwrap();
    let s = summary.subtasks().next().unwrap();
    assert_eq!(s.status, SubtaskStatus::Committed, "{s:#?}");
    assert_eq!(s.fix_source.as_deref(), Some("infill"), "{s:#?}");
    assert_eq!(s.candidates, 0, "no chat candidate was judged: {s:#?}");
    assert_eq!(git(r, &["show", "sg/loop:calc.py"]), FIXED_CALC);
    let asked: Vec<_> = server
        .requests()
        .into_iter()
        .filter(|q| q.path.ends_with("/v1/completions"))
        .collect();
    assert!(asked.len() >= 2, "{asked:#?}");
    let prompt = asked[0].body["prompt"].as_str().unwrap();
    assert!(
        prompt.contains("<|fim_prefix|>def add(a, b):\n    return <|fim_suffix|>\n"),
        "the hole is where the returned value was: {prompt}"
    );
    assert!(
        !prompt.contains("a * b"),
        "the statement is not shown: {prompt}"
    );
    assert!(
        prompt.starts_with("<|file_sep|>tests/test_calc.py\n") && prompt.contains("def test_add"),
        "the failing test comes first, as another file: {prompt}"
    );
    let trace = trace_events(&summary);
    assert!(trace.contains("\"worker.infill\""), "{trace}");
}

#[test]
fn a_missing_statement_is_written_into_the_gap_before_the_result_is_returned() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // `add` lost the statement that adds `b`: no one-token change and no rewrite of a
    // statement that is there fixes it. The model answers every hole with `total += b`: as
    // a statement's value it does not parse; written into the gap before `return total` it
    // is the fix.
    let r = fx.dir.path();
    std::fs::write(
        r.join("calc.py"),
        CALC.replace("    return a - b\n", "    total = a\n    return total\n"),
    )
    .unwrap();
    git(r, &["commit", "-qam", "add forgets b"]);
    let script = (0..30).fold(Script::new(), |s, _| s.completion("total += b"));
    let server = ScriptedServer::start(script).unwrap();
    let summary = execute(&infill_options(&fx, &server.url()), &NoProgress).unwrap();
    let s = summary.subtasks().next().unwrap();
    assert_eq!(s.status, SubtaskStatus::Committed, "{s:#?}");
    assert_eq!(s.fix_source.as_deref(), Some("infill"), "{s:#?}");
    assert_eq!(
        git(r, &["show", "sg/loop:calc.py"]),
        CALC.replace(
            "    return a - b\n",
            "    total = a\n    total += b\n    return total\n"
        )
    );
    let gap_asked = server.requests().into_iter().any(|q| {
        q.body["prompt"]
            .as_str()
            .is_some_and(|p| p.contains("    total = a\n    <|fim_suffix|>\n    return total\n"))
    });
    assert!(gap_asked, "the gap before `return total` was asked for");
    let trace = trace_events(&summary);
    assert!(trace.contains("\"hole\":\"gap\""), "{trace}");
}

#[test]
fn an_infill_that_fixes_is_judged_as_it_comes_and_the_calls_left_are_given_up() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // The first middle is the fix; every later one takes the model 60 s. The fix is judged
    // while the second is written, wins, and the infills left are never asked.
    let r = fx.dir.path();
    no_template_fixes_add(r);
    let script = Script::new()
        .completion("a + b")
        .completion("a * b - b")
        .completion("b")
        .slow_completions(60_000);
    let server = ScriptedServer::start(script).unwrap();
    let summary = execute(&infill_options(&fx, &server.url()), &NoProgress).unwrap();
    let s = summary.subtasks().next().unwrap();
    assert_eq!(s.status, SubtaskStatus::Committed, "{s:#?}");
    assert_eq!(s.fix_source.as_deref(), Some("infill"), "{s:#?}");
    assert_eq!(git(r, &["show", "sg/loop:calc.py"]), FIXED_CALC);
    let asked = server
        .requests()
        .into_iter()
        .filter(|q| q.path.ends_with("/v1/completions"))
        .count();
    assert!(
        asked <= 2,
        "the fix, and the call given up while it was judged: {asked}"
    );
    assert!(
        s.attempt_log[0]
            .candidates
            .iter()
            .any(|l| l.contains("infill: the model wrote 1 answer without")),
        "{:?}",
        s.attempt_log
    );
}

#[test]
fn a_server_without_raw_completions_is_asked_for_an_infill_once_and_the_chat_goes_on() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // `add` has two statements: the second attempt would have one not asked yet.
    let r = fx.dir.path();
    std::fs::write(
        r.join("calc.py"),
        CALC.replace("    return a - b\n", "    s = a * b\n    return s - b\n"),
    )
    .unwrap();
    git(r, &["commit", "-qam", "add returns a * b - b"]);
    // No completions scripted: `POST /v1/completions` answers 404, as a chat-only server.
    // The first attempt's one chat reply is unreadable; the second attempt's is the fix.
    let fix = patch("    return s - b\n", "    return a + b\n");
    let script = Script::new().content("no patch here").content(fix);
    let server = ScriptedServer::start(script).unwrap();
    let mut o = infill_options(&fx, &server.url());
    o.candidates = slopguard_agent::run::candidates::CandidateCount::Fixed(1);
    let summary = execute(&o, &NoProgress).unwrap();
    let s = summary.subtasks().next().unwrap();
    assert_eq!(s.status, SubtaskStatus::Committed, "{s:#?}");
    assert_eq!(s.fix_source.as_deref(), Some("json"), "{s:#?}");
    assert_eq!(s.attempts, 2, "{s:#?}");
    let raw = server
        .requests()
        .into_iter()
        .filter(|q| q.path.ends_with("/v1/completions"))
        .count();
    assert_eq!(raw, 1, "asked once, not again at the second attempt");
    let log = &s.attempt_log[0].candidates;
    assert!(
        log.iter()
            .any(|l| l.contains("infill: the model could not be asked")),
        "{log:?}"
    );
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
/// `content`. The brief prompts come first (`add`'s statement, then `add` alone), alone in the
/// first attempt (its three candidates ask for them in turn) and again in the second: answered
/// with prose, so the whole-file prompt's answer, the second attempt's third candidate, is the
/// one judged.
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
            .content("I am not sure what is wrong.")
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
    // The first attempt asked for the statement and the definition only: the files prompt
    // waited for the second.
    let asked: Vec<(u64, String)> = trace_events(&summary)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|e| e["event"] == "worker.candidate")
        .map(|e| {
            let d = &e["data"];
            (
                d["attempt"].as_u64().unwrap(),
                d["asks"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        asked.iter().all(|(a, k)| *a > 1 || k != "files"),
        "{asked:?}"
    );
    assert!(asked.contains(&(2, "files".to_string())), "{asked:?}");
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
    // The baseline was recorded once more before the refusal, and the fix written back.
    assert!(
        trace.contains(r#""event":"kept_behaviour.baseline_again","data":{"ms""#)
            && trace.contains(r#""recorded":true,"restored":true"#),
        "{trace}"
    );
}

#[test]
fn the_findings_of_a_change_that_broke_a_passing_test_show_what_that_test_printed() {
    let Some(fx) = Fixture::new() else {
        return;
    };
    // `test_add_to_negative` passes with the bug (`-2 - 0`); the first answer makes `test_add`
    // pass and breaks it (`abs(-2) + 0`).
    let r = fx.dir.path();
    let tests = TESTS.replace(
        "    def test_helper(self):",
        "    def test_add_to_negative(self):\n        self.assertEqual(add(-2, 0), -2)\n\n    def test_helper(self):",
    );
    std::fs::write(r.join("tests/test_calc.py"), tests).unwrap();
    git(r, &["commit", "-qam", "test add to a negative number"]);
    // The answers are `add` whole, as a brief prompt asks.
    let script = Script::new()
        .content("```python\ndef add(a, b):\n    return abs(a) + b\n```\n")
        .content("```python\ndef add(a, b):\n    return a + b\n```\n");
    let server = ScriptedServer::start(script).unwrap();
    let summary = execute(&fix_tests_options(&fx, &server.url()), &NoProgress).unwrap();
    let s = summary.subtasks().next().unwrap();
    assert_eq!(s.status, SubtaskStatus::Committed, "{s:#?}");
    assert_eq!(s.attempts, 2, "{s:#?}");
    assert_eq!(git(r, &["show", "sg/loop:calc.py"]), FIXED_CALC);
    // The first attempt's findings, which the retry hears, name the broken test and show
    // what it printed.
    let heard = &s.attempt_log[0].feedback;
    assert!(heard.contains("test_add_to_negative"), "{heard}");
    assert!(heard.contains("2 != -2"), "{heard}");
    assert_eq!(server.chat_requests().len(), 2);
}
