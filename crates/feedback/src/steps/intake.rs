//! `poll`: the review comments that address the bot, read from the GitHub repository behind a
//! remote and taken in as pending items, each comment once.

use std::collections::BTreeSet;
use std::path::Path;

use super::error::StepError;
use crate::Intake;
use crate::github::{self, BotComment};
use crate::inbox::Inbox;
use slopguard_forge::{ForgeConfig, GitHubRepo, parse_github_remote};

/// What to poll.
#[derive(Debug, Clone)]
pub struct PollRequest<'a> {
    /// The git remote of the GitHub repository.
    pub remote: &'a str,
    /// Only comments updated at or after this ISO 8601 time.
    pub since: Option<&'a str>,
    /// The name the bot answers to (a leading `@` is dropped).
    pub mention: &'a str,
}

/// What a poll took in.
#[derive(Debug, Clone)]
pub struct Polled {
    /// The GitHub repository polled.
    pub repo: GitHubRepo,
    /// The name the bot answered to, without `@`.
    pub mention: String,
    /// The new items: their ids and the comments they came from, oldest first.
    pub added: Vec<(i64, BotComment)>,
    /// Comments addressed to the bot that were taken in before.
    pub already_taken: usize,
}

/// Polls the review comments of the GitHub repository behind `req.remote` (the token and the
/// API from `forge`) and adds each comment not taken in before as a pending item; `added` is
/// called as each is added.
pub fn poll(
    inbox: &Inbox,
    forge: &ForgeConfig,
    req: &PollRequest<'_>,
    added: &mut dyn FnMut(i64, &BotComment),
) -> Result<Polled, StepError> {
    let repo = github_repo(inbox.root(), req.remote)?;
    let Some(token) = forge.token.as_deref() else {
        return Err(StepError::Refused(format!(
            "no GitHub token: set GITHUB_TOKEN (or GH_TOKEN) to a token that can read the pull \
             requests of {}",
            repo.full_name()
        )));
    };
    let mention = req.mention.trim_start_matches('@');
    let comments = github::poll(&github::PollRequest {
        api_base: &forge.api_base,
        token,
        repo: &repo,
        since: req.since,
        mention,
    })
    .map_err(|e| {
        StepError::Refused(format!(
            "cannot read the review comments of {}: {e}",
            repo.full_name()
        ))
    })?;
    let taken: BTreeSet<String> = inbox
        .list(None, u32::MAX)?
        .iter()
        .filter_map(|r| Intake::from_row(r).map(|i| i.source))
        .collect();
    let mut new = Vec::new();
    for c in comments
        .iter()
        .filter(|c| !taken.contains(&c.intake.source))
    {
        let id = inbox.add(&c.intake)?;
        added(id, c);
        new.push((id, c.clone()));
    }
    Ok(Polled {
        repo,
        mention: mention.to_string(),
        already_taken: comments.len() - new.len(),
        added: new,
    })
}

/// The GitHub repository behind `remote` of the repository at `root`.
fn github_repo(root: &Path, remote: &str) -> Result<GitHubRepo, StepError> {
    let url = slopguard_agent::git::git(root, &["remote", "get-url", remote]).map_err(|_| {
        StepError::Refused(format!(
            "the repository has no remote `{remote}`: polling needs its GitHub remote \
             (--remote NAME)"
        ))
    })?;
    parse_github_remote(url.trim()).ok_or_else(|| {
        StepError::Refused(format!(
            "remote `{remote}` ({}) is not a GitHub repository; name another with --remote",
            url.trim()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        let ok = std::process::Command::new("git")
            .args(args)
            .current_dir(dir)
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        assert!(ok, "git {args:?}");
    }

    #[test]
    fn the_github_repository_is_read_from_the_named_remote_or_refused() {
        let dir = std::env::temp_dir().join(format!("sg-intake-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        git(&dir, &["init", "-q"]);
        git(
            &dir,
            &[
                "remote",
                "add",
                "origin",
                "https://github.com/octo/calc.git",
            ],
        );
        git(
            &dir,
            &[
                "remote",
                "add",
                "mirror",
                "https://example.org/octo/calc.git",
            ],
        );
        let repo = github_repo(&dir, "origin").expect("a GitHub remote");
        assert_eq!(repo.full_name(), "octo/calc");
        let other = github_repo(&dir, "mirror").unwrap_err();
        assert!(other.is_refusal());
        assert!(
            other.to_string().contains("is not a GitHub repository"),
            "{other}"
        );
        let missing = github_repo(&dir, "upstream").unwrap_err().to_string();
        assert!(missing.contains("has no remote `upstream`"), "{missing}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
