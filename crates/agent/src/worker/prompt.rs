//! The worker prompt: the subtask, the six SCOPE BOUNDARIES with their WRONG/RIGHT examples
//! (seeds G4/G5), the relevant files under a token budget, and the previous attempt's findings.
//!
//! Files are never silently truncated: a file that fits the remaining budget is shown in full
//! and may be rewritten with `content`; a file that does not is offered for search/replace
//! `edits` only, with the regions around its relevant symbols (definitions found by
//! `slopguard_lang::analyze`) and an explicit note that the rest is not shown.

use std::collections::BTreeSet;

use slopguard_change::Tree;
use slopguard_lang::{FileKind, analyze, detect};
use slopguard_llm::Message;

use crate::plan::Subtask;

/// Rough token count of a text (4 characters per token).
pub fn estimate_tokens(text: &str) -> usize {
    text.len().div_ceil(4)
}

/// Lines of context shown around a relevant symbol of a large file.
const CONTEXT_LINES: usize = 3;
/// Files at most this large (in tokens) may be rewritten whole with `content`; larger existing
/// files take `edits` only, even when shown in full.
pub const SMALL_FILE_TOKENS: usize = 1500;

/// How a file is presented to the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Presented {
    /// Shown in full; whole-file `content` allowed when small.
    Full {
        /// Whole-file `content` allowed.
        content_allowed: bool,
    },
    /// Too large for the budget: regions shown, `edits` only.
    Regions {
        /// 1-based inclusive line ranges shown.
        ranges: Vec<(usize, usize)>,
        /// Lines in the file.
        total_lines: usize,
    },
    /// A hinted file that does not exist yet (create it with `content`).
    Missing,
    /// Binary or unreadable: not shown, must not be edited.
    Unreadable,
}

/// The prompt with what it promised about each file.
#[derive(Debug, Clone)]
pub struct WorkerPrompt {
    /// The chat messages.
    pub messages: Vec<Message>,
    /// Per hinted file, how it was shown.
    pub files: Vec<(String, Presented)>,
}

impl WorkerPrompt {
    /// Whether `path` may be rewritten with whole-file `content`.
    pub fn content_allowed(&self, path: &str) -> bool {
        match self.files.iter().find(|(p, _)| p == path) {
            Some((_, Presented::Full { content_allowed })) => *content_allowed,
            Some((_, Presented::Regions { .. })) | Some((_, Presented::Unreadable)) => false,
            Some((_, Presented::Missing)) | None => true,
        }
    }
}

/// The worker's system message.
pub const SYSTEM: &str = "You are a careful software engineer working on one small subtask of a \
plan in an existing repository. You answer with ONE JSON object only (no markdown fences, no \
prose), matching the schema you are given. You change as little as possible, and every change \
you make will be checked by deterministic guards (syntax, dropped definitions, manifests, tests) \
before it is accepted.";

/// The six SCOPE BOUNDARIES with WRONG/RIGHT examples (seeds: G4, G5).
pub const SCOPE_BOUNDARIES: &str = r##"SCOPE BOUNDARIES (read before writing any patch):
1. File-fence: only change the files listed under "Files to touch". Do not patch anything else.
2. No new top-level import/use/require unless the subtask explicitly asks for a new dependency.
   (Seen: asked to parameterise SQL in a sqlite3 module, a worker rewrote it to use psycopg2,
   which is not installed. Stay on the libraries the file already uses.)
3. Do not change public function signatures (names, parameters, return types).
4. Do not delete unrelated helpers. Every function, class and constant you did not need to
   change stays in the file, verbatim.
   WRONG (the helpers are gone, a comment pretends they are still there):
       import sqlite3
       # get_conn, init_schema and seed remain unchanged   <- LIE: they are not in the file
       def find_user(conn, name):
           return conn.execute("SELECT * FROM users WHERE name = ?", (name,)).fetchone()
   RIGHT (every helper kept verbatim; only the edited function differs):
       import sqlite3
       def get_conn(path):
           conn = sqlite3.connect(path)
           conn.row_factory = sqlite3.Row
           return conn
       def init_schema(conn): ...unchanged body, written out in full...
       def seed(conn): ...unchanged body, written out in full...
       def find_user(conn, name):
           return conn.execute("SELECT * FROM users WHERE name = ?", (name,)).fetchone()
   If you write a comment like "# X remains unchanged" and X is NOT in your file content, you
   are lying. The parser does not read comments; tests will fail at import time. Prefer
   search/replace `edits`: they cannot drop what you do not touch.
5. Cross-module imports must reference symbols that ACTUALLY EXIST in the files shown.
6. Minimal change wins: the smallest patch that does the subtask. No reformatting, no
   renaming, no drive-by refactors, no new files unless the subtask asks for them. Never weaken
   or skip tests (no skip/xfail/ignore markers, no deleted assertions) to make them pass."##;

