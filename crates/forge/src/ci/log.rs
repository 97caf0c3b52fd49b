//! A failing job's log cut to what a fix needs: the failing step's error lines, within a line
//! and character budget, and the repository files the log names. Deterministic: the same log
//! gives the same excerpt, with no model involved.

use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

/// How much of a log the fix subtask is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogBudget {
    /// Lines kept (gap markers included).
    pub max_lines: usize,
    /// Characters kept, over all lines.
    pub max_chars: usize,
}

impl Default for LogBudget {
    fn default() -> Self {
        Self {
            max_lines: 60,
            max_chars: 4000,
        }
    }
}

/// The failing step's error lines.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LogExcerpt {
    /// The step, as the log's group header names it (`Run python -m unittest`), or
    /// `(set-up)` for lines before the first step.
    pub step: String,
    /// The kept lines, `...` where lines were left out.
    pub lines: Vec<String>,
    /// Lines of the step that were not kept.
    pub omitted: usize,
}

impl LogExcerpt {
    /// The kept lines as one text.
    pub fn text(&self) -> String {
        self.lines.join("\n")
    }
}

/// Longest kept line, in characters.
const MAX_LINE_CHARS: usize = 300;
/// Lines kept before and after each error line.
const CONTEXT_BEFORE: usize = 1;
const CONTEXT_AFTER: usize = 2;
/// Files named by the log that become the fix's hints, at most.
const MAX_HINTS: usize = 8;

static TIMESTAMP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\x{feff}?\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z ?").expect("valid")
});
static ANSI: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\x1b\[[0-9;?]*[A-Za-z]").expect("valid"));
static ERROR_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"##\[error\]",
        r"|(?i:\b(error|errors|failed|failure|fail|panicked|traceback|exception|assertion)\b)",
        r"|^E\s{2,}",
        r"|^\s*-->\s",
        r#"|File ".+", line \d+"#,
        r"|^\s+at .+:\d+",
    ))
    .expect("valid")
});
static PATH_TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[A-Za-z0-9_.~/\\-]*[A-Za-z0-9_-]\.[A-Za-z0-9]{1,8}\b").expect("valid")
});

/// A log line without its timestamp, colour codes and trailing space.
fn clean(line: &str) -> String {
    let line = TIMESTAMP.replace(line, "");
    ANSI.replace_all(&line, "").trim_end().to_string()
}

/// The failing step's lines: the last step whose output holds an `##[error]` line (GitHub's
/// annotation of a failed step), else the last step. A step starts at a `##[group]Run ...`
/// header. Returns the step's name and its lines.
fn failing_step(log: &str) -> (String, Vec<String>) {
    let mut steps: Vec<(String, Vec<String>)> = vec![("(set-up)".into(), Vec::new())];
    for raw in log.lines() {
        let line = clean(raw);
        if let Some(header) = line.strip_prefix("##[group]Run ") {
            steps.push((format!("Run {}", header.trim()), Vec::new()));
        } else if let Some(last) = steps.last_mut() {
            last.1.push(line);
        }
    }
    let has_error = |s: &&(String, Vec<String>)| s.1.iter().any(|l| l.contains("##[error]"));
    let pick = steps
        .iter()
        .rev()
        .find(has_error)
        .or_else(|| steps.iter().rev().find(|s| !s.1.is_empty()))
        .cloned();
    pick.unwrap_or_default()
}

/// Cuts `log` to the failing step's error lines (each with a line before and two after),
/// within `budget`: when they do not fit, the first and the last error lines are kept (the
/// first error is usually the cause, the last the summary). A step with no error line keeps
/// its last lines.
pub fn excerpt(log: &str, budget: LogBudget) -> LogExcerpt {
    let (step, lines) = failing_step(log);
    let lines: Vec<String> = lines
        .into_iter()
        .filter(|l| !l.starts_with("##[group]") && !l.starts_with("##[endgroup]"))
        .map(|l| l.chars().take(MAX_LINE_CHARS).collect())
        .collect();
    let keep = selected(&lines);
    let chosen = if keep.is_empty() {
        tail(&lines, budget.max_lines)
    } else {
        with_gaps(&lines, &keep)
    };
    let fitted = fit(chosen, budget);
    let kept = fitted.iter().filter(|l| l.as_str() != "...").count();
    LogExcerpt {
        step,
        omitted: lines.len().saturating_sub(kept),
        lines: fitted,
    }
}

/// Indices of the error lines with their context, in order.
fn selected(lines: &[String]) -> Vec<usize> {
    let mut keep = std::collections::BTreeSet::new();
    for (i, line) in lines.iter().enumerate() {
        if ERROR_LINE.is_match(line) {
            let from = i.saturating_sub(CONTEXT_BEFORE);
            let to = (i + CONTEXT_AFTER).min(lines.len().saturating_sub(1));
            keep.extend(from..=to);
        }
    }
    keep.into_iter()
        .filter(|&i| !lines[i].trim().is_empty())
        .collect()
}

