//! Which files the model rewrites whole and which it edits with SEARCH/REPLACE blocks, by the
//! model's size and its reply budget.

use super::estimate_tokens;

/// Which files are rewritten whole: the limits come from the model (a small model copies a
/// whole small file more reliably than it quotes search text) and from its `max_tokens` (a
/// whole file must fit in one reply).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatPolicy {
    /// Files of at most this many lines are rewritten whole.
    pub whole_file_max_lines: usize,
    /// Reply budget in tokens; a file needing more than 60 % of it takes SEARCH/REPLACE.
    pub max_reply_tokens: usize,
    /// SEARCH/REPLACE for every file (a candidate asked in the other format).
    pub blocks_only: bool,
}

impl FormatPolicy {
    /// The policy for `model` (an id like `qwen2.5-coder-1.5b-instruct`) with `max_tokens`:
    /// whole files up to 250 lines for models under 7B parameters or of unknown size, up to 80
    /// lines for larger ones.
    pub fn for_model(model: &str, max_tokens: u32) -> Self {
        let small = model_billions(model).is_none_or(|b| b < 7.0);
        FormatPolicy {
            whole_file_max_lines: if small { 250 } else { 80 },
            max_reply_tokens: max_tokens as usize,
            blocks_only: false,
        }
    }

    pub(super) fn whole(&self, text: &str) -> bool {
        !self.blocks_only
            && text.lines().count() <= self.whole_file_max_lines
            && estimate_tokens(text) * 10 <= self.max_reply_tokens * 6
    }
}

impl Default for FormatPolicy {
    fn default() -> Self {
        FormatPolicy {
            whole_file_max_lines: 250,
            max_reply_tokens: 2048,
            blocks_only: false,
        }
    }
}

/// The parameter count in billions named in a model id (`...-1.5b-...`, `7B`, `qwen2.5:14b`).
pub fn model_billions(model: &str) -> Option<f64> {
    let lower = model.to_ascii_lowercase();
    lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
        .filter_map(|w| w.strip_suffix('b'))
        .filter_map(|n| n.parse::<f64>().ok())
        .find(|n| *n > 0.0 && *n < 2000.0)
}
