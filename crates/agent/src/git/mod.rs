//! Git operations of a run, through the `git` command (it honours the user's configuration,
//! hooks and credentials): the run's separate worktree on its own branch, one commit per
//! subtask with a `Slopguard-Subtask:` trailer, and reconciliation of the branch's commits
//! with the persisted state after a crash.
//!
//! The user's working tree and index are never touched: every command that changes files runs
//! inside the run's worktree, which lives outside the repository (under the system temp dir by
//! default), so that a parent `Cargo.toml` workspace or a test collector in the user's tree
//! never sees it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod orphans;
pub use orphans::{ORPHAN_WAIT, wait_for_git_on_branch};

/// Trailer naming the subtask a commit implements.
pub const SUBTASK_TRAILER: &str = "Slopguard-Subtask";
/// Trailer naming the run a commit belongs to.
pub const RUN_TRAILER: &str = "Slopguard-Run";

/// Errors of git operations.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// `git` could not be started.
    #[error("cannot run git: {0} (install git and make sure it is on PATH)")]
    Spawn(std::io::Error),
    /// A git command failed.
    #[error("git {args} failed: {stderr}")]
    Failed {
        /// The arguments.
        args: String,
        /// Its stderr (trimmed).
        stderr: String,
    },
    /// The path is not inside a git repository.
    #[error(
        "{0} is not inside a git repository (run `git init` and commit, or pass a repository path)"
    )]
    NotARepo(PathBuf),
    /// git refuses the repository because another user owns it (`safe.directory`).
    #[error(
        "git refuses the repository at {0} because another user owns it (\"dubious ownership\"). \
         If you trust it, run `git config --global --add safe.directory {0}`, or run slopguard as \
         the user who owns it"
    )]
    DubiousOwnership(PathBuf),
    /// A file operation failed.
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
}

/// Runs `git args` in `dir`; stdout on success.
pub fn git(dir: &Path, args: &[&str]) -> Result<String, GitError> {
    git_env(dir, args, &[])
}

fn git_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Result<String, GitError> {
    let mut cmd = Command::new("git");
    cmd.arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("LC_ALL", "C");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().map_err(GitError::Spawn)?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(GitError::Failed {
            args: args.join(" "),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        })
    }
}

/// The top of the work tree containing `path`.
pub fn toplevel(path: &Path) -> Result<PathBuf, GitError> {
    let out = git(path, &["rev-parse", "--show-toplevel"]).map_err(|e| match e {
        GitError::Failed { stderr, .. } => {
            match slopguard_change::git::ownership_refusal(&stderr) {
                Some(repo) => GitError::DubiousOwnership(repo),
                None => GitError::NotARepo(path.to_path_buf()),
            }
        }
        _ => GitError::NotARepo(path.to_path_buf()),
    })?;
    Ok(PathBuf::from(out.trim()))
}

/// The repository's common git directory (shared by all worktrees), absolute.
pub fn common_dir(repo: &Path) -> Result<PathBuf, GitError> {
    let out = git(
        repo,
        &["rev-parse", "--path-format=absolute", "--git-common-dir"],
    )?;
    Ok(PathBuf::from(out.trim()))
}

/// The git directory of the worktree at `dir` (for a linked worktree:
/// `<common>/worktrees/<name>`), absolute.
pub fn git_dir(dir: &Path) -> Result<PathBuf, GitError> {
    let out = git(dir, &["rev-parse", "--path-format=absolute", "--git-dir"])?;
    Ok(PathBuf::from(out.trim()))
}

/// The full commit id of `rev`.
pub fn resolve(repo: &Path, rev: &str) -> Result<String, GitError> {
    let spec = format!("{rev}^{{commit}}");
    Ok(git(repo, &["rev-parse", "--verify", "--quiet", &spec])
        .map_err(|_| GitError::Failed {
            args: format!("rev-parse {rev}"),
            stderr: format!("unknown revision `{rev}` (check `git log` or `git branch`)"),
        })?
        .trim()
        .to_string())
}

/// Whether the branch `name` exists.
pub fn branch_exists(repo: &Path, name: &str) -> bool {
    git(
        repo,
        &[
            "show-ref",
            "--verify",
            "--quiet",
            &format!("refs/heads/{name}"),
        ],
    )
    .is_ok()
}

