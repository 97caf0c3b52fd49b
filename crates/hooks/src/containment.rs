//! Where an agent's edit would land ([`slopguard_change::containment`], shared with the
//! worker's writes) and what the hooks do with an edit outside the project (`[hooks]
//! outside_root`).

pub use slopguard_change::containment::{Escape, locate, resolve};

/// What the hooks do with an edit outside the project root (`[hooks] outside_root`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutsideRoot {
    /// Deny the tool call with the reason (the default).
    #[default]
    Deny,
    /// Put it to the user where the agent's protocol can ask (Claude Code); deny elsewhere.
    Ask,
    /// Let it through unjudged (the guards judge files of the project only).
    Allow,
}
