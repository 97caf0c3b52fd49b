//! In-process reads of a repository through gitoxide: which commit a revision names, the
//! files a commit changes, blob contents and tree listings, without starting a `git` process
//! for each (three process starts were most of a one-file `check --commit`).
//!
//! Everything here is read-only and may decline, returning `None`: the caller then asks the
//! `git` command, which stays the authority wherever gitoxide would not answer exactly as git
//! does: a diff that may hold a rename (git pairs deleted and added files by similarity),
//! a revision syntax gitoxide does not parse, a commit in a legacy encoding, a repository it
//! does not fully trust (git refuses those unless `safe.directory` says otherwise).

use std::cmp::Ordering;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use gix::ObjectId;
use gix::objs::tree::{EntryKind, EntryMode};

use crate::git::Object;
use crate::sources::RawEntry;

/// The mode `git diff --raw` prints for a side that does not exist.
pub(crate) const ZERO_MODE: &str = "000000";
const OBJECT_CACHE_BYTES: usize = 4 << 20;

/// A repository opened by gitoxide for reads. One handle serves one thread at a time (the
/// object caches are per handle); replay opens one [`crate::git::GitRepo`] per worker.
pub(crate) struct Odb {
    repo: Mutex<gix::Repository>,
}

impl std::fmt::Debug for Odb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Odb")
    }
}

/// What [`Odb::discover`] found: the handle, the git directory and the work tree.
pub(crate) struct Opened {
    pub odb: Odb,
    pub git_dir: PathBuf,
    pub work_dir: Option<PathBuf>,
}

/// A commit as `git diff-tree --format=%H%x1f%P%x1f%B` describes it.
pub(crate) struct CommitInfo {
    pub id: String,
    pub first_parent: Option<String>,
    pub message: String,
}

impl Odb {
    /// The repository containing `path` as git finds it (`GIT_DIR`, `GIT_WORK_TREE` and the
    /// ceiling variables honoured), with absolute, symlink-free paths as `git rev-parse
    /// --absolute-git-dir --show-toplevel` prints them. `None` when gitoxide cannot open it or
    /// trusts it less than fully.
    pub(crate) fn discover(path: &Path) -> Option<Opened> {
        let repo = gix::ThreadSafeRepository::discover_with_environment_overrides(path).ok()?;
        let mut repo = repo.to_thread_local();
        if repo.git_dir_trust() != gix::sec::Trust::Full {
            return None;
        }
        // Trees are read again for every path looked up in a commit (the base files guards
        // read); decoded objects are kept up to this many bytes.
        repo.object_cache_size_if_unset(OBJECT_CACHE_BYTES);
        let git_dir = std::fs::canonicalize(repo.git_dir()).ok()?;
        let work_dir = match repo.workdir() {
            Some(dir) => Some(std::fs::canonicalize(dir).ok()?),
            None => None,
        };
        Some(Opened {
            odb: Odb {
                repo: Mutex::new(repo),
            },
            git_dir,
            work_dir,
        })
    }

    fn repo(&self) -> std::sync::MutexGuard<'_, gix::Repository> {
        self.repo.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The full id of the commit `rev` names (`None`: gitoxide could not say; ask git).
    pub(crate) fn resolve_commit(&self, rev: &str) -> Option<String> {
        commit_named(&self.repo(), rev).map(|id| id.to_string())
    }

    /// The commit `rev` names with its first parent and raw message (`None` for a commit with
    /// a legacy `encoding` header, which git re-encodes).
    pub(crate) fn commit(&self, rev: &str) -> Option<CommitInfo> {
        let repo = self.repo();
        let id = commit_named(&repo, rev)?;
        let commit = repo.find_commit(id).ok()?;
        let decoded = commit.decode().ok()?;
        if decoded.encoding.is_some() {
            return None;
        }
        Some(CommitInfo {
            id: id.to_string(),
            first_parent: decoded.parents().next().map(|p| p.to_string()),
            message: String::from_utf8_lossy(decoded.message).into_owned(),
        })
    }

