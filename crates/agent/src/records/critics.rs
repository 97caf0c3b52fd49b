//! What the critics found, as the run record keeps it: findings with their severity and
//! confidence ([`CriticFinding`], [`Severity`]), the critique phase's report with its
//! exchanges and revision ([`CriticsReport`], [`QaExchange`], [`RevisionOutcome`]), and the
//! step critic's findings ([`StepFinding`]). Plain data, like the rest of `records`.

use serde::{Deserialize, Serialize};

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A nit.
    Low,
    /// Worth a look.
    Medium,
    /// Likely wrong.
    High,
}

/// One critic's finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CriticFinding {
    /// `panel:developer`, `panel:architect`, `panel:contributor`, `devil`, `self-critic`.
    pub critic: String,
    /// How much it matters.
    pub severity: Severity,
    /// The file it is about, when named.
    pub file: Option<String>,
    /// The line, when named.
    pub line: Option<u32>,
    /// What is wrong.
    pub message: String,
}

/// What happened to a revision (the refiner's, or one the Q&A defender proposed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum RevisionOutcome {
    /// Committed on the branch.
    Kept {
        /// The commit.
        commit: String,
        /// The files it changed.
        files: Vec<String>,
    },
    /// Refused; the worker's version stays.
    Reverted {
        /// Why (the gate's finding, the judge's preference, an unreadable reply).
        reason: String,
    },
}

/// One question of the Q&A round and the defender's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QaExchange {
    /// The question.
    pub question: String,
    /// The defender's answer.
    pub answer: String,
}

/// Everything the critique phase did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CriticsReport {
    /// The critics that ran.
    pub ran: Vec<String>,
    /// Their findings.
    pub findings: Vec<CriticFinding>,
    /// The refiner's revision, when one was proposed.
    pub refiner: Option<RevisionOutcome>,
    /// The judge's preference (`v0` or `v1`) and reason, when it ran.
    pub judge: Option<String>,
    /// The Q&A round.
    pub qa: Vec<QaExchange>,
    /// The Q&A defender's revision, when one was proposed.
    pub qa_revision: Option<RevisionOutcome>,
    /// The self-critic's review comment.
    pub self_review: Option<String>,
    /// Critics not run, and why (budget spent, model error, nothing to refine).
    pub skipped: Vec<String>,
    /// Model calls.
    pub calls: u32,
    /// Tokens (prompt + completion).
    pub tokens: u64,
    /// Wall time of the phase.
    pub elapsed_ms: u64,
}

/// One finding of the step critic (`gates::step_critic`), kept for the self-review.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepFinding {
    /// What is wrong or missing, one or two sentences.
    pub message: String,
    /// How sure the critic is, 0-100.
    pub confidence: u8,
    /// The step it is about (`plan`, `attempt 1`, `landed`).
    pub step: String,
}