/// Makes git ignore `.slopguard/` in this repository without touching any tracked file
/// (appends to `<common-dir>/info/exclude`).
pub fn exclude_slopguard_dir(repo: &Path) -> Result<(), GitError> {
    let info = common_dir(repo)?.join("info");
    let path = info.join("exclude");
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if current
        .lines()
        .any(|l| l.trim() == ".slopguard/" || l.trim() == ".slopguard")
    {
        return Ok(());
    }
    std::fs::create_dir_all(&info).map_err(|e| GitError::Io(info.display().to_string(), e))?;
    let mut text = current;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(".slopguard/\n");
    std::fs::write(&path, text).map_err(|e| GitError::Io(path.display().to_string(), e))
}

/// The default place of a run's worktree: outside the repository, under the temp dir.
pub fn default_worktree_path(run_id: &str) -> PathBuf {
    std::env::temp_dir()
        .join("slopguard-worktrees")
        .join(run_id)
}

/// Creates (or, on resume, restores) the run's worktree at `path`.
///
/// * `branch: Some(name)`: the worktree checks out `name`, created at `base_commit` when it does
///   not exist yet.
/// * `branch: None` (dry run): a detached worktree at `base_commit`.
///
/// A worktree left by a killed run is reused after discarding uncommitted changes in it (they
/// were never guarded); a half-created one is removed and created again.
pub fn ensure_worktree(
    repo: &Path,
    path: &Path,
    branch: Option<&str>,
    base_commit: &str,
) -> Result<(), GitError> {
    // A run killed alone leaves its git children running: one may still be creating the
    // branch, moving it in the worktree, or holding a lock that the steps below take for stale.
    if let Some(b) = branch {
        wait_for_git_on_branch(b, &[path.to_path_buf()], ORPHAN_WAIT);
    }
    if path.exists() {
        let healthy = git(path, &["rev-parse", "--verify", "HEAD"]).is_ok()
            && toplevel(path).is_ok_and(|t| same_path(&t, path));
        if healthy {
            clear_stale_locks(path, branch, repo);
            let expected = match branch {
                Some(b) => resolve(repo, b)?,
                None => base_commit.to_string(),
            };
            // Uncommitted leftovers of a killed attempt: never guarded, never kept.
            git(path, &["reset", "--hard", "--quiet", &expected])?;
            git(path, &["clean", "-fdq"])?;
            return Ok(());
        }
        std::fs::remove_dir_all(path).map_err(|e| GitError::Io(path.display().to_string(), e))?;
    }
    let _ = git(repo, &["worktree", "prune"]);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| GitError::Io(parent.display().to_string(), e))?;
    }
    let p = path.to_string_lossy().into_owned();
    match branch {
        Some(b) if branch_exists(repo, b) => {
            git(repo, &["worktree", "add", "--quiet", "--force", &p, b])?;
        }
        Some(b) => {
            git(
                repo,
                &["worktree", "add", "--quiet", "-b", b, &p, base_commit],
            )?;
        }
        None => {
            git(
                repo,
                &["worktree", "add", "--quiet", "--detach", &p, base_commit],
            )?;
        }
    }
    Ok(())
}

/// Removes lock files a killed git left behind in the run's own worktree and branch ref. Only
/// called while holding the run lock, after waiting (at most [`ORPHAN_WAIT`]) for the killed
/// run's git processes on the branch to end ([`wait_for_git_on_branch`]), so no live git
/// of ours owns them.
fn clear_stale_locks(worktree: &Path, branch: Option<&str>, repo: &Path) {
    if let Ok(gd) = git_dir(worktree) {
        let _ = std::fs::remove_file(gd.join("index.lock"));
        let _ = std::fs::remove_file(gd.join("HEAD.lock"));
    }
    if let (Some(b), Ok(common)) = (branch, common_dir(repo)) {
        let _ = std::fs::remove_file(common.join("refs/heads").join(format!("{b}.lock")));
    }
}

/// Removes the run's worktree (the branch stays).
pub fn remove_worktree(repo: &Path, path: &Path) -> Result<(), GitError> {
    let p = path.to_string_lossy().into_owned();
    if git(repo, &["worktree", "remove", "--force", &p]).is_err() && path.exists() {
        std::fs::remove_dir_all(path).map_err(|e| GitError::Io(p.clone(), e))?;
    }
    let _ = git(repo, &["worktree", "prune"]);
    Ok(())
}

