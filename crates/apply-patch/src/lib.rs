//! Parser and in-memory applier for the Codex `apply_patch` envelope.
//!
//! Codex edits files with a small, file-oriented patch language:
//!
//! ```text
//! *** Begin Patch
//! *** Add File: hello.txt
//! +Hello world
//! *** Update File: src/app.py
//! *** Move to: src/main.py
//! @@ def greet():
//! -print("Hi")
//! +print("Hello, world!")
//! *** Delete File: obsolete.txt
//! *** End Patch
//! ```
//!
//! [`parse`] turns the text into typed [`Operation`]s; [`apply`] resolves them against the
//! current file contents (supplied by the caller, so nothing touches the disk) and returns the
//! resulting [`FileChange`]s with before and after text. The grammar and the matching rules follow
//! `codex-rs/apply-patch` in the openai/codex repository (see `crates/hooks/PROTOCOLS.md`):
//!
//! ```text
//! start: begin_patch hunk+ end_patch
//! begin_patch: "*** Begin Patch" LF
//! end_patch: "*** End Patch" LF?
//! hunk: add_hunk | delete_hunk | update_hunk
//! add_hunk: "*** Add File: " filename LF add_line+
//! delete_hunk: "*** Delete File: " filename LF
//! update_hunk: "*** Update File: " filename LF change_move? change?
//! add_line: "+" /(.*)/ LF
//! change_move: "*** Move to: " filename LF
//! change: (change_context | change_line)+ eof_line?
//! change_context: ("@@" | "@@ " /(.+)/) LF
//! change_line: ("+" | "-" | " ") /(.*)/ LF
//! eof_line: "*** End of File" LF
//! ```
//!
//! Like Codex, the parser is lenient where models are sloppy: markers may carry surrounding
//! whitespace, the envelope may be wrapped in a `<<'EOF'` heredoc or preceded by an
//! `apply_patch` command word, the first chunk of an update may omit its `@@` line, and context
//! lines are located first exactly, then ignoring trailing whitespace, then ignoring surrounding
//! whitespace, then with typographic punctuation normalised to ASCII.

use std::collections::BTreeMap;

const BEGIN_PATCH: &str = "*** Begin Patch";
const END_PATCH: &str = "*** End Patch";
const ADD_FILE: &str = "*** Add File: ";
const DELETE_FILE: &str = "*** Delete File: ";
const UPDATE_FILE: &str = "*** Update File: ";
const MOVE_TO: &str = "*** Move to: ";
const END_OF_FILE: &str = "*** End of File";

/// Why a patch text could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The text is not framed by `*** Begin Patch` / `*** End Patch`.
    #[error("invalid patch: {0}")]
    Envelope(String),
    /// A file section or hunk is malformed; `line` is 1-based within the envelope.
    #[error("invalid patch at line {line}: {message}")]
    Hunk {
        /// 1-based line number within the envelope (the `*** Begin Patch` line is line 1).
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// Why a parsed patch cannot be applied to the given files.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApplyError {
    /// An update or delete names a file that does not exist.
    #[error("{path}: file to {action} does not exist")]
    Missing {
        /// The path as written in the patch.
        path: String,
        /// `update` or `delete`.
        action: &'static str,
    },
    /// An add names a file that already exists.
    #[error("{path}: file to add already exists")]
    AlreadyExists {
        /// The path as written in the patch.
        path: String,
    },
    /// A `@@ context` line was not found.
    #[error("{path}: failed to find context '{context}'")]
    ContextNotFound {
        /// The path as written in the patch.
        path: String,
        /// The context line that was looked for.
        context: String,
    },
    /// The lines a chunk removes or keeps were not found in the file.
    #[error("{path}: failed to find expected lines:\n{lines}")]
    LinesNotFound {
        /// The path as written in the patch.
        path: String,
        /// The expected lines, joined by newlines.
        lines: String,
    },
    /// Two operations of one patch touch the same path in incompatible ways.
    #[error("{path}: touched by more than one operation of the patch")]
    Conflict {
        /// The path touched twice.
        path: String,
    },
}

/// One file operation of a patch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operation {
    /// `*** Add File: path` followed by `+` lines.
    Add {
        /// Path as written.
        path: String,
        /// Full contents of the new file (each `+` line plus a newline).
        contents: String,
    },
    /// `*** Delete File: path`.
    Delete {
        /// Path as written.
        path: String,
    },
    /// `*** Update File: path`, optionally `*** Move to: new`, then chunks.
    Update {
        /// Path as written.
        path: String,
        /// Destination of a rename, when present.
        move_to: Option<String>,
        /// The change chunks, in file order.
        chunks: Vec<Chunk>,
    },
}

