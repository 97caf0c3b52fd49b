//! The pull request: push the run's branch and open a PR on GitHub with a structured
//! body, or — without a GitHub remote or a token — keep the branch local and write the body to
//! a file. Also resolves `slopguard run <git URL>` targets by cloning into a cache
//! ([`prepare_target`]).
//!
//! * [`publish`] — the whole phase; never fails the run (errors become a local body file).
//! * [`body::render_body`] / [`body::pr_title`] — the markdown body from the run's
//!   [`RunSummary`](slopguard_agent::run::summary::RunSummary).
//! * [`github::GitHubClient`] — `POST /repos/{owner}/{repo}/pulls` (plain reqwest).
//! * [`remote::parse_github_remote`] — https and ssh remote forms.

pub mod body;
pub mod ci;
pub mod github;
pub mod push;
pub mod remote;
pub mod target;

use std::path::{Path, PathBuf};
use std::time::Duration;

pub use body::{pr_title, render_body};

pub use github::{GitHubClient, NewPull, PullRequest};
pub use remote::{GitHubRepo, parse_github_remote};
use slopguard_agent::run::summary::{RunSummary, SubtaskStatus};
pub use target::{PreparedTarget, prepare_target};

/// Errors of the forge phase.
#[derive(Debug, thiserror::Error)]
pub enum ForgeError {
    /// A `git` command failed.
    #[error("{0}")]
    Git(String),
    /// Transport error talking to the API.
    #[error("GitHub request failed: {0}")]
    Http(String),
    /// The API answered with an error status.
    #[error("GitHub API answered {status}: {message}")]
    Api {
        /// HTTP status.
        status: u16,
        /// GitHub's message.
        message: String,
    },
    /// The run target cannot be used.
    #[error("{0}")]
    Target(String),
    /// Writing the body file failed.
    #[error("cannot write {0}: {1}")]
    Io(String, std::io::Error),
}

/// Forge settings, usually from the environment ([`ForgeConfig::from_env`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForgeConfig {
    /// `GITHUB_TOKEN` (or `GH_TOKEN`).
    pub token: Option<String>,
    /// `SLOPGUARD_GITHUB_API`, else `GITHUB_API_URL`, else `https://api.github.com`.
    pub api_base: String,
    /// The remote to push to (default `origin`).
    pub remote: String,
    /// Open the PR as a draft (`SLOPGUARD_PR_DRAFT=1`).
    pub draft: bool,
}

impl Default for ForgeConfig {
    fn default() -> Self {
        Self {
            token: None,
            api_base: github::DEFAULT_API_BASE.to_string(),
            remote: "origin".to_string(),
            draft: false,
        }
    }
}

impl ForgeConfig {
    /// Reads `GITHUB_TOKEN` / `GH_TOKEN`, `SLOPGUARD_GITHUB_API` / `GITHUB_API_URL`,
    /// `SLOPGUARD_PR_DRAFT`.
    pub fn from_env() -> Self {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
        Self {
            token: var("GITHUB_TOKEN").or_else(|| var("GH_TOKEN")),
            api_base: var("SLOPGUARD_GITHUB_API")
                .or_else(|| var("GITHUB_API_URL"))
                .unwrap_or_else(|| github::DEFAULT_API_BASE.to_string()),
            remote: "origin".to_string(),
            draft: var("SLOPGUARD_PR_DRAFT")
                .is_some_and(|v| matches!(v.as_str(), "1" | "true" | "yes" | "on")),
        }
    }
}

/// What [`publish`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrOutcome {
    /// The branch was pushed and a PR opened (or the open one updated).
    Opened {
        /// PR number.
        number: u64,
        /// Web URL.
        url: String,
        /// The body, also kept as a file.
        body_path: PathBuf,
    },
    /// The branch stays local; the body is in `body_path`.
    Local {
        /// The body file.
        body_path: PathBuf,
        /// Why no PR was opened (no GitHub remote, no token, push or API failure).
        reason: String,
    },
}

impl PrOutcome {
    /// The body file.
    pub fn body_path(&self) -> &Path {
        match self {
            PrOutcome::Opened { body_path, .. } | PrOutcome::Local { body_path, .. } => body_path,
        }
    }

    /// A one-line, human description (`opened PR #3: URL`, `PR body written to PATH (why)`).
    pub fn describe(&self) -> String {
        match self {
            PrOutcome::Opened { number, url, .. } => format!("opened PR #{number}: {url}"),
            PrOutcome::Local { body_path, reason } => {
                format!("PR body written to {} ({reason})", body_path.display())
            }
        }
    }
}

/// One publish request.
#[derive(Debug, Clone)]
pub struct PublishRequest<'a> {
    /// A directory of the repository (its main working tree or the run's worktree); git
    /// commands run there, nothing in it is modified.
    pub repo_dir: &'a Path,
    /// The run's branch.
    pub branch: &'a str,
    /// The base branch.
    pub base: &'a str,
    /// The run's summary.
    pub summary: &'a RunSummary,
    /// Where to write `PR.md` (e.g. `<repo>/.slopguard/runs/<id>`).
    pub out_dir: &'a Path,
}