/// The lines at `keep`, with `...` where a run of lines was left out.
fn with_gaps(lines: &[String], keep: &[usize]) -> Vec<String> {
    let mut out = Vec::new();
    let mut prev: Option<usize> = None;
    for &i in keep {
        if prev.is_some_and(|p| i > p + 1) || (prev.is_none() && i > 0) {
            out.push("...".to_string());
        }
        out.push(lines[i].clone());
        prev = Some(i);
    }
    out
}

/// The last `n` non-empty lines.
fn tail(lines: &[String], n: usize) -> Vec<String> {
    let non_empty: Vec<&String> = lines.iter().filter(|l| !l.trim().is_empty()).collect();
    let start = non_empty.len().saturating_sub(n);
    non_empty[start..].iter().map(|l| l.to_string()).collect()
}

/// `lines` within the budget: all of them when they fit, else the head and the tail with one
/// `...` between, the head taking half the budget.
fn fit(lines: Vec<String>, budget: LogBudget) -> Vec<String> {
    let chars = |ls: &[String]| ls.iter().map(|l| l.chars().count() + 1).sum::<usize>();
    if lines.len() <= budget.max_lines && chars(&lines) <= budget.max_chars {
        return lines;
    }
    let half_lines = budget.max_lines.saturating_sub(1) / 2;
    let half_chars = budget.max_chars / 2;
    let take = |iter: &mut dyn Iterator<Item = &String>| {
        let mut out = Vec::new();
        let mut used = 0;
        for l in iter {
            let c = l.chars().count() + 1;
            if out.len() >= half_lines || used + c > half_chars {
                break;
            }
            used += c;
            out.push(l.clone());
        }
        out
    };
    let head = take(&mut lines.iter());
    let mut rest = take(&mut lines[head.len()..].iter().rev());
    rest.reverse();
    let mut out = head;
    out.push("...".to_string());
    out.extend(rest);
    out
}

/// Repository files the excerpt names, in order of first mention, at most eight: each must be
/// a regular file inside `root` (no `..`, not under `.git/`, no symlink out of the root). An
/// absolute path from the CI machine (`/home/runner/work/app/app/src/x.py`) is matched by its
/// longest suffix that exists in the repository.
pub fn paths_named(excerpt: &LogExcerpt, root: &Path) -> Vec<String> {
    let Ok(root) = root.canonicalize() else {
        return Vec::new();
    };
    let mut found: Vec<String> = Vec::new();
    for line in &excerpt.lines {
        for token in PATH_TOKEN.find_iter(line) {
            let Some(path) = repository_path(token.as_str(), &root) else {
                continue;
            };
            if !found.contains(&path) {
                found.push(path);
            }
            if found.len() == MAX_HINTS {
                return found;
            }
        }
    }
    found
}

/// The repository-relative path `token` names, when it is a file inside `root`.
fn repository_path(token: &str, root: &Path) -> Option<String> {
    let token = token.replace('\\', "/");
    let token = token.trim_start_matches("./");
    if token.split('/').any(|c| c == "..") {
        return None;
    }
    if token.starts_with('/') {
        let parts: Vec<&str> = token.split('/').filter(|p| !p.is_empty()).collect();
        return (0..parts.len())
            .map(|i| parts[i..].join("/"))
            .find(|rel| inside(rel, root));
    }
    inside(token, root).then(|| token.to_string())
}

