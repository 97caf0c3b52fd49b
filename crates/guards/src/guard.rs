//! The guard trait and its static description.

use crate::{Context, Finding};

/// What a guard is, for listings, docs, configuration and SARIF rules.
#[derive(Debug)]
pub struct GuardInfo {
    /// Stable identifier used in configuration and output (`symbol-preservation`).
    pub slug: &'static str,
    /// The seeds' G-number where one exists (`G7`).
    pub code: Option<&'static str>,
    /// One line: what the guard catches.
    pub summary: &'static str,
    /// The guard's documentation (markdown) with a failing and a passing example.
    pub doc: &'static str,
    /// Whether the guard runs when the configuration does not mention it.
    pub default_enabled: bool,
    /// The failure mode the observation store records when the guard blocks a run's patch (one
    /// of the store's closed set: `ast_diff`, `syntax_invalid`, `patcher_reject`, ...).
    pub failure_mode: &'static str,
    /// The trace event a run emits when the guard blocks (the seeds' names where they have one,
    /// `critic_<slug>.fail` otherwise).
    pub trace_event: &'static str,
}

impl GuardInfo {
    /// `G7 symbol-preservation` or `containment`.
    pub fn label(&self) -> String {
        match self.code {
            Some(code) => format!("{code} {}", self.slug),
            None => self.slug.to_string(),
        }
    }
}

/// A deterministic check of a change.
pub trait Guard: Send + Sync {
    /// The guard's static description.
    fn info(&self) -> &'static GuardInfo;
    /// Appends the guard's findings about the change in `cx` to `out`.
    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>);
}
