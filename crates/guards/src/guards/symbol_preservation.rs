//! G7 symbol-preservation: a modify must not silently drop top-level definitions.

use std::collections::{BTreeMap, BTreeSet};

use slopguard_lang::{
    DefKind, Definition, FileKind, Language, NameUses, ParsedSource, word_positions,
};

use crate::{Context, FileView, Finding, Guard, GuardInfo, Severity};

mod builtins;
mod uses;
mod variants;

use builtins::is_builtin;
use uses::{Use, commonjs_exports, exports_otherwise, find_uses, is_commonjs_export, qualifiers};

/// The symbol-preservation guard.
pub struct SymbolPreservation;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "symbol-preservation",
    code: Some("G7"),
    summary: "modifies that drop top-level definitions; always blocks when the symbol is still used elsewhere",
    doc: include_str!("../../docs/symbol-preservation.md"),
    default_enabled: true,
    failure_mode: "ast_diff",
    trace_event: "critic_ast_diff.fail",
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

/// Splits a definition name into its owner and the name code uses (`Class.method` ->
/// (`Class`, `method`), `Type::m` -> (`Type`, `m`), `helper` -> (None, `helper`)).
fn split_member(name: &str) -> (Option<&str>, &str) {
    for sep in ["::", ".", "#"] {
        if let Some((owner, member)) = name.rsplit_once(sep) {
            let owner = owner.rsplit(['.', ':', '#']).next().unwrap_or(owner);
            return (Some(owner), member);
        }
    }
    (None, name)
}

/// Whether `def` (of a file in `lang`) is a member of a type rather than a free definition.
/// A Rust item with an owner is a type's member unless only a module can hold it: a struct,
/// enum, trait, macro or module inside an inline `mod content { .. }` is a free item of that
/// module (serde moved `ContentVisitor` into one), while a function or constant may be an
/// associated item.
fn is_member(lang: Language, def: &Definition) -> bool {
    split_member(&def.name).0.is_some()
        && !(lang == Language::Rust
            && matches!(
                def.kind,
                DefKind::Struct | DefKind::Enum | DefKind::Trait | DefKind::Macro | DefKind::Module
            ))
}

/// The name other code uses to refer to a definition (`Class.method` -> `method`).
fn reference_name(def: &Definition) -> &str {
    split_member(&def.name).1
}

/// Definitions keyed by name (impl blocks share their type's name; the set collapses them).
fn by_name(defs: &[Definition]) -> BTreeMap<&str, &Definition> {
    let mut map = BTreeMap::new();
    for d in defs {
        map.entry(d.name.as_str()).or_insert(d);
    }
    map
}

/// Lines that are comments (or preprocessor/attribute lines) in `lang`.
fn is_comment_line(lang: Language, line: &str) -> bool {
    let t = line.trim_start();
    match lang {
        Language::Python | Language::Ruby | Language::Bash => t.starts_with('#'),
        _ => t.starts_with("//") || t.starts_with("/*") || t.starts_with('*') || t.starts_with('#'),
    }
}

/// Whether the occurrence at `p` sits inside a string literal (odd number of quotes before).
fn in_string(line: &str, p: usize) -> bool {
    let before = &line[..p];
    before.matches('"').count() % 2 == 1
        || before.matches('\'').count() % 2 == 1 && !before.contains("'a")
}

/// Import-like lines: they use a name from another module.
fn is_import_line(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("import ")
        || t.starts_with("from ")
        || t.starts_with("use ")
        || t.starts_with("pub use ")
        || t.starts_with("pub(crate) use ")
        || t.starts_with("export {")
        || t.starts_with("export * ")
        || (t.contains("require(")
            && (t.starts_with("const ") || t.starts_with("let ") || t.starts_with("var ")))
}

