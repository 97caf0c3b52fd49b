//! Pull-request review comments that address the bot (`@slopguard ...`), polled from the GitHub
//! REST API (`GET /repos/{owner}/{repo}/pulls/comments`) and turned into feedback intakes.
//!
//! A comment addresses the bot when its body mentions `@<mention>` as a whole word
//! (case-insensitive). The feedback is the body without the mention, followed by a line naming
//! the author and the comment's URL; it is about the commented `path:line` when GitHub gives
//! one, else the comment's URL. Each comment is taken once: its id is the intake's source
//! (`github-comment:<id>`), and comments already in the store are skipped. Comments by bot
//! accounts are ignored, so two bots cannot feed each other.

use serde_json::Value;

use super::{Intake, Severity};
use slopguard_forge::github::GitHubClient;
use slopguard_forge::{ForgeError, GitHubRepo};

/// The mention the bot answers to by default.
pub const DEFAULT_MENTION: &str = "slopguard";
/// Comments read per page (GitHub's maximum).
const PER_PAGE: usize = 100;
/// Pages read at most per poll.
const MAX_PAGES: usize = 10;

/// A review comment that addresses the bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotComment {
    /// GitHub's id of the comment.
    pub id: u64,
    /// The feedback taken in from it.
    pub intake: Intake,
}

/// The intake source of comment `id`: how a comment already taken in is recognised.
pub fn source_of(id: u64) -> String {
    format!("github-comment:{id}")
}

/// Where to poll.
pub struct PollRequest<'a> {
    /// The API base (`https://api.github.com`, or a test server).
    pub api_base: &'a str,
    /// The token (`GITHUB_TOKEN`).
    pub token: &'a str,
    /// The repository.
    pub repo: &'a GitHubRepo,
    /// Only comments updated at or after this ISO 8601 time.
    pub since: Option<&'a str>,
    /// The bot's name, without `@`.
    pub mention: &'a str,
}

/// Reads the repository's review comments (up to `MAX_PAGES` pages) and returns those that
/// address the bot, oldest first. Blocking: runs its own small runtime.
pub fn poll(req: &PollRequest<'_>) -> Result<Vec<BotComment>, ForgeError> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ForgeError::Http(format!("cannot start a runtime: {e}")))?;
    let comments = rt.block_on(fetch_all(req))?;
    Ok(comments
        .iter()
        .filter_map(|c| bot_comment(c, req.mention))
        .collect())
}

async fn fetch_all(req: &PollRequest<'_>) -> Result<Vec<Value>, ForgeError> {
    let client = GitHubClient::new(req.api_base, req.token)?;
    let mut all = Vec::new();
    for page in 1..=MAX_PAGES {
        let mut path = format!(
            "/repos/{}/{}/pulls/comments?sort=created&direction=asc&per_page={PER_PAGE}&page={page}",
            req.repo.owner, req.repo.name
        );
        if let Some(since) = req.since {
            path.push_str(&format!("&since={}", since.replace('+', "%2B")));
        }
        let list: Vec<Value> = serde_json::from_value(client.get_json(&path).await?)
            .map_err(|e| ForgeError::Http(format!("unexpected review comments list: {e}")))?;
        let last = list.len() < PER_PAGE;
        all.extend(list);
        if last {
            break;
        }
    }
    Ok(all)
}

/// The feedback in one review comment, when it addresses the bot and is not a bot's.
pub fn bot_comment(c: &Value, mention: &str) -> Option<BotComment> {
    if c["user"]["type"] == "Bot" || c["user"]["login"].as_str()?.ends_with("[bot]") {
        return None;
    }
    let text = addressed_text(c["body"].as_str()?, mention)?;
    let id = c["id"].as_u64()?;
    let url = c["html_url"].as_str().unwrap_or("");
    let login = c["user"]["login"].as_str().unwrap_or("someone");
    let line = c["line"].as_u64().or_else(|| c["original_line"].as_u64());
    let on = match (c["path"].as_str(), line) {
        (Some(path), Some(line)) => Some(format!("{path}:{line}")),
        _ => (!url.is_empty()).then(|| url.to_string()),
    };
    let full = format!("{text}\n\n(review comment by @{login}: {url})");
    let intake = Intake::new(&full, on, Severity::Medium, &source_of(id)).ok()?;
    Some(BotComment { id, intake })
}

/// `body` without the `@mention`, when it mentions the bot as a whole word and says something
/// besides.
pub fn addressed_text(body: &str, mention: &str) -> Option<String> {
    let needle = format!("@{}", mention.to_ascii_lowercase());
    let lower = body.to_ascii_lowercase();
    let mut found = None;
    let mut from = 0;
    while let Some(i) = lower[from..].find(&needle).map(|i| i + from) {
        let end = i + needle.len();
        let whole = !lower[end..]
            .chars()
            .next()
            .is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_');
        let starts = i == 0 || !lower[..i].ends_with(|ch: char| ch.is_ascii_alphanumeric());
        if whole && starts {
            found = Some((i, end));
            break;
        }
        from = end;
    }
    let (i, end) = found?;
    let before = body[..i].trim();
    let after = body[end..].trim_start_matches([':', ',']).trim();
    let text = match (before.is_empty(), after.is_empty()) {
        (true, true) => return None,
        (true, false) => after.to_string(),
        (false, true) => before.to_string(),
        (false, false) => format!("{before} {after}"),
    };
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_whole_word_mentions_with_something_to_say_address_the_bot() {
        assert_eq!(
            addressed_text("@slopguard average() divides by n-1", "slopguard").as_deref(),
            Some("average() divides by n-1")
        );
        assert_eq!(
            addressed_text("This is off by one. @SlopGuard: fix it please", "slopguard").as_deref(),
            Some("This is off by one. fix it please")
        );
        assert_eq!(addressed_text("@slopguard-bot look", "slopguard"), None);
        assert_eq!(addressed_text("mail me@slopguard.dev", "slopguard"), None);
        assert_eq!(addressed_text("@slopguard", "slopguard"), None);
        assert_eq!(addressed_text("no mention here", "slopguard"), None);
    }

    #[test]
    fn a_comment_becomes_an_intake_about_its_line() {
        let c = json!({"id": 42, "body": "@slopguard average() divides by n-1",
            "path": "calc/stats.py", "line": 11, "html_url": "https://github.com/o/r/pull/3#discussion_r42",
            "user": {"login": "alice", "type": "User"}});
        let b = bot_comment(&c, "slopguard").unwrap();
        assert_eq!(b.id, 42);
        assert_eq!(b.intake.on.as_deref(), Some("calc/stats.py:11"));
        assert_eq!(b.intake.source, "github-comment:42");
        assert!(b.intake.text.starts_with("average() divides by n-1\n\n(review comment by @alice: https://github.com/o/r/pull/3#discussion_r42)"));
        // No line: about the comment's URL. A bot's comment: ignored.
        let mut outdated = c.clone();
        outdated["line"] = Value::Null;
        assert_eq!(
            bot_comment(&outdated, "slopguard")
                .unwrap()
                .intake
                .on
                .as_deref(),
            Some("https://github.com/o/r/pull/3#discussion_r42")
        );
        let mut bot = c.clone();
        bot["user"] = json!({"login": "ci[bot]", "type": "Bot"});
        assert_eq!(bot_comment(&bot, "slopguard"), None);
    }
}
