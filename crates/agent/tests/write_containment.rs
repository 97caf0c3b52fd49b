//! Containment of the worker's writes, as a property: whatever path a candidate names (`..`,
//! `.`, symlinks of the repository that stay inside, leave it, climb out, dangle or lead into
//! `.git`, case and Unicode variants, long names), `dynamic::write_change` either refuses it or
//! puts the bytes inside the worktree and outside `.git/`; its revert leaves the worktree as it
//! was. The oracle is the kernel: after each write, the files are looked up with `canonicalize`
//! and the directory outside the worktree must still be empty.
//!
//! The sandbox is a worktree and an "outside" directory seven levels down a temporary
//! directory; paths never climb more than six levels, so even a wrongly written file stays in
//! the temporary directory. `PROPTEST_CASES` sets how many paths are tried (256 by default).
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use proptest::prelude::*;
use slopguard_agent::dynamic::write_change;
use slopguard_change::{ChangeSet, FileChange, MemTree};

/// The worktree, its symlinks and the directory no write may reach.
struct Sandbox {
    _tmp: tempfile::TempDir,
    worktree: PathBuf,
    outside: PathBuf,
}

impl Sandbox {
    fn new() -> Sandbox {
        let tmp = tempfile::tempdir().unwrap();
        let universe = tmp
            .path()
            .canonicalize()
            .unwrap()
            .join("l1/l2/l3/l4/l5/l6/l7");
        let worktree = universe.join("worktree");
        let outside = universe.join("outside");
        std::fs::create_dir_all(worktree.join("sub")).unwrap();
        std::fs::create_dir_all(worktree.join(".git/hooks")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(worktree.join("sub/kept.py"), "x = 1\n").unwrap();
        let link = |target: &Path, name: &str| {
            std::os::unix::fs::symlink(target, worktree.join(name)).unwrap();
        };
        link(&outside, "link_out");
        link(Path::new("sub"), "link_in");
        link(Path::new(".."), "up_link");
        link(&outside.join("gone.py"), "dangle.py");
        link(&outside.join("newdir"), "dangle_dir");
        link(Path::new(".git"), "git_link");
        link(Path::new("sub/kept.py"), "kept_link.py");
        std::os::unix::fs::symlink("../..", worktree.join("sub/back")).unwrap();
        Sandbox {
            _tmp: tmp,
            worktree,
            outside,
        }
    }

    /// Everything under the outside directory (it must stay empty).
    fn outside_entries(&self) -> Vec<PathBuf> {
        walk(&self.outside).into_iter().map(|(p, _)| p).collect()
    }
}

/// One entry of a directory listing: its path and a file's bytes or a link's target.
type Entry = (PathBuf, Vec<u8>);

/// Every entry under `dir` (symlinks not followed), sorted.
fn walk(dir: &Path) -> Vec<Entry> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let content = if kind.is_symlink() {
            std::fs::read_link(&path)
                .map(|t| t.into_os_string().into_encoded_bytes())
                .unwrap_or_default()
        } else if kind.is_file() {
            std::fs::read(&path).unwrap_or_default()
        } else {
            Vec::new()
        };
        out.push((path.clone(), content));
        if kind.is_dir() {
            out.extend(walk(&path));
        }
    }
    out.sort();
    out
}

/// One component of a generated path.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("..".to_string()),
        Just(".".to_string()),
        Just("sub".to_string()),
        Just("link_out".to_string()),
        Just("link_in".to_string()),
        Just("up_link".to_string()),
        Just("back".to_string()),
        Just("dangle.py".to_string()),
        Just("dangle_dir".to_string()),
        Just("git_link".to_string()),
        Just("kept_link.py".to_string()),
        Just(".git".to_string()),
        Just(".GIT".to_string()),
        Just("hooks".to_string()),
        Just("worktree".to_string()),
        Just("outside".to_string()),
        Just("\u{e9}t\u{e9}.py".to_string()),
        Just("e\u{301}te\u{301}.py".to_string()),
        Just("x".repeat(250)),
        "[a-z]{1,6}(\\.py)?",
    ]
}

