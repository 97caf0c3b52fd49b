//! Where in the repository a feedback item points, found without a model.
//!
//! The evidence, strongest first:
//! 1. explicit locations: `path:line` or `path:start-end` in the text or in `--on`;
//! 2. stack frames pasted into the text (Python `File "x.py", line 3`, Rust and Go
//!    `src/lib.rs:12:5`, Node `at f (/abs/repo/src/a.js:3:9)`), absolute paths cut down to the
//!    repository file they end with;
//! 3. identifiers (`average()`, `find_user`, `` `Stack::peek` ``, `parseConfig`) defined in a
//!    file, then mentioned in it;
//! 4. quoted strings (`"no such user"`) found verbatim in a file.
//!
//! Paths that do not exist are dropped with a note, never trusted. Test files rank below the
//! code they test, so the fix goes where the bug is.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::OnceLock;

use regex::Regex;
use serde::{Deserialize, Serialize};
use slopguard_change::{Tree, WorkTree};

use slopguard_planning::analysis::is_test_file;

/// A candidate file with the evidence for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Located {
    /// Path in the repository.
    pub path: String,
    /// Evidence weight (higher first).
    pub score: u32,
    /// The lines named, when a location or a frame gave them (1-based, inclusive).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<(usize, usize)>,
    /// Why it is a candidate, one short reason each.
    pub why: Vec<String>,
}

/// The ranked candidates and what was dropped.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Localisation {
    /// Candidate files, best first (at most [`MAX_CANDIDATES`]).
    pub files: Vec<Located>,
    /// Notes on paths named but not found.
    pub dropped: Vec<String>,
}

/// Most candidate files kept.
pub const MAX_CANDIDATES: usize = 5;
/// Largest file searched for identifiers and strings (bytes).
const MAX_SEARCHED_BYTES: usize = 512 * 1024;

const EXPLICIT: u32 = 100;
const FRAME: u32 = 60;
const DEFINES: u32 = 30;
const QUOTED: u32 = 20;
const MENTIONS: u32 = 5;

/// Localises `text` (and `on`, what it is about) in the repository at `repo`: its tracked
/// files, read from the working tree.
pub fn localise(repo: &Path, text: &str, on: Option<&str>) -> Localisation {
    let tracked = tracked_files(repo);
    let tree = WorkTree::new(repo);
    localise_in(&tree, &tracked, text, on)
}

/// [`localise`] over `files` of `tree` (the testable core).
pub fn localise_in(
    tree: &dyn Tree,
    files: &[String],
    text: &str,
    on: Option<&str>,
) -> Localisation {
    let mut found: BTreeMap<String, Located> = BTreeMap::new();
    let mut dropped = BTreeSet::new();
    let all = format!("{}\n{text}", on.unwrap_or(""));
    explicit_locations(tree, files, &all, &mut found, &mut dropped);
    frames(tree, &all, &mut found);
    identifiers_and_strings(tree, files, text, &mut found);
    let mut ranked: Vec<Located> = found.into_values().collect();
    ranked.sort_by(|a, b| {
        let tests_last = |l: &Located| is_test_file(&l.path);
        tests_last(a)
            .cmp(&tests_last(b))
            .then(b.score.cmp(&a.score))
            .then(a.path.cmp(&b.path))
    });
    ranked.truncate(MAX_CANDIDATES);
    Localisation {
        files: ranked,
        dropped: dropped.into_iter().collect(),
    }
}

