//! The infill phase: which holes are asked, in what order, and near misses asked again.

use super::super::carry::{NearMiss, NearMisses};
use super::*;

fn line(start: usize) -> FaultLine {
    FaultLine {
        path: "a.py".into(),
        start,
        end: start,
        text: format!("line {start}"),
        error: None,
        suspect_in: None,
    }
}

#[test]
fn the_frames_statement_then_the_suspects_are_asked_most_suspect_first_each_once() {
    let frame = line(40);
    let suspects = [line(30), line(40), line(12), line(20)];
    let starts: Vec<usize> = statements_to_ask(Some(&frame), &suspects)
        .iter()
        .map(|l| l.start)
        .collect();
    assert_eq!(starts, [40, 30, 12, 20]);
    let starts: Vec<usize> = statements_to_ask(None, &suspects)
        .iter()
        .map(|l| l.start)
        .collect();
    assert_eq!(starts, [30, 40, 12, 20]);
}

const PY: &str =
    "def f(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total\n";

/// The lines of the holes `server` was asked for, in order (the prompts' line before the
/// hole names it).
fn holes_asked(server: &scripted_llm::ScriptedServer) -> Vec<&'static str> {
    server
        .requests()
        .iter()
        .filter(|q| q.path.ends_with("/v1/completions"))
        .map(|q| {
            let prompt = q.body["prompt"].as_str().unwrap_or_default();
            match () {
                _ if prompt.contains("    total = 0\n    for x in xs:\n        <|fim_suffix|>") => {
                    "add"
                }
                _ if prompt.contains("<|fim_suffix|>\n    for x in xs:") => "start",
                _ => "other",
            }
        })
        .collect()
}

/// Runs [`ask_all`] over statements 4 (`total += x`) then 2 (`total = 0`) of [`PY`], the
/// model answering `first` then `then` to every later call.
fn ask_statements(first: &[&str], then: &str) -> Vec<&'static str> {
    let script = first
        .iter()
        .copied()
        .chain(std::iter::repeat_n(then, 20))
        .fold(scripted_llm::Script::new(), |s, c| s.completion(c));
    let server = scripted_llm::ScriptedServer::start(script).unwrap();
    ask_all_of(&server, PY, false);
    holes_asked(&server)
}

/// Runs [`ask_all`] on `text` (in place of [`PY`], the same statements asked) against
/// `server`; `error_expected` as the failure would say.
fn ask_all_of(server: &scripted_llm::ScriptedServer, text: &str, error_expected: bool) {
    ask_all_judged(server, text, error_expected, |_| None);
}

/// [`ask_all_of`], each answer judged on another thread by `near_miss`: the message lines
/// the tests would print with the answer's change, when it is a near miss.
fn ask_all_judged(
    server: &scripted_llm::ScriptedServer,
    text: &str,
    error_expected: bool,
    near_miss: impl Fn(&str) -> Option<Vec<String>> + Send,
) {
    let client = BlockingClient::new(slopguard_llm::LlmConfig::single(
        &server.url(),
        "scripted-model",
    ))
    .unwrap();
    let statement = |line| Statement {
        path: "a.py".into(),
        lines: (line, line),
        definition: (1, text.lines().count()),
    };
    let mut picker = HolePicker::new(
        FimFormat::Qwen,
        Vec::new(),
        BTreeMap::from([("a.py".to_string(), text.to_string())]),
        vec![statement(4), statement(2)],
        Vec::new(),
        Default::default(),
        error_expected,
    );
    let seeds: Vec<u64> = (0..60).collect();
    let (tx, rx) = mpsc::channel::<Asked>();
    let (give_up, sent) = (AtomicBool::new(false), AtomicUsize::new(0));
    let near_misses = NearMisses::default();
    let judged = std::thread::scope(|s| {
        let near_misses = &near_misses;
        let judge = s.spawn(move || {
            let mut judged = 0;
            for asked in rx.iter() {
                judged += 1;
                let middle = asked.reply.map(|r| r.content).unwrap_or_default();
                if let (Ok(fix), Some(message)) = (asked.request.fix(&middle), near_miss(&middle)) {
                    let miss = NearMiss {
                        text: fix.text,
                        fixed: 0,
                        message,
                    };
                    near_misses.found.lock().unwrap().push(miss);
                }
                near_misses.done();
            }
            judged
        });
        ask_all(
            &client,
            &mut picker,
            &seeds,
            (&give_up, &sent),
            near_misses,
            tx,
        );
        judge.join().unwrap()
    });
    assert_eq!(judged, sent.load(Ordering::Relaxed));
}

