//! The `slopguard` binary: a thin layer of argument parsing over the workspace's crates.
//!
//! Exit codes are the same for every command: 0 ok, 1 blocked / failed check, 2 usage or
//! environment error.

mod commands;
mod help;
mod progress;
mod run_view;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

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
    #[command(after_help = help::CHECK)]
    Check(commands::check::CheckArgs),
    /// Run `check` on every non-merge commit of a range and count guard firings.
    #[command(after_help = help::REPLAY)]
    Replay(commands::replay::ReplayArgs),
    /// List the guards, or explain one (`slopguard guards explain G7`).
    #[command(after_help = help::GUARDS)]
    Guards(commands::guards::GuardsArgs),
    /// Agent-loop guardrails for Claude Code and Codex (`hook claude`, `hook codex`, `hook install`).
    #[command(after_help = help::HOOK)]
    Hook(commands::hook::HookArgs),
    /// Run the observer gateway (observations, agent log, claims) over the store.
    #[command(after_help = help::serve())]
    Serve(commands::serve::ServeArgs),
    /// Audit a repository: eleven metrics, failing tests, repo brief (no LLM).
    #[command(after_help = help::ANALYZE)]
    Analyze(commands::analyze::AnalyzeArgs),
    /// Audit a repository and print the task plan (LLM planner + deterministic filters).
    #[command(after_help = help::PLAN)]
    Plan(commands::plan::PlanArgs),
    /// Analyse, plan and fix a repository on a branch: every patch passes the guards first.
    #[command(after_help = help::RUN)]
    Run(commands::run::RunArgs),
    /// Watch a pull request's GitHub checks; fix a failure with a guarded run, push, watch again.
    #[command(after_help = help::CI_WATCH)]
    CiWatch(commands::ci_watch::CiWatchArgs),
    /// Check what the guards need (git) and what the agent needs (a model endpoint).
    #[command(after_help = help::DOCTOR)]
    Doctor(commands::doctor::DoctorArgs),
    /// Reviewer feedback for the self-correction loop: add, list, show, triage.
    #[command(after_help = help::FEEDBACK)]
    Feedback(commands::feedback::FeedbackArgs),
}

/// Options every command can read.
#[derive(Debug, Clone)]
pub struct Global {
    /// `--config` as given.
    pub config: Option<std::path::PathBuf>,
}

fn main() -> ExitCode {
    quiet_on_broken_pipe();
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, m)));
    let (cli, matches) = match parsed {
        Ok(both) => both,
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
    init_tracing(&log_level(&cli.log, &matches));
    let global = Global { config: cli.config };
    // A SIGTERM or Ctrl-C takes the toolchain's children (builds, test suites) down with
    // slopguard; `serve` shuts down gracefully on those signals instead, and `hook` runs none.
    if !matches!(cli.command, Command::Serve(_) | Command::Hook(_)) {
        slopguard_toolchain::process::kill_children_on_signals();
    }
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
        Command::CiWatch(args) => commands::ci_watch::run(args, &global),
        Command::Feedback(args) => commands::feedback::run(args, &global),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        // The reader went away (`slopguard guards | head -1`): what it wanted was printed.
        Err(err) if is_broken_pipe(&err) => ExitCode::from(EXIT_OK),
        Err(err) => {
            eprintln!("slopguard: error: {}", error_text(&err));
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// An error and its causes on one line, each cause once: a cause whose text the message
/// already holds (an error type that prints its source in its own message, as `thiserror`'s
/// `#[error("store: {0}")]` with `#[from]` does) is not repeated as `X: X`.
fn error_text(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let part = cause.to_string();
        if text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

/// Ends the process quietly with exit 0 when stdout or stderr is a closed pipe.
///
/// Rust ignores SIGPIPE, so writing to a pipe whose reader has exited (`slopguard guards |
/// head -1`) fails with `EPIPE`, and `println!` turns that into a panic (exit 101 and a
/// "failed printing to stdout: Broken pipe" message). Every command prints with `println!`,
/// so the panic hook is the one place that covers them all: a broken pipe on the standard
/// streams means the reader has all it wanted, which is success, as for `cat` or `grep`
/// under `head`. (Restoring the default SIGPIPE action instead would also kill `run` and
/// `serve` when a child process or client closes its end, which must stay recoverable.)
/// Every other panic keeps the default report.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        // std's message: "failed printing to stdout: Broken pipe (os error 32)".
        if message.starts_with("failed printing to std")
            && message.to_ascii_lowercase().contains("broken pipe")
        {
            std::process::exit(i32::from(EXIT_OK));
        }
        default(info);
    }));
}

/// Whether a command's error is a write to a closed pipe (commands that write with `?`
/// rather than `println!`).
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The diagnostics level: `--log` / `SLOPGUARD_LOG` when given; `error` when the command was
/// asked to be quiet (`--quiet`), so warnings do not print under it; else the default.
fn log_level(given: &str, matches: &clap::ArgMatches) -> String {
    let explicit = matches
        .value_source("log")
        .is_some_and(|s| s != clap::parser::ValueSource::DefaultValue);
    if !explicit && quiet_requested(matches) {
        "error".to_string()
    } else {
        given.to_string()
    }
}

/// Whether the (sub)command that runs has `--quiet` set.
fn quiet_requested(matches: &clap::ArgMatches) -> bool {
    match matches.subcommand() {
        Some((_, sub)) => quiet_requested(sub),
        None => matches
            .try_get_one::<bool>("quiet")
            .ok()
            .flatten()
            .copied()
            .unwrap_or(false),
    }
}

/// Whether diagnostics may be coloured: stderr is a terminal and `NO_COLOR` is unset or empty
/// (https://no-color.org).
fn colour_on_stderr() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

fn init_tracing(level: &str) {
    let filter = tracing_subscriber::EnvFilter::try_new(level)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(colour_on_stderr())
        .with_target(false)
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(args: &[&str]) -> String {
        let m = Cli::command()
            .try_get_matches_from(args)
            .expect("arguments parse");
        let cli = Cli::from_arg_matches(&m).expect("arguments parse");
        log_level(&cli.log, &m)
    }

    #[test]
    fn quiet_silences_warnings_unless_a_log_level_is_given() {
        assert_eq!(level(&["slopguard", "analyze", "."]), "warn");
        assert_eq!(level(&["slopguard", "analyze", ".", "--quiet"]), "error");
        assert_eq!(
            level(&["slopguard", "--log", "info", "analyze", ".", "--quiet"]),
            "info"
        );
        assert_eq!(
            level(&["slopguard", "feedback", "fix", "1", "--quiet"]),
            "error"
        );
        assert_eq!(level(&["slopguard", "check"]), "warn");
    }
}
