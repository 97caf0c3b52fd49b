//! Names defined more than once in a file, one definition of them lost while the others keep
//! the name defined, so that the guard's name-keyed comparison sees nothing removed:
//!
//! - Rust definitions under `#[cfg(..)]`: `walkdir`'s `util::device_num` is three functions,
//!   `#[cfg(unix)]`, `#[cfg(windows)]` and `#[cfg(not(any(unix, windows)))]`; deleting the unix
//!   one breaks every unix build of the callers. A variant is lost when the file keeps fewer
//!   definitions of that name and kind than it had, none of them unconditional, and none under
//!   the lost one's `#[cfg]` predicate. Twins merged into one unconditional definition
//!   (`cfg!()` inside its body) are not a loss.
//! - TypeScript overloads: `ufo`'s `hasProtocol` is two signatures (`function f(..): T;`, no
//!   body) and one implementation; deleting the implementation leaves signatures that tsc
//!   rejects. It is lost when the file still has signatures of the name and no implementation.

use slopguard_lang::{Body, DefKind, Definition, Language};

use super::{Removed, qualifiers, split_member};

/// The `#[cfg(..)]` predicates written above the definition starting at `start_line`
/// (1-based) of `lines`, whitespace removed and joined by `&`; `None` when it has none. The
/// attributes are the non-blank lines right above it that do not end the previous item, and
/// its own first line (`#[cfg(unix)] fn f() {`).
fn cfg_predicate(lines: &[&str], start_line: u32) -> Option<String> {
    let first = start_line.saturating_sub(1) as usize;
    let mut top = first;
    while top > 0 {
        let line = lines[top - 1].trim();
        if line.is_empty() || line.ends_with(['}', ';', '{']) {
            break;
        }
        top -= 1;
    }
    let head: String = lines
        .get(top..=first)?
        .iter()
        .flat_map(|l| l.chars())
        .filter(|c| !c.is_whitespace())
        .collect();
    let mut predicates = Vec::new();
    let mut rest = head.as_str();
    while let Some(at) = rest.find("#[cfg(") {
        let inner = &rest[at + "#[cfg(".len()..];
        let mut depth = 1;
        let end = inner.char_indices().find_map(|(i, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(i)
        })?;
        predicates.push(&inner[..end]);
        rest = &inner[end..];
    }
    (!predicates.is_empty()).then(|| predicates.join("&"))
}

/// The definitions of a modified Rust or TypeScript file lost while the file still defines
/// their name (see the module's doc), as removals whose uses are looked for by name: the
/// definitions left do not stand in for the lost one, so no scope resolution or rebinding in
/// the file excuses the loss.
pub(super) fn removed<'a>(
    lang: Language,
    path: &'a str,
    before_text: &str,
    before: &'a [Definition],
    after_text: &str,
    after: &[Definition],
) -> Vec<Removed<'a>> {
    let lost: Vec<(&Definition, String)> = match lang {
        Language::Rust => dropped(before_text, before, after_text, after)
            .into_iter()
            .map(|(def, predicate)| (def, format!("`#[cfg({predicate})]`")))
            .collect(),
        _ => implementations_dropped(before, after)
            .into_iter()
            .map(|def| (def, "the implementation of the overloaded".to_owned()))
            .collect(),
    };
    lost.into_iter()
        .map(|(def, variant)| {
            let (owner, rname) = split_member(&def.name);
            Removed {
                path,
                lang,
                def,
                rname,
                owner,
                qualifiers: qualifiers(path, owner),
                renamed_to: None,
                scoped: None,
                quiet_unless_used: false,
                fixture: false,
                trait_member: false,
                derived: false,
                export_only: false,
                es_module: false,
                variant: Some(variant),
            }
        })
        .collect()
}

/// The implementations (functions with a body) of `before` whose name the file still declares
/// by bodiless signatures only (TypeScript overloads).
fn implementations_dropped<'d>(
    before: &'d [Definition],
    after: &[Definition],
) -> Vec<&'d Definition> {
    let has_body = |d: &Definition| d.body != Body::Unknown;
    before
        .iter()
        .filter(|d| d.kind == DefKind::Function && has_body(d))
        .filter(|d| {
            let same = |o: &&Definition| o.name == d.name && o.kind == d.kind;
            let signed_before = before.iter().filter(same).any(|o| !has_body(o));
            let mut left = after.iter().filter(same).peekable();
            signed_before && left.peek().is_some() && !left.any(has_body)
        })
        .collect()
}

