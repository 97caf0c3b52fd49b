//! Unified / git diffs: parsing and tolerant in-memory application.
//!
//! LLMs write hunks whose `@@ -a,b +c,d @@` line counts are wrong, so the counts are ignored:
//! a hunk's body runs until the next hunk or file header, and its old lines are located in the
//! file by content, preferring the position nearest the header's line number, first exactly and
//! then ignoring trailing whitespace.

use crate::ChangeError;

/// One file's section of a diff.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FilePatch {
    /// Path before (`None` for a new file).
    pub old_path: Option<String>,
    /// Path after (`None` for a deleted file).
    pub new_path: Option<String>,
    pub hunks: Vec<Hunk>,
    /// `GIT binary patch` or `Binary files ... differ`: content not in the diff.
    pub binary: bool,
}

/// One hunk.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hunk {
    /// 1-based start line in the old file from the header (a hint only).
    pub old_start: usize,
    pub lines: Vec<HunkLine>,
    /// The old side has no trailing newline (`\ No newline at end of file` after it).
    pub old_no_newline: bool,
    /// The new side has no trailing newline.
    pub new_no_newline: bool,
}

/// A line of a hunk body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HunkLine {
    Context(String),
    Remove(String),
    Add(String),
}

/// A path of a `---` / `+++` / `diff --git` header without its `a/` or `b/` prefix (`None` for
/// `/dev/null`). A C-quoted name (git quotes names with non-ASCII bytes, control characters, `"`
/// or `\`: `"a/\303\251t\303\251.py"`) is unquoted; an unquoted one ends at a tab (GNU diff's
/// timestamp, git's marker after names with spaces).
fn strip_prefix_path(raw: &str) -> Option<String> {
    let raw = raw.trim_end();
    let name = match unquote(raw) {
        Some((name, _)) => name,
        None => raw.split('\t').next().unwrap_or(raw).trim_end().to_string(),
    };
    if name == "/dev/null" {
        return None;
    }
    let p = name
        .strip_prefix("a/")
        .or_else(|| name.strip_prefix("b/"))
        .unwrap_or(&name);
    Some(p.to_string())
}

/// A path of a `rename from` / `rename to` line (no prefix), unquoted when git quoted it.
fn rename_path(raw: &str) -> String {
    unquote(raw).map_or_else(|| raw.to_string(), |(name, _)| name)
}

