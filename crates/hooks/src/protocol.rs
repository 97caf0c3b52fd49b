//! Wire types of the Claude Code and Codex hook protocols (see `PROTOCOLS.md` beside this
//! crate for the sources). Input parsing is lenient: unknown fields are ignored and missing
//! ones default, so a harness that adds fields never breaks the hook.

use serde::Deserialize;
use serde_json::{Value, json};

/// Which agent harness is speaking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    /// Claude Code.
    Claude,
    /// OpenAI Codex CLI.
    Codex,
}

/// One hook event as read from stdin (both agents use the same field names).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct HookInput {
    /// The agent session id; state is keyed by it.
    pub session_id: String,
    /// Working directory of the agent.
    pub cwd: String,
    /// `PreToolUse`, `PostToolUse`, `PostToolUseFailure`, `Stop`, ...
    pub hook_event_name: String,
    /// Tool name (`Edit`, `Write`, `MultiEdit`, `Bash`, `apply_patch`, ...).
    pub tool_name: String,
    /// The tool's arguments.
    pub tool_input: Value,
    /// The tool's result (PostToolUse).
    pub tool_response: Value,
    /// The error text (Claude Code's PostToolUseFailure).
    pub error: Option<String>,
    /// Set on a Stop that follows a stop hook's block.
    pub stop_hook_active: bool,
    /// Codex turn id.
    pub turn_id: Option<String>,
    /// Transcript path (unused; kept for logs).
    pub transcript_path: Option<String>,
}

/// Why stdin could not be understood.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// Not JSON, or not an object.
    #[error("hook input is not a JSON object: {0}")]
    Json(String),
    /// A required field is missing or empty.
    #[error("hook input lacks `{0}`")]
    Missing(&'static str),
}

impl HookInput {
    /// Parses and checks the fields every event needs.
    pub fn parse(bytes: &[u8]) -> Result<HookInput, InputError> {
        let value: Value =
            serde_json::from_slice(bytes).map_err(|e| InputError::Json(e.to_string()))?;
        if !value.is_object() {
            return Err(InputError::Json("expected an object".into()));
        }
        let input: HookInput =
            serde_json::from_value(value).map_err(|e| InputError::Json(e.to_string()))?;
        if input.hook_event_name.is_empty() {
            return Err(InputError::Missing("hook_event_name"));
        }
        if input.session_id.is_empty() {
            return Err(InputError::Missing("session_id"));
        }
        Ok(input)
    }
}

/// What the hook process does: text on stdout and stderr, and an exit code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HookAnswer {
    /// JSON for stdout (empty: print nothing).
    pub stdout: String,
    /// Text for stderr (empty: print nothing).
    pub stderr: String,
    /// Process exit code.
    pub exit_code: u8,
}

impl HookAnswer {
    /// Allow / no opinion: exit 0 and no output.
    pub fn allow() -> HookAnswer {
        HookAnswer::default()
    }

    /// PreToolUse deny with a reason shown to the model (same shape for both agents).
    pub fn deny(reason: &str) -> HookAnswer {
        HookAnswer::json(json!({
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }))
    }

    /// PreToolUse ask: Claude Code puts the tool call to the user with the reason (Codex does
    /// not support it; use [`HookAnswer::deny`] there).
    pub fn ask(reason: &str) -> HookAnswer {
        HookAnswer::json(json!({
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "ask",
                "permissionDecisionReason": reason,
            }
        }))
    }

    /// Stop (or PostToolUse) block with a reason the model reads as its next instruction.
    pub fn block(reason: &str) -> HookAnswer {
        HookAnswer::json(json!({"decision": "block", "reason": reason}))
    }

    /// Extra context for the model after a tool call.
    pub fn context(event: &str, text: &str) -> HookAnswer {
        HookAnswer::json(json!({
            "hookSpecificOutput": {
                "hookEventName": event,
                "additionalContext": text,
            }
        }))
    }

    /// Exit 2 with the message on stderr: the protocols' way to block without JSON.
    pub fn exit_block(message: &str) -> HookAnswer {
        HookAnswer {
            stdout: String::new(),
            stderr: message.to_string(),
            exit_code: 2,
        }
    }

    fn json(v: Value) -> HookAnswer {
        HookAnswer {
            stdout: v.to_string(),
            stderr: String::new(),
            exit_code: 0,
        }
    }

    /// Adds a diagnostic line for stderr.
    pub fn with_stderr(mut self, text: &str) -> HookAnswer {
        if !self.stderr.is_empty() {
            self.stderr.push('\n');
        }
        self.stderr.push_str(text);
        self
    }
}

