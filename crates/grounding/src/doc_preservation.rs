//! G13 doc-preservation: doc modifications that destroy fenced code blocks or write literal
//! `\n` escape sequences instead of newlines.
//!
//! Two checks on a modified Markdown file: (1) the characters inside fenced code blocks fall
//! below [`KEEP_RATIO`] of the original when the original had at least [`MIN_ORIGINAL_CHARS`];
//! code lines that moved into new Markdown table rows of the same document, or into another
//! file of the same change, count as kept; (2) a fenced block's new lines carry two or more
//! literal `\n` sequences between them (or one that joins two lines of the original's code),
//! or a whole fence was flattened onto one line.
//!
//! Changelogs are judged like any other doc: by what they lose, not by their name (rotating
//! release notes into an archive file of the same change keeps them). Other reference docs
//! (contributing guides, FAQs, glossaries, migration notes) are not judged: their blocks follow
//! policy changes. A doc emptied whole is not judged: removing a document is the deletion
//! budget's call.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::markdown::{self, Doc};

/// Share of fenced code characters a modification must keep.
pub const KEEP_RATIO: f64 = 0.30;
/// Originals with fewer fenced code characters are not judged.
pub const MIN_ORIGINAL_CHARS: usize = 50;

/// What was damaged.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DocDamage {
    /// Fenced code lost: `kept` of `original` characters remain.
    CodeBlocksDestroyed {
        /// Fenced code characters before.
        original: usize,
        /// Fenced code characters after.
        kept: usize,
        /// Fenced blocks before.
        blocks_before: usize,
        /// Fenced blocks after.
        blocks_after: usize,
    },
    /// A line with 2+ literal `\n` sequences.
    LiteralNewlines {
        /// 1-based line in the new text.
        line: u32,
        /// How many literal `\n` the line has.
        count: usize,
        /// The line, shortened.
        excerpt: String,
    },
}

/// Literal `\n` sequences outside quoted strings: `printf 'a\nb'` and `b'\x89PNG\r\n'` are
/// legitimate escapes; `cargo build\ncargo test` between commands is corruption.
pub fn unquoted_literal_newlines(line: &str) -> usize {
    let b = line.as_bytes();
    let mut quote: Option<u8> = None;
    let mut count = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\\' {
            if quote.is_none() && b.get(i + 1) == Some(&b'n') {
                count += 1;
            }
            i += 2;
            continue;
        }
        match quote {
            Some(q) if c == q => quote = None,
            None if c == b'"' || c == b'\'' || c == b'`' => quote = Some(c),
            _ => {}
        }
        i += 1;
    }
    count
}

/// Literal `\n` damage in the fenced blocks of `after`, counted per block over the lines the
/// original did not have: (line of the first damaged line, count in the block, that line).
/// One sequence is enough when it joins two lines of the original's code (`cargo build\ncargo
/// test` where the original had them on two lines).
fn literal_nl_blocks(before: &Doc, after: &Doc) -> Vec<(u32, usize, String)> {
    let old_lines: BTreeSet<&str> = fenced_lines(before).collect();
    let mut out = Vec::new();
    for b in after.code_blocks.iter().filter(|b| b.fenced) {
        let mut first: Option<(u32, String)> = None;
        let mut count = 0;
        let mut joins = false;
        for (i, l) in b.text.lines().enumerate() {
            if old_lines.contains(l.trim()) {
                continue;
            }
            let n = unquoted_literal_newlines(l);
            if n == 0 {
                continue;
            }
            count += n;
            joins |= n == 1 && {
                let mut parts = l.splitn(2, "\\n").map(str::trim);
                let (a, z) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
                !a.is_empty() && !z.is_empty() && old_lines.contains(a) && old_lines.contains(z)
            };
            first.get_or_insert((b.line + 1 + i as u32, l.to_string()));
        }
        if let Some((line, l)) = first.filter(|_| count >= 2 || joins) {
            out.push((line, count, l));
        }
    }
    out
}

/// A fence flattened onto one line: "```bash\ncargo build\n```" as literal text.
fn flattened_fences(text: &str) -> Vec<(u32, usize, String)> {
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let n = l.matches("\\n").count();
        if n >= 2 && (l.contains("```\\n") || l.contains("\\n```")) {
            out.push((i as u32 + 1, n, l.to_string()));
        }
    }
    out
}

