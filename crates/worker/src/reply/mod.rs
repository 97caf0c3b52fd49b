//! Reading a worker reply written as plain text.
//!
//! The worker asks for code as plain text, never wrapped in JSON (JSON escaping costs small
//! models dearly: decoded `\u0300` escapes, broken quotes). A reply is one of:
//!
//! * **Whole files**: the path on its own line, then the complete file in a fence
//!   (```` ```python ````); the path may also sit in the fence's info string.
//! * **SEARCH/REPLACE blocks**: the path, then `<<<<<<< SEARCH`, the current lines, `=======`,
//!   the new lines, `>>>>>>> REPLACE`.
//! * **A unified diff** (`--- a/x`, `+++ b/x`, `@@`): each hunk becomes a search/replace edit,
//!   so it is placed by the same tolerant matcher chain.
//! * **The JSON patch list** (`{"commit_message": ..., "patches": [...]}`), still accepted.
//!
//! The commit message is the reply's first plain line. A whole file that elides code
//! (`# ... rest unchanged`, a bare `...` the file did not have) and a fence the reply never
//! closed (cut off at `max_tokens`) are refused here, before anything is applied.

use slopguard_change::unified::{self, HunkLine};
use slopguard_change::{LlmPatchList, PatchAction, parse_edit_blocks};

/// One edit of one file, as the reply wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileEdit {
    /// The complete new content of the file.
    Whole {
        /// The file.
        path: String,
        /// Its new content.
        content: String,
    },
    /// Replace `search` (the current text) with `replace`.
    SearchReplace {
        /// The file.
        path: String,
        /// Current text.
        search: String,
        /// New text.
        replace: String,
    },
    /// Delete the file.
    Delete {
        /// The file.
        path: String,
    },
}

impl FileEdit {
    /// The edited file.
    pub fn path(&self) -> &str {
        match self {
            FileEdit::Whole { path, .. }
            | FileEdit::SearchReplace { path, .. }
            | FileEdit::Delete { path } => path,
        }
    }
}

/// The format a reply was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplyFormat {
    /// Whole files in fences.
    WholeFile,
    /// SEARCH/REPLACE blocks.
    SearchReplace,
    /// A unified diff.
    UnifiedDiff,
    /// The JSON patch list.
    Json,
    /// None of these: code holding the target definition, taken from a reply no format reads
    /// (a broken SEARCH/REPLACE block, a fence without a path).
    SalvagedDefinition,
    /// No reply: a repair template's one-token change ([`super::templates`]).
    Template,
    /// A statement the model wrote again in a fill-in-the-middle completion
    /// ([`super::infill`]).
    Infill,
    /// A reply the static guards refused, reduced to the definitions it changed
    /// ([`super::salvage`]).
    Salvaged,
}

impl ReplyFormat {
    /// The name used in traces.
    pub fn name(self) -> &'static str {
        match self {
            ReplyFormat::WholeFile => "whole-file",
            ReplyFormat::SearchReplace => "search-replace",
            ReplyFormat::UnifiedDiff => "unified-diff",
            ReplyFormat::Json => "json",
            ReplyFormat::SalvagedDefinition => "salvaged-definition",
            ReplyFormat::Template => "template",
            ReplyFormat::Infill => "infill",
            ReplyFormat::Salvaged => "salvaged",
        }
    }
}

/// A parsed reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedReply {
    /// How it was written.
    pub format: ReplyFormat,
    /// The commit message (first plain line), if any.
    pub message: Option<String>,
    /// The edits, in reply order.
    pub edits: Vec<FileEdit>,
}

/// Why a reply could not be read; the text is written for the model's retry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ReplyError(pub String);

