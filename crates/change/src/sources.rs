//! Builders of [`ChangeSet`]s from every source slopguard accepts.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use crate::git::{GitRepo, Object, split_nul};
use crate::patches::{LlmPatchList, PatchAction};
use crate::tree::{GitTree, MemTree, Tree, WorkTree};
use crate::unified;
use crate::{ChangeError, ChangeKind, ChangeSet, EditBlock, FileChange, apply_edit_traced};

/// git's well-known empty tree, the base of a repository without commits.
const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const ZERO_OID: &str = "0000000000000000000000000000000000000000";

/// One entry of `git diff --raw -z`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawEntry {
    pub old_mode: String,
    pub new_mode: String,
    pub old_oid: String,
    pub new_oid: String,
    pub status: char,
    pub old_path: String,
    pub new_path: String,
}

fn parse_raw(out: &[u8]) -> Vec<RawEntry> {
    let tokens = split_nul(out);
    let mut entries = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let meta = &tokens[i];
        let Some(meta) = meta.strip_prefix(':') else {
            i += 1;
            continue;
        };
        let f: Vec<&str> = meta.split(' ').collect();
        if f.len() < 5 {
            i += 1;
            continue;
        }
        let status = f[4].chars().next().unwrap_or('M');
        let two_paths = matches!(status, 'R' | 'C');
        let old_path = tokens.get(i + 1).cloned().unwrap_or_default();
        let new_path = if two_paths {
            tokens.get(i + 2).cloned().unwrap_or_default()
        } else {
            old_path.clone()
        };
        entries.push(RawEntry {
            old_mode: f[0].to_string(),
            new_mode: f[1].to_string(),
            old_oid: f[2].to_string(),
            new_oid: f[3].to_string(),
            status,
            old_path,
            new_path,
        });
        i += if two_paths { 3 } else { 2 };
    }
    entries
}

fn read_blob(repo: &GitRepo, oid: &str) -> Result<Option<Vec<u8>>, ChangeError> {
    if oid == ZERO_OID {
        return Ok(None);
    }
    match repo.read_object(oid)? {
        Object::Blob(b) => Ok(Some(b)),
        _ => Ok(None),
    }
}

/// Where the "after" side of raw entries is read from.
enum AfterSource<'a> {
    /// Blob ids in the repository (commits, the index).
    Blobs,
    /// Files on disk under this directory (the working tree).
    Disk(&'a Path),
}

fn read_disk(root: &Path, rel: &str) -> Result<(Option<Vec<u8>>, bool), ChangeError> {
    let path = root.join(rel);
    match std::fs::symlink_metadata(&path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            let target = std::fs::read_link(&path).map_err(|e| ChangeError::io(&path, e))?;
            Ok((
                Some(target.to_string_lossy().into_owned().into_bytes()),
                true,
            ))
        }
        Ok(meta) if meta.is_dir() => Ok((None, false)),
        Ok(_) => std::fs::read(&path)
            .map(|b| (Some(b), false))
            .map_err(|e| ChangeError::io(&path, e)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((None, false)),
        Err(e) => Err(ChangeError::io(&path, e)),
    }
}

fn changes_from_raw(
    repo: &GitRepo,
    entries: Vec<RawEntry>,
    after: AfterSource<'_>,
) -> Result<Vec<FileChange>, ChangeError> {
    let mut changes = Vec::with_capacity(entries.len());
    for e in entries {
        // Submodule entries (mode 160000) have no content to judge.
        if e.new_mode == "160000" || e.old_mode == "160000" {
            continue;
        }
        let before = if e.status == 'A' {
            None
        } else {
            read_blob(repo, &e.old_oid)?
        };
        let (after_bytes, is_link) = match e.status {
            'D' => (None, false),
            _ => match &after {
                AfterSource::Blobs => (read_blob(repo, &e.new_oid)?, e.new_mode == "120000"),
                AfterSource::Disk(root) => {
                    if e.new_oid != ZERO_OID {
                        (read_blob(repo, &e.new_oid)?, e.new_mode == "120000")
                    } else {
                        read_disk(root, &e.new_path)?
                    }
                }
            },
        };
        let kind = match e.status {
            'A' | 'C' => ChangeKind::Create,
            'D' => ChangeKind::Delete,
            'R' => ChangeKind::Rename { from: e.old_path },
            _ => ChangeKind::Modify,
        };
        // A worktree entry whose file vanished is a delete.
        let kind = if after_bytes.is_none() && kind != ChangeKind::Delete {
            ChangeKind::Delete
        } else {
            kind
        };
        changes.push(FileChange {
            path: e.new_path,
            kind,
            before: if e.status == 'C' { None } else { before },
            after: after_bytes,
            after_is_symlink: is_link,
        });
    }
    Ok(changes)
}

