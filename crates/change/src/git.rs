//! Access to a git repository: reads in-process through gitoxide where it answers exactly as
//! git does (see [`crate::odb`]), and the `git` command for the rest: it honours the user's
//! configuration and works on bare repositories. Blob reads gitoxide declines go through one
//! long-lived `git cat-file --batch` process per [`GitRepo`] handle, so reading hundreds of
//! files costs one process start.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

use crate::ChangeError;
use crate::odb::{CommitInfo, Odb, Opened};
use crate::sources::RawEntry;

/// A git repository (bare or not).
#[derive(Debug)]
pub struct GitRepo {
    git_dir: PathBuf,
    work_dir: Option<PathBuf>,
    cat_file: Mutex<Option<CatFile>>,
    /// The same repository opened in-process, when gitoxide could open it.
    odb: Option<Odb>,
}

/// The repository git refused for its ownership, read from git's stderr (`fatal: detected
/// dubious ownership in repository at '<path>'`); `None` for any other failure. git refuses a
/// repository owned by another user unless `safe.directory` names it, and says so only there,
/// so callers that would report "not a repository" check this first.
pub fn ownership_refusal(stderr: &str) -> Option<PathBuf> {
    let rest = stderr.split("dubious ownership in repository at ").nth(1)?;
    let line = rest.lines().next()?.trim();
    let path = line
        .strip_prefix('\'')
        .and_then(|l| l.strip_suffix('\''))
        .unwrap_or(line);
    Some(PathBuf::from(path))
}

/// What `cat-file --batch` answered for one object name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Object {
    Blob(Vec<u8>),
    /// A tree, commit or tag: not a file's content.
    NotABlob,
    Missing,
}

impl GitRepo {
    /// Opens the repository containing `path`: in-process when gitoxide can, else with one
    /// `git rev-parse` (git directory, bareness and work tree top in a single process).
    pub fn open(path: &Path) -> Result<GitRepo, ChangeError> {
        if let Some(Opened {
            odb,
            git_dir,
            work_dir,
        }) = Odb::discover(path)
        {
            return Ok(GitRepo {
                git_dir,
                work_dir,
                cat_file: Mutex::new(None),
                odb: Some(odb),
            });
        }
        Self::open_with_git(path)
    }

    /// [`GitRepo::open`] through `git rev-parse` only; every read then goes through `git`.
    pub fn open_with_git(path: &Path) -> Result<GitRepo, ChangeError> {
        let out = Command::new("git")
            .arg("-C")
            .arg(path)
            .args([
                "rev-parse",
                "--absolute-git-dir",
                "--is-bare-repository",
                "--show-toplevel",
            ])
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .map_err(|e| ChangeError::io(path, e))?;
        // `--show-toplevel` fails where there is no work tree (a bare repository, inside
        // `.git`) after the first two answers were printed: those two decide.
        let text = String::from_utf8_lossy(&out.stdout);
        let mut lines = text.lines();
        let (Some(git_dir), Some(bare)) = (lines.next(), lines.next()) else {
            if let Some(repo) = ownership_refusal(&String::from_utf8_lossy(&out.stderr)) {
                return Err(ChangeError::DubiousOwnership(repo));
            }
            return Err(ChangeError::NotARepo(path.to_path_buf()));
        };
        if git_dir.is_empty() || !matches!(bare, "true" | "false") {
            return Err(ChangeError::NotARepo(path.to_path_buf()));
        }
        let work_dir = match (bare, lines.next()) {
            ("false", Some(top)) if out.status.success() && !top.is_empty() => {
                Some(PathBuf::from(top))
            }
            _ => None,
        };
        Ok(GitRepo {
            git_dir: PathBuf::from(git_dir),
            work_dir,
            cat_file: Mutex::new(None),
            odb: None,
        })
    }

    /// Whether reads go through gitoxide in-process (else every read runs `git`).
    pub fn reads_in_process(&self) -> bool {
        self.odb.is_some()
    }

    /// The `.git` directory (or the bare repository itself).
    pub fn git_dir(&self) -> &Path {
        &self.git_dir
    }

    /// The working directory, `None` for a bare repository.
    pub fn work_dir(&self) -> Option<&Path> {
        self.work_dir.as_deref()
    }

    /// A `git` command bound to this repository.
    pub fn command(&self) -> Command {
        let mut cmd = Command::new("git");
        cmd.arg("--git-dir").arg(&self.git_dir);
        if let Some(dir) = &self.work_dir {
            cmd.arg("--work-tree").arg(dir).current_dir(dir);
        }
        cmd.stdin(Stdio::null());
        cmd
    }

    /// Runs git with `args` and returns stdout; a failure becomes [`ChangeError::Git`].
    pub fn run(&self, args: &[&str]) -> Result<Vec<u8>, ChangeError> {
        let out = self
            .command()
            .args(args)
            .output()
            .map_err(|e| ChangeError::io(&self.git_dir, e))?;
        if !out.status.success() {
            return Err(ChangeError::Git {
                args: args.join(" "),
                message: String::from_utf8_lossy(&out.stderr).trim().to_string(),
            });
        }
        Ok(out.stdout)
    }

    /// Resolves a revision to a full commit id.
    pub fn resolve_commit(&self, rev: &str) -> Result<String, ChangeError> {
        if rev.starts_with('-') {
            return Err(ChangeError::UnknownRevision(rev.to_string()));
        }
        if let Some(id) = self.odb.as_ref().and_then(|o| o.resolve_commit(rev)) {
            return Ok(id);
        }
        let spec = format!("{rev}^{{commit}}");
        match self.run(&["rev-parse", "--verify", "--quiet", &spec]) {
            Ok(out) => {
                let id = String::from_utf8_lossy(&out).trim().to_string();
                if id.is_empty() {
                    Err(ChangeError::UnknownRevision(rev.to_string()))
                } else {
                    Ok(id)
                }
            }
            Err(_) => Err(ChangeError::UnknownRevision(rev.to_string())),
        }
    }

