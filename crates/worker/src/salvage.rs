//! Salvage: a candidate's fix kept without its collateral.
//!
//! A small model asked for a whole file often rewrites the function it set out to fix
//! correctly and, on the way, drops the module's trailing docstring, a comment block or an
//! unrelated function. The guards refuse such a candidate whole (the deletion budget, dropped
//! definitions), and rightly: what lands must not lose code. But the fix inside it is worth
//! keeping. [`changed_definitions_only`] splices the definitions the candidate changed into the
//! original file, leaving everything else as it was; the result is a new candidate, judged
//! again by every guard and the tests like any other.

use slopguard_change::{ChangeKind, ChangeSet, FileChange};

use super::context;

/// `change` with each modified file reduced to the definitions it changed
/// ([`changed_definitions_only`]); other files as they are. `None` when no file could be
/// reduced. Also returns the definitions taken, `path: name` each.
pub fn salvage_change(change: &ChangeSet) -> Option<(ChangeSet, Vec<String>)> {
    let mut taken = Vec::new();
    let mut changes = Vec::with_capacity(change.changes.len());
    for c in &change.changes {
        let reduced = match (&c.kind, c.before_text(), c.after_text()) {
            (ChangeKind::Modify, Some(before), Some(after)) => {
                changed_definitions_only(&c.path, before, after)
            }
            _ => None,
        };
        match reduced {
            Some(s) => {
                taken.extend(s.definitions.iter().map(|d| format!("{}: {d}", c.path)));
                changes.push(FileChange::modify(
                    c.path.as_str(),
                    c.before.clone().unwrap_or_default(),
                    s.text,
                ));
            }
            None => changes.push(c.clone()),
        }
    }
    if taken.is_empty() {
        return None;
    }
    let mut salvaged = ChangeSet::new(change.base.clone(), changes, &change.source);
    salvaged.message = change.message.clone();
    Some((salvaged, taken))
}

/// A candidate reduced to the definitions it changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Salvaged {
    /// The original file with the changed definitions taken from the candidate.
    pub text: String,
    /// The definitions taken (their names), in file order.
    pub definitions: Vec<String>,
}

