//! Properties of the search/replace matcher chain over random files and random search texts:
//! an edit lands in one place or nowhere, and no byte outside the matched region changes.

use proptest::prelude::*;
use slopguard_change::matcher::{LocateError, Matcher, locate};

/// Lines from a small vocabulary, so repeats (and so ambiguity) are common.
fn file_lines() -> impl Strategy<Value = Vec<String>> {
    let line = (
        prop::sample::select(vec!["", "  ", "    ", "\t"]),
        prop::sample::select(vec![
            "x = 1",
            "y = x",
            "return y",
            "def f():",
            "}",
            "",
            "if a  == b:",
            "pass",
            "\u{e9}t\u{e9}",
            "s = '\\u0300'",
        ]),
        prop::sample::select(vec!["", " ", "\r"]),
    )
        .prop_map(|(indent, body, tail)| format!("{indent}{body}{tail}"));
    prop::collection::vec(line, 0..24)
}

/// Occurrences of `needle` in `hay`, overlapping ones included.
fn occurrences(hay: &str, needle: &str) -> usize {
    (0..hay.len())
        .filter(|&i| hay.is_char_boundary(i) && hay[i..].starts_with(needle))
        .count()
}

/// A search text: a window of the file, perturbed or not, or unrelated lines.
fn search_for(lines: &[String], pick: (usize, usize, u8)) -> String {
    let (a, len, how) = pick;
    if lines.is_empty() {
        return "x = 1\n".into();
    }
    let a = a % lines.len();
    let b = (a + 1 + len % 4).min(lines.len());
    let window = &lines[a..b];
    let text = match how % 4 {
        0 => window.join("\n"),
        1 => window
            .iter()
            .map(|l| l.trim())
            .collect::<Vec<_>>()
            .join("\n"),
        2 => window
            .iter()
            .map(|l| format!("  {l}"))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => "pass\nreturn y".into(),
    };
    format!("{text}\n")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn one_place_or_none_and_nothing_outside_changes(
        lines in file_lines(),
        pick in (0usize..64, 0usize..64, 0u8..8),
        final_newline in any::<bool>(),
    ) {
        let mut content = lines.join("\n");
        if final_newline && !content.is_empty() {
            content.push('\n');
        }
        let search = search_for(&lines, pick);
        let marker = "\u{e000}REPLACED\u{e000}";
        let exact_count = occurrences(&content, &search);
        match locate(&content, &search, marker) {
            Ok(at) => {
                prop_assert!(at.start <= at.end && at.end <= content.len());
                prop_assert!(content.is_char_boundary(at.start) && content.is_char_boundary(at.end));
                let out = format!("{}{}{}", &content[..at.start], at.replacement, &content[at.end..]);
                // The replacement is written once, and everything around the region is kept.
                prop_assert_eq!(occurrences(&out, "REPLACED"), 1);
                prop_assert!(out.starts_with(&content[..at.start]));
                prop_assert!(out.ends_with(&content[at.end..]));
                // A search text that occurs verbatim more than once is never applied.
                prop_assert!(exact_count <= 1, "applied a search that occurs {} times", exact_count);
                if exact_count == 1 {
                    prop_assert_eq!(at.matcher, Matcher::Exact);
                    prop_assert_eq!(&content[at.start..at.end], search.as_str());
                }
            }
            Err(LocateError::Ambiguous { lines, .. }) => prop_assert!(lines.len() >= 2),
            Err(LocateError::NotFound { .. }) => prop_assert_eq!(exact_count, 0),
            Err(LocateError::EmptySearch) => prop_assert!(search.trim().is_empty()),
        }
    }
}
