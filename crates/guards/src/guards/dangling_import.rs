//! dangling-import: a change must not delete (or move away) a module that files it leaves in
//! place still import.

use std::collections::BTreeSet;

use slopguard_lang::{FileKind, Import, Language};

use crate::{Context, Finding, Guard, GuardInfo, Severity};

/// The dangling-import guard.
pub struct DanglingImport;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "dangling-import",
    code: None,
    summary: "deleted or moved Python / JS / TS modules that remaining files still import",
    doc: include_str!("../../docs/dangling-import.md"),
    default_enabled: true,
    failure_mode: "ast_diff",
    trace_event: "critic_dangling_import.fail",
};

/// Module resolution differs per language; these two families resolve imports to files.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    Python,
    Script,
}

fn family(lang: Language) -> Option<Family> {
    match lang {
        Language::Python => Some(Family::Python),
        Language::JavaScript | Language::TypeScript | Language::Tsx => Some(Family::Script),
        _ => None,
    }
}

/// Extensions a relative JS/TS specifier may leave out, in resolution order.
const SCRIPT_EXTENSIONS: &[&str] = &[
    ".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts",
];

/// A file the change removes from where it was: deleted, or the old path of a rename.
struct Gone<'a> {
    path: &'a str,
    family: Family,
    /// Where a rename moved it.
    moved_to: Option<&'a str>,
}

/// The word an importer of `path` has to contain: the module's name, or its directory's name
/// for a package file (`pkg/__init__.py`, `lib/index.ts`).
fn module_word(path: &str) -> &str {
    let mut parts = path.rsplit('/');
    let file = parts.next().unwrap_or(path);
    let stem = file.split('.').next().unwrap_or(file);
    if stem == "__init__" || stem == "index" {
        parts.next().unwrap_or(stem)
    } else {
        stem
    }
}

