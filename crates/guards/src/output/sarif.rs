//! SARIF 2.1.0 output through the typed `serde-sarif` model: one rule per guard (the whole
//! registry, so rule indices are stable), one result per finding.

use serde_sarif::sarif::{
    ArtifactLocation, Location, Message, MultiformatMessageString, PhysicalLocation, PropertyBag,
    Region, ReportingDescriptor, Result as SarifResult, ResultLevel, Run, Sarif, Tool,
    ToolComponent,
};

use crate::{Report, Severity, registry};

/// The SARIF schema URI written into every log.
pub(super) const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

fn rules() -> Vec<ReportingDescriptor> {
    registry()
        .iter()
        .map(|g| {
            let info = g.info();
            let mut props = std::collections::BTreeMap::new();
            if let Some(code) = info.code {
                props.insert("code".to_string(), serde_json::json!(code));
            }
            ReportingDescriptor::builder()
                .id(info.slug)
                .name(info.slug)
                .short_description(
                    MultiformatMessageString::builder()
                        .text(info.summary)
                        .build(),
                )
                .full_description(
                    MultiformatMessageString::builder()
                        .text(info.summary)
                        .markdown(info.doc)
                        .build(),
                )
                .properties(PropertyBag::builder().additional_properties(props).build())
                .build()
        })
        .collect()
}

/// Renders the report as a SARIF 2.1.0 log (pretty JSON).
pub fn to_sarif(report: &Report) -> String {
    let index_of = |slug: &str| registry().iter().position(|g| g.info().slug == slug);
    let results: Vec<SarifResult> = report
        .findings
        .iter()
        .map(|f| {
            let level = match f.severity {
                Severity::Block => ResultLevel::Error,
                Severity::Warn => ResultLevel::Warning,
            };
            let mut props = std::collections::BTreeMap::new();
            props.insert("feedback".to_string(), serde_json::json!(f.feedback));
            if !f.data.is_null() {
                props.insert("data".to_string(), f.data.clone());
            }
            let locations = f.path.as_ref().map(|p| {
                let region = f.line.map(|l| {
                    let b = Region::builder().start_line(l as i64);
                    match f.column {
                        Some(c) => b.start_column(c as i64).build(),
                        None => Region::builder().start_line(l as i64).build(),
                    }
                });
                let artifact = ArtifactLocation::builder().uri(p.clone()).build();
                let physical = match region {
                    Some(r) => PhysicalLocation::builder()
                        .artifact_location(artifact)
                        .region(r)
                        .build(),
                    None => PhysicalLocation::builder()
                        .artifact_location(artifact)
                        .build(),
                };
                vec![Location::builder().physical_location(physical).build()]
            });
            let base = SarifResult::builder()
                .message(Message::builder().text(f.message.clone()).build())
                .rule_id(f.guard)
                .level(level)
                .properties(PropertyBag::builder().additional_properties(props).build());
            match (locations, index_of(f.guard)) {
                (Some(l), Some(i)) => base.locations(l).rule_index(i as i64).build(),
                (Some(l), None) => base.locations(l).build(),
                (None, Some(i)) => base.rule_index(i as i64).build(),
                (None, None) => base.build(),
            }
        })
        .collect();
    let driver = ToolComponent::builder()
        .name("slopguard")
        .version(env!("CARGO_PKG_VERSION"))
        .information_uri("https://example.invalid/slopguard")
        .rules(rules())
        .build();
    let run = Run::builder()
        .tool(Tool::builder().driver(driver).build())
        .results(results)
        .build();
    let log = Sarif::builder()
        .schema(SARIF_SCHEMA)
        .version(serde_json::json!("2.1.0"))
        .runs(vec![run])
        .build();
    serde_json::to_string_pretty(&log).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}
