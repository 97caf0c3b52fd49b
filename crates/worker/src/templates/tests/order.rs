//! The order fixes come in: the focus, the lead, the other regions, cleared lines last.

use super::super::*;

#[test]
fn regions_order_the_lines_and_max_and_duplicates_bound_the_list() {
    let py = "def f(a, b):\n    x = a < b\n    y = a > b\n    return x\n";
    let first = fixes("m.py", py, &Places::regions(&[(3, 3), (1, 4)]), 1);
    assert_eq!(first[0].line, 3);
    assert_eq!(first[0].describe(), "`y = a > b` -> `y = a >= b`");
    assert!(first[0].text.contains("y = a >= b\n"));
    let all = fixes("m.py", py, &Places::regions(&[(1, 4), (1, 4)]), 1000);
    let texts: BTreeSet<&String> = all.iter().map(|f| &f.text).collect();
    assert_eq!(texts.len(), all.len());
}

#[test]
fn the_focus_gets_every_operator_before_the_regions_get_any() {
    let py = "def f(a, b):\n    if a < b:\n        raise ValueError(a)\n    return a < b\n";
    let places = Places {
        focus: vec![(2, 3)],
        focus_limit: None,
        lead: None,
        regions: vec![(1, 4)],
        cleared: BTreeSet::new(),
    };
    let all = fixes("m.py", py, &places, 1000);
    let lines: Vec<usize> = all.iter().map(|f| f.line).collect();
    let first_elsewhere = lines.iter().position(|l| *l == 4).unwrap();
    assert!(
        lines[..first_elsewhere].iter().all(|l| *l == 2 || *l == 3),
        "{lines:?}"
    );
    assert_eq!(lines[0], 3, "the frame's own line comes first: {lines:?}");
    assert!(
        all[..first_elsewhere]
            .iter()
            .any(|f| f.operator == Operator::Negation)
    );
}

#[test]
fn several_focus_statements_are_tried_in_their_order_each_with_every_operator() {
    let py = "def f(a, b):\n    if a < b:\n        return a + 1\n    return a < b\n";
    let places = Places {
        focus: vec![(4, 4), (2, 2)],
        focus_limit: None,
        lead: None,
        regions: vec![(1, 4)],
        cleared: BTreeSet::new(),
    };
    let lines: Vec<usize> = fixes("m.py", py, &places, 1000)
        .iter()
        .map(|f| f.line)
        .collect();
    let first_of = |line: usize| lines.iter().position(|l| *l == line).unwrap();
    let last_of = |line: usize| lines.iter().rposition(|l| *l == line).unwrap();
    assert!(last_of(4) < first_of(2), "{lines:?}");
    assert!(last_of(2) < first_of(3), "{lines:?}");
}

#[test]
fn a_limited_focus_gives_each_statement_its_first_fixes_and_the_rest_later() {
    let py = "def f(a, b, c):\n    if a < b:\n        return a + c\n    return b - c\n";
    let unlimited = Places {
        focus: vec![(3, 3), (2, 2)],
        focus_limit: None,
        lead: None,
        regions: vec![(1, 4)],
        cleared: BTreeSet::new(),
    };
    let all = fixes("m.py", py, &unlimited, 1000);
    let limited = Places {
        focus_limit: Some(2),
        ..unlimited
    };
    let some = fixes("m.py", py, &limited, 1000);
    let lines: Vec<usize> = some.iter().map(|f| f.line).collect();
    assert_eq!(lines[..4], [3, 3, 2, 2], "{lines:?}");
    // Nothing lost and nothing twice: the focus lines' other fixes come in the sweep.
    let texts = |fs: &[TemplateFix]| {
        let mut t: Vec<String> = fs.iter().map(|f| f.text.clone()).collect();
        t.sort();
        t
    };
    assert!(all.iter().filter(|f| f.line == 3).count() > 2);
    assert_eq!(texts(&some), texts(&all));
}