/// Decodes a C-quoted name at the start of `s` as git writes it (`quote_c_style`): the text
/// between double quotes with `\a \b \t \n \v \f \r \" \\` and three-digit octal byte escapes.
/// Returns the name (bytes read as UTF-8, invalid sequences replaced) and the text after the
/// closing quote; `None` when `s` does not start with a complete quoted name.
fn unquote(s: &str) -> Option<(String, &str)> {
    let body = s.strip_prefix('"')?;
    let bytes = body.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return Some((String::from_utf8_lossy(&out).into_owned(), &body[i + 1..])),
            b'\\' => {
                let (byte, used) = unescape(bytes.get(i + 1..)?)?;
                out.push(byte);
                i += 1 + used;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    None
}

/// One escape after a backslash: the byte it stands for and how many bytes it used.
fn unescape(rest: &[u8]) -> Option<(u8, usize)> {
    let simple = match rest.first()? {
        b'a' => 0x07,
        b'b' => 0x08,
        b't' => b'\t',
        b'n' => b'\n',
        b'v' => 0x0b,
        b'f' => 0x0c,
        b'r' => b'\r',
        b'"' => b'"',
        b'\\' => b'\\',
        b'0'..=b'3' => {
            let digits = rest.get(..3)?;
            if !digits.iter().all(|d| (b'0'..=b'7').contains(d)) {
                return None;
            }
            let value = digits.iter().fold(0u8, |v, d| (v << 3) | (d - b'0'));
            return Some((value, 3));
        }
        _ => return None,
    };
    Some((simple, 1))
}

/// Parses a unified or git-style diff into per-file patches.
pub fn parse(text: &str) -> Result<Vec<FilePatch>, ChangeError> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut files: Vec<FilePatch> = Vec::new();
    let mut cur: Option<FilePatch> = None;
    let mut i = 0;
    let mut in_hunk = false;
    while i < lines.len() {
        let line = lines[i].strip_suffix('\r').unwrap_or(lines[i]);
        if let Some(rest) = line.strip_prefix("diff --git ") {
            if let Some(f) = cur.take() {
                files.push(f);
            }
            in_hunk = false;
            let mut fp = FilePatch::default();
            if let Some((a, b)) = split_git_header(rest) {
                fp.old_path = strip_prefix_path(a);
                fp.new_path = strip_prefix_path(b);
            }
            cur = Some(fp);
            i += 1;
            continue;
        }
        let next = lines.get(i + 1).map(|l| l.strip_suffix('\r').unwrap_or(l));
        if line.starts_with("--- ") && next.is_some_and(|n| n.starts_with("+++ ")) {
            let old = strip_prefix_path(&line[4..]);
            let new = strip_prefix_path(&next.unwrap_or_default()[4..]);
            let fresh = match &cur {
                Some(f) => !f.hunks.is_empty(),
                None => true,
            };
            if fresh {
                if let Some(f) = cur.take() {
                    files.push(f);
                }
                cur = Some(FilePatch::default());
            }
            if let Some(f) = cur.as_mut() {
                f.old_path = old;
                f.new_path = new;
            }
            in_hunk = false;
            i += 2;
            continue;
        }
        if let Some(f) = cur.as_mut() {
            if line.starts_with("@@") {
                let old_start = parse_hunk_start(line).ok_or_else(|| {
                    ChangeError::InvalidPatch(format!("malformed hunk header `{line}`"))
                })?;
                f.hunks.push(Hunk {
                    old_start,
                    ..Hunk::default()
                });
                in_hunk = true;
            } else if !in_hunk {
                if line.starts_with("new file mode") {
                    f.old_path = None;
                } else if line.starts_with("deleted file mode") {
                    f.new_path = None;
                } else if let Some(p) = line.strip_prefix("rename from ") {
                    f.old_path = Some(rename_path(p));
                } else if let Some(p) = line.strip_prefix("rename to ") {
                    f.new_path = Some(rename_path(p));
                } else if line.starts_with("GIT binary patch") || line.starts_with("Binary files ")
                {
                    f.binary = true;
                }
            } else if let Some(h) = f.hunks.last_mut() {
                if let Some(t) = line.strip_prefix('+') {
                    h.lines.push(HunkLine::Add(t.to_string()));
                } else if let Some(t) = line.strip_prefix('-') {
                    h.lines.push(HunkLine::Remove(t.to_string()));
                } else if let Some(t) = line.strip_prefix(' ') {
                    h.lines.push(HunkLine::Context(t.to_string()));
                } else if line.starts_with('\\') {
                    match h.lines.last() {
                        Some(HunkLine::Add(_)) => h.new_no_newline = true,
                        Some(HunkLine::Remove(_)) => h.old_no_newline = true,
                        _ => {
                            h.old_no_newline = true;
                            h.new_no_newline = true;
                        }
                    }
                } else if line.is_empty() {
                    // An empty line inside a hunk: a context line whose space was stripped
                    // (editors and LLMs do this), unless it is the diff's final newline.
                    if i + 1 < lines.len() {
                        h.lines.push(HunkLine::Context(String::new()));
                    }
                } else {
                    in_hunk = false;
                }
            }
        }
        i += 1;
    }
    if let Some(f) = cur.take() {
        files.push(f);
    }
    for f in &mut files {
        // Trailing empty "context" lines picked up at the end of a hunk are artefacts.
        for h in &mut f.hunks {
            while matches!(h.lines.last(), Some(HunkLine::Context(s)) if s.is_empty()) {
                h.lines.pop();
            }
        }
    }
    files.retain(|f| f.old_path.is_some() || f.new_path.is_some());
    if files.is_empty() && !text.trim().is_empty() {
        return Err(ChangeError::InvalidPatch(
            "no file headers (`--- a/x` / `+++ b/x` or `diff --git`) found in the diff".into(),
        ));
    }
    Ok(files)
}

