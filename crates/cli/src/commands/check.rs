//! `slopguard check`: run the static guard stack on one change.

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context as _, Result, bail};
use slopguard_change::{ChangeSet, Task};
use slopguard_guards::output::{Format, render_text, to_json, to_sarif};
use slopguard_guards::{AnalysisStore, Config, ParseCache, Report, find_guard};

use super::common::{CheckFormat, ColorChoice};
use crate::{EXIT_BLOCKED, EXIT_OK};

/// Arguments of `slopguard check`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("source").args(["worktree", "staged", "commit", "diff", "patches"])))]
pub(crate) struct CheckArgs {
    /// Repository to check (bare repositories work with --commit, --diff --base, --patches --base).
    #[arg(long, short = 'C', default_value = ".")]
    pub repo: PathBuf,
    /// Check the working tree against HEAD (the default).
    #[arg(long)]
    pub worktree: bool,
    /// Check the staged changes (the index) against HEAD.
    #[arg(long)]
    pub staged: bool,
    /// Check a commit against its first parent.
    #[arg(long, value_name = "REV")]
    pub commit: Option<String>,
    /// Check a unified or git diff (`-` for stdin), applied in memory to --base.
    #[arg(long, value_name = "FILE")]
    pub diff: Option<PathBuf>,
    /// Check LLM patches: the JSON patch list or search/replace edit blocks (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    pub patches: Option<PathBuf>,
    /// Base revision for --diff and --patches (default: the working tree; HEAD when bare).
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,
    /// What the change is for (enables intent-dependent blocking).
    #[arg(long, value_name = "TEXT", conflicts_with = "task_file")]
    pub task: Option<String>,
    /// The task as a file: TOML/JSON with title, description, file_hints, allowed_manifests, or plain text.
    #[arg(long, value_name = "FILE")]
    pub task_file: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: CheckFormat,
    /// Turn a guard on (slug or code), repeatable.
    #[arg(long, value_name = "GUARD")]
    pub enable: Vec<String>,
    /// Turn a guard off (slug or code), repeatable.
    #[arg(long, value_name = "GUARD")]
    pub disable: Vec<String>,
    /// Colour of the text output.
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
    /// Parse every file and walk the work tree afresh: neither read nor keep the analyses
    /// and the untracked-file walk of earlier checks (also `SLOPGUARD_NO_CACHE=1`; the cache
    /// lives in `$SLOPGUARD_CACHE_DIR`, else `~/.cache/slopguard`).
    #[arg(long, conflicts_with = "cache_dir")]
    pub no_cache: bool,
    /// Where analyses and the untracked-file walk are kept between checks (default:
    /// `$SLOPGUARD_CACHE_DIR`, else `~/.cache/slopguard`).
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
}

/// Largest diff or patch list `check` reads, in MiB, unless `SLOPGUARD_MAX_INPUT_MB` says
/// otherwise: a change writes files of at most 2 MiB each (the containment guard's cap), and
/// an input read whole before that guard refused it took a process to 983 MB (a 56 MB diff;
/// one under the cap is parsed and judged in about 7 times its size).
const DEFAULT_MAX_INPUT_MB: u64 = 32;

/// The input cap in bytes (`SLOPGUARD_MAX_INPUT_MB`, else [`DEFAULT_MAX_INPUT_MB`]).
fn max_input_bytes() -> u64 {
    std::env::var("SLOPGUARD_MAX_INPUT_MB")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|mb| *mb > 0)
        .unwrap_or(DEFAULT_MAX_INPUT_MB)
        * 1024
        * 1024
}

/// Reads a file argument, `-` meaning stdin, refusing it over the input cap: a file by its
/// size before a byte is read, stdin as soon as it passes the cap (never reading more than one
/// byte past it).
fn read_input(path: &Path) -> Result<String> {
    let cap = max_input_bytes();
    let too_large = || {
        anyhow::anyhow!(
            "{} is larger than {} MiB: check fewer commits at a time, or raise the cap with \
             SLOPGUARD_MAX_INPUT_MB",
            input_name(path),
            cap / 1024 / 1024
        )
    };
    let (reader, size): (Box<dyn Read>, u64) = if path == Path::new("-") {
        (Box::new(std::io::stdin()), 0)
    } else {
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
        let size = file.metadata().map(|m| m.len()).unwrap_or(0);
        if size > cap {
            return Err(too_large());
        }
        (Box::new(file), size)
    };
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    reader
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {}", input_name(path)))?;
    if bytes.len() as u64 > cap {
        return Err(too_large());
    }
    String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8 text", path.display()))
}

/// How errors name a file argument (`-` is stdin).
fn input_name(path: &Path) -> String {
    if path == Path::new("-") {
        "(stdin)".into()
    } else {
        path.display().to_string()
    }
}

