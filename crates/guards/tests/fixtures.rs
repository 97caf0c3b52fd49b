//! Fixture-driven guard tests, one directory per case:
//!
//! ```text
//! tests/fixtures/<guard-slug>/<case>/
//!     before/          the base tree (may be absent: empty repository)
//!     after/           the tree after the change   — or —
//!     patches.json     an LLM patch list applied to before/
//!     task.toml        optional task (title, description, file_hints, allowed_manifests, compile_fix)
//!     message.txt      optional commit message as the task (`replay --task-from-message`)
//!     slopguard.toml   optional configuration
//! ```
//!
//! `fail_*` cases must make the guard block, `warn_*` cases must make it warn without
//! blocking, `pass_*` cases must keep it silent. The guard's findings for every case are
//! snapshotted (`tests/snapshots/`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use slopguard_change::{ChangeKind, ChangeSet, FileChange, MemTree, Task, Tree};
use slopguard_guards::{Config, Severity, find_guard, run_static};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn load_case(dir: &Path) -> (ChangeSet, Option<Task>, Config) {
    let before = Arc::new(MemTree::from_dir(&dir.join("before")).expect("read before/"));
    let change = if dir.join("patches.json").exists() {
        let text = std::fs::read_to_string(dir.join("patches.json")).expect("read patches.json");
        let list = slopguard_change::parse_patches(&text).expect("valid patches.json");
        slopguard_change::from_patch_list(before, &list).expect("patches apply")
    } else {
        let after = MemTree::from_dir(&dir.join("after")).expect("read after/");
        let mut paths: BTreeSet<String> = before.map().keys().cloned().collect();
        paths.extend(after.map().keys().cloned());
        let mut changes = Vec::new();
        for p in paths {
            let b = before.map().get(&p).cloned();
            let a = after.map().get(&p).cloned();
            let kind = match (&b, &a) {
                (None, Some(_)) => ChangeKind::Create,
                (Some(_), None) => ChangeKind::Delete,
                (Some(x), Some(y)) if x == y => continue,
                _ => ChangeKind::Modify,
            };
            changes.push(FileChange {
                path: p,
                kind,
                before: b,
                after: a,
                after_is_symlink: false,
            });
        }
        ChangeSet::new(before as Arc<dyn Tree>, changes, "fixture")
    };
    // `task.toml`: an agent's task; `message.txt`: a commit's message as the task
    // (`replay --task-from-message`).
    let task = if dir.join("message.txt").exists() {
        let message = std::fs::read_to_string(dir.join("message.txt")).expect("read message.txt");
        Some(Task::from_commit_message(&message))
    } else {
        dir.join("task.toml")
            .exists()
            .then(|| Task::from_file(&dir.join("task.toml")).expect("valid task.toml"))
    };
    let config = if dir.join("slopguard.toml").exists() {
        Config::load(&dir.join("slopguard.toml")).expect("valid slopguard.toml")
    } else {
        Config::default()
    };
    (change, task, config)
}

#[test]
fn every_guard_fixture() {
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut guard_dirs: Vec<_> = std::fs::read_dir(fixtures_root())
        .expect("fixtures dir")
        .flatten()
        .collect();
    guard_dirs.sort_by_key(|e| e.file_name());
    for guard_dir in guard_dirs {
        let slug = guard_dir.file_name().to_string_lossy().into_owned();
        let guard =
            find_guard(&slug).unwrap_or_else(|| panic!("fixtures for unknown guard `{slug}`"));
        let mut cases: Vec<_> = std::fs::read_dir(guard_dir.path())
            .expect("guard dir")
            .flatten()
            .collect();
        cases.sort_by_key(|e| e.file_name());
        for case in cases {
            let name = case.file_name().to_string_lossy().into_owned();
            let (change, task, mut config) = load_case(&case.path());
            // The guard under test always runs, even when off by default.
            config.set_enabled(guard.info().slug, true);
            let report = run_static(&change, task.as_ref(), &config);
            let mine: Vec<_> = report
                .findings
                .iter()
                .filter(|f| f.guard == guard.info().slug)
                .collect();
            let blocks = mine.iter().any(|f| f.severity == Severity::Block);
            let ok = match name.split('_').next() {
                Some("fail") => blocks,
                Some("warn") => !mine.is_empty() && !blocks,
                Some("pass") => mine.is_empty(),
                _ => panic!("case `{slug}/{name}` must start with fail_, warn_ or pass_"),
            };
            if !ok {
                failures.push(format!("{slug}/{name}: {:#?}", mine));
            }
            let snap: Vec<_> = mine
                .iter()
                .map(|f| serde_json::json!({
                    "severity": f.severity, "path": f.path, "line": f.line, "message": f.message,
                }))
                .collect();
            insta::with_settings!({snapshot_suffix => format!("{slug}__{name}"), prepend_module_to_snapshot => false}, {
                insta::assert_json_snapshot!("fixture", snap);
            });
            checked += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "fixtures that did not behave:\n{}",
        failures.join("\n")
    );
    assert!(checked >= 20, "only {checked} fixture cases found");
}
