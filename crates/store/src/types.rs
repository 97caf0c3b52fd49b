//! Plain data types of the store, in the gateway's wire shapes (DESIGN.md section 6).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::StoreError;

macro_rules! closed_enum {
    (
        $(#[$meta:meta])*
        $name:ident, $what:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal $(| $alias:literal)* ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum $name {
            $( $(#[$vmeta])* #[serde(rename = $text $(, alias = $alias)*)] $variant ),+
        }

        impl $name {
            /// Every value, in a stable order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The wire spelling.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// The wire spellings of every value, comma-separated (for error messages).
            pub fn allowed() -> String {
                Self::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", ")
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = StoreError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $( $text $(| $alias)* => Ok($name::$variant), )+
                    other => Err(StoreError::Invalid(format!(
                        "unknown {} {:?}; allowed: {}", $what, other, Self::allowed()
                    ))),
                }
            }
        }
    };
}

closed_enum! {
    /// How a subtask (or an agent step) ended. Every value the pipeline emits is accepted; a few
    /// common spellings ("failed", "failure", "ok", "skip", "abort") are aliases.
    Outcome, "outcome" {
        /// Landed: every guard passed.
        Success = "success" | "ok" | "succeeded",
        /// Failed after retries.
        Fail = "fail" | "failed" | "failure",
        /// Not attempted (filtered, out of scope, dry run).
        Skipped = "skipped" | "skip",
        /// Part of the subtask landed.
        Partial = "partial",
        /// Stopped from outside (timeout, interrupt, budget).
        Aborted = "aborted" | "abort",
    }
}

closed_enum! {
    /// The closed set of failure modes an observation may carry. Anything else is refused at the
    /// gateway with a 400 naming this set.
    FailureMode, "failure mode" {
        /// The LLM did not emit JSON.
        JsonEmit = "json_emit",
        /// A top-level definition disappeared (G7).
        AstDiff = "ast_diff",
        /// A previously passing test fails (G8).
        TestRegression = "test_regression",
        /// The patched file does not parse (G2).
        SyntaxInvalid = "syntax_invalid",
        /// The patch touched a denied path.
        Denylist = "denylist",
        /// A manifest edit that was not asked for (G1).
        ManifestBlock = "manifest_block",
        /// The patcher refused the patch (containment, size cap, bad hunk).
        PatcherReject = "patcher_reject",
        /// The build kept failing after every retry.
        BuildRetryExhausted = "build_retry_exhausted",
        /// git refused an operation (commit, push, checkout).
        GitRefused = "git_refused",
        /// The LLM's JSON could not be parsed even after repair.
        JsonParseBad = "json_parse_bad",
        /// A config file fails its JSON Schema (G10).
        SchemaInvalid = "schema_invalid",
        /// Docs or configs name things the repo does not have (G11/G12).
        Grounding = "grounding",
        /// Documentation content was destroyed (G13).
        DocDestroyed = "doc_destroyed",
        /// An added link or path does not resolve (G14).
        LinkInvalid = "link_invalid",
        /// An import of a package that is not declared.
        PhantomImport = "phantom_import",
        /// Tests were weakened or deleted.
        TestIntegrity = "test_integrity",
        /// Anything else.
        Unknown = "unknown",
    }
}

/// An observation to record (`POST /observation` body, plus our `repo`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewObservation {
    /// Repository the observation is about (any stable identifier: remote URL or path). Empty
    /// when the client does not say; observations are scoped by it.
    #[serde(default)]
    pub repo: String,
    /// The run that produced the observation.
    pub run_id: String,
    /// Which agent (worker, reviewer, an external coding agent, ...).
    pub agent: String,
    /// The plan's subtask id, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtask_id: Option<String>,
    /// Model name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Branch the run works on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// Commit the observation refers to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit_sha: Option<String>,
    /// How it ended.
    pub outcome: Outcome,
    /// Files the subtask touched (repo-relative paths).
    #[serde(default)]
    pub touched_files: Vec<String>,
    /// Why it failed, from the closed set.
    #[serde(default)]
    pub failure_modes: Vec<FailureMode>,
    /// Confidence in [0, 1], when the producer has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
    /// Free-form extra data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<serde_json::Value>,
    /// Observation time in milliseconds since the epoch; the store's clock when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ts_ms: Option<i64>,
}

