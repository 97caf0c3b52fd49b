//! G14 link-grounding: links and images a change adds to a Markdown, reStructuredText or
//! AsciiDoc doc must point at things that exist.
//!
//! Only links added by the change are judged (a destination already present in the original is
//! a carry-over, not the change's invention). Relative paths must exist relative to the doc's
//! directory or the repository root (documentation-site conventions are honoured:
//! extension-less links, `/`-rooted links served from `docs/`, `public/` or `static/`). A
//! `#anchor` into a Markdown file (or the doc itself) must match one of its headings. External
//! URLs are never judged here; see [`check_url`] for the opt-in, fail-open network check.

use serde::Serialize;

use crate::doc_links::Markup;
use crate::markdown;

/// What the checker can ask about the tree after the change.
pub trait TreeView {
    /// True when `path` (relative to the root, `/`-separated) is a file or directory.
    fn exists(&self, path: &str) -> bool;
    /// The text of a file, for anchor checks. `None` when absent or not text.
    fn read_text(&self, path: &str) -> Option<String>;
    /// The files whose text holds `word` as a whole word, for targets another file defines
    /// (a MyST label). A view that cannot search says none.
    fn files_containing(&self, _word: &str) -> Vec<String> {
        Vec::new()
    }
}

/// Why a link is broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkProblem {
    /// The target path exists nowhere.
    MissingTarget,
    /// The file exists but has no heading for the anchor.
    MissingAnchor,
}