impl Operation {
    /// The path the operation reads from (the source path of an update).
    pub fn path(&self) -> &str {
        match self {
            Operation::Add { path, .. }
            | Operation::Delete { path }
            | Operation::Update { path, .. } => path,
        }
    }
}

/// One `@@` chunk of an update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// The text after `@@ ` (usually a function or class header) that narrows where the chunk
    /// applies; the chunk's lines must come after it.
    pub context: Option<String>,
    /// Lines that must be present (context and `-` lines, in order).
    pub old_lines: Vec<String>,
    /// Lines that replace them (context and `+` lines, in order).
    pub new_lines: Vec<String>,
    /// Set by `*** End of File`: the old lines are expected at the end of the file.
    pub end_of_file: bool,
}

/// A parsed patch.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Patch {
    /// The operations, in the order written.
    pub operations: Vec<Operation>,
}

/// The file-change model is the one every slopguard crate uses: a patch's effect on one path,
/// with the bytes before and after.
pub use slopguard_change::{ChangeKind, FileChange};

/// Parses patch text into operations.
///
/// Accepts the bare envelope, the envelope wrapped in a `<<'EOF'` / `EOF` heredoc, and an
/// envelope preceded by a command line such as `apply_patch <<'EOF'` (the form models write when
/// they call `apply_patch` through a shell).
pub fn parse(text: &str) -> Result<Patch, ParseError> {
    let lines: Vec<&str> = text.trim().lines().collect();
    let body = envelope_body(&lines)?;
    let mut operations = Vec::new();
    let mut rest = body;
    // Line numbers are 1-based, and line 1 is `*** Begin Patch`.
    let mut line_no = 2;
    while !rest.is_empty() {
        if rest[0].trim().is_empty() {
            rest = &rest[1..];
            line_no += 1;
            continue;
        }
        let (op, used) = parse_operation(rest, line_no)?;
        operations.push(op);
        rest = &rest[used..];
        line_no += used;
    }
    Ok(Patch { operations })
}

/// Finds the lines between `*** Begin Patch` and `*** End Patch`.
fn envelope_body<'a>(lines: &'a [&'a str]) -> Result<&'a [&'a str], ParseError> {
    let begin = lines.iter().position(|l| l.trim() == BEGIN_PATCH);
    let Some(begin) = begin else {
        return Err(ParseError::Envelope(
            "the first line of the patch must be '*** Begin Patch'".into(),
        ));
    };
    // Only a heredoc/command prefix may stand before the begin marker.
    if begin > 0 && !lines[..begin].iter().all(|l| is_wrapper_line(l)) {
        return Err(ParseError::Envelope(
            "the first line of the patch must be '*** Begin Patch'".into(),
        ));
    }
    let end = lines.iter().rposition(|l| l.trim() == END_PATCH);
    let Some(end) = end.filter(|&e| e > begin) else {
        return Err(ParseError::Envelope(
            "the last line of the patch must be '*** End Patch'".into(),
        ));
    };
    if !lines[end + 1..].iter().all(|l| is_heredoc_end(l)) {
        return Err(ParseError::Envelope(
            "the last line of the patch must be '*** End Patch'".into(),
        ));
    }
    Ok(&lines[begin + 1..end])
}

/// A line that may precede the envelope: a heredoc opener, possibly after a command word.
fn is_wrapper_line(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.contains("<<") || t == "apply_patch" || t == "applypatch"
}

/// A line that may follow the envelope: a heredoc terminator.
fn is_heredoc_end(line: &str) -> bool {
    let t = line.trim();
    t.is_empty()
        || (t.len() <= 16
            && t.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '\'' || c == '"'))
}

fn hunk_err(line: usize, message: impl Into<String>) -> ParseError {
    ParseError::Hunk {
        line,
        message: message.into(),
    }
}

