//! Trees: read-only views of a repository's files at one point (a directory on disk, a git
//! revision, or an in-memory map). Guards read the base of a change through [`Tree`].

use std::collections::{BTreeMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::ChangeError;
use crate::git::{GitRepo, Object, split_nul};

/// A read-only file tree. Paths are relative, `/`-separated.
pub trait Tree: Send + Sync {
    /// A stable identifier: a commit id, `worktree:<path>` or `memory`.
    fn id(&self) -> String;
    /// The content of a file, `None` when there is no such file.
    fn read(&self, path: &str) -> io::Result<Option<Vec<u8>>>;
    /// Every file path in the tree (tracked and untracked-but-not-ignored for working trees).
    fn files(&self) -> io::Result<Arc<[String]>>;
    /// Whether `path` is a file or a directory in the tree.
    fn exists(&self, path: &str) -> bool;
    /// Files whose content contains any of `words` as a whole word.
    fn grep_words(&self, words: &[String]) -> io::Result<Vec<String>>;
    /// The directory on disk, when the tree is one.
    fn root(&self) -> Option<&Path> {
        None
    }
}

/// Set of files plus every ancestor directory, for `exists` questions.
fn index_paths(files: &[String]) -> HashSet<String> {
    let mut set = HashSet::with_capacity(files.len() * 2);
    for f in files {
        let mut p = f.as_str();
        set.insert(p.to_string());
        while let Some((dir, _)) = p.rsplit_once('/') {
            if !set.insert(dir.to_string()) {
                break;
            }
            p = dir;
        }
    }
    set
}

fn normalize(path: &str) -> &str {
    path.trim_start_matches("./").trim_end_matches('/')
}

/// Whole-word search in memory, used by trees without git.
pub(crate) fn contains_word(haystack: &[u8], word: &str) -> bool {
    let w = word.as_bytes();
    if w.is_empty() {
        return false;
    }
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    memchr::memmem::find_iter(haystack, w).any(|i| {
        let before_ok = i == 0 || !is_word(haystack[i - 1]);
        let end = i + w.len();
        let after_ok = end >= haystack.len() || !is_word(haystack[end]);
        before_ok && after_ok
    })
}

/// An in-memory tree, for tests, fixtures and overlays.
#[derive(Debug, Clone, Default)]
pub struct MemTree {
    files: BTreeMap<String, Vec<u8>>,
    index: OnceLock<(Arc<[String]>, HashSet<String>)>,
}

impl MemTree {
    /// A tree holding `files`.
    pub fn new(files: BTreeMap<String, Vec<u8>>) -> MemTree {
        MemTree {
            files,
            index: OnceLock::new(),
        }
    }

    /// Loads every file under `dir` (recursively) into memory.
    pub fn from_dir(dir: &Path) -> io::Result<MemTree> {
        let mut files = BTreeMap::new();
        if dir.exists() {
            load_dir(dir, dir, &mut files)?;
        }
        Ok(MemTree::new(files))
    }

    fn index(&self) -> &(Arc<[String]>, HashSet<String>) {
        self.index.get_or_init(|| {
            let list: Vec<String> = self.files.keys().cloned().collect();
            let set = index_paths(&list);
            (list.into(), set)
        })
    }

    /// The files as a map.
    pub fn map(&self) -> &BTreeMap<String, Vec<u8>> {
        &self.files
    }
}

fn load_dir(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) -> io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            load_dir(root, &path, out)?;
        } else {
            let rel = path
                .strip_prefix(root)
                .map_err(io::Error::other)?
                .to_string_lossy()
                .replace('\\', "/");
            out.insert(rel, std::fs::read(&path)?);
        }
    }
    Ok(())
}

impl Tree for MemTree {
    fn id(&self) -> String {
        "memory".into()
    }
    fn read(&self, path: &str) -> io::Result<Option<Vec<u8>>> {
        Ok(self.files.get(normalize(path)).cloned())
    }
    fn files(&self) -> io::Result<Arc<[String]>> {
        Ok(self.index().0.clone())
    }
    fn exists(&self, path: &str) -> bool {
        let p = normalize(path);
        p.is_empty() || self.index().1.contains(p)
    }
    fn grep_words(&self, words: &[String]) -> io::Result<Vec<String>> {
        Ok(self
            .files
            .iter()
            .filter(|(_, c)| words.iter().any(|w| contains_word(c, w)))
            .map(|(p, _)| p.clone())
            .collect())
    }
}

/// A git revision, read through git without touching any working tree (works on bare repos).
#[derive(Debug)]
pub(crate) struct GitTree {
    repo: Arc<GitRepo>,
    commit: String,
    index: OnceLock<(Arc<[String]>, HashSet<String>)>,
}

impl GitTree {
    /// The tree of `commit` (a full commit id).
    pub(crate) fn new(repo: Arc<GitRepo>, commit: String) -> GitTree {
        GitTree {
            repo,
            commit,
            index: OnceLock::new(),
        }
    }

    fn index(&self) -> &(Arc<[String]>, HashSet<String>) {
        self.index.get_or_init(|| {
            let list = self.repo.list_files(&self.commit).unwrap_or_else(|| {
                self.repo
                    .run(&["ls-tree", "-r", "-z", "--name-only", &self.commit])
                    .map(|out| split_nul(&out))
                    .unwrap_or_default()
            });
            let set = index_paths(&list);
            (list.into(), set)
        })
    }
}

