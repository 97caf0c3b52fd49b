//! The files as they would be after an agent's edit: Claude Code's Write, Edit and MultiEdit
//! tool inputs and Codex's `apply_patch` envelopes, computed in memory.

use std::path::Path;

use serde_json::Value;
pub use slopguard_apply_patch::{ChangeKind, FileChange};

use crate::containment;

/// The outcome of computing an edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proposed {
    /// The changes, with repository-relative paths.
    Changes(Vec<FileChange>),
    /// Not something to judge: not an edit tool, a path outside the repository, or an edit the
    /// tool itself will reject (an `old_string` that is not found). The text says which.
    Skip(String),
    /// The edit is malformed in a way the guards should report (an `apply_patch` envelope that
    /// does not parse or does not apply).
    Invalid(String),
}

/// Is this tool one whose input we can turn into file changes?
pub fn is_edit_tool(tool: &str) -> bool {
    matches!(tool, "Write" | "Edit" | "MultiEdit" | "apply_patch")
}

/// The repository-relative path of `file` (absolute or relative to `cwd`), if it lands inside
/// `root` and outside `.git/` once symlinks are followed ([`containment::locate`]).
pub fn relative_path(root: &Path, cwd: &Path, file: &str) -> Option<String> {
    containment::locate(root, cwd, file).ok()
}

/// Is this tool one that writes files at paths it names (the edit tools, and Claude Code's
/// NotebookEdit, whose writes are checked for containment but not judged by the guards)?
pub fn writes_files(tool: &str) -> bool {
    is_edit_tool(tool) || tool == "NotebookEdit"
}

