//! `slopguard analyze PATH`: the eleven metric analyzers, as a table or JSON. No LLM.

use std::time::Duration;

use anyhow::Context;
use slopguard_planning::analysis::{AnalysisReport, AnalyzeOptions, Status, analyze};

use super::common::ReportFormat;
use crate::progress::StepProgress;

/// Audit a repository: build, test results (with failing test ids), tests, CI, README, docs,
/// code quality, dependencies, security, license and structure, each scored 0..1.
#[derive(Debug, clap::Args)]
pub(crate) struct AnalyzeArgs {
    #[command(flatten)]
    pub repo: super::common::RepoArg,

    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,

    /// Do not run the project's toolchain (build and test results become unknown).
    #[arg(long)]
    pub no_run: bool,

    /// Timeout in seconds for each build and test command.
    #[arg(long, default_value_t = 600)]
    pub timeout: u64,

    /// No progress output on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Runs the analysis; exit 0 (the report is the result), 2 when the path is not a directory.
pub(crate) fn run(args: AnalyzeArgs, _global: &crate::Global) -> anyhow::Result<u8> {
    let root = args
        .repo
        .path()
        .canonicalize()
        .with_context(|| format!("cannot open {}", args.repo.path().display()))?;
    anyhow::ensure!(root.is_dir(), "{} is not a directory", root.display());
    let opts = AnalyzeOptions {
        run_toolchain: !args.no_run,
        build_timeout: Duration::from_secs(args.timeout.max(1)),
        test_timeout: Duration::from_secs(args.timeout.max(1)),
    };
    // The build and the tests can take minutes: say what is being done (a heartbeat line
    // every few seconds when stderr is a log, a spinner on a terminal) rather than stay silent.
    let progress = StepProgress::start(args.quiet);
    progress.step(if args.no_run {
        "analysis (metrics only)"
    } else {
        "analysis (running the build and the tests)"
    });
    let report = analyze(&root, &opts);
    progress.finish();
    match args.format {
        ReportFormat::Json => println!("{}", serde_json::to_string_pretty(&report)?),
        ReportFormat::Text => print!("{}", render_text(&report)),
    }
    Ok(crate::EXIT_OK)
}

/// The report as a table.
pub(crate) fn render_text(r: &AnalysisReport) -> String {
    let mut s = format!("Analysis of {}\n\n", r.root);
    s.push_str(&format!(
        "{:<14} {:<8} {:>5}  {}\n",
        "metric", "status", "score", "details"
    ));
    for m in &r.metrics {
        let score = m
            .score
            .map(|x| format!("{x:.2}"))
            .unwrap_or_else(|| "-".into());
        let status = match m.status {
            Status::Pass => "pass",
            Status::Warn => "WARN",
            Status::Fail => "FAIL",
            Status::Unknown => "unknown",
        };
        let first = m.details.first().cloned().unwrap_or_default();
        s.push_str(&format!(
            "{:<14} {:<8} {:>5}  {}\n",
            m.name, status, score, first
        ));
        for d in m.details.iter().skip(1).take(4) {
            s.push_str(&format!("{:<14} {:<8} {:>5}  {}\n", "", "", "", d));
        }
    }
    s.push_str(&format!("\nOverall: {:.2}\n", r.overall));
    if !r.failing_tests.is_empty() {
        s.push_str("\nFailing tests:\n");
        for t in &r.failing_tests {
            match &t.file {
                Some(f) => s.push_str(&format!("  {} ({f})\n", t.id)),
                None => s.push_str(&format!("  {}\n", t.id)),
            }
        }
    }
    s.push_str("\nBrief:\n");
    for l in r.brief.to_text().lines() {
        s.push_str(&format!("  {l}\n"));
    }
    s.push_str(&format!("\n({} ms)\n", r.elapsed_ms));
    s
}