impl Tree for GitTree {
    fn id(&self) -> String {
        self.commit.clone()
    }
    fn read(&self, path: &str) -> io::Result<Option<Vec<u8>>> {
        let name = format!("{}:{}", self.commit, normalize(path));
        match self.repo.read_object(&name) {
            Ok(Object::Blob(b)) => Ok(Some(b)),
            Ok(_) => Ok(None),
            Err(e) => Err(io::Error::other(e.to_string())),
        }
    }
    fn files(&self) -> io::Result<Arc<[String]>> {
        Ok(self.index().0.clone())
    }
    fn exists(&self, path: &str) -> bool {
        let p = normalize(path);
        p.is_empty() || self.index().1.contains(p)
    }
    fn grep_words(&self, words: &[String]) -> io::Result<Vec<String>> {
        git_grep(&self.repo, words, Some(&self.commit))
    }
}

fn git_grep(repo: &GitRepo, words: &[String], rev: Option<&str>) -> io::Result<Vec<String>> {
    if words.is_empty() {
        return Ok(Vec::new());
    }
    let mut cmd = repo.command();
    cmd.args(["grep", "-l", "-z", "-w", "-F", "-I", "--no-color"]);
    if rev.is_none() {
        cmd.arg("--untracked");
    }
    for w in words {
        cmd.arg("-e").arg(w);
    }
    if let Some(rev) = rev {
        cmd.arg(rev);
    }
    cmd.arg("--");
    let out = cmd.output()?;
    // Exit 1 means "no match".
    if !out.status.success() && out.status.code() != Some(1) {
        return Err(io::Error::other(
            String::from_utf8_lossy(&out.stderr).trim().to_string(),
        ));
    }
    let prefix = rev.map(|r| format!("{r}:"));
    Ok(split_nul(&out.stdout)
        .into_iter()
        .map(|p| match &prefix {
            Some(pre) => p.strip_prefix(pre.as_str()).unwrap_or(&p).to_string(),
            None => p,
        })
        .collect())
}

/// A directory on disk. Inside a git work tree, listing and grep use git (respecting
/// .gitignore); elsewhere the directory is walked.
#[derive(Debug)]
pub struct WorkTree {
    root: PathBuf,
    repo: Option<Arc<GitRepo>>,
    index: OnceLock<(Arc<[String]>, HashSet<String>)>,
}

impl WorkTree {
    /// The directory `root`; uses git when `root` is the top of a work tree.
    pub fn new(root: impl Into<PathBuf>) -> WorkTree {
        let root = root.into();
        let repo = GitRepo::open(&root)
            .ok()
            .filter(|r| r.work_dir().is_some_and(|w| same_dir(w, &root)))
            .map(Arc::new);
        WorkTree {
            root,
            repo,
            index: OnceLock::new(),
        }
    }

    /// A work tree backed by an already opened repository.
    pub(crate) fn with_repo(repo: Arc<GitRepo>) -> Result<WorkTree, ChangeError> {
        let root = repo
            .work_dir()
            .ok_or_else(|| ChangeError::NotARepo(repo.git_dir().to_path_buf()))?
            .to_path_buf();
        Ok(WorkTree {
            root,
            repo: Some(repo),
            index: OnceLock::new(),
        })
    }

    fn index(&self) -> &(Arc<[String]>, HashSet<String>) {
        self.index.get_or_init(|| {
            let list = match &self.repo {
                Some(repo) => repo
                    .run(&[
                        "ls-files",
                        "-z",
                        "--cached",
                        "--others",
                        "--exclude-standard",
                    ])
                    .map(|out| split_nul(&out))
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|p| self.root.join(p).exists())
                    .collect(),
                None => {
                    let mut files = Vec::new();
                    walk(&self.root, &self.root, &mut files);
                    files
                }
            };
            let set = index_paths(&list);
            (list.into(), set)
        })
    }
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if name == ".git" || name == "target" || name == "node_modules" {
            continue;
        }
        let path = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() => walk(root, &path, out),
            Ok(_) => {
                if let Ok(rel) = path.strip_prefix(root) {
                    out.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
            Err(_) => {}
        }
    }
}

impl Tree for WorkTree {
    fn id(&self) -> String {
        format!("worktree:{}", self.root.display())
    }
    fn read(&self, path: &str) -> io::Result<Option<Vec<u8>>> {
        let p = normalize(path);
        if p.split('/').any(|c| c == "..") {
            return Ok(None);
        }
        match std::fs::read(self.root.join(p)) {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) if e.kind() == io::ErrorKind::IsADirectory => Ok(None),
            Err(e) => Err(e),
        }
    }
    fn files(&self) -> io::Result<Arc<[String]>> {
        Ok(self.index().0.clone())
    }
    fn exists(&self, path: &str) -> bool {
        let p = normalize(path);
        p.is_empty() || self.index().1.contains(p)
    }
    fn grep_words(&self, words: &[String]) -> io::Result<Vec<String>> {
        match &self.repo {
            Some(repo) => git_grep(repo, words, None),
            None => {
                let mut hits = Vec::new();
                for f in self.files()?.iter() {
                    if let Ok(Some(c)) = self.read(f)
                        && words.iter().any(|w| contains_word(&c, w))
                    {
                        hits.push(f.clone());
                    }
                }
                Ok(hits)
            }
        }
    }
    fn root(&self) -> Option<&Path> {
        Some(&self.root)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_boundaries() {
        assert!(contains_word(b"x = helper(1)", "helper"));
        assert!(!contains_word(b"x = helpers(1)", "helper"));
        assert!(!contains_word(b"my_helper()", "helper"));
        assert!(contains_word(b"helper", "helper"));
    }

    #[test]
    fn mem_tree_exists_covers_directories() {
        let mut m = BTreeMap::new();
        m.insert("docs/guide/a.md".to_string(), b"x".to_vec());
        let t = MemTree::new(m);
        assert!(t.exists("docs"));
        assert!(t.exists("docs/guide/"));
        assert!(t.exists("./docs/guide/a.md"));
        assert!(!t.exists("docs/guide/b.md"));
    }
}