/// Reads `text`. `expected` are the files the prompt showed (a fence without a path goes to
/// the only one; a bare file name is matched to the shown path with that name).
pub fn parse(text: &str, expected: &[String]) -> Result<ParsedReply, ReplyError> {
    let text = normalise_markers(&text.replace("\r\n", "\n"));
    let parsed = if has_search_markers(&text) {
        search_replace(&text).or_else(|e| match expected {
            // Blocks without a path when only one file is expected: they are that file's.
            [only] => search_replace(&with_path_before_blocks(&text, only)).map_err(|_| e),
            _ => Err(e),
        })?
    } else if looks_like_diff(&text) {
        diff(&text)?
    } else if let Some(list) = json_patches(&text) {
        from_json(list)
    } else {
        whole_files(&text, expected)?
    };
    if parsed.edits.is_empty() {
        return Err(ReplyError(
            "the reply contains no file: write the path on its own line, then the complete file \
             in a ``` fence"
                .into(),
        ));
    }
    let edits = parsed
        .edits
        .into_iter()
        .map(|e| resolve_path(e, expected))
        .collect();
    Ok(ParsedReply { edits, ..parsed })
}

/// Conflict-style markers written with a path instead of the keyword (`<<<<<<< src/a.py`,
/// `>>>>>>> src/a.py`, as models trained on merge conflicts do) become the path line and the
/// `SEARCH` / `REPLACE` markers.
fn normalise_markers(text: &str) -> String {
    let has_divider = text.lines().any(|l| {
        let t = l.trim();
        t.len() >= 5 && t.chars().all(|c| c == '=')
    });
    if !has_divider {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        let marker = |ch: char| -> Option<&str> {
            let n = t.chars().take_while(|c| *c == ch).count();
            (n >= 7).then(|| t[n..].trim()).filter(|w| !w.is_empty())
        };
        match (marker('<'), marker('>')) {
            (Some(word), _) if word != "SEARCH" && !word.contains(' ') => {
                // `<<<<<<< src/a.py` names the file; `<<<<<<< HEAD` (git's own marker) does not.
                if word.contains('.') || word.contains('/') {
                    out.push_str(word);
                    out.push('\n');
                }
                out.push_str("<<<<<<< SEARCH\n");
            }
            (_, Some(word)) if word != "REPLACE" && !word.contains(' ') => {
                out.push_str(">>>>>>> REPLACE\n");
            }
            _ => out.push_str(line),
        }
    }
    out
}

fn has_search_markers(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim();
        t.starts_with("<<<<<<<") && t.trim_start_matches('<').trim() == "SEARCH"
    })
}

fn search_replace(text: &str) -> Result<ParsedReply, ReplyError> {
    let blocks = parse_edit_blocks(text).map_err(|e| ReplyError(e.to_string()))?;
    let first_marker = text.find("<<<<<<<").unwrap_or(text.len());
    Ok(ParsedReply {
        format: ReplyFormat::SearchReplace,
        message: commit_line(&text[..first_marker], &[]),
        edits: blocks
            .into_iter()
            .map(|b| FileEdit::SearchReplace {
                path: b.path,
                search: b.search,
                replace: b.replace,
            })
            .collect(),
    })
}

/// `text` with `path` on its own line before its first `<<<<<<< SEARCH` marker.
fn with_path_before_blocks(text: &str, path: &str) -> String {
    let mut out = String::new();
    let mut done = false;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if !done && t.starts_with("<<<<<<<") && t.trim_start_matches('<').trim() == "SEARCH" {
            out.push_str(path);
            out.push('\n');
            done = true;
        }
        out.push_str(line);
    }
    out
}

fn looks_like_diff(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .windows(2)
        .any(|w| w[0].starts_with("--- ") && w[1].starts_with("+++ "))
        && lines.iter().any(|l| l.starts_with("@@"))
}

/// Each hunk as a search/replace edit (old side -> new side).
fn diff(text: &str) -> Result<ParsedReply, ReplyError> {
    let start = text.find("--- ").unwrap_or(0);
    let body = fence_body_around(text, start);
    let files =
        unified::parse(body).map_err(|e| ReplyError(format!("the diff does not parse: {e}")))?;
    let mut edits = Vec::new();
    for f in files {
        match (&f.old_path, &f.new_path) {
            (Some(old), None) => edits.push(FileEdit::Delete { path: old.clone() }),
            (None, Some(new)) => edits.push(FileEdit::Whole {
                path: new.clone(),
                content: side(&f.hunks, false),
            }),
            (_, Some(path)) => {
                for h in &f.hunks {
                    let search = side(std::slice::from_ref(h), true);
                    if search.trim().is_empty() {
                        return Err(ReplyError(format!(
                            "a hunk of `{path}` has no context or removed lines, so it cannot \
                             be placed; include the lines around the change"
                        )));
                    }
                    edits.push(FileEdit::SearchReplace {
                        path: path.clone(),
                        search,
                        replace: side(std::slice::from_ref(h), false),
                    });
                }
            }
            (None, None) => {}
        }
    }
    Ok(ParsedReply {
        format: ReplyFormat::UnifiedDiff,
        message: commit_line(&text[..start], &[]),
        edits,
    })
}

