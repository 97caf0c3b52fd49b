//! Rust with cargo: `cargo test --no-run` as the build check (it also builds the test
//! binaries the test run then reuses), `cargo test` or, for repositories configured for it,
//! `cargo nextest run`; libtest's and nextest's output; `tests/` files; `use crate_name::...`.
//!
//! Hanging tests: libtest cannot cut a test on stable Rust, so the run is watched
//! ([`super::rust_hangs`]): once a test has run past the per-test limit the run is stopped,
//! the tests still running are failing tests that "timed out", and the results printed before
//! stay. A run killed at the suite limit keeps its printed results the same way.

use std::collections::BTreeSet;
use std::sync::OnceLock;
use std::time::Duration;

use regex::Regex;

use super::rust_hangs::{HangWatch, hanging_tests, unfinished_tests};
use crate::process;
use crate::{
    Build, BuildResult, Check, Commands, Ecosystem, FileView, RepoFiles, RunnerCommand, Spectrum,
    TestLimits, TestRun, Tool, command_name, cut_at_timeout, file_name, first_word, in_test_dir,
    join, missing, numbers_before, parent, per_test_timeout_message, subcommand,
};

/// Rust with cargo (and cargo-nextest where configured).
pub struct Rust;

impl Ecosystem for Rust {
    fn name(&self) -> &'static str {
        "rust"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["rs"]
    }

    fn tools(&self) -> &'static [Tool] {
        &[Tool {
            name: "cargo",
            program: "cargo",
            version_args: &["--version"],
            install: "install Rust with rustup (https://rustup.rs)",
            without: crate::UNKNOWN_WITHOUT_IT,
        }]
    }

    fn detect(&self, files: &RepoFiles) -> bool {
        files.has("Cargo.toml")
    }

    fn stack_tag(&self, _files: &RepoFiles) -> String {
        "rust/cargo".into()
    }

    fn commands(&self, files: &RepoFiles) -> Commands {
        Commands {
            build: "cargo build --all-targets".into(),
            test: if uses_nextest(files) {
                "cargo nextest run".into()
            } else {
                "cargo test".into()
            },
        }
    }

    fn build(&self, files: &RepoFiles, timeout: Duration) -> Build {
        const TOOL: &str = "cargo test --no-run";
        if !process::on_path("cargo") {
            return Build::new(
                TOOL,
                BuildResult::Missing("install Rust with rustup (https://rustup.rs)".into()),
            );
        }
        let out = process::run(
            "cargo",
            &["test", "--no-run", "--quiet", "--color", "never"],
            &files.root,
            &[("CARGO_TERM_COLOR", "never")],
            timeout,
        );
        Build::judge(TOOL, &out)
    }

    fn test(&self, files: &RepoFiles, limits: &TestLimits) -> TestRun {
        if !process::on_path("cargo") {
            return TestRun::not_run(&missing("cargo", "install Rust with rustup"));
        }
        let (tool, script) = if uses_nextest(files) {
            (
                "cargo nextest",
                "exec cargo nextest run --no-fail-fast --color never --status-level fail \
                 --final-status-level fail --failure-output never --success-output never 2>&1",
            )
        } else {
            // One stream, so that `Running <file>` lines stay in order with the test lines.
            (
                "cargo test",
                "exec cargo test --no-fail-fast --color never 2>&1",
            )
        };
        let out = process::run_watched(
            "sh",
            &["-c", script],
            &files.root,
            &[("CARGO_TERM_COLOR", "never")],
            limits.suite,
            &mut HangWatch::new(limits.per_test),
        );
        let locate = |run: &mut TestRun| {
            for f in &mut run.failing {
                if f.file.is_none()
                    && let Some((binary, _)) = f.id.split_once(' ')
                {
                    f.file = nextest_binary_file(files, binary);
                }
                if let Some(root) = f.file.as_deref().filter(|p| is_crate_root(p))
                    && let Some(module) = unit_test_module_file(files, root, &f.id)
                {
                    f.file = Some(module);
                }
            }
        };
        let mut run = self.parse_output(&out.stdout);
        if out.timed_out || out.stopped {
            let mut hanging = TestRun::default();
            let mut warned = hanging_tests(&out.stdout);
            if warned.is_empty() {
                warned = unfinished_tests(files, &out.stdout);
            }
            for h in warned {
                hanging.push_failing(&h.id, h.file);
            }
            locate(&mut hanging);
            locate(&mut run);
            let mut output = out.stdout.clone();
            if out.stopped {
                for h in &hanging.failing {
                    output.push_str(&format!("\n{}", per_test_timeout_message(&h.id, limits)));
                }
            }
            return cut_at_timeout(tool, &out, run, hanging.failing, &output);
        }
        locate(&mut run);
        run.finish(tool, &out.stdout, out.success())
    }

    /// Recorded by probes in an instrumented copy of the sources
    /// ([`super::rust_coverage`]): rustc's own coverage needs `llvm-tools` matching the
    /// compiler.
    fn coverage(&self, files: &RepoFiles, limits: &TestLimits) -> Option<Spectrum> {
        if !process::on_path("cargo") {
            return None;
        }
        super::rust_coverage::record(self, files, limits)
    }

    /// libtest's and nextest's output. The counts come from each test binary's `test result:`
    /// line; a binary cut before it (a hang) counts the verdicts it printed.
    fn parse_output(&self, text: &str) -> TestRun {
        let mut run = TestRun::default();
        let mut current_file: Option<String> = None;
        // The verdicts of the test binary running now: passed, failed, ignored.
        let mut unreported = [0u32; 3];
        for line in text.lines() {
            let l = line.trim();
            if let Some(rest) = l.strip_prefix("Running ") {
                // "Running unittests src/lib.rs (target/...)" or "Running tests/x.rs (target/...)"
                let rest = rest.strip_prefix("unittests ").unwrap_or(rest);
                current_file = rest.split(" (").next().map(|s| s.trim().to_string());
            } else if l.starts_with("Doc-tests ") {
                current_file = None;
            } else if let Some(rest) = l.strip_prefix("test result: ") {
                let n = numbers_before(rest, &["passed", "failed", "ignored"]);
                run.ran = true;
                run.passed += n[0];
                run.failed += n[1];
                run.skipped += n[2];
                unreported = [0; 3];
            } else if let Some(rest) = l.strip_prefix("test ")
                && let Some((name, verdict)) = rest.rsplit_once(" ... ")
            {
                match verdict.trim() {
                    "ok" => {
                        run.push_passing(name);
                        unreported[0] += 1;
                    }
                    "FAILED" => {
                        run.push_failing(name, current_file.clone());
                        unreported[1] += 1;
                    }
                    v if v.starts_with("ignored") => unreported[2] += 1,
                    _ => {}
                }
            } else {
                read_nextest_line(l, &mut run);
            }
        }
        if unreported.iter().any(|n| *n > 0) {
            run.ran = true;
            run.passed += unreported[0];
            run.failed += unreported[1];
            run.skipped += unreported[2];
        }
        run
    }

    /// A file under a test directory, or a module file that by convention holds only tests
    /// (`src/x/tests.rs`, `src/test.rs`, `src/x_test.rs`, `src/x_tests.rs`: the `#[cfg(test)]
    /// mod tests;` of a module, kept in its own file).
    fn is_test_file(&self, path: &str) -> bool {
        let name = file_name(path);
        in_test_dir(path)
            || matches!(name, "tests.rs" | "test.rs")
            || name.ends_with("_test.rs")
            || name.ends_with("_tests.rs")
    }

    fn imports_of_test(
        &self,
        view: &dyn FileView,
        test_file: &str,
        text: &str,
    ) -> BTreeSet<String> {
        imports(view, test_file, text)
    }

    fn runner_command(&self, words: &[&str]) -> Option<RunnerCommand> {
        match command_name(words.first()?) {
            "cargo" => {
                let (i, sub) = subcommand(words, 1)?;
                match sub {
                    "test" | "t" if words[i..].contains(&"--no-run") => {
                        RunnerCommand::check("cargo test --no-run")
                    }
                    "test" | "t" => RunnerCommand::test("cargo test"),
                    "nextest" if matches!(words.get(i + 1), Some(&"run") | Some(&"r")) => {
                        RunnerCommand::test("cargo nextest")
                    }
                    "check" | "c" | "clippy" | "build" | "b" => {
                        RunnerCommand::check(format!("cargo {sub}"))
                    }
                    "miri" if words.get(i + 1) == Some(&"test") => {
                        RunnerCommand::test("cargo miri test")
                    }
                    _ => None,
                }
            }
            "cargo-nextest" => RunnerCommand::test("cargo nextest"),
            _ => None,
        }
    }

    fn ignored_dirs(&self) -> &'static [&'static str] {
        &["target"]
    }

    fn dependency_checks(&self, files: &RepoFiles) -> Vec<Check> {
        let toml = files.read("Cargo.toml").unwrap_or_default();
        let wildcard = toml.lines().filter(|l| l.contains("= \"*\"")).count();
        let mut checks = vec![Check::new(
            if wildcard > 0 { 0.3 } else { 1.0 },
            format!("Cargo.toml: {wildcard} wildcard versions"),
        )];
        if files.has("src/main.rs") {
            let lock = files.has("Cargo.lock");
            checks.push(Check::new(
                if lock { 1.0 } else { 0.5 },
                if lock {
                    "Cargo.lock committed"
                } else {
                    "Cargo.lock missing for a binary crate"
                },
            ));
        }
        checks
    }
}