/// One broken link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BrokenLink {
    /// The destination as written.
    pub dest: String,
    /// 1-based line in the new text.
    pub line: u32,
    /// True for images.
    pub image: bool,
    /// What is wrong.
    pub problem: LinkProblem,
    /// The paths that were tried.
    pub tried: Vec<String>,
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && b[i + 1].is_ascii_hexdigit()
            && b[i + 2].is_ascii_hexdigit()
        {
            let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
            out.push(hex(b[i + 1]) * 16 + hex(b[i + 2]));
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

/// True for destinations with a scheme (`https:`, `mailto:`, `data:`), protocol-relative URLs,
/// or template placeholders: not local paths.
fn is_external(dest: &str) -> bool {
    if dest.starts_with("//") || dest.contains('{') || dest.contains("${") {
        return true;
    }
    // GitHub resolves `/owner/repo/blob/...` against github.com.
    if dest.starts_with('/')
        && ["/blob/", "/tree/", "/raw/", "/issues", "/pull/", "/wiki"]
            .iter()
            .any(|k| dest.contains(k))
    {
        return true;
    }
    match dest.find(':') {
        Some(i) => {
            let scheme = &dest[..i];
            !scheme.is_empty()
                && scheme.len() > 1 // "C:" style drive letters are paths, not schemes
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        }
        None => false,
    }
}

fn normalize_anchor(a: &str) -> String {
    a.to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect()
}

fn anchor_ok(text: &str, anchor: &str) -> bool {
    let anchor = percent_decode(anchor);
    // GitHub line anchors (#L10, #L10-L20) into any file.
    if anchor.starts_with('L')
        && anchor[1..]
            .chars()
            .all(|c| c.is_ascii_digit() || c == '-' || c == 'L')
    {
        return true;
    }
    let doc = markdown::parse(text);
    if doc.anchors.contains(&anchor.to_lowercase()) {
        return true;
    }
    let want = normalize_anchor(&anchor);
    doc.anchors.iter().any(|a| {
        let n = normalize_anchor(a);
        n == want || want.trim_end_matches(|c: char| c.is_ascii_digit()) == n
    })
}

/// Candidate paths for a local destination from the doc `doc_path`: the target as written, and
/// as a documentation site serves it (an extension-less or `.html` page of the doc's markup).
/// An absolute target (`/example/x.py`) is tried first under `source_root`, the Sphinx source
/// directory of the doc when it has one (where Sphinx resolves it), then under the usual site
/// roots.
fn candidates(
    doc_path: &str,
    target: &str,
    markup: Markup,
    source_root: Option<&str>,
) -> Vec<String> {
    let page_exts: &[&str] = match markup {
        Markup::Markdown => &[".md", ".mdx"],
        Markup::ReStructuredText => &[".rst", ".md"],
        Markup::AsciiDoc => &[".adoc", ".md"],
    };
    let doc_dir = doc_path.rfind('/').map(|i| &doc_path[..i]).unwrap_or("");
    let top = doc_path
        .split('/')
        .next()
        .filter(|_| doc_path.contains('/'));
    let mut bases: Vec<String> = Vec::new();
    if let Some(abs) = target.strip_prefix('/') {
        if let Some(root) = source_root.filter(|r| !r.is_empty()) {
            bases.push(format!("{root}/{abs}"));
        }
        bases.push(abs.to_string());
        for site in [
            top.unwrap_or("docs"),
            "docs",
            "public",
            "static",
            "docs/public",
            "website/static",
            "assets",
        ] {
            bases.push(format!("{site}/{abs}"));
        }
    } else {
        bases.push(if doc_dir.is_empty() {
            target.to_string()
        } else {
            format!("{doc_dir}/{target}")
        });
        bases.push(target.to_string());
        if markup == Markup::AsciiDoc {
            bases.extend(antora_bases(doc_path, target));
        }
    }
    let mut out = Vec::new();
    for b in bases {
        let Some(b) = slopguard_lang::paths::normalize(&b) else {
            continue;
        };
        let b = b.trim_end_matches('/').to_string();
        let mut push = |p: String| {
            if !out.contains(&p) {
                out.push(p);
            }
        };
        push(b.clone());
        if let Some(stem) = b.strip_suffix(".html") {
            for ext in page_exts {
                push(format!("{stem}{ext}"));
            }
        }
        let base = b.rsplit('/').next().unwrap_or(&b);
        if !base.contains('.') {
            for ext in page_exts {
                push(format!("{b}{ext}"));
            }
            for index in ["/README", "/index"] {
                for ext in page_exts {
                    push(format!("{b}{index}{ext}"));
                }
            }
        }
    }
    out
}

/// Where Antora resolves `target` from a document of a module (`<component>/modules/<module>/`,
/// its `pages/` or its `nav.adoc`): a page from the module's `pages/` directory, an image from
/// `images/`, an attachment from `attachments/`, whatever directory the document is in
/// (`xref:find-blocks.adoc[]` in `modules/api/nav.adoc` is `modules/api/pages/find-blocks.adoc`).
/// Empty outside that layout. (`xref:other-module:page.adoc[]` reads as a URL and is not judged.)
fn antora_bases(doc_path: &str, target: &str) -> Vec<String> {
    let Some(module_dir) = doc_path
        .match_indices("modules/")
        .map(|(at, m)| at + m.len())
        .find(|&end| end == "modules/".len() || doc_path[..end - "modules/".len()].ends_with('/'))
    else {
        return Vec::new();
    };
    let Some((module, _)) = doc_path[module_dir..].split_once('/') else {
        return Vec::new();
    };
    let root = &doc_path[..module_dir];
    ["pages", "images", "attachments"]
        .iter()
        .map(|family| format!("{root}{module}/{family}/{target}"))
        .collect()
}

/// File extensions a link target plausibly has.
const FILE_EXTENSIONS: &[&str] = &[
    "md", "mdx", "markdown", "rst", "txt", "adoc", "html", "htm", "png", "jpg", "jpeg", "gif",
    "svg", "webp", "ico", "pdf", "json", "yml", "yaml", "toml", "js", "mjs", "cjs", "ts", "tsx",
    "jsx", "py", "rs", "go", "rb", "java", "c", "h", "cpp", "hpp", "sh", "css", "scss", "xml",
    "csv", "ipynb", "lock", "cfg", "ini", "zip", "gz", "mp4",
];

/// In Sphinx/MyST documentation (a `conf.py` next to the doc or above it) a link target without
/// `/` and without a file extension is a cross-reference label (`(api-validators)`,
/// `(attrs.frozen)`, `(genindex)`), not a path.
fn is_sphinx_label(target: &str, in_sphinx_docs: impl FnOnce() -> bool) -> bool {
    if target.contains('/') {
        return false;
    }
    let ext = target.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    if ext.as_deref().is_some_and(|e| FILE_EXTENSIONS.contains(&e)) {
        return false;
    }
    in_sphinx_docs()
}

/// Whether a doc belongs to Sphinx documentation: it has a Sphinx source directory
/// (`source_dir`, from [`sphinx_source_dir`]: a `conf.py` next to it or above it), or the
/// repository has `docs/conf.py`.
fn in_sphinx_docs(source_dir: Option<&str>, tree: &dyn TreeView) -> bool {
    source_dir.is_some() || tree.exists("docs/conf.py")
}

/// The Sphinx source directory `doc_path` is in: the nearest directory at or above it holding a
/// `conf.py` (`""` for the root).
fn sphinx_source_dir(doc_path: &str, tree: &dyn TreeView) -> Option<String> {
    let mut dir = doc_path.rfind('/').map(|i| &doc_path[..i]).unwrap_or("");
    loop {
        let conf = if dir.is_empty() {
            "conf.py".to_string()
        } else {
            format!("{dir}/conf.py")
        };
        if tree.exists(&conf) {
            return Some(dir.to_string());
        }
        if dir.is_empty() {
            return None;
        }
        dir = dir.rfind('/').map(|i| &dir[..i]).unwrap_or("");
    }
}

/// A MyST target the doc itself defines: `(labels/hug-comparator)=` on a line of its own makes
/// `[see below](labels/hug-comparator)` a cross-reference, whatever its `/`.
fn is_myst_target(doc: &str, target: &str) -> bool {
    let label = format!("({target})=");
    doc.lines().any(|l| l.trim() == label)
}

/// A MyST target another doc of the same Sphinx documentation defines: `(labels/stability-policy)=`
/// in `docs/the_black_code_style/index.md` makes `[policy](labels/stability-policy)` in
/// `docs/faq.md` a cross-reference. Asked only of a link no file answers, in a doc of Sphinx
/// documentation ([`in_sphinx_docs`]).
fn is_myst_target_elsewhere(doc_path: &str, target: &str, tree: &dyn TreeView) -> bool {
    tree.files_containing(target).iter().any(|f| {
        f != doc_path
            && markdown::is_markdown_path(f)
            && tree
                .read_text(f)
                .is_some_and(|t| is_myst_target(&t, target))
    })
}

/// Rustdoc's intra-doc links in a Markdown file of a Rust crate (included into its docs with
/// `#[doc = include_str!(...)]`): `crate#sharing-state` is the crate root's section, not a
/// file. (`crate::Router` has a `::` and is never taken for a path.)
fn is_rustdoc_link(doc_path: &str, target: &str) -> bool {
    matches!(target, "crate" | "self" | "super" | "Self")
        && (doc_path.starts_with("src/") || doc_path.contains("/src/"))
}

/// An email address in an autolink (`<maintainer@example.com>`), not a path.
fn is_email(target: &str) -> bool {
    let Some((user, host)) = target.split_once('@') else {
        return false;
    };
    !user.is_empty()
        && !target.contains('/')
        && !target.contains(char::is_whitespace)
        && host.contains('.')
        && host
            .rsplit('.')
            .next()
            .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()))
}

