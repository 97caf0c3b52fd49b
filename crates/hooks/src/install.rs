//! `slopguard hook install claude|codex`: merge our hook entries into the agent's hook config
//! without touching anyone else's, and remove only ours on uninstall.
//!
//! Both agents read `{"hooks": {"<Event>": [{"matcher": "...", "hooks": [{"type": "command",
//! "command": "...", "timeout": N}]}]}}`: Claude Code from `.claude/settings.json` (project) or
//! `~/.claude/settings.json` (user), Codex from `.codex/hooks.json` or `~/.codex/hooks.json`.
//! An entry is ours when its command runs `slopguard hook claude|codex`.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::protocol::Agent;

/// Why installing failed.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// Reading or writing the config file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The existing file is not a JSON object with an object `hooks`.
    #[error("{path}: not a hook configuration we can merge into: {message}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
}

/// Where to install.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// The project at this root.
    Project(PathBuf),
    /// The user's home directory.
    User(PathBuf),
}

/// The config file for an agent and scope.
pub fn config_path(agent: Agent, scope: &Scope) -> PathBuf {
    let (base, dir, file) = match (agent, scope) {
        (Agent::Claude, Scope::Project(r)) | (Agent::Claude, Scope::User(r)) => {
            (r, ".claude", "settings.json")
        }
        (Agent::Codex, Scope::Project(r)) | (Agent::Codex, Scope::User(r)) => {
            (r, ".codex", "hooks.json")
        }
    };
    base.join(dir).join(file)
}

/// Our entries: (event, matcher, command).
pub fn our_entries(
    agent: Agent,
    program: &str,
    lean: bool,
) -> Vec<(&'static str, Option<&'static str>, String)> {
    let (name, edit_matcher, post_matcher) = match agent {
        Agent::Claude => (
            "claude",
            "Edit|Write|MultiEdit|NotebookEdit",
            "Edit|Write|MultiEdit|Bash",
        ),
        Agent::Codex => (
            "codex",
            "apply_patch|Edit|Write",
            "apply_patch|Edit|Write|Bash",
        ),
    };
    let cmd = format!("{program} hook {name}{}", if lean { " --lean" } else { "" });
    // PreToolUse in lean mode too: it skips the guard stack there but still refuses edits
    // outside the project (containment costs a path lookup, not a parse).
    let mut v = vec![
        ("PreToolUse", Some(edit_matcher), cmd.clone()),
        ("PostToolUse", Some(post_matcher), cmd.clone()),
    ];
    if agent == Agent::Claude {
        v.push(("PostToolUseFailure", Some("Bash"), cmd.clone()));
    }
    v.push(("Stop", None, cmd));
    v
}

/// Is this command one of ours (any agent, any flags)?
pub fn is_ours(command: &str) -> bool {
    let words: Vec<&str> = command.split_whitespace().collect();
    words.windows(3).any(|w| {
        // The program may be a quoted absolute path (`'/opt/my tools/slopguard' hook claude`).
        let program = w[0].trim_end_matches('\'');
        (program.trim_start_matches('\'') == "slopguard" || program.ends_with("/slopguard"))
            && w[1] == "hook"
            && matches!(w[2], "claude" | "codex")
    })
}

/// Merges (or with `uninstall`, removes) our entries into a config value.
pub fn merge(
    config: &mut Value,
    entries: &[(&str, Option<&str>, String)],
    uninstall: bool,
) -> Result<(), String> {
    if config.is_null() {
        *config = json!({});
    }
    let obj = config
        .as_object_mut()
        .ok_or("the file is not a JSON object")?;
    let hooks = obj.entry("hooks").or_insert_with(|| json!({}));
    let hooks = hooks.as_object_mut().ok_or("`hooks` is not an object")?;
    // Remove ours everywhere first (idempotent install, clean uninstall): any slopguard hook
    // command, and any command exactly like one this install writes (a binary that is not
    // named `slopguard`, such as a renamed copy, is recognised by its own path).
    let ours = |command: &str| is_ours(command) || entries.iter().any(|(_, _, c)| c == command);
    let events: Vec<String> = hooks.keys().cloned().collect();
    for event in events {
        let Some(groups) = hooks.get_mut(&event).and_then(Value::as_array_mut) else {
            continue;
        };
        for g in groups.iter_mut() {
            if let Some(list) = g.get_mut("hooks").and_then(Value::as_array_mut) {
                list.retain(|h| !h.get("command").and_then(Value::as_str).is_some_and(ours));
            }
        }
        groups.retain(|g| {
            g.get("hooks")
                .and_then(Value::as_array)
                .is_none_or(|l| !l.is_empty())
        });
        if groups.is_empty() {
            hooks.remove(&event);
        }
    }
    if !uninstall {
        for (event, matcher, command) in entries {
            let mut group = Map::new();
            if let Some(m) = matcher {
                group.insert("matcher".into(), json!(m));
            }
            group.insert(
                "hooks".into(),
                json!([{"type": "command", "command": command, "timeout": 30}]),
            );
            let list = hooks
                .entry(event.to_string())
                .or_insert_with(|| json!([]))
                .as_array_mut()
                .ok_or_else(|| format!("`hooks.{event}` is not an array"))?;
            list.push(Value::Object(group));
        }
    }
    if hooks.is_empty() && uninstall {
        obj.remove("hooks");
    }
    Ok(())
}

