//! Locating a violation in the source text: from a parser message ("at line 3 column 5") or
//! by walking a JSON pointer's keys through the text.

/// The first "line N" in a parser's message.
pub(crate) fn line_from_message(msg: &str) -> Option<u32> {
    let lower = msg.to_ascii_lowercase();
    let i = lower.find("line ")?;
    let digits: String = lower[i + 5..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok().filter(|n| *n > 0)
}

/// Best-effort line of a JSON pointer (`/jobs/build/runs-on`): each key is searched for (as
/// `"key"`, `key:` or `key =`, or a `[key]` table header) after the previous one's position.
pub(crate) fn locate(text: &str, pointer: &str) -> Option<u32> {
    if pointer.is_empty() {
        return None;
    }
    let mut pos = 0usize;
    let mut found_any = false;
    for seg in pointer.trim_start_matches('/').split('/') {
        let key = seg.replace("~1", "/").replace("~0", "~");
        if key.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let rest = &text[pos..];
        let candidates = [
            format!("\"{key}\""),
            format!("{key}:"),
            format!("{key} ="),
            format!("{key}="),
            format!(".{key}]"),
            format!("[{key}]"),
            format!("[{key}."),
            format!(".{key}."),
        ];
        let hit = candidates
            .iter()
            .filter_map(|c| rest.find(c.as_str()))
            .min();
        match hit {
            Some(h) => {
                pos += h;
                found_any = true;
            }
            None => break,
        }
    }
    found_any.then(|| text[..pos].matches('\n').count() as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        assert_eq!(
            line_from_message("invalid type at line 3 column 5"),
            Some(3)
        );
        let text = "{\n  \"a\": {\n    \"parser\": {\n    }\n  }\n}";
        assert_eq!(locate(text, "/a/parser"), Some(3));
        assert_eq!(
            locate(
                "[tool.ruff]\nline-length = \"x\"\n",
                "/tool/ruff/line-length"
            ),
            Some(2)
        );
    }
}
