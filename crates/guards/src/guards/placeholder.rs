//! placeholder: "... existing code ..." comments and stubs that replace real code.
//!
//! A function whose body had logic and now holds only a placeholder (`raise
//! NotImplementedError`, `pass`, `...`, `todo!()`, `panic("not implemented")`, `throw new
//! Error("Not implemented")`, a TODO'd `return None`, nothing) is judged on its syntax tree
//! ([`slopguard_lang::Body`]), so a docstring or comment left in place does not hide it. A
//! member declared abstract, a function that was already a stub, and a new stub pass.

use std::cell::OnceCell;
use std::collections::BTreeSet;
use std::sync::OnceLock;

use regex::Regex;
use slopguard_lang::{Body, Definition, FileKind};

use crate::{Context, FileView, Finding, Guard, GuardInfo, Severity};

/// The placeholder guard.
pub struct Placeholder;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "placeholder",
    code: None,
    summary: "\"... existing code ...\" / \"rest unchanged\" comments, and function bodies with logic reduced to a stub",
    doc: include_str!("../../docs/placeholder.md"),
    default_enabled: true,
    failure_mode: "patcher_reject",
    trace_event: "critic_placeholder.fail",
};

/// The phrases of a placeholder comment, after its comment leader.
const PLACEHOLDER_BODY: &str = r"\s*
            (?:
                (?:\.{3}|…)\s*(?:\(?\s*)?(?:existing|previous|original|other|remaining|rest|more|same|unchanged|old)\b
              | (?:the\s+)?rest\s+of\s+(?:the\s+)?(?:file|code|class|function|module|implementation|methods?|functions|tests|content|component|script)\b(?:\s+\w+){0,2}\s*(?:is\s+|are\s+|remains?\s+|stays?\s+|goes\s+)?(?:unchanged|the\s+same|as\s+before|omitted|here|\.{3}|…|$)
              | (?:existing|previous|original|other|remaining)\s+(?:code|implementation|methods|functions|imports|tests|logic|content|helpers?)\s*(?:\w+\s+)?(?:here|unchanged|remains?|stays?|omitted|goes\s+here|as\s+before|\.{3}|…)
              | (?:code|implementation|methods|functions|helpers?|imports)\s+(?:remains?|stays?|is|are)\s+(?:unchanged|the\s+same|as\s+before)
              | (?:unchanged|omitted\s+for\s+brevity|same\s+as\s+before)\s*(?:\.{3}|…)?\s*(?:\*/|-->)?\s*$
              | \w+(?:\s*(?:,|and)\s*\w+)*\s+remains?\s+unchanged
            )";

/// Comment leaders by family: `#` for Python, Ruby, shell and config formats; `//` and `/*`
/// for the C family, Rust, Go, Java and JavaScript. A `#` line in Rust is not a comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommentStyle {
    /// `#` (and `;` for INI).
    Hash,
    /// `//`, `/* */`, ` * `, JSX `{/* */}`.
    Slash,
}

/// The comment style of a file kind, `None` where comments cannot hide code.
pub fn comment_style(kind: FileKind) -> Option<CommentStyle> {
    use slopguard_lang::{DataFormat, Language};
    match kind {
        FileKind::Code(Language::Python | Language::Ruby | Language::Bash) => {
            Some(CommentStyle::Hash)
        }
        FileKind::Code(_) => Some(CommentStyle::Slash),
        FileKind::Data(DataFormat::Toml | DataFormat::Yaml | DataFormat::Ini) => {
            Some(CommentStyle::Hash)
        }
        FileKind::Data(DataFormat::Jsonc) => Some(CommentStyle::Slash),
        _ => None,
    }
}

/// Comment lines that stand in for code the model did not write out.
fn placeholder_comment(style: CommentStyle) -> &'static Regex {
    static HASH: OnceLock<Regex> = OnceLock::new();
    static SLASH: OnceLock<Regex> = OnceLock::new();
    let (cell, leader) = match style {
        CommentStyle::Hash => (&HASH, r"(?:\#|;)"),
        CommentStyle::Slash => (&SLASH, r"(?://|/\*|\*|\{/\*)"),
    };
    cell.get_or_init(|| {
        Regex::new(&format!(r"(?ix)^\s*{leader}{PLACEHOLDER_BODY}")).expect("valid regex")
    })
}