/// Parses one operation at the start of `lines`; returns it and the number of lines used.
fn parse_operation(lines: &[&str], line_no: usize) -> Result<(Operation, usize), ParseError> {
    let first = lines[0].trim();
    if let Some(path) = first.strip_prefix(ADD_FILE.trim_end()) {
        let path = checked_path(path, line_no)?;
        let mut contents = String::new();
        let mut used = 1;
        for line in &lines[1..] {
            match line.strip_prefix('+') {
                Some(text) => {
                    contents.push_str(text);
                    contents.push('\n');
                    used += 1;
                }
                None => break,
            }
        }
        return Ok((Operation::Add { path, contents }, used));
    }
    if let Some(path) = first.strip_prefix(DELETE_FILE.trim_end()) {
        let path = checked_path(path, line_no)?;
        return Ok((Operation::Delete { path }, 1));
    }
    if let Some(path) = first.strip_prefix(UPDATE_FILE.trim_end()) {
        let path = checked_path(path, line_no)?;
        let mut used = 1;
        let mut move_to = None;
        if let Some(dest) = lines
            .get(1)
            .and_then(|l| l.trim().strip_prefix(MOVE_TO.trim_end()))
        {
            move_to = Some(checked_path(dest, line_no + 1)?);
            used += 1;
        }
        let mut chunks = Vec::new();
        while used < lines.len() {
            let line = lines[used];
            if line.trim().is_empty() {
                // A blank separator line between chunks; a blank line inside a chunk is
                // handled by the chunk parser as an empty context line.
                used += 1;
                continue;
            }
            if line.starts_with("***") && line.trim() != END_OF_FILE {
                break;
            }
            let (chunk, n) = parse_chunk(&lines[used..], line_no + used, chunks.is_empty())?;
            chunks.push(chunk);
            used += n;
        }
        if chunks.is_empty() {
            return Err(hunk_err(
                line_no,
                format!("update of '{path}' has no change lines"),
            ));
        }
        return Ok((
            Operation::Update {
                path,
                move_to,
                chunks,
            },
            used,
        ));
    }
    Err(hunk_err(
        line_no,
        format!(
            "'{first}' is not a valid file header; expected '*** Add File: <path>', \
             '*** Delete File: <path>' or '*** Update File: <path>'"
        ),
    ))
}

fn checked_path(raw: &str, line_no: usize) -> Result<String, ParseError> {
    let path = raw.trim();
    if path.is_empty() {
        return Err(hunk_err(line_no, "missing file path"));
    }
    if path.contains('\0') {
        return Err(hunk_err(line_no, "file path contains a NUL byte"));
    }
    Ok(path.to_string())
}

/// Parses one chunk; `first` allows a missing `@@` header.
fn parse_chunk(lines: &[&str], line_no: usize, first: bool) -> Result<(Chunk, usize), ParseError> {
    let header = lines[0];
    let (context, start) = if header.trim_end() == "@@" {
        (None, 1)
    } else if let Some(ctx) = header.strip_prefix("@@ ") {
        let ctx = ctx.trim_end();
        // Unified-diff style `@@ -1,3 +1,4 @@` headers carry no usable context.
        let is_numeric = ctx.starts_with('-') && ctx.ends_with("@@");
        ((!is_numeric && !ctx.is_empty()).then(|| ctx.to_string()), 1)
    } else if first {
        (None, 0)
    } else {
        return Err(hunk_err(
            line_no,
            format!("expected a '@@' chunk header, got '{header}'"),
        ));
    };
    let mut chunk = Chunk {
        context,
        old_lines: Vec::new(),
        new_lines: Vec::new(),
        end_of_file: false,
    };
    let mut used = start;
    let mut changed = 0usize;
    for line in &lines[start..] {
        if line.trim() == END_OF_FILE {
            if changed == 0 {
                return Err(hunk_err(
                    line_no + used,
                    "'*** End of File' in an empty chunk",
                ));
            }
            chunk.end_of_file = true;
            used += 1;
            break;
        }
        match line.chars().next() {
            None => {
                chunk.old_lines.push(String::new());
                chunk.new_lines.push(String::new());
            }
            Some(' ') => {
                chunk.old_lines.push(line[1..].to_string());
                chunk.new_lines.push(line[1..].to_string());
            }
            Some('+') => chunk.new_lines.push(line[1..].to_string()),
            Some('-') => chunk.old_lines.push(line[1..].to_string()),
            Some(_) => {
                if changed == 0 {
                    return Err(hunk_err(
                        line_no + used,
                        format!(
                            "unexpected line '{line}' in a chunk; every line must start with \
                             ' ' (context), '+' (added) or '-' (removed)"
                        ),
                    ));
                }
                break;
            }
        }
        changed += 1;
        used += 1;
    }
    if changed == 0 {
        return Err(hunk_err(line_no, "chunk has no lines"));
    }
    Ok((chunk, used))
}

