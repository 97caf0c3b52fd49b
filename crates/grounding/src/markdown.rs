//! The Markdown facts the doc guards need, extracted with pulldown-cmark: fenced code blocks,
//! links and images, heading anchors and prose segments (text outside code blocks).

use std::collections::BTreeSet;
use std::sync::OnceLock;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use regex::Regex;

/// A fenced or indented code block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeBlock {
    /// 1-based line of the opening fence.
    pub line: u32,
    /// The info string (`bash`, `rust title="x"`), empty for indented blocks.
    pub info: String,
    /// The block's content.
    pub text: String,
    /// True for ``` / ~~~ blocks, false for indented ones.
    pub fenced: bool,
}

/// A link or image destination.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// 1-based line.
    pub line: u32,
    /// The destination as written (`docs/a.md#x`, `https://...`).
    pub dest: String,
    /// True for `![..](..)` and `<img src>`.
    pub image: bool,
    /// True for the document a Sphinx `:doc:` role names (reStructuredText): a path without
    /// its extension, judged only inside a Sphinx source directory.
    pub doc_role: bool,
}

/// A run of prose (a paragraph, heading, list item or table cell) outside code blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// 1-based line where it starts.
    pub line: u32,
    /// The text, inline code included (its backticks dropped).
    pub text: String,
}

/// Everything extracted from one Markdown document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Doc {
    /// Code blocks in order.
    pub code_blocks: Vec<CodeBlock>,
    /// Links and images in order.
    pub links: Vec<Link>,
    /// Anchor slugs of headings (GitHub style, with `-1`, `-2` for duplicates) and explicit
    /// HTML `id`/`name` anchors.
    pub anchors: BTreeSet<String>,
    /// Prose segments (headings and link texts excluded: they name and point, they do not
    /// claim).
    pub segments: Vec<Segment>,
}

impl Doc {
    /// Characters inside fenced code blocks.
    pub fn fenced_chars(&self) -> usize {
        self.code_blocks
            .iter()
            .filter(|b| b.fenced)
            .map(|b| b.text.chars().count())
            .sum()
    }
}

fn html_attr_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"(?i)\b(src|href|id|name)\s*=\s*["']([^"']*)["']"#).expect("static regex")
    })
}

/// GitHub's heading slug: lowercase, punctuation dropped (letters, digits, `-`, `_` kept),
/// spaces to `-`.
pub fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Line starts of `text`, for offset -> line.
struct Lines(Vec<usize>);

impl Lines {
    fn new(text: &str) -> Self {
        let mut v = vec![0];
        v.extend(memchr_iter(text).map(|i| i + 1));
        Lines(v)
    }
    fn line(&self, offset: usize) -> u32 {
        (self.0.partition_point(|&s| s <= offset)).max(1) as u32
    }
}

fn memchr_iter(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.bytes()
        .enumerate()
        .filter(|(_, b)| *b == b'\n')
        .map(|(i, _)| i)
}

