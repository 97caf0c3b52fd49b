//! The reversed difference (`a - b` -> `b - a`).

use super::*;

#[test]
fn a_difference_that_stands_alone_is_taken_the_other_way_round() {
    let rb = "def f(exact)\n  exact.each_with_index.sort_by { |value, index| [value - value.floor, index] }\nend\n";
    assert_eq!(
        afters("m.rb", rb, Operator::ReversedDifference),
        ["exact.each_with_index.sort_by { |value, index| [value.floor - value, index] }"]
    );
    let js = "function f(xs) {\n  return xs.sort((a, b) => a.size() - b[0].size);\n}\n";
    assert_eq!(
        afters("a.js", js, Operator::ReversedDifference),
        ["return xs.sort((a, b) => b[0].size - a.size());"]
    );
    let py = "def age(now, born):\n    return now - born\n";
    assert_eq!(
        afters("m.py", py, Operator::ReversedDifference),
        ["return born - now"]
    );
    let go = "func f(a, b R) bool {\n\tif a.End - b.Start > 0 {\n\t\treturn true\n\t}\n\treturn false\n}\n";
    assert_eq!(
        afters("p.go", go, Operator::ReversedDifference),
        ["if b.Start - a.End > 0 {"]
    );
}

#[test]
fn a_difference_among_other_terms_or_with_a_number_is_left_alone() {
    for line in [
        "x = c + a - b",
        "x = a - b * c",
        "x = a - b + c",
        "x = -a - b",
        "x = len(a) - 1",
        "x = 2 - a",
        "x = a - a",
    ] {
        let py = format!("def f(a, b, c):\n    {line}\n");
        assert_eq!(
            afters("m.py", &py, Operator::ReversedDifference),
            Vec::<String>::new(),
            "{line}"
        );
    }
    // Rust's `as` binds tighter than `-`: `b as u64` is one term.
    // Nor is `?`: `c.d()?` is one term.
    for rs in [
        "fn f(a: u8, b: u8) -> u64 {\n    a - b as u64\n}\n",
        "fn f(a: A, c: C) -> Result<u64> {\n    Ok(a.b - c.d()?)\n}\n",
    ] {
        assert_eq!(
            afters("lib.rs", rs, Operator::ReversedDifference),
            Vec::<String>::new(),
            "{rs}"
        );
    }
    let rs = "fn f(a: u8, b: u8) -> u64 {\n    (a - b) as u64\n}\n";
    assert_eq!(
        afters("lib.rs", rs, Operator::ReversedDifference),
        ["(b - a) as u64"]
    );
}