/// Output rules, after the scope block.
const FORMAT_RULES: &str = r#"REPLY FORMAT (JSON only):
{"commit_message": "<one line: what and why>",
 "patches": [
   {"action": "modify", "path": "<existing file>", "edits": [{"search": "<exact text copied from the file>", "replace": "<new text>"}]},
   {"action": "create", "path": "<new file>", "content": "<whole file>"},
   {"action": "modify", "path": "<small file shown in full>", "content": "<whole new file>"},
   {"action": "delete", "path": "<file>"}]}
- For existing files prefer `edits`. Each `search` must be copied EXACTLY from the file
  (whitespace included) and must occur exactly once: include enough surrounding lines to make
  it unique. Keep each search short (a few lines).
- Whole-file `content` only for new files and for files marked "content allowed".
- Use \n for newlines inside JSON strings."#;

/// Builds the worker prompt for `subtask` over `tree` (the worktree at the branch head).
/// `budget_tokens` bounds the file contents shown; `feedback` is the previous attempt's
/// findings (empty on the first attempt).
pub fn build(
    subtask: &Subtask,
    task_title: &str,
    tree: &dyn Tree,
    budget_tokens: usize,
    feedback: &str,
    attempt: u32,
) -> WorkerPrompt {
    let mut user = String::new();
    user.push_str(&format!(
        "TASK: {task_title}\nSUBTASK {}: {}\n",
        subtask.id, subtask.title
    ));
    if !subtask.description.trim().is_empty() {
        user.push_str(&format!("What to do: {}\n", subtask.description.trim()));
    }
    user.push_str(&format!(
        "Files to touch: {}\n\n",
        if subtask.file_hints.is_empty() {
            "(none named: change as few files as possible)".to_string()
        } else {
            subtask.file_hints.join(", ")
        }
    ));
    user.push_str(SCOPE_BOUNDARIES);
    user.push_str("\n\n");
    user.push_str(FORMAT_RULES);
    user.push_str("\n\n");

    let words = subtask_words(subtask, task_title);
    let mut files = Vec::new();
    let mut remaining = budget_tokens;
    user.push_str("FILES:\n");
    for path in &subtask.file_hints {
        let content = tree.read(path).ok().flatten();
        let Some(bytes) = content else {
            user.push_str(&format!(
                "--- {path} (does not exist yet; create it with `content`)\n"
            ));
            files.push((path.clone(), Presented::Missing));
            continue;
        };
        let Ok(text) = String::from_utf8(bytes) else {
            user.push_str(&format!("--- {path} (binary; do not edit)\n"));
            files.push((path.clone(), Presented::Unreadable));
            continue;
        };
        let tokens = estimate_tokens(&text);
        if tokens <= remaining {
            remaining -= tokens;
            let content_allowed = tokens <= SMALL_FILE_TOKENS;
            user.push_str(&format!(
                "--- {path} (shown in full, {} lines; {})\n{}{}--- end of {path}\n",
                text.lines().count(),
                if content_allowed {
                    "content allowed"
                } else {
                    "edits only"
                },
                text,
                if text.ends_with('\n') { "" } else { "\n" }
            ));
            files.push((path.clone(), Presented::Full { content_allowed }));
        } else {
            let total_lines = text.lines().count();
            let ranges = relevant_ranges(path, &text, &words, remaining);
            let lines: Vec<&str> = text.lines().collect();
            user.push_str(&format!(
                "--- {path} (TOO LARGE TO SHOW IN FULL: {total_lines} lines, about {tokens} tokens; \
                 only the regions below are shown. Edit it with search/replace `edits` only, \
                 searching for text inside the regions shown; never send `content` for it)\n"
            ));
            let mut shown = 0usize;
            for (a, b) in &ranges {
                user.push_str(&format!("[lines {a}-{b}]\n"));
                for l in &lines[a - 1..*b] {
                    user.push_str(l);
                    user.push('\n');
                    shown += l.len() + 1;
                }
            }
            if ranges.is_empty() {
                user.push_str("[no region fits the budget: ask for a smaller subtask]\n");
            }
            user.push_str(&format!("--- end of regions of {path}\n"));
            remaining = remaining.saturating_sub(estimate_tokens(&" ".repeat(shown)));
            files.push((
                path.clone(),
                Presented::Regions {
                    ranges,
                    total_lines,
                },
            ));
        }
    }
    if !feedback.trim().is_empty() {
        user.push_str(&format!(
            "\nYOUR PREVIOUS ATTEMPT (attempt {}) WAS REJECTED. Nothing of it was kept; the files \
             above are unchanged. Fix every point below and answer again with a complete reply:\n{}\n",
            attempt.saturating_sub(1),
            feedback.trim()
        ));
    }
    WorkerPrompt {
        messages: vec![Message::system(SYSTEM), Message::user(user)],
        files,
    }
}