/// Parses `text` as CommonMark with GitHub extensions (tables, footnotes, strikethrough).
pub fn parse(text: &str) -> Doc {
    let lines = Lines::new(text);
    let mut doc = Doc::default();
    let opts = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut code: Option<CodeBlock> = None;
    let mut heading: Option<(String, Option<String>)> = None;
    let mut seg: Option<Segment> = None;
    let mut link_depth = 0usize;
    let mut slug_counts: rustc_hash::FxHashMap<String, usize> = Default::default();

    let flush = |seg: &mut Option<Segment>, doc: &mut Doc| {
        if let Some(s) = seg.take()
            && !s.text.trim().is_empty()
        {
            doc.segments.push(s);
        }
    };

    for (event, range) in Parser::new_ext(text, opts).into_offset_iter() {
        let line = lines.line(range.start);
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let (info, fenced) = match kind {
                    CodeBlockKind::Fenced(info) => (info.to_string(), true),
                    CodeBlockKind::Indented => (String::new(), false),
                };
                code = Some(CodeBlock {
                    line,
                    info,
                    text: String::new(),
                    fenced,
                });
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some(b) = code.take() {
                    doc.code_blocks.push(b);
                }
            }
            Event::Start(Tag::Heading { id, .. }) => {
                flush(&mut seg, &mut doc);
                heading = Some((String::new(), id.map(|i| i.to_string())));
                seg = Some(Segment {
                    line,
                    text: String::new(),
                });
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((h, id)) = heading.take() {
                    let base = id.unwrap_or_else(|| slug(&h));
                    let n = slug_counts.entry(base.clone()).or_default();
                    let anchor = if *n == 0 {
                        base.clone()
                    } else {
                        format!("{base}-{n}")
                    };
                    *n += 1;
                    doc.anchors.insert(anchor);
                }
                flush(&mut seg, &mut doc);
            }
            Event::Start(Tag::Paragraph | Tag::Item | Tag::TableCell | Tag::BlockQuote(_)) => {
                flush(&mut seg, &mut doc);
                seg = Some(Segment {
                    line,
                    text: String::new(),
                });
            }
            Event::End(TagEnd::Paragraph | TagEnd::Item | TagEnd::TableCell) => {
                flush(&mut seg, &mut doc);
            }
            Event::End(TagEnd::Link | TagEnd::Image) => {
                link_depth = link_depth.saturating_sub(1);
            }
            Event::Start(Tag::Link { dest_url, .. }) => {
                link_depth += 1;
                doc.links.push(Link {
                    line,
                    dest: dest_url.to_string(),
                    image: false,
                    doc_role: false,
                });
            }
            Event::Start(Tag::Image { dest_url, .. }) => {
                link_depth += 1;
                doc.links.push(Link {
                    line,
                    dest: dest_url.to_string(),
                    image: true,
                    doc_role: false,
                });
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(b) = code.as_mut() {
                    b.text.push_str(&t);
                } else {
                    if let Some((h, _)) = heading.as_mut() {
                        h.push_str(&t);
                        continue;
                    }
                    if link_depth > 0 {
                        continue;
                    }
                    match seg.as_mut() {
                        Some(s) => s.text.push_str(&t),
                        None => {
                            seg = Some(Segment {
                                line,
                                text: t.to_string(),
                            })
                        }
                    }
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some(s) = seg.as_mut() {
                    s.text.push(' ');
                }
            }
            Event::Html(h) | Event::InlineHtml(h) => {
                for c in html_attr_re().captures_iter(&h) {
                    let attr = c[1].to_ascii_lowercase();
                    let value = c[2].to_string();
                    match attr.as_str() {
                        "id" | "name" => {
                            doc.anchors.insert(value.to_lowercase());
                        }
                        _ => doc.links.push(Link {
                            line: line
                                + h[..c.get(0).map_or(0, |m| m.start())].matches('\n').count()
                                    as u32,
                            dest: value,
                            image: attr == "src",
                            doc_role: false,
                        }),
                    }
                }
            }
            _ => {}
        }
    }
    flush(&mut seg, &mut doc);
    doc
}

/// True for file paths the doc guards treat as documentation: Markdown, MDX, reStructuredText,
/// AsciiDoc, and `.txt` files that are READMEs or live under a docs directory (never
/// requirements files).
pub fn is_doc_path(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let base = lower.rsplit('/').next().unwrap_or(&lower);
    if [".md", ".mdx", ".markdown", ".rst", ".adoc"]
        .iter()
        .any(|e| base.ends_with(e))
    {
        return true;
    }
    if base.ends_with(".txt") {
        if base.contains("requirements") || base == "cmakelists.txt" {
            return false;
        }
        return base.starts_with("readme")
            || lower.starts_with("docs/")
            || lower.contains("/docs/");
    }
    false
}

/// True for Markdown-family files (links and fences parse as CommonMark).
pub fn is_markdown_path(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    [".md", ".mdx", ".markdown"]
        .iter()
        .any(|e| lower.ends_with(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extracts_everything() {
        let d = parse(
            "# Intro\n\nSee [guide](docs/guide.md#setup) and ![logo](img/logo.png).\n\n```bash\ncargo build\n```\n\n## Intro\n\n<a name=\"custom\"></a>\n\n    indented\n",
        );
        assert_eq!(d.code_blocks.len(), 2);
        assert_eq!(d.code_blocks[0].info, "bash");
        assert_eq!(d.code_blocks[0].text, "cargo build\n");
        assert_eq!(d.code_blocks[0].line, 5);
        assert_eq!(d.fenced_chars(), 12);
        assert_eq!(d.links.len(), 2);
        assert_eq!(d.links[0].dest, "docs/guide.md#setup");
        assert_eq!(d.links[0].line, 3);
        assert!(d.links[1].image);
        assert!(d.anchors.contains("intro") && d.anchors.contains("intro-1"));
        assert!(d.anchors.contains("custom"));
        assert!(
            d.segments
                .iter()
                .any(|s| s.text.starts_with("See  and") && !s.text.contains("guide"))
        );
        assert!(!d.segments.iter().any(|s| s.text.contains("cargo build")));
    }

    #[test]
    fn slugs_like_github() {
        assert_eq!(slug("Getting Started!"), "getting-started");
        assert_eq!(slug("API: `run()` & more"), "api-run--more");
    }

    #[test]
    fn doc_paths() {
        assert!(
            is_doc_path("README.md") && is_doc_path("docs/x.rst") && is_doc_path("docs/notes.txt")
        );
        assert!(
            !is_doc_path("requirements.txt")
                && !is_doc_path("src/a.rs")
                && !is_doc_path("LICENSE.txt")
        );
    }
}
