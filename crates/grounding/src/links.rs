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
fn candidates(doc_path: &str, target: &str, markup: Markup) -> Vec<String> {
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
fn is_sphinx_label(doc_path: &str, target: &str, tree: &dyn TreeView) -> bool {
    if target.contains('/') {
        return false;
    }
    let ext = target.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    if ext.as_deref().is_some_and(|e| FILE_EXTENSIONS.contains(&e)) {
        return false;
    }
    in_sphinx_docs(doc_path, tree)
}

/// Whether `doc_path` belongs to Sphinx documentation: a `conf.py` next to it or above it, or
/// `docs/conf.py`.
fn in_sphinx_docs(doc_path: &str, tree: &dyn TreeView) -> bool {
    let mut dir = doc_path.rfind('/').map(|i| &doc_path[..i]).unwrap_or("");
    loop {
        let conf = if dir.is_empty() {
            "conf.py".to_string()
        } else {
            format!("{dir}/conf.py")
        };
        if tree.exists(&conf) {
            return true;
        }
        if dir.is_empty() {
            break;
        }
        dir = dir.rfind('/').map(|i| &dir[..i]).unwrap_or("");
    }
    tree.exists("docs/conf.py")
}

/// A MyST target the doc itself defines: `(labels/hug-comparator)=` on a line of its own makes
/// `[see below](labels/hug-comparator)` a cross-reference, whatever its `/`.
fn is_myst_target(doc: &str, target: &str) -> bool {
    let label = format!("({target})=");
    doc.lines().any(|l| l.trim() == label)
}

/// A MyST target another doc of the same Sphinx documentation defines: `(labels/stability-policy)=`
/// in `docs/the_black_code_style/index.md` makes `[policy](labels/stability-policy)` in
/// `docs/faq.md` a cross-reference. Asked only of a link no file answers.
fn is_myst_target_elsewhere(doc_path: &str, target: &str, tree: &dyn TreeView) -> bool {
    in_sphinx_docs(doc_path, tree)
        && tree.files_containing(target).iter().any(|f| {
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
        if is_sphinx_label(doc_path, &decoded, tree)
            || is_myst_target(after, &decoded)
            || is_rustdoc_link(doc_path, &decoded)
            || is_email(&decoded)
        {
            continue;
        }
        let tried = candidates(doc_path, &decoded, markup);
        if tried.is_empty() {
            // Climbs above the root: cannot be judged.
            continue;
        }
        match tried.iter().find(|c| tree.exists(c)) {
            None if is_myst_target_elsewhere(doc_path, &decoded, tree) => {}
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