fn head_or_empty(repo: &GitRepo) -> Option<String> {
    repo.resolve_commit("HEAD").ok()
}

fn base_tree(repo: &Arc<GitRepo>, commit: Option<&str>) -> Arc<dyn Tree> {
    match commit {
        Some(c) => Arc::new(GitTree::new(repo.clone(), c.to_string())),
        None => Arc::new(MemTree::default()),
    }
}

/// The working tree (tracked changes and untracked, not ignored files) against HEAD.
pub fn from_worktree(repo_path: &Path) -> Result<ChangeSet, ChangeError> {
    from_worktree_paths(repo_path, &[])
}

/// Like [`from_worktree`], keeping the walk for untracked files under `cache_dir` (see
/// [`crate::cache_dir`]) and reusing it while nothing the walk read has changed: for checks
/// run again and again on the same work tree.
pub fn from_worktree_cached(
    repo_path: &Path,
    cache_dir: Option<&Path>,
) -> Result<ChangeSet, ChangeError> {
    worktree_change(repo_path, &[], cache_dir)
}

/// Like [`from_worktree`], limited to `paths` (all paths when empty).
pub fn from_worktree_paths(repo_path: &Path, paths: &[String]) -> Result<ChangeSet, ChangeError> {
    worktree_change(repo_path, paths, None)
}

fn worktree_change(
    repo_path: &Path,
    paths: &[String],
    cache_dir: Option<&Path>,
) -> Result<ChangeSet, ChangeError> {
    let repo = Arc::new(GitRepo::open(repo_path)?);
    let root = repo
        .work_dir()
        .ok_or_else(|| {
            ChangeError::InvalidPatch(format!(
                "{} is a bare repository: it has no working tree (use --commit REV)",
                repo_path.display()
            ))
        })?
        .to_path_buf();
    let head = head_or_empty(&repo);
    let in_process = paths
        .is_empty()
        .then(|| repo.worktree_changes(head.as_deref(), cache_dir))
        .flatten();
    let (raw, untracked) = match in_process {
        Some(found) => found,
        None => worktree_changes_with_git(&repo, head.as_deref(), paths)?,
    };
    let mut changes = changes_from_raw(&repo, raw, AfterSource::Disk(&root))?;
    for path in untracked {
        let (after, is_link) = read_disk(&root, &path)?;
        if let Some(after) = after {
            changes.push(FileChange {
                path,
                kind: ChangeKind::Create,
                before: None,
                after: Some(after),
                after_is_symlink: is_link,
            });
        }
    }
    Ok(ChangeSet::new(
        base_tree(&repo, head.as_deref()),
        changes,
        "working tree",
    ))
}

/// The working tree's changes against `head`, limited to `paths` (all when empty), as `git
/// diff --raw -M` and `git ls-files --others --exclude-standard` list them.
pub(crate) fn worktree_changes_with_git(
    repo: &GitRepo,
    head: Option<&str>,
    paths: &[String],
) -> Result<(Vec<RawEntry>, Vec<String>), ChangeError> {
    let against = head.unwrap_or(EMPTY_TREE);
    let mut args = vec![
        "diff",
        "--raw",
        "-z",
        "-M",
        "--no-abbrev",
        "--no-ext-diff",
        against,
        "--",
    ];
    args.extend(paths.iter().map(String::as_str));
    let raw = parse_raw(&repo.run(&args)?);
    let mut args = vec!["ls-files", "-z", "--others", "--exclude-standard", "--"];
    args.extend(paths.iter().map(String::as_str));
    let untracked = split_nul(&repo.run(&args)?);
    Ok((raw, untracked))
}

