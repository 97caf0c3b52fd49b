//! The local links of reStructuredText and AsciiDoc documents, for G14 (Markdown's come from
//! [`crate::markdown`]).
//!
//! Only the forms that name a file are read, line by line, outside literal blocks:
//! - reStructuredText: embedded URIs (`` `text <path>`_ ``), hyperlink targets
//!   (`.. _name: path`), the `image`, `figure`, `include` and `literalinclude` directives, and
//!   Sphinx's `:doc:` role, which names a document by its path without the extension (relative
//!   to the document, or to the source directory with a leading `/`; marked
//!   [`Link::doc_role`], so that it is never taken for a label). Other roles (`:ref:`) resolve
//!   through Sphinx's own index and are left alone, as are another project's documents (`:doc:`flask:index``),
//!   references to named targets (`<name_>`) and standard includes (`<isonum.txt>`).
//! - AsciiDoc: `link:path[...]`, `image::path[...]` / `image:path[...]`, `include::path[...]`,
//!   and `xref:` / `<<...>>` cross references that name an `.adoc` file. Targets holding an
//!   attribute reference (`{docdir}/x.png`) cannot be resolved here and are left alone.

use crate::markdown::Link;

/// Which markup a document path is written in, when G14 reads its links.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Markup {
    /// `.md`, `.mdx`, `.markdown`.
    Markdown,
    /// `.rst`.
    ReStructuredText,
    /// `.adoc`, `.asciidoc`, `.asc`.
    AsciiDoc,
}

impl Markup {
    /// The markup of `path`, by its extension.
    pub fn of(path: &str) -> Option<Markup> {
        let lower = path.to_ascii_lowercase();
        let ext = lower.rsplit_once('.').map(|(_, e)| e)?;
        match ext {
            "md" | "mdx" | "markdown" => Some(Markup::Markdown),
            "rst" => Some(Markup::ReStructuredText),
            "adoc" | "asciidoc" | "asc" => Some(Markup::AsciiDoc),
            _ => None,
        }
    }

    /// The local links (and images) of `text`.
    pub fn links(self, text: &str) -> Vec<Link> {
        match self {
            Markup::Markdown => crate::markdown::parse(text).links,
            Markup::ReStructuredText => rst_links(text),
            Markup::AsciiDoc => asciidoc_links(text),
        }
    }
}

/// The links of a reStructuredText document.
fn rst_links(text: &str) -> Vec<Link> {
    let mut out = Vec::new();
    // The indentation of the directive or paragraph that opened a literal block, while inside it.
    let mut literal_from: Option<usize> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i as u32 + 1;
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim();
        if let Some(from) = literal_from {
            if trimmed.is_empty() || indent > from {
                continue;
            }
            literal_from = None;
        }
        if let Some(rest) = trimmed.strip_prefix(".. ") {
            if let Some((directive, arg)) = rest.split_once("::") {
                let directive = directive.trim();
                let target = arg.trim();
                match directive {
                    "image" | "figure" => {
                        push(&mut out, n, target, true);
                    }
                    // `<isonum.txt>`: one of docutils' standard includes.
                    "include" | "literalinclude" if !target.starts_with('<') => {
                        push(&mut out, n, target, false);
                    }
                    "code" | "code-block" | "sourcecode" | "highlight" | "parsed-literal"
                    | "doctest" | "testcode" | "testoutput" | "productionlist" => {
                        literal_from = Some(indent);
                    }
                    _ => {}
                }
                continue;
            }
            if let Some(target) = rest.strip_prefix('_')
                && let Some((_, dest)) = split_target(target)
                && !dest.ends_with('_')
            {
                push(&mut out, n, dest, false);
                continue;
            }
        }
        for dest in embedded_uris(line) {
            push(&mut out, n, dest, false);
        }
        for dest in doc_roles(line) {
            if let Some(link) = push(&mut out, n, dest, false) {
                link.doc_role = true;
            }
        }
        if trimmed.ends_with("::") && !trimmed.starts_with(".. ") {
            literal_from = Some(indent);
        }
    }
    out
}

/// `name: dest` of a hyperlink target (`.. _name: dest`; the name may be quoted in backticks
/// and hold colons escaped with `\`).
fn split_target(target: &str) -> Option<(&str, &str)> {
    if let Some(quoted) = target.strip_prefix('`') {
        let end = quoted.find("`:")?;
        return Some((&quoted[..end], quoted[end + 2..].trim()));
    }
    let bytes = target.as_bytes();
    let colon =
        (0..bytes.len()).find(|&i| bytes[i] == b':' && (i == 0 || bytes[i - 1] != b'\\'))?;
    Some((&target[..colon], target[colon + 1..].trim()))
}

/// The documents Sphinx's `:doc:` roles on a line name (`` :doc:`install` ``, `` :doc:`the
/// guide </guide/index>` ``); not another project's (`` :doc:`flask:index` ``, through
/// intersphinx).
fn doc_roles(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find(":doc:`") {
        let after = &rest[at + ":doc:`".len()..];
        let Some(close) = after.find('`') else {
            break;
        };
        let inner = &after[..close];
        let target = match (inner.rfind('<'), inner.ends_with('>')) {
            (Some(open), true) => &inner[open + 1..inner.len() - 1],
            _ => inner,
        }
        .trim();
        if !target.is_empty() && !target.contains(':') {
            out.push(target);
        }
        rest = &after[close + 1..];
    }
    out
}

/// The URIs of `` `text <uri>`_ `` on a line (not references to named targets, `<name_>`).
fn embedded_uris(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(close) = rest.find(">`_") {
        let head = &rest[..close];
        if let Some(open) = head.rfind('<')
            && head[..open].contains('`')
        {
            let uri = head[open + 1..].trim();
            if !uri.ends_with('_') && !uri.is_empty() {
                out.push(uri);
            }
        }
        rest = &rest[close + 3..];
    }
    out
}

