//! Lists the repair templates for a file (one-token fixes, then statement insertions, best
//! first), and the definitions the worker sees in it.
//!
//!     cargo run -p slopguard-agent --example template_probe -- [--json] FILE [START END]
//!
//! Without a range every line of the file is tried. For looking at what the template phase
//! would offer on a real file; `--json` prints one object per fix (line, operator, before,
//! after) for scripts such as `scripts/bench/template-coverage.py`.

use slopguard_worker::{context, templates};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.first().is_some_and(|a| a == "--json");
    if json {
        args.remove(0);
    }
    let Some(path) = args.first() else {
        eprintln!("usage: template_probe [--json] FILE [START END]");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(2);
        }
    };
    if !json {
        for d in context::definitions(path, &text) {
            println!(
                "definition {} lines {}-{}",
                d.name, d.start_line, d.end_line
            );
        }
    }
    let range = match (args.get(1), args.get(2)) {
        (Some(a), Some(b)) => (a.parse().unwrap_or(1), b.parse().unwrap_or(usize::MAX)),
        _ => (1, text.lines().count()),
    };
    let places = templates::Places::regions(&[range]);
    let fixes = templates::fixes(path, &text, &places, 10_000);
    // As many insertions as the run tries (its MAX_INSERTIONS), best first.
    let insertions = templates::insertions(path, &text, &places, 16);
    for f in fixes.into_iter().chain(insertions) {
        if json {
            let line = serde_json::json!({
                "line": f.line, "operator": f.operator.name(), "before": f.before, "after": f.after,
            });
            println!("{line}");
        } else {
            println!(
                "{}:{} {} {}",
                f.path,
                f.line,
                f.operator.name(),
                f.describe()
            );
        }
    }
}
