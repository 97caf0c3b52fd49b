//! Methods a language runs on the programmer's behalf. A test that writes
//! `"1 KiB".parse::<ByteSize>()` runs `impl FromStr for ByteSize`'s `from_str` without naming
//! it; `str(money)` runs `Money.__str__`; `Money.new(5)` runs `Money#initialize`. Whoever asks
//! "which definitions does this test call?" by the names it mentions misses these, and they
//! are where a parser's or a formatter's bug sits.
//!
//! The rule ([`runs_implicitly`]): a method is run implicitly when the test mentions its type
//! and either the method is the language's constructor, or the test mentions a call that the
//! language dispatches to a method of that name (the table [`DISPATCHED`]). Operators are not
//! covered: they are not words.

use crate::Language;
use crate::types::last_member_separator;

/// `(language, what the test writes, the method the language runs)`: the calls a language
/// dispatches to a method the caller does not name. Only calls that are words; a trigger may
/// run several methods (Python's `sorted` compares with `__lt__`).
const DISPATCHED: &[(Language, &str, &str)] = &[
    // Rust: std traits.
    (Language::Rust, "parse", "from_str"),
    (Language::Rust, "to_string", "fmt"),
    (Language::Rust, "format", "fmt"),
    (Language::Rust, "into", "from"),
    (Language::Rust, "try_into", "try_from"),
    (Language::Rust, "collect", "from_iter"),
    (Language::Rust, "sum", "sum"),
    (Language::Rust, "product", "product"),
    (Language::Rust, "sort", "cmp"),
    (Language::Rust, "sort", "partial_cmp"),
    (Language::Rust, "max", "cmp"),
    (Language::Rust, "min", "cmp"),
    // Python: the data model's dunder methods.
    (Language::Python, "str", "__str__"),
    (Language::Python, "format", "__format__"),
    (Language::Python, "format", "__str__"),
    (Language::Python, "print", "__str__"),
    (Language::Python, "repr", "__repr__"),
    (Language::Python, "len", "__len__"),
    (Language::Python, "bool", "__bool__"),
    (Language::Python, "int", "__int__"),
    (Language::Python, "float", "__float__"),
    (Language::Python, "hash", "__hash__"),
    (Language::Python, "abs", "__abs__"),
    (Language::Python, "round", "__round__"),
    (Language::Python, "reversed", "__reversed__"),
    (Language::Python, "iter", "__iter__"),
    (Language::Python, "list", "__iter__"),
    (Language::Python, "tuple", "__iter__"),
    (Language::Python, "next", "__next__"),
    (Language::Python, "sorted", "__lt__"),
    (Language::Python, "min", "__lt__"),
    (Language::Python, "max", "__gt__"),
    // Ruby: conversions and Comparable.
    (Language::Ruby, "puts", "to_s"),
    (Language::Ruby, "sort", "<=>"),
    (Language::Ruby, "min", "<=>"),
    (Language::Ruby, "max", "<=>"),
    (Language::Ruby, "clamp", "<=>"),
    (Language::Ruby, "between", "<=>"),
    // JavaScript and TypeScript: conversions.
    (Language::JavaScript, "String", "toString"),
    (Language::JavaScript, "stringify", "toJSON"),
    (Language::JavaScript, "Number", "valueOf"),
    (Language::TypeScript, "String", "toString"),
    (Language::TypeScript, "stringify", "toJSON"),
    (Language::TypeScript, "Number", "valueOf"),
    // Go: the fmt, sort and encoding interfaces.
    (Language::Go, "Sprint", "String"),
    (Language::Go, "Sprintf", "String"),
    (Language::Go, "Println", "String"),
    (Language::Go, "Printf", "String"),
    (Language::Go, "Errorf", "Error"),
    (Language::Go, "Sort", "Less"),
    (Language::Go, "Sort", "Len"),
    (Language::Go, "Sort", "Swap"),
    (Language::Go, "Marshal", "MarshalJSON"),
    (Language::Go, "Unmarshal", "UnmarshalJSON"),
];