/// Splits `path#frag?query` into (path, fragment).
fn split_dest(dest: &str) -> (&str, Option<&str>) {
    let (rest, frag) = match dest.find('#') {
        Some(i) => (&dest[..i], Some(&dest[i + 1..])),
        None => (dest, None),
    };
    let rest = rest.split('?').next().unwrap_or(rest);
    (rest, frag)
}

/// G14 on one doc: broken local links and images among those `after` adds relative to
/// `before` (`None` for a created doc).
pub fn check(
    doc_path: &str,
    before: Option<&str>,
    after: &str,
    tree: &dyn TreeView,
) -> Vec<BrokenLink> {
    let Some(markup) = Markup::of(doc_path) else {
        return Vec::new();
    };
    // Anchors are checked against Markdown headings only.
    let anchors = markup == Markup::Markdown;
    let old: Vec<String> = before
        .map(|b| markup.links(b).into_iter().map(|l| l.dest).collect())
        .unwrap_or_default();
    let mut out: Vec<BrokenLink> = Vec::new();
    // The doc's Sphinx source directory, looked up once, when a link first needs it.
    let source_dir = std::cell::OnceCell::new();
    let source_dir = || {
        source_dir
            .get_or_init(|| sphinx_source_dir(doc_path, tree))
            .as_deref()
    };
    for link in markup.links(after) {
        let dest = link.dest.trim();
        if dest.is_empty()
            || old.iter().any(|o| o == dest)
            || out.iter().any(|o| o.dest == dest)
            || is_external(dest)
        {
            continue;
        }
        let (path, frag) = split_dest(dest);
        if path.is_empty() {
            // Same-document anchor.
            if let Some(frag) = frag.filter(|f| anchors && !f.is_empty())
                && !anchor_ok(after, frag)
            {
                out.push(BrokenLink {
                    dest: dest.to_string(),
                    line: link.line,
                    image: link.image,
                    problem: LinkProblem::MissingAnchor,
                    tried: vec![doc_path.to_string()],
                });
            }
            continue;
        }
        let decoded = percent_decode(path);
        if link.doc_role && source_dir().is_none() {
            // Outside a Sphinx source directory (a README the docs include), a role resolves
            // from whichever document includes it.
            continue;
        }
        let sphinx_docs = || in_sphinx_docs(source_dir(), tree);
        if (!link.doc_role && is_sphinx_label(&decoded, sphinx_docs))
            || is_myst_target(after, &decoded)
            || is_rustdoc_link(doc_path, &decoded)
            || is_email(&decoded)
        {
            continue;
        }
        let source_root = match decoded.starts_with('/') {
            true => source_dir(),
            false => None,
        };
        let tried = candidates(doc_path, &decoded, markup, source_root);
        if tried.is_empty() {
            // Climbs above the root: cannot be judged.
            continue;
        }
        match tried.iter().find(|c| tree.exists(c)) {
            None if sphinx_docs() && is_myst_target_elsewhere(doc_path, &decoded, tree) => {}
            None => out.push(BrokenLink {
                dest: dest.to_string(),
                line: link.line,
                image: link.image,
                problem: LinkProblem::MissingTarget,
                tried,
            }),
            Some(found) => {
                if let Some(frag) = frag.filter(|f| anchors && !f.is_empty())
                    && markdown::is_markdown_path(found)
                    && let Some(text) = tree.read_text(found)
                    && !anchor_ok(&text, frag)
                {
                    out.push(BrokenLink {
                        dest: dest.to_string(),
                        line: link.line,
                        image: link.image,
                        problem: LinkProblem::MissingAnchor,
                        tried: vec![found.clone()],
                    });
                }
            }
        }
    }
    out
}

