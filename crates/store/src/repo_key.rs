//! The one key a repository's rows are kept under, whoever names the repository.
//!
//! Runs, failure memory and feedback items are keyed by repository. The CLI knows a
//! repository by a directory, a gateway client may send a directory or a remote URL; all of
//! them must land on the same key, or an item added through `POST /feedback` is invisible to
//! `slopguard feedback show`. The key is the `origin` remote's URL exactly as git has it (so
//! every clone of one repository shares its rows), else the canonical path of the work tree's
//! top directory (so a subdirectory or a symlink names the same repository).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The key of the repository that holds `dir` (any directory or file inside its work tree).
///
/// Never fails: a directory that is not in a git repository is keyed by its canonical path,
/// and one that cannot be canonicalised by the path as given.
pub fn repo_key_of_dir(dir: &Path) -> String {
    let dir = if dir.is_file() {
        dir.parent().unwrap_or(dir)
    } else {
        dir
    };
    if let Some(url) = git_line(dir, &["config", "--get", "remote.origin.url"]) {
        return url;
    }
    let top = git_line(dir, &["rev-parse", "--show-toplevel"])
        .map(PathBuf::from)
        .unwrap_or_else(|| dir.to_path_buf());
    top.canonicalize().unwrap_or(top).display().to_string()
}

/// Whether `spec` names a remote (`https://host/owner/repo.git`, `ssh://...`,
/// `git@host:owner/repo.git`) rather than a path on this machine.
pub fn is_remote_url(spec: &str) -> bool {
    let spec = spec.trim();
    if spec.contains("://") {
        return true;
    }
    // scp-like syntax: `user@host:path`, with no slash before the colon.
    match (spec.find('@'), spec.find(':'), spec.find('/')) {
        (Some(at), Some(colon), slash) => at < colon && slash.is_none_or(|s| colon < s),
        _ => false,
    }
}

/// The first line git prints for `args` run in `dir`, when it succeeds and prints one.
fn git_line(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let line = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()?
        .trim()
        .to_string();
    (!line.is_empty()).then_some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        let ok = Command::new("git")
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap()
            .status
            .success();
        assert!(ok, "git {args:?}");
    }

    #[test]
    fn a_directory_outside_git_is_its_canonical_path() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            repo_key_of_dir(dir.path()),
            dir.path().canonicalize().unwrap().display().to_string()
        );
    }

    #[test]
    fn a_subdirectory_and_a_file_name_the_work_trees_top() {
        let dir = tempfile::tempdir().unwrap();
        git(dir.path(), &["init", "-q"]);
        std::fs::create_dir_all(dir.path().join("src/deep")).unwrap();
        std::fs::write(dir.path().join("src/deep/a.py"), "x = 1\n").unwrap();
        let top = repo_key_of_dir(dir.path());
        assert_eq!(
            top,
            dir.path().canonicalize().unwrap().display().to_string()
        );
        assert_eq!(repo_key_of_dir(&dir.path().join("src/deep")), top);
        assert_eq!(repo_key_of_dir(&dir.path().join("src/deep/a.py")), top);
    }

    #[test]
    fn a_clone_with_an_origin_is_its_origin_url() {
        let dir = tempfile::tempdir().unwrap();
        git(dir.path(), &["init", "-q"]);
        git(
            dir.path(),
            &["remote", "add", "origin", "git@github.com:o/r.git"],
        );
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        assert_eq!(repo_key_of_dir(dir.path()), "git@github.com:o/r.git");
        assert_eq!(
            repo_key_of_dir(&dir.path().join("sub")),
            "git@github.com:o/r.git"
        );
    }

    #[test]
    fn remote_urls_are_told_from_paths() {
        for url in [
            "https://github.com/o/r.git",
            "ssh://git@host:22/o/r",
            "git@github.com:o/r.git",
            "file:///srv/r.git",
        ] {
            assert!(is_remote_url(url), "{url}");
        }
        for path in ["/home/u/r", "r", "./a:b", "/tmp/me@host:x/y", "C:/r"] {
            assert!(!is_remote_url(path), "{path}");
        }
    }
}