/// Loads the configuration and applies `--enable` / `--disable`.
pub(crate) fn load_config(
    repo: &Path,
    global: &crate::Global,
    enable: &[String],
    disable: &[String],
) -> Result<Config> {
    let mut config = Config::discover(repo, global.config.as_deref())?;
    for (names, on) in [(enable, true), (disable, false)] {
        for name in names {
            let guard = find_guard(name).with_context(|| {
                format!("unknown guard `{name}` (run `slopguard guards` for the list)")
            })?;
            config.set_enabled(guard.info().slug, on);
        }
    }
    Ok(config)
}

/// The task from `--task` / `--task-file`.
pub(crate) fn load_task(task: Option<&str>, task_file: Option<&Path>) -> Result<Option<Task>> {
    Ok(match (task, task_file) {
        (Some(t), _) => Some(Task::from_text(t)),
        (None, Some(f)) => Some(Task::from_file(f)?),
        (None, None) => None,
    })
}

fn build_change(args: &CheckArgs) -> Result<ChangeSet> {
    let repo = &args.repo;
    if !repo.exists() {
        bail!("{} does not exist", repo.display());
    }
    if args.base.is_some() && args.diff.is_none() && args.patches.is_none() {
        bail!("--base applies to --diff and --patches only");
    }
    let change = if let Some(rev) = &args.commit {
        slopguard_change::from_commit(repo, rev)?
    } else if args.staged {
        slopguard_change::from_staged(repo)?
    } else if let Some(diff) = &args.diff {
        let text = read_input(diff)?;
        slopguard_change::from_diff(repo, &text, args.base.as_deref())
            .with_context(|| format!("--diff {}", input_name(diff)))?
    } else if let Some(p) = &args.patches {
        let text = read_input(p)?;
        slopguard_change::from_patches_file(repo, &text, args.base.as_deref())
            .with_context(|| format!("--patches {}", input_name(p)))?
    } else {
        let cache =
            slopguard_change::cache_dir(args.cache_dir.as_deref()).filter(|_| !args.no_cache);
        slopguard_change::from_worktree_cached(repo, cache.as_deref())?
    };
    Ok(change)
}

/// The parse cache of one check: backed by the analysis store of earlier checks (under
/// `dir` when given) unless `no_cache` or the environment turns it off.
pub(crate) fn parse_cache(no_cache: bool, dir: Option<&Path>) -> ParseCache {
    match AnalysisStore::from_env(dir) {
        Some(store) if !no_cache => ParseCache::with_store(store),
        _ => ParseCache::default(),
    }
}

/// Prints `report` in `format` to stdout.
///
/// A reader that has gone away (`slopguard check | head -1`) is not an error: the write's
/// failure is ignored so that the exit code still says the verdict.
pub(crate) fn print_report(report: &Report, format: CheckFormat, color: ColorChoice) {
    let out = match Format::from(format) {
        Format::Json => to_json(report),
        Format::Sarif => to_sarif(report),
        Format::Text => {
            let color = match color {
                ColorChoice::Always => true,
                ColorChoice::Never => false,
                ColorChoice::Auto => {
                    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
                }
            };
            render_text(report, color)
        }
    };
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{}", out.trim_end()).and_then(|()| stdout.flush());
}

/// The time each phase of a check took, logged at `--log debug`: where a slow check spends it.
struct PhaseClock {
    last: Instant,
}

impl PhaseClock {
    fn start() -> Self {
        PhaseClock {
            last: Instant::now(),
        }
    }

    fn lap(&mut self, phase: &str) {
        let now = Instant::now();
        let micros = now.duration_since(self.last).as_micros() as u64;
        tracing::debug!(phase, micros, "check phase");
        self.last = now;
    }
}

/// Runs the command.
pub(crate) fn run(args: CheckArgs, global: &crate::Global) -> Result<u8> {
    let mut phases = PhaseClock::start();
    let config = load_config(&args.repo, global, &args.enable, &args.disable)?;
    let task = load_task(args.task.as_deref(), args.task_file.as_deref())?;
    phases.lap("config and task");
    let change = build_change(&args)?;
    phases.lap("change read");
    let parses = Arc::new(parse_cache(args.no_cache, args.cache_dir.as_deref()));
    let report =
        slopguard_guards::run_static_parallel(&change, task.as_ref(), &config, parses.clone());
    phases.lap("guards");
    print_report(&report, args.format, args.color);
    parses.save_new();
    phases.lap("report printed, analyses saved");
    // The process ends here: freeing every parse tree (a few percent of a cold check of large
    // files) is work the operating system does at exit anyway. The change is dropped as usual:
    // it may own a `git cat-file` child to stop.
    std::mem::forget(parses);
    Ok(if report.blocked() {
        EXIT_BLOCKED
    } else {
        EXIT_OK
    })
}