/// Whether the repository runs its Rust tests with cargo-nextest (it has nextest's config file)
/// and nextest is installed. Whether it is installed is asked once per process: the test runs
/// of every attempt would otherwise each start one more cargo.
fn uses_nextest(files: &RepoFiles) -> bool {
    static INSTALLED: OnceLock<bool> = OnceLock::new();
    files.has(".config/nextest.toml")
        && *INSTALLED.get_or_init(|| {
            process::run(
                "cargo",
                &["nextest", "--version"],
                &files.root,
                &[],
                Duration::from_secs(20),
            )
            .success()
        })
}

/// One line of `cargo nextest run` output: the `Summary` line's counts, and the status lines
/// of tests (`PASS`, `FAIL`, `TIMEOUT`, `SIGSEGV`, ...) with their ids (`binary-id test-name`).
fn read_nextest_line(l: &str, run: &mut TestRun) {
    const FAILED: &[&str] = &["FAIL", "TIMEOUT", "ABORT", "LEAK-FAIL"];
    if let Some(rest) = l.strip_prefix("Summary [") {
        if let Some((_, counts)) = rest.split_once("run:") {
            let n = numbers_before(counts, &["passed", "failed", "skipped", "timed"]);
            run.ran = true;
            run.passed += n[0];
            run.failed += n[1] + n[3];
            run.skipped += n[2];
        }
        return;
    }
    let Some((status, rest)) = l.split_once(" [") else {
        return;
    };
    let failed = FAILED.contains(&status) || status.starts_with("SIG");
    if !failed && status != "PASS" {
        return;
    }
    let Some((_, after)) = rest.split_once(']') else {
        return;
    };
    let mut after = after.trim_start();
    if after.starts_with('(')
        && let Some((_, r)) = after.split_once(')')
    {
        after = r.trim_start();
    }
    let Some((binary, name)) = after.split_once(' ') else {
        return;
    };
    if failed {
        run.push_failing(&format!("{binary} {}", name.trim()), None);
    } else {
        run.push_passing(first_word(name));
    }
}

