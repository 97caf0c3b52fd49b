//! A repository's files as the toolchains see them: [`RepoFiles`] (a walk of the working tree,
//! skipping build and dependency directories) and [`FileView`], the read access the
//! test-to-source maps need, so they work on an in-memory tree too ([`MemoryView`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The repository's files, relative, with `/` separators.
#[derive(Debug, Clone, Default)]
pub struct RepoFiles {
    /// The root.
    pub root: PathBuf,
    /// Relative paths of regular files, sorted.
    pub files: Vec<String>,
}

/// Directories never walked: version control, build output, dependencies, caches, editors and
/// slopguard's own run directory.
const SKIP_DIRS: &[&str] = &[
    ".git",
    "target",
    "node_modules",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    "dist",
    "build",
    "vendor",
    ".slopguard",
    ".idea",
    ".vscode",
    ".bundle",
];

/// Most files walked.
const MAX_FILES: usize = 20_000;

/// Largest file [`RepoFiles::read`] reads.
const MAX_READ_BYTES: u64 = 1024 * 1024;

impl RepoFiles {
    /// Walks `root` (skipping build and dependency directories).
    pub fn walk(root: &Path) -> Self {
        let mut files = Vec::new();
        let mut stack = vec![PathBuf::new()];
        while let Some(rel) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(root.join(&rel)) else {
                continue;
            };
            for entry in rd.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                let Ok(ft) = entry.file_type() else { continue };
                let child = rel.join(&name);
                if ft.is_dir() {
                    if !SKIP_DIRS.contains(&name.as_str()) && !name.starts_with(".venv") {
                        stack.push(child);
                    }
                } else if ft.is_file() && files.len() < MAX_FILES {
                    files.push(child.to_string_lossy().replace('\\', "/"));
                }
            }
        }
        files.sort();
        Self {
            root: root.to_path_buf(),
            files,
        }
    }

    /// Whether a file exists at `rel`.
    pub fn has(&self, rel: &str) -> bool {
        self.files.binary_search_by(|f| f.as_str().cmp(rel)).is_ok()
    }

    /// Reads a file (at most 1 MiB), lossy.
    pub fn read(&self, rel: &str) -> Option<String> {
        let p = self.root.join(rel);
        let meta = std::fs::metadata(&p).ok()?;
        if meta.len() > MAX_READ_BYTES {
            return None;
        }
        std::fs::read(&p)
            .ok()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    }

    /// Files whose name ends with one of `suffixes`.
    pub fn with_suffix<'a>(&'a self, suffixes: &'a [&str]) -> impl Iterator<Item = &'a String> {
        self.files
            .iter()
            .filter(move |f| suffixes.iter().any(|s| f.ends_with(s)))
    }
}

/// Read access to a repository's files, so the test-to-source maps are testable on an
/// in-memory tree.
pub trait FileView {
    /// Every file, relative with `/`, sorted.
    fn list(&self) -> Vec<String>;
    /// Whether `path` exists.
    fn exists(&self, path: &str) -> bool;
    /// Contents of `path`.
    fn read(&self, path: &str) -> Option<String>;
}

impl FileView for RepoFiles {
    fn list(&self) -> Vec<String> {
        self.files.clone()
    }
    fn exists(&self, path: &str) -> bool {
        self.has(path)
    }
    fn read(&self, path: &str) -> Option<String> {
        RepoFiles::read(self, path)
    }
}

/// An in-memory tree (path -> contents).
#[derive(Debug, Clone, Default)]
pub struct MemoryView(pub BTreeMap<String, String>);

impl MemoryView {
    /// Builds a view from `(path, contents)` pairs.
    pub fn from_pairs(pairs: &[(&str, &str)]) -> Self {
        Self(
            pairs
                .iter()
                .map(|(p, c)| (p.to_string(), c.to_string()))
                .collect(),
        )
    }
}

impl FileView for MemoryView {
    fn list(&self) -> Vec<String> {
        self.0.keys().cloned().collect()
    }
    fn exists(&self, path: &str) -> bool {
        self.0.contains_key(path)
    }
    fn read(&self, path: &str) -> Option<String> {
        self.0.get(path).cloned()
    }
}

/// The directory part of a relative path (`""` at the root).
pub fn parent(p: &str) -> &str {
    p.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

/// The file name of a relative path.
pub fn file_name(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

/// The extension of a path's file name (`""` when none).
pub fn extension(p: &str) -> &str {
    file_name(p).rsplit_once('.').map(|(_, e)| e).unwrap_or("")
}

/// `rel` resolved against `dir`, lexically (`..` above the root is `None`).
pub fn join(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = if dir.is_empty() {
        Vec::new()
    } else {
        dir.split('/').collect()
    };
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}