/// Whether `rel` is a regular file inside `root` (after resolving symlinks), not in `.git`.
fn inside(rel: &str, root: &Path) -> bool {
    if rel.is_empty() || rel.split('/').any(|c| c == ".git" || c == "..") {
        return false;
    }
    let full = root.join(rel);
    full.is_file()
        && full
            .canonicalize()
            .is_ok_and(|c| c.starts_with(root) && c.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "\
2024-05-01T10:00:00.0000000Z Current runner version: '2.316.0'
2024-05-01T10:00:01.0000000Z ##[group]Run actions/checkout@v4
2024-05-01T10:00:01.1000000Z with:
2024-05-01T10:00:01.2000000Z ##[endgroup]
2024-05-01T10:00:02.0000000Z Syncing repository: acme/widget
2024-05-01T10:00:03.0000000Z ##[group]Run python -m unittest -v
2024-05-01T10:00:03.1000000Z python -m unittest -v
2024-05-01T10:00:03.2000000Z ##[endgroup]
2024-05-01T10:00:04.0000000Z test_add (tests.test_calc.CalcTest.test_add) ... FAIL
2024-05-01T10:00:04.0000000Z test_helper (tests.test_calc.CalcTest.test_helper) ... ok
2024-05-01T10:00:04.0000000Z 
2024-05-01T10:00:04.0000000Z ======================================================================
2024-05-01T10:00:04.0000000Z FAIL: test_add (tests.test_calc.CalcTest.test_add)
2024-05-01T10:00:04.0000000Z ----------------------------------------------------------------------
2024-05-01T10:00:04.0000000Z Traceback (most recent call last):
2024-05-01T10:00:04.0000000Z   File \"/home/runner/work/widget/widget/tests/test_calc.py\", line 8, in test_add
2024-05-01T10:00:04.0000000Z     self.assertEqual(add(2, 3), 5)
2024-05-01T10:00:04.0000000Z AssertionError: -1 != 5
2024-05-01T10:00:04.0000000Z 
2024-05-01T10:00:04.0000000Z Ran 2 tests in 0.001s
2024-05-01T10:00:04.0000000Z 
2024-05-01T10:00:04.0000000Z FAILED (failures=1)
2024-05-01T10:00:04.5000000Z \u{1b}[31m##[error]Process completed with exit code 1.\u{1b}[0m
2024-05-01T10:00:05.0000000Z ##[group]Run actions/upload-artifact@v4
2024-05-01T10:00:05.0000000Z ##[endgroup]
2024-05-01T10:00:05.0000000Z Post job cleanup.
";

    #[test]
    fn the_failing_step_is_cut_to_its_error_lines() {
        let ex = excerpt(LOG, LogBudget::default());
        assert_eq!(ex.step, "Run python -m unittest -v");
        let text = ex.text();
        assert!(text.contains("AssertionError: -1 != 5"), "{text}");
        assert!(text.contains("FAILED (failures=1)"), "{text}");
        assert!(
            text.contains("##[error]Process completed with exit code 1."),
            "{text}"
        );
        assert!(!text.contains("2024-05-01T"), "timestamps stripped: {text}");
        assert!(!text.contains('\u{1b}'), "colour codes stripped: {text}");
        assert!(
            !text.contains("Syncing repository"),
            "other steps left out: {text}"
        );
        assert!(!text.contains("upload-artifact"), "{text}");
        assert_eq!(excerpt(LOG, LogBudget::default()), ex, "deterministic");
    }

    #[test]
    fn the_budget_keeps_the_first_and_last_error_lines() {
        let mut log = String::from("##[group]Run cargo test\n##[endgroup]\n");
        for i in 0..500 {
            log.push_str(&format!("error[E0{i:03}]: mismatch number {i}\n"));
        }
        log.push_str("##[error]Process completed with exit code 101.\n");
        let budget = LogBudget {
            max_lines: 21,
            max_chars: 10_000,
        };
        let ex = excerpt(&log, budget);
        assert!(ex.lines.len() <= 21, "{}", ex.lines.len());
        assert!(ex.text().contains("mismatch number 0\n"), "{}", ex.text());
        assert!(ex.text().contains("exit code 101"), "{}", ex.text());
        assert!(ex.lines.contains(&"...".to_string()));
        assert!(ex.omitted > 400);
        let by_chars = excerpt(
            &log,
            LogBudget {
                max_lines: 1000,
                max_chars: 600,
            },
        );
        assert!(
            by_chars.text().chars().count() <= 600 + 4,
            "{}",
            by_chars.text().len()
        );
    }

    #[test]
    fn a_step_without_error_lines_keeps_its_tail() {
        let log = "##[group]Run make\n##[endgroup]\nstep one\nstep two\nstep three\n";
        let ex = excerpt(
            log,
            LogBudget {
                max_lines: 2,
                max_chars: 1000,
            },
        );
        assert_eq!(ex.lines, vec!["step two", "step three"]);
    }

    #[test]
    fn paths_are_files_inside_the_repository() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("tests")).unwrap();
        std::fs::write(root.join("tests/test_calc.py"), "").unwrap();
        std::fs::write(root.join("calc.py"), "").unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.py"), "").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(outside.path().join("secret.py"), root.join("link.py")).unwrap();
        let ex = LogExcerpt {
            step: "Run x".into(),
            lines: vec![
                "  File \"/home/runner/work/widget/widget/tests/test_calc.py\", line 8".into(),
                "calc.py:2: error: bad".into(),
                "../outside/secret.py:1 /etc/passwd.txt link.py .git/config.py".into(),
                format!("{}/secret.py", outside.path().display()),
                "missing.py:3 ./calc.py".into(),
            ],
            omitted: 0,
        };
        assert_eq!(
            paths_named(&ex, root),
            vec!["tests/test_calc.py", "calc.py"]
        );
    }
}