/// The commit message for a subtask: a title, the why, and the trailers.
pub fn commit_message(
    title: &str,
    why: &str,
    files: &[String],
    subtask_id: &str,
    run_id: &str,
) -> String {
    let title = title.lines().next().unwrap_or("").trim();
    let title = if title.is_empty() {
        "slopguard change"
    } else {
        title
    };
    let title: String = title.chars().take(72).collect();
    let mut m = format!("{title}\n\n");
    let why = why.trim();
    if !why.is_empty() {
        m.push_str(why);
        m.push_str("\n\n");
    }
    if !files.is_empty() {
        m.push_str(&format!("Files: {}\n\n", files.join(", ")));
    }
    m.push_str(&format!(
        "{SUBTASK_TRAILER}: {subtask_id}\n{RUN_TRAILER}: {run_id}\n"
    ));
    m
}

/// Commits exactly `paths` (created, modified or deleted) in `worktree` with `message`; the new
/// commit id. Hooks do not run (the guards are the gate); an identity is supplied when the
/// repository has none.
pub fn commit_paths(worktree: &Path, paths: &[String], message: &str) -> Result<String, GitError> {
    let mut add: Vec<&str> = vec!["add", "-A", "--"];
    add.extend(paths.iter().map(|s| s.as_str()));
    git(worktree, &add)?;
    let mut env: Vec<(&str, &str)> = Vec::new();
    if !has_identity(worktree) {
        env.extend([
            ("GIT_AUTHOR_NAME", "slopguard"),
            ("GIT_AUTHOR_EMAIL", "slopguard@localhost"),
            ("GIT_COMMITTER_NAME", "slopguard"),
            ("GIT_COMMITTER_EMAIL", "slopguard@localhost"),
        ]);
    }
    let mut args: Vec<&str> = vec!["commit", "--quiet", "--no-verify", "-m", message, "--"];
    args.extend(paths.iter().map(|s| s.as_str()));
    git_env(worktree, &args, &env)?;
    Ok(git(worktree, &["rev-parse", "HEAD"])?.trim().to_string())
}

/// Whether the repository at `dir` has a committer e-mail configured (asked once per directory
/// and process).
fn has_identity(dir: &Path) -> bool {
    static CACHE: std::sync::Mutex<Vec<(PathBuf, bool)>> = std::sync::Mutex::new(Vec::new());
    if let Ok(c) = CACHE.lock()
        && let Some((_, v)) = c.iter().find(|(p, _)| p == dir)
    {
        return *v;
    }
    let v = git(dir, &["config", "user.email"]).is_ok();
    if let Ok(mut c) = CACHE.lock() {
        c.push((dir.to_path_buf(), v));
    }
    v
}

/// A commit of the run branch that carries a subtask trailer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubtaskCommit {
    /// Full id.
    pub commit: String,
    /// The subtask id from the trailer.
    pub subtask: String,
    /// The run id from the trailer.
    pub run: Option<String>,
    /// First line of the message.
    pub title: String,
}

/// Commits in `base..branch` with a [`SUBTASK_TRAILER`], oldest first.
pub fn subtask_commits(
    repo: &Path,
    base: &str,
    branch: &str,
) -> Result<Vec<SubtaskCommit>, GitError> {
    let range = format!("{base}..{branch}");
    let out = git(repo, &["log", "--reverse", "--format=%H%x00%B%x1e", &range])?;
    let mut v = Vec::new();
    for rec in out.split('\x1e') {
        let rec = rec.trim_start_matches('\n');
        let Some((id, body)) = rec.split_once('\0') else {
            continue;
        };
        let mut subtask = None;
        let mut run = None;
        for line in body.lines() {
            if let Some(rest) = line.strip_prefix(&format!("{SUBTASK_TRAILER}:")) {
                subtask = Some(rest.trim().to_string());
            } else if let Some(rest) = line.strip_prefix(&format!("{RUN_TRAILER}:")) {
                run = Some(rest.trim().to_string());
            }
        }
        if let Some(subtask) = subtask {
            v.push(SubtaskCommit {
                commit: id.trim().to_string(),
                subtask,
                run,
                title: body.lines().next().unwrap_or("").to_string(),
            });
        }
    }
    Ok(v)
}

