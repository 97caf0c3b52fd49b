//! G7 symbol-preservation: a modify must not silently drop top-level definitions.

use std::collections::{BTreeMap, BTreeSet};

use slopguard_lang::{DefKind, Definition, FileKind, Language};

use crate::{Context, FileView, Finding, Guard, GuardInfo, Severity};

/// The symbol-preservation guard.
pub struct SymbolPreservation;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "symbol-preservation",
    code: Some("G7"),
    summary: "modifies that drop top-level definitions; always blocks when the symbol is still used elsewhere",
    doc: include_str!("../../docs/symbol-preservation.md"),
    default_enabled: true,
};

/// Languages whose files can refer to each other's symbols.
fn family(lang: Language) -> u8 {
    match lang {
        Language::Python => 0,
        Language::Rust => 1,
        Language::JavaScript | Language::TypeScript | Language::Tsx => 2,
        Language::Go => 3,
        Language::Java => 4,
        Language::C | Language::Cpp => 5,
        Language::Ruby => 6,
        Language::Bash => 7,
    }
}

/// The name other code uses to refer to a definition (`Class.method` -> `method`).
fn reference_name(def: &Definition) -> &str {
    def.name.rsplit(['.', '#', ':']).next().unwrap_or(&def.name)
}

/// Definitions keyed by name (impl blocks share their type's name; the set collapses them).
fn by_name(defs: &[Definition]) -> BTreeMap<&str, &Definition> {
    let mut map = BTreeMap::new();
    for d in defs {
        map.entry(d.name.as_str()).or_insert(d);
    }
    map
}

/// A use of a dropped symbol somewhere after the change.
struct Use {
    path: String,
    line: u32,
}

fn first_line_with_word(text: &str, word: &str) -> u32 {
    for (i, line) in text.lines().enumerate() {
        if line.match_indices(word).any(|(p, _)| {
            let before = line[..p].chars().next_back();
            let after = line[p + word.len()..].chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
        }) {
            return i as u32 + 1;
        }
    }
    1
}

/// Files (after the change) outside `skip` of the same language family that use `name`
/// without defining it themselves. `None` as soon as another file defines the name at top
/// level: then uses may refer to that definition, and the deletion is not proven harmful.
fn uses_elsewhere(cx: &Context<'_>, lang: Language, name: &str, skip: &str) -> Option<Vec<Use>> {
    let candidates = cx
        .base()
        .grep_words(&[name.to_string()])
        .unwrap_or_default();
    let mut paths: BTreeSet<String> = candidates.into_iter().collect();
    for c in &cx.change().changes {
        paths.remove(c.old_path());
        if c.after.is_some() {
            paths.insert(c.path.clone());
        }
    }
    let mut uses = Vec::new();
    for path in paths {
        if path == skip {
            continue;
        }
        let Some(bytes) = cx.read_after(&path) else {
            continue;
        };
        let Some(text) = crate::context::decode_text(&bytes) else {
            continue;
        };
        let FileKind::Code(other) = slopguard_lang::detect(&path, &bytes[..bytes.len().min(256)])
        else {
            continue;
        };
        if family(other) != family(lang) || !crate::tree_text_has_word(text, name) {
            continue;
        }
        let analysis = slopguard_lang::analyze(other, text);
        if analysis
            .definitions
            .iter()
            .any(|d| reference_name(d) == name)
        {
            return None;
        }
        if analysis.references.iter().any(|r| r == name) {
            uses.push(Use {
                line: first_line_with_word(text, name),
                path,
            });
        }
    }
    Some(uses)
}

fn is_test_name(name: &str) -> bool {
    name.starts_with("test_")
        || name.starts_with("Test")
        || name.starts_with("test") && name.len() > 4 && name.as_bytes()[4].is_ascii_uppercase()
}