/// The index (staged changes) against HEAD.
pub fn from_staged(repo_path: &Path) -> Result<ChangeSet, ChangeError> {
    let repo = Arc::new(GitRepo::open(repo_path)?);
    let head = head_or_empty(&repo);
    let raw = match repo.staged_changes(head.as_deref()) {
        Some(raw) => raw,
        None => staged_changes_with_git(&repo, head.as_deref())?,
    };
    let changes = changes_from_raw(&repo, raw, AfterSource::Blobs)?;
    Ok(ChangeSet::new(
        base_tree(&repo, head.as_deref()),
        changes,
        "staged changes",
    ))
}

/// The index's changes against `head`, as `git diff --cached --raw -M` lists them.
pub(crate) fn staged_changes_with_git(
    repo: &GitRepo,
    head: Option<&str>,
) -> Result<Vec<RawEntry>, ChangeError> {
    let raw = repo.run(&[
        "diff",
        "--cached",
        "--raw",
        "-z",
        "-M",
        "--no-abbrev",
        "--no-ext-diff",
        head.unwrap_or(EMPTY_TREE),
        "--",
    ])?;
    Ok(parse_raw(&raw))
}

/// A commit against its first parent (against the empty tree for a root commit).
pub fn from_commit(repo_path: &Path, rev: &str) -> Result<ChangeSet, ChangeError> {
    let repo = Arc::new(GitRepo::open(repo_path)?);
    from_commit_in(&repo, rev)
}

/// A commit against its first parent, reading through an already opened repository (replay
/// opens one per worker thread so blob reads do not contend).
pub fn from_commit_in(repo: &Arc<GitRepo>, rev: &str) -> Result<ChangeSet, ChangeError> {
    if rev.starts_with('-') || rev.is_empty() {
        return Err(ChangeError::UnknownRevision(rev.to_string()));
    }
    // In-process when gitoxide answers as git would (no possible rename, see `crate::odb`).
    if let Some(info) = repo.commit_info(rev)
        && let Some(raw) = repo.diff_commits(info.first_parent.as_deref(), &info.id)
    {
        let changes = changes_from_raw(repo, raw, AfterSource::Blobs)?;
        let message = Some(info.message.trim().to_string());
        return Ok(commit_change(
            repo,
            &info.id,
            info.first_parent.as_deref(),
            message,
            changes,
        ));
    }
    // One git call for id, parents, message and the changed files: the commit against its
    // first parent (the empty tree for a root commit).
    let spec = format!("{rev}^{{commit}}");
    if let Ok(out) = repo.run(&[
        "diff-tree",
        "-r",
        "-z",
        "-M",
        "--raw",
        "--no-abbrev",
        "--root",
        "--diff-merges=first-parent",
        "--format=%H%x1f%P%x1f%B",
        &spec,
        "--",
    ]) {
        // The header (format output) ends at the first NUL; the raw entries follow.
        let (header, raw) = match out.iter().position(|b| *b == 0) {
            Some(i) => (&out[..i], &out[i + 1..]),
            None => (&out[..], &[][..]),
        };
        let raw = &raw[raw.iter().take_while(|b| **b == b'\n').count()..];
        let header = String::from_utf8_lossy(header);
        let (commit, parent, message) = commit_header(&header);
        if !commit.is_empty() {
            let changes = changes_from_raw(repo, parse_raw(raw), AfterSource::Blobs)?;
            return Ok(commit_change(
                repo,
                &commit,
                parent.as_deref(),
                message,
                changes,
            ));
        }
    }
    // A git without `--diff-merges` (before 2.31) or an unknown revision: id, parents and
    // message first (an unknown revision is reported as such), then the diff.
    let out = repo
        .run(&[
            "log",
            "-1",
            "--no-walk",
            "--format=%H%x1f%P%x1f%B",
            &spec,
            "--",
        ])
        .map_err(|_| ChangeError::UnknownRevision(rev.to_string()))?;
    let text = String::from_utf8_lossy(&out);
    let (commit, parent, message) = commit_header(&text);
    if commit.is_empty() {
        return Err(ChangeError::UnknownRevision(rev.to_string()));
    }
    from_commit_parts(repo, &commit, parent.as_deref(), message)
}

