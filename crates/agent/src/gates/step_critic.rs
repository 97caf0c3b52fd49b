//! The step critic: the continuous critique between steps (the post-landing critics are
//! another thing). After each state-changing step (a fix plan written, an attempt rejected, a
//! patch landed) one short reviewer-model call returns at most one finding with a confidence
//! 0-100. What happens to it depends on the confidence:
//!
//! - below [`DROP_BELOW`] (60): dropped (only the trace keeps it);
//! - [`DROP_BELOW`] to [`FEED_FROM`]` - 1` (60-79): kept for the self-review (the pull-request
//!   body and the command's summary), not shown to the worker;
//! - [`FEED_FROM`] (80) and above: fed back to the worker before its next step (the next
//!   attempt's feedback); after the last step it is kept like a 60-79 one.
//!
//! The answer is JSON checked against [`schema`] with the same repair passes and validator as
//! every model JSON in slopguard; a malformed answer is sent back once with what was wrong,
//! then ignored with a warning. The critic never refuses anything itself: it cannot block a
//! patch the deterministic gates passed.
//!
//! It costs one call per step, so [`CriticMode::Auto`] (the default) turns it on only for a
//! reviewer model whose name says it has at least [`SMALL_MODEL_B`] billion parameters.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use slopguard_llm::{BlockingClient, LlmError, Message, Role, Sampling};

pub use crate::records::StepFinding as Finding;

/// Findings below this confidence are dropped.
pub const DROP_BELOW: u8 = 60;
/// Findings at or above this confidence are fed back to the worker.
pub const FEED_FROM: u8 = 80;
/// Models under this many billion parameters get no critic unless asked for.
pub const SMALL_MODEL_B: f64 = 3.0;
/// Longest text of a step shown to the critic, in characters.
const MAX_STEP_CHARS: usize = 6_000;

/// Whether the critic runs: `auto` (by the reviewer model's size), `on` or `off`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CriticMode {
    /// On for a reviewer model of [`SMALL_MODEL_B`] billion parameters or more, off otherwise
    /// (and when its size cannot be read from its name).
    #[default]
    Auto,
    /// Always on.
    On,
    /// Always off.
    Off,
}

impl std::str::FromStr for CriticMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(CriticMode::Auto),
            "on" | "true" => Ok(CriticMode::On),
            "off" | "false" => Ok(CriticMode::Off),
            other => Err(format!(
                "`{other}` is not a critic mode: use auto, on or off"
            )),
        }
    }
}

impl CriticMode {
    /// Whether the critic runs for the reviewer model `model`, and why (for the trace and the
    /// command's output).
    pub fn resolve(self, model: &str) -> (bool, String) {
        match (self, model_size_b(model)) {
            (CriticMode::On, _) => (true, "on (asked for)".into()),
            (CriticMode::Off, _) => (false, "off (asked for)".into()),
            (CriticMode::Auto, Some(b)) if b >= SMALL_MODEL_B => {
                (true, format!("on: `{model}` has {b}B parameters"))
            }
            (CriticMode::Auto, Some(b)) => (
                false,
                format!(
                    "off: `{model}` has {b}B parameters, under {SMALL_MODEL_B}B (--critic on \
                     turns it on)"
                ),
            ),
            (CriticMode::Auto, None) => (
                false,
                format!(
                    "off: the size of `{model}` cannot be read from its name (--critic on turns \
                     it on)"
                ),
            ),
        }
    }

    /// The mode a command uses: its flag when given, else `[feedback] critic` of
    /// `slopguard.toml`, else [`CriticMode::Auto`].
    pub fn chosen(
        flag: Option<CriticMode>,
        config: &slopguard_guards::Config,
    ) -> Result<CriticMode, String> {
        match flag {
            Some(m) => Ok(m),
            None => Ok(CriticMode::from_config(config)?.unwrap_or_default()),
        }
    }