/// Whether `path` is a crate root that cargo names for its unit tests (`src/lib.rs`,
/// `src/main.rs`, or a workspace member's).
pub(super) fn is_crate_root(path: &str) -> bool {
    path == "src/lib.rs"
        || path == "src/main.rs"
        || path.ends_with("/src/lib.rs")
        || path.ends_with("/src/main.rs")
}

/// The module file of a unit test cargo names by its crate root: the deepest file of the
/// module path of `id` (`ascii_set::tests::add_op` -> `src/ascii_set/tests.rs`, else
/// `src/ascii_set.rs`; `test::t` -> `src/test.rs` or `src/test/mod.rs`) that exists. `None`
/// when no module of the path has its own file (the test is inline in the root).
fn unit_test_module_file(files: &RepoFiles, root: &str, id: &str) -> Option<String> {
    let src = parent(root);
    let name = id.rsplit(' ').next().unwrap_or(id);
    let segments: Vec<&str> = name.split("::").collect();
    let modules = &segments[..segments.len().saturating_sub(1)];
    (1..=modules.len()).rev().find_map(|n| {
        let path = modules[..n].join("/");
        [format!("{src}/{path}.rs"), format!("{src}/{path}/mod.rs")]
            .into_iter()
            .find(|c| files.has(c))
    })
}