/// Identifier-like words of the subtask (for picking the relevant regions of a large file).
fn subtask_words(subtask: &Subtask, task_title: &str) -> BTreeSet<String> {
    let text = format!("{} {} {}", task_title, subtask.title, subtask.description);
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.len() >= 3)
        .map(|w| w.to_string())
        .collect()
}

/// Line ranges of `text` around the definitions the subtask names (all definitions when none is
/// named), merged and cut to `budget_tokens`.
pub fn relevant_ranges(
    path: &str,
    text: &str,
    words: &BTreeSet<String>,
    budget_tokens: usize,
) -> Vec<(usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let n = lines.len();
    if n == 0 {
        return Vec::new();
    }
    let mut spans: Vec<(usize, usize)> = Vec::new();
    if let FileKind::Code(lang) = detect(path, text.as_bytes()) {
        let a = analyze(lang, text);
        let named: Vec<_> = a
            .definitions
            .iter()
            .filter(|d| words.contains(d.simple_name()) || words.contains(&d.name))
            .collect();
        for d in named {
            spans.push((d.start_line as usize, d.end_line as usize));
        }
    }
    if spans.is_empty() {
        // Lines that mention a subtask word.
        for (i, l) in lines.iter().enumerate() {
            if words.iter().any(|w| w.len() >= 4 && l.contains(w.as_str())) {
                spans.push((i + 1, i + 1));
            }
        }
    }
    if spans.is_empty() {
        spans.push((1, n.min(40)));
    }
    let mut spans: Vec<(usize, usize)> = spans
        .into_iter()
        .map(|(a, b)| {
            (
                a.saturating_sub(CONTEXT_LINES).max(1),
                (b + CONTEXT_LINES).min(n),
            )
        })
        .collect();
    spans.sort();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (a, b) in spans {
        match merged.last_mut() {
            Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    let mut out = Vec::new();
    let mut used = 0usize;
    for (a, b) in merged {
        let cost: usize = lines[a - 1..b].iter().map(|l| l.len() + 1).sum::<usize>() / 4 + 1;
        if used + cost > budget_tokens {
            // Keep what fits of this span, never cutting a line.
            let mut end = a;
            let mut c = 0;
            while end <= b {
                c += lines[end - 1].len() / 4 + 1;
                if used + c > budget_tokens {
                    break;
                }
                end += 1;
            }
            if end > a {
                out.push((a, end - 1));
            }
            break;
        }
        used += cost;
        out.push((a, b));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_change::MemTree;
    use std::collections::BTreeMap;

    fn subtask(hints: &[&str]) -> Subtask {
        Subtask {
            id: "T001-S01".into(),
            title: "Fix find_user".into(),
            description: "parameterise the query in find_user".into(),
            file_hints: hints.iter().map(|s| s.to_string()).collect(),
            action: crate::plan::Action::Modify,
        }
    }

    #[test]
    fn small_files_in_full_big_files_as_regions() {
        let mut big = String::new();
        for i in 0..400 {
            big.push_str(&format!("def helper_{i}(x):\n    return x + {i}\n\n"));
        }
        big.push_str("def find_user(conn, name):\n    return conn.execute(\"SELECT * FROM u WHERE n = '%s'\" % name)\n");
        let mut files = BTreeMap::new();
        files.insert("db.py".to_string(), big.clone().into_bytes());
        files.insert("small.py".to_string(), b"def a():\n    return 1\n".to_vec());
        let tree = MemTree::new(files);
        let p = build(
            &subtask(&["small.py", "db.py", "new.py"]),
            "t",
            &tree,
            2000,
            "",
            1,
        );
        let user = &p.messages[1].content;
        assert!(user.contains("SCOPE BOUNDARIES"));
        assert!(user.contains("WRONG") && user.contains("RIGHT"));
        assert!(user.contains("--- small.py (shown in full"));
        assert!(p.content_allowed("small.py"));
        assert!(!p.content_allowed("db.py"));
        assert!(p.content_allowed("new.py"));
        assert!(user.contains("TOO LARGE TO SHOW IN FULL"));
        assert!(user.contains("def find_user(conn, name):"));
        assert!(!user.contains("def helper_10(x)"));
        match &p.files[1].1 {
            Presented::Regions {
                ranges,
                total_lines,
            } => {
                assert_eq!(*total_lines, big.lines().count());
                assert_eq!(ranges.len(), 1);
            }
            other => panic!("{other:?}"),
        }
        assert!(estimate_tokens(user) < 4000);
    }

    #[test]
    fn feedback_on_retry() {
        let tree = MemTree::new(BTreeMap::new());
        let p = build(&subtask(&[]), "t", &tree, 100, "- [G7] dropped get_conn", 2);
        assert!(p.messages[1].content.contains("WAS REJECTED"));
        assert!(p.messages[1].content.contains("dropped get_conn"));
    }
}
