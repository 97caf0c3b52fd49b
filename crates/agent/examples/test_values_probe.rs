//! Calibration probe for the test-values gate: judges one file change against test sources.
//!
//!     cargo run -p slopguard-agent --example test_values_probe -- PATH BEFORE AFTER TEST...
//!
//! PATH is the file's repository path (its extension picks the language), BEFORE and AFTER
//! the files holding its two versions, TEST the test files. Prints one line per finding and
//! exits 1 when the gate refuses the change. `scripts/bench/test-values-probe.py` runs it on
//! every corpus task's real fix (the original code against the seeded bug).

use std::sync::Arc;

use slopguard_agent::gates::test_values;
use slopguard_change::{ChangeSet, FileChange, MemTree};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        eprintln!("usage: test_values_probe PATH BEFORE AFTER TEST...");
        std::process::exit(2);
    }
    let read = |p: &str| {
        std::fs::read_to_string(p).unwrap_or_else(|e| {
            eprintln!("cannot read {p}: {e}");
            std::process::exit(2)
        })
    };
    let change = ChangeSet::new(
        Arc::new(MemTree::new(Default::default())),
        vec![FileChange::modify(
            args[0].as_str(),
            read(&args[1]),
            read(&args[2]),
        )],
        "probe",
    );
    let tests: Vec<String> = args[3..].iter().map(|p| read(p)).collect();
    let refs: Vec<&str> = tests.iter().map(String::as_str).collect();
    match test_values::check(&change, &refs) {
        Some(r) => {
            println!("{}", r.text());
            std::process::exit(1);
        }
        None => println!("ok"),
    }
}