/// Whether `line` binds `word` (declares, assigns or aliases it) rather than using it.
fn binds(line: &str, word: &str) -> bool {
    const KEYWORDS: [&str; 24] = [
        "def",
        "fn",
        "function",
        "class",
        "struct",
        "enum",
        "trait",
        "type",
        "interface",
        "const",
        "let",
        "var",
        "static",
        "mod",
        "module",
        "func",
        "typedef",
        "union",
        "namespace",
        "async",
        "mut",
        "macro_rules!",
        "#define",
        "alias",
    ];
    for p in word_positions(line, word) {
        let before = line[..p].trim_end();
        let prev_word = before
            .rsplit(|c: char| !(c.is_alphanumeric() || c == '_' || c == '!' || c == '#'))
            .next()
            .unwrap_or("");
        if KEYWORDS.contains(&prev_word) || prev_word == "as" {
            return true;
        }
        let after = line[p + word.len()..].trim_start();
        let assign = after.starts_with('=') && !after.starts_with("==") && !after.starts_with("=>");
        let typed = after.starts_with(':') && !after.starts_with("::");
        // `name = ...` / `name: T = ...` at the start of a statement.
        let targets_only = !before.is_empty()
            && before.chars().all(|c| {
                c.is_alphanumeric() || c == '_' || c == ',' || c == '=' || c.is_whitespace()
            })
            && !before.contains("==");
        let at_start = before.is_empty()
            || targets_only
            || before.ends_with("export")
            || before.ends_with("pub")
            || before.ends_with(')') && before.starts_with("pub(");
        if at_start && (assign || (typed && after.contains('='))) {
            return true;
        }
        // Parameters and keyword arguments: `(name: T`, `, name=...`.
        if (before.ends_with('(') || before.ends_with(',')) && (typed || assign) {
            return true;
        }
    }
    false
}

/// The removed definition and everything needed to look for its uses.
struct Removed<'a> {
    path: &'a str,
    lang: Language,
    def: &'a Definition,
    /// The name code uses.
    rname: &'a str,
    /// Owner type/class for members.
    owner: Option<&'a str>,
    /// Qualifiers under which a qualified use refers to this definition.
    qualifiers: Vec<String>,
    renamed_to: Option<String>,
    /// Uses are resolved through the language's scopes ([`slopguard_lang::names_uses`]): a
    /// free definition of Python, Rust, Go, JS or TS. Holds how the name resolves in its own
    /// file after the change.
    scoped: Option<NameUses>,
    /// A namesake remains (a local binding, or a member of the same name in another file of
    /// the change): the removal is silent unless a use still resolves to the dropped one.
    quiet_unless_used: bool,
    /// A pytest fixture: test and fixture parameters of its name use it.
    fixture: bool,
    /// A member of a Rust trait implementation, or one whose namesake the change adds to
    /// another owner: reported as removed, never as "still used" (see [`trait_of_impl`] and
    /// [`member_moved`]).
    trait_member: bool,
    /// A Rust trait member whose hand-written implementation the change replaced by a derive
    /// of the trait (`impl Default for Mode` dropped, `#[derive(Default)]` on `Mode` added).
    derived: bool,
    /// A CommonJS export (`exports.Router = Router`) deleted while the file still binds the
    /// name: the file's own code keeps working, other files lose `require('./m').Router`.
    /// Only other files' qualified uses and imports of the name count.
    export_only: bool,
    /// A definition of an ES module (its file imports or exports with `import` / `export`):
    /// other files reach it only through an import from its module, so a namesake another
    /// module defines neither hides those uses nor makes a bare name elsewhere one of them.
    es_module: bool,
    /// Which of the name's definitions was lost while the file still defines others (see
    /// [`variants`]): "`#[cfg(unix)]`", "the implementation of the overloaded".
    variant: Option<String>,
}

/// Protocol methods (`__eq__`) are called implicitly; their removal is never "still used".
fn is_dunder(name: &str) -> bool {
    name.len() > 4 && name.starts_with("__") && name.ends_with("__")
}

/// Whether the change adds a member of the same name to another owner in any of its files:
/// the member moved with its class (click's `Option` renamed `_Option`, flask's `Flask.name`
/// moved to the new base class `App`), so uses through an instance (`option.takes_value`,
/// `app.name`) may well reach the new one, and which they reach is a question of types.
fn member_moved(cx: &Context<'_>, rname: &str, full: &str) -> bool {
    cx.files().iter().any(|f| {
        let Some(after) = f.after_analysis() else {
            return false;
        };
        let old: Vec<&str> = f
            .before_analysis()
            .map(|b| b.definitions.iter().map(|d| d.name.as_str()).collect())
            .unwrap_or_default();
        after.definitions.iter().any(|d| {
            d.name != full
                && split_member(&d.name).0.is_some()
                && d.simple_name() == rname
                && !old.contains(&d.name.as_str())
        })
    })
}