/// Applies the chunks of an update to `original`, returning the new text.
///
/// The result always ends with a newline, as Codex writes it.
pub fn apply_chunks(path: &str, original: &str, chunks: &[Chunk]) -> Result<String, ApplyError> {
    let mut lines: Vec<String> = original.split('\n').map(str::to_string).collect();
    if lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    let mut replacements: Vec<(usize, usize, Vec<String>)> = Vec::new();
    let mut cursor = 0usize;
    for chunk in chunks {
        if let Some(ctx) = &chunk.context {
            match seek_sequence(&lines, std::slice::from_ref(ctx), cursor, false) {
                Some(idx) => cursor = idx + 1,
                None => {
                    return Err(ApplyError::ContextNotFound {
                        path: path.to_string(),
                        context: ctx.clone(),
                    });
                }
            }
        }
        if chunk.old_lines.is_empty() {
            // Pure addition: at the end of the file (Codex's rule).
            replacements.push((lines.len(), 0, chunk.new_lines.clone()));
            continue;
        }
        let mut pattern: &[String] = &chunk.old_lines;
        let mut new_slice: &[String] = &chunk.new_lines;
        let mut found = seek_sequence(&lines, pattern, cursor, chunk.end_of_file);
        if found.is_none() && pattern.last().is_some_and(String::is_empty) {
            pattern = &pattern[..pattern.len() - 1];
            if new_slice.last().is_some_and(String::is_empty) {
                new_slice = &new_slice[..new_slice.len() - 1];
            }
            found = seek_sequence(&lines, pattern, cursor, chunk.end_of_file);
        }
        match found {
            Some(idx) => {
                replacements.push((idx, pattern.len(), new_slice.to_vec()));
                cursor = idx + pattern.len();
            }
            None => {
                return Err(ApplyError::LinesNotFound {
                    path: path.to_string(),
                    lines: chunk.old_lines.join("\n"),
                });
            }
        }
    }
    replacements.sort_by_key(|r| r.0);
    for (start, old_len, new) in replacements.into_iter().rev() {
        let end = (start + old_len).min(lines.len());
        let start = start.min(lines.len());
        lines.splice(start..end, new);
    }
    let mut out = lines.join("\n");
    out.push('\n');
    Ok(out)
}

/// Finds `pattern` in `lines` at or after `start`, with decreasing strictness (exact, trailing
/// whitespace ignored, surrounding whitespace ignored, typographic punctuation normalised).
/// With `eof`, the end of the file is tried first.
fn seek_sequence(lines: &[String], pattern: &[String], start: usize, eof: bool) -> Option<usize> {
    if pattern.is_empty() {
        return Some(start);
    }
    if pattern.len() > lines.len() {
        return None;
    }
    let last = lines.len() - pattern.len();
    let from = if eof { last } else { start.min(last + 1) };
    let passes: [fn(&str, &str) -> bool; 4] = [
        |a, b| a == b,
        |a, b| a.trim_end() == b.trim_end(),
        |a, b| a.trim() == b.trim(),
        |a, b| normalise(a) == normalise(b),
    ];
    for eq in passes {
        for i in from..=last {
            if pattern
                .iter()
                .enumerate()
                .all(|(j, p)| eq(&lines[i + j], p))
            {
                return Some(i);
            }
        }
        if eof && start <= last {
            for i in start.min(last)..=last {
                if pattern
                    .iter()
                    .enumerate()
                    .all(|(j, p)| eq(&lines[i + j], p))
                {
                    return Some(i);
                }
            }
        }
    }
    None
}

fn normalise(s: &str) -> String {
    s.trim()
        .chars()
        .map(|c| match c {
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            '\u{2018}'..='\u{201B}' => '\'',
            '\u{201C}'..='\u{201F}' => '"',
            '\u{00A0}' | '\u{2002}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => ' ',
            other => other,
        })
        .collect()
}

