//! A cheap hash of the working tree's current state, so evidence can be tied to the exact tree
//! it ran on.
//!
//! One `git status --porcelain=v2 -z --branch --untracked-files=all` gives the HEAD commit and
//! every changed, staged or untracked (not ignored) path; the hash covers the HEAD id, each
//! status entry and the bytes of each dirty file as it is on disk. Two trees with the same HEAD
//! and the same dirty contents hash the same, and any edit to a tracked or untracked file
//! changes the hash. Nothing is written to `.git` (unlike `git add -A` into a temporary index,
//! which stores blobs for every call). Ignored files (e.g. `target/`) do not count.

use std::path::Path;
use std::process::Command;

use sha2::{Digest, Sha256};

/// Files larger than this are hashed by size and modification time instead of contents.
const MAX_HASHED_BYTES: u64 = 8 << 20;

/// Why the tree could not be hashed.
#[derive(Debug, thiserror::Error)]
pub enum TreeError {
    /// git could not be run.
    #[error("cannot run git: {0}")]
    Spawn(#[from] std::io::Error),
    /// git failed (for instance: not a repository).
    #[error("git status failed: {0}")]
    Git(String),
}

/// The repository root containing `dir`, or `None` outside a git work tree.
pub fn repo_root(dir: &Path) -> Option<std::path::PathBuf> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["rev-parse", "--show-toplevel"])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?;
    let s = s.trim_end_matches(['\n', '\r']);
    (!s.is_empty()).then(|| std::path::PathBuf::from(s))
}

/// Hashes the working tree of the repository at `root` (hex SHA-256).
pub fn tree_hash(root: &Path) -> Result<String, TreeError> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args([
            "-c",
            "core.quotepath=off",
            "status",
            "--porcelain=v2",
            "-z",
            "--branch",
            "--untracked-files=all",
            "--no-renames",
        ])
        .env("GIT_OPTIONAL_LOCKS", "0")
        .output()?;
    if !out.status.success() {
        return Err(TreeError::Git(
            String::from_utf8_lossy(&out.stderr).trim().to_string(),
        ));
    }
    Ok(hash_status(root, &out.stdout))
}

fn hash_status(root: &Path, status: &[u8]) -> String {
    let mut h = Sha256::new();
    let mut fields = status.split(|b| *b == 0).filter(|f| !f.is_empty());
    while let Some(entry) = fields.next() {
        let text = String::from_utf8_lossy(entry);
        let path = if let Some(oid) = text.strip_prefix("# branch.oid ") {
            h.update(b"head\0");
            h.update(oid.as_bytes());
            h.update(b"\0");
            continue;
        } else if text.starts_with("# ") {
            continue;
        } else if let Some(p) = text.strip_prefix("? ") {
            Some(p.to_string())
        } else if text.starts_with("1 ") {
            text.splitn(9, ' ').nth(8).map(str::to_string)
        } else if text.starts_with("2 ") {
            // Renames carry the original path as the next field.
            let _ = fields.next();
            text.splitn(10, ' ').nth(9).map(str::to_string)
        } else if text.starts_with("u ") {
            text.splitn(11, ' ').nth(10).map(str::to_string)
        } else {
            None
        };
        h.update(entry);
        h.update(b"\0");
        if let Some(path) = path {
            hash_file(&mut h, &root.join(&path));
        }
    }
    let digest = h.finalize();
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

fn hash_file(h: &mut Sha256, path: &Path) {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() && meta.len() <= MAX_HASHED_BYTES => match std::fs::read(path) {
            Ok(bytes) => {
                h.update(b"content\0");
                h.update((bytes.len() as u64).to_le_bytes());
                h.update(&bytes);
            }
            Err(_) => h.update(b"unreadable\0"),
        },
        Ok(meta) => {
            h.update(b"meta\0");
            h.update(meta.len().to_le_bytes());
            if let Ok(m) = meta.modified()
                && let Ok(d) = m.duration_since(std::time::UNIX_EPOCH)
            {
                h.update(d.as_nanos().to_le_bytes());
            }
        }
        Err(_) => h.update(b"missing\0"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        let ok = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@t")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@t")
            .status()
            .unwrap()
            .success();
        assert!(ok, "git {args:?}");
    }

    #[test]
    fn hash_follows_contents_not_time() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        git(d, &["init", "-q"]);
        std::fs::write(d.join("a.txt"), "one\n").unwrap();
        git(d, &["add", "."]);
        git(d, &["commit", "-qm", "init"]);
        let clean = tree_hash(d).unwrap();
        assert_eq!(clean, tree_hash(d).unwrap(), "stable");
        std::fs::write(d.join("a.txt"), "two\n").unwrap();
        let dirty = tree_hash(d).unwrap();
        assert_ne!(clean, dirty);
        std::fs::write(d.join("a.txt"), "three\n").unwrap();
        assert_ne!(
            dirty,
            tree_hash(d).unwrap(),
            "content of a dirty file counts"
        );
        std::fs::write(d.join("a.txt"), "one\n").unwrap();
        assert_eq!(clean, tree_hash(d).unwrap(), "back to the same tree");
        std::fs::write(d.join("new file.txt"), "x").unwrap();
        assert_ne!(clean, tree_hash(d).unwrap(), "untracked files count");
        std::fs::write(d.join(".gitignore"), "new file.txt\n").unwrap();
        let ignored = tree_hash(d).unwrap();
        std::fs::write(d.join("new file.txt"), "y").unwrap();
        assert_eq!(ignored, tree_hash(d).unwrap(), "ignored files do not count");
        assert_eq!(
            repo_root(&d.join(".")).map(|p| p.canonicalize().unwrap()),
            Some(d.canonicalize().unwrap())
        );
    }

    #[test]
    fn outside_git_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(tree_hash(dir.path()).is_err());
        assert!(repo_root(dir.path()).is_none());
    }
}