/// Upper bounds on the size of an observation's fields, checked by
/// [`NewObservation::from_json`].
pub const MAX_TOUCHED_FILES: usize = 10_000;

impl NewObservation {
    /// A minimal observation (no optional fields).
    pub fn new(repo: &str, run_id: &str, agent: &str, outcome: Outcome) -> Self {
        NewObservation {
            repo: repo.to_owned(),
            run_id: run_id.to_owned(),
            agent: agent.to_owned(),
            subtask_id: None,
            model: None,
            branch: None,
            commit_sha: None,
            outcome,
            touched_files: Vec::new(),
            failure_modes: Vec::new(),
            confidence: None,
            extra: None,
            ts_ms: None,
        }
    }

    /// Parses and validates a wire body. Errors are [`StoreError::Invalid`] with a message fit
    /// for a client: a bad outcome or failure mode names the allowed set. Numbers are accepted
    /// where ids are strings (`"subtask_id": 3`).
    pub fn from_json(value: serde_json::Value) -> Result<Self, StoreError> {
        let serde_json::Value::Object(mut map) = value else {
            return Err(StoreError::Invalid(
                "observation body must be a JSON object".into(),
            ));
        };
        fn take_str(
            map: &mut serde_json::Map<String, serde_json::Value>,
            key: &str,
        ) -> Result<Option<String>, StoreError> {
            match map.remove(key) {
                None | Some(serde_json::Value::Null) => Ok(None),
                Some(serde_json::Value::String(s)) => Ok(Some(s)),
                Some(serde_json::Value::Number(n)) => Ok(Some(n.to_string())),
                Some(other) => Err(StoreError::Invalid(format!(
                    "field {key:?} must be a string, got {other}"
                ))),
            }
        }
        let required = |v: Option<String>, key: &str| {
            v.filter(|s| !s.is_empty())
                .ok_or_else(|| StoreError::Invalid(format!("missing required field {key:?}")))
        };
        let repo = take_str(&mut map, "repo")?.unwrap_or_default();
        let run_id = required(take_str(&mut map, "run_id")?, "run_id")?;
        let agent = required(take_str(&mut map, "agent")?, "agent")?;
        let subtask_id = take_str(&mut map, "subtask_id")?;
        let model = take_str(&mut map, "model")?;
        let branch = take_str(&mut map, "branch")?;
        let commit_sha = take_str(&mut map, "commit_sha")?;
        let outcome_text = required(take_str(&mut map, "outcome")?, "outcome")?;
        let outcome: Outcome = outcome_text.parse()?;
        let touched_files = match map.remove("touched_files") {
            None | Some(serde_json::Value::Null) => Vec::new(),
            Some(serde_json::Value::Array(items)) => items
                .into_iter()
                .map(|v| match v {
                    serde_json::Value::String(s) => Ok(s),
                    other => Err(StoreError::Invalid(format!(
                        "touched_files must hold strings, got {other}"
                    ))),
                })
                .collect::<Result<Vec<_>, _>>()?,
            Some(other) => {
                return Err(StoreError::Invalid(format!(
                    "touched_files must be an array, got {other}"
                )));
            }
        };
        if touched_files.len() > MAX_TOUCHED_FILES {
            return Err(StoreError::Invalid(format!(
                "touched_files holds {} paths; at most {MAX_TOUCHED_FILES}",
                touched_files.len()
            )));
        }
        let failure_modes = match map.remove("failure_modes") {
            None | Some(serde_json::Value::Null) => Vec::new(),
            Some(serde_json::Value::Array(items)) => items
                .into_iter()
                .map(|v| match v {
                    serde_json::Value::String(s) => s.parse::<FailureMode>(),
                    other => Err(StoreError::Invalid(format!(
                        "unknown failure mode {other}; allowed: {}",
                        FailureMode::allowed()
                    ))),
                })
                .collect::<Result<Vec<_>, _>>()?,
            Some(other) => {
                return Err(StoreError::Invalid(format!(
                    "failure_modes must be an array, got {other}"
                )));
            }
        };
        let confidence = match map.remove("confidence") {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::Number(n)) => match n.as_f64() {
                Some(f) if f.is_finite() => Some(f),
                _ => {
                    return Err(StoreError::Invalid(
                        "confidence must be a finite number".into(),
                    ));
                }
            },
            Some(other) => {
                return Err(StoreError::Invalid(format!(
                    "confidence must be a number, got {other}"
                )));
            }
        };
        let extra = map.remove("extra").filter(|v| !v.is_null());
        let ts_ms = match map.remove("ts_ms") {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::Number(n)) => n.as_i64(),
            Some(other) => {
                return Err(StoreError::Invalid(format!(
                    "ts_ms must be an integer, got {other}"
                )));
            }
        };
        Ok(NewObservation {
            repo,
            run_id,
            agent,
            subtask_id,
            model,
            branch,
            commit_sha,
            outcome,
            touched_files,
            failure_modes,
            confidence,
            extra,
            ts_ms,
        })
    }
}

