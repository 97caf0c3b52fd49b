//! G11 content-grounding: docs that name frameworks the repository does not use.
//!
//! A framework mention (see [`slopguard_fingerprint::FRAMEWORKS`]) in the prose of a doc file is
//! grounded when the fingerprint infers that framework, declares a package the framework map
//! links to it, declares any package whose name contains the framework id (`@reduxjs/toolkit`
//! grounds "Redux"), or is the framework itself (its own package name). Mentions inside code
//! blocks, in negated or comparative sentences ("unlike React", "instead of Django", "a
//! Flask-like API"), in sentences about the reader's own code rather than the project's ("if
//! you need async requests, use httpx", "your app can call it with HTTPX", "e.g. httpx"), and
//! mentions the file already had before the change are not claims of this change and are
//! skipped. A greenfield tree (no manifest) grounds everything.

use std::sync::OnceLock;

use regex::{Regex, RegexSet};
use serde::Serialize;
use slopguard_fingerprint::{FRAMEWORKS, Fingerprint, FrameworkDef, package_matches};

use crate::markdown;

/// One framework named by a doc but absent from the fingerprint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UngroundedMention {
    /// Framework id ("react").
    pub framework: &'static str,
    /// Display name ("React").
    pub name: &'static str,
    /// The text that matched.
    pub matched: String,
    /// 1-based line of the first occurrence.
    pub line: u32,
}

/// A framework mention found in prose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    /// The framework.
    pub framework: &'static FrameworkDef,
    /// The text that matched.
    pub matched: String,
    /// 1-based line of the segment it is in.
    pub line: u32,
}

/// One mention-checked framework: its index in [`FRAMEWORKS`] and its full mention regex
/// (the alternatives with the word-boundary classes), compiled on first use.
struct MentionPattern {
    framework: usize,
    source: String,
    full: OnceLock<Option<Regex>>,
}

impl MentionPattern {
    /// The full regex; `None` when it does not compile (the framework is then never matched).
    fn regex(&self) -> Option<&Regex> {
        self.full
            .get_or_init(|| Regex::new(&self.source).ok())
            .as_ref()
    }
}

/// The mention patterns of every framework that has mentions, in [`FRAMEWORKS`] order, and a
/// set of their bare alternatives. The full regexes carry Unicode `\w` classes, costly to
/// compile (most of a `check` on a doc change when all were compiled up front); the set has
/// none, so a segment is run only through the full regexes of the frameworks whose
/// alternatives it contains. A full match always contains a match of its alternatives, so the
/// set skips nothing that could match. `None` for the set when it does not compile: every
/// pattern is then tried.
fn mention_patterns() -> &'static (Vec<MentionPattern>, Option<RegexSet>) {
    static PATTERNS: OnceLock<(Vec<MentionPattern>, Option<RegexSet>)> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let (patterns, bare): (Vec<MentionPattern>, Vec<String>) = FRAMEWORKS
            .iter()
            .enumerate()
            .filter(|(_, f)| !f.mentions.is_empty())
            .map(|(i, f)| {
                let alts = f.mentions.join("|");
                // No word character (or `-`, `.`, `/`, `@`) may touch the mention: "ReactiveX",
                // "react-dom", "vue-router" and "@reduxjs" are not prose mentions.
                let source =
                    format!(r"(?:^|[^\w\-./@])((?:{alts}))(?:$|[^\w/@.\-]|[.\-](?:$|[^\w]))");
                let pattern = MentionPattern {
                    framework: i,
                    source,
                    full: OnceLock::new(),
                };
                (pattern, format!("(?:{alts})"))
            })
            .unzip();
        (patterns, RegexSet::new(bare).ok())
    })
}

/// The mention patterns that may match `segment`, in [`FRAMEWORKS`] order.
fn candidate_patterns(segment: &str) -> Vec<&'static MentionPattern> {
    let (patterns, set) = mention_patterns();
    match set {
        Some(set) => set.matches(segment).iter().map(|i| &patterns[i]).collect(),
        None => patterns.iter().collect(),
    }
}

fn negation_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:works with|compatib\w*|integrat\w*|interop\w*|for use with|such as|unlike|instead of|rather than|not|no|without|never|doesn't|does not|don't|do not|isn't|is not|aren't|won't|vs\.?|versus|compared (?:to|with)|alternatives? to|replac\w*|migrat\w* (?:from|away)|inspired by|similar to|equivalent|port of|counterpart)\b",
        )
        .expect("static regex")
    })
}

