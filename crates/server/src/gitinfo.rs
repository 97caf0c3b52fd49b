//! `git` command wrappers for churn, blame and context. Output is parsed from formats with
//! control-character separators, so subjects and author names never confuse the parser.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Duration;

use serde::Serialize;

/// How long one git command may run.
const GIT_TIMEOUT: Duration = Duration::from_secs(20);

/// Runs `git -C root args...` and returns stdout.
pub(crate) async fn git(root: &Path, args: &[&str]) -> Result<String, String> {
    let mut cmd = tokio::process::Command::new("git");
    cmd.arg("-C")
        .arg(root)
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("LC_ALL", "C")
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    let out = tokio::time::timeout(GIT_TIMEOUT, cmd.output())
        .await
        .map_err(|_| format!("git {} timed out", args.join(" ")))?
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "git {} failed: {}",
            args.first().unwrap_or(&""),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The commit a "This reverts commit X" message reverts.
fn reverted_sha(message: &str) -> Option<String> {
    let idx = message.find("This reverts commit ")?;
    let rest = &message[idx + "This reverts commit ".len()..];
    let sha: String = rest.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
    (sha.len() >= 7).then_some(sha)
}

/// One commit touching a file.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ChurnCommit {
    pub sha: String,
    pub author: String,
    pub ts: String,
    pub subject: String,
    pub added: u64,
    pub deleted: u64,
    /// When this commit is a revert: the commit it reverts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reverts: Option<String>,
}

/// `GET /repo/churn/<path>` answer.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Churn {
    pub path: String,
    pub modifications: usize,
    pub reverts: usize,
    pub lines_added: u64,
    pub lines_deleted: u64,
    pub authors: Vec<String>,
    pub last_modified: Option<String>,
    pub commits: Vec<ChurnCommit>,
}

const REC: char = '\u{1e}';
const FLD: char = '\u{1f}';

fn ts_of(secs: &str) -> String {
    secs.trim()
        .parse::<i64>()
        .map(|s| slopguard_store::rfc3339_ms(s * 1000))
        .unwrap_or_default()
}

/// History of one file (following renames).
pub(crate) async fn churn(root: &Path, path: &str, since: Option<&str>) -> Result<Churn, String> {
    let mut args: Vec<String> = vec![
        "log".into(),
        "--follow".into(),
        "--numstat".into(),
        "--no-color".into(),
        "--format=%x1e%H%x1f%an%x1f%at%x1f%s%x1f%B%x1f".into(),
    ];
    if let Some(s) = since {
        args.push(format!("--since={s}"));
    }
    args.push("--".into());
    args.push(path.into());
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = git(root, &argv).await?;
    let mut commits = Vec::new();
    for rec in out.split(REC).filter(|r| !r.trim().is_empty()) {
        let parts: Vec<&str> = rec.splitn(6, FLD).collect();
        if parts.len() < 6 {
            continue;
        }
        let (mut added, mut deleted) = (0u64, 0u64);
        for line in parts[5].lines() {
            let mut cols = line.split('\t');
            if let (Some(a), Some(d), Some(_)) = (cols.next(), cols.next(), cols.next()) {
                added += a.parse::<u64>().unwrap_or(0);
                deleted += d.parse::<u64>().unwrap_or(0);
            }
        }
        commits.push(ChurnCommit {
            sha: parts[0].trim().to_owned(),
            author: parts[1].to_owned(),
            ts: ts_of(parts[2]),
            subject: parts[3].to_owned(),
            added,
            deleted,
            reverts: reverted_sha(parts[4]),
        });
    }
    let mut authors: Vec<String> = commits.iter().map(|c| c.author.clone()).collect();
    authors.sort();
    authors.dedup();
    Ok(Churn {
        path: path.to_owned(),
        modifications: commits.len(),
        reverts: commits.iter().filter(|c| c.reverts.is_some()).count(),
        lines_added: commits.iter().map(|c| c.added).sum(),
        lines_deleted: commits.iter().map(|c| c.deleted).sum(),
        authors,
        last_modified: commits.first().map(|c| c.ts.clone()),
        commits: commits.into_iter().take(200).collect(),
    })
}

