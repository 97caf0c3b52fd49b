//! Per-test line coverage of a cargo project without `llvm-tools`: the crate's sources are
//! copied and instrumented, each statement the code runs reports itself once per test, and
//! libtest's captured output says which test ran which statement.
//!
//! rustc's own coverage (`-C instrument-coverage`) needs `llvm-profdata` of the compiler's LLVM
//! version, which a plain rustup install does not ship. A probe in the source needs nothing but
//! cargo: before each statement of each function body (and in each `match` arm whose value is
//! not a block) the copy gets `crate::__slopguard_coverage::hit(FILE, LINE);` on the
//! statement's own line, so line numbers stay those of the original. `hit` prints a marker the
//! first time a test's thread reaches a line (libtest runs each test on a thread of its own
//! and captures what it prints); `cargo test -- --show-output` prints every test's capture.
//!
//! Left alone: test code (`#[cfg(test)]` modules, `#[test]` functions, test files), `const fn`
//! bodies (a probe is not `const`), statements under an attribute (the attribute would move
//! onto the probe), macro bodies (token trees, not parsed), build scripts. A project whose copy
//! does not build (a path dependency outside the repository, a crate root elsewhere than
//! `src/lib.rs`, `src/main.rs` or `src/bin/`) records nothing: the caller falls back on what
//! the tests' source says.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::rust_hangs::HangWatch;
use crate::coverage::{ScratchDir, Spectrum, TestCoverage};
use crate::process;
use crate::{Ecosystem, RepoFiles, TestLimits};

/// The module every crate root of the copy gets, holding the probe.
const PROBE_MODULE: &str = "\n#[doc(hidden)]\n#[allow(warnings, clippy::all)]\npub(crate) mod \
__slopguard_coverage {\n    extern crate std;\n    use self::std::cell::RefCell;\n    use \
self::std::collections::HashSet;\n    std::thread_local! {\n        static SEEN: RefCell<HashSet<(u32, \
u32)>> = RefCell::new(HashSet::new());\n    }\n    /// Prints the line once per thread (a test \
runs on a thread of its own).\n    pub fn hit(file: u32, line: u32) {\n        let first = \
SEEN.with(|s| s.borrow_mut().insert((file, line)));\n        if first {\n            \
std::eprintln!(\"\\u{1}slopguard-coverage {} {}\", file, line);\n        }\n    }\n}\n";

/// What a probe prints before the file's index and the line.
const MARK: &str = "\u{1}slopguard-coverage ";

/// Largest copy made (bytes of the files copied), so a huge repository is not duplicated.
const MAX_COPY_BYTES: u64 = 200 * 1024 * 1024;

/// Directories the copy leaves out: build output, version control, slopguard's own.
const SKIP_DIRS: &[&str] = &["target", ".git", ".slopguard", "node_modules"];

/// Records which lines of the project each test runs: the instrumented copy's `cargo test`,
/// read test by test. `None` when the copy cannot be made, does not build, or no test ran.
pub(super) fn record(
    rust: &dyn Ecosystem,
    files: &RepoFiles,
    limits: &TestLimits,
) -> Option<Spectrum> {
    let scratch = ScratchDir::new("rs-cover")?;
    let copy = scratch.path().join("src");
    copy_tree(&files.root, &copy)?;
    let sources: Vec<&String> = files
        .files
        .iter()
        .filter(|f| is_crate_source(f) && !rust.is_test_file(f))
        .collect();
    let mut instrumented = 0;
    for (index, rel) in sources.iter().enumerate() {
        let Some(text) = files.read(rel) else {
            continue;
        };
        let probes = probe_points(&text);
        let mut out = instrument(&text, index as u32, &probes);
        if is_crate_root(rel) {
            out.push_str(PROBE_MODULE);
        }
        if out != text {
            std::fs::write(copy.join(rel), out).ok()?;
            instrumented += probes.len();
        }
    }
    if instrumented == 0 {
        return None;
    }
    // Dependencies built for one recording serve the next: beside the project's own build
    // output when it has one (`CARGO_TARGET_DIR`, else `target/`).
    let own = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|t| {
            if t.is_relative() {
                files.root.join(t)
            } else {
                t
            }
        })
        .unwrap_or_else(|| files.root.join("target"));
    let target = match own {
        t if t.is_dir() => t.join("slopguard-coverage"),
        _ => scratch.path().join("target"),
    };
    let target = target.display().to_string();
    let out = process::run_watched(
        "sh",
        &[
            "-c",
            "exec cargo test --no-fail-fast --color never -- --show-output 2>&1",
        ],
        &copy,
        &[
            ("CARGO_TERM_COLOR", "never"),
            ("CARGO_TARGET_DIR", target.as_str()),
        ],
        limits.suite,
        &mut HangWatch::new(limits.per_test),
    );
    if out.timed_out || out.stopped {
        return None;
    }
    let run = rust.parse_output(&out.stdout);
    if !run.ran {
        return None;
    }
    let failing: BTreeSet<&str> = run.failing.iter().map(|f| f.id.as_str()).collect();
    let mut by_test = read_probes(&out.stdout, &sources);
    // A failing test that ran no line of the project still counts among the failing.
    for id in &failing {
        by_test.entry(id.to_string()).or_default();
    }
    let tests = by_test
        .into_iter()
        .map(|(id, lines)| TestCoverage {
            passed: !failing.contains(id.as_str()),
            id,
            lines,
        })
        .collect();
    Some(Spectrum { tests })
}