fn parent(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

fn join(dir: &str, rest: &str) -> String {
    if dir.is_empty() {
        rest.to_string()
    } else {
        format!("{dir}/{rest}")
    }
}

/// The files a JS/TS import of `module` written in `importer` may refer to, in resolution
/// order; empty for a bare specifier (a package). Shared with symbol-preservation, which
/// needs to know whether an import names the file a definition was dropped from.
pub(crate) fn script_import_targets(importer: &str, module: &str) -> Vec<String> {
    candidates(importer, Family::Script, module)
}

/// The files an import may refer to, in resolution order. Empty for imports that cannot be
/// a repository file (packages, the standard library, bare JS specifiers).
fn candidates(importer: &str, family: Family, module: &str) -> Vec<String> {
    match family {
        Family::Script => {
            if !module.starts_with("./") && !module.starts_with("../") {
                return Vec::new();
            }
            let Some(base) = slopguard_lang::paths::normalize(&join(parent(importer), module))
            else {
                return Vec::new();
            };
            let mut out = vec![base.clone()];
            // TypeScript's ESM style names the emitted `.js` file for a `.ts` source.
            if let Some(stem) = base.strip_suffix(".js") {
                out.extend([format!("{stem}.ts"), format!("{stem}.tsx")]);
            }
            out.extend(SCRIPT_EXTENSIONS.iter().map(|e| format!("{base}{e}")));
            out.extend(SCRIPT_EXTENSIONS.iter().map(|e| format!("{base}/index{e}")));
            out
        }
        Family::Python => {
            let dots = module.chars().take_while(|c| *c == '.').count();
            let rest = module[dots..].replace('.', "/");
            let bases: Vec<String> = if dots > 0 {
                let mut dir = parent(importer);
                for _ in 1..dots {
                    dir = parent(dir);
                }
                if rest.is_empty() {
                    return Vec::new();
                }
                vec![join(dir, &rest)]
            } else {
                // The repository root, a src layout, and the importer's own directory (scripts
                // run from where they are).
                let mut roots = vec!["", "src", parent(importer)];
                roots.dedup();
                roots.into_iter().map(|r| join(r, &rest)).collect()
            };
            bases
                .into_iter()
                .flat_map(|b| [format!("{b}.py"), format!("{b}/__init__.py")])
                .collect()
        }
    }
}

impl Guard for DanglingImport {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        let gone: Vec<Gone<'_>> = cx
            .files()
            .iter()
            .filter_map(|f| {
                let FileKind::Code(lang) = f.kind() else {
                    return None;
                };
                let family = family(lang)?;
                let c = f.change();
                let old = c.old_path();
                let removed = c.after.is_none() || old != c.path;
                removed.then_some(Gone {
                    path: old,
                    family,
                    moved_to: (c.after.is_some()).then_some(c.path.as_str()),
                })
            })
            .collect();
        if gone.is_empty() {
            return;
        }
        let gone_paths: BTreeSet<&str> = gone.iter().map(|g| g.path).collect();
        // Importers mention the module's name: one grep of the base tree, plus the change's own
        // files (they may be the importers, edited or not).
        let words: Vec<String> = gone
            .iter()
            .map(|g| module_word(g.path).to_string())
            .collect();
        for path in cx.files_mentioning(&words) {
            if gone_paths.contains(path.as_str()) || cx.config().excluded(&path) {
                continue;
            }
            let view = cx.file(&path);
            let owned;
            let (kind, imports): (FileKind, &[Import]) = match view {
                Some(v) => match v.after_analysis() {
                    Some(a) => (v.kind(), &a.imports),
                    None => continue,
                },
                None => {
                    let Some(bytes) = cx.read_after(&path) else {
                        continue;
                    };
                    let kind = slopguard_lang::detect(&path, &bytes[..bytes.len().min(256)]);
                    let (FileKind::Code(lang), Some(text)) =
                        (kind, crate::context::decode_text(&bytes))
                    else {
                        continue;
                    };
                    if family(lang).is_none() {
                        continue;
                    }
                    owned = cx.source(lang, text);
                    (kind, &owned.analysis().imports)
                }
            };
            let FileKind::Code(lang) = kind else {
                continue;
            };
            let Some(fam) = family(lang) else {
                continue;
            };
            for imp in imports {
                let cands = candidates(&path, fam, imp.module.trim());
                // The file the import resolved to before the change.
                let Some(target) = cands.iter().find(|c| cx.base().exists(c)) else {
                    continue;
                };
                let Some(g) = gone.iter().find(|g| g.path == target && g.family == fam) else {
                    continue;
                };
                if cands.iter().any(|c| cx.exists_after(c)) {
                    continue;
                }
                let what = match g.moved_to {
                    Some(to) => format!("moves `{}` to `{to}`", g.path),
                    None => format!("deletes `{}`", g.path),
                };
                out.push(
                    Finding::new(
                        &INFO,
                        Severity::Block,
                        format!(
                            "`{path}` imports `{}` (line {}), but this change {what}",
                            imp.module, imp.line
                        ),
                    )
                    .at(&path, Some(imp.line), None)
                    .feedback(format!(
                        "{path} line {} imports `{}`, which was the file `{}`; your change {what}, \
                         so that import no longer resolves. Keep the module, or update every file \
                         that imports it in the same change.",
                        imp.line, imp.module, g.path
                    ))
                    .data(serde_json::json!({
                        "importer": path,
                        "module": imp.module,
                        "removed": g.path,
                        "moved_to": g.moved_to,
                    })),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_candidates_resolve_relative_specifiers() {
        let c = candidates("src/app/main.ts", Family::Script, "../lib/util");
        assert_eq!(c[0], "src/lib/util");
        assert!(c.contains(&"src/lib/util.ts".to_string()));
        assert!(c.contains(&"src/lib/util/index.js".to_string()));
        let esm = candidates("src/main.ts", Family::Script, "./util.js");
        assert!(esm.contains(&"src/util.ts".to_string()));
        assert!(candidates("src/main.ts", Family::Script, "react").is_empty());
        assert!(candidates("main.ts", Family::Script, "../../x").is_empty());
    }

    #[test]
    fn python_candidates_cover_roots_and_relative_imports() {
        let c = candidates("app/cli.py", Family::Python, "app.util");
        for want in [
            "app/util.py",
            "app/util/__init__.py",
            "src/app/util.py",
            "app/app/util.py",
        ] {
            assert!(c.contains(&want.to_string()), "{want} in {c:?}");
        }
        assert_eq!(
            candidates("pkg/sub/mod.py", Family::Python, "..helpers"),
            ["pkg/helpers.py", "pkg/helpers/__init__.py"]
        );
        assert!(candidates("pkg/mod.py", Family::Python, ".").is_empty());
    }

    #[test]
    fn module_words() {
        assert_eq!(module_word("app/util.py"), "util");
        assert_eq!(module_word("app/__init__.py"), "app");
        assert_eq!(module_word("src/lib/index.ts"), "lib");
        assert_eq!(module_word("types.d.ts"), "types");
    }
}
