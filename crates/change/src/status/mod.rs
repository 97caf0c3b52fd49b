//! The working tree's and the index's changes against HEAD, read in-process: what `git diff
//! --raw -M HEAD` with `git ls-files --others --exclude-standard` (the working tree) and `git
//! diff --cached --raw -M HEAD` (the index) list, without starting either process. A check of
//! a working tree runs in front of an agent's every edit; the two processes were most of a
//! warm check's time.
//!
//! git decides a tracked file is unchanged the way git does: its `lstat` equals the index
//! entry's recorded one and the entry is not racily clean (modified in the same instant the
//! index was written); otherwise its content is hashed as a blob and compared, unless its size
//! already says it differs from the index's blob, which is HEAD's. HEAD's tree is read only
//! when the index's cache-tree does not say the index is that tree. Untracked files
//! are found by walking the work tree with the `ignore` crate's gitignore rules (`.gitignore`
//! files, `info/exclude`, the global excludes file), skipping `.git` and nested repositories
//! as git does.
//!
//! Everything here may decline, returning `None`, and the caller asks `git`, wherever an
//! in-process answer could differ from git's: content filters and line-ending conversion
//! (`.gitattributes`, `core.autocrlf`), an index with conflicts, intent-to-add,
//! skip-worktree or assume-unchanged entries, a sparse or split index, an fsmonitor, a
//! case-insensitive or mode-blind file system setting, a repository-level excludes file,
//! non-UTF-8 paths, a work tree whose `.git` is a file (linked worktrees, submodules), a path
//! in HEAD the index dropped, and, as for commits, a change that both adds and deletes files
//! (git may pair those as a rename by similarity).

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use gix::ObjectId;
use gix::index::entry::{Flags, Mode, Stat};
use gix::objs::tree::EntryMode;

use crate::odb::{ZERO_MODE, entries, join, mode_text};
use crate::sources::RawEntry;

mod walk_cache;

/// The tracked files the working tree changes against `head` (the empty tree when `None`), as
/// `git diff --raw -M` lists them (the "after" side is always read from disk: its id is the
/// null id), and the untracked, not ignored files, sorted as `git ls-files --others
/// --exclude-standard` prints them.
///
/// With a `cache_dir`, the walk's answer is kept there and reused while nothing it read has
/// changed ([`walk_cache`]).
pub(crate) fn worktree(
    repo: &gix::Repository,
    head: Option<ObjectId>,
    root: &Path,
    cache_dir: Option<&Path>,
) -> Option<(Vec<RawEntry>, Vec<String>)> {
    if !root.join(".git").is_dir() || !worktree_reads_as_is(repo) {
        return None;
    }
    // The walk for untracked files reads every directory; it runs on its own thread while
    // this one reads the index, HEAD's tree and the tracked files' stat data.
    std::thread::scope(|scope| {
        let walk = scope.spawn(|| {
            let excludes = default_excludes_path();
            match cache_dir {
                Some(dir) => walk_cache::unignored_files(root, excludes.as_deref(), dir),
                None => walk(root, excludes.as_deref().filter(|file| file.is_file())),
            }
        });
        let (out, tracked) = tracked_changes(repo, head, root)?;
        let untracked = untracked(walk.join().ok()??, &tracked);
        Some((out, untracked))
    })
}

/// The tracked files the working tree changes against `head` (see [`worktree`]), and every
/// path the index tracks.
fn tracked_changes(
    repo: &gix::Repository,
    head: Option<ObjectId>,
    root: &Path,
) -> Option<(Vec<RawEntry>, HashSet<String>)> {
    let index = readable_index(repo)?;
    // HEAD's files, unless the index is HEAD's tree: then each entry is HEAD's version.
    let head_files = match index_is_tree_of(&index, repo, head) {
        true => None,
        false => Some(files_of(repo, head)?),
    };
    let zero = ObjectId::null(repo.object_hash());
    let timestamp = index.timestamp();
    let strict = strict_stat();
    let mut tracked = HashSet::new();
    let mut out = Vec::new();
    for entry in index.entries() {
        let path = std::str::from_utf8(entry.path(&index)).ok()?;
        tracked.insert(path.to_string());
        if entry.mode.is_submodule() {
            continue;
        }
        let in_head = match &head_files {
            Some(files) => files.get(path).copied(),
            None => Some((entry.mode.to_tree_entry_mode()?, entry.id)),
        };
        let racy = entry.stat.is_racy(timestamp, strict);
        let as_in_head = in_head.is_some_and(|(mode, id)| {
            id == entry.id && entry.mode.to_tree_entry_mode() == Some(mode)
        });
        let Some(on_disk) = on_disk(repo, root, path, entry, racy, as_in_head) else {
            // Gone from disk (or a directory now): deleted, when HEAD has it.
            out.push(raw(path, Some(in_head?), None, 'D', zero));
            continue;
        };
        match in_head {
            None => out.push(raw(path, None, Some(on_disk.mode), 'A', zero)),
            Some((mode, id)) if id != on_disk.id || mode.value() != on_disk.mode.value() => {
                let status = if same_type(mode, on_disk.mode) {
                    'M'
                } else {
                    'T'
                };
                out.push(raw(
                    path,
                    Some((mode, id)),
                    Some(on_disk.mode),
                    status,
                    zero,
                ));
            }
            Some(_) => {}
        }
    }
    let dropped_from_head = head_files
        .as_ref()
        .is_some_and(|files| files.keys().any(|p| !tracked.contains(p.as_str())));
    if dropped_from_head || adds_and_deletes(&out) {
        return None;
    }
    Some((out, tracked))
}