    /// Whether the critic runs for a run or a fix in the repository at `root`, and why: `flag`
    /// (`--step-critic`, `--critic`), else `[feedback] critic` of its `slopguard.toml` (or of
    /// `config`, an explicit file), else auto, decided by `reviewer_model`'s size. The one
    /// place `run` and `feedback fix` take the setting from.
    pub fn for_repository(
        flag: Option<CriticMode>,
        root: &std::path::Path,
        config: Option<&std::path::Path>,
        reviewer_model: &str,
    ) -> Result<(bool, String), String> {
        let config = slopguard_guards::Config::discover(root, config).map_err(|e| e.to_string())?;
        let mode = CriticMode::chosen(flag, &config).map_err(|e| format!("slopguard.toml: {e}"))?;
        Ok(mode.resolve(reviewer_model))
    }

    /// `critic` of the `[feedback]` table of `slopguard.toml`, when it is set.
    pub fn from_config(config: &slopguard_guards::Config) -> Result<Option<CriticMode>, String> {
        let Some(mode) = config.raw.get("feedback").and_then(|t| t.get("critic")) else {
            return Ok(None);
        };
        let text = mode.as_str().ok_or_else(|| {
            format!("[feedback] critic = {mode}: expected \"auto\", \"on\" or \"off\"")
        })?;
        text.parse()
            .map(Some)
            .map_err(|e| format!("[feedback] critic: {e}"))
    }
}

/// Billions of parameters in a model's name: `qwen2.5-coder:1.5b` -> 1.5,
/// `Qwen2.5-Coder-7B-Instruct` -> 7, `gemma-3-270m` -> 0.27, `mixtral-8x7b` -> 56.
pub fn model_size_b(model: &str) -> Option<f64> {
    let lower = model.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let mut best = None;
    for (i, c) in lower.char_indices() {
        let unit = match c {
            'b' => 1.0,
            'm' => 0.001,
            _ => continue,
        };
        // The unit ends a token: `7b`, `1.5b-instruct`, not `bert` or `mlx`.
        if bytes.get(i + 1).is_some_and(|n| n.is_ascii_alphanumeric()) {
            continue;
        }
        let start = lower[..i]
            .rfind(|ch: char| !(ch.is_ascii_digit() || ch == '.' || ch == 'x'))
            .map_or(0, |p| p + 1);
        let number = &lower[start..i];
        let size = match number.split_once('x') {
            Some((n, each)) => n
                .parse::<f64>()
                .ok()
                .zip(each.parse::<f64>().ok())
                .map(|(a, b)| a * b),
            None => number.parse::<f64>().ok(),
        };
        if let Some(s) = size.filter(|s| *s > 0.0) {
            best = Some(s * unit);
        }
    }
    best
}

/// What becomes of a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Below [`DROP_BELOW`].
    Dropped,
    /// Kept for the self-review.
    Kept,
    /// Fed back to the worker before its next step.
    FedBack,
}

/// The action for a finding of `confidence`, when the worker has a next step or not.
pub fn action_for(confidence: u8, next_step: bool) -> Action {
    match confidence {
        c if c < DROP_BELOW => Action::Dropped,
        c if c >= FEED_FROM && next_step => Action::FedBack,
        _ => Action::Kept,
    }
}

/// What the critic was shown: one step.
pub struct Step<'a> {
    /// Its name (`plan`, `attempt 2`, `landed`).
    pub name: &'a str,
    /// The task: the feedback or subtask it works on.
    pub task: &'a str,
    /// What the step did: the plan, the gates' refusal, the landed diff.
    pub outcome: &'a str,
}

/// The critic's answer on one step, with what it cost.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Critique {
    /// The finding, when the critic found something.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finding: Option<Finding>,
    /// Why the answer was ignored (unreadable twice, a model error).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    /// Model calls made (1, or 2 with the correction).
    pub calls: u32,
    /// Prompt and completion tokens.
    pub tokens: u64,
    /// Wall time of the calls, in milliseconds.
    pub ms: u64,
}

impl Critique {
    /// The trace event's data for this critique of a step where the worker has a next step
    /// (`next_step`) or not.
    pub fn trace_data(&self, next_step: bool) -> Value {
        let mut data = serde_json::to_value(self).unwrap_or_else(|_| json!({}));
        data["action"] = match &self.finding {
            Some(f) => {
                serde_json::to_value(action_for(f.confidence, next_step)).unwrap_or(Value::Null)
            }
            None if self.warning.is_some() => json!("ignored"),
            None => json!("none"),
        };
        data
    }

