//! JSON extraction and repair for LLM replies.
//!
//! Small models wrap JSON in markdown fences and prose, leave trailing commas, write unescaped
//! quotes and raw newlines inside strings, and stop mid-object. [`repair_json`] tries, in order,
//! and stops at the first that parses:
//!
//! 1. the text as is;
//! 2. the fenced / embedded JSON extracted from prose ([`extract_json`]);
//! 3. our string-aware passes on the extracted text: [`strip_trailing_commas`], then
//!    [`escape_bare_quotes`] (which also escapes raw newlines and tabs inside strings), then
//!    [`close_truncated`];
//!
//! The `jsonrepair` crate was a fourth pass until fuzzing (`crates/cli/tests/fuzz_inputs.rs`)
//! found it panicking inside multi-byte characters and looping on random text until memory
//! ran out: a model's reply could end the run. Python literals and comments are no longer
//! repaired; the plain-text reply formats do not need them.
//!
//! Each pass is idempotent on valid JSON. The result says which passes were needed.

use serde::Serialize;
use serde_json::Value;

/// A pass that changed the text on the way to valid JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RepairPass {
    /// Markdown fence or surrounding prose removed.
    Extract,
    /// Commas before `}` / `]` removed.
    TrailingCommas,
    /// Unescaped quotes / raw control characters inside strings escaped.
    BareQuotes,
    /// Unterminated string / containers closed at the end of a cut-off reply.
    TruncatedTail,
}

/// A text-to-text repair pass.
type PassFn = fn(&str) -> String;

/// A successful repair.
#[derive(Debug, Clone, PartialEq)]
pub struct Repaired {
    /// The parsed value.
    pub value: Value,
    /// The passes that were needed, in order (empty: the text was valid JSON).
    pub passes: Vec<RepairPass>,
}

/// Why no JSON could be recovered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no valid JSON in the reply: {message}")]
pub struct RepairError {
    /// The strict parser's message on the best candidate.
    pub message: String,
}

/// Recovers a JSON value from an LLM reply, or says why it cannot.
pub fn repair_json(text: &str) -> Result<Repaired, RepairError> {
    if let Ok(value) = serde_json::from_str::<Value>(text.trim()) {
        return Ok(Repaired {
            value,
            passes: Vec::new(),
        });
    }
    let mut passes = Vec::new();
    let extracted = extract_json(text);
    let mut current = match extracted {
        Some(e) => {
            if e.trim() != text.trim() {
                passes.push(RepairPass::Extract);
            }
            e.to_string()
        }
        None => text.trim().to_string(),
    };
    if let Ok(value) = serde_json::from_str::<Value>(&current) {
        return Ok(Repaired { value, passes });
    }
    let steps: [(RepairPass, PassFn); 3] = [
        (RepairPass::TrailingCommas, strip_trailing_commas),
        (RepairPass::BareQuotes, escape_bare_quotes),
        (RepairPass::TruncatedTail, close_truncated),
    ];
    for (pass, f) in steps {
        let next = f(&current);
        if next != current {
            passes.push(pass);
            current = next;
            if let Ok(value) = serde_json::from_str::<Value>(&current) {
                return Ok(Repaired { value, passes });
            }
        }
    }
    // Our passes after a truncation close may leave a new trailing comma.
    let again = strip_trailing_commas(&current);
    if let Ok(value) = serde_json::from_str::<Value>(&again) {
        return Ok(Repaired { value, passes });
    }
    let strict_error = serde_json::from_str::<Value>(&current)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    Err(RepairError {
        message: strict_error,
    })
}

/// Extracts the JSON part of a reply: the body of the first markdown fence when there is one
/// (```json or bare ```), otherwise the text from the first `{` or `[` to its matching closer
/// (or to the end when the reply was cut off). `None` when there is no `{` or `[` at all.
pub fn extract_json(text: &str) -> Option<&str> {
    if let Some(start) = text.find("```") {
        let after = &text[start + 3..];
        // Skip the info string (json, JSON, jsonc, ...) up to the end of the line.
        let body_start = after.find('\n').map(|i| i + 1).unwrap_or(after.len());
        let body = &after[body_start..];
        let body = match body.find("```") {
            Some(end) => &body[..end],
            None => body,
        };
        if body.contains('{') || body.contains('[') {
            return extract_json(body.trim()).or(Some(body.trim()));
        }
    }
    let start = text.find(['{', '['])?;
    let tail = &text[start..];
    match matching_end(tail) {
        Some(end) => Some(&tail[..=end]),
        None => Some(tail.trim_end()),
    }
}

