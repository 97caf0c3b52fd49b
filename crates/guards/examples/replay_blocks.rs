//! Runs the static guard stack (default configuration, no task) over the last commits of a git
//! repository and prints the time taken, per guard how many commits it blocked, the six guards
//! that took longest per commit, then every blocking finding:
//! `cargo run --release -p slopguard-guards --example replay_blocks -- GIT_DIR [COMMITS]`.
//!
//! A calibration aid without the CLI: what `slopguard replay` reports, minus its process and
//! output plumbing. Merge commits are skipped; each commit is judged against its first parent.
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use slopguard_guards::{Config, Severity, run_static};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(repo) = args.first() else {
        eprintln!("usage: replay_blocks REPO [COMMITS]");
        std::process::exit(2);
    };
    let n: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    let list = Command::new("git")
        .args([
            "--git-dir",
            repo,
            "rev-list",
            "--no-merges",
            "-n",
            &n.to_string(),
            "HEAD",
        ])
        .output()
        .expect("git rev-list");
    let commits: Vec<String> = String::from_utf8_lossy(&list.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    let config = Config::default();
    let mut blocked_by: BTreeMap<&str, usize> = BTreeMap::new();
    let mut firings = Vec::new();
    let (mut judged, mut blocked) = (0usize, 0usize);
    let mut guard_secs = 0.0f64;
    let mut micros_by: BTreeMap<&str, u64> = BTreeMap::new();
    let start = Instant::now();
    for c in &commits {
        let Ok(change) = slopguard_change::from_commit(Path::new(repo), c) else {
            continue;
        };
        let t = Instant::now();
        let report = run_static(&change, None, &config);
        guard_secs += t.elapsed().as_secs_f64();
        judged += 1;
        for o in &report.guards {
            *micros_by.entry(o.guard).or_default() += o.micros;
        }
        let mut guards: Vec<&str> = report
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Block)
            .map(|f| f.guard)
            .collect();
        guards.sort_unstable();
        guards.dedup();
        blocked += usize::from(!guards.is_empty());
        for g in guards {
            *blocked_by.entry(g).or_default() += 1;
        }
        for f in report
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Block)
        {
            firings.push(format!(
                "{} {} {}: {}",
                &c[..10],
                f.guard,
                f.path.as_deref().unwrap_or("-"),
                f.message
            ));
        }
    }
    let wall = start.elapsed().as_secs_f64();
    println!(
        "{repo}: {judged} commits, {blocked} blocked; {wall:.2} s wall ({:.0} commits/s), guards {guard_secs:.2} s",
        judged as f64 / wall
    );
    for (g, n) in &blocked_by {
        println!("  {g}: {n}");
    }
    let mut slow: Vec<_> = micros_by.into_iter().collect();
    slow.sort_by_key(|(_, m)| std::cmp::Reverse(*m));
    let top: Vec<String> = slow
        .iter()
        .take(6)
        .map(|(g, m)| format!("{g} {:.1} ms", *m as f64 / 1000.0 / judged.max(1) as f64))
        .collect();
    println!("  mean guard time per commit: {}", top.join(", "));
    for f in firings {
        println!("    {f}");
    }
}
