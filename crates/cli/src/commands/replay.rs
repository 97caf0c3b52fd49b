//! `slopguard replay A..B`: `check` on every non-merge commit of a range, as if each were an
//! agent's patch, to calibrate the guards on a repository's own history.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context as _, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use slopguard_change::Task;
use slopguard_change::git::GitRepo;
use slopguard_guards::{Finding, ParseCache, Severity, registry};

use super::common::ReportFormat;
use crate::EXIT_OK;
use crate::progress::PlainLines;

/// Bytes of parsed source text a replay worker keeps from the commits it checked last.
const RECENT_PARSES: usize = 4 << 20;

/// Arguments of `slopguard replay`.
#[derive(Debug, clap::Args)]
pub(crate) struct ReplayArgs {
    /// Commit range `A..B`, or one revision for its whole history.
    pub range: String,
    /// Repository (bare or not).
    #[arg(long, short = 'C', default_value = ".")]
    pub repo: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Replay at most this many commits (newest first).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Use each commit's message as its task (intent-dependent guards then block).
    #[arg(long)]
    pub task_from_message: bool,
    /// Turn a guard on (slug or code), repeatable.
    #[arg(long, value_name = "GUARD")]
    pub enable: Vec<String>,
    /// Turn a guard off (slug or code), repeatable.
    #[arg(long, value_name = "GUARD")]
    pub disable: Vec<String>,
    /// Commits listed per guard in text output.
    #[arg(long, default_value_t = 5)]
    pub show: usize,
}

/// One commit that made a guard fire.
#[derive(Debug, Clone, Serialize)]
struct Firing {
    commit: String,
    subject: String,
    severity: Severity,
    findings: Vec<Finding>,
}

/// Per-guard totals.
#[derive(Debug, Default, Serialize)]
struct GuardTally {
    code: Option<&'static str>,
    /// Commits with at least one blocking finding of the guard.
    blocked_commits: usize,
    /// Commits with only warnings of the guard.
    warned_commits: usize,
    commits: Vec<Firing>,
}

#[derive(Debug, Serialize)]
struct ReplaySummary {
    range: String,
    commits: usize,
    blocked_commits: usize,
    elapsed_ms: f64,
    commits_per_second: f64,
    threads: usize,
    guards: BTreeMap<&'static str, GuardTally>,
    errors: Vec<serde_json::Value>,
}

/// One commit of the range: id, first parent, message.
struct CommitInfo {
    id: String,
    parent: Option<String>,
    message: String,
}

impl CommitInfo {
    fn subject(&self) -> &str {
        self.message.lines().next().unwrap_or("")
    }
}

/// Lists the range's non-merge commits, newest first, with parents and messages, in one git call.
fn list_commits(repo: &GitRepo, range: &str, limit: Option<usize>) -> Result<Vec<CommitInfo>> {
    if range.starts_with('-') {
        bail!("invalid range `{range}`");
    }
    let mut args = vec!["log", "--no-merges", "-z", "--format=%H%x1f%P%x1f%B"];
    let lim;
    if let Some(n) = limit {
        lim = format!("--max-count={n}");
        args.push(&lim);
    }
    args.push(range);
    args.push("--");
    let out = repo.run(&args).with_context(|| {
        format!("unknown range `{range}` (use A..B with revisions from `git log`)")
    })?;
    let text = String::from_utf8_lossy(&out);
    Ok(text
        .split('\0')
        .filter_map(|rec| {
            let mut f = rec.trim_start_matches('\n').splitn(3, '\x1f');
            let id = f.next()?.trim().to_string();
            if id.is_empty() {
                return None;
            }
            let parent = f
                .next()
                .and_then(|p| p.split_whitespace().next())
                .map(str::to_string);
            let message = f.next().unwrap_or("").trim().to_string();
            Some(CommitInfo {
                id,
                parent,
                message,
            })
        })
        .collect())
}

