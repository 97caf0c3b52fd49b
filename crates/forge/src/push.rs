//! Pushing the run's branch with the `git` command (it honours the user's hooks, credential
//! helpers and SSH config). With a token and an HTTPS remote, the token is passed as an
//! `http.extraHeader` through git's environment configuration (never on the command line).

use std::path::Path;
use std::time::Duration;

use super::ForgeError;
use slopguard_toolchain::process;

/// How long a push or clone may take.
pub const GIT_NETWORK_TIMEOUT: Duration = Duration::from_secs(600);

/// Runs `git args..` in `dir` with extra environment; stdout on success.
pub(crate) fn git(
    dir: &Path,
    args: &[&str],
    env: &[(&str, &str)],
    timeout: Duration,
) -> Result<String, ForgeError> {
    let mut all_env: Vec<(&str, &str)> = vec![("GIT_TERMINAL_PROMPT", "0"), ("LC_ALL", "C")];
    all_env.extend_from_slice(env);
    let out = process::run("git", args, dir, &all_env, timeout);
    if out.not_found {
        return Err(ForgeError::Git("git is not installed".into()));
    }
    if out.timed_out {
        return Err(ForgeError::Git(format!(
            "git {} timed out after {} s",
            args.first().unwrap_or(&""),
            timeout.as_secs()
        )));
    }
    if !out.success() {
        let err = out.stderr.trim();
        return Err(ForgeError::Git(format!(
            "git {}: {}",
            args.first().unwrap_or(&""),
            if err.is_empty() {
                out.stdout.trim()
            } else {
                err
            }
        )));
    }
    Ok(out.stdout)
}

/// The configured URL of `remote` in the repository at `dir`, if it exists (as written in the
/// config: `url.*.insteadOf` rewrites are not applied, so a GitHub remote stays recognisable).
pub fn remote_url(dir: &Path, remote: &str) -> Option<String> {
    let key = format!("remote.{remote}.url");
    git(
        dir,
        &["config", "--get", &key],
        &[],
        Duration::from_secs(10),
    )
    .ok()
    .map(|s| s.trim().to_string())
    .filter(|s| !s.is_empty())
}

/// Pushes `branch` to `remote` (`refs/heads/branch:refs/heads/branch`, fast-forward only).
/// `token` is used for HTTPS remotes only.
pub fn push_branch(
    dir: &Path,
    remote: &str,
    branch: &str,
    token: Option<&str>,
) -> Result<(), ForgeError> {
    push_to(dir, remote, branch, branch, token)
}

/// Pushes the local branch `local` to the branch `target` of `remote`
/// (`refs/heads/local:refs/heads/target`, fast-forward only). `token` is used for HTTPS
/// remotes only.
pub fn push_to(
    dir: &Path,
    remote: &str,
    local: &str,
    target: &str,
    token: Option<&str>,
) -> Result<(), ForgeError> {
    for branch in [local, target] {
        if branch.is_empty() || branch.starts_with('-') {
            return Err(ForgeError::Git(format!("invalid branch name {branch:?}")));
        }
    }
    let refspec = format!("refs/heads/{local}:refs/heads/{target}");
    let header = auth_header(dir, remote, token);
    git(
        dir,
        &["push", "--quiet", "--", remote, &refspec],
        &auth_env(header.as_deref()),
        GIT_NETWORK_TIMEOUT,
    )
    .map(|_| ())
}

/// Fetches `refspec` from `remote` (into `FETCH_HEAD` only; no local ref is written).
/// `token` is used for HTTPS remotes only.
pub fn fetch(
    dir: &Path,
    remote: &str,
    refspec: &str,
    token: Option<&str>,
) -> Result<(), ForgeError> {
    let header = auth_header(dir, remote, token);
    git(
        dir,
        &["fetch", "--quiet", "--no-tags", "--", remote, refspec],
        &auth_env(header.as_deref()),
        GIT_NETWORK_TIMEOUT,
    )
    .map(|_| ())
}

/// The `http.extraHeader` value carrying `token`, when there is one and `remote` is HTTP(S).
fn auth_header(dir: &Path, remote: &str, token: Option<&str>) -> Option<String> {
    let url = remote_url(dir, remote).unwrap_or_default();
    let tok = token.filter(|t| !t.is_empty())?;
    (url.starts_with("https://") || url.starts_with("http://")).then(|| {
        format!(
            "AUTHORIZATION: basic {}",
            base64(format!("x-access-token:{tok}").as_bytes())
        )
    })
}

/// git's environment configuration setting `http.extraHeader` to `header`.
fn auth_env(header: Option<&str>) -> Vec<(&str, &str)> {
    match header {
        Some(h) => vec![
            ("GIT_CONFIG_COUNT", "1"),
            ("GIT_CONFIG_KEY_0", "http.extraHeader"),
            ("GIT_CONFIG_VALUE_0", h),
        ],
        None => Vec::new(),
    }
}

/// Standard base64 with padding.
pub(crate) fn base64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        out.push(T[(n >> 18) as usize & 63] as char);
        out.push(T[(n >> 12) as usize & 63] as char);
        out.push(if chunk.len() > 1 {
            T[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        out.push(if chunk.len() > 2 {
            T[n as usize & 63] as char
        } else {
            '='
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc4648_vectors() {
        for (i, o) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(i.as_bytes()), o);
        }
    }
}