/// The trimmed, non-blank lines of a document's fenced code.
fn fenced_lines(doc: &Doc) -> impl Iterator<Item = &str> {
    doc.code_blocks
        .iter()
        .filter(|b| b.fenced)
        .flat_map(|b| b.text.lines())
        .map(str::trim)
        .filter(|l| !l.is_empty())
}

/// The words and figures a line of output or a table row carries, punctuation trimmed:
/// `bench:   1,234 ns/iter (+/- 56)` -> `bench`, `1,234`, `ns/iter`, `56`.
fn significant_tokens(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| c.is_whitespace() || c == '|')
        .map(|t| t.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|t| t.chars().any(|c| c.is_ascii_digit()) || t.chars().count() >= 3)
}

/// Characters of the original's fenced code that the edit did not keep in a fence but did not
/// destroy either: lines whose figures and words now sit in table rows the edit added (raw
/// benchmark output rewritten as a Markdown table), and lines that now appear in another file
/// of the same change (release notes rotated into an archive).
fn moved_chars(
    before: &Doc,
    after_text: &str,
    after: &Doc,
    before_text: &str,
    elsewhere: &[&str],
) -> usize {
    let kept: BTreeSet<&str> = fenced_lines(after).collect();
    let old_rows: BTreeSet<&str> = before_text.lines().map(str::trim).collect();
    let table_tokens: BTreeSet<&str> = after_text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with('|') && l.len() > 1 && l[1..].contains('|'))
        .filter(|l| !old_rows.contains(l) && !kept.contains(l))
        .flat_map(significant_tokens)
        .collect();
    let other_lines: BTreeSet<&str> = elsewhere
        .iter()
        .flat_map(|t| t.lines())
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut moved = 0;
    for l in fenced_lines(before).filter(|l| !kept.contains(l)) {
        let tokens: Vec<&str> = significant_tokens(l).collect();
        let in_table = tokens.iter().filter(|t| table_tokens.contains(*t)).count();
        if other_lines.contains(l) || (!tokens.is_empty() && 2 * in_table >= tokens.len()) {
            moved += l.chars().count() + 1;
        }
    }
    moved
}

fn shorten(s: &str) -> String {
    let s = s.trim();
    if s.chars().count() > 120 {
        let cut: String = s.chars().take(117).collect();
        format!("{cut}...")
    } else {
        s.to_string()
    }
}

/// Issue and pull-request templates (`.github/ISSUE_TEMPLATE/bug-report.md`,
/// `pull_request_template.md`): forms whose fences are placeholders ("Paste a minimal
/// example"), rewritten with the project's triage policy like a contributing guide.
fn is_form_template(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let base = lower.rsplit('/').next().unwrap_or(&lower);
    lower.contains("issue_template/")
        || base.starts_with("issue_template")
        || base.starts_with("pull_request_template")
}

/// Changelogs and release notes by file name (`CHANGELOG.md`, `HISTORY.md`, `NEWS.md`, ...).
fn is_changelog(path: &str) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let stem = base.split('.').next().unwrap_or(&base);
    matches!(
        stem,
        "changelog"
            | "changes"
            | "history"
            | "news"
            | "release"
            | "releases"
            | "release-notes"
            | "release_notes"
    )
}

/// G13 on one modified doc, alone. See [`check_in_change`].
pub fn check(path: &str, before: &str, after: &str) -> Vec<DocDamage> {
    check_in_change(path, before, after, &[])
}