/// Whether `index` holds exactly the tree of commit `head`, as its cache-tree extension says:
/// git keeps there the tree id of each directory whose entries have not changed since it was
/// last written (a commit, a checkout), and a valid root with HEAD's tree id means no file
/// is staged. Reading HEAD's whole tree to compare, entry by entry, was a tenth of a warm
/// check's status.
fn index_is_tree_of(
    index: &gix::index::File,
    repo: &gix::Repository,
    head: Option<ObjectId>,
) -> bool {
    let Some(cached) = index.tree().filter(|root| root.num_entries.is_some()) else {
        return false;
    };
    let head_tree = head.and_then(|commit| repo.find_commit(commit).ok()?.tree_id().ok());
    head_tree.is_some_and(|tree| tree.detach() == cached.id)
}

/// The files the index changes against `head` (the empty tree when `None`), as `git diff
/// --cached --raw -M` lists them.
pub(crate) fn staged(repo: &gix::Repository, head: Option<ObjectId>) -> Option<Vec<RawEntry>> {
    let index = readable_index(repo)?;
    let mut head_files = files_of(repo, head)?;
    let zero = ObjectId::null(repo.object_hash());
    let mut out = Vec::new();
    for entry in index.entries() {
        let path = std::str::from_utf8(entry.path(&index)).ok()?;
        let in_head = head_files.remove(path);
        let mode = entry.mode.to_tree_entry_mode()?;
        if entry.mode.is_submodule() {
            continue;
        }
        match in_head {
            None => out.push(raw(path, None, Some(mode), 'A', entry.id)),
            Some((old, id)) if id != entry.id || old.value() != mode.value() => {
                let status = if same_type(old, mode) { 'M' } else { 'T' };
                out.push(raw(path, Some((old, id)), Some(mode), status, entry.id));
            }
            Some(_) => {}
        }
    }
    for (path, (mode, id)) in head_files {
        if !mode.is_commit() {
            out.push(raw(&path, Some((mode, id)), None, 'D', zero));
        }
    }
    out.sort_by(|a, b| a.new_path.as_bytes().cmp(b.new_path.as_bytes()));
    (!adds_and_deletes(&out)).then_some(out)
}

/// The index, when every entry is one git reads plainly: no conflict stages, no
/// intent-to-add, skip-worktree or assume-unchanged entries, not sparse, not split.
fn readable_index(repo: &gix::Repository) -> Option<gix::index::File> {
    let index = repo.open_index().ok()?;
    if index.is_sparse() || index.link().is_some() {
        return None;
    }
    let odd = Flags::INTENT_TO_ADD | Flags::SKIP_WORKTREE | Flags::ASSUME_VALID;
    let plain = index
        .entries()
        .iter()
        .all(|e| e.stage_raw() == 0 && !e.flags.intersects(odd));
    let attributes = index
        .entries()
        .iter()
        .any(|e| e.path(&index).ends_with(b".gitattributes"));
    (plain && !attributes).then_some(index)
}