/// Installs or uninstalls into the agent's config file; returns the file written.
pub fn install(
    agent: Agent,
    scope: &Scope,
    program: &str,
    lean: bool,
    uninstall: bool,
) -> Result<PathBuf, InstallError> {
    let path = config_path(agent, scope);
    let shown = path.display().to_string();
    let mut config = match std::fs::read_to_string(&path) {
        Ok(text) if text.trim().is_empty() => Value::Null,
        Ok(text) => serde_json::from_str(&text).map_err(|e| InstallError::Invalid {
            path: shown.clone(),
            message: format!(
                "not JSON ({e}); expected the agent's settings as a JSON object (fix the file, \
                 or move it away to start from an empty one)"
            ),
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Value::Null,
        Err(source) => {
            return Err(InstallError::Io {
                path: shown,
                source,
            });
        }
    };
    if uninstall && config.is_null() {
        return Ok(path);
    }
    merge(&mut config, &our_entries(agent, program, lean), uninstall).map_err(|message| {
        InstallError::Invalid {
            path: shown.clone(),
            message,
        }
    })?;
    write_json(&path, &config).map_err(|source| InstallError::Io {
        path: shown,
        source,
    })?;
    Ok(path)
}

fn write_json(path: &Path, v: &Value) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut text = serde_json::to_string_pretty(v).map_err(std::io::Error::other)?;
    text.push('\n');
    let tmp = path.with_extension("json.slopguard-tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_not_named_slopguard_installs_once_and_uninstalls_cleanly() {
        let mut cfg = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}});
        let entries = our_entries(Agent::Claude, "/opt/bin/sg-renamed", false);
        merge(&mut cfg, &entries, false).unwrap();
        merge(&mut cfg, &entries, false).unwrap();
        let stop = cfg["hooks"]["Stop"].as_array().unwrap();
        assert_eq!(stop.len(), 2, "installed once, not twice: {cfg:#}");
        merge(&mut cfg, &entries, true).unwrap();
        assert_eq!(
            cfg,
            json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}}),
            "uninstall removed every entry it wrote"
        );
    }

    #[test]
    fn merge_keeps_foreign_hooks_and_uninstall_removes_only_ours() {
        let mut cfg = json!({
            "permissions": {"allow": ["Bash(ls)"]},
            "hooks": {
                "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "my-linter"}]}],
                "Stop": [{"hooks": [
                    {"type": "command", "command": "notify-send done"},
                    {"type": "command", "command": "/usr/bin/slopguard hook claude --lean"}
                ]}]
            }
        });
        let original_foreign = cfg["hooks"]["PreToolUse"].clone();
        let entries = our_entries(Agent::Claude, "slopguard", false);
        merge(&mut cfg, &entries, false).unwrap();
        merge(&mut cfg, &entries, false).unwrap(); // idempotent
        let pre = cfg["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(pre.len(), 2);
        assert_eq!(pre[0], original_foreign[0]);
        let stop = cfg["hooks"]["Stop"].as_array().unwrap();
        assert_eq!(
            stop[0]["hooks"].as_array().unwrap().len(),
            1,
            "old slopguard entry replaced"
        );
        assert_eq!(stop[1]["hooks"][0]["command"], "slopguard hook claude");
        assert_eq!(cfg["permissions"]["allow"][0], "Bash(ls)");

        merge(&mut cfg, &entries, true).unwrap();
        assert_eq!(cfg["hooks"]["PreToolUse"], original_foreign);
        assert_eq!(
            cfg["hooks"]["Stop"][0]["hooks"][0]["command"],
            "notify-send done"
        );
        assert!(cfg["hooks"].get("PostToolUse").is_none());
    }

    #[test]
    fn ours_is_recognised_narrowly() {
        assert!(is_ours("slopguard hook claude"));
        assert!(is_ours("/home/u/.cargo/bin/slopguard hook codex --lean"));
        assert!(is_ours("'/opt/my tools/slopguard' hook claude"));
        assert!(is_ours("'/opt/tools/slopguard' hook claude"));
        assert!(!is_ours("slopguard check"));
        assert!(!is_ours("my-slopguard-wrapper hook claude"));
    }

    #[test]
    fn lean_keeps_pre_edit_for_containment() {
        let e = our_entries(Agent::Codex, "slopguard", true);
        assert!(e.iter().all(|(_, _, c)| c.ends_with("--lean")));
        assert!(e.iter().any(|(ev, _, _)| *ev == "PreToolUse"));
    }

    #[test]
    fn install_writes_and_rejects_garbage() {
        let dir = tempfile::tempdir().unwrap();
        let scope = Scope::Project(dir.path().to_path_buf());
        let p = install(Agent::Codex, &scope, "slopguard", false, false).unwrap();
        assert!(p.ends_with(".codex/hooks.json"));
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        assert_eq!(
            v["hooks"]["PreToolUse"][0]["matcher"],
            "apply_patch|Edit|Write"
        );
        install(Agent::Codex, &scope, "slopguard", false, true).unwrap();
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        assert_eq!(v, json!({}));
        std::fs::write(&p, "[1,2]").unwrap();
        assert!(install(Agent::Codex, &scope, "slopguard", false, false).is_err());
    }
}