/// The source file of a nextest binary id, when the repository has it at the usual place:
/// `crate::name` is an integration test (`tests/name.rs`) or a binary (`src/bin/name.rs`), a
/// bare `crate` its library's unit tests (`src/lib.rs`).
fn nextest_binary_file(files: &RepoFiles, binary: &str) -> Option<String> {
    let candidates = match binary.split_once("::") {
        Some((_, name)) => {
            let name = name.strip_prefix("bin/").unwrap_or(name);
            vec![format!("tests/{name}.rs"), format!("src/bin/{name}.rs")]
        }
        None => vec!["src/lib.rs".to_string(), "src/main.rs".to_string()],
    };
    candidates.into_iter().find(|c| files.has(c))
}

/// The crate a test file belongs to: its `[package] name` (with `_` for `-`) and its root
/// directory, from the nearest `Cargo.toml` above it.
fn crate_of(view: &dyn FileView, test_file: &str) -> (String, String) {
    let mut dir = parent(test_file).to_string();
    loop {
        let manifest = if dir.is_empty() {
            "Cargo.toml".to_string()
        } else {
            format!("{dir}/Cargo.toml")
        };
        if let Some(name) = view.read(&manifest).and_then(|t| package_name(&t)) {
            return (name.replace('-', "_"), dir);
        }
        if dir.is_empty() {
            return (String::new(), String::new());
        }
        dir = parent(&dir).to_string();
    }
}

/// `name` of the `[package]` table of a manifest (just enough TOML for that).
fn package_name(manifest: &str) -> Option<String> {
    let mut in_package = false;
    for line in manifest.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            in_package = l == "[package]";
        } else if in_package
            && let Some(rest) = l.strip_prefix("name")
            && let Some(v) = rest.trim_start().strip_prefix('=')
        {
            return Some(v.trim().trim_matches('"').to_string());
        }
    }
    None
}

/// The crate's source files a test file `use`s: the longest module path that exists as a
/// file, the names of a `use crate::{a, b}` group, else the crate root.
fn imports(view: &dyn FileView, test_file: &str, text: &str) -> BTreeSet<String> {
    static USE: OnceLock<Regex> = OnceLock::new();
    let use_re = USE.get_or_init(|| {
        Regex::new(r"(?m)^\s*(?:pub\s+)?use\s+((?:\w+::)*\w+)(?:::\{([^}]*)\})?")
            .expect("valid regex")
    });
    let mut out = BTreeSet::new();
    let (crate_name, crate_dir) = crate_of(view, test_file);
    let src = if crate_dir.is_empty() {
        "src".to_string()
    } else {
        format!("{crate_dir}/src")
    };
    for c in use_re.captures_iter(text) {
        let path = c[1].trim_end_matches("::");
        let mut segs: Vec<&str> = path.split("::").collect();
        let first = segs[0];
        if first == "super" || first == "self" {
            // Unit tests inside the source file itself, or in a module file of their own
            // (`src/parse/tests.rs`, declared `mod tests;` in `src/parse.rs`): its parent.
            if let Some(parent) = parent_module(view, test_file) {
                out.insert(parent);
            } else if !in_test_dir(test_file) {
                out.insert(test_file.to_string());
            }
            continue;
        }
        if first != crate_name && first != "crate" {
            continue;
        }
        segs.remove(0);
        let found = module_files(view, &src, &segs, &mut out)
            || group_files(view, &src, c.get(2).map(|m| m.as_str()), &mut out);
        if !found
            && let Some(root) = [format!("{src}/lib.rs"), format!("{src}/main.rs")]
                .into_iter()
                .find(|f| view.exists(f))
        {
            out.insert(root);
        }
    }
    out
}

