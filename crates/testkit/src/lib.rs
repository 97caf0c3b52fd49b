//! What the integration tests of several crates share, so each does not write it again: `git`
//! in a test repository ([`git`]), a tree's files as bytes to compare before and after a run
//! ([`snapshot`]), a fixture copied without its build outputs ([`copy_dir`]), and a test that
//! skips itself, saying so, when a toolchain it needs is missing ([`python_missing`]).
//!
//! A dev-dependency only: panics are the point (a test helper that fails says why and stops
//! the test), so the workspace's `unwrap`/`expect` lints are allowed here.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a failure stops the test with its message"
)]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// The identity of the commits a test makes with [`git`].
pub const TEST_IDENTITY: (&str, &str) = ("t", "t@example.com");

/// Runs `git -C dir args...` and returns its stdout; panics with git's stderr when it fails.
/// Commits get [`TEST_IDENTITY`] and no signature, and a new repository's branch is `main`,
/// whatever the machine's git configuration says (the system file is not read), so a test
/// runs the same on a fresh machine.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let (name, email) = TEST_IDENTITY;
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", name)
        .env("GIT_AUTHOR_EMAIL", email)
        .env("GIT_COMMITTER_NAME", name)
        .env("GIT_COMMITTER_EMAIL", email)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// [`git`] with its stdout trimmed: what a test compares with a commit id or a one-line answer.
pub fn git_trimmed(dir: &Path, args: &[&str]) -> String {
    git(dir, args).trim().to_string()
}

/// Every file under `root` with its bytes, by `/`-separated relative path, except `.git/`
/// and `.slopguard/` (slopguard's git-ignored data directory) at the top; a symbolic link as
/// its target's path. What a test compares to prove a run left a tree as it was.
pub fn snapshot(root: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).expect("read_dir") {
            let entry = entry.expect("entry");
            let path = entry.path();
            let rel = path
                .strip_prefix(root)
                .expect("under root")
                .to_string_lossy()
                .replace('\\', "/");
            if rel == ".git" || rel == ".slopguard" {
                continue;
            }
            let kind = entry.file_type().expect("file type");
            if kind.is_dir() {
                walk(root, &path, out);
            } else if kind.is_symlink() {
                let target = std::fs::read_link(&path).expect("read_link");
                out.insert(rel, target.to_string_lossy().as_bytes().to_vec());
            } else {
                out.insert(rel, std::fs::read(&path).expect("read"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// Build outputs a fixture copy leaves behind ([`copy_dir`]).
pub const BUILD_OUTPUTS: &[&str] = &["target", "node_modules", "__pycache__"];

/// Copies the tree `from` to `to`, leaving out every file or directory named in `skip` (at
/// any depth; [`BUILD_OUTPUTS`] for a fixture's build outputs).
pub fn copy_dir(from: &Path, to: &Path, skip: &[&str]) {
    std::fs::create_dir_all(to).expect("create_dir_all");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let name = entry.file_name();
        if skip.iter().any(|s| name == *s) {
            continue;
        }
        let dst = to.join(&name);
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &dst, skip);
        } else {
            std::fs::copy(entry.path(), dst).expect("copy");
        }
    }
}

/// True, and says so on stderr, when `python3` is not installed: a test whose repository's
/// tests run with Python returns early instead of failing for a reason that is not its own.
pub fn python_missing() -> bool {
    let missing = Command::new("python3").arg("--version").output().is_err();
    if missing {
        eprintln!("python3 missing; skipped");
    }
    missing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_leaves_out_what_it_is_told_and_a_snapshot_leaves_out_git_data() {
        let from = std::env::temp_dir().join(format!("testkit-from-{}", std::process::id()));
        let to = std::env::temp_dir().join(format!("testkit-to-{}", std::process::id()));
        for d in ["src", "target/debug", ".slopguard", "node_modules/x"] {
            std::fs::create_dir_all(from.join(d)).unwrap();
        }
        std::fs::write(from.join("src/a.py"), "a = 1\n").unwrap();
        std::fs::write(from.join("target/debug/bin"), "x").unwrap();
        std::fs::write(from.join(".slopguard/state.json"), "{}").unwrap();
        std::fs::write(from.join("node_modules/x/i.js"), "1").unwrap();
        copy_dir(&from, &to, BUILD_OUTPUTS);
        let copied = snapshot(&to);
        let paths: Vec<&str> = copied.keys().map(String::as_str).collect();
        assert_eq!(paths, ["src/a.py"]);
        assert_eq!(copied["src/a.py"], b"a = 1\n");
        std::fs::remove_dir_all(&from).unwrap();
        std::fs::remove_dir_all(&to).unwrap();
    }
}
