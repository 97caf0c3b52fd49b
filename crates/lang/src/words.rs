//! Whole-word occurrences of a name in source text, with one definition of a word character
//! for every language slopguard reads: ASCII letters and digits, `_`, `$` (JavaScript, PHP,
//! shell) and any byte of a non-ASCII character (identifiers in Unicode). So `text` is not
//! found in `texts` or `$text`, and `ä` never ends a word.
//!
//! (`change::tree` keeps git's narrower definition for `git grep -w`, whose matches it
//! filters.)

/// Whether `b` can be part of an identifier (see the module documentation).
pub fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// Byte offsets in `text` where `word` occurs as a whole word.
pub fn word_positions<'t>(text: &'t str, word: &'t str) -> impl Iterator<Item = usize> + 't {
    let bytes = text.as_bytes();
    text.match_indices(word)
        .map(|(at, _)| at)
        .filter(move |&at| {
            let end = at + word.len();
            !word.is_empty()
                && (at == 0 || !is_word_byte(bytes[at - 1]))
                && (end >= bytes.len() || !is_word_byte(bytes[end]))
        })
}

/// Whether `text` holds `word` as a whole word.
pub fn mentions_word(text: &str, word: &str) -> bool {
    word_positions(text, word).next().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_words_only() {
        assert_eq!(
            word_positions("x = helper(1) + helpers + helper", "helper").collect::<Vec<_>>(),
            vec![4, 26]
        );
        assert!(mentions_word("for w in split(text)", "text"));
        assert!(!mentions_word("for w in split(texts, context)", "text"));
        assert!(!mentions_word("echo $text", "text"));
        assert!(!mentions_word("größe", "gr"));
        assert!(!mentions_word("anything", ""));
    }
}
