//! G13 doc-preservation: doc modifications that destroy fenced code blocks or write literal
//! `\n` escape sequences instead of newlines.
//!
//! Two checks on a modified Markdown file: (1) the characters inside fenced code blocks fall
//! below [`KEEP_RATIO`] of the original when the original had at least [`MIN_ORIGINAL_CHARS`];
//! (2) a line that contains two or more literal `\n` sequences appears in a fenced block (or,
//! when the whole fence was flattened onto one line, anywhere) and was not already in the
//! original.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::markdown;

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

fn literal_nl_lines(text: &str, fenced_only: bool) -> Vec<(u32, usize, String)> {
    let doc = markdown::parse(text);
    let mut out = Vec::new();
    if fenced_only {
        for b in doc.code_blocks.iter().filter(|b| b.fenced) {
            for (i, l) in b.text.lines().enumerate() {
                let n = unquoted_literal_newlines(l);
                if n >= 2 {
                    out.push((b.line + 1 + i as u32, n, l.to_string()));
                }
            }
        }
    } else {
        // A fence flattened onto one line: "```bash\ncargo build\n```" as literal text.
        for (i, l) in text.lines().enumerate() {
            let n = l.matches("\\n").count();
            if n >= 2 && (l.contains("```\\n") || l.contains("\\n```")) {
                out.push((i as u32 + 1, n, l.to_string()));
            }
        }
    }
    out
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

/// G13 on one modified doc. Created and deleted files are not judged (pass `None`/`None`
/// through the guard); non-Markdown files are skipped.
pub fn check(path: &str, before: &str, after: &str) -> Vec<DocDamage> {
    if !markdown::is_markdown_path(path) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let b = markdown::parse(before);
    let a = markdown::parse(after);
    let original = b.fenced_chars();
    let kept = a.fenced_chars();
    // Changelogs rotate their content (release notes are replaced or moved to archives).
    if !crate::content::is_reference_doc(path)
        && original >= MIN_ORIGINAL_CHARS
        && (kept as f64) < KEEP_RATIO * original as f64
    {
        out.push(DocDamage::CodeBlocksDestroyed {
            original,
            kept,
            blocks_before: b.code_blocks.iter().filter(|c| c.fenced).count(),
            blocks_after: a.code_blocks.iter().filter(|c| c.fenced).count(),
        });
    }
    for fenced_only in [true, false] {
        let old: BTreeSet<String> = literal_nl_lines(before, fenced_only)
            .into_iter()
            .map(|(_, _, l)| l.trim().to_string())
            .collect();
        for (line, count, l) in literal_nl_lines(after, fenced_only) {
            let already = out
                .iter()
                .any(|d| matches!(d, DocDamage::LiteralNewlines { line: x, .. } if *x == line));
            if !old.contains(l.trim()) && !already {
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
            format!("literal \\n corruption ({count} escaped newlines on one line): {excerpt}")
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