/// One stored observation, as `GET /repo/agent-log` answers it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObservationRow {
    /// Store id (increasing).
    pub id: i64,
    /// RFC 3339 time (UTC, milliseconds).
    pub ts: String,
    /// The same time in milliseconds since the epoch.
    #[serde(default)]
    pub ts_ms: i64,
    /// Repository identifier ("" when the producer did not say).
    #[serde(default)]
    pub repo: String,
    /// Run id.
    pub run_id: String,
    /// Agent name.
    pub agent: String,
    /// Subtask id.
    #[serde(default)]
    pub subtask_id: Option<String>,
    /// Model name.
    #[serde(default)]
    pub model: Option<String>,
    /// Branch.
    #[serde(default)]
    pub branch: Option<String>,
    /// Commit.
    #[serde(default)]
    pub commit_sha: Option<String>,
    /// Outcome.
    pub outcome: Outcome,
    /// Touched files.
    #[serde(default)]
    pub touched_files: Vec<String>,
    /// Failure modes.
    #[serde(default)]
    pub failure_modes: Vec<FailureMode>,
    /// Confidence.
    #[serde(default)]
    pub confidence: Option<f64>,
    /// Free-form extra data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<serde_json::Value>,
}

/// Filters for [`crate::Store::agent_log`]. Rows come newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogQuery {
    /// Only this repository (all repositories when `None`).
    pub repo: Option<String>,
    /// Only rows at or after this time (milliseconds since the epoch).
    pub since_ms: Option<i64>,
    /// At most this many rows ([`DEFAULT_LOG_LIMIT`] when `None`, capped at [`MAX_LOG_LIMIT`]).
    pub limit: Option<u32>,
    /// Only this run.
    pub run_id: Option<String>,
    /// Only this agent.
    pub agent: Option<String>,
}

/// Rows returned by an agent-log query that names no limit.
pub const DEFAULT_LOG_LIMIT: u32 = 100;
/// The largest limit an agent-log query may ask for.
pub const MAX_LOG_LIMIT: u32 = 5_000;

/// A claim request (`POST /claim` body, plus our optional `repo`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimRequest {
    /// Repository the path belongs to ("" when not said).
    #[serde(default)]
    pub repo: String,
    /// The claimed path.
    pub path: String,
    /// Who claims it.
    pub agent: String,
    /// The claiming run.
    #[serde(default)]
    pub run_id: Option<String>,
    /// Requested time to live; clamped to [`MIN_CLAIM_TTL_S`]..=[`MAX_CLAIM_TTL_S`], default
    /// [`DEFAULT_CLAIM_TTL_S`].
    #[serde(default)]
    pub ttl_seconds: Option<i64>,
}

/// Shortest claim TTL in seconds.
pub const MIN_CLAIM_TTL_S: i64 = 30;
/// Longest claim TTL in seconds.
pub const MAX_CLAIM_TTL_S: i64 = 3600;
/// TTL of a claim that does not ask for one.
pub const DEFAULT_CLAIM_TTL_S: i64 = 300;

