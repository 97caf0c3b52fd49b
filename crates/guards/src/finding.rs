//! Findings: what a guard says about a change.

use serde::Serialize;

use crate::GuardInfo;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Reported, does not fail the check.
    Warn,
    /// Fails the check: the change must not land.
    Block,
}

impl Severity {
    /// `warn` or `block`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warn => "warn",
            Severity::Block => "block",
        }
    }
}

/// One thing a guard found. The JSON form is part of slopguard's stable output schema
/// (`docs/output.md`): fields may be added, never renamed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The guard's slug.
    pub guard: &'static str,
    /// The guard's G-number, when it has one.
    pub code: Option<&'static str>,
    pub severity: Severity,
    /// Repository-relative path the finding is about.
    pub path: Option<String>,
    /// 1-based line in the file after the change (before, for deleted content).
    pub line: Option<u32>,
    /// 1-based column.
    pub column: Option<u32>,
    /// For humans.
    pub message: String,
    /// For the model's retry: what was wrong and what to do instead.
    pub feedback: String,
    /// Guard-specific structured details (symbol names, counts, ...).
    #[serde(skip_serializing_if = "serde_json::Value::is_null")]
    pub data: serde_json::Value,
}

impl Finding {
    /// A finding of `info`'s guard. The feedback defaults to the message.
    pub fn new(info: &GuardInfo, severity: Severity, message: impl Into<String>) -> Finding {
        let message = message.into();
        Finding {
            guard: info.slug,
            code: info.code,
            severity,
            path: None,
            line: None,
            column: None,
            feedback: message.clone(),
            message,
            data: serde_json::Value::Null,
        }
    }

    /// Sets the location.
    pub fn at(
        mut self,
        path: impl Into<String>,
        line: Option<u32>,
        column: Option<u32>,
    ) -> Finding {
        self.path = Some(path.into());
        self.line = line;
        self.column = column;
        self
    }

    /// Sets the text written for the model.
    pub fn feedback(mut self, feedback: impl Into<String>) -> Finding {
        self.feedback = feedback.into();
        self
    }

    /// Attaches structured details.
    pub fn data(mut self, data: serde_json::Value) -> Finding {
        self.data = data;
        self
    }

    /// `path:line:col` (as much as is known).
    pub fn location(&self) -> String {
        let mut s = self.path.clone().unwrap_or_default();
        if let Some(l) = self.line {
            s.push_str(&format!(":{l}"));
            if let Some(c) = self.column {
                s.push_str(&format!(":{c}"));
            }
        }
        s
    }
}