/// A Rust member of a trait implementation (`impl Default for Mode { fn default() }`): calls of
/// its name resolve through the trait, so which of them needed this impl is a question of
/// types G7 cannot answer (a `#[derive(Default)]` replacing it, a `Connected` impl dropped
/// while other types' `connect_info` stay).
///
/// Returns the trait (`Default`; `fmt::Display` as `Display`).
fn trait_of_impl(defs: &[Definition], text: &str, def: &Definition) -> Option<String> {
    split_member(&def.name).0?;
    defs.iter()
        .filter(|d| d.kind == DefKind::Impl)
        .filter(|d| d.start_line <= def.start_line && d.end_line >= def.end_line)
        .filter(|d| !(d.start_line == def.start_line && d.end_line == def.end_line))
        .find_map(|imp| {
            // The impl's header, up to its opening brace.
            let mut header = String::new();
            for l in text.lines().skip(imp.start_line.saturating_sub(1) as usize) {
                header.push(' ');
                header.push_str(l.split('{').next().unwrap_or(l));
                if l.contains('{') {
                    break;
                }
            }
            let words: Vec<&str> = header.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "for")?;
            let tr = words.get(at.checked_sub(1)?)?;
            let tr = tr.split('<').next().unwrap_or(tr);
            Some(tr.rsplit("::").next().unwrap_or(tr).to_string())
        })
}

/// Whether the Rust type `owner` derives `trait_` in `text` (`#[derive(Debug, Default)]` on
/// `enum Mode`): the derive replaces a hand-written implementation of that trait.
fn derives(text: &str, owner: &str, trait_: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    lines.iter().enumerate().any(|(i, l)| {
        let t = l.trim_start();
        let t = t.strip_prefix("pub ").unwrap_or(t);
        let t = t.strip_prefix("pub(crate) ").unwrap_or(t);
        let declares = ["enum ", "struct ", "union "].iter().any(|k| {
            t.strip_prefix(k).is_some_and(|rest| {
                rest.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .is_some_and(|n| n == owner)
            })
        });
        declares
            && lines[i.saturating_sub(8)..i]
                .iter()
                .any(|a| a.contains("derive(") && word_positions(a, trait_).next().is_some())
    })
}

/// Whether a Rust line defines an item named `name` (`struct name`, `fn name<T>(...)`, ...).
fn defines(line: &str, name: &str) -> bool {
    line.split_whitespace()
        .collect::<Vec<_>>()
        .windows(2)
        .any(|w| {
            matches!(
                w[0],
                "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "mod" | "union"
            ) && w[1]
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .next()
                == Some(name)
        })
}

/// A Rust item still written in the file, inside a macro call tree-sitter does not expand
/// (`define_rejection! { pub struct QueryRejection ... }` replacing the hand-written struct)
/// or inside a `macro_rules!` body the file expands (serde's `crate_root!` holding `tri!`).
/// Lines where the parser sees a definition of that name (a method `fn name(&self)`) are not
/// such a place.
fn defined_in_macro_call(after: &str, defs: &[Definition], kind: DefKind, name: &str) -> bool {
    let parsed: Vec<u32> = defs
        .iter()
        .filter(|d| d.simple_name() == name)
        .map(|d| d.start_line)
        .collect();
    let keyword = match kind {
        DefKind::Function => "fn",
        DefKind::Struct => "struct",
        DefKind::Enum => "enum",
        DefKind::Trait => "trait",
        DefKind::TypeAlias => "type",
        DefKind::Const => "const",
        DefKind::Static => "static",
        DefKind::Module => "mod",
        DefKind::Macro => "macro_rules!",
        _ => return false,
    };
    after.lines().enumerate().any(|(i, l)| {
        let t = l.trim_start();
        !t.starts_with("//")
            && !parsed.contains(&(i as u32 + 1))
            && t.split_whitespace()
                .collect::<Vec<_>>()
                .windows(2)
                .any(|w| {
                    w[0] == keyword
                        && w[1]
                            .split(|c: char| !c.is_alphanumeric() && c != '_')
                            .next()
                            == Some(name)
                })
    })
}

