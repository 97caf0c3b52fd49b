//! Search/replace edit blocks, the edit format for modifying existing files:
//!
//! ```text
//! path/to/file.py
//! <<<<<<< SEARCH
//! exact old lines
//! =======
//! new lines
//! >>>>>>> REPLACE
//! ```
//!
//! The search text must occur exactly once in the file; no match or several matches is an
//! error that says which, so the model can correct itself.

use crate::ChangeError;
use crate::matcher::{self, Matcher};

/// One search/replace edit of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditBlock {
    pub path: String,
    pub search: String,
    pub replace: String,
}

/// Parses edit blocks from text. The path is the last non-empty line before each
/// `<<<<<<< SEARCH` marker (markdown fences and backticks around it are ignored).
pub fn parse_edit_blocks(text: &str) -> Result<Vec<EditBlock>, ChangeError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    let mut last_path: Option<String> = None;
    while i < lines.len() {
        let line = lines[i].trim_end();
        if is_marker(line, '<', "SEARCH") {
            let path = (0..i)
                .rev()
                .map(|j| lines[j].trim())
                .find(|l| !l.is_empty() && !l.starts_with("```") && !is_marker(l, '>', "REPLACE"))
                .map(|l| l.trim_matches('`').trim().to_string())
                .filter(|l| !l.contains(' ') || l.contains('/'))
                .or_else(|| last_path.clone())
                .ok_or_else(|| {
                    ChangeError::InvalidPatch(format!(
                        "edit block at line {} has no file path on the line before it",
                        i + 1
                    ))
                })?;
            let mut search = Vec::new();
            let mut replace = Vec::new();
            let mut j = i + 1;
            while j < lines.len() && !is_divider(lines[j]) {
                search.push(lines[j]);
                j += 1;
            }
            if j >= lines.len() {
                return Err(ChangeError::InvalidPatch(format!(
                    "edit block for {path} at line {} has no `=======` divider",
                    i + 1
                )));
            }
            j += 1;
            while j < lines.len() && !is_marker(lines[j].trim_end(), '>', "REPLACE") {
                replace.push(lines[j]);
                j += 1;
            }
            if j >= lines.len() {
                return Err(ChangeError::InvalidPatch(format!(
                    "edit block for {path} at line {} has no `>>>>>>> REPLACE` end",
                    i + 1
                )));
            }
            blocks.push(EditBlock {
                path: path.clone(),
                search: join_lines(&search),
                replace: join_lines(&replace),
            });
            last_path = Some(path);
            i = j + 1;
        } else {
            i += 1;
        }
    }
    Ok(blocks)
}

fn join_lines(lines: &[&str]) -> String {
    if lines.is_empty() {
        String::new()
    } else {
        let mut s = lines.join("\n");
        s.push('\n');
        s
    }
}

fn is_marker(line: &str, ch: char, word: &str) -> bool {
    let t = line.trim();
    let n = t.chars().take_while(|c| *c == ch).count();
    n >= 5 && t[n..].trim() == word
}

fn is_divider(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 5 && t.chars().all(|c| c == '=')
}

/// Applies one search/replace to `content`. An empty search appends to the file.
pub fn apply_edit(
    path: &str,
    content: &str,
    search: &str,
    replace: &str,
) -> Result<String, ChangeError> {
    apply_edit_traced(path, content, search, replace).map(|(text, _)| text)
}

/// [`apply_edit`], also saying which matcher of the chain ([`crate::matcher`]) placed the
/// search text (`None` for an append).
pub fn apply_edit_traced(
    path: &str,
    content: &str,
    search: &str,
    replace: &str,
) -> Result<(String, Option<Matcher>), ChangeError> {
    if search.is_empty() {
        let mut out = content.to_string();
        out.push_str(replace);
        return Ok((out, None));
    }
    match matcher::apply(content, search, replace) {
        Ok((text, m)) => Ok((text, Some(m))),
        Err(e) => Err(ChangeError::EditFailed {
            path: path.to_string(),
            reason: format!("{e}; search starting `{}`", first_line(search)),
        }),
    }
}

fn first_line(s: &str) -> String {
    let line = s.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    line.chars().take(80).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_applies() {
        let text = "Here is the fix:\n\nsrc/db.py\n```python\n<<<<<<< SEARCH\n    q = f\"select {x}\"\n=======\n    q = \"select ?\"\n>>>>>>> REPLACE\n```\n";
        let blocks = parse_edit_blocks(text).unwrap();
        assert_eq!(blocks.len(), 1);
        assert_eq!(blocks[0].path, "src/db.py");
        let out = apply_edit(
            "src/db.py",
            "def f(x):\n    q = f\"select {x}\"\n    return q\n",
            &blocks[0].search,
            &blocks[0].replace,
        )
        .unwrap();
        assert_eq!(out, "def f(x):\n    q = \"select ?\"\n    return q\n");
    }

    #[test]
    fn ambiguous_and_missing() {
        let e = apply_edit("a", "x\nx\n", "x\n", "y\n").unwrap_err();
        assert!(e.to_string().contains("2 places"), "{e}");
        let e = apply_edit("a", "x\n", "zz\n", "y\n").unwrap_err();
        assert!(e.to_string().contains("not in the file"), "{e}");
    }

    #[test]
    fn unterminated_block_is_an_error() {
        let e = parse_edit_blocks("a.py\n<<<<<<< SEARCH\nx\n").unwrap_err();
        assert!(e.to_string().contains("divider"), "{e}");
    }
}
