//! `slopguard guards`: list the guards or explain one.

use anyhow::{Context as _, Result};
use slopguard_agent::gates;
use slopguard_guards::{Config, find_guard, registry};

use super::common::ReportFormat;
use crate::EXIT_OK;

/// Arguments of `slopguard guards`.
#[derive(Debug, clap::Args)]
pub(crate) struct GuardsArgs {
    #[command(subcommand)]
    pub action: Option<GuardsAction>,
    /// Output format of the list.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// `guards` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum GuardsAction {
    /// Print a guard's documentation (by slug or code, e.g. `G7`).
    Explain {
        /// Guard slug or code.
        guard: String,
    },
}

/// Runs the command.
pub(crate) fn run(args: GuardsArgs, global: &crate::Global) -> Result<u8> {
    if let Some(GuardsAction::Explain { guard }) = &args.action {
        // A static guard first (test-integrity has both halves: the static one's doc names the
        // dynamic half), then the run pipeline's gates.
        if let Some(g) = find_guard(guard) {
            println!("{}", g.info().doc.trim_end());
            return Ok(EXIT_OK);
        }
        let gate = gates::find(guard).with_context(|| {
            format!("unknown guard `{guard}` (run `slopguard guards` for the list)")
        })?;
        println!("{}", gate.doc.trim_end());
        return Ok(EXIT_OK);
    }
    let config = Config::discover(std::path::Path::new("."), global.config.as_deref())?;
    if args.format == ReportFormat::Json {
        let mut list: Vec<_> = registry()
            .iter()
            .map(|g| {
                let i = g.info();
                serde_json::json!({
                    "id": i.slug, "code": i.code, "default_enabled": i.default_enabled,
                    "enabled": config.enabled(i.slug), "summary": i.summary, "phase": "static",
                })
            })
            .collect();
        list.extend(gates::all().map(|g| {
            serde_json::json!({
                "id": g.slug, "code": g.code, "default_enabled": true, "enabled": true,
                "summary": g.summary, "phase": g.phase,
            })
        }));
        println!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(EXIT_OK);
    }
    println!("{:<5} {:<22} {:<4} WHAT IT CATCHES", "CODE", "GUARD", "ON");
    for g in registry() {
        let i = g.info();
        let on = if config.enabled(i.slug) { "yes" } else { "no" };
        println!(
            "{:<5} {:<22} {:<4} {}",
            i.code.unwrap_or("-"),
            i.slug,
            on,
            i.summary
        );
    }
    println!("\nThe run pipeline's other gates (`slopguard run`):");
    println!("{:<5} {:<22} {:<8} WHAT IT STOPS", "CODE", "GATE", "PHASE");
    for g in gates::all() {
        let phase = serde_json::to_value(g.phase)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        println!(
            "{:<5} {:<22} {:<8} {}",
            g.code.unwrap_or("-"),
            g.slug,
            phase,
            g.summary
        );
    }
    println!("\n`slopguard guards explain <GUARD>` prints a guard's or gate's documentation.");
    Ok(EXIT_OK)
}