/// Whether a Rust item is still written inside a macro in a Rust file of the change: its own
/// file, or the one it moved to (serde moved `tri!` into `crate_root.rs`'s `macro_rules!
/// crate_root` body, expanded by both crates).
fn still_in_a_macro(cx: &Context<'_>, kind: DefKind, name: &str) -> bool {
    cx.files()
        .iter()
        .filter(|f| f.path().ends_with(".rs"))
        .any(|f| match (f.after_text(), f.after_analysis()) {
            (Some(text), Some(a)) => defined_in_macro_call(text, &a.definitions, kind, name),
            _ => false,
        })
}

fn is_test_name(name: &str) -> bool {
    name.starts_with("test_")
        || name.starts_with("Test")
        || name.starts_with("test") && name.len() > 4 && name.as_bytes()[4].is_ascii_uppercase()
}

/// Whether the change removed lines that used `r` (outside its own definition): its author
/// rewrote the callers along with it (`stripColor` dropped where its one call became
/// `stripVTControlCharacters`), so the removal is deliberate.
fn uses_removed_with_it(cx: &Context<'_>, r: &Removed<'_>) -> bool {
    cx.files().iter().any(|f| {
        let Some(before) = f.before_text() else {
            return false;
        };
        let lang = match f.kind() {
            FileKind::Code(l) => l,
            _ => return false,
        };
        let own = f.path() == r.path;
        let lines: Vec<&str> = before.lines().collect();
        f.line_changes().removed.iter().any(|(n, _)| {
            let Some(line) = lines.get(*n as usize - 1) else {
                return false;
            };
            let in_its_definition = own && (r.def.start_line..=r.def.end_line).contains(n);
            !in_its_definition
                && !is_comment_line(lang, line)
                && word_positions(line, r.rname).any(|p| !in_string(line, p))
        })
    })
}