/// A `.rs` file under a package's `src/` (not a build script, example or bench).
fn is_crate_source(rel: &str) -> bool {
    rel.ends_with(".rs") && (rel.starts_with("src/") || rel.contains("/src/"))
}

/// A crate root cargo finds by convention: a library or binary root
/// ([`super::rust::is_crate_root`]), `src/bin/x.rs` or `src/bin/x/main.rs`.
fn is_crate_root(rel: &str) -> bool {
    let bin = match rel.strip_prefix("src/bin/") {
        Some(rest) => Some(rest),
        None => rel.split_once("/src/bin/").map(|(_, rest)| rest),
    };
    super::rust::is_crate_root(rel)
        || bin.is_some_and(|b| !b.contains('/') || b.ends_with("/main.rs"))
}

/// Copies `from` into `to`, leaving out [`SKIP_DIRS`]; `None` past [`MAX_COPY_BYTES`] or on an
/// error.
fn copy_tree(from: &Path, to: &Path) -> Option<()> {
    let mut copied = 0u64;
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        std::fs::create_dir_all(to.join(&rel)).ok()?;
        for entry in std::fs::read_dir(from.join(&rel)).ok()?.flatten() {
            let name = entry.file_name();
            let child = rel.join(&name);
            let kind = entry.file_type().ok()?;
            if kind.is_dir() {
                if !SKIP_DIRS.iter().any(|d| name == *d) {
                    stack.push(child);
                }
            } else if kind.is_file() {
                copied += std::fs::copy(from.join(&child), to.join(&child)).ok()?;
                if copied > MAX_COPY_BYTES {
                    return None;
                }
            }
        }
    }
    Some(())
}

/// Where a probe goes: before the statement at byte `at` (1-based `line`), or around a `match`
/// arm's value ending at `wrap_end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Probe {
    pub at: usize,
    pub line: u32,
    pub wrap_end: Option<usize>,
}

/// The probes of a Rust source: each statement of each function body outside test code, and
/// each `match` arm's value that is not a block, in source order.
pub(super) fn probe_points(text: &str) -> Vec<Probe> {
    let mut parser = tree_sitter::Parser::new();
    if parser
        .set_language(&tree_sitter_rust::LANGUAGE.into())
        .is_err()
    {
        return Vec::new();
    }
    let Some(tree) = parser.parse(text, None) else {
        return Vec::new();
    };
    let mut probes = Vec::new();
    walk(tree.root_node(), text.as_bytes(), false, &mut probes);
    probes.sort_by_key(|p| p.at);
    probes
}