    /// The feedback line for the worker's next step, when the finding is fed back.
    pub fn feedback_line(&self) -> Option<String> {
        let f = self.finding.as_ref()?;
        (action_for(f.confidence, true) == Action::FedBack).then(|| {
            format!(
                "- [critic] a reviewer's note on {} (confidence {}): {}",
                f.step, f.confidence, f.message
            )
        })
    }

    /// The finding, when it is kept for the self-review of a step with or without a next step.
    pub fn kept(&self, next_step: bool) -> Option<&Finding> {
        self.finding
            .as_ref()
            .filter(|f| action_for(f.confidence, next_step) == Action::Kept)
    }
}

/// The JSON schema of the critic's answer: an empty `finding` means nothing is wrong.
pub fn schema() -> Value {
    json!({
        "type": "object",
        "required": ["finding", "confidence"],
        "properties": {
            "finding": {"type": "string"},
            "confidence": {"type": "integer", "minimum": 0, "maximum": 100}
        }
    })
}

/// The critic's messages for `step`.
pub fn messages(step: &Step<'_>) -> Vec<Message> {
    vec![
        Message::system(
            "You are a strict code reviewer watching an automated fix, one step at a time. \
             Name at most ONE concrete problem with the step (a wrong root cause, a test that \
             does not exercise the bug, a change that misses the case, a missed file), with \
             how sure you are. Say nothing about style. Answer with one JSON object and \
             nothing else.",
        ),
        Message::user(format!(
            "TASK:\n{}\n\nSTEP ({}):\n{}\n\nAnswer {{\"finding\": \"<the one problem, one or \
             two sentences; empty string if none>\", \"confidence\": <0-100, how sure you are \
             the problem is real; 0 when none>}}.",
            cut(step.task, MAX_STEP_CHARS / 3),
            step.name,
            cut(step.outcome, MAX_STEP_CHARS)
        )),
    ]
}

/// Asks the reviewer model about `step`. A malformed answer is sent back once with what was
/// wrong; a second malformed answer or a model error yields a warning, never an error.
pub fn review(client: &BlockingClient, step: &Step<'_>) -> Critique {
    let mut msgs = messages(step);
    let mut critique = Critique::default();
    let started = Instant::now();
    for turn in 0..2 {
        let reply = match client.chat_sampled(Role::Reviewer, &msgs, sampling()) {
            Ok(r) => r,
            Err(e) => {
                critique.warning = Some(model_warning(&e));
                break;
            }
        };
        critique.calls += 1;
        critique.tokens += reply.usage.prompt_tokens + reply.usage.completion_tokens;
        match read_answer(&reply.content, step.name) {
            Ok(finding) => {
                critique.finding = finding;
                critique.warning = None;
                break;
            }
            Err(problem) => {
                critique.warning = Some(format!(
                    "the critic's answer was ignored after {} tries: {problem}",
                    turn + 1
                ));
                msgs.push(Message::assistant(reply.content));
                msgs.push(Message::user(format!(
                    "That answer cannot be used: {problem}. Answer again with only the JSON \
                     object {{\"finding\": \"...\", \"confidence\": 0-100}}."
                )));
            }
        }
    }
    critique.ms = elapsed_ms(started.elapsed());
    critique
}

fn sampling() -> Sampling {
    Sampling {
        temperature: Some(0.0),
        seed: None,
        max_tokens: Some(160),
    }
}

fn model_warning(e: &LlmError) -> String {
    format!("the critic's model call failed, step not reviewed: {e}")
}

fn elapsed_ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// How an attempt of a run subtask ended, as the critic is shown it.
pub enum Attempt<'a> {
    /// A candidate was committed in `worktree`.
    Landed {
        /// The run's worktree.
        worktree: &'a std::path::Path,
        /// The commit (HEAD when unknown).
        commit: Option<&'a str>,
    },
    /// Every candidate was refused; what the next attempt would hear.
    Refused(&'a str),
}

