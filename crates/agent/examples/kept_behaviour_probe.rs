//! Calibration probe for the kept-behaviour gate: records each test's lines in two trees of
//! one project (before and after a fix) and names the tests that passed before and run other
//! lines after.
//!
//!     cargo run -p slopguard-agent --example kept_behaviour_probe -- BEFORE AFTER FILE...
//!
//! BEFORE and AFTER are the two trees (the buggy one and the fixed one), FILE the repository
//! paths the fix changed. Prints one JSON object: `recorded` (both trees could be recorded),
//! `tests`, `passing_before`, and `shifted` (the refusal's lines). Exits 1 when the gate would
//! refuse the fix. `scripts/bench/kept-behaviour-probe.py` runs it on every corpus task's real
//! fix (the original code against the seeded bug).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use slopguard_agent::gates::kept_behaviour;
use slopguard_change::{ChangeSet, FileChange, MemTree};
use slopguard_toolchain::{RepoFiles, TestLimits};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: kept_behaviour_probe BEFORE AFTER FILE...");
        std::process::exit(2);
    }
    let (before_dir, after_dir) = (Path::new(&args[0]), Path::new(&args[1]));
    let read = |dir: &Path, f: &str| {
        std::fs::read(dir.join(f)).unwrap_or_else(|e| {
            eprintln!("cannot read {}: {e}", dir.join(f).display());
            std::process::exit(2)
        })
    };
    let changes = args[2..]
        .iter()
        .map(|f| FileChange::modify(f.as_str(), read(before_dir, f), read(after_dir, f)))
        .collect();
    let change = ChangeSet::new(Arc::new(MemTree::new(Default::default())), changes, "probe");
    let limits = TestLimits::with_suite(Duration::from_secs(300));
    let record =
        |dir: &Path| slopguard_toolchain::per_test_coverage(&RepoFiles::walk(dir), &limits);
    let Some(before) = record(before_dir) else {
        println!("{}", serde_json::json!({"recorded": false}));
        return;
    };
    // Whether the fixed tree's first recording worked (a second one is made only to confirm
    // a shift).
    let mut recorded_after: Option<bool> = None;
    let shifted = kept_behaviour::confirmed_shifts(&before, &change.changes, || {
        let after = record(after_dir);
        recorded_after.get_or_insert(after.is_some());
        after
    });
    let recorded_after = recorded_after.unwrap_or(false);
    if !recorded_after {
        println!("{}", serde_json::json!({"recorded": false}));
        return;
    }
    let refusal = kept_behaviour::refusal(&shifted);
    println!(
        "{}",
        serde_json::json!({
            "recorded": true,
            "tests": before.tests.len(),
            "passing_before": before.tests.iter().filter(|t| t.passed).count(),
            "shifted": refusal.as_ref().map(|r| r.text()),
        })
    );
    if refusal.is_some() {
        std::process::exit(1);
    }
}