/// Visits `node`; `in_body` is whether it lies in the body of a function probes go into.
fn walk(node: tree_sitter::Node, src: &[u8], in_body: bool, probes: &mut Vec<Probe>) {
    let mut cursor = node.walk();
    let children: Vec<_> = node.named_children(&mut cursor).collect();
    for (i, child) in children.iter().enumerate() {
        let attributes = attributes_before(&children[..i], src);
        let inside = match child.kind() {
            // Test code is left alone, and so is what the attribute of a cfg'd-out test covers.
            _ if attributes.iter().any(|a| names_test(a)) => continue,
            "function_item" => !is_const_fn(*child, src),
            "const_item" | "static_item" | "const_block" | "macro_invocation"
            | "macro_definition" => false,
            _ => in_body,
        };
        if in_body && node.kind() == "block" && is_statement(*child) && attributes.is_empty() {
            probes.push(Probe {
                at: child.start_byte(),
                line: child.start_position().row as u32 + 1,
                wrap_end: None,
            });
        }
        if in_body
            && child.kind() == "match_arm"
            && let Some(value) = child.child_by_field_name("value")
            && !matches!(value.kind(), "block" | "reference_expression")
        {
            probes.push(Probe {
                at: value.start_byte(),
                line: value.start_position().row as u32 + 1,
                wrap_end: Some(value.end_byte()),
            });
        }
        walk(*child, src, inside, probes);
    }
}

/// The texts of the attributes just before the last of `siblings`' items, nearest last.
fn attributes_before<'a>(siblings: &[tree_sitter::Node], src: &'a [u8]) -> Vec<&'a str> {
    siblings
        .iter()
        .rev()
        .take_while(|n| {
            matches!(
                n.kind(),
                "attribute_item" | "line_comment" | "block_comment"
            )
        })
        .filter(|n| n.kind() == "attribute_item")
        .filter_map(|n| std::str::from_utf8(&src[n.byte_range()]).ok())
        .collect()
}

/// `#[test]`, `#[tokio::test]`, `#[cfg(test)]` and the like.
fn names_test(attribute: &str) -> bool {
    let inner: String = attribute.chars().filter(|c| !c.is_whitespace()).collect();
    inner == "#[test]" || inner.ends_with("::test]") || inner.contains("cfg(test)")
}

/// A `const fn`, whose body may not call the probe.
fn is_const_fn(node: tree_sitter::Node, src: &[u8]) -> bool {
    let mut cursor = node.walk();
    node.children(&mut cursor)
        .find(|c| c.kind() == "function_modifiers")
        .and_then(|m| std::str::from_utf8(&src[m.byte_range()]).ok())
        .is_some_and(|m| m.split_whitespace().any(|w| w == "const"))
}

/// A statement or a block's final expression, not an item, attribute or comment.
fn is_statement(node: tree_sitter::Node) -> bool {
    let kind = node.kind();
    !(kind.ends_with("_item")
        || kind.ends_with("_comment")
        || matches!(
            kind,
            "use_declaration"
                | "extern_crate_declaration"
                | "macro_definition"
                | "empty_statement"
                | "label"
                | "shebang"
        ))
}

/// `text` with the probes of file `file` written in, each on its statement's line.
pub(super) fn instrument(text: &str, file: u32, probes: &[Probe]) -> String {
    let mut edits: Vec<(usize, String)> = Vec::new();
    for p in probes {
        let call = format!("crate::__slopguard_coverage::hit({file}, {});", p.line);
        match p.wrap_end {
            Some(end) => {
                edits.push((p.at, format!("{{ {call} ")));
                edits.push((end, " }".to_string()));
            }
            None => edits.push((p.at, format!("{call} "))),
        }
    }
    // A wrap's closing brace goes before a probe at the same place (a value ending where the
    // next statement starts cannot happen, but the order must not depend on it).
    edits.sort_by_key(|(at, s)| (*at, !s.starts_with(" }")));
    let mut out = String::with_capacity(text.len() + edits.len() * 48);
    let mut last = 0;
    for (at, insert) in edits {
        out.push_str(&text[last..at]);
        out.push_str(&insert);
        last = at;
    }
    out.push_str(&text[last..]);
    out
}