/// A path of one to six pieces, sometimes absolute.
fn generated_path() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(piece(), 1..=6),
        prop::bool::weighted(0.1),
    )
        .prop_map(|(pieces, absolute)| {
            let joined = pieces.join("/");
            if absolute {
                format!("/{joined}")
            } else {
                joined
            }
        })
}

/// The change a candidate would make to `path`: a new file, or an edit of a file that is there.
fn change_of(worktree: &Path, path: &str) -> FileChange {
    match std::fs::read(worktree.join(path)) {
        Ok(before) if !before.is_empty() => FileChange::modify(path, before, b"changed\n".to_vec()),
        _ => FileChange::create(path, b"written\n".to_vec()),
    }
}

/// Where the bytes of `path` landed, or `None` when nothing is there.
fn landed(worktree: &Path, path: &str) -> Option<PathBuf> {
    worktree.join(path).canonicalize().ok()
}

/// One sandbox for every generated case: each write is reverted (and checked to be reverted
/// exactly), so the next case finds the worktree as it was.
fn shared_sandbox() -> &'static (Sandbox, Vec<Entry>) {
    static SANDBOX: std::sync::OnceLock<(Sandbox, Vec<Entry>)> = std::sync::OnceLock::new();
    SANDBOX.get_or_init(|| {
        let sandbox = Sandbox::new();
        let files = walk(&sandbox.worktree);
        (sandbox, files)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn no_write_of_the_worker_lands_outside_the_worktree_or_in_git(path in generated_path()) {
        let (sandbox, before) = shared_sandbox();
        let worktree = sandbox.worktree.clone();
        let change = ChangeSet::new(
            Arc::new(MemTree::default()),
            vec![change_of(&worktree, &path)],
            "property",
        );
        if let Ok(written) = write_change(&worktree, &change) {
            let at = landed(&worktree, &path);
            prop_assert!(at.is_some(), "{path}: written, but not found");
            let at = at.unwrap();
            prop_assert!(at.starts_with(&worktree), "{path} landed at {}", at.display());
            prop_assert!(
                !at.strip_prefix(&worktree).unwrap().components().any(|c| c.as_os_str().eq_ignore_ascii_case(".git")),
                "{path} landed in .git: {}",
                at.display()
            );
            written.revert().unwrap();
        }
        // Refused or reverted, the worktree is as it was.
        let after = walk(&worktree);
        let changed: Vec<_> = after
            .iter()
            .filter(|e| !before.contains(e))
            .chain(before.iter().filter(|e| !after.contains(e)))
            .map(|(p, _)| p.display().to_string())
            .collect();
        prop_assert!(changed.is_empty(), "{path}: left behind or lost: {changed:?}");
        prop_assert!(
            sandbox.outside_entries().is_empty(),
            "{path}: wrote outside: {:?}",
            sandbox.outside_entries()
        );
    }
}

#[test]
fn symlinks_out_of_the_worktree_and_into_git_are_refused() {
    let sandbox = Sandbox::new();
    for path in [
        "link_out/evil.py",
        "dangle.py",
        "dangle_dir/x.py",
        "git_link/hooks/pre-commit",
        "sub/back/l7/outside/x.py",
        "up_link/outside/x.py",
    ] {
        let change = ChangeSet::new(
            Arc::new(MemTree::default()),
            vec![FileChange::create(path, b"x\n".to_vec())],
            "t",
        );
        let err = write_change(&sandbox.worktree, &change).err();
        assert!(err.is_some(), "{path} was written");
    }
    assert!(sandbox.outside_entries().is_empty());
    assert!(!sandbox.worktree.join(".git/hooks/pre-commit").exists());
    // A symlink that stays inside is written through, where the kernel puts it.
    let inside = ChangeSet::new(
        Arc::new(MemTree::default()),
        vec![FileChange::create("link_in/new.py", b"x\n".to_vec())],
        "t",
    );
    write_change(&sandbox.worktree, &inside).unwrap();
    assert!(sandbox.worktree.join("sub/new.py").exists());
}
