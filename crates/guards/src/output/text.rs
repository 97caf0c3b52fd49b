//! Compact human output: `path:line:col: severity[guard]: message`, coloured on a terminal.

use owo_colors::OwoColorize;

use crate::{Report, Severity, Verdict};

/// Renders the report as text; `color` adds ANSI colours.
pub fn render_text(report: &Report, color: bool) -> String {
    let mut out = String::new();
    for f in &report.findings {
        let loc = f.location();
        let loc = if loc.is_empty() { "-".to_string() } else { loc };
        let guard = match f.code {
            Some(c) => format!("{c} {}", f.guard),
            None => f.guard.to_string(),
        };
        let sev = f.severity.as_str();
        if color {
            let sev = match f.severity {
                Severity::Block => sev.red().bold().to_string(),
                Severity::Warn => sev.yellow().bold().to_string(),
            };
            out.push_str(&format!(
                "{}: {sev}[{}]: {}\n",
                loc.bold(),
                guard.cyan(),
                f.message
            ));
        } else {
            out.push_str(&format!("{loc}: {sev}[{guard}]: {}\n", f.message));
        }
    }
    let blocks = report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Block)
        .count();
    let warns = report.findings.len() - blocks;
    let run = report
        .guards
        .iter()
        .filter(|g| g.status != crate::GuardStatus::Disabled)
        .count();
    let verdict = match report.verdict {
        Verdict::Pass => "pass",
        Verdict::Warn => "pass (with warnings)",
        Verdict::Block => "BLOCKED",
    };
    let summary = format!(
        "{verdict}: {} file(s), {run} guards, {blocks} blocking, {warns} warning(s) [{}] in {:.1} ms",
        report.files.len(),
        report.source,
        report.elapsed_ms
    );
    if color {
        let s = match report.verdict {
            Verdict::Block => summary.red().bold().to_string(),
            Verdict::Warn => summary.yellow().to_string(),
            Verdict::Pass => summary.green().to_string(),
        };
        out.push_str(&s);
    } else {
        out.push_str(&summary);
    }
    out.push('\n');
    out
}
