//! The `slopguard` binary: a thin layer of argument parsing over the workspace's crates.
//!
//! Exit codes are the same for every command: 0 ok, 1 blocked / failed check, 2 usage or
//! environment error.

mod commands;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit code for a change that passed / a command that succeeded.
pub const EXIT_OK: u8 = 0;
/// Exit code for a blocked change or a failed check.
pub const EXIT_BLOCKED: u8 = 1;
/// Exit code for usage, I/O and environment errors.
pub const EXIT_ERROR: u8 = 2;

/// A guarded autonomous coding agent: deterministic guards against LLM patch slop.
#[derive(Debug, Parser)]
#[command(name = "slopguard", version, about, propagate_version = true)]
struct Cli {
    /// Path to a slopguard.toml (default: <repo>/slopguard.toml when present).
    #[arg(long, global = true, env = "SLOPGUARD_CONFIG")]
    config: Option<std::path::PathBuf>,

    /// Log verbosity for diagnostics on stderr (error, warn, info, debug, trace).
    #[arg(long, global = true, env = "SLOPGUARD_LOG", default_value = "warn")]
    log: String,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the guard stack on one change (working tree, index, commit, diff or LLM patches).
    Check(commands::check::CheckArgs),
    /// Run `check` on every non-merge commit of a range and count guard firings.
    Replay(commands::replay::ReplayArgs),
    /// List the guards, or explain one (`slopguard guards explain G7`).
    Guards(commands::guards::GuardsArgs),
    /// Agent-loop guardrails for Claude Code and Codex (`hook claude`, `hook codex`, `hook install`).
    Hook(commands::hook::HookArgs),
    /// Run the observer gateway (observations, agent log, claims) over the store.
    Serve(commands::serve::ServeArgs),
    /// Audit a repository: eleven metrics, failing tests, repo brief (no LLM).
    Analyze(commands::analyze::AnalyzeArgs),
    /// Audit a repository and print the task plan (LLM planner + deterministic filters).
    Plan(commands::plan::PlanArgs),
    /// Analyse, plan and fix a repository on a branch: every patch passes the guards first.
    Run(commands::run::RunArgs),
    /// Check the LLM endpoint, git, toolchains, store and GitHub access.
    Doctor(commands::doctor::DoctorArgs),
}

/// Options every command can read.
#[derive(Debug, Clone)]
pub struct Global {
    /// `--config` as given.
    pub config: Option<std::path::PathBuf>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let code = if err.use_stderr() {
                EXIT_ERROR
            } else {
                EXIT_OK
            };
            let _ = err.print();
            return ExitCode::from(code);
        }
    };
    init_tracing(&cli.log);
    let global = Global { config: cli.config };
    let result = match cli.command {
        Command::Check(args) => commands::check::run(args, &global),
        Command::Replay(args) => commands::replay::run(args, &global),
        Command::Guards(args) => commands::guards::run(args, &global),
        Command::Hook(args) => commands::hook::run(args, &global),
        Command::Serve(args) => commands::serve::run(args, &global),
        Command::Analyze(args) => commands::analyze::run(args, &global),
        Command::Plan(args) => commands::plan::run(args, &global),
        Command::Doctor(args) => commands::doctor::run(args, &global),
        Command::Run(args) => commands::run::run(args, &global),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            eprintln!("slopguard: error: {err:#}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}

fn init_tracing(level: &str) {
    let filter = tracing_subscriber::EnvFilter::try_new(level)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
}
