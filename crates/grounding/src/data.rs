//! The data files shipped with the crate (standard-library module lists, import-name maps),
//! parsed once.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

fn names(text: &'static str) -> BTreeSet<&'static str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

macro_rules! set {
    ($fn:ident, $file:literal, $doc:literal) => {
        #[doc = $doc]
        pub fn $fn() -> &'static BTreeSet<&'static str> {
            static S: OnceLock<BTreeSet<&'static str>> = OnceLock::new();
            S.get_or_init(|| names(include_str!(concat!("../data/", $file))))
        }
    };
}

set!(
    python_stdlib,
    "python_stdlib.txt",
    "Top-level modules of the Python standard library."
);
set!(
    node_builtins,
    "node_builtins.txt",
    "Node.js built-in module names (without `node:`)."
);
set!(
    go_stdlib,
    "go_stdlib.txt",
    "First path elements of Go standard-library packages."
);
set!(
    rust_builtin,
    "rust_builtin.txt",
    "Rust crates in scope without a manifest entry, and path keywords."
);

/// Python import name -> distributions that provide it (where the names differ).
pub fn python_import_map() -> &'static BTreeMap<&'static str, Vec<&'static str>> {
    static M: OnceLock<BTreeMap<&'static str, Vec<&'static str>>> = OnceLock::new();
    M.get_or_init(|| {
        include_str!("../data/python_import_map.txt")
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .filter_map(|l| {
                let mut it = l.split_whitespace();
                Some((it.next()?, it.collect()))
            })
            .collect()
    })
}
