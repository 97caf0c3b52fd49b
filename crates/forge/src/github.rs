//! A minimal GitHub REST client (plain reqwest, rustls with ring): open a pull request, or
//! update the open one for the same branch.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::ForgeError;
use super::remote::GitHubRepo;

/// The REST API version sent in `X-GitHub-Api-Version`.
pub const API_VERSION: &str = "2022-11-28";
/// The default API base.
pub const DEFAULT_API_BASE: &str = "https://api.github.com";

/// A pull request to open.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewPull {
    /// Title.
    pub title: String,
    /// Branch with the changes (`branch` or `owner:branch`).
    pub head: String,
    /// Branch to merge into.
    pub base: String,
    /// Markdown body.
    pub body: String,
    /// Open as a draft.
    pub draft: bool,
}

/// An opened (or found) pull request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PullRequest {
    /// PR number.
    pub number: u64,
    /// Web URL.
    pub html_url: String,
    /// True when an existing open PR for the branch was updated instead of a new one opened.
    #[serde(default)]
    pub updated_existing: bool,
}

/// A GitHub REST client bound to one API base and token.
#[derive(Debug, Clone)]
pub struct GitHubClient {
    api_base: String,
    token: String,
    http: reqwest::Client,
}

impl GitHubClient {
    /// A client for `api_base` (e.g. `https://api.github.com`, or a test server) with `token`.
    pub fn new(api_base: &str, token: &str) -> Result<Self, ForgeError> {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            .user_agent(user_agent())
            .connect_timeout(std::time::Duration::from_secs(10))
            .timeout(std::time::Duration::from_secs(60))
            .build()
            .map_err(|e| ForgeError::Http(e.to_string()))?;
        Ok(Self {
            api_base: api_base.trim_end_matches('/').to_string(),
            token: token.to_string(),
            http,
        })
    }

    pub(crate) fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.http
            .request(method, format!("{}{}", self.api_base, path))
            .bearer_auth(&self.token)
            .header(reqwest::header::ACCEPT, "application/vnd.github+json")
            .header("X-GitHub-Api-Version", API_VERSION)
    }

    /// `GET path` (`/repos/{owner}/{repo}/pulls/comments?...`): the answer's JSON, or the API's
    /// error with its status.
    pub async fn get_json(&self, path: &str) -> Result<serde_json::Value, ForgeError> {
        let text = success_text(self.request(reqwest::Method::GET, path)).await?;
        serde_json::from_str(&text)
            .map_err(|e| ForgeError::Http(format!("unexpected answer to GET {path}: {e}")))
    }

    /// `POST /repos/{owner}/{repo}/pulls`. When GitHub answers 422 because a PR for the branch
    /// already exists, the open PR is looked up and its title and body are updated instead.
    pub async fn create_pull(
        &self,
        repo: &GitHubRepo,
        pull: &NewPull,
    ) -> Result<PullRequest, ForgeError> {
        let path = format!("/repos/{}/{}/pulls", repo.owner, repo.name);
        let body = json!({
            "title": pull.title,
            "head": pull.head,
            "base": pull.base,
            "body": pull.body,
            "draft": pull.draft,
        });
        let resp = self
            .request(reqwest::Method::POST, &path)
            .json(&body)
            .send()
            .await
            .map_err(|e| ForgeError::Http(e.to_string()))?;
        let status = resp.status();
        let text = resp.text().await.unwrap_or_default();
        if status.is_success() {
            return parse_pull(&text, false);
        }
        if status.as_u16() == 422 && text.contains("already exists") {
            let head = if pull.head.contains(':') {
                pull.head.clone()
            } else {
                format!("{}:{}", repo.owner, pull.head)
            };
            if let Some(existing) = self.find_open_pull(repo, &head).await? {
                return self.update_pull(repo, existing.number, pull).await;
            }
        }
        Err(ForgeError::Api {
            status: status.as_u16(),
            message: api_message(&text),
        })
    }

    /// `GET /repos/{owner}/{repo}/pulls?head=owner:branch&state=open`: the open PR for `head`.
    pub async fn find_open_pull(
        &self,
        repo: &GitHubRepo,
        head: &str,
    ) -> Result<Option<PullRequest>, ForgeError> {
        let path = format!(
            "/repos/{}/{}/pulls?head={}&state=open",
            repo.owner,
            repo.name,
            percent_encode(head)
        );
        let list: Vec<Value> = serde_json::from_value(self.get_json(&path).await?)
            .map_err(|e| ForgeError::Http(format!("unexpected pulls list: {e}")))?;
        match list.first() {
            Some(v) => parse_pull(&v.to_string(), true).map(Some),
            None => Ok(None),
        }
    }

    /// `PATCH /repos/{owner}/{repo}/pulls/{number}` with the new title and body.
    pub async fn update_pull(
        &self,
        repo: &GitHubRepo,
        number: u64,
        pull: &NewPull,
    ) -> Result<PullRequest, ForgeError> {
        let path = format!("/repos/{}/{}/pulls/{number}", repo.owner, repo.name);
        let request = self
            .request(reqwest::Method::PATCH, &path)
            .json(&json!({"title": pull.title, "body": pull.body}));
        parse_pull(&success_text(request).await?, true)
    }
}

/// Sends `request` and returns the answer's text when GitHub says it succeeded, else the API's
/// error with its status.
async fn success_text(request: reqwest::RequestBuilder) -> Result<String, ForgeError> {
    let resp = request
        .send()
        .await
        .map_err(|e| ForgeError::Http(e.to_string()))?;
    let status = resp.status();
    let text = resp.text().await.unwrap_or_default();
    if !status.is_success() {
        return Err(ForgeError::Api {
            status: status.as_u16(),
            message: api_message(&text),
        });
    }
    Ok(text)
}

/// Percent-encodes everything but RFC 3986 unreserved characters.
fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `slopguard/<version>`.
pub fn user_agent() -> String {
    format!("slopguard/{}", env!("CARGO_PKG_VERSION"))
}

fn parse_pull(text: &str, updated_existing: bool) -> Result<PullRequest, ForgeError> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| ForgeError::Http(format!("unexpected pull request reply: {e}")))?;
    let number = v
        .get("number")
        .and_then(Value::as_u64)
        .ok_or_else(|| ForgeError::Http("pull request reply without a number".into()))?;
    let html_url = v
        .get("html_url")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    Ok(PullRequest {
        number,
        html_url,
        updated_existing,
    })
}

/// GitHub's error message plus the first detailed error, or the raw text.
pub(crate) fn api_message(text: &str) -> String {
    let Ok(v) = serde_json::from_str::<Value>(text) else {
        return text.chars().take(300).collect();
    };
    let mut msg = v
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if let Some(first) = v.pointer("/errors/0") {
        let detail = first
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| first.to_string());
        msg = format!("{msg}: {detail}");
    }
    msg
}