/// A sentence about the reader's code, not the project's: it speaks to the reader (`you`,
/// `your`), gives an example (`for example`, `for instance`), or tells the reader which tool to
/// pick (`Use httpx ...`, `Install ...`, `Try ...`, `See ...`, `Optionally, ...`). A framework
/// it names is the reader's choice, so it claims nothing about the project's stack: "The
/// frontend is a React application" is a claim, "if you need an async client, use httpx" is
/// not. A condition alone is no such sign: "if the socket drops, the React frontend
/// reconnects" still describes the project.
fn reader_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:you|your|yours|yourself|for example|for instance)\b|^\W*(?:use|install|try|see|check out|consider|choose|pick|refer to|optionally)\b",
        )
        .expect("static regex")
    })
}

/// Whether the mention at byte offset `at` of `seg` follows an example marker ("e.g. httpx",
/// "i.e. Django"), whose '.' the sentence splitter takes for a sentence end.
fn after_example_marker(seg: &str, at: usize) -> bool {
    let before = seg[..at].trim_end_matches([' ', ',', '(', ':']);
    let lower = before.to_ascii_lowercase();
    lower.ends_with("e.g.") || lower.ends_with("e.g") || lower.ends_with("i.e.")
}

/// The sentence of `text` around byte offset `at`.
fn sentence(text: &str, at: usize) -> &str {
    let start = text[..at]
        .rfind(['.', '!', '?', ';', '\n'])
        .map(|i| i + 1)
        .unwrap_or(0);
    let end = text[at..]
        .find(['!', '?', ';', '\n'])
        .map(|i| at + i)
        .unwrap_or(text.len());
    // A '.' ends the sentence only when followed by whitespace ("Next.js" keeps going).
    let mut end2 = end;
    let bytes = text.as_bytes();
    for (i, b) in text[at..end].bytes().enumerate() {
        let j = at + i;
        if b == b'.' && bytes.get(j + 1).is_none_or(|n| n.is_ascii_whitespace()) {
            end2 = j;
            break;
        }
    }
    &text[start..end2]
}

/// Every framework mention in the prose of a doc that claims the project uses it: neither
/// negated nor comparative, nor about the reader's own code (see [`reader_re`]).
pub fn mentions(path: &str, text: &str) -> Vec<Mention> {
    scan(path, text, true)
}

/// The framework mentions of a doc's prose, negated and comparative ones left out; with
/// `claims_only`, those about the reader's code too.
fn scan(path: &str, text: &str, claims_only: bool) -> Vec<Mention> {
    let segments: Vec<(u32, String)> = if markdown::is_markdown_path(path) {
        markdown::parse(text)
            .segments
            .into_iter()
            .map(|s| (s.line, s.text))
            .collect()
    } else {
        // rst / txt / adoc: line by line, skipping indented literal blocks.
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.starts_with("    ") && !l.starts_with('\t'))
            .map(|(i, l)| (i as u32 + 1, l.to_string()))
            .collect()
    };
    let mut out = Vec::new();
    for (line, seg) in &segments {
        for pattern in candidate_patterns(seg) {
            let Some(re) = pattern.regex() else { continue };
            // Each search starts where the last mention ended, not where its match did: the
            // match takes the character after a mention ("httpx. HTTPX" would lose the second).
            let mut from = 0;
            while let Some(c) = re.captures_at(seg, from) {
                let Some(m) = c.get(1) else { break };
                from = m.end();
                let after = &seg[m.end()..];
                if after.starts_with("-like") || after.starts_with("-style") {
                    continue;
                }
                let around = sentence(seg, m.start());
                if negation_re().is_match(around)
                    || (claims_only
                        && (reader_re().is_match(around) || after_example_marker(seg, m.start())))
                {
                    continue;
                }
                out.push(Mention {
                    framework: &FRAMEWORKS[pattern.framework],
                    matched: m.as_str().to_string(),
                    line: *line,
                });
            }
        }
    }
    out
}

/// Docs whose nature is to name other projects: changelogs and release notes (they record
/// events, integrations and reporters), comparisons, glossaries, FAQs, contribution guides and
/// acknowledgements.
pub fn is_reference_doc(path: &str) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let stem = base.split('.').next().unwrap_or(&base);
    [
        "changelog",
        "changes",
        "history",
        "news",
        "release",
        "releases",
        "release-notes",
        "release_notes",
        "comparison",
        "compare",
        "why",
        "glossary",
        "faq",
        "contributing",
        "contrib",
        "acknowledgements",
        "acknowledgments",
        "credits",
        "authors",
        "related",
        "alternatives",
        "migration",
        "migrating",
    ]
    .iter()
    .any(|k| stem == *k || stem.starts_with(&format!("{k}-")) || stem.starts_with(&format!("{k}_")))
}

