//! Markdown structure for the grounding guards: fenced code blocks (G13 doc-preservation),
//! links and images (G14 link-grounding) and headings with their GitHub anchors (to check
//! `#fragment` links).

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use serde::Serialize;

/// A fenced code block (```` ``` ```` or `~~~`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fence {
    /// The info string after the opening fence (`rust`, `sh title="x"`), trimmed.
    pub info: String,
    /// The block's content, without the fences.
    pub text: String,
    /// 1-based line of the opening fence.
    pub start_line: u32,
}

/// A link or image destination.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Link {
    /// The destination as written (reference links resolved to their definition's URL).
    pub target: String,
    /// 1-based line where the link starts.
    pub line: u32,
    /// `![alt](target)` rather than `[text](target)`.
    pub is_image: bool,
}

/// A heading with its GitHub-style anchor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Heading {
    /// 1 to 6.
    pub level: u8,
    /// The heading's plain text (inline markup removed).
    pub text: String,
    /// The anchor GitHub generates (`## Quick start` -> `quick-start`, duplicates get `-1`,
    /// `-2`, ...); an explicit `{#id}` attribute wins.
    pub anchor: String,
}

/// The parts of a Markdown document the guards look at.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct MarkdownDoc {
    /// Fenced code blocks in document order.
    pub fences: Vec<Fence>,
    /// Links and images in document order.
    pub links: Vec<Link>,
    /// Headings in document order.
    pub headings: Vec<Heading>,
}

impl MarkdownDoc {
    /// Total characters inside fenced code blocks (G13 compares this before and after).
    pub fn code_chars(&self) -> usize {
        self.fences.iter().map(|f| f.text.chars().count()).sum()
    }
}

/// Parses Markdown (CommonMark with GitHub tables, strikethrough, task lists, footnotes and
/// heading attributes). Never fails: every input is some Markdown document.
pub fn parse_markdown(src: &str) -> MarkdownDoc {
    let opts = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_HEADING_ATTRIBUTES;
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(src.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_of = |offset: usize| -> u32 {
        let idx = line_starts.partition_point(|&s| s <= offset);
        u32::try_from(idx.max(1)).unwrap_or(u32::MAX)
    };

    let mut doc = MarkdownDoc::default();
    let mut fence: Option<Fence> = None;
    let mut heading: Option<(u8, String, Option<String>)> = None;
    let mut slugs: Vec<String> = Vec::new();

    for (event, range) in Parser::new_ext(src, opts).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                fence = Some(Fence {
                    info: info.trim().to_owned(),
                    text: String::new(),
                    start_line: line_of(range.start),
                });
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some(f) = fence.take() {
                    doc.fences.push(f);
                }
            }
            Event::Start(Tag::Link { dest_url, .. }) => doc.links.push(Link {
                target: dest_url.to_string(),
                line: line_of(range.start),
                is_image: false,
            }),
            Event::Start(Tag::Image { dest_url, .. }) => doc.links.push(Link {
                target: dest_url.to_string(),
                line: line_of(range.start),
                is_image: true,
            }),
            Event::Start(Tag::Heading { level, id, .. }) => {
                heading = Some((level_num(level), String::new(), id.map(|s| s.to_string())));
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, text, id)) = heading.take() {
                    let text = text.trim().to_owned();
                    let anchor = match id {
                        Some(id) => id,
                        None => unique_slug(&slugify(&text), &mut slugs),
                    };
                    doc.headings.push(Heading {
                        level,
                        text,
                        anchor,
                    });
                }
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(f) = fence.as_mut() {
                    f.text.push_str(&t);
                } else if let Some((_, h, _)) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some((_, h, _)) = heading.as_mut() {
                    h.push(' ');
                }
            }
            _ => {}
        }
    }
    if let Some(f) = fence.take() {
        doc.fences.push(f);
    }
    doc
}

fn level_num(l: HeadingLevel) -> u8 {
    match l {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// GitHub's anchor algorithm: lowercase; keep letters, digits, `-`, `_` and spaces; spaces
/// become `-`.
pub fn slugify(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .filter_map(|c| {
            if c == ' ' {
                Some('-')
            } else if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c)
            } else {
                None
            }
        })
        .collect()
}

fn unique_slug(base: &str, seen: &mut Vec<String>) -> String {
    let mut candidate = base.to_owned();
    let mut n = 0;
    while seen.iter().any(|s| s == &candidate) {
        n += 1;
        candidate = format!("{base}-{n}");
    }
    seen.push(candidate.clone());
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_links_headings() {
        let src = "# Quick start!\n\nSee [docs](docs/a.md) and ![logo](img/l.png).\n\n```rust\nfn main() {}\n```\n\n## Quick start\n\n[ref]: https://example.com\n\nA [ref] link.\n";
        let d = parse_markdown(src);
        assert_eq!(d.fences.len(), 1);
        assert_eq!(d.fences[0].info, "rust");
        assert_eq!(d.fences[0].text, "fn main() {}\n");
        assert_eq!(d.fences[0].start_line, 5);
        assert_eq!(d.links.len(), 3);
        assert_eq!(d.links[0].target, "docs/a.md");
        assert!(d.links[1].is_image);
        assert_eq!(d.links[2].target, "https://example.com");
        assert_eq!(d.links[2].line, 13);
        assert_eq!(d.headings[0].anchor, "quick-start");
        assert_eq!(d.headings[1].anchor, "quick-start-1");
    }
}