/// External URLs (`http`/`https`) that `after` adds relative to `before`.
pub fn added_urls(before: Option<&str>, after: &str) -> Vec<(u32, String)> {
    let old: Vec<String> = before
        .map(|b| {
            markdown::parse(b)
                .links
                .into_iter()
                .map(|l| l.dest)
                .collect()
        })
        .unwrap_or_default();
    let mut out: Vec<(u32, String)> = Vec::new();
    for l in markdown::parse(after).links {
        let d = l.dest.trim();
        if (d.starts_with("http://") || d.starts_with("https://"))
            && !old.iter().any(|o| o == d)
            && !out.iter().any(|(_, u)| u == d)
        {
            out.push((l.line, d.to_string()));
        }
    }
    out
}

/// Verdict of the opt-in URL check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UrlVerdict {
    /// The host resolves (or could not be judged): never reported.
    Ok,
    /// The host name does not resolve while a control host does: invented.
    UnknownHost,
    /// Nothing resolves at all (no network, no DNS): fail open.
    Offline,
}

/// The host of an `http(s)` URL.
pub fn url_host(url: &str) -> Option<&str> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?;
    let host = if host.starts_with('[') {
        host
    } else {
        host.split(':').next()?
    };
    (!host.is_empty()).then_some(host)
}