/// Files changed in the worktree relative to its HEAD (tracked changes and untracked files).
pub fn dirty_paths(dir: &Path) -> Result<Vec<String>, GitError> {
    let out = git(
        dir,
        &["status", "--porcelain=v1", "-z", "--untracked-files=all"],
    )?;
    let mut v = Vec::new();
    let mut it = out.split('\0');
    while let Some(entry) = it.next() {
        if entry.len() < 4 {
            continue;
        }
        let (status, path) = entry.split_at(3);
        if status.starts_with('R') || status.starts_with('C') {
            let _ = it.next();
        }
        v.push(path.to_string());
    }
    Ok(v)
}

fn same_path(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// A commit id cut to the 10 characters people read (the whole id when shorter).
pub fn short_id(commit: &str) -> &str {
    commit.get(..10).unwrap_or(commit)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A repository with one commit holding `files`.
    pub(crate) fn repo_with(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path();
        git(r, &["init", "-q", "-b", "main"]).unwrap();
        git(r, &["config", "user.email", "t@example.com"]).unwrap();
        git(r, &["config", "user.name", "t"]).unwrap();
        for (p, c) in files {
            let path = r.join(p);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, c).unwrap();
        }
        git(r, &["add", "-A"]).unwrap();
        git(r, &["commit", "-q", "-m", "init"]).unwrap();
        dir
    }

    #[test]
    fn worktree_commit_trailers_and_reconcile() {
        let repo = repo_with(&[("a.txt", "one\n"), ("b.txt", "two\n")]);
        let r = repo.path();
        std::fs::write(r.join("a.txt"), "user edit\n").unwrap();
        let base = resolve(r, "HEAD").unwrap();
        let wt_dir = tempfile::tempdir().unwrap();
        let wt = wt_dir.path().join("wt");
        ensure_worktree(r, &wt, Some("sg/test"), &base).unwrap();
        assert_eq!(std::fs::read_to_string(wt.join("a.txt")).unwrap(), "one\n");
        std::fs::write(wt.join("b.txt"), "TWO\n").unwrap();
        std::fs::write(wt.join("c.txt"), "new\n").unwrap();
        std::fs::write(wt.join("stray.txt"), "not ours\n").unwrap();
        let msg = commit_message("Fix b", "because", &["b.txt".into()], "T001-S01", "run1");
        let c1 = commit_paths(&wt, &["b.txt".into(), "c.txt".into()], &msg).unwrap();
        let commits = subtask_commits(r, &base, "sg/test").unwrap();
        assert_eq!(commits.len(), 1);
        assert_eq!(commits[0].commit, c1);
        assert_eq!(commits[0].subtask, "T001-S01");
        assert_eq!(commits[0].run.as_deref(), Some("run1"));
        // The stray file was not committed; the user's tree and index are untouched.
        assert_eq!(dirty_paths(&wt).unwrap(), vec!["stray.txt".to_string()]);
        assert_eq!(
            std::fs::read_to_string(r.join("a.txt")).unwrap(),
            "user edit\n"
        );
        assert_eq!(dirty_paths(r).unwrap(), vec!["a.txt".to_string()]);
        // Resume: leftovers discarded, the branch head kept.
        std::fs::write(wt.join("b.txt"), "half-written\n").unwrap();
        ensure_worktree(r, &wt, Some("sg/test"), &base).unwrap();
        assert_eq!(std::fs::read_to_string(wt.join("b.txt")).unwrap(), "TWO\n");
        assert!(!wt.join("stray.txt").exists());
        // A deleted worktree is recreated from the branch.
        std::fs::remove_dir_all(&wt).unwrap();
        ensure_worktree(r, &wt, Some("sg/test"), &base).unwrap();
        assert_eq!(std::fs::read_to_string(wt.join("c.txt")).unwrap(), "new\n");
        remove_worktree(r, &wt).unwrap();
        assert!(!wt.exists());
        assert!(branch_exists(r, "sg/test"));
        exclude_slopguard_dir(r).unwrap();
        exclude_slopguard_dir(r).unwrap();
        let ex = std::fs::read_to_string(common_dir(r).unwrap().join("info/exclude")).unwrap();
        assert_eq!(ex.matches(".slopguard/").count(), 1);
    }
}
