//! The repair-template phase's queue, places and pointers.
use super::places::{
    MAX_EXTENDED, MAX_INSERTIONS, add_unless_held, callees, enclosing_loop, interleave,
    literal_value, one_hop, queue, sources, sweep, with_constants_read,
};
use super::*;

/// A tree of one file.
fn one_file(path: &str, text: &str) -> slopguard_change::MemTree {
    slopguard_change::MemTree::new(
        [(path.to_string(), text.as_bytes().to_vec())]
            .into_iter()
            .collect(),
    )
}

#[test]
fn a_hang_is_looked_for_in_the_loop_it_hung_in() {
    let python = "def f(seq, n):\n    lo, hi = 0, n\n    while lo < hi:\n        mid = (lo + hi) // 2\n        if seq[mid]:\n            hi = mid\n        else:\n            lo = mid\n    return lo\n";
    // Cut at the loop's header, or anywhere in its body: the whole loop.
    assert_eq!(enclosing_loop(python, 3), Some((3, 8)));
    assert_eq!(enclosing_loop(python, 5), Some((3, 8)));
    // Outside any loop.
    assert_eq!(enclosing_loop(python, 2), None);
    let go = "func f(xs []int) int {\n\ti := 0\n\tfor i < len(xs) {\n\t\tif xs[i] > 0 {\n\t\t\tbreak\n\t\t}\n\t}\n\treturn i\n}\n";
    assert_eq!(enclosing_loop(go, 4), Some((3, 6)));
    // A name that starts with a keyword is not a loop.
    assert_eq!(enclosing_loop("format = 1\nfor_each(x)\n    y\n", 2), None);
}

#[test]
fn insertions_come_after_every_few_token_fixes_and_the_rest_at_the_end() {
    assert_eq!(
        interleave(vec![1, 2, 3, 4, 5, 6, 7], vec![10, 20, 30], 3),
        vec![1, 2, 3, 10, 4, 5, 6, 20, 7, 30]
    );
    assert_eq!(interleave(vec![1], Vec::new(), 3), vec![1]);
    assert_eq!(interleave(Vec::new(), vec![10, 20], 3), vec![10, 20]);
}

#[test]
fn the_queue_starts_with_the_capped_sweep_and_goes_on_with_a_wider_one() {
    // A long function: more one-token fixes than the cap.
    let mut python = String::from("def f(xs, n, m):\n    total = 0\n");
    for i in 0..40 {
        python.push_str(&format!(
            "    if xs[{i}] < n + {i} and m > {i}:\n        total += xs[{i}] * 2\n"
        ));
    }
    python.push_str("    return total\n");
    let lines = python.lines().count();
    let tree = one_file("f.py", &python);
    let places = vec![(
        "f.py".to_string(),
        templates::Places {
            lead: Some((1, lines)),
            regions: vec![(1, lines)],
            ..Default::default()
        },
    )];
    let capped = sweep(&sources(&places, &tree), MAX_TEMPLATES, MAX_INSERTIONS);
    let queued = queue(&places, &tree);
    let all = &queued.fixes;
    assert_eq!(queued.wider, all.len() - capped.len());
    // The capped sweep keeps room for insertions this function has none of: 64 token
    // fixes.
    assert_eq!(capped.len(), MAX_TEMPLATES - MAX_INSERTIONS);
    // What a slow suite reaches does not depend on the wider sweep, which goes on past the
    // room the capped one left.
    assert_eq!(all[..capped.len()], capped[..]);
    assert!(
        all.len() > MAX_TEMPLATES && all.len() <= MAX_EXTENDED,
        "{}",
        all.len()
    );
    // Each change once.
    let keys: std::collections::BTreeSet<_> =
        all.iter().map(|f| (f.line, f.after.clone())).collect();
    assert_eq!(keys.len(), all.len());
}

/// A queue of `fixes` over an empty tree, none tried yet.
fn queue_of(fixes: Vec<templates::TemplateFix>) -> TemplateQueue {
    TemplateQueue {
        tree: Arc::new(slopguard_change::MemTree::default()),
        fixes,
        wider: 0,
        next: 0,
        spent: Duration::ZERO,
        limit: Duration::from_secs(60),
        refused_statically: 0,
        evaluated: 0,
        changed_behaviour: 0,
        alternatives_run: 0,
        reported: false,
        pointers: Pointers::default(),
        near_misses: Arc::default(),
    }
}