/// The lines each test ran, by test id: the probe markers in each `---- test stdout ----`
/// section of `cargo test -- --show-output`, their file indexes read back through `sources`.
pub(super) fn read_probes(
    output: &str,
    sources: &[&String],
) -> BTreeMap<String, BTreeMap<String, BTreeSet<u32>>> {
    let mut by_test: BTreeMap<String, BTreeMap<String, BTreeSet<u32>>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in output.lines() {
        if let Some(name) = line
            .strip_prefix("---- ")
            .and_then(|l| l.strip_suffix(" stdout ----"))
        {
            current = Some(name.trim().to_string());
            continue;
        }
        if matches!(line.trim(), "successes:" | "failures:") {
            current = None;
            continue;
        }
        let (Some(test), Some(rest)) = (current.as_ref(), line.find(MARK)) else {
            continue;
        };
        let mut fields = line[rest + MARK.len()..].split_whitespace();
        let (Some(file), Some(n)) = (
            fields.next().and_then(|f| f.parse::<usize>().ok()),
            fields.next().and_then(|l| l.parse::<u32>().ok()),
        ) else {
            continue;
        };
        if let Some(path) = sources.get(file) {
            by_test
                .entry(test.clone())
                .or_default()
                .entry(path.to_string())
                .or_default()
                .insert(n);
        }
    }
    by_test
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "\
fn parse(s: &str) -> u32 {
    let n = s.len();
    if n > 3 {
        return 0;
    }
    match n {
        0 => 1,
        _ => { n as u32 }
    }
}

const fn fixed() -> u32 {
    3
}

#[cfg(test)]
mod tests {
    #[test]
    fn t() {
        assert_eq!(super::parse(\"a\"), 1);
    }
}
";

    #[test]
    fn probes_go_before_each_statement_of_a_body_outside_tests() {
        let lines: Vec<u32> = probe_points(SOURCE).iter().map(|p| p.line).collect();
        // let, if, return, match; the arm `0 => 1`; the block arm's tail. Not the const fn,
        // not the test module.
        assert_eq!(lines, [2, 3, 4, 6, 7, 8]);
    }

    #[test]
    fn the_instrumented_source_keeps_every_line_where_it_was() {
        let probes = probe_points(SOURCE);
        let out = instrument(SOURCE, 7, &probes);
        assert_eq!(out.lines().count(), SOURCE.lines().count());
        assert!(
            out.contains("    crate::__slopguard_coverage::hit(7, 2); let n = s.len();"),
            "{out}"
        );
        assert!(
            out.contains("0 => { crate::__slopguard_coverage::hit(7, 7); 1 },"),
            "{out}"
        );
        assert!(out.contains("const fn fixed() -> u32 {\n    3\n}"), "{out}");
    }

    #[test]
    fn a_statement_under_an_attribute_gets_no_probe() {
        let src = "fn f() {\n    #[cfg(unix)]\n    let a = 1;\n    let b = 2;\n}\n";
        let lines: Vec<u32> = probe_points(src).iter().map(|p| p.line).collect();
        assert_eq!(lines, [4]);
    }

    #[test]
    fn probe_markers_are_read_per_test_section() {
        let out = "running 2 tests\n\
            test a ... ok\n\
            test b ... FAILED\n\n\
            successes:\n\n\
            ---- a stdout ----\n\
            \u{1}slopguard-coverage 0 2\n\
            \u{1}slopguard-coverage 1 5\n\n\n\
            successes:\n    a\n\n\
            failures:\n\n\
            ---- b stdout ----\n\
            \u{1}slopguard-coverage 0 3\n\
            thread 'b' panicked at src/lib.rs:3:5\n\n\
            failures:\n    b\n";
        let a = "src/lib.rs".to_string();
        let b = "src/x.rs".to_string();
        let by_test = read_probes(out, &[&a, &b]);
        assert_eq!(by_test["a"]["src/lib.rs"], BTreeSet::from([2]));
        assert_eq!(by_test["a"]["src/x.rs"], BTreeSet::from([5]));
        assert_eq!(by_test["b"]["src/lib.rs"], BTreeSet::from([3]));
    }

    #[test]
    fn crate_roots_are_the_conventional_ones() {
        for root in [
            "src/lib.rs",
            "src/main.rs",
            "src/bin/x.rs",
            "crates/a/src/bin/y/main.rs",
        ] {
            assert!(is_crate_root(root), "{root}");
        }
        for other in [
            "src/date.rs",
            "src/bin/y/util.rs",
            "build.rs",
            "mysrc/lib.rs",
        ] {
            assert!(!is_crate_root(other), "{other}");
        }
    }
}