/// A live claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    /// The owner's proof: needed to release.
    pub lock_id: String,
    /// Repository.
    pub repo: String,
    /// Claimed path.
    pub path: String,
    /// Owning agent.
    pub agent: String,
    /// Owning run.
    pub run_id: Option<String>,
    /// When it was taken (ms since the epoch).
    pub acquired_at_ms: i64,
    /// When it lapses (ms since the epoch).
    pub expires_at_ms: i64,
    /// The same as RFC 3339.
    pub expires_at: String,
}

/// Result of a claim attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClaimOutcome {
    /// The caller now holds the claim.
    Acquired(Claim),
    /// Someone else holds a live claim on the path.
    Held(Claim),
}

/// How a release names the claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClaimRelease {
    /// By lock id (the owner's proof).
    LockId(String),
    /// By path and the owning agent.
    PathAgent {
        /// Repository ("" when not said).
        repo: String,
        /// Claimed path.
        path: String,
        /// Must be the owning agent.
        agent: String,
    },
}

/// Result of a release.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReleaseOutcome {
    /// The claim is gone.
    Released(Claim),
    /// A claim exists but the caller does not own it.
    NotOwner(Claim),
    /// No such claim.
    NotFound,
}

/// A run of the pipeline (or of an external agent session).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRow {
    /// Run id.
    pub run_id: String,
    /// Repository.
    pub repo: String,
    /// Start time (ms).
    pub started_at_ms: i64,
    /// End time (ms), when finished.
    pub finished_at_ms: Option<i64>,
    /// Free text status ("running", "done", "failed", ...).
    pub status: String,
    /// Free-form extra data.
    pub extra: Option<serde_json::Value>,
}

/// A feedback row for the self-correction loop (DESIGN.md section 8).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewFeedback {
    /// Repository.
    pub repo: String,
    /// Run the feedback is about.
    pub run_id: Option<String>,
    /// Kind of feedback ("false_positive", "missed", "note", ...).
    pub kind: String,
    /// What it is about (guard id, path, finding id).
    pub target: Option<String>,
    /// Free-form body.
    pub body: serde_json::Value,
}

/// A stored feedback row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FeedbackRow {
    /// Store id.
    pub id: i64,
    /// Time (ms).
    pub ts_ms: i64,
    /// The recorded feedback.
    #[serde(flatten)]
    pub feedback: NewFeedback,
    /// Where it stands in the self-correction loop (`pending`, `triaged`, ...).
    pub state: String,
    /// What the loop's steps found so far (triage, localisation, plan, branch).
    pub detail: serde_json::Value,
    /// Time of the last transition (ms; 0 before the first).
    pub updated_ms: i64,
}

/// A move of a feedback item from one state to another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FeedbackTransition {
    /// The item.
    pub feedback_id: i64,
    /// The state it must be in (the move is refused otherwise).
    pub from: String,
    /// The state it moves to.
    pub to: String,
    /// Why, in a line.
    pub note: String,
    /// The item's detail after the move (replaces the stored one).
    pub detail: serde_json::Value,
}

/// A recorded transition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeedbackTransitionRow {
    /// Time (ms).
    pub ts_ms: i64,
    /// Previous state.
    pub from: String,
    /// New state.
    pub to: String,
    /// Why.
    pub note: String,
}

/// One entry of the evidence ledger: a command an agent ran and what it showed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewEvidence {
    /// The agent session (hook session id).
    pub session_id: String,
    /// The argument vector, when known.
    #[serde(default)]
    pub argv: Vec<String>,
    /// The command line as run.
    pub command: String,
    /// Exit code, when it finished.
    pub exit_code: Option<i64>,
    /// Tests passed.
    pub tests_passed: Option<i64>,
    /// Tests failed.
    pub tests_failed: Option<i64>,
    /// Tests collected.
    pub tests_collected: Option<i64>,
    /// Hash of the working tree the command ran on.
    pub tree_hash: Option<String>,
    /// Time (ms); the store's clock when `None`.
    #[serde(default)]
    pub ts_ms: Option<i64>,
}