/// Index of the bracket closing the one at `s[0]`, string-aware.
fn matching_end(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_str = false;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if in_str {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Removes commas that directly precede `}` or `]` (whitespace between allowed), leaving
/// string contents alone: `{"a": "x,}", "b": [1, 2,],}` -> `{"a": "x,}", "b": [1, 2]}`.
pub fn strip_trailing_commas(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut in_str = false;
    let mut escaped = false;
    for (i, &c) in chars.iter().enumerate() {
        if in_str {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        if c == '"' {
            in_str = true;
            out.push(c);
            continue;
        }
        if c == ',' {
            let next = chars[i + 1..].iter().find(|ch| !ch.is_whitespace());
            if matches!(next, Some('}') | Some(']')) {
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// Escapes quotes inside string values that are not the string's closer, and raw newlines,
/// carriage returns and tabs inside strings.
///
/// A string opens at a `"` in structural position. A later unescaped `"` closes it only when
/// the next non-whitespace character is `,` `:` `}` `]` or the end of the text; any other quote
/// is content and gets a backslash: `{"msg": "say "hi" now"}` -> `{"msg": "say \"hi\" now"}`.
/// Python-style `"""` openers inside a value are treated the same way (each quote escaped).
pub fn escape_bare_quotes(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len() + 16);
    let mut in_str = false;
    let mut escaped = false;
    for (i, &c) in chars.iter().enumerate() {
        if !in_str {
            if c == '"' {
                in_str = true;
            }
            out.push(c);
            continue;
        }
        if escaped {
            escaped = false;
            out.push(c);
            continue;
        }
        match c {
            '\\' => {
                escaped = true;
                out.push(c);
            }
            '"' => {
                let next = chars[i + 1..]
                    .iter()
                    .find(|ch| !matches!(ch, ' ' | '\t' | '\r'));
                let closes = match next {
                    None => true,
                    Some(',' | ':' | '}' | ']') => true,
                    // A newline after the quote closes too when the next line starts
                    // structurally (pretty-printed JSON).
                    Some('\n') => {
                        let after = chars[i + 1..].iter().find(|ch| !ch.is_whitespace());
                        matches!(after, None | Some('"' | '}' | ']' | ','))
                    }
                    _ => false,
                };
                if closes {
                    in_str = false;
                    out.push('"');
                } else {
                    out.push_str("\\\"");
                }
            }
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            _ => out.push(c),
        }
    }
    out
}

/// Closes a reply that was cut off: terminates an open string (dropping a dangling escape),
/// drops a dangling `,` or a key without value, and appends the missing `]` / `}` in order.
/// Text that is already balanced is returned unchanged.
pub fn close_truncated(s: &str) -> String {
    let mut stack: Vec<char> = Vec::new();
    let mut in_str = false;
    let mut escaped = false;
    for c in s.chars() {
        if in_str {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '{' => stack.push('}'),
            '[' => stack.push(']'),
            '}' | ']' => {
                stack.pop();
            }
            _ => {}
        }
    }
    if stack.is_empty() && !in_str {
        return s.to_string();
    }
    let mut out = s.trim_end().to_string();
    if in_str {
        if escaped {
            out.pop();
        }
        out.push('"');
    }
    loop {
        let trimmed = out.trim_end();
        if let Some(stripped) = trimmed.strip_suffix(',') {
            out = stripped.to_string();
            continue;
        }
        if let Some(stripped) = trimmed.strip_suffix(':') {
            // A key with no value: drop the key too.
            out = drop_last_string(stripped).trim_end().to_string();
            continue;
        }
        // `{"a": 1, "b"` -> a key without colon inside an object.
        if stack.last() == Some(&'}') && trimmed.ends_with('"') {
            let before = drop_last_string(trimmed);
            let b = before.trim_end();
            if b.ends_with(',') || b.ends_with('{') {
                out = b.to_string();
                continue;
            }
        }
        out = trimmed.to_string();
        break;
    }
    while let Some(closer) = stack.pop() {
        out.push(closer);
    }
    out
}

/// Removes the last complete string literal at the end of `s` (which ends with `"`).
fn drop_last_string(s: &str) -> &str {
    let t = s.trim_end();
    if !t.ends_with('"') {
        return t;
    }
    let body = &t[..t.len() - 1];
    let mut idx = body.len();
    let bytes = body.as_bytes();
    while idx > 0 {
        idx -= 1;
        if bytes[idx] == b'"' {
            // Count preceding backslashes.
            let mut n = 0;
            let mut j = idx;
            while j > 0 && bytes[j - 1] == b'\\' {
                n += 1;
                j -= 1;
            }
            if n % 2 == 0 {
                return &body[..idx];
            }
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn valid_json_needs_no_pass() {
        let r = repair_json(r#"{"a": [1, 2]}"#).unwrap();
        assert_eq!(r.value, json!({"a": [1, 2]}));
        assert!(r.passes.is_empty());
    }

    #[test]
    fn fence_with_prose_is_extracted() {
        let text = "Sure! Here is the plan:\n```json\n{\"tasks\": []}\n```\nLet me know.";
        assert_eq!(extract_json(text), Some("{\"tasks\": []}"));
        let r = repair_json(text).unwrap();
        assert_eq!(r.value, json!({"tasks": []}));
        assert_eq!(r.passes, vec![RepairPass::Extract]);
    }

    #[test]
    fn unfenced_prose_is_extracted_to_matching_brace() {
        let text = "The answer is {\"a\": \"}\"} and more {text}";
        assert_eq!(extract_json(text), Some("{\"a\": \"}\"}"));
        assert_eq!(extract_json("no json here"), None);
    }

    #[test]
    fn trailing_commas_are_string_aware() {
        assert_eq!(
            strip_trailing_commas(r#"{"a": "x,}", "b": [1, 2,], }"#),
            r#"{"a": "x,}", "b": [1, 2] }"#
        );
        let r = repair_json("{\"a\": [1,2,],}").unwrap();
        assert_eq!(r.value, json!({"a": [1, 2]}));
        assert_eq!(r.passes, vec![RepairPass::TrailingCommas]);
    }

    #[test]
    fn bare_quotes_are_escaped() {
        let fixed = escape_bare_quotes(r#"{"msg": "say "hi" now", "n": 1}"#);
        assert_eq!(fixed, r#"{"msg": "say \"hi\" now", "n": 1}"#);
        let r = repair_json(r#"{"msg": "say "hi" now"}"#).unwrap();
        assert_eq!(r.value["msg"], "say \"hi\" now");
        assert_eq!(r.passes, vec![RepairPass::BareQuotes]);
    }

    #[test]
    fn raw_newlines_in_strings_are_escaped() {
        let text = "{\"content\": \"line1\nline2\n\tindented\", \"k\": 2}";
        let r = repair_json(text).unwrap();
        assert_eq!(r.value["content"], "line1\nline2\n\tindented");
        assert_eq!(r.value["k"], 2);
        // Structural newlines outside strings stay as they are.
        assert_eq!(escape_bare_quotes("{\n\"a\": 1\n}"), "{\n\"a\": 1\n}");
    }

    #[test]
    fn pretty_printed_json_with_newline_after_closer_keeps_structure() {
        let text = "{\n  \"a\": \"x\"\n}";
        assert_eq!(escape_bare_quotes(text), text);
    }

    #[test]
    fn truncated_tail_is_closed() {
        assert_eq!(close_truncated(r#"{"a": [1, 2"#), r#"{"a": [1, 2]}"#);
        assert_eq!(
            close_truncated(r#"{"a": "unfinished"#),
            r#"{"a": "unfinished"}"#
        );
        assert_eq!(close_truncated(r#"{"a": 1, "b":"#), r#"{"a": 1}"#);
        assert_eq!(close_truncated(r#"{"a": 1, "b""#), r#"{"a": 1}"#);
        assert_eq!(
            close_truncated(r#"{"a": [{"x": 1},"#),
            r#"{"a": [{"x": 1}]}"#
        );
        assert_eq!(close_truncated(r#"{"a": 1}"#), r#"{"a": 1}"#);
        let r = repair_json("```json\n{\"tasks\": [{\"id\": \"T001\", \"title\": \"Fix").unwrap();
        assert_eq!(r.value, json!({"tasks": [{"id": "T001", "title": "Fix"}]}));
        assert!(r.passes.contains(&RepairPass::TruncatedTail));
    }

    #[test]
    fn passes_are_idempotent_on_valid_json() {
        let valid = r#"{"a": "b, c", "d": ["e", {"f": "g\"h"}], "i": "j\nk"}"#;
        assert_eq!(strip_trailing_commas(valid), valid);
        assert_eq!(escape_bare_quotes(valid), valid);
        assert_eq!(close_truncated(valid), valid);
    }

    #[test]
    fn python_triple_quoted_strings_are_recovered() {
        let text = "{\"path\": \"a.py\", \"content\": \"\"\"def f():\n    return 1\n\"\"\"}";
        let r = repair_json(text).unwrap();
        assert_eq!(r.value["path"], "a.py");
        assert!(
            r.value["content"]
                .as_str()
                .unwrap()
                .contains("def f():\n    return 1"),
            "{:?}",
            r.value
        );
    }

    #[test]
    fn prose_without_json_is_an_error() {
        assert!(repair_json("I cannot help with that.").is_err());
    }

    #[test]
    fn combined_breakage() {
        let text = "```json\n{\"patches\": [{\"path\": \"a.py\", \"content\": \"print(\"x\")\ny = 1\n\",},]}\n```";
        let r = repair_json(text).unwrap();
        assert_eq!(r.value["patches"][0]["content"], "print(\"x\")\ny = 1\n");
    }
}
