//! G12 config-grounding: JS/TS tool configs referencing npm packages nobody declared.

use slopguard_grounding::config_refs;

use super::content_grounding::fingerprint;
use crate::{Context, Finding, Guard, GuardInfo, Severity};

/// The config-grounding guard.
pub struct ConfigGrounding;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "config-grounding",
    code: Some("G12"),
    summary: "JS/TS tool configs (prettier, eslint, vite, tailwind, babel, ...) that reference npm packages package.json does not declare",
    doc: include_str!("../../docs/config-grounding.md"),
    default_enabled: true,
    failure_mode: "grounding",
    trace_event: "critic_config_grounding.fail",
};

impl Guard for ConfigGrounding {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        let configs: Vec<_> = cx
            .files()
            .iter()
            .filter(|f| f.after_text().is_some() && config_refs::is_config_file(f.path()))
            .collect();
        if configs.is_empty() {
            return;
        }
        let Some(fp) = fingerprint(cx) else { return };
        for file in configs {
            let Some(after) = file.after_text() else {
                continue;
            };
            for miss in config_refs::check(file.path(), file.before_text(), after, &fp) {
                let r = &miss.reference;
                let declared: Vec<&str> =
                    fp.deps("npm").iter().map(String::as_str).take(15).collect();
                out.push(
                    Finding::new(
                        &INFO,
                        Severity::Block,
                        format!("references npm package `{}` ({} '{}') that package.json does not declare", r.package, r.via, r.raw),
                    )
                    .at(file.path(), Some(r.line), None)
                    .feedback(format!(
                        "{} line {}: `{}` is not a dependency of this project, so the tool will fail to load it. \
                         Declared npm packages: {}. Use only declared packages, or leave the option out; do not \
                         edit package.json unless the task asks for a new dependency.",
                        file.path(),
                        r.line,
                        r.package,
                        if declared.is_empty() { "none".to_string() } else { declared.join(", ") }
                    ))
                    .data(serde_json::json!({"package": r.package, "via": r.via, "expected_one_of": miss.expected_one_of})),
                );
            }
        }
    }
}