/// Every path a tool call names as it wrote it: Write/Edit/MultiEdit's `file_path`,
/// NotebookEdit's `notebook_path`, each path of an `apply_patch` envelope (a move's destination
/// too). Empty when there is none or the envelope does not parse (then [`propose`] reports it).
pub fn named_paths(tool: &str, input: &Value) -> Vec<String> {
    if tool == "apply_patch" {
        let Some(patch) = patch_text(input).and_then(|t| slopguard_apply_patch::parse(&t).ok())
        else {
            return Vec::new();
        };
        let mut paths = Vec::new();
        for op in &patch.operations {
            paths.push(op.path().to_string());
            if let slopguard_apply_patch::Operation::Update {
                move_to: Some(dest),
                ..
            } = op
            {
                paths.push(dest.clone());
            }
        }
        return paths;
    }
    input
        .get("file_path")
        .or_else(|| input.get("notebook_path"))
        .or_else(|| input.get("path"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .into_iter()
        .collect()
}

/// Computes the changes of one tool call. `read` returns a repository-relative file's current
/// text (None when it does not exist).
pub fn propose<F>(tool: &str, input: &Value, root: &Path, cwd: &Path, mut read: F) -> Proposed
where
    F: FnMut(&str) -> Option<String>,
{
    match tool {
        "Write" | "Edit" | "MultiEdit" => {
            let Some(file) = input
                .get("file_path")
                .or_else(|| input.get("path"))
                .and_then(Value::as_str)
            else {
                return Proposed::Skip(format!("{tool} without file_path"));
            };
            let Some(rel) = relative_path(root, cwd, file) else {
                return Proposed::Skip(format!("{file} is outside the repository"));
            };
            let before = read(&rel);
            let after = match tool {
                "Write" => match input.get("content").and_then(Value::as_str) {
                    Some(c) => c.to_string(),
                    None => return Proposed::Skip("Write without content".into()),
                },
                "Edit" => match apply_edit(before.as_deref(), input) {
                    Ok(t) => t,
                    Err(why) => return Proposed::Skip(why),
                },
                _ => {
                    let Some(edits) = input.get("edits").and_then(Value::as_array) else {
                        return Proposed::Skip("MultiEdit without edits".into());
                    };
                    let mut text = before.clone();
                    for e in edits {
                        match apply_edit(text.as_deref(), e) {
                            Ok(t) => text = Some(t),
                            Err(why) => return Proposed::Skip(why),
                        }
                    }
                    text.unwrap_or_default()
                }
            };
            if before.as_deref() == Some(after.as_str()) {
                return Proposed::Changes(Vec::new());
            }
            let kind = if before.is_some() {
                ChangeKind::Modify
            } else {
                ChangeKind::Create
            };
            Proposed::Changes(vec![FileChange {
                path: rel,
                kind,
                before: before.map(String::into_bytes),
                after: Some(after.into_bytes()),
                after_is_symlink: false,
            }])
        }
        "apply_patch" => {
            let Some(text) = patch_text(input) else {
                return Proposed::Invalid("apply_patch input has no patch text".into());
            };
            let patch = match slopguard_apply_patch::parse(&text) {
                Ok(p) => p,
                Err(e) => return Proposed::Invalid(e.to_string()),
            };
            // Map every path to repository-relative form; reject paths outside.
            let mut mapped = patch.clone();
            for op in &mut mapped.operations {
                let fix = |p: &mut String| -> Result<(), String> {
                    *p = relative_path(root, cwd, p)
                        .ok_or_else(|| format!("{p} is outside the repository"))?;
                    Ok(())
                };
                let r = match op {
                    slopguard_apply_patch::Operation::Add { path, .. }
                    | slopguard_apply_patch::Operation::Delete { path } => fix(path),
                    slopguard_apply_patch::Operation::Update { path, move_to, .. } => {
                        fix(path).and_then(|_| move_to.as_mut().map_or(Ok(()), fix))
                    }
                };
                if let Err(e) = r {
                    return Proposed::Skip(e);
                }
            }
            match slopguard_apply_patch::apply(&mapped, &mut read) {
                Ok(changes) => Proposed::Changes(changes),
                Err(e) => Proposed::Invalid(e.to_string()),
            }
        }
        _ => Proposed::Skip(format!("{tool} is not an edit tool")),
    }
}

/// The patch text of an `apply_patch` call: `tool_input.command` (string or argv), `input` or
/// `patch`.
pub fn patch_text(input: &Value) -> Option<String> {
    for key in ["command", "input", "patch"] {
        match input.get(key) {
            Some(Value::String(s)) => return Some(s.clone()),
            Some(Value::Array(parts)) => {
                if let Some(s) = parts
                    .iter()
                    .filter_map(Value::as_str)
                    .find(|s| s.contains("*** Begin Patch"))
                {
                    return Some(s.to_string());
                }
            }
            _ => {}
        }
    }
    input.as_str().map(str::to_string)
}

/// Claude Code's Edit semantics: `old_string` must occur exactly once unless `replace_all`;
/// an empty `old_string` on a missing file creates it.
fn apply_edit(before: Option<&str>, edit: &Value) -> Result<String, String> {
    let old = edit.get("old_string").and_then(Value::as_str).unwrap_or("");
    let new = edit.get("new_string").and_then(Value::as_str).unwrap_or("");
    let all = edit
        .get("replace_all")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let Some(text) = before else {
        return if old.is_empty() {
            Ok(new.to_string())
        } else {
            Err("the file does not exist; the tool will fail on its own".into())
        };
    };
    if old.is_empty() {
        return Err("empty old_string on an existing file; the tool will fail on its own".into());
    }
    let n = text.matches(old).count();
    match (n, all) {
        (0, _) => Err("old_string not found; the tool will fail on its own".into()),
        (1, _) | (_, true) => Ok(text.replace(old, new)),
        _ => Err("old_string is not unique; the tool will fail on its own".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read_one(path: &'static str, text: &'static str) -> impl FnMut(&str) -> Option<String> {
        move |p| (p == path).then(|| text.to_string())
    }

    #[test]
    fn claude_tools() {
        let root = Path::new("/repo");
        let w = propose(
            "Write",
            &json!({"file_path": "/repo/a.py", "content": "x = 1\n"}),
            root,
            root,
            |_| None,
        );
        assert!(
            matches!(&w, Proposed::Changes(c) if c[0].kind == ChangeKind::Create && c[0].path == "a.py")
        );
        let e = propose(
            "Edit",
            &json!({"file_path": "/repo/a.py", "old_string": "1", "new_string": "2"}),
            root,
            root,
            read_one("a.py", "x = 1\n"),
        );
        assert!(matches!(&e, Proposed::Changes(c) if c[0].after_text() == Some("x = 2\n")));
        let missing = propose(
            "Edit",
            &json!({"file_path": "/repo/a.py", "old_string": "zzz", "new_string": "2"}),
            root,
            root,
            read_one("a.py", "x = 1\n"),
        );
        assert!(matches!(missing, Proposed::Skip(s) if s.contains("not found")));
        let m = propose(
            "MultiEdit",
            &json!({"file_path": "a.py", "edits": [
                {"old_string": "x", "new_string": "y", "replace_all": true},
                {"old_string": "y = 1", "new_string": "y = 3"}
            ]}),
            root,
            root,
            read_one("a.py", "x = 1\nprint(x)\n"),
        );
        assert!(
            matches!(&m, Proposed::Changes(c) if c[0].after_text() == Some("y = 3\nprint(y)\n"))
        );
        let outside = propose(
            "Write",
            &json!({"file_path": "/etc/passwd", "content": ""}),
            root,
            root,
            |_| None,
        );
        assert!(matches!(outside, Proposed::Skip(_)));
    }

    #[test]
    fn codex_patch() {
        let root = Path::new("/repo");
        let patch = "*** Begin Patch\n*** Update File: src/m.py\n@@\n-a = 1\n+a = 2\n*** End Patch";
        let p = propose(
            "apply_patch",
            &json!({"command": patch}),
            root,
            root,
            read_one("src/m.py", "a = 1\n"),
        );
        assert!(
            matches!(&p, Proposed::Changes(c) if c[0].path == "src/m.py" && c[0].after_text() == Some("a = 2\n"))
        );
        let bad = propose(
            "apply_patch",
            &json!({"command": "nope"}),
            root,
            root,
            |_| None,
        );
        assert!(matches!(bad, Proposed::Invalid(_)));
    }
}
