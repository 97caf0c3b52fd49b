//! Records the per-test coverage of a project and prints its most suspect lines (Ochiai):
//! `cargo run -p slopguard-toolchain --example coverage_probe -- DIR [N]`.

use std::time::{Duration, Instant};

use slopguard_toolchain::{RepoFiles, TestLimits, per_test_coverage};

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().expect("usage: coverage_probe DIR [N]");
    let n: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(15);
    let limits = TestLimits {
        suite: Duration::from_secs(300),
        per_test: Duration::from_secs(60),
    };
    let started = Instant::now();
    let Some(spectrum) = per_test_coverage(&RepoFiles::walk(dir.as_ref()), &limits) else {
        println!("no coverage ({:.1} s)", started.elapsed().as_secs_f64());
        return;
    };
    let failing = spectrum.tests.iter().filter(|t| !t.passed).count();
    println!(
        "{} tests, {failing} failing, {:.1} s",
        spectrum.tests.len(),
        started.elapsed().as_secs_f64()
    );
    let mut lines: Vec<_> = spectrum.suspicion().into_iter().collect();
    lines.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    for ((path, line), score) in lines.into_iter().take(n) {
        println!("{score:.3} {path}:{line}");
    }
}