/// Splits `%H%x1f%P%x1f%B` into the commit id, its first parent and the trimmed message.
fn commit_header(text: &str) -> (String, Option<String>, Option<String>) {
    let mut fields = text.splitn(3, '\x1f');
    let commit = fields.next().unwrap_or("").trim().to_string();
    let parent = fields
        .next()
        .and_then(|p| p.split_whitespace().next())
        .map(str::to_string);
    let message = fields.next().map(|m| m.trim().to_string());
    (commit, parent, message)
}

/// The change set of `commit` against `parent`, from its already read file changes.
fn commit_change(
    repo: &Arc<GitRepo>,
    commit: &str,
    parent: Option<&str>,
    message: Option<String>,
    changes: Vec<FileChange>,
) -> ChangeSet {
    let mut set = ChangeSet::new(
        base_tree(repo, parent),
        changes,
        format!("commit {}", &commit[..commit.len().min(12)]),
    );
    set.message = message;
    set
}

/// A commit whose id, first parent and message the caller already knows (from one `git log`
/// over a range): costs a single `git diff-tree` plus blob reads.
pub fn from_commit_parts(
    repo: &Arc<GitRepo>,
    commit: &str,
    parent: Option<&str>,
    message: Option<String>,
) -> Result<ChangeSet, ChangeError> {
    if let Some(raw) = repo.diff_commits(parent, commit) {
        let changes = changes_from_raw(repo, raw, AfterSource::Blobs)?;
        return Ok(commit_change(repo, commit, parent, message, changes));
    }
    let from = parent.unwrap_or(EMPTY_TREE);
    let raw = repo.run(&[
        "diff-tree",
        "-r",
        "-z",
        "-M",
        "--raw",
        "--no-abbrev",
        from,
        commit,
    ])?;
    let changes = changes_from_raw(repo, parse_raw(&raw), AfterSource::Blobs)?;
    Ok(commit_change(repo, commit, parent, message, changes))
}

/// The base tree for a patch or diff: `base` revision if given, else the working tree when
/// there is one, else HEAD.
fn patch_base(repo_path: &Path, base: Option<&str>) -> Result<Arc<dyn Tree>, ChangeError> {
    let repo = Arc::new(GitRepo::open(repo_path)?);
    match base {
        Some(rev) => {
            let commit = repo.resolve_commit(rev)?;
            Ok(Arc::new(GitTree::new(repo, commit)))
        }
        None if repo.work_dir().is_some() => Ok(Arc::new(WorkTree::with_repo(repo)?)),
        None => {
            let commit = repo.resolve_commit("HEAD")?;
            Ok(Arc::new(GitTree::new(repo, commit)))
        }
    }
}

fn read_base(base: &dyn Tree, path: &str) -> Result<Option<Vec<u8>>, ChangeError> {
    base.read(path).map_err(|e| ChangeError::io(path, e))
}