/// The module file a test module file belongs to, when the file is a tests module of its own
/// (`tests.rs`, `test.rs`, `*_tests.rs`, `*_test.rs` under `src/`): `src/a/tests.rs` ->
/// `src/a.rs` or `src/a/mod.rs`, `src/tests.rs` -> `src/lib.rs` or `src/main.rs`.
fn parent_module(view: &dyn FileView, test_file: &str) -> Option<String> {
    let stem = file_name(test_file).strip_suffix(".rs")?;
    let tests_module =
        matches!(stem, "tests" | "test") || stem.ends_with("_tests") || stem.ends_with("_test");
    if !tests_module || in_test_dir(test_file) {
        return None;
    }
    let dir = parent(test_file);
    let candidates = if dir.ends_with("src") || dir.is_empty() {
        vec![join(dir, "lib.rs")?, join(dir, "main.rs")?]
    } else {
        vec![format!("{dir}.rs"), format!("{dir}/mod.rs")]
    };
    candidates.into_iter().find(|f| view.exists(f))
}

/// The file of the longest prefix of `segs` that is a module of `src`.
fn module_files(view: &dyn FileView, src: &str, segs: &[&str], out: &mut BTreeSet<String>) -> bool {
    for len in (1..=segs.len()).rev() {
        let module = segs[..len].join("/");
        let hits: Vec<String> = [
            format!("{src}/{module}.rs"),
            format!("{src}/{module}/mod.rs"),
        ]
        .into_iter()
        .filter(|f| view.exists(f))
        .collect();
        if !hits.is_empty() {
            out.extend(hits);
            return true;
        }
    }
    false
}