/// The PR phase of `slopguard run` for the finished run `summary`: the body goes to
/// `<repo>/.slopguard/runs/<run id>/PR.md`, and with a GitHub remote and a token the branch is
/// pushed and a PR opened against the run's base. A run on `HEAD` targets the branch `HEAD`
/// names (GitHub needs a branch name as the base), or `HEAD` itself when it is detached.
pub fn publish_run(summary: &RunSummary, cfg: &ForgeConfig) -> Result<PrOutcome, ForgeError> {
    let repo = Path::new(&summary.run.repo);
    let out_dir = repo.join(".slopguard/runs").join(&summary.run.run_id);
    let base = match summary.run.base.as_str() {
        "HEAD" => push::git(
            repo,
            &["symbolic-ref", "--short", "-q", "HEAD"],
            &[],
            Duration::from_secs(30),
        )
        .ok()
        .map(|b| b.trim().to_string())
        .filter(|b| !b.is_empty())
        .unwrap_or_else(|| summary.run.base.clone()),
        other => other.to_string(),
    };
    publish(
        &PublishRequest {
            repo_dir: repo,
            branch: &summary.run.branch,
            base: &base,
            summary,
            out_dir: &out_dir,
        },
        cfg,
    )
}

/// Writes the body to `out_dir/PR.md`, then — with a GitHub `origin` and a token — pushes the
/// branch and opens the PR. Never fails: a push or API error leaves the branch local and says
/// why. Blocking: do not call from inside an async runtime (use [`publish_async`]).
pub fn publish(req: &PublishRequest<'_>, cfg: &ForgeConfig) -> Result<PrOutcome, ForgeError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ForgeError::Http(format!("cannot start a runtime: {e}")))?;
    runtime.block_on(publish_async(req, cfg))
}

/// [`publish`] for async callers. Errors only when the body file cannot be written.
pub async fn publish_async(
    req: &PublishRequest<'_>,
    cfg: &ForgeConfig,
) -> Result<PrOutcome, ForgeError> {
    let body = render_body(req.summary);
    let title = pr_title(req.summary);
    let body_path = write_body(req.out_dir, &title, &body)?;
    write_self_review(req.out_dir, req.summary)?;
    let local = |reason: String| PrOutcome::Local {
        body_path: body_path.clone(),
        reason,
    };
    let Some(url) = push::remote_url(req.repo_dir, &cfg.remote) else {
        return Ok(local(format!("no `{}` remote", cfg.remote)));
    };
    let Some(repo) = parse_github_remote(&url) else {
        return Ok(local(format!("`{}` is not a GitHub remote", cfg.remote)));
    };
    let Some(token) = cfg.token.as_deref() else {
        return Ok(local("GITHUB_TOKEN is not set".into()));
    };
    let committed = req
        .summary
        .subtasks()
        .filter(|s| s.status == SubtaskStatus::Committed)
        .count();
    if req.summary.run.dry_run || committed == 0 {
        return Ok(local("no commit to push".into()));
    }
    if let Err(e) = push::push_branch(req.repo_dir, &cfg.remote, req.branch, Some(token)) {
        return Ok(local(format!("push failed: {e}")));
    }
    let client = match GitHubClient::new(&cfg.api_base, token) {
        Ok(c) => c,
        Err(e) => return Ok(local(e.to_string())),
    };
    let pull = NewPull {
        title,
        head: req.branch.to_string(),
        base: req.base.to_string(),
        body,
        draft: cfg.draft,
    };
    match client.create_pull(&repo, &pull).await {
        Ok(pr) => Ok(PrOutcome::Opened {
            number: pr.number,
            url: pr.html_url,
            body_path,
        }),
        Err(e) => Ok(local(format!(
            "branch pushed, but opening the PR failed: {e}"
        ))),
    }
}

/// Writes the self-critic's review comment beside the body (`REVIEW.md`), when it wrote one.
fn write_self_review(out_dir: &Path, summary: &RunSummary) -> Result<(), ForgeError> {
    let Some(review) = summary
        .run
        .critics
        .as_ref()
        .and_then(|c| c.self_review.as_ref())
    else {
        return Ok(());
    };
    let path = out_dir.join("REVIEW.md");
    std::fs::write(
        &path,
        format!("# Self-review of run {}\n\n{review}\n", summary.run.run_id),
    )
    .map_err(|e| ForgeError::Io(path.display().to_string(), e))
}

/// Writes `# title\n\nbody` to `out_dir/PR.md` (atomically) and returns the path.
pub fn write_body(out_dir: &Path, title: &str, body: &str) -> Result<PathBuf, ForgeError> {
    std::fs::create_dir_all(out_dir)
        .map_err(|e| ForgeError::Io(out_dir.display().to_string(), e))?;
    let path = out_dir.join("PR.md");
    let tmp = out_dir.join(".PR.md.tmp");
    std::fs::write(&tmp, format!("# {title}\n\n{body}"))
        .map_err(|e| ForgeError::Io(tmp.display().to_string(), e))?;
    std::fs::rename(&tmp, &path).map_err(|e| ForgeError::Io(path.display().to_string(), e))?;
    Ok(path)
}