/// The critic's review of one attempt of a run subtask.
#[derive(Debug, Clone, Default)]
pub struct AttemptReview {
    /// The trace event's data: the finding, its action, the cost.
    pub data: Value,
    /// The line the next attempt hears (empty unless the finding is fed back).
    pub note: String,
    /// The finding, when it is kept for the self-review.
    pub kept: Option<Finding>,
}

/// The critic on one attempt of the run subtask `id`. `next_step`: another attempt may follow.
pub fn review_attempt(
    client: &BlockingClient,
    id: &str,
    subtask: &slopguard_planning::plan::Subtask,
    attempt: u32,
    outcome: Attempt<'_>,
    next_step: bool,
) -> AttemptReview {
    let (name, shown, next_step) = match outcome {
        Attempt::Landed { worktree, commit } => {
            let rev = commit.unwrap_or("HEAD");
            let diff = crate::git::git(worktree, &["show", "--format=%s", rev]).unwrap_or_default();
            (
                "landed".to_string(),
                format!("The patch landed:\n{diff}"),
                false,
            )
        }
        Attempt::Refused(f) => (
            format!("attempt {attempt}"),
            format!("Every candidate of this attempt was refused by the gates:\n{f}"),
            next_step,
        ),
    };
    let task = format!("{}\n{}", subtask.title, subtask.description);
    let step = Step {
        name: &name,
        task: &task,
        outcome: &shown,
    };
    let critique = review(client, &step);
    if let Some(w) = &critique.warning {
        tracing::warn!("{w}");
    }
    let mut data = critique.trace_data(next_step);
    data["subtask_id"] = json!(id);
    data["attempt"] = json!(attempt);
    let note = match critique.feedback_line() {
        Some(line) if next_step => format!("\n{line}"),
        _ => String::new(),
    };
    AttemptReview {
        data,
        note,
        kept: critique.kept(next_step).cloned(),
    }
}

/// The finding in one answer (`None`: nothing found), or what is wrong with the answer.
pub fn read_answer(content: &str, step: &str) -> Result<Option<Finding>, String> {
    let value = slopguard_llm::repair::repair_json(content)
        .map_err(|e| format!("it is not JSON ({e})"))?
        .value;
    let violations = slopguard_llm::schema::validate(&schema(), &value);
    if !violations.is_empty() {
        let list: Vec<String> = violations.iter().map(|v| v.to_string()).collect();
        return Err(format!("it does not match the schema: {}", list.join("; ")));
    }
    let message = value["finding"].as_str().unwrap_or("").trim();
    let confidence = value["confidence"].as_u64().unwrap_or(0).min(100) as u8;
    if message.is_empty() || confidence == 0 {
        return Ok(None);
    }
    Ok(Some(Finding {
        message: message.to_string(),
        confidence,
        step: step.to_string(),
    }))
}