/// The links of an AsciiDoc document.
fn asciidoc_links(text: &str) -> Vec<Link> {
    let mut out = Vec::new();
    let mut fence: Option<&str> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i as u32 + 1;
        let trimmed = line.trim_end();
        // Listing (`----`), literal (`....`) and passthrough (`++++`) blocks and comments
        // (`////`) are not markup.
        if ["----", "....", "++++", "////"]
            .iter()
            .any(|d| trimmed.len() >= 4 && trimmed.chars().all(|c| d.starts_with(c)))
        {
            fence = match fence {
                Some(open) if open == trimmed => None,
                Some(open) => Some(open),
                None => Some(trimmed),
            };
            continue;
        }
        if fence.is_some() || trimmed.starts_with("//") {
            continue;
        }
        for (macro_name, image) in [
            ("include::", false),
            ("image::", true),
            ("image:", true),
            ("link:", false),
            ("xref:", false),
        ] {
            let mut rest = trimmed;
            while let Some(at) = rest.find(macro_name) {
                let preceded = rest[..at].chars().next_back();
                let after = &rest[at + macro_name.len()..];
                rest = after;
                // `image::` also contains `image:`; a word ending in `link` is no macro.
                if preceded.is_some_and(|c| c.is_alphanumeric() || c == ':')
                    || (macro_name == "image:" && after.starts_with(':'))
                {
                    continue;
                }
                let Some(end) = after.find('[') else {
                    continue;
                };
                let target = &after[..end];
                if target.contains(char::is_whitespace) || target.is_empty() {
                    continue;
                }
                if macro_name == "xref:" && !target.split('#').next().unwrap_or("").contains('.') {
                    continue;
                }
                push(&mut out, n, target, image);
            }
        }
        let mut rest = trimmed;
        while let Some(open) = rest.find("<<") {
            let after = &rest[open + 2..];
            let Some(close) = after.find(">>") else {
                break;
            };
            let target = after[..close].split(',').next().unwrap_or("").trim();
            if target.split('#').next().unwrap_or("").ends_with(".adoc") {
                push(&mut out, n, target, false);
            }
            rest = &after[close + 2..];
        }
    }
    out
}

/// Records `dest` unless it holds something this reader cannot resolve (an attribute
/// reference, a substitution, a template); returns the link recorded.
fn push<'a>(out: &'a mut Vec<Link>, line: u32, dest: &str, image: bool) -> Option<&'a mut Link> {
    let dest = dest.trim();
    if dest.is_empty() || dest.contains(['{', '}', '|', '$', '*']) {
        return None;
    }
    out.push(Link {
        line,
        dest: dest.to_string(),
        image,
        doc_role: false,
    });
    out.last_mut()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dests(links: &[Link]) -> Vec<&str> {
        links.iter().map(|l| l.dest.as_str()).collect()
    }

    #[test]
    fn rst_file_links_outside_literal_blocks() {
        let text = "Title\n=====\n\nSee `the guide <docs/guide.rst>`_ and `PyPI <https://pypi.org/>`_.\n\
                    A `named one <named_>`_ and :doc:`install`.\n\
                    Also :doc:`the guide </guide/index>` and :doc:`flask:index`.\n\n\
                    .. _named: other/page.rst\n.. _indirect: named_\n\n\
                    .. image:: _static/logo.png\n   :alt: logo\n\n\
                    .. include:: ../CHANGES.rst\n.. include:: <isonum.txt>\n\n\
                    Example::\n\n    `not <a/link.rst>`_\n\n\
                    .. code-block:: rst\n\n   .. image:: inside/code.png\n\nAfter.\n";
        let links = rst_links(text);
        assert_eq!(
            dests(&links),
            [
                "docs/guide.rst",
                "https://pypi.org/",
                "install",
                "/guide/index",
                "other/page.rst",
                "_static/logo.png",
                "../CHANGES.rst"
            ]
        );
        assert!(links[5].image);
        assert_eq!(links[0].line, 4);
        assert_eq!(links[2].line, 5);
        assert!(links[2].doc_role && links[3].doc_role && !links[4].doc_role);
    }

    #[test]
    fn asciidoc_file_links_outside_listing_blocks() {
        let text = "= Title\n\nlink:docs/setup.adoc[Setup] and https://example.com[site].\n\
                    image::images/arch.png[Architecture]\nInline image:icons/x.svg[] here.\n\
                    include::partials/common.adoc[]\nxref:guide.adoc#start[Start] xref:some-id[Id]\n\
                    See <<other.adoc#top,Other>> and <<section-id>>.\n\
                    image::{imagesdir}/skip.png[]\n\n----\nlink:in/listing.adoc[x]\n----\n\
                    // link:commented.adoc[x]\n";
        let links = asciidoc_links(text);
        assert_eq!(
            dests(&links),
            [
                "docs/setup.adoc",
                "images/arch.png",
                "icons/x.svg",
                "partials/common.adoc",
                "guide.adoc#start",
                "other.adoc#top"
            ]
        );
        assert!(links[1].image && links[2].image);
    }

    #[test]
    fn markup_by_extension() {
        assert_eq!(Markup::of("README.rst"), Some(Markup::ReStructuredText));
        assert_eq!(Markup::of("docs/x.ADOC"), Some(Markup::AsciiDoc));
        assert_eq!(Markup::of("a.md"), Some(Markup::Markdown));
        assert_eq!(Markup::of("a.txt"), None);
    }
}
