//! Report rendering: compact text for terminals, JSON (stable schema) and SARIF 2.1.0.

mod sarif;
mod text;

pub use sarif::to_sarif;
pub use text::render_text;

/// Output format names accepted by `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Sarif,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "text" => Ok(Format::Text),
            "json" => Ok(Format::Json),
            "sarif" => Ok(Format::Sarif),
            other => Err(format!(
                "unknown format `{other}` (expected text, json or sarif)"
            )),
        }
    }
}

/// The report as pretty JSON (the stable schema of `docs/output.md`).
pub fn to_json(report: &crate::Report) -> String {
    serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}