impl SymbolPreservation {
    fn check_file(
        &self,
        cx: &Context<'_>,
        file: &FileView<'_>,
        lang: Language,
        out: &mut Vec<Finding>,
    ) {
        let (Some(before), Some(after)) = (file.before_analysis(), file.after_analysis()) else {
            return;
        };
        // A broken after-version is G2's finding; its definitions are unreliable.
        if !after.syntax_errors.is_empty() || !before.syntax_errors.is_empty() {
            return;
        }
        let path = file.path();
        let old = by_name(&before.definitions);
        let new = by_name(&after.definitions);
        let added: Vec<&Definition> = new
            .iter()
            .filter(|(n, _)| !old.contains_key(*n))
            .map(|(_, d)| *d)
            .collect();
        let after_text = file.after_text().unwrap_or_default();
        for (name, def) in &old {
            if new.contains_key(name) {
                continue;
            }
            let rname = reference_name(def);
            // Moved to another touched file of the change: not a loss.
            let moved = cx.files().iter().any(|f| {
                f.path() != path
                    && f.after_analysis().is_some_and(|a| {
                        a.definitions
                            .iter()
                            .any(|d| d.name == *name || reference_name(d) == rname)
                    })
            });
            if moved {
                continue;
            }
            let renamed_to = added
                .iter()
                .find(|d| d.body_hash == def.body_hash && d.kind == def.kind)
                .map(|d| d.name.clone());
            // Still used in this file (and not redefined in it)?
            let used_here = after.references.iter().any(|r| r == rname)
                && def.kind != DefKind::Impl
                && !after.definitions.iter().any(|d| reference_name(d) == rname);
            let elsewhere = if def.kind == DefKind::Impl || rname.len() < 2 {
                Some(Vec::new())
            } else {
                uses_elsewhere(cx, lang, rname, path)
            };
            let mut uses: Vec<Use> = elsewhere.unwrap_or_default();
            if used_here {
                uses.insert(
                    0,
                    Use {
                        path: path.to_string(),
                        line: first_line_with_word(after_text, rname),
                    },
                );
            }
            let kind = format!("{:?}", def.kind).to_lowercase();
            if !uses.is_empty() {
                let where_ = uses
                    .iter()
                    .take(3)
                    .map(|u| format!("{}:{}", u.path, u.line))
                    .collect::<Vec<_>>()
                    .join(", ");
                let more = if uses.len() > 3 {
                    format!(" and {} more", uses.len() - 3)
                } else {
                    String::new()
                };
                let what = match &renamed_to {
                    Some(n) => format!(
                        "{kind} `{name}` was renamed to `{n}` but is still used at {where_}{more}"
                    ),
                    None => {
                        format!("{kind} `{name}` was removed but is still used at {where_}{more}")
                    }
                };
                out.push(
                    Finding::new(&INFO, Severity::Block, what)
                        .at(path, Some(def.start_line), None)
                        .feedback(format!(
                            "You removed `{name}` from `{path}`, but it is still used at {where_}{more}. Keep `{name}` exactly as it was (copy it back verbatim); change only what the task asks."
                        ))
                        .data(serde_json::json!({
                            "symbol": name, "kind": kind, "renamed_to": renamed_to,
                            "used_at": uses.iter().map(|u| format!("{}:{}", u.path, u.line)).collect::<Vec<_>>(),
                        })),
                );
                continue;
            }
            if let Some(n) = renamed_to {
                out.push(
                    Finding::new(&INFO, Severity::Warn, format!("{kind} `{name}` renamed to `{n}` (same body)"))
                        .at(path, Some(def.start_line), None)
                        .feedback(format!("`{name}` in `{path}` was renamed to `{n}`; make sure the task asked for the rename."))
                        .data(serde_json::json!({"symbol": name, "kind": kind, "renamed_to": n})),
                );
                continue;
            }
            if cx
                .task()
                .is_some_and(|t| t.mentions(name) || t.mentions(rname))
                || is_test_name(rname)
            {
                continue;
            }
            out.push(
                Finding::new(&INFO, cx.intent_severity(), format!("{kind} `{name}` was removed"))
                    .at(path, Some(def.start_line), None)
                    .feedback(format!(
                        "Your change deleted `{name}` from `{path}`. Do not delete definitions the task did not ask you to remove: send the whole file with `{name}` preserved verbatim. A comment saying it \"remains unchanged\" does not keep it."
                    ))
                    .data(serde_json::json!({"symbol": name, "kind": kind})),
            );
        }
    }
}

impl Guard for SymbolPreservation {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        for file in cx.files() {
            if !file.is_modify() {
                continue;
            }
            if let FileKind::Code(lang) = file.kind() {
                self.check_file(cx, file, lang, out);
            }
        }
    }
}
