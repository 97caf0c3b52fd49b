//! `slopguard doctor`: checks what slopguard needs and says how to fix what is missing. The
//! guards (`check`, `replay`, `hook`, `serve`) need git only; the agent (`run`, `plan`,
//! `feedback triage`/`fix`) needs a model endpoint too. Exit 0 when the guards can run (with
//! `--agent`, when the agent can run), so a user who only wants the guards is not told to
//! install a model.

use std::time::Duration;

use serde_json::json;
use slopguard_llm::{BlockingClient, Role};
use slopguard_toolchain::process::{on_path, run as run_cmd};

use super::common::{LlmArgs, ReportFormat};

/// Check what the guards need (git) and what the agent needs (a model endpoint), the
/// toolchains, the store and GitHub access.
#[derive(Debug, clap::Args)]
pub(crate) struct DoctorArgs {
    /// The endpoint to check (its request timeout defaults to 10 s here).
    #[command(flatten)]
    pub llm: LlmArgs,

    /// Exit 1 unless the agent can run too (`run`, `plan`, `feedback fix`: a model endpoint
    /// answers); by default only what the guards need decides the exit code.
    #[arg(long)]
    pub agent: bool,

    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// One check.
#[derive(Debug, Clone, serde::Serialize)]
pub(crate) struct Check {
    /// What was checked.
    pub name: String,
    /// `ok`, `missing`, `warn`.
    pub status: &'static str,
    /// What was found.
    pub detail: String,
    /// How to fix it (empty when ok).
    pub fix: String,
    /// Whether what it is needed for cannot work without it.
    pub essential: bool,
    /// What needs it: `guards` (every command), `agent` (run, plan, feedback fix) or
    /// `optional` (a language's toolchain, the store, GitHub).
    pub needed_by: &'static str,
}

fn check(name: &str, ok: bool, detail: String, fix: &str, needed_by: &'static str) -> Check {
    let essential = needed_by != "optional";
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
        needed_by,
    }
}

/// How to get a model endpoint, in commands an installed binary's user has.
const LLM_FIX: &str = "start an OpenAI-compatible server (llama.cpp's `llama-server -m MODEL.gguf \
     --port 8080`, Ollama, vLLM, or a hosted API) and set --llm-url / SLOPGUARD_LLM_URL (base \
     URL including /v1); only the agent needs it, the guards run without a model";

/// Whether every check `needed_by` one of `needs` passed.
fn ready(checks: &[Check], needs: &[&str]) -> bool {
    checks
        .iter()
        .filter(|c| needs.contains(&c.needed_by))
        .all(|c| c.status == "ok")
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

/// Runs every check. Exit 0 when the guards can run (git; with `--agent`, a model endpoint
/// too), else 1.
pub(crate) fn run(args: DoctorArgs, _global: &crate::Global) -> anyhow::Result<u8> {
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
                LLM_FIX,
                "agent",
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
                "agent",
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
                "agent",
            )),
        }
    }
    let git = version("git", &["--version"]);
    checks.push(check(
        "git",
        git.is_some(),
        git.unwrap_or_else(|| "not found".into()),
        "install git (apt-get install git)",
        "guards",
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
            "optional",
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
        "optional",
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
        "optional",
    ));
    let guards_ready = ready(&checks, &["guards"]);
    let agent_ready = ready(&checks, &["guards", "agent"]);
    let failed = !guards_ready || (args.agent && !agent_ready);
    match args.format {
        ReportFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(&json!({"checks": checks, "ok": !failed,
                "guards_ready": guards_ready, "agent_ready": agent_ready}))?
        ),
        ReportFormat::Text => {
            for c in &checks {
                println!("{:<8} {:<18} {}", c.status, c.name, c.detail);
                if !c.fix.is_empty() {
                    println!("{:<8} {:<18} fix: {}", "", "", c.fix);
                }
            }
            println!();
            println!(
                "guards (check, replay, hook, serve): {}",
                if guards_ready {
                    "ready"
                } else {
                    "not ready: install git"
                }
            );
            println!(
                "agent (run, plan, feedback fix):     {}",
                if agent_ready {
                    "ready"
                } else {
                    "not ready: no model endpoint answers (see the fix above)"
                }
            );
        }
    }
    Ok(if failed {
        crate::EXIT_BLOCKED
    } else {
        crate::EXIT_OK
    })
}