/// The old (`old == true`) or new side of hunks, as text with a final newline.
fn side(hunks: &[unified::Hunk], old: bool) -> String {
    let mut out = String::new();
    for h in hunks {
        for l in &h.lines {
            let line = match (l, old) {
                (HunkLine::Context(s), _) => s,
                (HunkLine::Remove(s), true) | (HunkLine::Add(s), false) => s,
                _ => continue,
            };
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The body of the fence that contains byte `at`, or the whole text when `at` is not fenced.
fn fence_body_around(text: &str, at: usize) -> &str {
    let before = &text[..at];
    let Some(open) = before.rfind("```") else {
        return &text[at..];
    };
    if before[..open].matches("```").count() % 2 == 1 {
        return &text[at..];
    }
    match text[at..].find("\n```") {
        Some(end) => &text[at..at + end + 1],
        None => &text[at..],
    }
}

fn json_patches(text: &str) -> Option<LlmPatchList> {
    let trimmed = text.trim_start();
    if !(trimmed.starts_with('{') || trimmed.starts_with("```json") || trimmed.starts_with('[')) {
        return None;
    }
    let repaired = slopguard_llm::repair::repair_json(text).ok()?;
    serde_json::from_value::<LlmPatchList>(repaired.value)
        .ok()
        .filter(|l| !l.patches.is_empty())
}

fn from_json(list: LlmPatchList) -> ParsedReply {
    let mut edits = Vec::new();
    for p in list.patches {
        let path = p.path.trim_start_matches("./").to_string();
        match (p.action, &p.content) {
            (PatchAction::Delete, _) => edits.push(FileEdit::Delete { path }),
            (_, Some(content)) => edits.push(FileEdit::Whole {
                path,
                content: content.clone(),
            }),
            (_, None) => {
                for e in p.all_edits() {
                    edits.push(FileEdit::SearchReplace {
                        path: path.clone(),
                        search: e.search,
                        replace: e.replace,
                    });
                }
            }
        }
    }
    ParsedReply {
        format: ReplyFormat::Json,
        message: list.commit_message.filter(|m| !m.trim().is_empty()),
        edits,
    }
}

/// A reply the model finished (not cut off at `max_tokens`) whose last fence was never closed:
/// the model forgot the closing fence, so the end of the reply closes it.
pub fn close_forgotten_fence(text: &str) -> String {
    let fences = text.lines().filter(|l| fence(l).is_some()).count();
    if fences % 2 == 1 {
        let mut out = text.trim_end().to_string();
        out.push_str("\n```\n");
        out
    } else {
        text.to_string()
    }
}

/// A fence opening or closing line: the fence characters and the info string.
fn fence(line: &str) -> Option<(&str, &str)> {
    let t = line.trim_start();
    let ch = t.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let n = t.chars().take_while(|c| *c == ch).count();
    (n >= 3).then(|| (&t[..n], t[n..].trim()))
}

/// Whole files: each fence, with its path from the info string or the line before it. When
/// some fence names its file, fences that do not are explanation (a commit message or the test
/// output repeated in a fence); when none does, a code fence belongs to the only expected file.
fn whole_files(text: &str, expected: &[String]) -> Result<ParsedReply, ReplyError> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut fences: Vec<(Option<String>, &str, String)> = Vec::new();
    let mut first_fence = None;
    let mut i = 0;
    while i < lines.len() {
        let Some((marks, info)) = fence(lines[i]) else {
            i += 1;
            continue;
        };
        first_fence.get_or_insert(i);
        let close = (i + 1..lines.len()).find(|&j| {
            fence(lines[j])
                .is_some_and(|(m, _)| m.starts_with(&marks[..1]) && m.len() >= marks.len())
        });
        // A fence opened again with a language before this one closes: this one was not a
        // fence but a wrapper the model opened around its whole answer (```text, then the path
        // and ```python inside). Read on from the next line.
        if close.is_some_and(|j| fence(lines[j]).is_some_and(|(_, rest)| !rest.is_empty())) {
            i += 1;
            continue;
        }
        let path = named_path_of_fence(info, &lines[..i], expected);
        let Some(close) = close else {
            if is_prose_block(info) {
                break;
            }
            return Err(ReplyError(format!(
                "the reply was cut off before the closing ``` of {}: nothing was applied. Write \
                 the file again, shorter if you can (SEARCH/REPLACE blocks for large files)",
                path.as_deref()
                    .map_or("the file".to_string(), |p| format!("`{p}`"))
            )));
        };
        let body = &lines[i + 1..close];
        // A model that puts the language on the line after a bare fence: not file content.
        let body = match body.first() {
            Some(first) if info.is_empty() && is_language_word(first.trim()) => &body[1..],
            _ => body,
        };
        let mut content = body.join("\n");
        content.push('\n');
        fences.push((path, info, content));
        i = close + 1;
    }
    let any_named = fences.iter().any(|(p, _, _)| p.is_some());
    let mut edits = Vec::new();
    for (path, info, content) in fences {
        let path = match path {
            Some(p) => p,
            None if any_named || is_prose_block(info) => continue,
            None if expected.len() == 1 => expected[0].clone(),
            None => {
                return Err(ReplyError(
                    "a code block has no file path: write the path on its own line right above \
                     the ``` fence"
                        .into(),
                ));
            }
        };
        edits.push(FileEdit::Whole { path, content });
    }
    let head_end = first_fence.unwrap_or(lines.len());
    let message = commit_line(&lines[..head_end].join("\n"), expected);
    Ok(ParsedReply {
        format: ReplyFormat::WholeFile,
        message,
        edits,
    })
}

/// A fence info word written on its own line (`python`, `rust`, ...).
fn is_language_word(line: &str) -> bool {
    matches!(
        line,
        "python"
            | "py"
            | "rust"
            | "go"
            | "golang"
            | "javascript"
            | "js"
            | "typescript"
            | "ts"
            | "java"
            | "ruby"
            | "c"
            | "cpp"
            | "bash"
            | "sh"
            | "toml"
            | "json"
            | "yaml"
    )
}

/// Fences of shell sessions and plain output are explanation, not files.
fn is_prose_block(info: &str) -> bool {
    matches!(
        info.split_whitespace().next().unwrap_or(""),
        "sh" | "bash"
            | "shell"
            | "console"
            | "text"
            | "txt"
            | "plaintext"
            | "plain"
            | "output"
            | "diff"
            | "log"
    )
}

/// The file a fence names: a path in its info string, else the nearest non-empty line above
/// it (within three lines) when that line is a path.
fn named_path_of_fence(info: &str, above: &[&str], expected: &[String]) -> Option<String> {
    for word in info.split_whitespace() {
        if let Some(p) = as_path(word, expected) {
            return Some(p);
        }
    }
    let near = above
        .iter()
        .rev()
        .take(3)
        .map(|l| l.trim())
        .find(|l| !l.is_empty() && fence(l).is_none());
    near.and_then(|l| as_path(l, expected))
}

/// `line` as a file path: decorations (`###`, `**`, backticks, `File:`, a trailing colon)
/// removed; it must be one word with a dot or slash, or an expected path.
fn as_path(line: &str, expected: &[String]) -> Option<String> {
    let mut t = line.trim().trim_start_matches('#').trim();
    for prefix in ["File:", "file:", "Path:", "path:", "Filename:", "filename:"] {
        if let Some(rest) = t.strip_prefix(prefix) {
            t = rest.trim();
        }
    }
    let t = t
        .trim_matches(|c| c == '*' || c == '`' || c == '"' || c == '\'')
        .trim_end_matches(':')
        .trim_matches(|c| c == '*' || c == '`')
        .trim_start_matches("./")
        .trim();
    if t.is_empty() || t.contains(char::is_whitespace) {
        return None;
    }
    if expected.iter().any(|e| e == t) {
        return Some(t.to_string());
    }
    let plausible = (t.contains('.') || t.contains('/'))
        && t.chars()
            .all(|c| c.is_alphanumeric() || "._-/+@".contains(c))
        && !t.ends_with('.');
    plausible.then(|| t.to_string())
}

/// A path that names an expected file only by its file name is that file.
fn resolve_path(edit: FileEdit, expected: &[String]) -> FileEdit {
    let fix = |path: String| -> String {
        // `wordcount.go:7`, `src/a.py:10-12`: a path with the line it talks about.
        let path = match path.split_once(':') {
            Some((p, at))
                if !at.is_empty() && at.chars().all(|c| c.is_ascii_digit() || c == '-') =>
            {
                p.to_string()
            }
            _ => path,
        };
        if expected.contains(&path) || path.contains('/') {
            return path;
        }
        let same: Vec<&String> = expected
            .iter()
            .filter(|e| e.rsplit('/').next() == Some(path.as_str()))
            .collect();
        match same.as_slice() {
            [one] => (*one).clone(),
            _ => path,
        }
    };
    match edit {
        FileEdit::Whole { path, content } => FileEdit::Whole {
            path: fix(path),
            content,
        },
        FileEdit::SearchReplace {
            path,
            search,
            replace,
        } => FileEdit::SearchReplace {
            path: fix(path),
            search,
            replace,
        },
        FileEdit::Delete { path } => FileEdit::Delete { path: fix(path) },
    }
}

/// Longest commit title kept.
const MAX_TITLE: usize = 100;

/// The commit message: the first line of the reply's head that is neither a path nor a fence
/// (`Commit message:` and similar prefixes removed).
fn commit_line(head: &str, expected: &[String]) -> Option<String> {
    let line = head
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && fence(l).is_none())
        .find(|l| as_path(l, expected).is_none() || l.contains(' '))?;
    let mut t = line.trim_start_matches('#').trim().trim_matches('*').trim();
    for prefix in [
        "Commit message:",
        "commit message:",
        "Commit:",
        "commit:",
        "Message:",
    ] {
        if let Some(rest) = t.strip_prefix(prefix) {
            t = rest.trim();
        }
    }
    let t = t.trim_matches(|c| c == '`' || c == '"' || c == '*').trim();
    if t.is_empty() {
        return None;
    }
    Some(t.chars().take(MAX_TITLE).collect())
}

/// Phrases that, in a comment, say code was left out.
const ELISION_PHRASES: &[&str] = &[
    "rest of the",
    "rest unchanged",
    "remains unchanged",
    "remain unchanged",
    "unchanged",
    "existing code",
    "omitted",
    "for brevity",
    "same as before",
    "as before",
    "previous code",
    "other methods",
    "other functions",
    "code here",
];

/// The first line of `new` that elides code and is not in `old` (1-based number and text).
pub fn elided_line(new: &str, old: &str) -> Option<(usize, String)> {
    new.lines().enumerate().find_map(|(i, line)| {
        let t = line.trim();
        let comment = ["#", "//", "/*", "*", "<!--", "--"]
            .iter()
            .find_map(|m| t.strip_prefix(m))
            .map(|rest| rest.trim_end_matches("*/").trim_end_matches("-->").trim());
        let elides = match comment {
            Some(c) => {
                let lower = c.to_lowercase();
                c.starts_with("...")
                    || c.starts_with('…')
                    || c.ends_with("...")
                    || ELISION_PHRASES.iter().any(|p| lower.contains(p))
            }
            None => t == "..." || t == "…",
        };
        (elides && !old.lines().any(|o| o.trim() == t)).then(|| (i + 1, t.to_string()))
    })
}

#[cfg(test)]
mod tests;