/// Applies a parsed patch to in-memory files.
///
/// `read` returns the current contents of a path as written in the patch, or `None` when the
/// file does not exist. Operations apply in order, so a later update sees an earlier one's
/// result. The returned changes are one per final path, in the order first touched.
pub fn apply<F>(patch: &Patch, mut read: F) -> Result<Vec<FileChange>, ApplyError>
where
    F: FnMut(&str) -> Option<String>,
{
    // Current view of every touched path: Some(text) exists, None deleted.
    let mut overlay: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut originals: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut renamed_from: BTreeMap<String, String> = BTreeMap::new();

    let mut current = |path: &str,
                       overlay: &BTreeMap<String, Option<String>>,
                       originals: &mut BTreeMap<String, Option<String>>|
     -> Option<String> {
        if let Some(v) = overlay.get(path) {
            return v.clone();
        }
        let v = read(path);
        originals
            .entry(path.to_string())
            .or_insert_with(|| v.clone());
        v
    };
    let touch = |path: &str, order: &mut Vec<String>| {
        if !order.iter().any(|p| p == path) {
            order.push(path.to_string());
        }
    };

    for op in &patch.operations {
        match op {
            Operation::Add { path, contents } => {
                if current(path, &overlay, &mut originals).is_some() {
                    return Err(ApplyError::AlreadyExists { path: path.clone() });
                }
                overlay.insert(path.clone(), Some(contents.clone()));
                touch(path, &mut order);
            }
            Operation::Delete { path } => {
                if current(path, &overlay, &mut originals).is_none() {
                    return Err(ApplyError::Missing {
                        path: path.clone(),
                        action: "delete",
                    });
                }
                overlay.insert(path.clone(), None);
                touch(path, &mut order);
            }
            Operation::Update {
                path,
                move_to,
                chunks,
            } => {
                let Some(text) = current(path, &overlay, &mut originals) else {
                    return Err(ApplyError::Missing {
                        path: path.clone(),
                        action: "update",
                    });
                };
                let new_text = apply_chunks(path, &text, chunks)?;
                match move_to.as_deref().filter(|d| *d != path) {
                    Some(dest) => {
                        let existing = current(dest, &overlay, &mut originals);
                        if existing.is_some() && overlay.contains_key(dest) {
                            return Err(ApplyError::Conflict {
                                path: dest.to_string(),
                            });
                        }
                        overlay.insert(path.clone(), None);
                        overlay.insert(dest.to_string(), Some(new_text));
                        renamed_from.insert(dest.to_string(), path.clone());
                        touch(dest, &mut order);
                    }
                    None => {
                        overlay.insert(path.clone(), Some(new_text));
                        touch(path, &mut order);
                    }
                }
            }
        }
    }

    let mut changes = Vec::new();
    for path in order {
        let after = overlay.get(&path).cloned().flatten();
        if let Some(from) = renamed_from.get(&path) {
            let before = originals.get(from).cloned().flatten();
            if after.is_some() && overlay.get(from).is_some_and(Option::is_none) {
                changes.push(FileChange {
                    path: path.clone(),
                    kind: ChangeKind::Rename { from: from.clone() },
                    before: before.map(String::into_bytes),
                    after: after.map(String::into_bytes),
                    after_is_symlink: false,
                });
                continue;
            }
        }
        let before = originals.get(&path).cloned().flatten();
        let kind = match (&before, &after) {
            (None, Some(_)) => ChangeKind::Create,
            (Some(_), None) => ChangeKind::Delete,
            (Some(_), Some(_)) => ChangeKind::Modify,
            (None, None) => continue, // added then deleted within one patch: no net change
        };
        changes.push(FileChange {
            path,
            kind,
            before: before.map(String::into_bytes),
            after: after.map(String::into_bytes),
            after_is_symlink: false,
        });
    }
    Ok(changes)
}

/// Parses and applies in one step.
pub fn parse_and_apply<F>(text: &str, read: F) -> Result<Vec<FileChange>, PatchError>
where
    F: FnMut(&str) -> Option<String>,
{
    let patch = parse(text)?;
    Ok(apply(&patch, read)?)
}

/// Either a parse or an apply failure.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatchError {
    /// The text is not a valid patch.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The patch does not fit the files.
    #[error(transparent)]
    Apply(#[from] ApplyError),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(pairs: &[(&str, &str)]) -> impl FnMut(&str) -> Option<String> + use<> {
        let map: BTreeMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |p: &str| map.get(p).cloned()
    }

    #[test]
    fn seek_sequence_strictness_ladder() {
        let lines: Vec<String> = ["foo   ", "  bar\t", "“quoted” — dash"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(seek_sequence(&lines, &p(&["foo"]), 0, false), Some(0));
        assert_eq!(seek_sequence(&lines, &p(&["bar"]), 0, false), Some(1));
        assert_eq!(
            seek_sequence(&lines, &p(&["\"quoted\" - dash"]), 0, false),
            Some(2)
        );
        assert_eq!(
            seek_sequence(&lines, &p(&["a", "b", "c", "d"]), 0, false),
            None
        );
        assert_eq!(seek_sequence(&lines, &p(&["foo"]), 1, false), None);
    }

    #[test]
    fn eof_chunk_prefers_end() {
        let text = "x\ny\nx\n";
        let chunk = Chunk {
            context: None,
            old_lines: vec!["x".into()],
            new_lines: vec!["z".into()],
            end_of_file: true,
        };
        assert_eq!(apply_chunks("f", text, &[chunk]).unwrap(), "x\ny\nz\n");
    }

    #[test]
    fn add_then_delete_is_no_change() {
        let patch =
            parse("*** Begin Patch\n*** Add File: a\n+x\n*** Delete File: a\n*** End Patch")
                .unwrap();
        assert_eq!(apply(&patch, files(&[])).unwrap(), vec![]);
    }
}
