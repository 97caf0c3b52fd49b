//! GitHub remotes: `https://github.com/owner/repo(.git)`, `git@github.com:owner/repo.git`,
//! `ssh://git@github.com(:port)/owner/repo.git`, `git://github.com/owner/repo`.

use serde::{Deserialize, Serialize};

/// A repository on GitHub.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GitHubRepo {
    /// User or organisation.
    pub owner: String,
    /// Repository name (without `.git`).
    pub name: String,
}

impl GitHubRepo {
    /// `owner/name`.
    pub fn full_name(&self) -> String {
        format!("{}/{}", self.owner, self.name)
    }
}

/// Hosts accepted as GitHub: `github.com`, `www.github.com`, and the host of
/// `SLOPGUARD_GITHUB_HOST` when set (GitHub Enterprise).
fn is_github_host(host: &str, extra: Option<&str>) -> bool {
    let host = host.to_ascii_lowercase();
    host == "github.com"
        || host == "www.github.com"
        || extra.is_some_and(|e| !e.is_empty() && e.eq_ignore_ascii_case(&host))
}

/// Parses a git remote URL naming a GitHub repository; `None` for anything else (another
/// forge, a local path, a malformed URL). `extra_host` adds a GitHub Enterprise host.
pub fn parse_github_remote_with(url: &str, extra_host: Option<&str>) -> Option<GitHubRepo> {
    let url = url.trim();
    let (host, path) = if let Some((scheme, rest)) = url.split_once("://") {
        if !matches!(
            scheme.to_ascii_lowercase().as_str(),
            "https" | "http" | "ssh" | "git" | "git+ssh" | "ssh+git"
        ) {
            return None;
        }
        let (authority, path) = rest.split_once('/')?;
        // user[:password]@host[:port]
        let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        let host = host_port.split(':').next().unwrap_or(host_port);
        (host, path)
    } else {
        // scp-like: [user@]host:owner/repo(.git)
        let (left, path) = url.split_once(':')?;
        if left.contains('/') || path.starts_with("//") {
            return None;
        }
        let host = left.rsplit_once('@').map_or(left, |(_, h)| h);
        (host, path)
    };
    if !is_github_host(host, extra_host) {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or("");
    let path = path.trim_matches('/');
    let path = path.strip_suffix(".git").unwrap_or(path);
    let mut parts = path.split('/');
    let owner = parts.next()?;
    let name = parts.next()?;
    if parts.next().is_some() || !valid_segment(owner) || !valid_segment(name) {
        return None;
    }
    Some(GitHubRepo {
        owner: owner.to_string(),
        name: name.to_string(),
    })
}

/// [`parse_github_remote_with`] with the extra host taken from `SLOPGUARD_GITHUB_HOST`.
pub fn parse_github_remote(url: &str) -> Option<GitHubRepo> {
    let extra = std::env::var("SLOPGUARD_GITHUB_HOST").ok();
    parse_github_remote_with(url, extra.as_deref())
}

fn valid_segment(s: &str) -> bool {
    !s.is_empty()
        && s != "."
        && s != ".."
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(o: &str, n: &str) -> Option<GitHubRepo> {
        Some(GitHubRepo {
            owner: o.into(),
            name: n.into(),
        })
    }

    #[test]
    fn https_and_ssh_forms() {
        for url in [
            "https://github.com/acme/widget.git",
            "https://github.com/acme/widget",
            "https://github.com/acme/widget/",
            "http://github.com/acme/widget.git",
            "https://user:tok@github.com/acme/widget.git",
            "https://www.GitHub.com/acme/widget",
            "git@github.com:acme/widget.git",
            "git@github.com:acme/widget",
            "github.com:acme/widget.git",
            "ssh://git@github.com/acme/widget.git",
            "ssh://git@github.com:22/acme/widget.git",
            "git://github.com/acme/widget.git",
            "  https://github.com/acme/widget.git\n",
        ] {
            assert_eq!(
                parse_github_remote_with(url, None),
                repo("acme", "widget"),
                "{url}"
            );
        }
        assert_eq!(
            parse_github_remote_with("git@github.com:a-b_c/x.y.git", None),
            repo("a-b_c", "x.y")
        );
    }

    #[test]
    fn rejects_other_forges_paths_and_garbage() {
        for url in [
            "https://gitlab.com/acme/widget.git",
            "git@gitlab.com:acme/widget.git",
            "/home/me/widget",
            "./widget",
            "file:///tmp/acme/widget.git",
            "https://github.com/acme",
            "https://github.com/acme/widget/tree/main",
            "https://github.com/../widget",
            "git@github.com:",
            "",
            "C:/repos/widget",
        ] {
            assert_eq!(parse_github_remote_with(url, None), None, "{url}");
        }
    }

    #[test]
    fn enterprise_host_when_configured() {
        let url = "git@git.corp.example:team/tool.git";
        assert_eq!(parse_github_remote_with(url, None), None);
        assert_eq!(
            parse_github_remote_with(url, Some("git.corp.example")),
            repo("team", "tool")
        );
    }
}
