//! Calls an answer makes through a qualifier the file never names.
//!
//! A small model often writes the right call behind an invented path: asked for the statement
//! `let day = self.day;` in a file that defines `fn days_in_month`, the 1.5B model answered
//! `self.day.min(dates::days_in_month(year, month))` (session 59, rust-civil-date), a fix but
//! for `dates::`, a module that exists nowhere, so it did not build. When the qualifier is no
//! name of the file and the name it qualifies is a function the file defines, the call
//! without the qualifier is the likelier meaning. It is offered beside the answer as written,
//! not instead of it: `Math.max(` in a file that defines its own `max` means the global.

use std::sync::OnceLock;

use regex::Regex;
use slopguard_lang::mentions_word;

/// `middle` (an infill's answer) with each qualifier dropped from a call `q::name(` or
/// `q.name(` where `q` is no word of `text` (the file the answer goes into) and `name` is a
/// function `text` defines (`fn`, `def`, `func`, `function`); `None` when there is none.
pub fn unknown_qualifiers_dropped(middle: &str, text: &str) -> Option<String> {
    static CALL: OnceLock<Regex> = OnceLock::new();
    let call = CALL.get_or_init(|| {
        Regex::new(r"(^|[^\w:.])([A-Za-z_]\w*)(::|\.)([A-Za-z_]\w*)\s*\(").expect("valid regex")
    });
    let mut out = String::new();
    let mut last = 0;
    for c in call.captures_iter(middle) {
        let (qualifier, sep, name) = (&c[2], c.get(3).expect("group"), &c[4]);
        if mentions_word(text, qualifier) || !defines_function(text, name) {
            continue;
        }
        let q = c.get(2).expect("group");
        out.push_str(&middle[last..q.start()]);
        last = sep.end();
    }
    if last == 0 {
        return None;
    }
    out.push_str(&middle[last..]);
    Some(out)
}

/// Whether `text` defines a function `name`: `fn name`, `def name`, `func name`, `func (r T)
/// name`, `function name`.
fn defines_function(text: &str, name: &str) -> bool {
    let pattern = format!(
        r"\b(?:fn|def|func|function)\s+(?:\([^)]*\)\s*)?{}\b",
        regex::escape(name)
    );
    Regex::new(&pattern).is_ok_and(|re| re.is_match(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUST: &str = "fn days_in_month(y: i32, m: u8) -> u8 { 30 }\n\
                        impl Date {\n    fn add(&self) -> Date { let day = self.day; }\n}\n";

    #[test]
    fn an_invented_module_before_a_function_of_the_file_is_dropped() {
        assert_eq!(
            unknown_qualifiers_dropped("self.day.min(dates::days_in_month(year, month));", RUST)
                .as_deref(),
            Some("self.day.min(days_in_month(year, month));")
        );
        let py = "def clamp(x):\n    return x\n\ndef f(v):\n    return v\n";
        assert_eq!(
            unknown_qualifiers_dropped("utils.clamp(v)", py).as_deref(),
            Some("clamp(v)")
        );
    }

    #[test]
    fn known_qualifiers_and_foreign_functions_are_kept() {
        // `self` is a word of the file; `max` is no function of it.
        assert_eq!(
            unknown_qualifiers_dropped("self.days_in_month(1, 2)", RUST),
            None
        );
        assert_eq!(
            unknown_qualifiers_dropped("std::cmp::max(a, b)", RUST),
            None
        );
        assert_eq!(unknown_qualifiers_dropped("self.day.min(3)", RUST), None);
    }
}