/// Runs the command.
pub(crate) fn run(args: ReplayArgs, global: &crate::Global) -> Result<u8> {
    let repo = GitRepo::open(&args.repo)?;
    let config_root = repo
        .work_dir()
        .map(PathBuf::from)
        .unwrap_or_else(|| args.repo.clone());
    let config = super::check::load_config(&config_root, global, &args.enable, &args.disable)?;
    let commits = list_commits(&repo, &args.range, args.limit)?;
    let threads = args
        .jobs
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2)
        })
        .max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let bar = if std::io::stderr().is_terminal() && args.format == ReportFormat::Text {
        let b = ProgressBar::new(commits.len() as u64);
        b.set_style(
            ProgressStyle::with_template(
                "{spinner} replay [{bar:30}] {pos}/{len} commits {per_sec} eta {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    // A log or a pipe gets a plain line now and a count every few seconds instead of the bar.
    let plain = (bar.is_hidden()
        && args.format == ReportFormat::Text
        && crate::progress::plain_progress_wanted())
    .then(|| {
        let lines = PlainLines::new();
        lines.say(
            &format!("replay: {} commit(s) on {threads} thread(s)", commits.len()),
            Some(&format!("replay: 0/{} commits checked", commits.len())),
        );
        let beat = lines.heartbeat();
        (lines, beat)
    });
    let checked = AtomicUsize::new(0);
    let started = Instant::now();
    let repo_path = args.repo.clone();
    let results: Vec<(usize, Result<slopguard_guards::Report, String>)> = pool.install(|| {
        commits
            .par_iter()
            .enumerate()
            .map_init(
                // A worker takes neighbouring commits, newest first: one commit's before
                // versions are often its parent's after versions, parsed once for both.
                || {
                    let parses = Arc::new(ParseCache::bounded(RECENT_PARSES));
                    (GitRepo::open(&repo_path).map(Arc::new), parses)
                },
                |(repo, parses), (i, c)| {
                    let res = match repo {
                        Ok(repo) => slopguard_change::from_commit_parts(
                            repo,
                            &c.id,
                            c.parent.as_deref(),
                            Some(c.message.clone()),
                        )
                        .map(|change| {
                            let task = args
                                .task_from_message
                                .then(|| change.message.as_deref().map(Task::from_commit_message))
                                .flatten();
                            slopguard_guards::run_static_in(
                                &change,
                                task.as_ref(),
                                &config,
                                parses.clone(),
                            )
                        })
                        .map_err(|e| e.to_string()),
                        Err(e) => Err(e.to_string()),
                    };
                    bar.inc(1);
                    let n = checked.fetch_add(1, Ordering::Relaxed) + 1;
                    if let Some((lines, _)) = &plain {
                        lines.set_doing(format!("replay: {n}/{} commits checked", commits.len()));
                    }
                    (i, res)
                },
            )
            .collect()
    });
    bar.finish_and_clear();
    drop(plain);
    let elapsed = started.elapsed();
    let mut guards: BTreeMap<&'static str, GuardTally> = registry()
        .iter()
        .filter(|g| config.enabled(g.info().slug))
        .map(|g| {
            (
                g.info().slug,
                GuardTally {
                    code: g.info().code,
                    ..GuardTally::default()
                },
            )
        })
        .collect();
    let mut errors = Vec::new();
    let mut blocked_commits = 0;
    for (i, res) in results {
        let (id, subject) = (&commits[i].id, commits[i].subject().to_string());
        match res {
            Err(e) => errors.push(serde_json::json!({"commit": id, "error": e})),
            Ok(report) => {
                if report.blocked() {
                    blocked_commits += 1;
                }
                let mut per_guard: BTreeMap<&'static str, Vec<Finding>> = BTreeMap::new();
                for f in report.findings {
                    per_guard.entry(f.guard).or_default().push(f);
                }
                for (slug, findings) in per_guard {
                    let tally = guards.entry(slug).or_default();
                    let severity = findings
                        .iter()
                        .map(|f| f.severity)
                        .max()
                        .unwrap_or(Severity::Warn);
                    match severity {
                        Severity::Block => tally.blocked_commits += 1,
                        Severity::Warn => tally.warned_commits += 1,
                    }
                    tally.commits.push(Firing {
                        commit: id.clone(),
                        subject: subject.clone(),
                        severity,
                        findings,
                    });
                }
            }
        }
    }
    let summary = ReplaySummary {
        range: args.range.clone(),
        commits: commits.len(),
        blocked_commits,
        elapsed_ms: elapsed.as_secs_f64() * 1000.0,
        commits_per_second: commits.len() as f64 / elapsed.as_secs_f64().max(1e-9),
        threads,
        guards,
        errors,
    };
    if args.format == ReportFormat::Json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print_text(&summary, args.show);
    }
    Ok(EXIT_OK)
}

fn print_text(s: &ReplaySummary, show: usize) {
    let pct = |n: usize| {
        if s.commits == 0 {
            0.0
        } else {
            n as f64 * 100.0 / s.commits as f64
        }
    };
    println!(
        "replayed {} commits of {} in {:.2} s ({:.0} commits/s, {} threads); {} blocked ({:.2}%)",
        s.commits,
        s.range,
        s.elapsed_ms / 1000.0,
        s.commits_per_second,
        s.threads,
        s.blocked_commits,
        pct(s.blocked_commits)
    );
    println!(
        "\n{:<28} {:>8} {:>7} {:>8}",
        "GUARD", "BLOCKED", "%", "WARNED"
    );
    for (slug, t) in &s.guards {
        let name = match t.code {
            Some(c) => format!("{c} {slug}"),
            None => slug.to_string(),
        };
        println!(
            "{:<28} {:>8} {:>6.2}% {:>8}",
            name,
            t.blocked_commits,
            pct(t.blocked_commits),
            t.warned_commits
        );
    }
    for (slug, t) in &s.guards {
        if t.commits.is_empty() {
            continue;
        }
        println!("\n{slug}:");
        let mut firings: Vec<&Firing> = t.commits.iter().collect();
        firings.sort_by_key(|f| std::cmp::Reverse(f.severity));
        for f in firings.iter().take(show) {
            let first = f
                .findings
                .first()
                .map(|x| format!("{}: {}", x.location(), x.message))
                .unwrap_or_default();
            println!(
                "  {} {} {:.60} | {}",
                &f.commit[..f.commit.len().min(10)],
                f.severity.as_str(),
                f.subject,
                first
            );
        }
        if firings.len() > show {
            println!(
                "  ... and {} more (--format json lists all)",
                firings.len() - show
            );
        }
    }
    if !s.errors.is_empty() {
        println!("\n{} commit(s) could not be read:", s.errors.len());
        for e in s.errors.iter().take(show) {
            println!("  {e}");
        }
    }
}
