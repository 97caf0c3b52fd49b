//! phantom-import: new imports must resolve to the standard library, a declared dependency or
//! a local module.

use slopguard_grounding::phantom;
use slopguard_lang::FileKind;

use super::content_grounding::{AfterTree, fingerprint};
use crate::{Context, Finding, Guard, GuardInfo, Severity};

/// The phantom-import guard.
pub struct PhantomImport;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "phantom-import",
    code: None,
    summary: "new imports (Python, JS/TS, Rust, Go) of packages that are not declared, not standard library and not local modules",
    doc: include_str!("../../docs/phantom-import.md"),
    default_enabled: true,
    failure_mode: "phantom_import",
    trace_event: "critic_phantom_import.fail",
};

fn manifest_for(eco: &str) -> &'static str {
    match eco {
        "python" => "pyproject.toml / requirements.txt",
        "npm" => "package.json",
        "rust" => "Cargo.toml",
        _ => "go.mod",
    }
}

impl Guard for PhantomImport {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        let mut fp = None;
        let tree = AfterTree(cx);
        for file in cx.files() {
            let FileKind::Code(lang) = file.kind() else {
                continue;
            };
            let Some(after) = file.after_analysis() else {
                continue;
            };
            if after.imports.is_empty() {
                continue;
            }
            let before = file
                .before_analysis()
                .map(|a| a.imports.as_slice())
                .unwrap_or_default();
            let added = phantom::added_imports(before, &after.imports);
            if added.is_empty() {
                continue;
            }
            if fp.is_none() {
                fp = fingerprint(cx);
            }
            let Some(fp) = fp.as_ref() else { return };
            let text = file.after_text().unwrap_or_default();
            for p in phantom::check(file.path(), lang, &added, text, fp, &tree) {
                let manifest = manifest_for(p.ecosystem);
                out.push(
                    Finding::new(
                        &INFO,
                        Severity::Block,
                        format!("imports `{}`, but `{}` is not declared in {manifest}, not in the standard library and not a local module", p.module, p.package),
                    )
                    .at(file.path(), Some(p.line), None)
                    .feedback(format!(
                        "{} line {}: `{}` needs the package `{}`, which this project does not depend on. Use the \
                         standard library or a dependency the project already declares ({manifest}), or an existing \
                         module of the repository; do not add dependencies unless the task asks for it.",
                        file.path(),
                        p.line,
                        p.module,
                        p.package
                    ))
                    .data(serde_json::to_value(&p).unwrap_or_default()),
                );
            }
        }
    }
}