/// A unified or git diff applied in memory to `base` (default: the working tree, or HEAD for
/// a bare repository).
pub fn from_diff(
    repo_path: &Path,
    diff: &str,
    base: Option<&str>,
) -> Result<ChangeSet, ChangeError> {
    let tree = patch_base(repo_path, base)?;
    let files = unified::parse(diff)?;
    if files.is_empty() {
        // An empty diff (a `git diff` of a clean tree, a truncated reply) would otherwise
        // "pass" while nothing was judged.
        let what = if diff.trim().is_empty() {
            "the diff is empty"
        } else {
            "no file patch found"
        };
        return Err(ChangeError::InvalidPatch(format!(
            "{what}: expected a unified diff (`--- a/PATH` and `+++ b/PATH` headers followed by \
             `@@` hunks) or `git diff` output"
        )));
    }
    let mut changes = Vec::new();
    for fp in files {
        let path = fp
            .new_path
            .clone()
            .or_else(|| fp.old_path.clone())
            .unwrap_or_default();
        let before = match &fp.old_path {
            Some(old) => {
                Some(
                    read_base(tree.as_ref(), old)?.ok_or_else(|| ChangeError::HunkFailed {
                        path: old.clone(),
                        hunk: 0,
                        reason: format!("the file does not exist in the base ({})", tree.id()),
                    })?,
                )
            }
            None => None,
        };
        if fp.binary {
            return Err(ChangeError::InvalidPatch(format!(
                "{path}: binary patches carry no content to judge; check binary files with --commit or --worktree"
            )));
        }
        let before_text = match &before {
            Some(b) => Some(
                String::from_utf8(b.clone()).map_err(|_| ChangeError::HunkFailed {
                    path: path.clone(),
                    hunk: 0,
                    reason: "the base file is not UTF-8 text".into(),
                })?,
            ),
            None => None,
        };
        let kind = match (&fp.old_path, &fp.new_path) {
            (None, _) => ChangeKind::Create,
            (_, None) => ChangeKind::Delete,
            (Some(o), Some(n)) if o != n => ChangeKind::Rename { from: o.clone() },
            _ => ChangeKind::Modify,
        };
        let after = match kind {
            ChangeKind::Delete => None,
            _ if fp.hunks.is_empty() => before.clone(),
            _ => Some(unified::apply(&path, before_text.as_deref(), &fp)?.into_bytes()),
        };
        changes.push(FileChange {
            path,
            kind,
            before,
            after,
            after_is_symlink: false,
        });
    }
    Ok(ChangeSet::new(tree, changes, "diff"))
}

/// The LLM JSON patch list applied to `base`.
pub fn from_patch_list(base: Arc<dyn Tree>, list: &LlmPatchList) -> Result<ChangeSet, ChangeError> {
    from_patch_list_traced(base, list).map(|(set, _)| set)
}

/// How one patch of a list was applied: the matcher that placed each search/replace edit
/// (`None` for an append), nothing for whole-file content and deletions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppliedEdit {
    /// The file.
    pub path: String,
    /// The matcher of the chain that placed the edit's search text.
    pub matcher: Option<crate::matcher::Matcher>,
}

/// [`from_patch_list`], also saying which matcher applied each search/replace edit.
pub fn from_patch_list_traced(
    base: Arc<dyn Tree>,
    list: &LlmPatchList,
) -> Result<(ChangeSet, Vec<AppliedEdit>), ChangeError> {
    let mut applied = Vec::new();
    let mut current: BTreeMap<String, Option<Vec<u8>>> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    for p in &list.patches {
        let path = p.path.trim_start_matches("./").to_string();
        if !current.contains_key(&path) {
            current.insert(path.clone(), read_base(base.as_ref(), &path)?);
            order.push(path.clone());
        }
        let now = current.get(&path).cloned().flatten();
        let next = match p.action {
            PatchAction::Delete => None,
            PatchAction::Create | PatchAction::Modify => match (&p.content, now) {
                (Some(content), _) => Some(content.clone().into_bytes()),
                (None, Some(existing)) => {
                    let mut text =
                        String::from_utf8(existing).map_err(|_| ChangeError::EditFailed {
                            path: path.clone(),
                            reason: "file is not UTF-8 text; search/replace edits need text".into(),
                        })?;
                    for e in p.all_edits() {
                        let (next, matcher) =
                            apply_edit_traced(&path, &text, &e.search, &e.replace)?;
                        text = next;
                        applied.push(AppliedEdit {
                            path: path.clone(),
                            matcher,
                        });
                    }
                    Some(text.into_bytes())
                }
                (None, None) => {
                    return Err(ChangeError::EditFailed {
                        path,
                        reason: "search/replace edits on a file that does not exist; send `content` to create it".into(),
                    });
                }
            },
        };
        current.insert(path, next);
    }
    let mut changes = Vec::new();
    for path in order {
        let before = read_base(base.as_ref(), &path)?;
        let after = current.remove(&path).flatten();
        let kind = match (&before, &after) {
            (None, None) => continue,
            (None, Some(_)) => ChangeKind::Create,
            (Some(_), None) => ChangeKind::Delete,
            (Some(b), Some(a)) if a == b => continue,
            (Some(_), Some(_)) => ChangeKind::Modify,
        };
        changes.push(FileChange {
            path,
            kind,
            before,
            after,
            after_is_symlink: false,
        });
    }
    let mut set = ChangeSet::new(base, changes, "patches");
    set.message = list.commit_message.clone();
    Ok((set, applied))
}

