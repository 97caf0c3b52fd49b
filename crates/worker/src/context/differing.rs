//! The names whose values differ between what a failing test expected and what it got.
//!
//! When a test compares a record (a struct, a dict, an object) and the runner prints both
//! sides, the fields that differ say which value the code computed wrong:
//! `left: Date { year: 2024, month: 2, day: 31 }` against `right: Date { year: 2024, month:
//! 2, day: 29 }` points at the statement that computes `day`, not at the ones that compute
//! `year` and `month`, though every test runs all three (so no coverage tells them apart).
//! Value-based fault localisation uses the same evidence: the part of the output that is
//! wrong, traced back to what wrote it.
//!
//! Pure text work over the failure's message lines ([`super::failure_message`]): each side
//! of a comparison is read as `key: value` pairs (`key: v`, `key=v`, `'key': v`, `"key" =>
//! v`, Go's `Key:v`), and a key both sides give with different values differs.
//! [`assigns_one_of`] says whether a statement writes one of them.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use regex::Regex;

use crate::templates::lexer::{Kind, Lang, code_tokens};

/// Labels that open one side of a comparison on its own line (cargo's `left:`/`right:`,
/// minitest's and Jest's `Expected:`/`Actual:`/`Received:`, `got:`/`want:`), lower-cased.
const SIDE_LABELS: [&str; 7] = [
    "left:",
    "right:",
    "expected:",
    "actual:",
    "received:",
    "got:",
    "want:",
];

/// The keys whose values differ between the first two sides of a comparison in `message`
/// (a failure's message lines, as [`super::failure_message`] gives them) that both hold
/// `key: value` pairs, in the order the first side gives them, each once. Empty when no two
/// such sides are found, or when every key of three or more differs (two unrelated records:
/// no field stands out).
pub fn differing_names(message: &[String]) -> Vec<String> {
    let sides: Vec<Vec<(String, String)>> = message
        .iter()
        .flat_map(|line| sides_of(line))
        .map(|side| pairs(&side))
        .filter(|p| !p.is_empty())
        .take(2)
        .collect();
    let [first, second] = sides.as_slice() else {
        return Vec::new();
    };
    let values = |side: &[(String, String)]| {
        let mut by_key: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (k, v) in side {
            by_key.entry(k.clone()).or_default().push(v.clone());
        }
        by_key
    };
    let (a, b) = (values(first), values(second));
    let shared = a.keys().filter(|k| b.contains_key(*k)).count();
    let mut out: Vec<String> = Vec::new();
    for (key, _) in first {
        if b.get(key).is_some_and(|v| v != &a[key]) && !out.contains(key) {
            out.push(key.clone());
        }
    }
    if shared >= 3 && out.len() == shared {
        return Vec::new();
    }
    out
}

/// The sides of a comparison one message line gives: the text after a label
/// ([`SIDE_LABELS`]), both operands of `==`/`!=` (pytest's `assert a == b`, unittest's
/// `a != b`), Go's `got X, want Y`; else none.
fn sides_of(line: &str) -> Vec<String> {
    let t = line.trim();
    let lower = t.to_ascii_lowercase();
    if let Some(label) = SIDE_LABELS.iter().find(|l| lower.starts_with(*l)) {
        return vec![t[label.len()..].to_string()];
    }
    for op in [" == ", " != "] {
        if let Some((a, b)) = t.split_once(op) {
            return vec![a.to_string(), b.to_string()];
        }
    }
    if let Some(c) = got_want().captures(t) {
        return vec![c[1].to_string(), c[2].to_string()];
    }
    Vec::new()
}

/// Go's `got X, want Y` (also `got X want Y`, `got: X, want: Y`).
fn got_want() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\bgot:?\s+(.+?),?\s+want:?\s+(.+)$").expect("valid regex"))
}