/// Stub bodies that stand for unwritten logic.
fn stub_marker() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r#"(?i)(?:\bTODO\b\s*:?\s*implement|\bimplement\s+(?:me|this)\b|raise\s+NotImplementedError|\btodo!\(|\bunimplemented!\(|throw\s+new\s+Error\(\s*["'`]not\s+implemented|panic\(\s*"not\s+implemented|^\s*pass\s*$|^\s*\.\.\.\s*$)"#,
        )
        .expect("valid regex")
    })
}

/// Statement lines of a definition's text: everything but its first (signature) line, blank
/// lines, comment-only lines, lone braces and stub markers.
fn real_lines(def_text: &str) -> usize {
    def_text
        .lines()
        .skip(1)
        .map(str::trim)
        .filter(|l| {
            !l.is_empty()
                && !l.starts_with('#')
                && !l.starts_with("//")
                && !l.starts_with("/*")
                && !l.starts_with('*')
                && !matches!(*l, "}" | "};" | "end" | "{" | ")" | "]")
                && !stub_marker().is_match(l)
        })
        .count()
}

/// Lines `start..=end` (1-based) of `lines`, cut at its end; `None` when `start` lies past
/// `end` or past the last line.
fn body_lines<'l, 's>(lines: &'l [&'s str], start: u32, end: u32) -> Option<&'l [&'s str]> {
    lines.get(start.saturating_sub(1) as usize..(end as usize).min(lines.len()))
}

/// Whether `line` is a placeholder comment in a file with comment style `style`.
pub fn is_placeholder_comment(style: CommentStyle, line: &str) -> bool {
    starts_with_leader(style, line)
        && names_a_placeholder(line)
        && placeholder_comment(style).is_match(line)
}

/// Words one of which every phrase of [`PLACEHOLDER_BODY`] holds: checked before the regex,
/// so an ordinary comment (`# matches the charset of a meta tag`) does not compile it either.
const PLACEHOLDER_WORDS: &[&str] = &[
    "...",
    "…",
    "rest",
    "existing",
    "previous",
    "original",
    "other",
    "remaining",
    "unchanged",
    "same",
    "omitted",
    "before",
];

/// Whether `line` holds one of [`PLACEHOLDER_WORDS`], in any case.
fn names_a_placeholder(line: &str) -> bool {
    let lower = line.to_lowercase();
    PLACEHOLDER_WORDS.iter().any(|w| lower.contains(w))
}

/// Whether `line`, after leading whitespace, starts with a comment leader of `style`: what
/// [`placeholder_comment`] requires first. Checked before the regex so that a change adding no
/// comment line never compiles it (a large case-insensitive Unicode regex, milliseconds per
/// process). Rust's `char::is_whitespace` and the regex's `\s` are both Unicode White_Space.
fn starts_with_leader(style: CommentStyle, line: &str) -> bool {
    let t = line.trim_start_matches(char::is_whitespace);
    match style {
        CommentStyle::Hash => t.starts_with(['#', ';']),
        CommentStyle::Slash => ["//", "/*", "*", "{/*"].iter().any(|l| t.starts_with(l)),
    }
}

impl Guard for Placeholder {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        let mut stubs = Vec::new();
        for file in cx.files() {
            let Some(style) = comment_style(file.kind()) else {
                continue;
            };
            if file.after_text().is_none() {
                continue;
            }
            out.extend(placeholder_comment_finding(file, style));
            if file.is_modify() {
                stubs.extend(stubbed_bodies(file));
            }
        }
        if stubs.is_empty() {
            return;
        }
        let moved = implementations_added(cx);
        out.extend(
            stubs
                .into_iter()
                .filter(|(def, _)| !moved_to_an_override(def, &moved))
                .map(|(_, finding)| finding),
        );
    }
}

/// Whether the stubbed member `def` left its code to a method of the same name that the
/// change adds elsewhere (a base class method made abstract, its implementation moved into
/// the subclass: flask's `Scaffold.ensure_sync` to `Flask.ensure_sync`).
fn moved_to_an_override(def: &Definition, added: &BTreeSet<String>) -> bool {
    def.simple_name() != def.name && added.contains(def.simple_name())
}