/// Map reverted commit (full or abbreviated sha as written) -> reverting commit, over HEAD's
/// history.
async fn revert_map(root: &Path) -> Result<Vec<(String, String)>, String> {
    let out = git(
        root,
        &[
            "log",
            "--no-color",
            "--grep=This reverts commit",
            "--format=%x1e%H%x1f%B",
        ],
    )
    .await?;
    Ok(out
        .split(REC)
        .filter_map(|rec| {
            let (sha, body) = rec.split_once(FLD)?;
            Some((reverted_sha(body)?, sha.trim().to_owned()))
        })
        .collect())
}

/// One blamed line.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct BlameLine {
    pub line: u32,
    pub commit: String,
    pub author: String,
    pub ts: String,
    pub summary: String,
    pub content: String,
    /// The commit that reverted the one this line comes from, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reverted_by: Option<String>,
}

/// `GET /repo/blame/<path>` answer.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Blame {
    pub path: String,
    pub lines: Vec<BlameLine>,
    pub truncated: bool,
}

const MAX_BLAME_LINES: usize = 20_000;

/// Per-line blame of a file at HEAD, with `reverted_by` where the line's commit was reverted.
pub(crate) async fn blame(root: &Path, path: &str) -> Result<Blame, String> {
    let out = git(root, &["blame", "--line-porcelain", "HEAD", "--", path]).await?;
    let reverts = revert_map(root).await.unwrap_or_default();
    let mut lines = Vec::new();
    let mut meta: HashMap<String, (String, String, String)> = HashMap::new();
    let mut cur: Option<(String, u32)> = None;
    let (mut author, mut time, mut summary) = (String::new(), String::new(), String::new());
    let mut truncated = false;
    for l in out.lines() {
        if let Some(content) = l.strip_prefix('\t') {
            if let Some((sha, n)) = cur.take() {
                let entry = meta
                    .entry(sha.clone())
                    .or_insert_with(|| (author.clone(), time.clone(), summary.clone()))
                    .clone();
                if lines.len() >= MAX_BLAME_LINES {
                    truncated = true;
                    break;
                }
                let reverted_by = reverts
                    .iter()
                    .find(|(reverted, _)| sha.starts_with(reverted.as_str()))
                    .map(|(_, by)| by.clone());
                lines.push(BlameLine {
                    line: n,
                    commit: sha,
                    author: entry.0,
                    ts: ts_of(&entry.1),
                    summary: entry.2,
                    content: content.to_owned(),
                    reverted_by,
                });
            }
            continue;
        }
        let mut words = l.split(' ');
        let first = words.next().unwrap_or("");
        if first.len() == 40 && first.chars().all(|c| c.is_ascii_hexdigit()) {
            let _orig = words.next();
            let fin = words.next().and_then(|w| w.parse().ok()).unwrap_or(0);
            cur = Some((first.to_owned(), fin));
            if let Some((a, t, s)) = meta.get(first) {
                author = a.clone();
                time = t.clone();
                summary = s.clone();
            }
        } else if let Some(v) = l.strip_prefix("author ") {
            author = v.to_owned();
        } else if let Some(v) = l.strip_prefix("author-time ") {
            time = v.to_owned();
        } else if let Some(v) = l.strip_prefix("summary ") {
            summary = v.to_owned();
        }
    }
    Ok(Blame {
        path: path.to_owned(),
        lines,
        truncated,
    })
}

/// Tracked files of the repository at `root` (paths relative to the repository top level...
/// as `git ls-files` prints them from `root`).
pub(crate) async fn ls_files(root: &Path) -> Result<Vec<String>, String> {
    let out = git(root, &["ls-files", "-z"]).await?;
    Ok(out
        .split('\0')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect())
}

/// Commits per file over a window (for `/repo/context`).
pub(crate) async fn churn_counts(
    root: &Path,
    since: &str,
) -> Result<BTreeMap<String, usize>, String> {
    let out = git(
        root,
        &[
            "log",
            "--no-color",
            "--no-renames",
            "--relative",
            "--name-only",
            "--format=%x1e",
            &format!("--since={since}"),
            "--",
            ".",
        ],
    )
    .await?;
    let mut counts = BTreeMap::new();
    for rec in out.split(REC) {
        for f in rec.lines().map(str::trim).filter(|l| !l.is_empty()) {
            *counts.entry(f.to_owned()).or_insert(0) += 1;
        }
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    #[test]
    fn revert_messages() {
        assert_eq!(
            super::reverted_sha("Revert \"x\"\n\nThis reverts commit 0123456789abcdef.\n"),
            Some("0123456789abcdef".to_owned())
        );
        assert_eq!(super::reverted_sha("no revert here"), None);
    }
}
