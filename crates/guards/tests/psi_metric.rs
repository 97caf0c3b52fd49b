//! Psi-lite is computed only when it is used: the gate is on, or `report = true` asks for the
//! `psi` metric.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use slopguard_change::{ChangeKind, ChangeSet, FileChange, MemTree, Tree};
use slopguard_guards::{Config, run_static};

fn readme_edit() -> ChangeSet {
    let before = b"# x\n\n```bash\ncargo build\n```\n".to_vec();
    // Three literal `\n` on one fenced line (Omega 0.5) and trailing whitespace (0.2).
    let after = b"# x  \n\n```bash  \ncargo build\\ncargo test\\ncargo run\\n  \n```\n".to_vec();
    let tree = Arc::new(MemTree::new(BTreeMap::from([(
        "README.md".to_string(),
        before.clone(),
    )])));
    let change = FileChange {
        path: "README.md".into(),
        kind: ChangeKind::Modify,
        before: Some(before),
        after: Some(after),
        after_is_symlink: false,
    };
    ChangeSet::new(tree as Arc<dyn Tree>, vec![change], "test")
}

fn run(config: &str) -> (Option<f64>, bool) {
    let config = Config::parse(config, Path::new("slopguard.toml")).expect("valid config");
    let report = run_static(&readme_edit(), None, &config);
    let blocked = report.findings.iter().any(|f| f.guard == "psi-lite");
    (report.metrics.get("psi").copied(), blocked)
}

#[test]
fn psi_is_computed_only_when_used() {
    assert_eq!(run(""), (None, false));
    let (psi, blocked) = run("[guards.psi-lite]\nreport = true\n");
    assert!(psi.is_some_and(|p| p < 0.5), "{psi:?}");
    assert!(!blocked);
    let (psi, blocked) = run("[guards.psi-lite]\nenabled = true\n");
    assert!(psi.is_some() && blocked);
}