/// The two names of a `diff --git` line, still quoted and prefixed: a quoted first name ends at
/// its closing quote; an unquoted first name before a quoted second one ends at ` "` (an
/// unquoted name holds no `"`); two unquoted names split at ` b/`, else in the middle.
fn split_git_header(rest: &str) -> Option<(&str, &str)> {
    if rest.starts_with('"') {
        let (_, tail) = unquote(rest)?;
        let end = rest.len() - tail.len();
        return Some((&rest[..end], tail.strip_prefix(' ')?));
    }
    if rest.ends_with('"')
        && let Some(idx) = rest.find(" \"")
    {
        return Some((&rest[..idx], &rest[idx + 1..]));
    }
    if let Some(idx) = rest.find(" b/") {
        return Some((&rest[..idx], &rest[idx + 1..]));
    }
    let mid = rest.len() / 2;
    rest.get(..mid).zip(rest.get(mid + 1..))
}

fn parse_hunk_start(line: &str) -> Option<usize> {
    let rest = line.strip_prefix("@@")?.trim_start();
    let old = rest.strip_prefix('-')?;
    let num: String = old.chars().take_while(|c| c.is_ascii_digit()).collect();
    if num.is_empty() {
        // "@@ @@" without numbers: LLMs write these; locate by content alone.
        return Some(0);
    }
    num.parse().ok()
}

/// Applies `patch` to `before` (the old file content, `None` for a new file).
pub fn apply(path: &str, before: Option<&str>, patch: &FilePatch) -> Result<String, ChangeError> {
    let original = before.unwrap_or("");
    let had_final_newline = original.ends_with('\n');
    let mut lines: Vec<String> = if original.is_empty() {
        Vec::new()
    } else {
        original
            .strip_suffix('\n')
            .unwrap_or(original)
            .split('\n')
            .map(str::to_string)
            .collect()
    };
    let mut final_newline = had_final_newline || original.is_empty();
    let mut offset: isize = 0;
    let mut search_from = 0usize;
    for (n, hunk) in patch.hunks.iter().enumerate() {
        let old: Vec<&str> = hunk
            .lines
            .iter()
            .filter_map(|l| match l {
                HunkLine::Context(s) | HunkLine::Remove(s) => Some(s.as_str()),
                HunkLine::Add(_) => None,
            })
            .collect();
        let new: Vec<String> = hunk
            .lines
            .iter()
            .filter_map(|l| match l {
                HunkLine::Context(s) | HunkLine::Add(s) => Some(s.clone()),
                HunkLine::Remove(_) => None,
            })
            .collect();
        let hint = (hunk.old_start as isize - 1 + offset).max(0) as usize;
        let pos = if old.is_empty() {
            if hunk.old_start == 0 {
                lines.len().min(hint)
            } else {
                hint.min(lines.len())
            }
        } else {
            locate(&lines, &old, hint, search_from).ok_or_else(|| ChangeError::HunkFailed {
                path: path.to_string(),
                hunk: n + 1,
                reason: format!(
                    "its {} context/removed line(s) starting `{}` were not found in the file",
                    old.len(),
                    old.first().map(|s| truncate(s, 60)).unwrap_or_default()
                ),
            })?
        };
        let end = pos + old.len();
        let touches_end = end >= lines.len();
        lines.splice(pos..end, new.iter().cloned());
        offset += new.len() as isize - old.len() as isize;
        search_from = pos + new.len();
        if touches_end {
            if hunk.new_no_newline {
                final_newline = false;
            } else if hunk.old_no_newline {
                final_newline = true;
            }
        }
    }
    let mut out = lines.join("\n");
    if final_newline && !lines.is_empty() {
        out.push('\n');
    }
    Ok(out)
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(n).collect::<String>())
    }
}

