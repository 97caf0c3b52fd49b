//! `slopguard serve`: the observer gateway over the store (DESIGN.md section 6).

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;

/// Run the observer gateway: observations, agent log, claims and repository facts over HTTP,
/// in the seeds' ("Occam") wire shapes.
#[derive(Debug, clap::Args)]
pub(crate) struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "SLOPGUARD_ADDR", default_value = slopguard_server::DEFAULT_ADDR)]
    pub addr: SocketAddr,

    /// Store: `sqlite://PATH` (default: the user data directory's slopguard.db) or
    /// `postgres://USER:PASS@HOST/DB`.
    #[arg(long, env = "SLOPGUARD_DB")]
    pub db: Option<String>,

    /// Bearer token clients must send (`Authorization: Bearer ...`); no auth when unset.
    #[arg(long, env = "SLOPGUARD_TOKEN", hide_env_values = true)]
    pub token: Option<String>,

    /// Directory `target` / `path` parameters may point into (repeatable; default: the current
    /// directory). The first is the default target.
    #[arg(long = "root", value_name = "DIR")]
    pub roots: Vec<PathBuf>,

    /// Largest accepted request body, in bytes.
    #[arg(long, default_value_t = slopguard_server::DEFAULT_BODY_LIMIT)]
    pub body_limit: usize,
}

/// Runs the gateway until Ctrl-C / SIGTERM. Exit 0 on a clean stop, 2 (via the error) when the
/// store or the address cannot be opened.
pub(crate) fn run(args: ServeArgs, _global: &crate::Global) -> anyhow::Result<u8> {
    let roots = if args.roots.is_empty() {
        vec![std::env::current_dir().context("reading the current directory")?]
    } else {
        args.roots
    };
    let config = slopguard_server::ServerConfig {
        addr: args.addr,
        db_url: args.db.filter(|s| !s.trim().is_empty()),
        token: args.token.filter(|s| !s.is_empty()),
        roots,
        body_limit: args.body_limit,
    };
    slopguard_server::run_blocking(config)?;
    Ok(crate::EXIT_OK)
}