#[test]
fn infills_go_before_the_untried_templates_in_the_order_they_came() {
    let fix = |operator, after: &str| templates::TemplateFix {
        path: "m.py".into(),
        line: 1,
        operator,
        before: "a".into(),
        after: after.into(),
        text: format!("{after}\n"),
    };
    let mut queue = queue_of(vec![
        fix(templates::Operator::Comparison, "tried"),
        fix(templates::Operator::Comparison, "t1"),
        fix(templates::Operator::OffByOne, "t2"),
    ]);
    queue.next = 1;
    queue.put_first(vec![fix(templates::Operator::Infill, "i1")]);
    queue.put_first(vec![fix(templates::Operator::Infill, "i2")]);
    let order: Vec<&str> = queue.fixes[queue.next..]
        .iter()
        .map(|f| f.after.as_str())
        .collect();
    assert_eq!(order, ["i1", "i2", "t1", "t2"]);
    // The infills queued are still to judge, for the infill calls waiting on their verdicts.
    let near_misses = queue.near_misses();
    near_misses.done();
    assert!(near_misses.any_unjudged(), "one of the two left");
    near_misses.done();
    assert!(!near_misses.any_unjudged());
}

#[test]
fn a_one_token_template_that_made_failing_tests_pass_points_at_its_statement() {
    let queue = queue_of(Vec::new());
    let fix = |line, operator| templates::TemplateFix {
        path: "m.py".into(),
        line,
        operator,
        before: "a".into(),
        after: "b".into(),
        text: "b\n".into(),
    };
    queue.point_at(2, &fix(3, templates::Operator::Comparison), 0, Some(0));
    queue.point_at(
        2,
        &fix(4, templates::Operator::InsertedStatement),
        2,
        Some(0),
    );
    queue.point_at(2, &fix(5, templates::Operator::Infill), 2, Some(0));
    queue.point_at(2, &fix(6, templates::Operator::OffByOne), 1, Some(3));
    let pointers = queue.pointers().lock().unwrap().clone();
    assert_eq!(
        pointers,
        [Pointer {
            path: "m.py".into(),
            line: 6,
            fixed_share: 0.5,
            broke: 3
        }]
    );
}
#[test]
fn the_alternatives_of_a_win_change_its_statement_otherwise() {
    let fix = |line, after: &str| templates::TemplateFix {
        path: "a.py".into(),
        line,
        operator: templates::Operator::Comparison,
        before: "if age > 18:".into(),
        after: after.into(),
        text: format!("{line}: {after}\n"),
    };
    let winner = fix(2, "if age >= 18:");
    let untried = [
        // The same change again (an infill that wrote the template's line).
        fix(2, "if age >= 18:"),
        // The same meaning over integers.
        fix(2, "if age > 17:"),
        fix(2, "if age != 18:"),
        // Another statement.
        fix(3, "return 1"),
        fix(2, "if not (age > 18):"),
    ];
    let after: Vec<String> = alternatives(&untried, &winner)
        .into_iter()
        .map(|f| f.after)
        .collect();
    assert_eq!(after, ["if age != 18:", "if not (age > 18):"]);
}

#[test]
fn an_infill_is_judged_after_the_templates_time_is_spent_and_a_template_is_not() {
    let fix = |operator| templates::TemplateFix {
        path: "m.py".into(),
        line: 1,
        operator,
        before: "a".into(),
        after: "b".into(),
        text: "b\n".into(),
    };
    let (infill, template) = (
        fix(templates::Operator::Infill),
        fix(templates::Operator::Comparison),
    );
    let (spent, limit) = (Duration::from_secs(181), Duration::from_secs(180));
    assert!(!out_of_time_or_fixes(Some(&infill), spent, limit));
    assert!(out_of_time_or_fixes(Some(&template), spent, limit));
    assert!(!out_of_time_or_fixes(
        Some(&template),
        Duration::ZERO,
        limit
    ));
    assert!(out_of_time_or_fixes(None, Duration::ZERO, limit));
}

#[test]
fn the_phase_takes_a_third_of_the_budget_at_most_three_minutes() {
    assert_eq!(
        time_limit(Duration::from_secs(300)),
        Duration::from_secs(100)
    );
    assert_eq!(time_limit(Duration::from_secs(600)), MAX_TIME);
}

#[test]
fn a_frames_statement_is_a_region_only_outside_every_definition() {
    let mut by_path = vec![
        ("a.py".to_string(), Vec::new()),
        ("b.py".to_string(), vec![(1, 10)]),
    ];
    // Inside a definition of its file: that definition is its region.
    add_unless_held(&mut by_path, "b.py", (4, 5));
    // Outside any (a helper no test calls): the statement alone.
    add_unless_held(&mut by_path, "a.py", (7, 7));
    add_unless_held(&mut by_path, "b.py", (12, 12));
    assert_eq!(
        by_path,
        [
            ("a.py".to_string(), vec![(7, 7)]),
            ("b.py".to_string(), vec![(1, 10), (12, 12)]),
        ]
    );
}

