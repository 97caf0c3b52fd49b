//! `slopguard doctor`: checks what slopguard needs and says how to fix what is missing.

use std::time::Duration;

use serde_json::json;
use slopguard_llm::{BlockingClient, Role};
use slopguard_toolchain::process::{on_path, run as run_cmd};

use super::common::{LlmArgs, ReportFormat};

/// Check the LLM endpoint, git, toolchains, the store and GitHub access.
#[derive(Debug, clap::Args)]
pub struct DoctorArgs {
    /// The endpoint to check (its request timeout defaults to 10 s here).
    #[command(flatten)]
    pub llm: LlmArgs,

    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// One check.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Check {
    /// What was checked.
    pub name: String,
    /// `ok`, `missing`, `warn`.
    pub status: &'static str,
    /// What was found.
    pub detail: String,
    /// How to fix it (empty when ok).
    pub fix: String,
    /// Whether slopguard cannot work without it.
    pub essential: bool,
}

fn check(name: &str, ok: bool, detail: String, fix: &str, essential: bool) -> Check {
    Check {
        name: name.into(),
        status: if ok {
            "ok"
        } else if essential {
            "missing"
        } else {
            "warn"
        },
        detail,
        fix: if ok { String::new() } else { fix.into() },
        essential,
    }
}

fn version(program: &str, args: &[&str]) -> Option<String> {
    if !on_path(program) {
        return None;
    }
    let out = run_cmd(
        program,
        args,
        std::path::Path::new("."),
        &[],
        Duration::from_secs(15),
    );
    out.success().then(|| {
        format!("{}{}", out.stdout, out.stderr)
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string()
    })
}

/// Runs every check. Exit 0 when every essential check passes (LLM endpoint, git), else 1.
pub fn run(args: DoctorArgs, _global: &crate::Global) -> anyhow::Result<u8> {
    let cfg = args.llm.config_or_timeout(10);
    let client = BlockingClient::new(cfg.clone())?;
    let mut checks = Vec::new();
    let mut seen = Vec::new();
    for role in Role::ALL {
        let rc = cfg.role(role);
        if seen.contains(&(rc.base_url.clone(), rc.model.clone())) {
            continue;
        }
        seen.push((rc.base_url.clone(), rc.model.clone()));
        let h = client.health(role);
        let name = format!("llm ({})", role.as_str());
        if !h.reachable {
            checks.push(check(
                &name,
                false,
                format!("{} unreachable: {}", h.url, h.error.unwrap_or_default()),
                "start an OpenAI-compatible server (scripts/llm-setup.sh for a local model) or set \
                 --llm-url / SLOPGUARD_LLM_URL (base URL including /v1)",
                true,
            ));
            continue;
        }
        let ctx = h
            .context_size
            .map(|n| format!(", context {n} tokens"))
            .unwrap_or_default();
        match h.model_listed {
            Some(false) => checks.push(check(
                &name,
                false,
                format!(
                    "{}: model {:?} not listed (serves: {})",
                    h.url,
                    h.model,
                    h.models.join(", ")
                ),
                "set --model / SLOPGUARD_LLM_MODEL to one of the listed models",
                true,
            )),
            _ => checks.push(check(
                &name,
                true,
                format!(
                    "{}: model {}{ctx}",
                    h.url,
                    if h.model.is_empty() {
                        h.models
                            .first()
                            .cloned()
                            .unwrap_or_else(|| "(server default)".into())
                    } else {
                        h.model.clone()
                    }
                ),
                "",
                true,
            )),
        }
    }
    let git = version("git", &["--version"]);
    checks.push(check(
        "git",
        git.is_some(),
        git.unwrap_or_else(|| "not found".into()),
        "install git (apt-get install git)",
        true,
    ));
    for tool in slopguard_toolchain::ECOSYSTEMS
        .iter()
        .flat_map(|eco| eco.tools().iter())
    {
        let v = version(tool.program, tool.version_args);
        checks.push(check(
            &format!("toolchain {}", tool.name),
            v.is_some(),
            v.unwrap_or_else(|| format!("not found: {}", tool.without)),
            tool.install,
            false,
        ));
    }
    let db = std::env::var("SLOPGUARD_DB")
        .ok()
        .filter(|s| !s.trim().is_empty());
    let (db_ok, db_detail) = match &db {
        Some(u) => (
            true,
            format!("SLOPGUARD_DB={}", u.split('@').next_back().unwrap_or(u)),
        ),
        None => {
            let p = slopguard_store::default_sqlite_path();
            (
                p.exists(),
                if p.exists() {
                    format!("{} (SQLite)", p.display())
                } else {
                    format!(
                        "{} does not exist yet (created on the first run)",
                        p.display()
                    )
                },
            )
        }
    };
    checks.push(check(
        "store",
        db_ok,
        db_detail,
        "nothing to do: the first run creates it (or set SLOPGUARD_DB)",
        false,
    ));
    let gh = std::env::var("GITHUB_TOKEN").is_ok_and(|t| !t.trim().is_empty());
    checks.push(check(
        "github",
        gh,
        if gh {
            "GITHUB_TOKEN set".into()
        } else {
            "GITHUB_TOKEN not set".into()
        },
        "set GITHUB_TOKEN to open pull requests (without it a PR description file is written)",
        false,
    ));
    let failed = checks.iter().any(|c| c.essential && c.status != "ok");
    match args.format {
        ReportFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(&json!({"checks": checks, "ok": !failed}))?
        ),
        ReportFormat::Text => {
            for c in &checks {
                println!("{:<8} {:<18} {}", c.status, c.name, c.detail);
                if !c.fix.is_empty() {
                    println!("{:<8} {:<18} fix: {}", "", "", c.fix);
                }
            }
        }
    }
    Ok(if failed {
        crate::EXIT_BLOCKED
    } else {
        crate::EXIT_OK
    })
}