    /// The files that differ between the trees of commits `from` (the empty tree when `None`)
    /// and `to`, as `git diff-tree -r -M --raw` lists them, in the same order. `None` when the
    /// diff both deletes and adds files: git may pair those as renames by similarity, which
    /// only git decides the way git does.
    pub(crate) fn diff_commits(&self, from: Option<&str>, to: &str) -> Option<Vec<RawEntry>> {
        let repo = self.repo();
        let old = match from {
            Some(commit) => Some(tree_of_commit(&repo, commit)?),
            None => None,
        };
        let new = tree_of_commit(&repo, to)?;
        let mut out = Vec::new();
        diff_trees(&repo, old, Some(new), "", &mut out)?;
        let adds = out.iter().any(|e| e.status == 'A');
        let deletes = out.iter().any(|e| e.status == 'D');
        (!(adds && deletes)).then_some(out)
    }

    /// Every file (blob, symlink, submodule) in the tree of `commit`, in git's order, as
    /// `git ls-tree -r --name-only` lists them.
    pub(crate) fn list_files(&self, commit: &str) -> Option<Vec<String>> {
        let repo = self.repo();
        let tree = tree_of_commit(&repo, commit)?;
        let mut out = Vec::new();
        diff_trees(&repo, None, Some(tree), "", &mut out)?;
        Some(out.into_iter().map(|e| e.new_path).collect())
    }

    /// The working tree's changes against commit `head`: tracked (as `git diff --raw -M`
    /// lists them) and untracked files (`None`: ask git; see [`crate::status`]). The walk
    /// for untracked files keeps its answer under `cache_dir` when one is given.
    pub(crate) fn worktree_changes(
        &self,
        head: Option<&str>,
        root: &Path,
        cache_dir: Option<&Path>,
    ) -> Option<(Vec<RawEntry>, Vec<String>)> {
        let head = head
            .map(|h| ObjectId::from_hex(h.as_bytes()))
            .transpose()
            .ok()?;
        crate::status::worktree(&self.repo(), head, root, cache_dir)
    }

    /// The index's changes against commit `head`, as `git diff --cached --raw -M` lists them
    /// (`None`: ask git).
    pub(crate) fn staged_changes(&self, head: Option<&str>) -> Option<Vec<RawEntry>> {
        let head = head
            .map(|h| ObjectId::from_hex(h.as_bytes()))
            .transpose()
            .ok()?;
        crate::status::staged(&self.repo(), head)
    }

    /// The object a blob id or `<commit>:<path>` names (`None`: gitoxide could not say).
    pub(crate) fn read(&self, name: &str) -> Option<Object> {
        let repo = self.repo();
        let id = match name.split_once(':') {
            None => ObjectId::from_hex(name.as_bytes()).ok()?,
            Some((commit, path)) => {
                let tree = repo.find_tree(tree_of_commit(&repo, commit)?).ok()?;
                match tree.lookup_entry_by_path(path).ok()? {
                    Some(entry) => entry.object_id(),
                    None => return Some(Object::Missing),
                }
            }
        };
        match repo.try_find_object(id).ok()? {
            None => Some(Object::Missing),
            Some(obj) if obj.kind == gix::objs::Kind::Blob => Some(Object::Blob(obj.detach().data)),
            Some(_) => Some(Object::NotABlob),
        }
    }
}

/// The commit a revision names (`rev^{commit}`, so tags are peeled).
fn commit_named(repo: &gix::Repository, rev: &str) -> Option<ObjectId> {
    let spec = format!("{rev}^{{commit}}");
    Some(repo.rev_parse_single(spec.as_str()).ok()?.detach())
}

/// The root tree of the commit with the full hex id `commit`.
fn tree_of_commit(repo: &gix::Repository, commit: &str) -> Option<ObjectId> {
    let id = ObjectId::from_hex(commit.as_bytes()).ok()?;
    Some(repo.find_commit(id).ok()?.tree_id().ok()?.detach())
}

/// One entry of a tree, owned (the tree's buffer is reused while walking).
pub(crate) struct Entry {
    pub(crate) name: Vec<u8>,
    pub(crate) mode: EntryMode,
    pub(crate) id: ObjectId,
}

/// The entries of `tree` (none for `None`), in git's tree order.
pub(crate) fn entries(repo: &gix::Repository, tree: Option<ObjectId>) -> Option<Vec<Entry>> {
    let Some(tree) = tree else {
        return Some(Vec::new());
    };
    let tree = repo.find_tree(tree).ok()?;
    let decoded = tree.decode().ok()?;
    Some(
        decoded
            .entries
            .iter()
            .map(|e| Entry {
                name: e.filename.to_vec(),
                mode: e.mode,
                id: e.oid.to_owned(),
            })
            .collect(),
    )
}

