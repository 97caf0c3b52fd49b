//! Pull-request URLs: `https://github.com/owner/repo/pull/7` (also with `/files`, `/checks`, a
//! query or a fragment after the number).

use super::super::remote::{GitHubRepo, parse_github_remote_with};

/// A pull request named by its web URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PullRef {
    /// The repository the pull request is in (its base repository).
    pub repo: GitHubRepo,
    /// The pull request's number.
    pub number: u64,
}

/// Parses a pull-request web URL; the error says what a valid one looks like. `extra_host`
/// adds a GitHub Enterprise host (as for remotes).
pub fn parse_pr_url_with(url: &str, extra_host: Option<&str>) -> Result<PullRef, String> {
    let hint = || {
        format!(
            "`{url}` is not a GitHub pull-request URL; give it as https://github.com/OWNER/REPO/pull/NUMBER"
        )
    };
    let trimmed = url.trim();
    let no_tail = trimmed.split(['?', '#']).next().unwrap_or("");
    let (repo_part, rest) = no_tail.split_once("/pull/").ok_or_else(hint)?;
    let number = rest
        .split('/')
        .next()
        .and_then(|n| n.parse::<u64>().ok())
        .filter(|n| *n > 0)
        .ok_or_else(hint)?;
    if !(repo_part.starts_with("https://") || repo_part.starts_with("http://")) {
        return Err(hint());
    }
    let repo = parse_github_remote_with(repo_part, extra_host).ok_or_else(hint)?;
    Ok(PullRef { repo, number })
}

/// [`parse_pr_url_with`] with the extra host taken from `SLOPGUARD_GITHUB_HOST`.
pub fn parse_pr_url(url: &str) -> Result<PullRef, String> {
    let extra = std::env::var("SLOPGUARD_GITHUB_HOST").ok();
    parse_pr_url_with(url, extra.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pull_request_urls() {
        for url in [
            "https://github.com/acme/widget/pull/7",
            "https://github.com/acme/widget/pull/7/",
            "https://github.com/acme/widget/pull/7/files",
            "https://github.com/acme/widget/pull/7/checks?check_run_id=1",
            "https://github.com/acme/widget/pull/7#issuecomment-1",
            " https://www.github.com/acme/widget/pull/7\n",
        ] {
            let pr = parse_pr_url_with(url, None).unwrap();
            assert_eq!(pr.repo.full_name(), "acme/widget", "{url}");
            assert_eq!(pr.number, 7, "{url}");
        }
    }

    #[test]
    fn anything_else_is_refused_with_the_expected_shape() {
        for url in [
            "https://github.com/acme/widget",
            "https://github.com/acme/widget/pull/",
            "https://github.com/acme/widget/pull/x",
            "https://github.com/acme/widget/pull/0",
            "https://gitlab.com/acme/widget/pull/7",
            "git@github.com:acme/widget/pull/7",
            "https://github.com/acme/widget/issues/7",
            "7",
        ] {
            let err = parse_pr_url_with(url, None).unwrap_err();
            assert!(
                err.contains("https://github.com/OWNER/REPO/pull/NUMBER"),
                "{url}: {err}"
            );
        }
    }

    #[test]
    fn enterprise_host_when_configured() {
        let url = "https://git.corp.example/team/tool/pull/3";
        assert!(parse_pr_url_with(url, None).is_err());
        assert_eq!(
            parse_pr_url_with(url, Some("git.corp.example"))
                .unwrap()
                .number,
            3
        );
    }
}
