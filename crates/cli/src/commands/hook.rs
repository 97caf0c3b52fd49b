//! `slopguard hook claude|codex|install`: the agent-loop guardrails speaking each agent's hook
//! protocol. A hook's exit code follows the agent's protocol (0 with JSON on stdout; 2 with a
//! message on stderr where that is the protocol's way to block), not slopguard's usual 0/1/2.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use slopguard_hooks::db_store::DbStore;
use slopguard_hooks::edits::FileChange;
use slopguard_hooks::install::{self, Scope};
use slopguard_hooks::store::{FileStore, SessionStore, StoreError};
use slopguard_hooks::{Agent, Deps, EditJudge, Judgement};

/// Arguments of `slopguard hook`.
#[derive(Debug, clap::Args)]
pub(crate) struct HookArgs {
    #[command(subcommand)]
    command: HookCommand,
}

#[derive(Debug, clap::Subcommand)]
enum HookCommand {
    /// Answer one Claude Code hook event (JSON on stdin).
    Claude(RunArgs),
    /// Answer one Codex hook event (JSON on stdin).
    Codex(RunArgs),
    /// Write (or remove) the hook configuration for an agent.
    Install(InstallArgs),
}

#[derive(Debug, clap::Args)]
struct RunArgs {
    /// Keep the deterministic gates (verification, evidence, doom loop, containment) and skip
    /// the static guard stack before writes.
    #[arg(long)]
    lean: bool,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum AgentArg {
    Claude,
    Codex,
}

#[derive(Debug, clap::Args)]
struct InstallArgs {
    /// The agent whose configuration to write.
    agent: AgentArg,
    /// Install into the project (`.claude/settings.json`, `.codex/hooks.json`; the default).
    #[arg(long, conflicts_with = "user")]
    project: bool,
    /// Install for the user (`~/.claude/settings.json`, `~/.codex/hooks.json`).
    #[arg(long)]
    user: bool,
    /// Remove slopguard's entries, leaving every other hook in place.
    #[arg(long)]
    uninstall: bool,
    /// Lean mode: no guard stack before writes, only the cheap deterministic gates (the
    /// pre-write hook still refuses edits outside the project).
    #[arg(long)]
    lean: bool,
    /// Program to put in the hook commands (default: the absolute path of this `slopguard`
    /// binary, so the hooks run whatever PATH the agent has).
    #[arg(long)]
    program: Option<String>,
}

/// Runs the command.
pub(crate) fn run(args: HookArgs, global: &crate::Global) -> anyhow::Result<u8> {
    match args.command {
        HookCommand::Claude(a) => Ok(answer(Agent::Claude, a, global)),
        HookCommand::Codex(a) => Ok(answer(Agent::Codex, a, global)),
        HookCommand::Install(a) => install_cmd(a),
    }
}

fn answer(agent: Agent, args: RunArgs, global: &crate::Global) -> u8 {
    let mut raw = Vec::new();
    if let Err(e) = std::io::stdin().take(64 << 20).read_to_end(&mut raw) {
        eprintln!("slopguard hook: cannot read stdin: {e}");
        raw.clear();
    }
    let judge = GuardsJudge {
        config: global.config.clone(),
    };
    // Session state lives in the store (SLOPGUARD_DB, else SQLite in the user's data
    // directory); if it cannot be opened the hook still works, keeping state in files under
    // the repository's .slopguard/hooks/.
    let store = |root: &Path| -> Result<Box<dyn SessionStore>, StoreError> {
        match DbStore::open(None) {
            Ok(db) => Ok(Box::new(db)),
            Err(e) => {
                eprintln!(
                    "slopguard hook: session store unavailable ({e}); using files under .slopguard/hooks/"
                );
                Ok(Box::new(FileStore::for_repo(root)))
            }
        }
    };
    let deps = Deps {
        store: &store,
        judge: &judge,
        fallback_dir: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
        config: None,
        config_file: global.config.clone(),
        lean: args.lean,
    };
    let out = slopguard_hooks::handle(agent, &raw, &deps);
    if !out.stdout.is_empty() {
        let mut so = std::io::stdout().lock();
        let _ = writeln!(so, "{}", out.stdout);
        let _ = so.flush();
    }
    if !out.stderr.is_empty() {
        eprintln!("{}", out.stderr);
    }
    out.exit_code
}

fn install_cmd(a: InstallArgs) -> anyhow::Result<u8> {
    let agent = match a.agent {
        AgentArg::Claude => Agent::Claude,
        AgentArg::Codex => Agent::Codex,
    };
    let scope = if a.user {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .ok_or_else(|| anyhow::anyhow!("HOME is not set"))?;
        Scope::User(home)
    } else {
        let cwd = std::env::current_dir()?;
        let root = slopguard_hooks::tree::repo_root(&cwd).unwrap_or(cwd);
        Scope::Project(root)
    };
    let _ = a.project; // the default scope
    let program = match &a.program {
        Some(p) => p.clone(),
        None => this_binary()?,
    };
    if !a.uninstall
        && let Some(warning) = unreachable_program_warning(&program)
    {
        eprintln!("{warning}");
    }
    let path = install::install(agent, &scope, &program, a.lean, a.uninstall)?;
    let what = if a.uninstall {
        "removed slopguard hooks from"
    } else {
        "installed slopguard hooks in"
    };
    println!("{what} {}", path.display());
    Ok(crate::EXIT_OK)
}

/// The absolute path of the running binary, as a shell word: what the agent must run for the
/// hooks to reach this slopguard. A bare `slopguard` would depend on the agent's PATH, and
/// after `cargo build` (no install) it is on none.
fn this_binary() -> anyhow::Result<String> {
    let exe = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(|e| {
            anyhow::anyhow!(
                "cannot tell where this slopguard binary is ({e}); pass --program /path/to/slopguard"
            )
        })?;
    let exe = exe.to_str().ok_or_else(|| {
        anyhow::anyhow!(
            "the path of this binary is not UTF-8 ({}); pass --program /path/to/slopguard",
            exe.display()
        )
    })?;
    Ok(shell_word(exe))
}

/// `word` quoted for a POSIX shell when it needs it (agents run hook commands through one).
fn shell_word(word: &str) -> String {
    let plain = word
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+,:@%=".contains(c));
    if plain && !word.is_empty() {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// A warning when the hook commands' program cannot be run as written: a bare name that is
/// not on PATH, or a path that is not an executable file.
fn unreachable_program_warning(program: &str) -> Option<String> {
    let unquoted = program.trim_matches('\'');
    if unquoted.contains('/') {
        let p = Path::new(unquoted);
        return (!p.is_file()).then(|| {
            format!(
                "slopguard hook install: warning: {unquoted} does not exist; the hooks will fail \
                 until it does"
            )
        });
    }
    let on_path = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(unquoted).is_file()));
    (!on_path).then(|| {
        format!(
            "slopguard hook install: warning: `{unquoted}` is not on PATH, so the agent cannot run \
             the hooks. Install it (`cargo install --path crates/cli` in a slopguard checkout) or \
             leave out --program to write this binary's absolute path."
        )
    })
}

/// The static guard stack as the hooks' judge.
struct GuardsJudge {
    config: Option<PathBuf>,
}

impl EditJudge for GuardsJudge {
    fn judge(&self, root: &Path, changes: &[FileChange], tool: &str) -> Result<Judgement, String> {
        let config = slopguard_guards::Config::discover(root, self.config.as_deref())
            .map_err(|e| format!("guard configuration: {e}"))?;
        let changes = changes.to_vec();
        let base: Arc<dyn slopguard_change::Tree> =
            Arc::new(slopguard_change::WorkTree::new(root.to_path_buf()));
        let set = slopguard_change::ChangeSet::new(base, changes, "agent hook");
        // The session's task file, when there is one, states the intent every edit is judged
        // against. Without it the hook does not know the agent's task: a whole-file Write that
        // drops definitions is judged as an edit whose task did not ask for the removal
        // (blocking); targeted edits and patch hunks that remove code are deliberate enough to
        // be warnings only. (An empty task text mentions no symbol, so no removal counts as
        // asked for.)
        let task_file = root.join(slopguard_hooks::goal::TASK_FILE);
        let task = if task_file.is_file() {
            Some(slopguard_change::Task::from_file(&task_file).map_err(|e| {
                format!(
                    "task file {}: {e} (fix it or remove it)",
                    slopguard_hooks::goal::TASK_FILE
                )
            })?)
        } else {
            (tool == "Write").then(|| slopguard_change::Task::from_text(""))
        };
        // The next edit's base is this edit's result: kept analyses spare its parse.
        let parses = std::sync::Arc::new(super::check::parse_cache(false, None));
        let report =
            slopguard_guards::run_static_parallel(&set, task.as_ref(), &config, parses.clone());
        parses.save_new();
        let mut slugs: Vec<&str> = report.blocking().map(|f| f.guard).collect();
        slugs.sort_unstable();
        slugs.dedup();
        Ok(Judgement {
            blocked: report.blocked(),
            feedback: format!(
                "slopguard blocked this edit; nothing was written. Fix these and try again:\n{}",
                report.feedback().trim_end()
            ),
            signature: if slugs.is_empty() {
                "pass".into()
            } else {
                format!("block:{}", slugs.join(","))
            },
        })
    }
}
