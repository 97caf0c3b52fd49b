//! The result of running the guard stack on one change.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::{Finding, Severity};

/// The overall verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// No findings.
    Pass,
    /// Only warnings.
    Warn,
    /// At least one blocking finding.
    Block,
}

/// What one guard concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GuardStatus {
    Passed,
    Warned,
    Blocked,
    /// Switched off by configuration.
    Disabled,
}

/// One guard's line in the report.
#[derive(Debug, Clone, Serialize)]
pub struct GuardOutcome {
    pub guard: &'static str,
    pub code: Option<&'static str>,
    pub status: GuardStatus,
    /// Microseconds spent in the guard.
    pub micros: u64,
}

/// The report of one check. Its JSON form is slopguard's stable output schema (see
/// `docs/output.md`).
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Schema version of this JSON document.
    pub schema_version: u32,
    pub verdict: Verdict,
    /// Where the change came from.
    pub source: String,
    /// Paths touched by the change.
    pub files: Vec<String>,
    pub findings: Vec<Finding>,
    pub guards: Vec<GuardOutcome>,
    /// Numeric scores some guards compute (e.g. `psi`).
    pub metrics: BTreeMap<String, f64>,
    /// Milliseconds spent running guards.
    pub elapsed_ms: f64,
}

impl Report {
    /// Whether any finding blocks.
    pub fn blocked(&self) -> bool {
        self.verdict == Verdict::Block
    }

    /// The blocking findings.
    pub fn blocking(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Block)
    }

    /// The findings rendered as feedback for a model's retry: one bullet per blocking finding
    /// (warnings appended when there are any), each with its location and guard.
    pub fn feedback(&self) -> String {
        let mut out = String::new();
        let mut any = false;
        for sev in [Severity::Block, Severity::Warn] {
            for f in self.findings.iter().filter(|f| f.severity == sev) {
                any = true;
                let loc = f.location();
                let guard = f
                    .code
                    .map(|c| format!("{c} {}", f.guard))
                    .unwrap_or(f.guard.to_string());
                let prefix = if sev == Severity::Warn {
                    "(warning) "
                } else {
                    ""
                };
                if loc.is_empty() {
                    out.push_str(&format!("- {prefix}[{guard}] {}\n", f.feedback));
                } else {
                    out.push_str(&format!("- {prefix}[{guard}] {loc}: {}\n", f.feedback));
                }
            }
        }
        if !any {
            out.push_str("- no findings\n");
        }
        out
    }
}
