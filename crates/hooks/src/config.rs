//! Hook settings: the `[hooks]` table of `slopguard.toml` at the repository root.
//!
//! ```toml
//! [hooks]
//! doom_loop_threshold = 7          # edits of one file before the nudge; 0 disables it
//! fail_closed_on_bad_input = false # garbled hook input: let the tool call through (default)
//! fail_closed_on_guard_error = true # guard crashed while judging an edit: deny it (default)
//! goal_file = ".slopguard/goal.toml"
//! lean = false                     # skip the static guard stack before writes
//! outside_root = "deny"            # an edit outside the project: "deny", "ask" or "allow"
//! ```

use std::path::Path;

use crate::containment::OutsideRoot;
use crate::goal::DEFAULT_GOAL_FILE;
use crate::state::DEFAULT_DOOM_LOOP_THRESHOLD;

/// Settings of the hook commands.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(default)]
pub struct HookConfig {
    /// Edits of one file that trigger the doom-loop nudge (0: never).
    pub doom_loop_threshold: u32,
    /// Block the tool call (exit 2) when the harness sends input we cannot read.
    pub fail_closed_on_bad_input: bool,
    /// Deny an edit when the guard stack fails while judging it.
    pub fail_closed_on_guard_error: bool,
    /// Goal file path, relative to the repository root.
    pub goal_file: String,
    /// Lean mode: keep the deterministic gates (verification, evidence, doom loop) and skip the
    /// costly static guard stack before writes.
    pub lean: bool,
    /// An edit whose path resolves outside the project root (absolute, `..`, a symlink that
    /// leaves it): denied with the reason by default, put to the user (`ask`, Claude Code
    /// only; Codex cannot ask, so it is denied there), or let through (`allow`). Edits inside
    /// `.git/` are denied whatever this says.
    pub outside_root: OutsideRoot,
}

impl Default for HookConfig {
    fn default() -> Self {
        HookConfig {
            doom_loop_threshold: DEFAULT_DOOM_LOOP_THRESHOLD,
            fail_closed_on_bad_input: false,
            fail_closed_on_guard_error: true,
            goal_file: DEFAULT_GOAL_FILE.to_string(),
            lean: false,
            outside_root: OutsideRoot::Deny,
        }
    }
}

#[derive(serde::Deserialize, Default)]
struct File {
    #[serde(default)]
    hooks: HookConfig,
}

impl HookConfig {
    /// Reads `[hooks]` from a `slopguard.toml` text.
    pub fn parse(text: &str) -> Result<HookConfig, String> {
        toml::from_str::<File>(text)
            .map(|f| f.hooks)
            .map_err(|e| e.to_string())
    }

    /// Reads `<root>/slopguard.toml` (or `explicit`); defaults when absent.
    pub fn load(root: &Path, explicit: Option<&Path>) -> Result<HookConfig, String> {
        let path = explicit
            .map(Path::to_path_buf)
            .unwrap_or_else(|| root.join("slopguard.toml"));
        match std::fs::read_to_string(&path) {
            Ok(text) => HookConfig::parse(&text).map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && explicit.is_none() => {
                Ok(HookConfig::default())
            }
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_overrides() {
        let d = HookConfig::parse("").unwrap();
        assert_eq!(d, HookConfig::default());
        assert!(!d.fail_closed_on_bad_input);
        assert!(d.fail_closed_on_guard_error);
        let c = HookConfig::parse(
            "[hooks]\ndoom_loop_threshold = 3\nfail_closed_on_bad_input = true\n[other]\nx = 1\n",
        )
        .unwrap();
        assert_eq!(c.doom_loop_threshold, 3);
        assert!(c.fail_closed_on_bad_input);
        assert!(HookConfig::parse("[hooks]\nlean = 'yes'").is_err());
        assert_eq!(d.outside_root, OutsideRoot::Deny);
        let ask = HookConfig::parse("[hooks]\noutside_root = \"ask\"").unwrap();
        assert_eq!(ask.outside_root, OutsideRoot::Ask);
        assert!(HookConfig::parse("[hooks]\noutside_root = \"maybe\"").is_err());
    }
}