#[test]
fn callees_are_the_definitions_an_exercised_one_mentions() {
    let src = "def helper(x):\n    return x\n\n\ndef other():\n    return 1\n\n\ndef f(x):\n    return helper(x) + 1\n";
    let tree = one_file("m.py", src);
    let got = callees(&[("m.py".into(), "f".into(), 9, 10)], &tree);
    assert_eq!(got.get("m.py").map(Vec::as_slice), Some(&[(1, 2)][..]));
}

#[test]
fn a_helper_a_target_calls_is_one_hop_away_too() {
    // unindent's shape: the tests call the trait method, which calls `unindent`; the
    // coverage's target `lines_of` calls the helper `split_lines` that holds the bug.
    let src = "fn split_lines(s: &[u8]) -> Vec<&[u8]> {\n    s.split(|b| *b == b'\\n').collect()\n}\n\nfn lines_of(s: &[u8]) -> usize {\n    split_lines(s).len()\n}\n\npub fn unindent(s: &str) -> usize {\n    lines_of(s.as_bytes())\n}\n";
    let tree = one_file("src/lib.rs", src);
    let exercised = [("src/lib.rs".to_string(), "unindent".to_string(), 9, 11)];
    let target = worker::context::FunctionTarget {
        path: "src/lib.rs".into(),
        name: "lines_of".into(),
        start: 5,
        end: 7,
    };
    let ranges = |targets: &[worker::context::FunctionTarget]| {
        one_hop(&exercised, targets, &tree)
            .into_iter()
            .map(|(_, r)| r)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        ranges(&[]),
        [(5, 7)],
        "what the tests call reaches the target"
    );
    assert_eq!(
        ranges(&[target]),
        [(5, 7), (1, 3)],
        "the target reaches the helper"
    );
}

#[test]
fn a_near_miss_message_is_what_the_failing_tests_print_now_and_did_not_before() {
    let before = "FAILED tests/test_r.py::test_range - AssertionError: no error raised\nE   AssertionError: no error raised\n";
    let now = "FAILED tests/test_r.py::test_range - AssertionError: 'beginning of range' != 'beyond end of range'\nE   AssertionError: 'beginning of range' != 'beyond end of range'\n";
    let lines = new_message_lines(now, before);
    assert!(!lines.is_empty());
    assert!(
        lines.iter().all(|l| l.contains("beyond end of range")),
        "{lines:?}"
    );
    // The same message as at the baseline: nothing new, no near miss.
    assert!(new_message_lines(before, before).is_empty());
}

#[test]
fn a_literal_constant_a_focus_statement_reads_is_tried_with_it() {
    // rle's shape: the limit is one off on a line no coverage records.
    let src = "const MAX_PACKET: usize = 129;\nconst NAME: &str = \"rle\";\nstatic TABLE: [u8; 2] = [1, 2];\n\nfn run_length(data: &[u8]) -> usize {\n    let first = data[0];\n    data.iter()\n        .take(MAX_PACKET)\n        .take_while(|&&b| b == first)\n        .count()\n}\n\nfn name() -> &'static str {\n    NAME\n}\n";
    let tree = one_file("src/lib.rs", src);
    let at = |path: &str, range: (usize, usize)| (path.to_string(), range);
    // Right after the statement that reads it; `NAME` is read elsewhere, `TABLE`'s value is
    // no literal.
    let focus = vec![at("src/lib.rs", (7, 10)), at("src/lib.rs", (6, 6))];
    assert_eq!(
        with_constants_read(focus, &tree),
        [
            at("src/lib.rs", (7, 10)),
            at("src/lib.rs", (1, 1)),
            at("src/lib.rs", (6, 6))
        ]
    );
    // A constant a focus range holds is tried with it already.
    let whole = vec![at("src/lib.rs", (1, 10))];
    assert_eq!(with_constants_read(whole.clone(), &tree), whole);
    // Python module constants too, each once.
    let py = "LIMIT = 10\nDEBUG = False\nPATTERN = re.compile('x')\n\n\ndef page(n):\n    return min(n, LIMIT) if DEBUG else PATTERN\n";
    let tree = one_file("m.py", py);
    let focus = vec![at("m.py", (7, 7)), at("m.py", (6, 7))];
    assert_eq!(
        with_constants_read(focus, &tree),
        [
            at("m.py", (7, 7)),
            at("m.py", (1, 1)),
            at("m.py", (2, 2)),
            at("m.py", (6, 7))
        ]
    );
}

#[test]
fn a_literal_value_is_a_number_a_string_or_a_boolean() {
    for line in [
        "const A: usize = 129;",
        "LIMIT = -1.5e3",
        "const k = 'keep';",
        "X = True",
        "const N = 0x7F,",
    ] {
        assert!(literal_value(line), "{line}");
    }
    for line in [
        "const A: [u8; 2] = [1, 2];",
        "X = f(1)",
        "const a = b + 1;",
        "fn f() {}",
        "S = 'a' + 'b'",
    ] {
        assert!(!literal_value(line), "{line}");
    }
}