/// The method a language runs when code makes a value of the method's type, by language.
fn is_constructor(language: Language, method: &str) -> bool {
    match language {
        Language::Python => matches!(method, "__init__" | "__new__" | "__post_init__"),
        Language::Ruby => method == "initialize",
        Language::JavaScript | Language::TypeScript | Language::Tsx => method == "constructor",
        _ => false,
    }
}

/// Whether code that mentions the identifiers `mentions` accepts runs the member `name`
/// (qualified as [`Definition::name`](crate::Definition::name) gives it: `ByteSize::from_str`,
/// `Money.__str__`, `Money#initialize`) without naming it: the code mentions the member's type
/// and either makes a value of it (the constructor), or makes a call the language dispatches
/// to the member ([`DISPATCHED`]). A top-level function is never run implicitly.
pub fn runs_implicitly(language: Language, name: &str, mentions: impl Fn(&str) -> bool) -> bool {
    let Some((owner, method)) = split_member(name) else {
        return false;
    };
    if !mentions(owner) {
        return false;
    }
    let language = match language {
        Language::Tsx => Language::TypeScript,
        l => l,
    };
    is_constructor(language, method)
        || DISPATCHED
            .iter()
            .any(|(l, trigger, callee)| *l == language && *callee == method && mentions(trigger))
}

/// `(type, method)` of a qualified member name: the last segment, and the one before it
/// (`outer::Inner::m` -> `(Inner, m)`, `Money#initialize` -> `(Money, initialize)`).
fn split_member(name: &str) -> Option<(&str, &str)> {
    let (end, start) = last_member_separator(name)?;
    let method = &name[start..];
    let qualified_owner = &name[..end];
    let owner = match last_member_separator(qualified_owner) {
        Some((_, segment)) => &qualified_owner[segment..],
        None => qualified_owner,
    };
    (!owner.is_empty() && !method.is_empty()).then_some((owner, method))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mentions<'a>(words: &'a [&'a str]) -> impl Fn(&str) -> bool + 'a {
        move |w| words.contains(&w)
    }

    #[test]
    fn a_rust_parse_runs_the_types_from_str() {
        let test = ["assert_eq", "parse", "ByteSize", "unwrap"];
        assert!(runs_implicitly(
            Language::Rust,
            "ByteSize::from_str",
            mentions(&test)
        ));
        // Another type's parser is not run by it.
        assert!(!runs_implicitly(
            Language::Rust,
            "Unit::from_str",
            mentions(&test)
        ));
        // Nor is a method the parse does not dispatch to.
        assert!(!runs_implicitly(
            Language::Rust,
            "ByteSize::fmt",
            mentions(&test)
        ));
    }

    #[test]
    fn making_a_value_runs_its_constructor() {
        let test = ["Money", "new", "assert_equal"];
        assert!(runs_implicitly(
            Language::Ruby,
            "Money#initialize",
            mentions(&test)
        ));
        assert!(runs_implicitly(
            Language::Python,
            "pkg.Money.__init__",
            mentions(&test)
        ));
        assert!(!runs_implicitly(
            Language::Python,
            "Wallet.__init__",
            mentions(&test)
        ));
        // Rust and Go constructors are functions the code names.
        assert!(!runs_implicitly(
            Language::Rust,
            "Money::new_unchecked",
            mentions(&test)
        ));
    }

    #[test]
    fn conversions_run_the_types_formatter() {
        let test = ["Duration", "str", "assert"];
        assert!(runs_implicitly(
            Language::Python,
            "Duration.__str__",
            mentions(&test)
        ));
        assert!(!runs_implicitly(
            Language::Python,
            "Duration.__repr__",
            mentions(&test)
        ));
        let go = ["Interval", "Sprintf", "t", "Errorf"];
        assert!(runs_implicitly(
            Language::Go,
            "Interval.String",
            mentions(&go)
        ));
    }

    #[test]
    fn a_top_level_function_is_never_run_implicitly() {
        assert!(!runs_implicitly(
            Language::Rust,
            "from_str",
            mentions(&["parse", "from_str"])
        ));
    }
}