/// The simple names of the functions with logic that the change adds: new in their file.
fn implementations_added(cx: &Context<'_>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for file in cx.files() {
        let Some(a) = file.after_analysis() else {
            continue;
        };
        let before = file.before_analysis();
        for d in a.definitions.iter().filter(|d| d.body == Body::Logic) {
            let existed = before.is_some_and(|b| b.definitions.iter().any(|o| o.name == d.name));
            if !existed {
                out.insert(d.simple_name().to_owned());
            }
        }
    }
    out
}

/// The first placeholder comment the change adds to `file`.
fn placeholder_comment_finding(file: &FileView<'_>, style: CommentStyle) -> Option<Finding> {
    let path = file.path();
    let &(line, text) = file
        .line_changes()
        .added
        .iter()
        .find(|(_, l)| is_placeholder_comment(style, l))?;
    let shown = text.trim();
    Some(
        Finding::new(&INFO, Severity::Block, format!("placeholder comment `{shown}` stands in for code"))
            .at(path, Some(line), None)
            .feedback(format!(
                "`{path}` line {line} has `{shown}` instead of real code. Write out the complete file content: every line you keep must be present verbatim, not summarised by a comment."
            )),
    )
}

/// Functions of a modified file whose body had logic and is now a stub or empty, with the
/// finding for each.
///
/// Where the language layer judged both bodies ([`Body`] known), the verdict is structural:
/// docstrings and comments do not count, and a member declared abstract is not a stub. For
/// the other languages the line count of [`real_lines`] decides, as before.
fn stubbed_bodies<'f>(file: &'f FileView<'_>) -> Vec<(&'f Definition, Finding)> {
    let mut out = Vec::new();
    let (Some(b), Some(a)) = (file.before_analysis(), file.after_analysis()) else {
        return out;
    };
    // Split into lines only for the line rule: most languages' bodies are judged by their
    // analysis, and splitting large files was most of this guard's time.
    let before_lines = OnceCell::new();
    let after_lines = OnceCell::new();
    for (index, new_def) in a.definitions.iter().enumerate() {
        let Some(old_def) = namesake_before(&b.definitions, &a.definitions, index) else {
            continue;
        };
        // An unchanged body cannot have become a stub (most definitions of a modified file).
        if old_def.body_hash == new_def.body_hash {
            continue;
        }
        let gutted = match (old_def.body, new_def.body) {
            (Body::Unknown, Body::Unknown) => {
                let before_lines = lines_once(&before_lines, file.before_text());
                let after_lines = lines_once(&after_lines, file.after_text());
                let old_lines = body_lines(before_lines, old_def.start_line, old_def.end_line);
                let new_lines = body_lines(after_lines, new_def.start_line, new_def.end_line);
                old_lines != new_lines && stubbed_by_lines(old_lines, new_lines)
            }
            (old, new) => old == Body::Logic && new.is_placeholder(),
        };
        // A function defined inside the body gutted (a Rust `#[cfg]` variant of a helper: the
        // outer body still calls it, so it stays logic).
        let nested_gutted = old_def.body == Body::Logic
            && new_def.body == Body::Logic
            && new_def.nested.functions == old_def.nested.functions
            && new_def.nested.placeholders > old_def.nested.placeholders;
        if gutted || nested_gutted {
            let mut finding = stub_finding(file.path(), old_def, new_def);
            if nested_gutted {
                finding.message = format!(
                    "a function defined inside `{}` was replaced by a stub",
                    new_def.name
                );
            }
            out.push((new_def, finding));
        }
    }
    out
}

/// The lines of `text`, split the first time they are asked for.
fn lines_once<'c, 'f>(cell: &'c OnceCell<Vec<&'f str>>, text: Option<&'f str>) -> &'c [&'f str] {
    cell.get_or_init(|| text.unwrap_or("").lines().collect())
}

/// The definition of `before` that `after[index]` continues: the one of the same name and
/// kind at the same rank among its namesakes (`#[cfg]` variants, overloads and conditional
/// definitions share a name), or the last namesake when `before` has fewer.
fn namesake_before<'d>(
    before: &'d [Definition],
    after: &[Definition],
    index: usize,
) -> Option<&'d Definition> {
    let def = &after[index];
    let same = |d: &&Definition| d.name == def.name && d.kind == def.kind;
    let rank = after[..index].iter().filter(same).count();
    let namesakes: Vec<&Definition> = before.iter().filter(same).collect();
    namesakes.get(rank).or_else(|| namesakes.last()).copied()
}