/// The original file (`original`, at `path`) with each definition that the candidate
/// (`candidate`) changed replaced by the candidate's version; definitions the candidate
/// dropped, and every line outside definitions, stay as they were. When a changed definition
/// holds another changed one (a class and its method), only the inner one is taken.
///
/// `None` when the candidate changed no definition the original has, or when the result would
/// be the candidate itself (nothing to salvage) or the original (nothing kept).
pub fn changed_definitions_only(path: &str, original: &str, candidate: &str) -> Option<Salvaged> {
    let before = context::definitions(path, original);
    let after = context::definitions(path, candidate);
    let o_lines: Vec<&str> = original.lines().collect();
    let c_lines: Vec<&str> = candidate.lines().collect();
    let slice = |lines: &[&str], a: u32, b: u32| -> Option<Vec<String>> {
        let (a, b) = (a as usize, (b as usize).min(lines.len()));
        (a >= 1 && a <= b).then(|| {
            lines[a - 1..b]
                .iter()
                .map(|l| l.trim_end().to_string())
                .collect()
        })
    };
    // (start, end, replacement lines, name) of each changed definition of the original.
    let mut changed: Vec<(usize, usize, Vec<String>, String)> = Vec::new();
    for (i, d) in before.iter().enumerate() {
        // The n-th definition of that name in each text (overloads, methods of one name).
        let nth = before[..i].iter().filter(|o| o.name == d.name).count();
        let Some(c) = after.iter().filter(|c| c.name == d.name).nth(nth) else {
            continue;
        };
        let (Some(old), Some(new)) = (
            slice(&o_lines, d.start_line, d.end_line),
            slice(&c_lines, c.start_line, c.end_line),
        ) else {
            continue;
        };
        if old != new {
            changed.push((
                d.start_line as usize,
                d.end_line as usize,
                new,
                d.name.clone(),
            ));
        }
    }
    let innermost: Vec<&(usize, usize, Vec<String>, String)> = changed
        .iter()
        .filter(|(a, b, _, _)| {
            !changed
                .iter()
                .any(|(x, y, _, _)| (x, y) != (a, b) && a <= x && y <= b)
        })
        .collect();
    if innermost.is_empty() {
        return None;
    }
    let mut out: Vec<String> = Vec::with_capacity(o_lines.len());
    let mut line = 1;
    let mut taken = Vec::new();
    for (a, b, new, name) in &innermost {
        if *a < line {
            continue; // overlapping ranges (should not happen for innermost ones)
        }
        out.extend(o_lines[line - 1..a - 1].iter().map(|l| l.to_string()));
        out.extend(new.iter().cloned());
        line = b + 1;
        taken.push(name.clone());
    }
    out.extend(
        o_lines[(line - 1).min(o_lines.len())..]
            .iter()
            .map(|l| l.to_string()),
    );
    let mut text = out.join("\n");
    if original.ends_with('\n') {
        text.push('\n');
    }
    let same = |a: &str, b: &str| {
        a.lines()
            .map(str::trim_end)
            .eq(b.lines().map(str::trim_end))
    };
    if same(&text, candidate) || same(&text, original) {
        return None;
    }
    Some(Salvaged {
        text,
        definitions: taken,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ORIGINAL: &str = "\"\"\"Stats.\"\"\"\n\n\ndef mean(xs):\n    \"\"\"The mean.\"\"\"\n    return sum(xs) / (len(xs) - 1)\n\n\ndef total(xs):\n    return sum(xs)\n\n\n\"\"\"\nExamples:\n    mean([1, 2])\n\"\"\"\n";

    #[test]
    fn a_fix_that_dropped_the_trailing_docstring_and_a_function_keeps_only_the_fix() {
        let candidate = "\"\"\"Stats.\"\"\"\n\n\ndef mean(xs):\n    \"\"\"The mean.\"\"\"\n    return sum(xs) / len(xs)\n";
        let s = changed_definitions_only("stats.py", ORIGINAL, candidate).unwrap();
        assert_eq!(s.definitions, ["mean"]);
        assert_eq!(
            s.text,
            ORIGINAL.replace("/ (len(xs) - 1)", "/ len(xs)"),
            "{}",
            s.text
        );
    }

    #[test]
    fn nothing_to_salvage_when_the_candidate_only_changed_definitions_or_changed_none() {
        let clean = ORIGINAL.replace("/ (len(xs) - 1)", "/ len(xs)");
        assert_eq!(changed_definitions_only("stats.py", ORIGINAL, &clean), None);
        let only_docs = ORIGINAL.replace("Stats.", "Statistics.");
        assert_eq!(
            changed_definitions_only("stats.py", ORIGINAL, &only_docs),
            None
        );
        assert_eq!(
            changed_definitions_only("stats.py", ORIGINAL, "x = 1\n"),
            None
        );
    }

    #[test]
    fn a_method_is_taken_alone_when_its_class_changed_around_it() {
        let original =
            "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n";
        // The fix to f, g dropped.
        let candidate = "class A:\n    def f(self):\n        return 0\n";
        let s = changed_definitions_only("a.py", original, candidate).unwrap();
        assert_eq!(s.text, original.replace("return 1", "return 0"));
        assert_eq!(s.definitions.len(), 1);
        assert!(s.definitions[0].ends_with('f'), "{:?}", s.definitions);
    }

    #[test]
    fn go_functions_and_comments_between_them() {
        let original = "package m\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a - b\n}\n\n// Sub subtracts.\nfunc Sub(a, b int) int {\n\treturn a - b\n}\n";
        let candidate = "package m\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\nfunc Sub(a, b int) int {\n\treturn a - b\n}\n";
        let s = changed_definitions_only("m.go", original, candidate).unwrap();
        assert_eq!(s.text, original.replacen("return a - b", "return a + b", 1));
    }
}
