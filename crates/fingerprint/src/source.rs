//! Where the fingerprint reads files from: a directory on disk, an in-memory tree, or anything
//! else that implements [`FileSource`] (a git revision, an overlay of a change on a base tree).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};

/// A tree of files the fingerprint can be computed over.
///
/// Paths are relative to the tree's root, `/`-separated, without a leading `./`.
pub trait FileSource {
    /// Every file path of the tree (directories are implied by the paths).
    fn files(&self) -> Vec<String>;
    /// The bytes of one file, or `None` when it does not exist or cannot be read.
    fn read(&self, path: &str) -> Option<Vec<u8>>;
    /// A key identifying this exact tree content (a commit sha, a content hash), used to cache
    /// fingerprints. `None` (the default) disables caching for this source.
    fn cache_key(&self) -> Option<String> {
        None
    }
}

/// Directory names never descended into: dependency caches, build output, VCS metadata.
pub(crate) const SKIP_DIRS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    "node_modules",
    "target",
    ".venv",
    "venv",
    "__pycache__",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".slopguard",
    "bower_components",
    ".next",
    ".nuxt",
];

/// True when any directory component of `path` is in [`SKIP_DIRS`].
pub(crate) fn in_skipped_dir(path: &str) -> bool {
    let mut parts = path.split('/');
    parts.next_back();
    parts.any(|p| SKIP_DIRS.contains(&p))
}

/// A directory on disk, walked once (respecting `.gitignore`, `.ignore` and git's exclude
/// files; hidden files are included, `.git/` and [`SKIP_DIRS`] are not).
#[derive(Debug, Clone)]
pub struct DiskSource {
    root: PathBuf,
    /// (relative path, size, mtime in nanoseconds)
    entries: Vec<(String, u64, u128)>,
}

impl DiskSource {
    /// Walks `root`. Unreadable entries are skipped; a missing root is an error.
    pub fn new(root: &Path) -> std::io::Result<Self> {
        let meta = std::fs::metadata(root)?;
        if !meta.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                format!("{} is not a directory", root.display()),
            ));
        }
        let mut entries = Vec::new();
        let walker = ignore::WalkBuilder::new(root)
            .hidden(false)
            .git_global(false)
            .require_git(false)
            .parents(false)
            .filter_entry(|e| {
                !(e.file_type().is_some_and(|t| t.is_dir())
                    && e.file_name()
                        .to_str()
                        .is_some_and(|n| SKIP_DIRS.contains(&n)))
            })
            .build();
        for entry in walker.flatten() {
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            let Ok(rel) = entry.path().strip_prefix(root) else {
                continue;
            };
            let Some(rel) = rel.to_str() else { continue };
            let rel = rel.replace('\\', "/");
            let (size, mtime) = entry
                .metadata()
                .map(|m| {
                    let mt = m
                        .modified()
                        .ok()
                        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                        .map(|d| d.as_nanos())
                        .unwrap_or(0);
                    (m.len(), mt)
                })
                .unwrap_or((0, 0));
            entries.push((rel, size, mtime));
        }
        entries.sort();
        Ok(DiskSource {
            root: root.to_path_buf(),
            entries,
        })
    }

    /// The root directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The commit `HEAD` points at, read from `.git` without running git (loose refs and
    /// `packed-refs`; worktrees with a `.git` file are followed).
    pub fn head_commit(&self) -> Option<String> {
        read_head_commit(&self.root)
    }
}

impl FileSource for DiskSource {
    fn files(&self) -> Vec<String> {
        self.entries.iter().map(|(p, _, _)| p.clone()).collect()
    }

    fn read(&self, path: &str) -> Option<Vec<u8>> {
        if path.split('/').any(|c| c == ".." || c.is_empty()) {
            return None;
        }
        std::fs::read(self.root.join(path)).ok()
    }

    /// Hash of every path plus size and mtime of every manifest: cheap, and it changes whenever
    /// anything the fingerprint depends on changes.
    fn cache_key(&self) -> Option<String> {
        let mut h = FxHasher::default();
        self.root.hash(&mut h);
        for (p, size, mtime) in &self.entries {
            p.hash(&mut h);
            if crate::manifests::is_manifest(p) {
                size.hash(&mut h);
                mtime.hash(&mut h);
            }
        }
        Some(format!("disk:{:016x}", h.finish()))
    }
}

/// Reads the commit sha `HEAD` resolves to under `root/.git`.
fn read_head_commit(root: &Path) -> Option<String> {
    let mut git_dir = root.join(".git");
    if git_dir.is_file() {
        let text = std::fs::read_to_string(&git_dir).ok()?;
        let target = text.strip_prefix("gitdir:")?.trim();
        git_dir = root.join(target);
    }
    let head = std::fs::read_to_string(git_dir.join("HEAD")).ok()?;
    let head = head.trim();
    let Some(reference) = head.strip_prefix("ref:") else {
        return is_sha(head).then(|| head.to_string());
    };
    let reference = reference.trim();
    // Worktrees keep refs in the common dir.
    let common = std::fs::read_to_string(git_dir.join("commondir"))
        .ok()
        .map(|c| git_dir.join(c.trim()))
        .unwrap_or_else(|| git_dir.clone());
    for dir in [&git_dir, &common] {
        if let Ok(sha) = std::fs::read_to_string(dir.join(reference)) {
            let sha = sha.trim();
            if is_sha(sha) {
                return Some(sha.to_string());
            }
        }
    }
    let packed = std::fs::read_to_string(common.join("packed-refs")).ok()?;
    packed.lines().find_map(|line| {
        let (sha, name) = line.split_once(' ')?;
        (name.trim() == reference && is_sha(sha)).then(|| sha.to_string())
    })
}

fn is_sha(s: &str) -> bool {
    (s.len() == 40 || s.len() == 64) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// An in-memory tree: path -> bytes. Handy for tests and for overlays built by callers.
#[derive(Debug, Clone, Default)]
pub struct MemorySource {
    files: BTreeMap<String, Vec<u8>>,
    key: Option<String>,
}

impl MemorySource {
    /// An empty tree.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) one file.
    pub fn insert(&mut self, path: impl Into<String>, bytes: impl Into<Vec<u8>>) -> &mut Self {
        self.files.insert(path.into(), bytes.into());
        self
    }

    /// Builder form of [`MemorySource::insert`].
    pub fn with(mut self, path: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Self {
        self.insert(path, bytes);
        self
    }

    /// Sets the cache key (e.g. the commit sha this tree was read from).
    pub fn with_cache_key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl FileSource for MemorySource {
    fn files(&self) -> Vec<String> {
        self.files.keys().cloned().collect()
    }
    fn read(&self, path: &str) -> Option<Vec<u8>> {
        self.files.get(path).cloned()
    }
    fn cache_key(&self) -> Option<String> {
        self.key.clone()
    }
}

impl<T: FileSource + ?Sized> FileSource for &T {
    fn files(&self) -> Vec<String> {
        (**self).files()
    }
    fn read(&self, path: &str) -> Option<Vec<u8>> {
        (**self).read(path)
    }
    fn cache_key(&self) -> Option<String> {
        (**self).cache_key()
    }
}