/// Finds `needle` in `lines` at or after `from`, nearest to `hint`; exact first, then ignoring
/// trailing whitespace.
fn locate(lines: &[String], needle: &[&str], hint: usize, from: usize) -> Option<usize> {
    if needle.len() > lines.len() {
        return None;
    }
    let last = lines.len() - needle.len();
    let exact = |p: usize| {
        lines[p..p + needle.len()]
            .iter()
            .zip(needle)
            .all(|(a, b)| a == b)
    };
    let loose = |p: usize| {
        lines[p..p + needle.len()]
            .iter()
            .zip(needle)
            .all(|(a, b)| a.trim_end() == b.trim_end())
    };
    for matcher in [&exact as &dyn Fn(usize) -> bool, &loose] {
        let mut best: Option<usize> = None;
        for p in from.min(last + 1)..=last {
            if matcher(p) && best.is_none_or(|b| p.abs_diff(hint) < b.abs_diff(hint)) {
                best = Some(p);
            }
        }
        if best.is_some() {
            return best;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applies_git_diff() {
        let diff =
            "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n";
        let files = parse(diff).unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].new_path.as_deref(), Some("x.py"));
        let out = apply("x.py", Some("a\nb\nc\n"), &files[0]).unwrap();
        assert_eq!(out, "a\nB\nc\n");
    }

    #[test]
    fn tolerates_wrong_counts_and_offsets() {
        // Counts say 9 lines and start 40: both wrong.
        let diff = "--- a/f\n+++ b/f\n@@ -40,9 +40,9 @@\n two\n-three\n+THREE\n four\n";
        let files = parse(diff).unwrap();
        let out = apply("f", Some("one\ntwo\nthree\nfour\nfive\n"), &files[0]).unwrap();
        assert_eq!(out, "one\ntwo\nTHREE\nfour\nfive\n");
    }

    #[test]
    fn new_and_deleted_files() {
        let diff = "diff --git a/n.txt b/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\ndiff --git a/d.txt b/d.txt\ndeleted file mode 100644\n--- a/d.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n";
        let files = parse(diff).unwrap();
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].old_path, None);
        assert_eq!(apply("n.txt", None, &files[0]).unwrap(), "hello\nworld\n");
        assert_eq!(files[1].new_path, None);
    }

    #[test]
    fn rejects_hunk_that_does_not_match() {
        let diff = "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-zzz\n+yyy\n";
        let files = parse(diff).unwrap();
        let err = apply("f", Some("a\nb\n"), &files[0]).unwrap_err();
        assert!(err.to_string().contains("hunk 1 does not apply"), "{err}");
    }

    #[test]
    fn no_newline_marker() {
        let diff = "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n\\ No newline at end of file\n";
        let files = parse(diff).unwrap();
        assert_eq!(apply("f", Some("a\n"), &files[0]).unwrap(), "b");
    }

    #[test]
    fn garbage_is_an_error() {
        assert!(parse("this is not a diff\n").is_err());
    }

    #[test]
    fn rename_headers() {
        let diff = "diff --git a/old.rs b/new.rs\nsimilarity index 100%\nrename from old.rs\nrename to new.rs\n";
        let files = parse(diff).unwrap();
        assert_eq!(files[0].old_path.as_deref(), Some("old.rs"));
        assert_eq!(files[0].new_path.as_deref(), Some("new.rs"));
        assert!(files[0].hunks.is_empty());
    }

    #[test]
    fn quoted_names_are_unquoted() {
        assert_eq!(
            unquote(r#""a/\303\251t\303\251.py"	"#),
            Some(("a/\u{e9}t\u{e9}.py".to_string(), "\t"))
        );
        assert_eq!(
            unquote(r#""tab\there \"q\" back\\slash\a""#).map(|(n, _)| n),
            Some("tab\there \"q\" back\\slash\u{7}".to_string())
        );
        for bad in [r#""open"#, r#""bad \q escape""#, r#""\39x""#, "plain"] {
            assert_eq!(unquote(bad), None, "{bad}");
        }
        let diff = concat!(
            "diff --git \"a/\\303\\251.py\" \"b/\\303\\261.py\"\n",
            "similarity index 90%\n",
            "rename from \"\\303\\251.py\"\n",
            "rename to \"\\303\\261.py\"\n",
            "--- \"a/\\303\\251.py\"\n",
            "+++ \"b/\\303\\261.py\"\n",
            "@@ -1 +1 @@\n-a\n+b\n",
            "diff --git a/plain.py \"b/\\303\\274 x.py\"\n",
            "new file mode 100644\n",
            "--- /dev/null\n",
            "+++ \"b/\\303\\274 x.py\"\t\n",
            "@@ -0,0 +1 @@\n+x\n",
        );
        let files = parse(diff).unwrap();
        assert_eq!(files[0].old_path.as_deref(), Some("\u{e9}.py"));
        assert_eq!(files[0].new_path.as_deref(), Some("\u{f1}.py"));
        assert_eq!(files[1].old_path, None);
        assert_eq!(files[1].new_path.as_deref(), Some("\u{fc} x.py"));
    }
}