/// `text` cut to `max` characters on a char boundary, marked when cut.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}\n[cut]", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_sizes_are_read_from_names() {
        assert_eq!(model_size_b("qwen2.5-coder:1.5b"), Some(1.5));
        assert_eq!(model_size_b("Qwen2.5-Coder-7B-Instruct-GGUF"), Some(7.0));
        assert_eq!(model_size_b("gemma-3-270m"), Some(0.27));
        assert_eq!(model_size_b("mixtral-8x7b"), Some(56.0));
        assert_eq!(
            model_size_b("qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"),
            Some(0.5)
        );
        assert_eq!(model_size_b("scripted-model"), None);
        assert_eq!(model_size_b("gpt-4o"), None);
    }

    #[test]
    fn auto_is_off_for_small_and_unknown_models_and_on_for_large_ones() {
        assert!(!CriticMode::Auto.resolve("qwen2.5-coder:1.5b").0);
        assert!(!CriticMode::Auto.resolve("scripted-model").0);
        assert!(CriticMode::Auto.resolve("qwen2.5-coder:7b").0);
        assert!(CriticMode::On.resolve("qwen2.5-coder:0.5b").0);
        assert!(!CriticMode::Off.resolve("llama-70b").0);
        assert_eq!("ON".parse::<CriticMode>(), Ok(CriticMode::On));
        assert!("maybe".parse::<CriticMode>().is_err());
    }

    #[test]
    fn the_config_table_sets_the_mode_and_bad_values_are_errors() {
        let parse = |t: &str| {
            slopguard_guards::Config::parse(t, std::path::Path::new("slopguard.toml")).unwrap()
        };
        let on = parse("[feedback]\ncritic = \"on\"\n");
        assert_eq!(CriticMode::from_config(&on), Ok(Some(CriticMode::On)));
        assert_eq!(CriticMode::from_config(&parse("")), Ok(None));
        let bad = parse("[feedback]\ncritic = 3\n");
        assert!(
            CriticMode::from_config(&bad)
                .unwrap_err()
                .contains("expected")
        );
    }

    #[test]
    fn a_repository_s_setting_comes_from_the_flag_then_its_slopguard_toml() {
        let dir = tempfile::tempdir().unwrap();
        let small = "qwen2.5-coder-0.5b-instruct";
        // Nothing set: auto, by the model's size.
        let (on, why) = CriticMode::for_repository(None, dir.path(), None, small).unwrap();
        assert!(!on && why.starts_with("off:"), "{why}");
        std::fs::write(
            dir.path().join("slopguard.toml"),
            "[feedback]\ncritic = \"on\"\n",
        )
        .unwrap();
        let (on, _) = CriticMode::for_repository(None, dir.path(), None, small).unwrap();
        assert!(on);
        // The flag wins over the file.
        let off = CriticMode::for_repository(Some(CriticMode::Off), dir.path(), None, small);
        assert_eq!(off, Ok((false, "off (asked for)".to_string())));
        std::fs::write(
            dir.path().join("slopguard.toml"),
            "[feedback]\ncritic = 3\n",
        )
        .unwrap();
        let bad = CriticMode::for_repository(None, dir.path(), None, small).unwrap_err();
        assert!(bad.starts_with("slopguard.toml:"), "{bad}");
    }

    #[test]
    fn confidence_decides_what_becomes_of_a_finding() {
        assert_eq!(action_for(40, true), Action::Dropped);
        assert_eq!(action_for(59, true), Action::Dropped);
        assert_eq!(action_for(60, true), Action::Kept);
        assert_eq!(action_for(79, true), Action::Kept);
        assert_eq!(action_for(80, true), Action::FedBack);
        assert_eq!(action_for(85, false), Action::Kept);
    }

    #[test]
    fn answers_are_read_and_malformed_ones_say_what_is_wrong() {
        let f = read_answer(
            r#"{"finding": "the test never calls average()", "confidence": 85}"#,
            "attempt 1",
        )
        .unwrap()
        .unwrap();
        assert_eq!(f.confidence, 85);
        assert_eq!(f.step, "attempt 1");
        assert_eq!(
            read_answer(r#"{"finding": "", "confidence": 0}"#, "plan"),
            Ok(None)
        );
        // Fenced with a trailing comma: repaired like every model JSON.
        assert!(
            read_answer(
                "```json\n{\"finding\": \"x\", \"confidence\": 70,}\n```",
                "plan"
            )
            .unwrap()
            .is_some()
        );
        let e = read_answer("looks good to me", "plan").unwrap_err();
        assert!(e.contains("not JSON"), "{e}");
        let e = read_answer(r#"{"finding": "x", "confidence": 150}"#, "plan").unwrap_err();
        assert!(e.contains("schema"), "{e}");
    }

    #[test]
    fn only_confident_findings_are_fed_back() {
        let c = |confidence| Critique {
            finding: Some(Finding {
                message: "m".into(),
                confidence,
                step: "attempt 1".into(),
            }),
            ..Critique::default()
        };
        assert!(
            c(85)
                .feedback_line()
                .unwrap()
                .contains("(confidence 85): m")
        );
        assert_eq!(c(70).feedback_line(), None);
        assert!(c(70).kept(true).is_some());
        assert!(c(85).kept(false).is_some());
        assert_eq!(c(40).kept(true), None);
        assert_eq!(c(40).trace_data(true)["action"], "dropped");
        let ignored = Critique {
            warning: Some("w".into()),
            ..Critique::default()
        };
        assert_eq!(ignored.trace_data(true)["action"], "ignored");
    }
}