    /// The parents of a commit.
    pub fn parents(&self, commit: &str) -> Result<Vec<String>, ChangeError> {
        let out = self.run(&["rev-list", "--parents", "-n", "1", commit])?;
        Ok(String::from_utf8_lossy(&out)
            .split_whitespace()
            .skip(1)
            .map(str::to_string)
            .collect())
    }

    /// The commit `rev` names, with its first parent and message, read in-process (`None`:
    /// ask git).
    pub(crate) fn commit_info(&self, rev: &str) -> Option<CommitInfo> {
        self.odb.as_ref()?.commit(rev)
    }

    /// The files that differ between commits `from` (the empty tree when `None`) and `to`,
    /// as `git diff-tree -r -M --raw` lists them, read in-process (`None`: ask git).
    pub(crate) fn diff_commits(&self, from: Option<&str>, to: &str) -> Option<Vec<RawEntry>> {
        self.odb.as_ref()?.diff_commits(from, to)
    }

    /// The working tree's changes against commit `head` (tracked raw entries, untracked
    /// paths), read in-process (`None`: ask git); the walk for untracked files is kept
    /// under `cache_dir` when one is given.
    pub(crate) fn worktree_changes(
        &self,
        head: Option<&str>,
        cache_dir: Option<&Path>,
    ) -> Option<(Vec<RawEntry>, Vec<String>)> {
        self.odb
            .as_ref()?
            .worktree_changes(head, self.work_dir.as_deref()?, cache_dir)
    }

    /// The index's changes against commit `head`, read in-process (`None`: ask git).
    pub(crate) fn staged_changes(&self, head: Option<&str>) -> Option<Vec<RawEntry>> {
        self.odb.as_ref()?.staged_changes(head)
    }

    /// Every file in the tree of `commit`, read in-process (`None`: ask git).
    pub(crate) fn list_files(&self, commit: &str) -> Option<Vec<String>> {
        self.odb.as_ref()?.list_files(commit)
    }

    /// Reads an object (`<commit>:<path>` or a blob id): in-process when gitoxide can, else
    /// through the shared cat-file process.
    pub fn read_object(&self, name: &str) -> Result<Object, ChangeError> {
        if name.contains('\n') {
            return Ok(Object::Missing);
        }
        if let Some(object) = self.odb.as_ref().and_then(|o| o.read(name)) {
            return Ok(object);
        }
        let mut guard = self.cat_file.lock().unwrap_or_else(|p| p.into_inner());
        if guard.is_none() {
            *guard = Some(CatFile::spawn(self)?);
        }
        let result = guard.as_mut().map(|c| c.read(name));
        match result {
            Some(Ok(obj)) => Ok(obj),
            Some(Err(e)) => {
                // A broken pipe leaves the process unusable: start a fresh one next time.
                *guard = None;
                Err(ChangeError::io(&self.git_dir, e))
            }
            None => Ok(Object::Missing),
        }
    }
}

/// A running `git cat-file --batch`.
#[derive(Debug)]
struct CatFile {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl CatFile {
    fn spawn(repo: &GitRepo) -> Result<CatFile, ChangeError> {
        let mut child = repo
            .command()
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| ChangeError::io(&repo.git_dir, e))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ChangeError::io(
                &repo.git_dir,
                std::io::Error::other("git cat-file started without its pipes"),
            ));
        };
        let stdout = BufReader::new(stdout);
        Ok(CatFile {
            child,
            stdin,
            stdout,
        })
    }

    fn read(&mut self, name: &str) -> std::io::Result<Object> {
        writeln!(self.stdin, "{name}")?;
        self.stdin.flush()?;
        let mut header = String::new();
        if self.stdout.read_line(&mut header)? == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "git cat-file exited",
            ));
        }
        let header = header.trim_end();
        if header.ends_with(" missing") || header.ends_with(" ambiguous") {
            return Ok(Object::Missing);
        }
        let mut parts = header.rsplitn(3, ' ');
        let size: usize = parts
            .next()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("bad cat-file header `{header}`")))?;
        let kind = parts.next().unwrap_or("");
        let mut buf = vec![0u8; size + 1];
        self.stdout.read_exact(&mut buf)?;
        buf.pop();
        Ok(if kind == "blob" {
            Object::Blob(buf)
        } else {
            Object::NotABlob
        })
    }
}

impl Drop for CatFile {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Splits NUL-separated git output into UTF-8 strings (lossy).
pub fn split_nul(out: &[u8]) -> Vec<String> {
    out.split(|b| *b == 0)
        .filter(|s| !s.is_empty())
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .collect()
}

#[cfg(test)]
mod ownership_tests {
    use super::*;

    #[test]
    fn ownership_refusal_reads_gits_message() {
        let stderr = "fatal: detected dubious ownership in repository at '/srv/r e'\n\
                      To add an exception for this directory, call:\n\n\
                      \tgit config --global --add safe.directory '/srv/r e'\n";
        assert_eq!(ownership_refusal(stderr), Some(PathBuf::from("/srv/r e")));
        assert_eq!(
            ownership_refusal(
                "fatal: not a git repository (or any of the parent directories): .git"
            ),
            None
        );
    }
}