/// Whether the work tree's files are what git would hash: no line-ending conversion or
/// attribute files, file modes and symlinks trusted, case-sensitive, no fsmonitor, no
/// repository-level excludes file.
fn worktree_reads_as_is(repo: &gix::Repository) -> bool {
    let config = repo.config_snapshot();
    let autocrlf = config.string("core.autocrlf");
    let plain_eol = autocrlf.is_none() || config.boolean("core.autocrlf") == Some(false);
    let fsmonitor = config
        .string("core.fsmonitor")
        .is_some_and(|v| config.boolean("core.fsmonitor") != Some(false) && !v.is_empty());
    let attribute_files = repo.git_dir().join("info").join("attributes").exists()
        || config.string("core.attributesFile").is_some()
        || global_attributes_file().is_some_and(|p| p.exists());
    plain_eol
        && !fsmonitor
        && !attribute_files
        && config.boolean("core.filemode") != Some(false)
        && config.boolean("core.symlinks") != Some(false)
        && config.boolean("core.ignorecase") != Some(true)
        && config.string("core.excludesFile").is_none()
}

/// The attributes file git reads when `core.attributesFile` is not set.
fn global_attributes_file() -> Option<std::path::PathBuf> {
    let config_home = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".config")))?;
    Some(config_home.join("git").join("attributes"))
}

/// Every file of the tree of commit `head`, by path, with its mode and id.
fn files_of(
    repo: &gix::Repository,
    head: Option<ObjectId>,
) -> Option<BTreeMap<String, (EntryMode, ObjectId)>> {
    let mut files = BTreeMap::new();
    if let Some(commit) = head {
        let tree = repo.find_commit(commit).ok()?.tree_id().ok()?.detach();
        add_files(repo, tree, "", &mut files)?;
    }
    Some(files)
}

fn add_files(
    repo: &gix::Repository,
    tree: ObjectId,
    prefix: &str,
    files: &mut BTreeMap<String, (EntryMode, ObjectId)>,
) -> Option<()> {
    for entry in entries(repo, Some(tree))? {
        std::str::from_utf8(&entry.name).ok()?;
        let path = join(prefix, &entry.name);
        if entry.mode.is_tree() {
            add_files(repo, entry.id, &path, files)?;
        } else {
            files.insert(path, (entry.mode, entry.id));
        }
    }
    Some(())
}

/// A tracked file as it is on disk: its blob id and mode.
struct OnDisk {
    /// The blob id of its content; the null id when it is only known to differ from HEAD's.
    id: ObjectId,
    mode: EntryMode,
}

/// The file at `path` on disk, `None` when it is gone or is a directory. Its id is the index
/// entry's when its stat says it is unchanged since the index recorded it, else the hash of
/// its content (a symlink's: its target).
///
/// When the index entry is HEAD's version (`as_in_head`) and the file's size is not the one
/// the index recorded, the content differs from HEAD's without hashing it, as git decides
/// (`ie_match_stat`): the id is then the null id, which no blob of HEAD has. Hashing the
/// changed files was most of the stat pass of a warm check (SHA-1 with collision detection).
fn on_disk(
    repo: &gix::Repository,
    root: &Path,
    path: &str,
    entry: &gix::index::Entry,
    racy: bool,
    as_in_head: bool,
) -> Option<OnDisk> {
    let full = root.join(path);
    let meta = gix::index::fs::Metadata::from_path_no_follow(&full).ok()?;
    if meta.is_dir() {
        return None;
    }
    let mode = if meta.is_symlink() {
        Mode::SYMLINK
    } else if meta.is_executable() {
        Mode::FILE_EXECUTABLE
    } else {
        Mode::FILE
    };
    let tree_mode = mode.to_tree_entry_mode()?;
    let clean = !racy
        && mode == entry.mode
        && Stat::from_fs(&meta).is_ok_and(|s| entry.stat.matches(&s, strict_stat()));
    if clean {
        return Some(OnDisk {
            id: entry.id,
            mode: tree_mode,
        });
    }
    // The index keeps the size truncated to 32 bits: equal there may still differ, which
    // only costs a hash.
    if as_in_head && !meta.is_symlink() && entry.stat.size != meta.len() as u32 {
        return Some(OnDisk {
            id: ObjectId::null(entry.id.kind()),
            mode: tree_mode,
        });
    }
    let content = if meta.is_symlink() {
        std::fs::read_link(&full)
            .ok()?
            .into_os_string()
            .into_encoded_bytes()
    } else {
        std::fs::read(&full).ok()?
    };
    let id = gix::objs::compute_hash(repo.object_hash(), gix::objs::Kind::Blob, &content).ok()?;
    Some(OnDisk {
        id,
        mode: tree_mode,
    })
}

/// The strictest stat comparison git knows (nanoseconds, ctime, inode, device): a file it
/// calls unchanged is unchanged, and any doubt is settled by hashing the content.
fn strict_stat() -> gix::index::entry::stat::Options {
    gix::index::entry::stat::Options {
        trust_ctime: true,
        check_stat: true,
        use_nsec: true,
        use_stdev: true,
    }
}