impl SymbolPreservation {
    /// The definitions a modified file lost: not kept, not moved to another touched file, not
    /// re-bound in the file under the same name (an assignment, import or nested definition).
    fn removed_in<'a>(
        cx: &'a Context<'_>,
        file: &'a FileView<'_>,
        lang: Language,
    ) -> Vec<Removed<'a>> {
        let (Some(before), Some(after)) = (file.before_analysis(), file.after_analysis()) else {
            return Vec::new();
        };
        // A broken version is G2's finding; its definitions are unreliable.
        if !after.syntax_errors.is_empty() || !before.syntax_errors.is_empty() {
            return Vec::new();
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
        let before_text = file.before_text().unwrap_or_default();
        // Free definitions of the scope-aware languages: a namesake method or local is not the
        // definition, only a top-level binding or import is. One resolution for all names.
        let free: Vec<&str> = old
            .iter()
            .filter(|(n, d)| !new.contains_key(*n) && d.kind != DefKind::Impl)
            .map(|(n, _)| split_member(n))
            .filter(|(owner, rname)| owner.is_none() && rname.len() >= 2)
            .map(|(_, rname)| rname)
            .collect();
        let resolved = match free.is_empty() {
            true => None,
            false => file.after_source().and_then(|s| s.names_uses(&free)),
        };
        // CommonJS exports lost are judged by [`SymbolPreservation::unexported`] when the file
        // exports property by property only.
        let before_lines: Vec<&str> = before_text.lines().collect();
        let script = family(lang) == family(Language::JavaScript);
        let exports_by_property = script && !exports_otherwise(after_text);
        let es_module = script
            && before_lines
                .iter()
                .any(|l| l.starts_with("export ") || l.starts_with("import "));
        // Other Go packages name this one by its clause (`logrus.SetOutput` for the root file
        // `exported.go`, whose path has no directory to name it).
        let package = (lang == Language::Go && !free.is_empty())
            .then(|| file.before_source().and_then(|s| s.go_package()))
            .flatten();
        let mut out = Vec::new();
        for (name, def) in &old {
            let commonjs = script && is_commonjs_export(&before_lines, def);
            // A file that now exports another way (`module.exports = {..}`) and still names it
            // may export it still: that form is not read as definitions.
            let maybe_exported = commonjs
                && !exports_by_property
                && word_positions(after_text, split_member(name).1)
                    .next()
                    .is_some();
            if new.contains_key(name)
                || def.kind == DefKind::Impl
                || name.contains('\'')
                || (commonjs && exports_by_property)
                || maybe_exported
            {
                continue;
            }
            let (owner, rname) = split_member(name);
            if rname.len() < 2 {
                continue;
            }
            let scope = resolved.as_ref().and_then(|v| {
                let k = free
                    .iter()
                    .position(|n| *n == rname)
                    .filter(|_| owner.is_none())?;
                v.get(k).cloned()
            });
            let namesake_elsewhere = |member: bool| {
                cx.files().iter().any(|f| {
                    f.path() != path
                        && f.after_analysis().is_some_and(|a| {
                            a.definitions.iter().any(|d| {
                                reference_name(d) == rname
                                    && (scope.is_none() || is_member(lang, d) == member)
                            })
                        })
                })
            };
            let moved = namesake_elsewhere(false);
            let (rebound, quiet_unless_used) = match &scope {
                Some(u) => (
                    u.top_level_binding || !u.imports.is_empty(),
                    u.local_binding || namesake_elsewhere(true),
                ),
                None => (
                    after_text.lines().any(|l| {
                        binds(l, rname)
                            || (is_import_line(l) && word_positions(l, rname).next().is_some())
                    }),
                    false,
                ),
            };
            // Rust's builtins here are std's macros: a function named `format` is no macro.
            let builtin =
                is_builtin(lang, rname) && (lang != Language::Rust || def.kind == DefKind::Macro);
            if moved || (owner.is_none() && rebound) || builtin || is_dunder(rname) {
                continue;
            }
            if lang == Language::Rust && owner.is_none() && still_in_a_macro(cx, def.kind, rname) {
                continue;
            }
            let trait_name = (lang == Language::Rust)
                .then(|| trait_of_impl(&before.definitions, before_text, def))
                .flatten();
            let derived = match (&trait_name, owner) {
                (Some(t), Some(o)) => {
                    let o = o.rsplit("::").next().unwrap_or(o);
                    derives(after_text, o, t) && !derives(before_text, o, t)
                }
                _ => false,
            };
            let trait_member =
                trait_name.is_some() || (owner.is_some() && member_moved(cx, rname, &def.name));
            let fixture = lang == Language::Python
                && before_text
                    .lines()
                    .skip(def.start_line.saturating_sub(1) as usize)
                    .take_while(|l| {
                        !l.trim_start().starts_with("def ")
                            && !l.trim_start().starts_with("async def ")
                    })
                    .any(|l| l.trim_start().starts_with('@') && l.contains("fixture"));
            // One- and two-line definitions (`mod x;`, signatures) hash alike under any name.
            let renamed_to = added
                .iter()
                .filter(|_| def.end_line >= def.start_line + 2)
                .find(|d| d.body_hash == def.body_hash && d.kind == def.kind)
                .map(|d| d.name.clone());
            let mut quals = qualifiers(path, owner);
            if let Some(p) = package
                .as_ref()
                .filter(|p| owner.is_none() && !quals.contains(p))
            {
                quals.push(p.clone());
            }
            out.push(Removed {
                path,
                lang,
                def,
                rname,
                owner,
                qualifiers: quals,
                renamed_to,
                scoped: scope,
                quiet_unless_used,
                fixture,
                trait_member,
                derived,
                export_only: false,
                es_module,
                variant: None,
            });
        }
        if matches!(lang, Language::Rust | Language::TypeScript | Language::Tsx) {
            out.extend(variants::removed(
                lang,
                path,
                before_text,
                &before.definitions,
                after_text,
                &after.definitions,
            ));
        }
        if exports_by_property {
            out.extend(Self::unexported(
                path,
                lang,
                &before.definitions,
                &new,
                &before_lines,
                after_text,
            ));
        }
        out
    }

    /// The CommonJS exports (`exports.name = ...`) of a modified JS/TS file that the change
    /// deleted. Other files reach them only through the module (`require('./m').name`, a
    /// destructuring import), so only such uses count, whatever the user file binds itself
    /// (`Route = express.Route` in a test). The file may still define the name (`exports.Router
    /// = Router` dropped, `var Router = require('./router')` kept): then the removal is
    /// reported only when another file uses the export. A name whose first definition (the
    /// one [`by_name`] keeps) is not the export and which the file no longer defines is the
    /// ordinary removal's.
    fn unexported<'a>(
        path: &'a str,
        lang: Language,
        before: &'a [Definition],
        new: &BTreeMap<&str, &Definition>,
        before_lines: &[&str],
        after_text: &str,
    ) -> Vec<Removed<'a>> {
        let kept = commonjs_exports(after_text);
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for line in before_lines {
            for name in commonjs_exports(line) {
                let Some(first) = before.iter().find(|d| d.name == name) else {
                    continue;
                };
                let still_defined = new.contains_key(name);
                let ordinary = !is_commonjs_export(before_lines, first) && !still_defined;
                if kept.contains(name) || name.len() < 2 || ordinary || !seen.insert(name) {
                    continue;
                }
                let def = before
                    .iter()
                    .find(|d| d.name == name && is_commonjs_export(before_lines, d))
                    .unwrap_or(first);
                out.push(Removed {
                    path,
                    lang,
                    def,
                    rname: &def.name,
                    owner: None,
                    qualifiers: qualifiers(path, None),
                    renamed_to: None,
                    scoped: None,
                    quiet_unless_used: still_defined,
                    fixture: false,
                    trait_member: false,
                    derived: false,
                    export_only: true,
                    es_module: false,
                    variant: None,
                });
            }
        }
        out
    }

    fn report(cx: &Context<'_>, r: &Removed<'_>, uses: Option<Vec<Use>>, out: &mut Vec<Finding>) {
        let (name, path, def) = (&r.def.name, r.path, r.def);
        let kind = format!("{:?}", def.kind).to_lowercase();
        let what = (r.variant.as_ref()).map_or_else(|| kind.clone(), |v| format!("{v} {kind}"));
        let uses = uses.unwrap_or_default();
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
            let what = match &r.renamed_to {
                Some(n) => format!(
                    "{what} `{name}` was renamed to `{n}` but is still used at {where_}{more}"
                ),
                None => format!("{what} `{name}` was removed but is still used at {where_}{more}"),
            };
            out.push(
                Finding::new(&INFO, Severity::Block, what)
                    .at(path, Some(def.start_line), None)
                    .feedback(format!(
                        "You removed `{name}` from `{path}`, but it is still used at {where_}{more}. Keep `{name}` exactly as it was (copy it back verbatim); change only what the task asks."
                    ))
                    .data(serde_json::json!({
                        "symbol": name, "kind": kind, "renamed_to": r.renamed_to,
                        "used_at": uses.iter().map(|u| format!("{}:{}", u.path, u.line)).collect::<Vec<_>>(),
                    })),
            );
            return;
        }
        if let Some(n) = &r.renamed_to {
            out.push(
                Finding::new(&INFO, Severity::Warn, format!("{what} `{name}` renamed to `{n}` (same body)"))
                    .at(path, Some(def.start_line), None)
                    .feedback(format!("`{name}` in `{path}` was renamed to `{n}`; make sure the task asked for the rename."))
                    .data(serde_json::json!({"symbol": name, "kind": kind, "renamed_to": n})),
            );
            return;
        }
        // A commit message that says it removes, moves or rewrites code announces this; so
        // does a commit that removed the definition's uses along with it: nothing uses it
        // after the change, and the commit's author is the one who stopped using it.
        let announced = |t: &slopguard_change::Task| {
            t.from_commit_message
                && (t.announces(&[], crate::intent::RESTRUCTURE_WORDS)
                    || uses_removed_with_it(cx, r))
        };
        if cx
            .task()
            .is_some_and(|t| t.mentions(name) || t.mentions(r.rname) || announced(t))
            || is_test_name(r.rname)
            || r.quiet_unless_used
            || r.derived
        {
            return;
        }
        out.push(
            Finding::new(&INFO, cx.intent_severity(), format!("{what} `{name}` was removed"))
                .at(path, Some(def.start_line), None)
                .feedback(format!(
                    "Your change deleted `{name}` from `{path}`. Do not delete definitions the task did not ask you to remove: send the whole file with `{name}` preserved verbatim. A comment saying it \"remains unchanged\" does not keep it."
                ))
                .data(serde_json::json!({"symbol": name, "kind": kind})),
        );
    }
}

impl Guard for SymbolPreservation {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        let mut removed = Vec::new();
        for file in cx.files() {
            if let (true, FileKind::Code(lang)) = (file.is_modify(), file.kind()) {
                removed.extend(Self::removed_in(cx, file, lang));
            }
        }
        if removed.is_empty() {
            return;
        }
        let uses = find_uses(cx, &removed);
        for (r, u) in removed.iter().zip(uses) {
            let u = if r.trait_member { None } else { u };
            Self::report(cx, r, u, out);
        }
    }
}

#[cfg(test)]
mod tests;