/// The line rule for languages whose bodies are not judged structurally: at least two
/// statement lines before, none after, and a stub marker in the new body.
fn stubbed_by_lines(old_lines: Option<&[&str]>, new_lines: Option<&[&str]>) -> bool {
    let old_body = old_lines.map(|l| l.join("\n")).unwrap_or_default();
    let new_body = new_lines.map(|l| l.join("\n")).unwrap_or_default();
    real_lines(&old_body) >= 2
        && real_lines(&new_body) == 0
        && !stub_marker().is_match(&old_body)
        && new_body.lines().any(|l| stub_marker().is_match(l))
}

/// The finding for `new_def`, whose body `old_def` had logic in.
fn stub_finding(path: &str, old_def: &Definition, new_def: &Definition) -> Finding {
    let old_len = old_def.end_line.saturating_sub(old_def.start_line) + 1;
    let new_len = new_def.end_line.saturating_sub(new_def.start_line) + 1;
    let what = if new_def.body == Body::Empty {
        "an empty body"
    } else {
        "a stub"
    };
    Finding::new(
        &INFO,
        Severity::Block,
        format!("`{}` ({old_len} lines) was replaced by {what}", new_def.name),
    )
    .at(path, Some(new_def.start_line), None)
    .feedback(format!(
        "You replaced the body of `{}` in `{path}` with {what} (TODO / pass / NotImplemented / todo!()); a kept docstring or comment does not make up for the removed code. Keep the existing implementation and change only what the task requires.",
        new_def.name
    ))
    .data(serde_json::json!({"symbol": new_def.name, "old_lines": old_len, "new_lines": new_len, "body": new_def.body}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_leader_check_skips_no_match_of_the_regex() {
        let lines = [
            "# ... existing code ...",
            "\u{a0}\u{2003}# ... existing code ...",
            "\t; rest of the file unchanged",
            "  // ... rest of the file unchanged",
            " * existing methods here",
            "{/* ... existing code ... */}",
            "x = 1  # ... existing code ...",
            "... existing code ...",
            "rest of the file unchanged",
            "",
        ];
        for style in [CommentStyle::Hash, CommentStyle::Slash] {
            for l in lines {
                if placeholder_comment(style).is_match(l) {
                    assert!(starts_with_leader(style, l), "{style:?}: {l:?}");
                }
            }
        }
        assert!(is_placeholder_comment(
            CommentStyle::Hash,
            "\u{a0}\u{2003}# ... existing code ..."
        ));
    }

    #[test]
    fn placeholder_comments() {
        for l in [
            "# ... existing code ...",
            "# init_schema and seed remain unchanged",
            "  # ... (existing imports)",
            "# ...existing tests...",
        ] {
            assert!(is_placeholder_comment(CommentStyle::Hash, l), "{l}");
        }
        for l in [
            "    // ... rest of the file unchanged",
            "// rest of the code remains the same",
            "/* existing methods here */",
            "// Rest of implementation unchanged",
            "{/* ... existing code ... */}",
            "// helpers stay as before",
            "// OMITTED FOR BREVITY",
            "// … other methods …",
        ] {
            assert!(is_placeholder_comment(CommentStyle::Slash, l), "{l}");
        }
        // `#` starts no comment in Rust (a prompt template's WRONG example, an attribute).
        assert!(!is_placeholder_comment(
            CommentStyle::Slash,
            "# get_conn and seed remain unchanged"
        ));
        for l in [
            "# compute the rest of the values",
            "// TODO: handle errors",
            "x = rest_of_file()",
            "# see the existing implementation in utils.py for details on retries",
            "// unchanged since v1: keep API stable",
            "# The rest of the function handles retries.",
        ] {
            assert!(!is_placeholder_comment(CommentStyle::Hash, l), "{l}");
            assert!(
                !is_placeholder_comment(CommentStyle::Slash, &l.replacen('#', "//", 1)),
                "{l}"
            );
        }
    }
}