/// What the walk of the work tree found that no gitignore rule excludes: the files, relative
/// to `root`, and the nested repositories it did not enter; `None` when a path is not UTF-8 or
/// the walk fails.
struct Unignored {
    files: Vec<String>,
    nested_repos: Vec<String>,
    /// The directories the walk read, relative to `root` (`""`: the root), for
    /// [`walk_cache`] (empty in an answer it reused).
    dirs: Vec<String>,
}

/// The global excludes file git reads when no configuration names one:
/// `$XDG_CONFIG_HOME/git/ignore`, else `~/.config/git/ignore`, whether or not it exists.
///
/// The status is read in-process only when no `core.excludesFile` is set at any level
/// ([`worktree_reads_as_is`]), so this is the one git reads. Naming it here spares the walk
/// the `ignore` crate's own search, which reads and scans every git configuration file again
/// (a tenth of a warm check's status).
fn default_excludes_path() -> Option<PathBuf> {
    let config_home = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from(std::env::var_os("HOME")?).join(".config")))?;
    Some(config_home.join("git").join("ignore"))
}

/// Walks the work tree under `root` with git's ignore rules (`excludes`: the global excludes
/// file, which exists), skipping `.git` and not entering nested repositories ([`Unignored`]).
fn walk(root: &Path, excludes: Option<&Path>) -> Option<Unignored> {
    // Nested repositories the walk did not enter (gitignore rules are applied before this
    // filter sees an entry, so an ignored one is not among them).
    let nested: Arc<Mutex<Vec<PathBuf>>> = Arc::default();
    let seen = nested.clone();
    let mut builder = ignore::WalkBuilder::new(root);
    // An explicit ignore file ranks where the global one would: below `.gitignore` files and
    // `info/exclude`.
    if let Some(file) = excludes
        && builder.add_ignore(file).is_some()
    {
        return None;
    }
    let walk = builder
        .standard_filters(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .require_git(false)
        .parents(false)
        .filter_entry(move |e| {
            let nested_repo = e.depth() > 0
                && e.file_type().is_some_and(|t| t.is_dir())
                && e.path().join(".git").exists();
            if nested_repo {
                seen.lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push(e.path().to_path_buf());
            }
            e.file_name() != ".git" && !nested_repo
        })
        .build();
    let relative = |path: &Path| Some(path.strip_prefix(root).ok()?.to_str()?.to_string());
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    for entry in walk {
        let entry = entry.ok()?;
        match entry.file_type() {
            Some(kind) if kind.is_dir() => dirs.push(relative(entry.path())?),
            Some(_) if entry.depth() > 0 => files.push(relative(entry.path())?),
            _ => {}
        }
    }
    let nested_repos = nested
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .iter()
        .map(|dir| relative(dir))
        .collect::<Option<Vec<_>>>()?;
    Some(Unignored {
        files,
        nested_repos,
        dirs,
    })
}

/// The untracked files among `found`, sorted, with a nested repository as its directory
/// (`vendor/lib/`) as `git ls-files --others --exclude-standard` lists it (a submodule's
/// directory is tracked).
fn untracked(found: Unignored, tracked: &HashSet<String>) -> Vec<String> {
    let files = found.files.into_iter().filter(|f| !tracked.contains(f));
    let repos = found
        .nested_repos
        .into_iter()
        .filter(|dir| !tracked.contains(dir))
        .map(|dir| format!("{dir}/"));
    let mut out: Vec<String> = files.chain(repos).collect();
    out.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    out
}

fn raw(
    path: &str,
    old: Option<(EntryMode, ObjectId)>,
    new_mode: Option<EntryMode>,
    status: char,
    new_oid: ObjectId,
) -> RawEntry {
    let zero = ObjectId::null(new_oid.kind());
    RawEntry {
        old_mode: old.map_or(ZERO_MODE.to_string(), |(m, _)| mode_text(m)),
        new_mode: new_mode.map_or(ZERO_MODE.to_string(), mode_text),
        old_oid: old.map_or(zero, |(_, id)| id).to_string(),
        new_oid: new_oid.to_string(),
        status,
        old_path: path.to_string(),
        new_path: path.to_string(),
    }
}

fn same_type(a: EntryMode, b: EntryMode) -> bool {
    a.is_link() == b.is_link() && a.is_commit() == b.is_commit()
}

/// Whether git could pair some of these as renames.
fn adds_and_deletes(entries: &[RawEntry]) -> bool {
    entries.iter().any(|e| e.status == 'A') && entries.iter().any(|e| e.status == 'D')
}

#[cfg(test)]
mod tests;