/// Search/replace edit blocks applied to `base`.
pub fn from_edit_blocks(
    base: Arc<dyn Tree>,
    blocks: &[EditBlock],
) -> Result<ChangeSet, ChangeError> {
    let list = LlmPatchList {
        commit_message: None,
        patches: blocks
            .iter()
            .map(|b| crate::LlmPatch {
                action: PatchAction::Modify,
                path: b.path.clone(),
                content: None,
                edits: vec![crate::SearchReplace {
                    search: b.search.clone(),
                    replace: b.replace.clone(),
                }],
                search: None,
                replace: None,
            })
            .collect(),
    };
    // A block with an empty search on a missing file creates it.
    let mut set = {
        let mut creates = Vec::new();
        let mut rest = LlmPatchList::default();
        for (b, p) in blocks.iter().zip(list.patches) {
            if b.search.is_empty() && read_base(base.as_ref(), &b.path)?.is_none() {
                creates.push(crate::LlmPatch {
                    action: PatchAction::Create,
                    content: Some(b.replace.clone()),
                    edits: Vec::new(),
                    ..p
                });
            } else {
                rest.patches.push(p);
            }
        }
        creates.extend(rest.patches);
        from_patch_list(
            base,
            &LlmPatchList {
                commit_message: None,
                patches: creates,
            },
        )?
    };
    set.source = "edit blocks".into();
    Ok(set)
}

/// A `--patches FILE`: the LLM JSON format, or search/replace edit blocks.
pub fn from_patches_file(
    repo_path: &Path,
    text: &str,
    base: Option<&str>,
) -> Result<ChangeSet, ChangeError> {
    const EXPECTED: &str = "expected JSON patches (`{\"patches\": [{\"action\": \"modify\", \
        \"path\": ..., \"content\" or \"edits\": ...}]}` or a bare array of them) or \
        `<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE` edit blocks";
    let tree = patch_base(repo_path, base)?;
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.is_empty() {
        return Err(ChangeError::InvalidPatch(format!(
            "the input is empty: {EXPECTED}"
        )));
    }
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        // `parse_patches` is lenient (a reply's extra keys are fine), so an object that is
        // not a patch list at all (`{"x": 1}`) parses as an empty list: refuse it here, where
        // an empty change would pass without anything being judged.
        if let Ok(serde_json::Value::Object(map)) =
            serde_json::from_str::<serde_json::Value>(trimmed)
            && !map.contains_key("patches")
        {
            let keys: Vec<&str> = map.keys().map(String::as_str).collect();
            return Err(ChangeError::InvalidPatch(format!(
                "the JSON object has no `patches` key (keys: {}): {EXPECTED}",
                if keys.is_empty() {
                    "none".to_string()
                } else {
                    keys.join(", ")
                }
            )));
        }
        let list = crate::parse_patches(text)?;
        if list.patches.is_empty() {
            return Err(ChangeError::InvalidPatch(format!(
                "the patch list is empty, so there is nothing to check: {EXPECTED}"
            )));
        }
        from_patch_list(tree, &list)
    } else {
        let blocks = crate::parse_edit_blocks(text)?;
        if blocks.is_empty() {
            return Err(ChangeError::InvalidPatch(format!(
                "neither JSON patches nor edit blocks found: {EXPECTED}"
            )));
        }
        from_edit_blocks(tree, &blocks)
    }
}
