//! The GitHub REST calls of the CI watch: the pull request (head commit and branch), the check
//! runs of a commit, and an Actions job's log. Blocking: each call runs on a private
//! current-thread runtime, so the watch can call the (blocking) run loop between calls.

use serde_json::Value;

use super::super::ForgeError;
use super::super::github::{GitHubClient, api_message};
use super::super::remote::GitHubRepo;

/// Check-run pages read per poll (100 runs a page).
const MAX_PAGES: u32 = 10;
/// Largest job log read; a longer one keeps its tail (where the failing step is).
const MAX_LOG_BYTES: usize = 4 * 1024 * 1024;

/// The pull request fields the watch needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PullInfo {
    /// `open` or `closed`.
    pub state: String,
    /// Head commit.
    pub head_sha: String,
    /// Head branch (in the head repository).
    pub head_ref: String,
    /// `owner/name` of the repository the head branch lives in.
    pub head_repo: String,
    /// Web URL.
    pub html_url: String,
}

/// One check run of a commit.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CheckRun {
    /// Check-run id (for GitHub Actions, also the job id).
    pub id: u64,
    /// The check's name (an Actions job's name).
    pub name: String,
    /// `queued`, `in_progress`, `completed`, ...
    pub status: String,
    /// When completed: `success`, `failure`, `neutral`, `skipped`, `cancelled`, ...
    pub conclusion: Option<String>,
    /// The app that runs it (`github-actions` has job logs).
    pub app: String,
    /// The check's own report (`output.title`, `.summary`, `.text`), used when no log exists.
    pub output: String,
}

/// A blocking GitHub client for the watch.
pub struct CiApi {
    client: GitHubClient,
    runtime: tokio::runtime::Runtime,
}

impl CiApi {
    /// A client for `api_base` with `token`.
    pub fn new(api_base: &str, token: &str) -> Result<Self, ForgeError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| ForgeError::Http(format!("cannot start a runtime: {e}")))?;
        Ok(Self {
            client: GitHubClient::new(api_base, token)?,
            runtime,
        })
    }

    /// `GET /repos/{owner}/{repo}/pulls/{number}`.
    pub fn pull(&self, repo: &GitHubRepo, number: u64) -> Result<PullInfo, ForgeError> {
        let path = format!("/repos/{}/{}/pulls/{number}", repo.owner, repo.name);
        let v: Value = serde_json::from_str(&self.get_text(&path)?)
            .map_err(|e| ForgeError::Http(format!("unexpected pull request reply: {e}")))?;
        let s = |p: &str| {
            v.pointer(p)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        let info = PullInfo {
            state: s("/state"),
            head_sha: s("/head/sha"),
            head_ref: s("/head/ref"),
            head_repo: s("/head/repo/full_name"),
            html_url: s("/html_url"),
        };
        if info.head_sha.is_empty() || info.head_ref.is_empty() {
            return Err(ForgeError::Http(
                "the pull request reply has no head commit or branch".into(),
            ));
        }
        Ok(info)
    }

    /// `GET /repos/{owner}/{repo}/commits/{sha}/check-runs`, every page (up to 1,000 runs).
    pub fn check_runs(&self, repo: &GitHubRepo, sha: &str) -> Result<Vec<CheckRun>, ForgeError> {
        let mut runs = Vec::new();
        for page in 1..=MAX_PAGES {
            let path = format!(
                "/repos/{}/{}/commits/{sha}/check-runs?per_page=100&page={page}",
                repo.owner, repo.name
            );
            let v: Value = serde_json::from_str(&self.get_text(&path)?)
                .map_err(|e| ForgeError::Http(format!("unexpected check-runs reply: {e}")))?;
            let total = v.get("total_count").and_then(Value::as_u64).unwrap_or(0);
            let list = v.get("check_runs").and_then(Value::as_array);
            let before = runs.len();
            runs.extend(list.into_iter().flatten().filter_map(check_run));
            if runs.len() == before || runs.len() as u64 >= total {
                break;
            }
        }
        Ok(runs)
    }

    /// `GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs` (GitHub answers with a redirect
    /// to the log, which is followed). A log longer than 4 MiB keeps its tail.
    pub fn job_log(&self, repo: &GitHubRepo, job_id: u64) -> Result<String, ForgeError> {
        let path = format!(
            "/repos/{}/{}/actions/jobs/{job_id}/logs",
            repo.owner, repo.name
        );
        let text = self.get_text(&path)?;
        if text.len() <= MAX_LOG_BYTES {
            return Ok(text);
        }
        let mut cut = text.len() - MAX_LOG_BYTES;
        while !text.is_char_boundary(cut) {
            cut += 1;
        }
        Ok(text[cut..].to_string())
    }

    /// GET `path`; the body of a success, else the API's error.
    fn get_text(&self, path: &str) -> Result<String, ForgeError> {
        self.runtime.block_on(async {
            let resp = self
                .client
                .request(reqwest::Method::GET, path)
                .send()
                .await
                .map_err(|e| ForgeError::Http(e.to_string()))?;
            let status = resp.status();
            let text = resp
                .text()
                .await
                .map_err(|e| ForgeError::Http(e.to_string()))?;
            if status.is_success() {
                Ok(text)
            } else {
                Err(ForgeError::Api {
                    status: status.as_u16(),
                    message: api_message(&text),
                })
            }
        })
    }
}

/// One element of `check_runs`; `None` when it has no id.
fn check_run(v: &Value) -> Option<CheckRun> {
    let s = |p: &str| v.pointer(p).and_then(Value::as_str).map(str::to_string);
    let output = ["/output/title", "/output/summary", "/output/text"]
        .iter()
        .filter_map(|p| s(p))
        .filter(|t| !t.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    Some(CheckRun {
        id: v.get("id").and_then(Value::as_u64)?,
        name: s("/name").unwrap_or_default(),
        status: s("/status").unwrap_or_default(),
        conclusion: s("/conclusion"),
        app: s("/app/slug").unwrap_or_default(),
        output,
    })
}