/// A stored evidence entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvidenceRow {
    /// Store id (increasing).
    pub id: i64,
    /// Time (ms).
    pub ts_ms: i64,
    /// The recorded entry (its `ts_ms` is set).
    #[serde(flatten)]
    pub evidence: NewEvidence,
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// RFC 3339 (UTC, milliseconds, `Z`) for a millisecond timestamp.
pub fn rfc3339_ms(ms: i64) -> String {
    match chrono::DateTime::<chrono::Utc>::from_timestamp_millis(ms) {
        Some(t) => t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        None => String::new(),
    }
}

/// Parses a `since` value as the gateway accepts it: a relative window (`90s`, `30m`, `24h`,
/// `7d`, `2w`), an RFC 3339 time, or integer milliseconds since the epoch. Returns the cut-off in
/// milliseconds since the epoch.
pub fn parse_since(text: &str, now_ms: i64) -> Result<i64, StoreError> {
    let t = text.trim();
    let bad = || {
        StoreError::Invalid(format!(
            "invalid since {t:?}: use 30m, 24h, 7d, 2w, an RFC 3339 time or epoch milliseconds"
        ))
    };
    if t.is_empty() {
        return Err(bad());
    }
    if let Ok(ms) = t.parse::<i64>() {
        return Ok(ms);
    }
    if let Ok(dt) = chrono::DateTime::parse_from_rfc3339(t) {
        return Ok(dt.timestamp_millis());
    }
    // The unit is the last character, which may be any character a client sends.
    let unit_len = t.chars().next_back().map_or(1, char::len_utf8);
    let (num, unit) = t.split_at(t.len() - unit_len);
    let n: i64 = num.trim().parse().map_err(|_| bad())?;
    let unit_ms: i64 = match unit {
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        "w" => 7 * 86_400_000,
        _ => return Err(bad()),
    };
    if n < 0 {
        return Err(bad());
    }
    Ok(now_ms.saturating_sub(n.saturating_mul(unit_ms)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_failure_mode_names_allowed_set() {
        let err = NewObservation::from_json(serde_json::json!({
            "run_id": "r", "agent": "a", "outcome": "fail", "failure_modes": ["bogus"]
        }))
        .unwrap_err()
        .to_string();
        assert!(err.contains("bogus"), "{err}");
        assert!(
            err.contains("json_emit") && err.contains("test_integrity"),
            "{err}"
        );
    }

    #[test]
    fn outcome_aliases_and_numbers() {
        let o = NewObservation::from_json(serde_json::json!({
            "run_id": 7, "agent": "a", "outcome": "failed", "subtask_id": 3
        }))
        .unwrap();
        assert_eq!(o.outcome, Outcome::Fail);
        assert_eq!(o.run_id, "7");
        assert_eq!(o.subtask_id.as_deref(), Some("3"));
        assert!(NewObservation::from_json(serde_json::json!({"agent": "a"})).is_err());
    }

    #[test]
    fn since_forms() {
        let now = 1_000_000_000_000;
        assert_eq!(parse_since("24h", now).unwrap(), now - 86_400_000);
        assert_eq!(parse_since("7d", now).unwrap(), now - 7 * 86_400_000);
        assert_eq!(parse_since("123", now).unwrap(), 123);
        assert_eq!(
            parse_since("2001-09-09T01:46:40Z", now).unwrap(),
            1_000_000_000_000
        );
        assert!(parse_since("soon", now).is_err());
        assert!(parse_since("5y", now).is_err());
        // A multi-byte last character is an unknown unit, not a panic (found by fuzzing the
        // gateway's `?since=`).
        assert!(parse_since("24\u{fffd}", now).is_err());
        assert!(parse_since("é", now).is_err());
    }

    #[test]
    fn enum_serde_roundtrip() {
        for m in FailureMode::ALL {
            let s = serde_json::to_string(m).unwrap();
            assert_eq!(serde_json::from_str::<FailureMode>(&s).unwrap(), *m);
            assert_eq!(m.as_str().parse::<FailureMode>().unwrap(), *m);
        }
        assert_eq!(FailureMode::ALL.len(), 17);
        assert_eq!(Outcome::ALL.len(), 5);
    }
}
