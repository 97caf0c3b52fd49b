//! The LLM JSON patch format:
//!
//! ```json
//! {"commit_message": "fix: ...",
//!  "patches": [{"action": "create|modify|delete", "path": "src/x.py", "content": "..."},
//!              {"action": "modify", "path": "src/y.py",
//!               "edits": [{"search": "old", "replace": "new"}]}]}
//! ```
//!
//! `content` is the whole new file; `edits` (or a single `search`/`replace` pair) are
//! search/replace edits against the current file. A bare JSON array of patches is accepted too.

use serde::Deserialize;

use crate::ChangeError;

/// What a patch does to its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(
    rename_all = "lowercase",
    expecting = "an action: \"create\", \"modify\" or \"delete\""
)]
pub enum PatchAction {
    Create,
    Modify,
    Delete,
}

/// One search/replace edit inside a JSON patch. (The `expecting` texts are what a user or a
/// model reads when the shape is wrong: the format's words, not the Rust type's name.)
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(expecting = "an edit object {\"search\": ..., \"replace\": ...}")]
pub struct SearchReplace {
    pub search: String,
    pub replace: String,
}

/// One patch of the list.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(
    expecting = "a patch object {\"action\": \"modify\", \"path\": ..., \"content\" or \"edits\": ...}"
)]
pub struct LlmPatch {
    pub action: PatchAction,
    pub path: String,
    #[serde(default)]
    pub content: Option<String>,
    #[serde(default)]
    pub edits: Vec<SearchReplace>,
    #[serde(default)]
    pub search: Option<String>,
    #[serde(default)]
    pub replace: Option<String>,
}

impl LlmPatch {
    /// All search/replace edits of the patch (the `edits` list plus a top-level pair).
    pub fn all_edits(&self) -> Vec<SearchReplace> {
        let mut edits = self.edits.clone();
        if let Some(search) = &self.search {
            edits.push(SearchReplace {
                search: search.clone(),
                replace: self.replace.clone().unwrap_or_default(),
            });
        }
        edits
    }
}

/// The whole reply.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(expecting = "an object {\"patches\": [...]} or a bare array of patch objects")]
pub struct LlmPatchList {
    #[serde(default)]
    pub commit_message: Option<String>,
    #[serde(default)]
    pub patches: Vec<LlmPatch>,
}

/// Parses the JSON patch format (object with `patches`, or a bare array).
pub fn parse_patches(text: &str) -> Result<LlmPatchList, ChangeError> {
    let value: serde_json::Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
        .map_err(|e| ChangeError::InvalidPatch(format!("patches are not valid JSON: {e}")))?;
    let list = if value.is_array() {
        serde_json::from_value::<Vec<LlmPatch>>(value).map(|patches| LlmPatchList {
            commit_message: None,
            patches,
        })
    } else {
        serde_json::from_value::<LlmPatchList>(value)
    }
    .map_err(|e| {
        ChangeError::InvalidPatch(format!("patches do not have the expected shape: {e}"))
    })?;
    for p in &list.patches {
        match p.action {
            PatchAction::Create if p.content.is_none() => {
                return Err(ChangeError::InvalidPatch(format!(
                    "create of {} has no `content`",
                    p.path
                )));
            }
            PatchAction::Modify if p.content.is_none() && p.all_edits().is_empty() => {
                return Err(ChangeError::InvalidPatch(format!(
                    "modify of {} has neither `content` nor `edits`",
                    p.path
                )));
            }
            _ => {}
        }
    }
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_object_and_array() {
        let l = parse_patches(
            r#"{"commit_message":"m","patches":[{"action":"create","path":"a","content":"x"}]}"#,
        )
        .unwrap();
        assert_eq!(l.commit_message.as_deref(), Some("m"));
        assert_eq!(l.patches[0].action, PatchAction::Create);
        let l = parse_patches(r#"[{"action":"delete","path":"a"}]"#).unwrap();
        assert_eq!(l.patches[0].action, PatchAction::Delete);
    }

    #[test]
    fn shape_errors_speak_the_formats_words_not_rust_types() {
        for (input, expected) in [
            ("[1]", "expected a patch object {\"action\": \"modify\""),
            ("5", "expected an object {\"patches\": [...]}"),
            (
                r#"[{"action":"modify","path":"a","edits":[3]}]"#,
                "expected an edit object",
            ),
        ] {
            let e = parse_patches(input).unwrap_err().to_string();
            assert!(e.contains(expected), "{input}: {e}");
            assert!(!e.contains("struct"), "{input}: {e}");
        }
    }

    #[test]
    fn rejects_bad_shapes() {
        assert!(parse_patches("not json").is_err());
        assert!(parse_patches(r#"{"patches":[{"action":"explode","path":"a"}]}"#).is_err());
        assert!(parse_patches(r#"{"patches":[{"action":"modify","path":"a"}]}"#).is_err());
    }
}