/// Appends the file-level differences between two trees under `prefix`, walking both sorted
/// entry lists in git's tree order and descending only into subtrees whose ids differ.
fn diff_trees(
    repo: &gix::Repository,
    old: Option<ObjectId>,
    new: Option<ObjectId>,
    prefix: &str,
    out: &mut Vec<RawEntry>,
) -> Option<()> {
    let (old, new) = (entries(repo, old)?, entries(repo, new)?);
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        let order = match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) => {
                gix::objs::tree::name_order(&a.name, a.mode.is_tree(), &b.name, b.mode.is_tree())
            }
            (Some(_), None) => Ordering::Less,
            _ => Ordering::Greater,
        };
        match order {
            Ordering::Less => {
                one_side(repo, &old[i], prefix, Side::Deleted, out)?;
                i += 1;
            }
            Ordering::Greater => {
                one_side(repo, &new[j], prefix, Side::Added, out)?;
                j += 1;
            }
            Ordering::Equal => {
                let (a, b) = (&old[i], &new[j]);
                if a.mode.is_tree() {
                    if a.id != b.id {
                        let sub = join(prefix, &a.name);
                        diff_trees(repo, Some(a.id), Some(b.id), &sub, out)?;
                    }
                } else if a.id != b.id || a.mode != b.mode {
                    let path = join(prefix, &a.name);
                    let status = if file_type(a.mode) == file_type(b.mode) {
                        'M'
                    } else {
                        'T'
                    };
                    out.push(RawEntry {
                        old_mode: mode_text(a.mode),
                        new_mode: mode_text(b.mode),
                        old_oid: a.id.to_string(),
                        new_oid: b.id.to_string(),
                        status,
                        old_path: path.clone(),
                        new_path: path,
                    });
                }
                i += 1;
                j += 1;
            }
        }
    }
    Some(())
}

#[derive(Clone, Copy)]
enum Side {
    Deleted,
    Added,
}

/// An entry on one side only: a file added or deleted, or every file under a tree.
fn one_side(
    repo: &gix::Repository,
    entry: &Entry,
    prefix: &str,
    side: Side,
    out: &mut Vec<RawEntry>,
) -> Option<()> {
    let path = join(prefix, &entry.name);
    if entry.mode.is_tree() {
        return match side {
            Side::Deleted => diff_trees(repo, Some(entry.id), None, &path, out),
            Side::Added => diff_trees(repo, None, Some(entry.id), &path, out),
        };
    }
    let zero = ObjectId::null(entry.id.kind()).to_string();
    let (mode, id) = (mode_text(entry.mode), entry.id.to_string());
    out.push(match side {
        Side::Deleted => RawEntry {
            old_mode: mode,
            new_mode: ZERO_MODE.to_string(),
            old_oid: id,
            new_oid: zero,
            status: 'D',
            old_path: path.clone(),
            new_path: path,
        },
        Side::Added => RawEntry {
            old_mode: ZERO_MODE.to_string(),
            new_mode: mode,
            old_oid: zero,
            new_oid: id,
            status: 'A',
            old_path: path.clone(),
            new_path: path,
        },
    });
    Some(())
}

/// git's type of a tree entry (a change of type is a `T`, not an `M`; the executable bit is
/// not a type).
fn file_type(mode: EntryMode) -> u8 {
    match mode.kind() {
        EntryKind::Tree => 0,
        EntryKind::Blob | EntryKind::BlobExecutable => 1,
        EntryKind::Link => 2,
        EntryKind::Commit => 3,
    }
}

/// The mode as `git diff --raw` prints it (`100644`, `120000`, `160000`).
pub(crate) fn mode_text(mode: EntryMode) -> String {
    format!("{:06o}", mode.value())
}

/// `prefix/name`, or `name` at the top.
pub(crate) fn join(prefix: &str, name: &[u8]) -> String {
    let name = String::from_utf8_lossy(name);
    if prefix.is_empty() {
        name.into_owned()
    } else {
        format!("{prefix}/{name}")
    }
}