#[test]
fn the_lead_is_tried_operators_ahead_of_the_other_regions() {
    // `span` (lines 5-6) is the lead; `head` (lines 1-2) is a region tried after it.
    let py = "def head(xs):\n    return xs[0] < 2\n\n\ndef span(r):\n    return r.end - r.start\n";
    let places = Places {
        focus: Vec::new(),
        focus_limit: None,
        lead: Some((5, 6)),
        regions: vec![(1, 2), (5, 6)],
        cleared: BTreeSet::new(),
    };
    let all = fixes("m.py", py, &places, 1000);
    let at = |line: usize, op: Operator| {
        all.iter()
            .position(|f| f.line == line && f.operator == op)
            .unwrap_or_else(|| panic!("no {op:?} at line {line}: {all:?}"))
    };
    // The lead's eighth operator (arithmetic) comes before the other region's first, and its
    // last ones after it.
    assert!(at(6, Operator::Arithmetic) < at(2, Operator::Comparison));
    assert!(at(2, Operator::Comparison) < at(6, Operator::OtherMember));
    assert!(
        all[..at(2, Operator::Comparison)]
            .iter()
            .all(|f| f.line == 6)
    );
    // Without a lead, the first operator goes over every region first.
    let flat = fixes("m.py", py, &Places::regions(&[(1, 2), (5, 6)]), 1000);
    assert_eq!(flat[0].line, 2, "{flat:?}");
}

#[test]
fn a_long_lead_is_ahead_by_fewer_operators() {
    // `span`'s lines (5-14) make many fixes per operator: the other region's first operator
    // comes after at most LEAD_HEAD_START of them, not after eight operators' worth.
    let mut py = String::from("def head(xs):\n    return xs[0] < 2\n\n\ndef span(r, lo, hi):\n");
    for k in 0..9 {
        py.push_str(&format!(
            "    a{k} = lo + {k} < hi - 1 and r.end - r.start >= {k}\n"
        ));
    }
    let places = Places {
        focus: Vec::new(),
        focus_limit: None,
        lead: Some((5, 14)),
        regions: vec![(1, 2), (5, 14)],
        cleared: BTreeSet::new(),
    };
    let all = fixes("m.py", &py, &places, 1000);
    let ops: Vec<(usize, Operator)> = all.iter().map(|f| (f.line, f.operator)).collect();
    let first_other = ops
        .iter()
        .position(|(line, _)| *line <= 2)
        .unwrap_or_else(|| panic!("no fix of head: {ops:?}"));
    // More than LEAD_HEAD_START comparisons in the lead: it is ahead by that one operator.
    assert!(first_other > LEAD_HEAD_START, "{ops:?}");
    assert!(
        ops[..first_other]
            .iter()
            .all(|(_, op)| *op == Operator::Comparison)
    );
    assert_eq!(ops[first_other].1, Operator::Comparison, "{ops:?}");
    // Then the lead's second operator, before the other region's.
    let lead_again = first_other
        + ops[first_other..]
            .iter()
            .position(|(l, _)| *l >= 5)
            .unwrap();
    assert_eq!(ops[lead_again].1, Operator::OffByOne, "{ops:?}");
    assert!(
        ops[first_other..lead_again]
            .iter()
            .all(|(_, op)| *op == Operator::Comparison)
    );
}

#[test]
fn cleared_lines_come_after_every_other_line() {
    // Line 3 only the passing tests ran: its comparison comes after line 2's last operator.
    let py = "def f(a, b):\n    x = a + b\n    y = a < b\n    return x\n";
    let places = Places {
        regions: vec![(1, 4)],
        cleared: BTreeSet::from([3]),
        ..Places::default()
    };
    let all = fixes("m.py", py, &places, 1000);
    let first_cleared = all.iter().position(|f| f.line == 3).expect("line 3 tried");
    assert!(first_cleared > 0);
    assert!(all[first_cleared..].iter().all(|f| f.line == 3), "{all:?}");
    assert_eq!(all[first_cleared].operator, Operator::Comparison);
}