/// G13 on one modified doc; `elsewhere` holds what the same change newly wrote to its other
/// files (code moved there is not lost). Created and deleted files are not judged (the guard
/// passes only modifies), nor is a doc emptied whole (the deletion budget judges that);
/// non-Markdown files are skipped.
pub fn check_in_change(
    path: &str,
    before: &str,
    after: &str,
    elsewhere: &[&str],
) -> Vec<DocDamage> {
    if !markdown::is_markdown_path(path) || after.trim().is_empty() {
        return Vec::new();
    }
    // Contributing guides, FAQs, glossaries and the like change policy, not examples; their
    // blocks come and go with it. Changelogs are judged.
    if (crate::content::is_reference_doc(path) && !is_changelog(path)) || is_form_template(path) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let b = markdown::parse(before);
    let a = markdown::parse(after);
    let original = b.fenced_chars();
    let mut kept = a.fenced_chars();
    if original >= MIN_ORIGINAL_CHARS && (kept as f64) < KEEP_RATIO * original as f64 {
        kept += moved_chars(&b, after, &a, before, elsewhere);
    }
    if original >= MIN_ORIGINAL_CHARS && (kept as f64) < KEEP_RATIO * original as f64 {
        out.push(DocDamage::CodeBlocksDestroyed {
            original,
            kept,
            blocks_before: b.code_blocks.iter().filter(|c| c.fenced).count(),
            blocks_after: a.code_blocks.iter().filter(|c| c.fenced).count(),
        });
    }
    let old_flat: BTreeSet<String> = flattened_fences(before)
        .into_iter()
        .map(|(_, _, l)| l.trim().to_string())
        .collect();
    let flat = flattened_fences(after)
        .into_iter()
        .filter(|(_, _, l)| !old_flat.contains(l.trim()));
    {
        for (line, count, l) in literal_nl_blocks(&b, &a).into_iter().chain(flat) {
            let already = out
                .iter()
                .any(|d| matches!(d, DocDamage::LiteralNewlines { line: x, .. } if *x == line));
            if !already {
                out.push(DocDamage::LiteralNewlines {
                    line,
                    count,
                    excerpt: shorten(&l),
                });
            }
        }
    }
    out
}

/// Human message for one damage.
pub fn describe(d: &DocDamage) -> String {
    match d {
        DocDamage::CodeBlocksDestroyed {
            original,
            kept,
            blocks_before,
            blocks_after,
        } => format!(
            "fenced code blocks destroyed: {kept} of {original} code characters kept ({blocks_after} of {blocks_before} blocks)"
        ),
        DocDamage::LiteralNewlines { count, excerpt, .. } => {
            let s = if *count == 1 { "" } else { "s" };
            format!(
                "literal \\n corruption ({count} escaped newline{s} in one code block): {excerpt}"
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const README: &str = "# b2v\n\n## Install\n\n```bash\ncargo install b2v\nb2v encode input.bin --out video.mp4\n```\n\n## Decode\n\n```bash\nb2v decode video.mp4 --out input.bin\n```\n";

    #[test]
    fn deleted_blocks_are_flagged() {
        let after = "# b2v\n\nSee the [docs](docs/guide/code/encoder.md) for usage.\n";
        let v = check("README.md", README, after);
        assert!(
            matches!(
                v[0],
                DocDamage::CodeBlocksDestroyed {
                    kept: 0,
                    blocks_before: 2,
                    ..
                }
            ),
            "{v:?}"
        );
    }

    #[test]
    fn literal_newlines_are_flagged() {
        let after = "# b2v\n\n## Install\n\n```bash\ncargo install b2v\\nb2v encode input.bin --out video.mp4\\nb2v decode video.mp4\n```\n\n## Decode\n\n```bash\nb2v decode video.mp4 --out input.bin\n```\n";
        let v = check("README.md", README, after);
        assert_eq!(v.len(), 1, "{v:?}");
        assert!(matches!(
            v[0],
            DocDamage::LiteralNewlines {
                line: 6,
                count: 2,
                ..
            }
        ));
        let flat = "# b2v\\n\\n```bash\\ncargo install b2v\\n```\\n";
        let v = check("README.md", README, flat);
        assert!(
            v.iter()
                .any(|d| matches!(d, DocDamage::LiteralNewlines { .. }))
        );
        assert!(
            v.iter()
                .any(|d| matches!(d, DocDamage::CodeBlocksDestroyed { .. }))
        );
    }

    #[test]
    fn consolidation_and_small_docs_pass() {
        let after = "# b2v\n\n## Usage\n\n```bash\ncargo install b2v\nb2v encode input.bin --out video.mp4\n```\n";
        assert!(check("README.md", README, after).is_empty());
        assert!(check("README.md", "```\nls\n```\n", "no code").is_empty());
        let printf = "```sh\nprintf 'a\\nb\\n'\n```\n";
        assert!(check("README.md", "# x\n", printf).is_empty());
        assert_eq!(unquoted_literal_newlines(r"SIG = b'\x89PNG\r\n\x1a\n'"), 0);
        assert_eq!(unquoted_literal_newlines(r"cargo build\ncargo test\n"), 2);
        assert!(check("notes.rst", README, "").is_empty());
    }
}