#[test]
fn a_near_miss_is_asked_again_with_its_answer_and_the_tests_message_above_the_definition() {
    let script = ["total -= x"]
        .into_iter()
        .chain(std::iter::repeat_n("total += x", 30))
        .fold(scripted_llm::Script::new(), |s, c| s.completion(c));
    let server = scripted_llm::ScriptedServer::start(script).unwrap();
    ask_all_judged(&server, PY, false, |middle| {
        (middle == "total -= x").then(|| vec!["assert -6 == 6".to_string()])
    });
    let note = "# Tried: total -= x\n# The test still fails:\n#   assert -6 == 6\ndef f(xs):\n";
    let prompts: Vec<String> = server
        .requests()
        .iter()
        .filter(|q| q.path.ends_with("/v1/completions"))
        .map(|q| q.body["prompt"].as_str().unwrap_or_default().to_string())
        .collect();
    let refined: Vec<usize> = (0..prompts.len())
        .filter(|&i| prompts[i].contains(note))
        .collect();
    assert_eq!(refined.len(), REFINED_TEMPERATURES.len(), "{prompts:#?}");
    assert!(refined[0] > 0, "asked after the answer it refines");
    assert!(
        prompts.iter().all(|p| p.matches("# Tried:").count() <= 1),
        "a refined answer is not refined again"
    );
}

#[test]
fn when_a_test_expected_an_error_the_gaps_around_the_checks_are_asked_first() {
    // `k` is checked on line 2; the check of `xs` is missing.
    let text = "def f(xs, k):\n    if k < 0:\n        raise ValueError(k)\n    total = 0\n    for x in xs:\n        total += x * k\n    return total\n";
    let hole_of = |q: &scripted_llm::RecordedRequest| {
        let prompt = q.body["prompt"].as_str().unwrap_or_default().to_string();
        let before = prompt.split("<|fim_suffix|>").next().unwrap_or_default();
        before
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or_default()
            .trim()
            .trim_start_matches("<|fim_prefix|>")
            .to_string()
    };
    for (expected, first_holes) in [
        (true, vec!["def f(xs, k):", "raise ValueError(k)"]),
        (false, vec![]),
    ] {
        let server = scripted_llm::ScriptedServer::start(
            (0..40).fold(scripted_llm::Script::new(), |s, _| s.completion("pass")),
        )
        .unwrap();
        ask_all_of(&server, text, expected);
        let asked: Vec<String> = server.requests().iter().map(hole_of).collect();
        let guard_answers = first_holes.len() * GUARD_GAP_TEMPERATURES.len();
        let firsts: Vec<&str> = asked[..guard_answers]
            .iter()
            .step_by(GUARD_GAP_TEMPERATURES.len())
            .map(String::as_str)
            .collect();
        assert_eq!(firsts, first_holes, "{asked:?}");
        // Then the statements as before: line 4 first, its value asked after `total = `.
        assert_eq!(asked[guard_answers], "total =", "{asked:?}");
    }
}

#[test]
fn a_statement_written_back_unchanged_twice_is_left_for_the_next() {
    let asked = ask_statements(&["total += x", "total += x"], "total = 1");
    let adds = asked.iter().filter(|h| **h == "add").count();
    let starts = asked.iter().filter(|h| **h == "start").count();
    assert_eq!(adds, 2, "left after two copies: {asked:?}");
    assert_eq!(&asked[..3], ["add", "add", "start"]);
    // The next statement is given the same change three times: left after the third.
    assert_eq!(starts, 3, "{asked:?}");
}

#[test]
fn a_statement_whose_change_is_repeated_twice_in_a_row_is_left_for_the_next() {
    // A change, then the same change twice: nothing new came after the first answer.
    let asked = ask_statements(&["total -= x", "total -= x", "total -= x"], "total = 1");
    assert_eq!(&asked[..4], ["add", "add", "add", "start"], "{asked:?}");
    // A copy after a change, then that change again: two stale answers in a row as well.
    let asked = ask_statements(&["total -= x", "total += x", "total -= x"], "total = 1");
    assert_eq!(&asked[..4], ["add", "add", "add", "start"], "{asked:?}");
}

#[test]
fn a_statement_whose_answers_keep_bringing_changes_gets_every_answer() {
    // Never two stale answers in a row: a copy, then a new change each time.
    let answers = [
        "total -= x",
        "total += x",
        "total *= x",
        "total += x",
        "total = x",
        "total += x",
    ];
    let asked = ask_statements(&answers[..TEMPERATURES.len()], "total += x");
    let adds = asked.iter().filter(|h| **h == "add").count();
    assert_eq!(adds, TEMPERATURES.len(), "{asked:?}");
    assert_eq!(asked[TEMPERATURES.len()], "start", "{asked:?}");
}

#[test]
fn the_gap_is_before_the_last_statement_of_a_known_definition() {
    assert_eq!(gap_to_ask(PY, (1, 5)), Some(5));
    assert_eq!(gap_to_ask(PY, (4, 4)), None, "no definition known");
}