/// The document `path` translates, when its name marks it as a translation: `README.ar.md`,
/// `README.zh-CN.md`, `README_ja.md`, `guide-pt-BR.rst` translate `README.md`, `guide.rst` of
/// the same directory. A translation repeats its original's mentions (nanoid's README.ko.md
/// names React where README.md does), so those are carried over like the file's own earlier
/// ones.
pub fn translated_from(path: &str) -> Option<String> {
    const LANGUAGES: &[&str] = &[
        "ar", "bg", "bn", "ca", "cs", "da", "de", "el", "es", "et", "fa", "fi", "fr", "he", "hi",
        "hu", "id", "it", "ja", "jp", "ko", "kr", "lt", "lv", "ms", "nl", "no", "pl", "pt", "ro",
        "ru", "sk", "sl", "sr", "sv", "th", "tr", "uk", "ur", "vi", "zh", "cn", "tw",
    ];
    let (dir, base) = path.rsplit_once('/').map_or(("", path), |(d, b)| (d, b));
    let (rest, ext) = base.rsplit_once('.')?;
    let cut = rest.rfind(['.', '_', '-'])?;
    let (stem, mut tag) = (&rest[..cut], &rest[cut + 1..]);
    let mut stem = stem;
    // A region after the language (`zh-CN`, `pt_BR`): the language is one separator earlier.
    if tag.len() == 2 && tag.chars().all(|c| c.is_ascii_uppercase()) {
        let cut = stem.rfind(['.', '_', '-'])?;
        tag = &stem[cut + 1..];
        stem = &stem[..cut];
    }
    if stem.is_empty() || !LANGUAGES.contains(&tag.to_ascii_lowercase().as_str()) {
        return None;
    }
    let original = format!("{stem}.{ext}");
    Some(if dir.is_empty() {
        original
    } else {
        format!("{dir}/{original}")
    })
}

/// True when the fingerprint grounds framework `f`.
pub fn is_grounded(fp: &Fingerprint, f: &FrameworkDef) -> bool {
    if fp.is_greenfield() || fp.declared_frameworks.iter().any(|d| d == f.id) {
        return true;
    }
    let id = f.id.to_ascii_lowercase();
    let id_compact: String = id.chars().filter(|c| c.is_alphanumeric()).collect();
    fp.declared_deps
        .values()
        .flatten()
        .chain(fp.local_packages.iter())
        .any(|dep| {
            let d = dep.to_ascii_lowercase();
            d.contains(&id)
                || (id_compact.len() >= 4 && d.contains(&id_compact))
                || f.packages.iter().any(|p| package_matches(p, dep))
        })
}