/// The files of the names in a `use my_crate::{a, b}` group that are modules of `src`.
fn group_files(
    view: &dyn FileView,
    src: &str,
    group: Option<&str>,
    out: &mut BTreeSet<String>,
) -> bool {
    let mut found = false;
    for name in group.unwrap_or("").split(',').map(str::trim) {
        let hits = [format!("{src}/{name}.rs"), format!("{src}/{name}/mod.rs")];
        for f in hits
            .into_iter()
            .filter(|f| !name.is_empty() && view.exists(f))
        {
            out.insert(f);
            found = true;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemoryView;

    #[test]
    fn a_tests_module_file_maps_to_the_module_that_declares_it() {
        let view = MemoryView::from_pairs(&[
            ("Cargo.toml", "[package]\nname = \"b\"\n"),
            ("src/lib.rs", "mod parse;\n#[cfg(test)]\nmod tests;\n"),
            ("src/parse.rs", "#[cfg(test)]\nmod tests;\n"),
            ("src/parse/tests.rs", "use super::*;\n"),
            ("src/tests.rs", "use super::*;\n"),
            ("src/util.rs", "#[cfg(test)]\nmod t { use super::*; }\n"),
        ]);
        let got = |f: &str| {
            imports(&view, f, "use super::*;\n")
                .into_iter()
                .collect::<Vec<_>>()
        };
        assert_eq!(got("src/parse/tests.rs"), ["src/parse.rs"]);
        for test_module in ["src/parse/tests.rs", "src/test.rs", "src/parse_tests.rs"] {
            assert!(Rust.is_test_file(test_module), "{test_module}");
        }
        assert!(!Rust.is_test_file("src/parse.rs"));
        assert!(!Rust.is_test_file("src/testing.rs"));
        assert_eq!(got("src/tests.rs"), ["src/lib.rs"]);
        // Unit tests inside a source file: the file itself.
        assert_eq!(got("src/util.rs"), ["src/util.rs"]);
    }

    #[test]
    fn nextest_output_with_counts_and_ids() {
        // Real output of `cargo nextest run` (0.9) with the flags `test` passes.
        let text = "\
    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.00s
────────────
 Nextest run ID 9954d4f8-a9e5-48d2-9ba3-f14985683192 with nextest profile: default
    Starting 5 tests across 2 binaries
        PASS [   0.010s] (1/5) sample-calc unit::adds
        FAIL [   0.089s] (4/5) sample-calc unit::unit_fails
        FAIL [   0.079s] (5/5) sample-calc::ops_test sub_subtracts
     TIMEOUT [  60.002s] (6/7) sample-calc::slow never_ends
────────────
     Summary [   0.095s] 7 tests run: 4 passed, 2 failed, 1 timed out, 0 skipped
        FAIL [   0.089s] (4/5) sample-calc unit::unit_fails
        FAIL [   0.079s] (5/5) sample-calc::ops_test sub_subtracts
     TIMEOUT [  60.002s] (6/7) sample-calc::slow never_ends
error: test run failed";
        let run = Rust.parse_output(text);
        assert!(run.ran);
        assert_eq!((run.passed, run.failed), (4, 3));
        let ids: Vec<&str> = run.failing.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "sample-calc unit::unit_fails",
                "sample-calc::ops_test sub_subtracts",
                "sample-calc::slow never_ends",
            ]
        );
        assert_eq!(run.passing, ["unit::adds"]);
        // A build failure prints no summary: nothing ran.
        assert!(!Rust.parse_output("error[E0425]: cannot find value `x`").ran);
    }

    #[test]
    fn cargo_output_with_files() {
        let text = "\
   Compiling sample-calc v0.1.0
     Running unittests src/lib.rs (target/debug/deps/sample_calc-1)
running 0 tests
test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
     Running tests/ops_test.rs (target/debug/deps/ops_test-2)
running 3 tests
test add_adds ... ok
test sub_subtracts ... FAILED
test mul_multiplies ... ignored
test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s
   Doc-tests sample_calc
test result: ok. 0 passed; 0 failed;";
        let run = Rust.parse_output(text);
        assert!(run.ran);
        assert_eq!((run.passed, run.failed, run.skipped), (1, 1, 1));
        assert_eq!(run.failing[0].id, "sub_subtracts");
        assert_eq!(run.failing[0].file.as_deref(), Some("tests/ops_test.rs"));
        assert_eq!(run.passing, ["add_adds"]);
    }

    #[test]
    fn test_imports_resolve_to_modules() {
        let view = MemoryView::from_pairs(&[
            ("Cargo.toml", "[package]\nname = \"my-calc\"\n"),
            ("src/lib.rs", "pub mod ops;"),
            ("src/ops.rs", "pub fn add() {}"),
            ("src/stack/mod.rs", ""),
            (
                "tests/t.rs",
                "use my_calc::ops::add;\nuse my_calc::{stack};\n",
            ),
        ]);
        let got = crate::sources_for_test(&view, "tests/t.rs");
        assert_eq!(got, ["src/ops.rs", "src/stack/mod.rs"]);
    }

    #[test]
    fn a_unit_test_is_located_in_its_module_file() {
        let files = RepoFiles {
            root: std::path::PathBuf::new(),
            // Sorted, as a walk gives them.
            files: [
                "src/ascii_set.rs",
                "src/ascii_set/tests.rs",
                "src/lib.rs",
                "src/parse/mod.rs",
                "src/test.rs",
            ]
            .map(String::from)
            .to_vec(),
        };
        let at = |id: &str| unit_test_module_file(&files, "src/lib.rs", id);
        assert_eq!(
            at("ascii_set::tests::add_op").as_deref(),
            Some("src/ascii_set/tests.rs")
        );
        assert_eq!(at("test::t").as_deref(), Some("src/test.rs"));
        // An inline `mod tests` lives in its parent module's file.
        assert_eq!(
            at("parse::tests::reads").as_deref(),
            Some("src/parse/mod.rs")
        );
        // Inline in the root: no better file.
        assert_eq!(at("tests::in_root"), None);
        assert_eq!(at("in_root"), None);
        assert!(is_crate_root("src/lib.rs") && is_crate_root("crates/x/src/main.rs"));
        assert!(!is_crate_root("src/ascii_set.rs"));
    }

    #[test]
    fn output_of_a_run_cut_at_a_hang_keeps_its_verdicts() {
        let text = "\
     Running tests/calc.rs (target/debug/deps/calc-2)
running 4 tests
test adds ... ok
test wrong ... FAILED
test hangs has been running for over 60 seconds
test slow ... ok";
        let run = Rust.parse_output(text);
        assert_eq!(run.passing, ["adds", "slow"]);
        assert_eq!(run.failing[0].id, "wrong");
        assert_eq!(
            (run.passed, run.failed),
            (2, 1),
            "the cut binary's verdicts count"
        );
    }

    #[test]
    fn runner_commands() {
        assert_eq!(
            Rust.runner_command(&["cargo", "+nightly", "test"]),
            RunnerCommand::test("cargo test")
        );
        assert_eq!(
            Rust.runner_command(&["cargo", "test", "--no-run"]),
            RunnerCommand::check("cargo test --no-run")
        );
        assert_eq!(Rust.runner_command(&["cargo", "fmt"]), None);
    }
}