/// The definitions of `before` whose `#[cfg]` variant the change dropped while the file still
/// defines their name (see the module's doc), with their predicates. Impl blocks are left out: they share their
/// type's name without being variants of each other.
fn dropped<'d>(
    before_text: &str,
    before: &'d [Definition],
    after_text: &str,
    after: &[Definition],
) -> Vec<(&'d Definition, String)> {
    let before_lines: Vec<&str> = before_text.lines().collect();
    let after_lines: Vec<&str> = after_text.lines().collect();
    let mut out = Vec::new();
    let mut seen: Vec<(&str, DefKind)> = Vec::new();
    for def in before.iter().filter(|d| d.kind != DefKind::Impl) {
        let key = (def.name.as_str(), def.kind);
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let same = |d: &&Definition| d.name == def.name && d.kind == def.kind;
        let old: Vec<&Definition> = before.iter().filter(same).collect();
        let new: Vec<&Definition> = after.iter().filter(same).collect();
        // A name the file no longer defines at all is the ordinary removal's.
        if old.len() < 2 || new.is_empty() || new.len() >= old.len() {
            continue;
        }
        let mut kept: Vec<Option<String>> = new
            .iter()
            .map(|d| cfg_predicate(&after_lines, d.start_line))
            .collect();
        if kept.iter().any(Option::is_none) {
            continue;
        }
        for d in old {
            let Some(predicate) = cfg_predicate(&before_lines, d.start_line) else {
                continue;
            };
            match kept
                .iter()
                .position(|k| k.as_deref() == Some(predicate.as_str()))
            {
                Some(i) => {
                    kept.swap_remove(i);
                }
                None => out.push((d, predicate)),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_lang::analyze;

    /// walkdir 2.5.0 `src/util.rs`, the before version of the fixture.
    const UTIL: &str = include_str!(
        "../../../tests/fixtures/symbol-preservation/fail_rust_cfg_variant_dropped_still_used/before/src/util.rs"
    );

    /// The definitions `dropped` reports for `after`, as (name, first line).
    fn lost(after: &str) -> Vec<(String, u32)> {
        let b = analyze(Language::Rust, UTIL);
        let a = analyze(Language::Rust, after);
        dropped(UTIL, &b.definitions, after, &a.definitions)
            .into_iter()
            .map(|(d, _)| (d.name.clone(), d.start_line))
            .collect()
    }

    /// `UTIL` without the definition starting at the `#[cfg(` line holding `marker`.
    fn without(marker: &str) -> String {
        let start = UTIL.find(marker).expect("marker");
        let end = UTIL[start..].find("}\n").expect("end") + start + 2;
        format!("{}{}", &UTIL[..start], &UTIL[end..])
    }

    #[test]
    fn predicates_read_above_and_on_the_first_line() {
        let lines: Vec<&str> = UTIL.lines().collect();
        assert_eq!(cfg_predicate(&lines, 5).as_deref(), Some("unix"));
        assert_eq!(
            cfg_predicate(&lines, 20).as_deref(),
            Some("not(any(unix,windows))")
        );
        assert_eq!(cfg_predicate(&lines, 1), None);
        let split = [
            "}",
            "#[cfg(any(",
            "    unix,",
            "    windows",
            "))]",
            "#[inline]",
            "fn f() {",
        ];
        assert_eq!(
            cfg_predicate(&split, 7).as_deref(),
            Some("any(unix,windows)")
        );
        assert_eq!(
            cfg_predicate(&["#[cfg(test)] fn g() {}"], 1).as_deref(),
            Some("test")
        );
    }

    #[test]
    fn a_deleted_variant_is_lost() {
        assert_eq!(
            lost(&without("#[cfg(unix)]")),
            [("device_num".to_owned(), 5)]
        );
        assert_eq!(
            lost(&without("#[cfg(not(any(unix, windows)))]")),
            [("device_num".to_owned(), 20)]
        );
    }

    /// unjs/ufo's `hasProtocol`: two overload signatures and the implementation.
    const OVERLOADS: &str = include_str!(
        "../../../tests/fixtures/symbol-preservation/fail_ts_overload_implementation_dropped_still_used/before/src/utils.ts"
    );

    /// The overloaded functions `implementations_dropped` reports for `after`, as their lines.
    fn implementations_lost(after: &str) -> Vec<u32> {
        let b = analyze(Language::TypeScript, OVERLOADS);
        let a = analyze(Language::TypeScript, after);
        assert!(a.syntax_errors.is_empty(), "{:?}", a.syntax_errors);
        implementations_dropped(&b.definitions, &a.definitions)
            .into_iter()
            .map(|d| d.start_line)
            .collect()
    }

    #[test]
    fn an_overload_set_loses_its_implementation_not_a_signature() {
        let start = OVERLOADS
            .find("/**\n * Checks if the input has a protocol.")
            .expect("doc");
        let end = OVERLOADS[start..].find("\n}\n").expect("end") + start + 3;
        let without_body = format!("{}{}", &OVERLOADS[..start], &OVERLOADS[end..]);
        assert_eq!(implementations_lost(&without_body), [72]);
        let first = OVERLOADS
            .find("export function hasProtocol(")
            .expect("signature");
        let semi = OVERLOADS[first..].find(";\n").expect("end") + first + 2;
        let one_signature_less = format!("{}{}", &OVERLOADS[..first], &OVERLOADS[semi..]);
        assert!(implementations_lost(&one_signature_less).is_empty());
        assert!(implementations_lost(OVERLOADS).is_empty());
    }

    #[test]
    fn kept_edited_or_merged_variants_are_not_lost() {
        assert_eq!(lost(UTIL), []);
        let edited = UTIL.replace("md.dev()", "md.dev() as u64");
        assert_eq!(lost(&edited), []);
        let recfg = UTIL.replace("#[cfg(unix)]", "#[cfg(any(unix, target_os = \"wasi\"))]");
        assert_eq!(lost(&recfg), []);
        let merged = "use std::io;\nuse std::path::Path;\n\npub fn device_num<P: AsRef<Path>>(path: P) -> io::Result<u64> {\n    if cfg!(unix) { unix_dev(path) } else { Ok(0) }\n}\n";
        assert_eq!(lost(merged), []);
    }
}