/// The opt-in network check of one URL's host: DNS only, fail-open. `resolve` is the resolver
/// (the guard passes [`std_resolve`]; tests pass a fake). A host that does not resolve is
/// reported only when a control host (`control`) does, so an unplugged network never looks like
/// an invented host.
pub fn check_url(url: &str, control: &str, resolve: &dyn Fn(&str) -> bool) -> UrlVerdict {
    let Some(host) = url_host(url) else {
        return UrlVerdict::Ok;
    };
    if host == "localhost"
        || host.parse::<std::net::IpAddr>().is_ok()
        || host.ends_with(".local")
        || host.ends_with(".example")
        || host.ends_with(".invalid")
        || host.ends_with(".test")
        || host == "example.com"
        || host == "example.org"
    {
        return UrlVerdict::Ok;
    }
    if resolve(host) {
        return UrlVerdict::Ok;
    }
    if resolve(control) {
        UrlVerdict::UnknownHost
    } else {
        UrlVerdict::Offline
    }
}

/// Resolves a host with the system resolver (blocking; the guard bounds how many it asks).
pub fn std_resolve(host: &str) -> bool {
    use std::net::ToSocketAddrs;
    (host, 443)
        .to_socket_addrs()
        .map(|mut a| a.next().is_some())
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    struct Tree(BTreeMap<&'static str, &'static str>);
    impl TreeView for Tree {
        fn exists(&self, path: &str) -> bool {
            self.0.contains_key(path) || self.0.keys().any(|k| k.starts_with(&format!("{path}/")))
        }
        fn read_text(&self, path: &str) -> Option<String> {
            self.0.get(path).map(|s| s.to_string())
        }
        fn files_containing(&self, word: &str) -> Vec<String> {
            self.0
                .iter()
                .filter(|(_, text)| text.contains(word))
                .map(|(p, _)| p.to_string())
                .collect()
        }
    }

    fn tree() -> Tree {
        Tree(
            [
                ("README.md", "# b2v\n## Install\n"),
                ("docs/guide/index.md", "# Guide\n## Getting Started\n"),
                ("docs/guide/usage.md", "# Usage\n"),
                ("docs/public/logo.png", ""),
                ("src/main.rs", ""),
            ]
            .into_iter()
            .collect(),
        )
    }

    #[test]
    fn invented_paths_are_flagged() {
        let after = "# Guide\n\n- [Encoder](code/encoder.md)\n- [Decoder](code/decoder.md)\n- [Usage](usage.md)\n";
        let v = check("docs/guide/index.md", None, after, &tree());
        let d: Vec<_> = v.iter().map(|b| b.dest.as_str()).collect();
        assert_eq!(d, ["code/encoder.md", "code/decoder.md"]);
        assert_eq!(v[0].line, 3);
        assert!(
            v[0].tried
                .contains(&"docs/guide/code/encoder.md".to_string())
        );
    }

    #[test]
    fn existing_site_and_root_links_pass() {
        let after = "# Guide\n\n[a](../../src/main.rs) [b](/guide/usage) [c](README.md#install) ![l](/logo.png) [e](https://x.y) [m](mailto:a@b) [s](#guide) [up](../../../x.md)";
        assert!(
            check("docs/guide/index.md", None, after, &tree()).is_empty(),
            "{:?}",
            check("docs/guide/index.md", None, after, &tree())
        );
    }

    #[test]
    fn anchors_and_carry_over() {
        let v = check(
            "docs/guide/usage.md",
            None,
            "# Usage\n[x](index.md#nope) [y](#usage) [z](#missing)",
            &tree(),
        );
        assert_eq!(v.len(), 2);
        assert!(v.iter().all(|b| b.problem == LinkProblem::MissingAnchor));
        let before = "[Encoder](code/encoder.md)";
        assert!(
            check(
                "docs/guide/index.md",
                Some(before),
                "# T\n\n[Encoder](code/encoder.md)",
                &tree()
            )
            .is_empty()
        );
        assert!(!check("docs/guide/index.md", None, "[img](missing.png)", &tree())[0].image);
        assert!(check("docs/guide/index.md", None, "![img](missing.png)", &tree())[0].image);
    }

    #[test]
    fn sphinx_doc_roles_resolve_from_the_document_or_the_source_directory() {
        let t = Tree(
            [
                ("docs/conf.py", ""),
                ("docs/index.rst", ""),
                ("docs/installation.rst", ""),
                ("docs/patterns/index.rst", ""),
                ("docs/patterns/celery.rst", ""),
            ]
            .into_iter()
            .collect(),
        );
        // pallets/flask's docs: relative, absolute from the source directory, with a title.
        let page = "See :doc:`celery`, :doc:`/installation` and :doc:`the index <index>`.\n";
        assert!(check("docs/patterns/index.rst", None, page, &t).is_empty());
        let invented = "See :doc:`deployment/kubernetes` and :doc:`flask:index`.\n";
        let broken = check("docs/patterns/index.rst", None, invented, &t);
        let dests: Vec<_> = broken.iter().map(|b| b.dest.as_str()).collect();
        assert_eq!(dests, ["deployment/kubernetes"]);
        // A bare name is a document here, not a label.
        assert_eq!(
            check("docs/index.rst", None, ":doc:`tuning`\n", &t).len(),
            1
        );
        // pytest-dev/pytest's docs: the source directory is `doc/en`, and an absolute path
        // (a role's, a directive's) starts there.
        let t = Tree(
            [
                ("doc/en/conf.py", ""),
                ("doc/en/example/pythoncollection.rst", ""),
                ("doc/en/example/xfail_demo.py", ""),
                ("doc/en/explanation/goodpractices.rst", ""),
            ]
            .into_iter()
            .collect(),
        );
        let page =
            "See :doc:`/example/pythoncollection`.\n\n.. literalinclude:: /example/xfail_demo.py\n";
        assert!(check("doc/en/explanation/goodpractices.rst", None, page, &t).is_empty());
        let invented = ".. literalinclude:: /example/invented_demo.py\n";
        assert_eq!(
            check("doc/en/explanation/goodpractices.rst", None, invented, &t).len(),
            1
        );
    }

    #[test]
    fn antora_modules_resolve_from_their_pages_and_images() {
        // asciidoctor/asciidoctor's docs, commit 36b4d186: the nav file of the `api` module
        // links a page of that module's `pages/` by its name alone.
        let t = Tree(
            [
                ("docs/antora.yml", ""),
                ("docs/modules/api/nav.adoc", ""),
                ("docs/modules/api/pages/find-blocks.adoc", "= Find blocks\n"),
                ("docs/modules/api/pages/sub/index.adoc", ""),
                ("docs/modules/api/images/flow.png", ""),
            ]
            .into_iter()
            .collect(),
        );
        let nav = "* xref:find-blocks.adoc[Find blocks]\n* xref:sub/index.adoc[Sub]\n";
        assert!(check("docs/modules/api/nav.adoc", None, nav, &t).is_empty());
        let page =
            "See xref:find-blocks.adoc[] and image::flow.png[Flow].\n\nimage::invented.png[]\n";
        let broken = check("docs/modules/api/pages/sub/index.adoc", None, page, &t);
        let dests: Vec<_> = broken.iter().map(|b| b.dest.as_str()).collect();
        assert_eq!(dests, ["invented.png"]);
        // An invented page is still found, from a nav file and from a page.
        assert_eq!(
            check(
                "docs/modules/api/nav.adoc",
                None,
                "* xref:logging.adoc[]\n",
                &t
            )
            .len(),
            1
        );
        // Outside the layout nothing changes: a `modules/` directory of code is no module.
        assert_eq!(
            check(
                "src/modules/README.adoc",
                None,
                "xref:find-blocks.adoc[]\n",
                &t
            )
            .len(),
            1
        );
    }

    #[test]
    fn sphinx_labels_templates_and_github_paths() {
        let mut t = tree();
        t.0.insert("docs/conf.py", "");
        let after = "[a](api-validators) [b](attrs.frozen) [c]({sponsor[\"url\"]}) [d](/owner/repo/blob/main/x.js)";
        assert!(check("docs/guide/index.md", None, after, &t).is_empty());
        assert_eq!(
            check("docs/guide/index.md", None, "[x](missing.md)", &t).len(),
            1
        );
        assert_eq!(
            check("docs/guide/index.md", None, "[x](api-validators)", &tree()).len(),
            1
        );
    }

    #[test]
    fn myst_targets_rustdoc_links_and_emails_are_not_paths() {
        let t = tree();
        // psf/black's docs: a MyST target defined in the doc itself.
        let doc = "- `hug_parens`: ([see below](labels/hug-comparator))\n\n(labels/hug-comparator)=\n\n### Hug\n";
        assert!(
            check(
                "docs/the_black_code_style/future_style.md",
                Some(""),
                doc,
                &t
            )
            .is_empty()
        );
        // Without the target it is a path that does not exist.
        let bad = "- ([see below](labels/hug-comparator))\n";
        assert_eq!(check("docs/future_style.md", Some(""), bad, &t).len(), 1);
        // psf/black's docs/faq.md: a MyST target another doc of the Sphinx docs defines.
        let sphinx = |defined_in: &'static str| {
            let mut t = tree();
            t.0.insert("docs/conf.py", "project = 'black'\n");
            t.0.insert(
                defined_in,
                "(labels/stability-policy)=\n\n## Stability Policy\n",
            );
            t
        };
        let faq = "See the [stability policy](labels/stability-policy).\n";
        let defined = sphinx("docs/the_black_code_style/index.md");
        assert!(check("docs/faq.md", Some(""), faq, &defined).is_empty());
        // Not a label definition, or outside Sphinx docs: still a missing path.
        let mentioned = {
            let mut t = sphinx("docs/other.md");
            t.0.insert("docs/other.md", "links to labels/stability-policy\n");
            t
        };
        assert_eq!(check("docs/faq.md", Some(""), faq, &mentioned).len(), 1);
        let no_sphinx = {
            let mut t = tree();
            t.0.insert("docs/index.md", "(labels/stability-policy)=\n");
            t
        };
        assert_eq!(check("docs/faq.md", Some(""), faq, &no_sphinx).len(), 1);
        // axum: an intra-doc link to the crate root's section, in a Markdown file under src/.
        let axum = "See [the crate docs](crate#sharing-state-with-handlers).\n";
        assert!(check("axum/src/docs/routing/with_state.md", Some(""), axum, &t).is_empty());
        assert_eq!(check("docs/with_state.md", Some(""), axum, &t).len(), 1);
        // gin's CONTRIBUTING.md: an email autolink.
        let gin = "email <appleboy.tw@gmail.com> instead of posting publicly.\n";
        assert!(check("CONTRIBUTING.md", Some(""), gin, &t).is_empty());
        // A file link with a line suffix is still a path that does not exist.
        let line = "document it in [`docs/doc.md`](docs/doc.md:1).\n";
        assert_eq!(check("CONTRIBUTING.md", Some(""), line, &t).len(), 1);
    }

    #[test]
    fn url_check_fails_open() {
        let online = |h: &str| h != "b2v.nowhere.io";
        assert_eq!(
            check_url("https://b2v.nowhere.io/docs", "example.net", &online),
            UrlVerdict::UnknownHost
        );
        assert_eq!(
            check_url("https://github.com/x", "example.net", &online),
            UrlVerdict::Ok
        );
        let offline = |_: &str| false;
        assert_eq!(
            check_url("https://b2v.nowhere.io/docs", "example.net", &offline),
            UrlVerdict::Offline
        );
        assert_eq!(url_host("https://u@h.io:8080/x?y"), Some("h.io"));
        assert_eq!(
            added_urls(
                Some("[a](https://a.io)"),
                "[a](https://a.io) [b](https://b.io)"
            ),
            vec![(1, "https://b.io".to_string())]
        );
    }
}