/// The shell command of a Bash-like tool call (`tool_input.command` as a string or an argv).
pub fn command_text(tool_input: &Value) -> Option<String> {
    match tool_input.get("command")? {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => {
            let words: Vec<&str> = parts.iter().filter_map(Value::as_str).collect();
            // `["bash", "-lc", "script"]`: the script is the command.
            if words.len() == 3 && matches!(words[1], "-c" | "-lc") {
                Some(words[2].to_string())
            } else {
                Some(words.join(" "))
            }
        }
        _ => None,
    }
}

/// Exit code and combined output of a finished Bash-like tool call, read leniently from the
/// shapes the agents use: Claude Code's `{stdout, stderr, interrupted}` (PostToolUse fires only
/// on success, so exit 0), `PostToolUseFailure` with an `error` text, Codex's string output or
/// objects with `exit_code` / `exitCode` / `returncode`.
pub fn bash_result(input: &HookInput) -> (Option<i64>, String) {
    let failure = input.hook_event_name == "PostToolUseFailure";
    let resp = &input.tool_response;
    let mut output = String::new();
    let mut code: Option<i64> = None;
    match resp {
        Value::String(s) => {
            output.push_str(s);
            code = exit_code_in_text(s);
        }
        Value::Object(map) => {
            for key in [
                "stdout",
                "output",
                "aggregated_output",
                "formatted_output",
                "stderr",
            ] {
                if let Some(s) = map.get(key).and_then(Value::as_str) {
                    output.push_str(s);
                    output.push('\n');
                }
            }
            for key in [
                "exit_code",
                "exitCode",
                "returncode",
                "return_code",
                "code",
                "status",
            ] {
                if let Some(c) = map.get(key).and_then(Value::as_i64) {
                    code = Some(c);
                    break;
                }
            }
            if code.is_none() && map.get("interrupted").and_then(Value::as_bool) == Some(true) {
                code = Some(130);
            }
            if code.is_none() {
                code = exit_code_in_text(&output);
            }
        }
        _ => {}
    }
    if let Some(err) = &input.error {
        output.push_str(err);
        code = code.or_else(|| exit_code_in_text(err)).or(Some(1));
    }
    if code.is_none() {
        code = Some(if failure { 1 } else { 0 });
    }
    (code, output)
}

fn exit_code_in_text(s: &str) -> Option<i64> {
    for marker in [
        "Exit code: ",
        "Exit code ",
        "exit code: ",
        "exit code ",
        "exited with code ",
    ] {
        if let Some(pos) = s.find(marker) {
            let digits: String = s[pos + marker.len()..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '-')
                .collect();
            if let Ok(n) = digits.parse() {
                return Some(n);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_is_lenient() {
        let i = HookInput::parse(br#"{"session_id":"s","hook_event_name":"Stop","stop_hook_active":true,"new_field":{"x":1}}"#).unwrap();
        assert!(i.stop_hook_active);
        assert!(HookInput::parse(b"not json").is_err());
        assert!(HookInput::parse(b"[1]").is_err());
        assert!(matches!(
            HookInput::parse(br#"{"session_id":"s"}"#),
            Err(InputError::Missing("hook_event_name"))
        ));
    }

    #[test]
    fn bash_results() {
        let mut i = HookInput {
            hook_event_name: "PostToolUse".into(),
            tool_response: json!({"stdout": "ok", "stderr": "", "interrupted": false}),
            ..HookInput::default()
        };
        assert_eq!(bash_result(&i).0, Some(0));
        i.tool_response = json!("Exit code: 101\nWall time: 1s\nOutput:\nboom");
        assert_eq!(bash_result(&i).0, Some(101));
        i.tool_response = json!({"exit_code": 3, "output": "x"});
        assert_eq!(bash_result(&i).0, Some(3));
        i.hook_event_name = "PostToolUseFailure".into();
        i.tool_response = Value::Null;
        i.error = Some("Command failed with exit code 2".into());
        assert_eq!(bash_result(&i).0, Some(2));
    }

    #[test]
    fn command_shapes() {
        assert_eq!(
            command_text(&json!({"command": "ls"})).as_deref(),
            Some("ls")
        );
        assert_eq!(
            command_text(&json!({"command": ["bash", "-lc", "cargo test"]})).as_deref(),
            Some("cargo test")
        );
        assert_eq!(command_text(&json!({})), None);
    }
}