/// The `key: value` pairs of one side, in order: a key (a name, quoted or a Ruby symbol)
/// after an opening bracket, a comma or a space, then `:`, `=>` or `=`, then a value (a
/// quoted string, or what runs to the next space, comma or bracket). A `::` path or an `==`
/// is not a pair.
fn pairs(side: &str) -> Vec<(String, String)> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r#"(?:^|[\s{(\[,])[:"']?([A-Za-z_][A-Za-z0-9_]*)["']?\s*(=>|:|=)\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^,{}\[\]()\s]+)"#,
        )
        .expect("valid regex")
    });
    re.captures_iter(side)
        .filter(|c| !c[3].starts_with([':', '=', '>']))
        .map(|c| (c[1].to_ascii_lowercase(), c[3].to_string()))
        .collect()
}

/// Whether the statement `statement` (its first line; a file at `path`) assigns one of
/// `names` as a whole (`day = ...`, `let day = ...`, `self.day = ...`, `@day = ...`, `day :=
/// ...`, `day += ...`), comparing names without case (Go prints `Day` for a field the code
/// computes as `day`).
pub fn assigns_one_of(statement: &str, path: &str, names: &[String]) -> bool {
    if names.is_empty() {
        return false;
    }
    let line = statement.lines().next().unwrap_or_default();
    let toks = code_tokens(line, Lang::of(path));
    let text = |i: usize| toks.get(i).map_or("", |t| &line[t.start..t.end]);
    let mut k = 0;
    while matches!(text(k), "let" | "mut" | "var" | "const" | "@") {
        k += 1;
    }
    // A target of names joined by dots (`self.day`): its last name is the one assigned.
    let mut target = None;
    while toks.get(k).is_some_and(|t| t.kind == Kind::Ident) {
        target = Some(text(k));
        if text(k + 1) != "." {
            k += 1;
            break;
        }
        k += 2;
    }
    let Some(target) = target else {
        return false;
    };
    let assigning = matches!(
        text(k),
        "=" | ":=" | "+=" | "-=" | "*=" | "/=" | "%=" | "||=" | "&&=" | "**=" | "//="
    ) || (text(k) == ":" && toks[k..].iter().any(|t| &line[t.start..t.end] == "="));
    assigning && names.iter().any(|n| n.eq_ignore_ascii_case(target))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &[&str]) -> Vec<String> {
        s.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn the_field_a_rust_struct_comparison_differs_in_is_named() {
        let message = lines(&[
            "assertion `left == right` failed",
            "left: Date { year: 2024, month: 2, day: 31 }",
            "right: Date { year: 2024, month: 2, day: 29 }",
        ]);
        assert_eq!(differing_names(&message), ["day"]);
    }

    #[test]
    fn python_dicts_go_structs_and_ruby_hashes_are_read() {
        let py = lines(&["assert {'a': 1, 'b': 'x y'} == {'a': 1, 'b': 'x z'}"]);
        assert_eq!(differing_names(&py), ["b"]);
        let go = lines(&["got {Year:2024 Month:2 Day:31}, want {Year:2024 Month:3 Day:31}"]);
        assert_eq!(differing_names(&go), ["month"]);
        let rb = lines(&[
            "Expected: {:total=>3, :count=>1}",
            "  Actual: {:total=>4, :count=>1}",
        ]);
        assert_eq!(differing_names(&rb), ["total"]);
    }

    #[test]
    fn no_names_without_two_sides_or_when_every_field_differs() {
        assert!(differing_names(&lines(&["assert 3 == 4"])).is_empty());
        assert!(differing_names(&lines(&["left: Some(x::y)", "right: None"])).is_empty());
        let unrelated = lines(&[
            "left: P { a: 1, b: 2, c: 3 }",
            "right: P { a: 4, b: 5, c: 6 }",
        ]);
        assert!(differing_names(&unrelated).is_empty());
    }

    #[test]
    fn a_statement_assigning_a_differing_name_is_recognised() {
        let names = vec!["day".to_string()];
        assert!(assigns_one_of("let day = self.day;", "src/lib.rs", &names));
        assert!(assigns_one_of("self.day += 1", "m.py", &names));
        assert!(assigns_one_of("Day := d % 7", "m.go", &names));
        assert!(assigns_one_of("let day: u8 = 3;", "src/lib.rs", &names));
        assert!(!assigns_one_of("if day == 3 {", "src/lib.rs", &names));
        assert!(!assigns_one_of("let month = day;", "src/lib.rs", &names));
        assert!(!assigns_one_of("days[i] = 0", "m.py", &names));
    }
}