fn tracked_files(repo: &Path) -> Vec<String> {
    slopguard_agent::git::git(repo, &["ls-files", "-z"])
        .map(|out| {
            out.split('\0')
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn add(found: &mut BTreeMap<String, Located>, path: &str, score: u32, why: String) {
    let entry = found.entry(path.to_string()).or_insert_with(|| Located {
        path: path.to_string(),
        score: 0,
        lines: None,
        why: Vec::new(),
    });
    entry.score += score;
    if !entry.why.contains(&why) {
        entry.why.push(why);
    }
}

fn location_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?:^|[\s(`'\x22])([A-Za-z0-9_.][A-Za-z0-9_./-]*\.[A-Za-z0-9]+)(?::(\d+)(?:-(\d+))?)?",
        )
        .expect("location regex")
    })
}

/// `path`, `path:line` and `path:start-end` written in the text.
fn explicit_locations(
    tree: &dyn Tree,
    files: &[String],
    text: &str,
    found: &mut BTreeMap<String, Located>,
    dropped: &mut BTreeSet<String>,
) {
    for cap in location_regex().captures_iter(text) {
        let raw = cap[1].trim_start_matches("./").trim_end_matches('.');
        let looks_like_path = raw.contains('/') || cap.get(2).is_some();
        let exists = files.iter().any(|f| f == raw) || readable(tree, raw);
        if !exists {
            if looks_like_path && !raw.contains("://") && !raw.starts_with("www.") {
                dropped.insert(format!("`{raw}` is not a file of the repository (ignored)"));
            }
            continue;
        }
        let start = cap.get(2).and_then(|m| m.as_str().parse::<usize>().ok());
        let end = cap.get(3).and_then(|m| m.as_str().parse::<usize>().ok());
        let why = match (start, end) {
            (Some(a), Some(b)) => format!("named as {raw}:{a}-{b}"),
            (Some(a), None) => format!("named as {raw}:{a}"),
            _ => format!("named as {raw}"),
        };
        add(found, raw, EXPLICIT, why);
        if let (Some(a), Some(entry)) = (start, found.get_mut(raw)) {
            entry.lines.get_or_insert((a, end.unwrap_or(a).max(a)));
        }
    }
}

/// Stack frames pasted into the text.
fn frames(tree: &dyn Tree, text: &str, found: &mut BTreeMap<String, Located>) {
    for cap in slopguard_worker::context::frame_regex().captures_iter(text) {
        let raw = cap.get(1).or_else(|| cap.get(3)).map_or("", |m| m.as_str());
        let line = cap
            .get(2)
            .or_else(|| cap.get(4))
            .and_then(|m| m.as_str().parse::<usize>().ok());
        if !raw.starts_with('/') && !raw.contains("File") && found.contains_key(raw) {
            continue; // already an explicit location
        }
        let Some(path) = slopguard_worker::context::repo_path(raw, tree) else {
            continue;
        };
        add(found, &path, FRAME, format!("in a stack frame ({path})"));
        if let (Some(l), Some(entry)) = (line, found.get_mut(&path)) {
            entry.lines.get_or_insert((l, l));
        }
    }
}

fn identifier_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"`([A-Za-z_][A-Za-z0-9_:.]*)(?:\(\))?`|\b([A-Za-z_][A-Za-z0-9_]*)\(|\b([a-z][a-z0-9]*_[a-z0-9_]+|[a-z]+[A-Z][A-Za-z0-9]*)\b")
            .expect("identifier regex")
    })
}

fn quoted_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r#""([^"\n]{4,80})""#).expect("quoted regex"))
}

/// Identifiers the text names and strings it quotes, looked up in the files.
fn identifiers_and_strings(
    tree: &dyn Tree,
    files: &[String],
    text: &str,
    found: &mut BTreeMap<String, Located>,
) {
    let names = identifiers(text);
    let quoted: BTreeSet<String> = quoted_regex()
        .captures_iter(text)
        .map(|c| c[1].to_string())
        .collect();
    if names.is_empty() && quoted.is_empty() {
        return;
    }
    for path in files {
        let Some(content) = tree
            .read(path)
            .ok()
            .flatten()
            .filter(|b| b.len() <= MAX_SEARCHED_BYTES)
            .and_then(|b| String::from_utf8(b).ok())
        else {
            continue;
        };
        for name in &names {
            if defines(&content, name) {
                add(found, path, DEFINES, format!("defines `{name}`"));
            } else if mentions(&content, name) {
                add(found, path, MENTIONS, format!("mentions `{name}`"));
            }
        }
        for q in &quoted {
            if content.contains(q.as_str()) {
                add(found, path, QUOTED, format!("contains \"{q}\""));
            }
        }
    }
}

/// Identifier-like words of the text: in backticks, called (`name(`), snake_case or
/// camelCase. Plain English words are not identifiers.
fn identifiers(text: &str) -> BTreeSet<String> {
    const COMMON: [&str; 8] = ["e.g", "i.e", "print", "if", "for", "while", "return", "and"];
    identifier_regex()
        .captures_iter(text)
        .filter_map(|c| c.get(1).or_else(|| c.get(2)).or_else(|| c.get(3)))
        .map(|m| {
            let s = m.as_str().trim_end_matches('.');
            s.rsplit([':', '.']).next().unwrap_or(s).to_string()
        })
        .filter(|s| s.len() >= 3 && !COMMON.contains(&s.as_str()))
        .collect()
}

/// Whether `content` defines `name` (a function, method, class or type of a common language).
fn defines(content: &str, name: &str) -> bool {
    let n = regex::escape(name);
    let re = format!(
        r"(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:def|fn|func(?:\s*\([^)]*\))?|function|class|struct|enum|trait|type|interface)\s+{n}\b|\b(?:const|let|var)\s+{n}\s*=\s*(?:async\s*)?(?:function|\()"
    );
    Regex::new(&re).is_ok_and(|r| r.is_match(content))
}

fn mentions(content: &str, name: &str) -> bool {
    Regex::new(&format!(r"\b{}\b", regex::escape(name))).is_ok_and(|r| r.is_match(content))
}

fn readable(tree: &dyn Tree, path: &str) -> bool {
    !path.starts_with('/') && tree.read(path).ok().flatten().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_change::MemTree;

    fn repo() -> (MemTree, Vec<String>) {
        let files = [
            (
                "calc/stats.py",
                "def total(values):\n    return sum(values)\n\n\ndef average(values):\n    return total(values) / (len(values) - 1)\n",
            ),
            (
                "calc/report.py",
                "from calc.stats import average\n\nMESSAGE = \"no values to report\"\n\ndef report(v):\n    return average(v)\n",
            ),
            (
                "tests/test_stats.py",
                "from calc.stats import average\n\ndef test_average():\n    assert average([1, 2]) == 1.5\n",
            ),
            ("README.md", "# calc\n"),
        ];
        let tree = MemTree::new(
            files
                .iter()
                .map(|(p, c)| (p.to_string(), c.as_bytes().to_vec()))
                .collect(),
        );
        (tree, files.iter().map(|(p, _)| p.to_string()).collect())
    }

    #[test]
    fn an_identifier_finds_its_definition_before_its_callers_and_tests() {
        let (t, files) = repo();
        let l = localise_in(&t, &files, "average() divides by n-1", None);
        let paths: Vec<&str> = l.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            vec!["calc/stats.py", "calc/report.py", "tests/test_stats.py"]
        );
        assert_eq!(l.files[0].why, vec!["defines `average`".to_string()]);
        assert!(l.dropped.is_empty());
    }

    #[test]
    fn explicit_ranges_win_and_missing_paths_are_dropped_with_a_note() {
        let (t, files) = repo();
        let l = localise_in(
            &t,
            &files,
            "see calc/report.py:5-6, and src/gone.py:3 which was deleted",
            Some("calc/report.py:5"),
        );
        assert_eq!(l.files[0].path, "calc/report.py");
        assert_eq!(l.files[0].lines, Some((5, 5)));
        assert!(l.files[0].score >= 2 * EXPLICIT);
        assert_eq!(
            l.dropped,
            vec!["`src/gone.py` is not a file of the repository (ignored)".to_string()]
        );
    }

    #[test]
    fn stack_frames_with_absolute_paths_and_quoted_strings_are_found() {
        let (t, files) = repo();
        let text = "It crashes:\nTraceback (most recent call last):\n  File \"/home/me/calc/calc/stats.py\", line 6, in average\nZeroDivisionError\nand prints \"no values to report\"";
        let l = localise_in(&t, &files, text, None);
        assert_eq!(l.files[0].path, "calc/stats.py");
        assert_eq!(l.files[0].lines, Some((6, 6)));
        let report = l.files.iter().find(|f| f.path == "calc/report.py").unwrap();
        assert!(
            report
                .why
                .contains(&"contains \"no values to report\"".to_string()),
            "{report:?}"
        );
    }

    #[test]
    fn prose_without_code_words_finds_nothing() {
        let (t, files) = repo();
        let l = localise_in(&t, &files, "The numbers look wrong sometimes.", None);
        assert!(l.files.is_empty(), "{l:?}");
    }
}