/// G11: the frameworks a change to a doc newly names without grounding. `before` is the
/// file's previous text (None for a created file); frameworks it already mentioned are exempt.
pub fn check(
    path: &str,
    before: Option<&str>,
    after: &str,
    fp: &Fingerprint,
) -> Vec<UngroundedMention> {
    if fp.is_greenfield() || !markdown::is_doc_path(path) || is_reference_doc(path) {
        return Vec::new();
    }
    // What the file named before, as a claim or not: a page that already told the reader to
    // use httpx may go on to describe it.
    let old: Vec<&str> = before
        .map(|b| {
            scan(path, b, false)
                .into_iter()
                .map(|m| m.framework.id)
                .collect()
        })
        .unwrap_or_default();
    let mut out: Vec<UngroundedMention> = Vec::new();
    for m in mentions(path, after) {
        let f = m.framework;
        if old.contains(&f.id) || out.iter().any(|o| o.framework == f.id) || is_grounded(fp, f) {
            continue;
        }
        out.push(UngroundedMention {
            framework: f.id,
            name: f.name,
            matched: m.matched,
            line: m.line,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_fingerprint::{MemorySource, compute_from};

    fn rust_cli() -> Fingerprint {
        compute_from(&MemorySource::new().with(
            "Cargo.toml",
            "[package]\nname=\"b2v\"\n[dependencies]\nclap=\"4\"\nserde=\"1\"\ntokio=\"1\"\n",
        ))
    }

    const ARCH: &str = "# Architecture\n\nThe frontend is a React application with Redux for state, talking to the CLI over a WebSocket.\n\nThe CLI uses clap and Tokio.\n";

    #[test]
    fn the_prefilter_keeps_every_framework_that_matches() {
        let (patterns, set) = mention_patterns();
        assert!(set.is_some(), "the bare alternatives compile as one set");
        let segments = [
            ARCH,
            "Built with Next.js, Vue.js and Django; (React) or \"Flask\".",
            "SvelteKit-based, ReactiveX, react-dom, @reduxjs, Tokio.",
            "Unicode around names: éReact, Reactö, «Vue», Django—Flask.",
        ];
        for seg in segments {
            let all: Vec<usize> = patterns
                .iter()
                .filter(|p| p.regex().is_some_and(|r| r.is_match(seg)))
                .map(|p| p.framework)
                .collect();
            let kept: Vec<usize> = candidate_patterns(seg)
                .iter()
                .filter(|p| p.regex().is_some_and(|r| r.is_match(seg)))
                .map(|p| p.framework)
                .collect();
            assert!(!all.is_empty(), "{seg}");
            assert_eq!(all, kept, "{seg}");
        }
    }

    #[test]
    fn react_redux_in_rust_cli_is_ungrounded() {
        let v = check("docs/guide/architecture.md", None, ARCH, &rust_cli());
        let ids: Vec<_> = v.iter().map(|m| m.framework).collect();
        assert_eq!(ids, ["react", "redux"]);
        assert_eq!(v[0].line, 3);
    }

    #[test]
    fn grounded_by_deps_and_containment() {
        let fp = Fingerprint {
            manifest_files: vec!["package.json".into()],
            declared_deps: [
                (
                    "npm".to_string(),
                    vec!["react-dom".into(), "@reduxjs/toolkit".into()],
                ),
                ("rust".to_string(), vec!["clap".into(), "tokio".into()]),
            ]
            .into_iter()
            .collect(),
            ..Default::default()
        };
        assert!(check("README.md", None, ARCH, &fp).is_empty());
    }

    #[test]
    fn greenfield_and_non_docs_pass() {
        assert!(check("README.md", None, ARCH, &Fingerprint::default()).is_empty());
        assert!(check("src/main.rs", None, ARCH, &rust_cli()).is_empty());
    }

    #[test]
    fn code_negation_and_carry_over_are_exempt() {
        let fp = rust_cli();
        let text = "# Why\n\nUnlike React, we render on the terminal.\n\nA Flask-like routing API.\n\n```js\nimport React from 'react'\n```\n";
        assert!(check("README.md", None, text, &fp).is_empty());
        let before = "We also ship a Django admin.\n";
        let after = "We also ship a Django admin. It is great.\n";
        assert!(check("README.md", Some(before), after, &fp).is_empty());
        assert_eq!(check("README.md", None, after, &fp).len(), 1);
    }

    fn requests_library() -> Fingerprint {
        compute_from(&MemorySource::new().with(
            "pyproject.toml",
            "[project]\nname = \"weatherkit\"\ndependencies = [\"requests>=2.31\"]\n",
        ))
    }

    #[test]
    fn a_tool_suggested_to_the_reader_is_not_a_claim_of_use() {
        let fp = requests_library();
        let page = "# Asynchronous use\n\nThe client is synchronous. If you need async requests, \
                    call the HTTP API with httpx.\n\nYour application may also wrap it in HTTPX \
                    transports.\n\nUse HTTPX when the event loop must not block.\n\nAn async \
                    client (e.g. httpx) works too.\n";
        assert_eq!(check("docs/async.md", None, page, &fp), []);
    }

    #[test]
    fn a_condition_about_the_project_is_still_a_claim() {
        let page = "# Architecture\n\nIf the socket drops, the React frontend reconnects.\n";
        let found = check("docs/guide/architecture.md", None, page, &rust_cli());
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].framework, "react");
    }

    #[test]
    fn the_project_said_to_use_a_tool_is_still_a_claim() {
        let fp = requests_library();
        let page = "# Asynchronous use\n\nweatherkit sends its requests with HTTPX.\n\nIf you \
                    need async requests, call the HTTP API directly.\n";
        let found = check("docs/async.md", None, page, &fp);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].framework, found[0].line), ("httpx", 3));
    }

    #[test]
    fn a_page_that_suggested_a_tool_may_go_on_to_describe_it() {
        let fp = requests_library();
        let before = "If you need async requests, use httpx.\n";
        let after = "If you need async requests, use httpx. HTTPX speaks HTTP/2.\n";
        assert_eq!(check("docs/async.md", Some(before), after, &fp), []);
        assert_eq!(check("docs/async.md", None, after, &fp).len(), 1);
    }

    #[test]
    fn translations_name_their_original() {
        let cases = [
            ("README.ar.md", Some("README.md")),
            ("README.zh-CN.md", Some("README.md")),
            ("docs/README_ja.md", Some("docs/README.md")),
            ("docs/guide-pt-BR.rst", Some("docs/guide.rst")),
            ("README.md", None),
            ("docs/api.v2.md", None),
            ("docs/getting-started.md", None),
            ("docs/setup-CN.md", None),
            (".ko.md", None),
        ];
        for (path, want) in cases {
            assert_eq!(translated_from(path).as_deref(), want, "{path}");
        }
    }

    #[test]
    fn words_that_contain_names_do_not_match() {
        let fp = rust_cli();
        let text = "Reactive streams, react-dom-free, ReactiveX, Vue3x and Svelter.\n";
        assert!(
            check("README.md", None, text, &fp).is_empty(),
            "{:?}",
            check("README.md", None, text, &fp)
        );
    }
}
