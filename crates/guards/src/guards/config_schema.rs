//! G10 config-schema: configs that parse but violate their tool's schema.

use slopguard_grounding::schema;

use crate::{Context, Finding, Guard, GuardInfo, Severity};

/// The config-schema guard.
pub struct ConfigSchema;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "config-schema",
    code: Some("G10"),
    summary: "configs that parse but break their tool's schema: GitHub workflows/actions/dependabot, package.json, tsconfig, eslintrc, prettierrc, pyproject, Cargo.toml",
    doc: include_str!("../../docs/config-schema.md"),
    default_enabled: true,
    failure_mode: "schema_invalid",
    trace_event: "critic_schema_check.fail",
};

/// Most findings reported per file.
const MAX_PER_FILE: usize = 5;

impl Guard for ConfigSchema {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        for file in cx.files() {
            let path = file.path();
            let Some(kind) = schema::config_kind(path) else {
                continue;
            };
            let Some(after) = file.after_text() else {
                continue;
            };
            let violations = schema::check(path, file.before_text(), after);
            let total = violations.len();
            for v in violations.into_iter().take(MAX_PER_FILE) {
                let at = if v.pointer.is_empty() {
                    String::new()
                } else {
                    format!(" at `{}`", v.pointer)
                };
                out.push(
                    Finding::new(&INFO, Severity::Block, format!("{kind:?} schema violation{at}: {}", v.message))
                        .at(path, v.line, None)
                        .feedback(format!(
                            "{path}{}: the file parses but its tool will reject it{at}: {}. Fix the value so it \
                             matches what the tool expects (see its documentation); do not invent keys or options.{}",
                            v.line.map(|l| format!(" line {l}")).unwrap_or_default(),
                            v.message,
                            if total > MAX_PER_FILE { format!(" ({total} violations in total.)") } else { String::new() }
                        ))
                        .data(serde_json::json!({"pointer": v.pointer, "source": v.source, "kind": kind})),
                );
            }
        }
    }
}
