//! `slopguard run <path or git URL>`: a local path is used as is; a git URL is cloned (or
//! refreshed) into a cache directory first.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::ForgeError;
use super::push::{GIT_NETWORK_TIMEOUT, git};

/// A run target ready to work on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreparedTarget {
    /// The repository directory.
    pub path: PathBuf,
    /// The URL it was cloned from, when it was a URL.
    pub url: Option<String>,
    /// True when this call cloned it (false: a local path, or a cached clone refreshed).
    pub cloned: bool,
}

/// True when `s` is a git URL rather than a path: `scheme://...` or scp-like `user@host:path`.
pub fn looks_like_git_url(s: &str) -> bool {
    let s = s.trim();
    if let Some((scheme, rest)) = s.split_once("://") {
        return !scheme.is_empty()
            && !rest.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    }
    // scp-like needs a user@host before the colon and no slash before it.
    match s.split_once(':') {
        Some((left, right)) => {
            !left.contains('/')
                && left.contains('@')
                && !left.starts_with('@')
                && !right.is_empty()
                && !Path::new(s).exists()
        }
        None => false,
    }
}

/// The cache root for clones: `SLOPGUARD_CACHE_DIR`, else `$XDG_CACHE_HOME/slopguard/repos`,
/// else `~/.cache/slopguard/repos`, else the system temp directory.
pub fn cache_root() -> PathBuf {
    if let Some(d) = std::env::var_os("SLOPGUARD_CACHE_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("slopguard").join("repos");
    }
    if let Some(h) = std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(h)
            .join(".cache")
            .join("slopguard")
            .join("repos");
    }
    std::env::temp_dir().join("slopguard-repos")
}

/// Resolves `url_or_path`: an existing directory is canonicalised; a git URL is cloned into
/// [`cache_root`] (or fetched and reset to the remote's default branch when already cached).
pub fn prepare_target(url_or_path: &str) -> Result<PreparedTarget, ForgeError> {
    prepare_target_in(url_or_path, &cache_root())
}

/// [`prepare_target`] with an explicit cache root.
pub fn prepare_target_in(url_or_path: &str, cache: &Path) -> Result<PreparedTarget, ForgeError> {
    let raw = url_or_path.trim();
    if raw.is_empty() {
        return Err(ForgeError::Target("empty target".into()));
    }
    let as_path = Path::new(raw);
    if as_path.is_dir() {
        let path = as_path
            .canonicalize()
            .map_err(|e| ForgeError::Target(format!("{raw}: {e}")))?;
        return Ok(PreparedTarget {
            path,
            url: None,
            cloned: false,
        });
    }
    if !looks_like_git_url(raw) {
        return Err(ForgeError::Target(format!(
            "{raw}: not a directory and not a git URL"
        )));
    }
    std::fs::create_dir_all(cache)
        .map_err(|e| ForgeError::Target(format!("cannot create {}: {e}", cache.display())))?;
    let dir = cache.join(cache_name(raw));
    if dir.join(".git").exists() {
        refresh(&dir)?;
        return Ok(PreparedTarget {
            path: dir,
            url: Some(raw.to_string()),
            cloned: false,
        });
    }
    // Clone next to the final place, then rename: an interrupted clone never looks cached.
    let tmp = cache.join(format!(
        ".{}.partial-{}",
        cache_name(raw),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&tmp);
    let tmp_s = tmp.to_string_lossy().to_string();
    let result = git(
        cache,
        &[
            "clone",
            "--quiet",
            "--no-recurse-submodules",
            "--",
            raw,
            &tmp_s,
        ],
        &[],
        GIT_NETWORK_TIMEOUT,
    );
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    if let Err(e) = std::fs::rename(&tmp, &dir) {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(ForgeError::Target(format!(
            "cannot move clone into {}: {e}",
            dir.display()
        )));
    }
    Ok(PreparedTarget {
        path: dir,
        url: Some(raw.to_string()),
        cloned: true,
    })
}

/// Fetches and checks out the remote's default branch in a cached clone (it is our own
/// directory, never a user's working tree).
fn refresh(dir: &Path) -> Result<(), ForgeError> {
    let short = Duration::from_secs(30);
    git(
        dir,
        &["fetch", "--quiet", "--prune", "origin"],
        &[],
        GIT_NETWORK_TIMEOUT,
    )?;
    let _ = git(dir, &["remote", "set-head", "origin", "--auto"], &[], short);
    let head = git(
        dir,
        &["symbolic-ref", "--short", "refs/remotes/origin/HEAD"],
        &[],
        short,
    )?;
    let head = head.trim();
    let branch = head.strip_prefix("origin/").unwrap_or(head);
    git(
        dir,
        &["checkout", "--quiet", "--force", "-B", branch, head],
        &[],
        short,
    )?;
    git(dir, &["clean", "-fdq"], &[], short)?;
    Ok(())
}

/// A readable, collision-free directory name for a URL: `host_owner_repo-<hash>`.
pub fn cache_name(url: &str) -> String {
    let trimmed = url.trim().trim_end_matches('/');
    let trimmed = trimmed.strip_suffix(".git").unwrap_or(trimmed);
    let without_scheme = trimmed.split_once("://").map_or(trimmed, |(_, r)| r);
    let without_user = without_scheme
        .split_once('@')
        .filter(|(u, _)| !u.contains('/'))
        .map_or(without_scheme, |(_, r)| r);
    let mut name: String = without_user
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    name = name.trim_matches(|c| c == '_' || c == '.').to_string();
    if name.len() > 80 {
        name = name[name.len() - 80..].to_string();
    }
    format!("{name}-{:016x}", fnv1a(url.trim().as_bytes()))
}

fn fnv1a(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in data {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_detection() {
        for u in [
            "https://github.com/a/b.git",
            "ssh://git@github.com/a/b",
            "git@github.com:a/b.git",
            "file:///tmp/x.git",
        ] {
            assert!(looks_like_git_url(u), "{u}");
        }
        for p in ["./repo", "/tmp/repo", "repo", "C:/x", "a/b:c", "", "://x"] {
            assert!(!looks_like_git_url(p), "{p}");
        }
    }

    #[test]
    fn cache_names_are_readable_and_distinct() {
        let a = cache_name("https://github.com/acme/widget.git");
        assert!(a.starts_with("github.com_acme_widget-"), "{a}");
        let b = cache_name("git@github.com:acme/widget.git");
        assert!(b.starts_with("github.com_acme_widget-"), "{b}");
        assert_ne!(a, b);
        assert!(!cache_name("file:///../../etc").contains('/'));
    }
}
