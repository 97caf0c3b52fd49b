//! The SARIF output validates against the SARIF 2.1.0 schema, and the JSON output keeps its
//! documented shape.

use std::collections::BTreeMap;
use std::sync::Arc;

use slopguard_change::{ChangeSet, FileChange, MemTree, Task, Tree};
use slopguard_guards::output::{to_json, to_sarif};
use slopguard_guards::{Config, registry, run_static};

fn blocked_report() -> slopguard_guards::Report {
    let mut files = BTreeMap::new();
    files.insert(
        "src/db.py".to_string(),
        b"def a():\n    return 1\n\n\ndef b():\n    return a()\n".to_vec(),
    );
    let base: Arc<dyn Tree> = Arc::new(MemTree::new(files));
    let change = ChangeSet::new(
        base,
        vec![
            FileChange::modify(
                "src/db.py",
                b"def a():\n    return 1\n\n\ndef b():\n    return a()\n".to_vec(),
                b"def b(:\n".to_vec(),
            ),
            FileChange::create("../x", b"x".to_vec()),
            FileChange::create("Cargo.toml", b"[package]\n".to_vec()),
        ],
        "test",
    );
    let task = Task::from_text("fix b in src/db.py");
    run_static(&change, Some(&task), &Config::default())
}

#[test]
fn sarif_validates_against_schema() {
    let report = blocked_report();
    assert!(report.findings.len() >= 3, "{:?}", report.findings);
    let sarif: serde_json::Value = serde_json::from_str(&to_sarif(&report)).unwrap();
    // The published schema's `run.language` pattern has a stray `]` that Rust's regex engine
    // (rightly) rejects; it constrains a field slopguard never writes.
    let schema_text = include_str!("sarif-2.1.0.schema.json").replace(
        "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$",
        "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$",
    );
    let schema: serde_json::Value = serde_json::from_str(&schema_text).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&sarif)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "SARIF invalid:\n{}", errors.join("\n"));
    let run = &sarif["runs"][0];
    assert_eq!(
        run["tool"]["driver"]["rules"].as_array().unwrap().len(),
        registry().len()
    );
    assert_eq!(
        run["results"].as_array().unwrap().len(),
        report.findings.len()
    );
    let first = &run["results"][0];
    assert_eq!(first["level"], "error");
    let idx = first["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(run["tool"]["driver"]["rules"][idx]["id"], first["ruleId"]);
}

#[test]
fn json_schema_fields_are_stable() {
    let report = blocked_report();
    let v: serde_json::Value = serde_json::from_str(&to_json(&report)).unwrap();
    for key in [
        "schema_version",
        "verdict",
        "source",
        "files",
        "findings",
        "guards",
        "metrics",
        "elapsed_ms",
    ] {
        assert!(v.get(key).is_some(), "missing `{key}`");
    }
    assert_eq!(v["verdict"], "block");
    for f in v["findings"].as_array().unwrap() {
        for key in [
            "guard", "code", "severity", "path", "line", "column", "message", "feedback",
        ] {
            assert!(f.get(key).is_some(), "finding missing `{key}`: {f}");
        }
    }
    assert_eq!(v["guards"].as_array().unwrap().len(), registry().len());
}
