//! Rename-stable body hashes.
//!
//! The hash is FNV-1a (64-bit) over a normalised token stream of the definition's text:
//! every whole-word occurrence of the definition's own name becomes a placeholder byte, and
//! whitespace is dropped except where it separates two word characters (where it becomes one
//! space). So a pure rename, a re-indent or a reformat keeps the hash; any change to the
//! tokens changes it. FNV is used (rather than a std hasher) because the value is stable across
//! runs, platforms and compiler versions, so it can be stored.

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;
const PLACEHOLDER: u8 = 0x01;

struct Fnv(u64);

impl Fnv {
    fn byte(&mut self, b: u8) {
        self.0 ^= u64::from(b);
        self.0 = self.0.wrapping_mul(FNV_PRIME);
    }
    fn bytes(&mut self, bs: &[u8]) {
        for &b in bs {
            self.byte(b);
        }
    }
}

use crate::words::is_word_byte as is_word;

/// Hash of `text` with whole-word occurrences of `name` replaced by a placeholder and
/// whitespace normalised. See the module documentation.
pub fn body_hash(text: &str, name: &str) -> u64 {
    let bytes = text.as_bytes();
    let name = name.as_bytes();
    let mut h = Fnv(FNV_OFFSET);
    let mut i = 0;
    // Whether the last emitted token ended in a word character, and whether whitespace was seen
    // since.
    let mut last_word = false;
    let mut pending_space = false;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() {
            pending_space = true;
            i += 1;
        } else if is_word(b) {
            let start = i;
            while i < bytes.len() && is_word(bytes[i]) {
                i += 1;
            }
            if last_word && pending_space {
                h.byte(b' ');
            }
            let word = &bytes[start..i];
            if !name.is_empty() && word == name {
                h.byte(PLACEHOLDER);
            } else {
                h.bytes(word);
            }
            last_word = true;
            pending_space = false;
        } else {
            h.byte(b);
            last_word = false;
            pending_space = false;
            i += 1;
        }
    }
    h.0
}

#[cfg(test)]
mod tests {
    use super::body_hash;

    #[test]
    fn rename_and_reformat_keep_the_hash() {
        let a = body_hash("def foo(x):\n    return foo(x - 1)", "foo");
        let b = body_hash("def bar(x):\n        return   bar(x - 1)", "bar");
        assert_eq!(a, b);
        let c = body_hash("def bar(x):\n    return bar(x - 2)", "bar");
        assert_ne!(a, c);
        // Word boundaries are kept: `a b` is not `ab`.
        assert_ne!(body_hash("a b", "x"), body_hash("ab", "x"));
        // Partial-word matches are not replaced.
        assert_ne!(
            body_hash("foo foobar", "foo"),
            body_hash("bar barbar", "bar")
        );
    }
}
