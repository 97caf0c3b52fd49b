//! Psi-lite: Psi = alpha * Gamma - lambda * Omega per touched file, min over files.
//!
//! The score is computed only when asked for: the gate is on (`[guards.psi-lite] enabled =
//! true`, as the seeds' gate is off by default) or `report = true` records it as the `psi`
//! metric without gating. Scoring reads every touched doc whole (framework mentions, Markdown
//! blocks), which cost more than any other guard on doc-heavy commits while nothing used it.

use serde::Deserialize;

use slopguard_grounding::psi::{self, PsiInput, PsiParams};

use super::content_grounding::fingerprint;
use crate::{Context, Finding, Guard, GuardInfo, Severity};

/// The Psi-lite guard.
pub struct PsiLite;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "psi-lite",
    code: Some("Psi"),
    summary: "Psi-lite score (grounding minus slop, worst file); idle unless [guards.psi-lite] sets enabled = true (gate) or report = true (the `psi` metric only)",
    doc: include_str!("../../docs/psi-lite.md"),
    default_enabled: true,
    failure_mode: "grounding",
    trace_event: "critic_psi_lite.fail",
};

/// `[guards.psi-lite] report`: record the score without the gate.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ReportSetting {
    report: bool,
}

impl Guard for PsiLite {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        let gate = cx.config().common(INFO.slug).enabled == Some(true);
        if !gate && !cx.settings::<ReportSetting>(INFO.slug).report {
            return;
        }
        let params: PsiParams = cx.settings(INFO.slug);
        let inputs: Vec<PsiInput<'_>> = cx
            .files()
            .iter()
            .map(|f| PsiInput {
                path: f.path(),
                before: f.before_text(),
                after: f.after_text(),
            })
            .collect();
        if inputs.iter().all(|i| i.after.is_none()) {
            return;
        }
        let needs_fp = inputs.iter().any(|i| {
            slopguard_grounding::markdown::is_doc_path(i.path)
                || slopguard_grounding::config_refs::is_config_file(i.path)
        });
        let fp = if needs_fp { fingerprint(cx) } else { None };
        let report = psi::score(&inputs, fp.as_ref(), params);
        cx.record_metric("psi", report.psi);
        if !gate || !report.below_threshold {
            return;
        }
        let worst = report.worst_file.clone().unwrap_or_default();
        let w = report.files.iter().find(|f| f.path == worst);
        let detail = w
            .map(|w| {
                format!(
                    "Gamma={:.3} ({} of {} evidence tokens grounded), Omega={:.3} {:?}",
                    w.gamma, w.grounded, w.tokens, w.omega, w.omega_parts
                )
            })
            .unwrap_or_default();
        out.push(
            Finding::new(
                &INFO,
                Severity::Block,
                format!("Psi-lite {:.3} is below the threshold {:.2} (worst file {worst})", report.psi, params.threshold),
            )
            .at(worst.clone(), None, None)
            .feedback(format!(
                "{worst}: the change scores low on grounding and high on slop ({detail}). Remove claims about tools the \
                 project does not use, keep code blocks intact with real newlines, drop stray blank lines and trailing \
                 whitespace, and never wrap source files in Markdown fences."
            ))
            .data(serde_json::to_value(&report).unwrap_or_default()),
        );
    }
}
