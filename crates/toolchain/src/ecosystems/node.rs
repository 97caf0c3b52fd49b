//! Node: `tsc --noEmit` for TypeScript projects, `node --check` on each JavaScript file
//! otherwise; the `test` script of `package.json` (`node --test` with the TAP reporter, or
//! `npm test` for Jest, Vitest and the rest); `*.test.*`, `*.spec.*` and `__tests__/`;
//! relative `require` and `import` to files.
//!
//! Hanging tests: `node --test` gets `--test-timeout` (Node 20.11 and later) set to the
//! per-test limit. Node applies it to each test file's process too, so a test that never
//! yields (`while (true) {}`) fails as its file (`not ok - test/a.test.js`, "test timed out
//! after N ms") while the other files' results stand. A run killed at the suite limit (Jest,
//! Vitest, an older Node) keeps what its partial output shows.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use regex::Regex;
use serde_json::Value;

use crate::process;
use crate::{
    Build, BuildResult, Check, Commands, Ecosystem, FileView, RepoFiles, RunnerCommand, ScratchDir,
    Spectrum, TestLimits, TestRun, Tool, command_name, file_name, in_test_dir, join, missing,
    numbers_before, parent, subcommand, tail,
};

/// Node.js projects (JavaScript and TypeScript).
pub struct Node;

/// Most JavaScript files `node --check` reads in one build check.
const MAX_CHECKED_FILES: usize = 300;

const JS_EXTENSIONS: &[&str] = &[".js", ".cjs", ".mjs"];

impl Ecosystem for Node {
    fn name(&self) -> &'static str {
        "node"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["js", "mjs", "cjs", "jsx", "ts", "tsx", "mts", "cts"]
    }

    fn tools(&self) -> &'static [Tool] {
        &[
            Tool {
                name: "node",
                program: "node",
                version_args: &["--version"],
                install: "install Node.js",
                without: crate::UNKNOWN_WITHOUT_IT,
            },
            Tool {
                name: "npm",
                program: "npm",
                version_args: &["--version"],
                install: "install npm",
                without: crate::UNKNOWN_WITHOUT_IT,
            },
        ]
    }

    fn detect(&self, files: &RepoFiles) -> bool {
        files.has("package.json")
    }

    fn stack_tag(&self, _files: &RepoFiles) -> String {
        "node/npm".into()
    }

    fn commands(&self, files: &RepoFiles) -> Commands {
        Commands {
            build: if is_typescript(files) {
                "tsc --noEmit".into()
            } else {
                "node --check <files>".into()
            },
            test: "npm test".into(),
        }
    }

    fn build(&self, files: &RepoFiles, timeout: Duration) -> Build {
        if is_typescript(files) {
            return typecheck(files, timeout);
        }
        if !process::on_path("node") {
            return Build::new(
                "node --check",
                BuildResult::Missing("install Node.js".into()),
            );
        }
        let mut errors = Vec::new();
        for f in files.with_suffix(JS_EXTENSIONS).take(MAX_CHECKED_FILES) {
            let out = process::run("node", &["--check", f], &files.root, &[], timeout);
            if out.timed_out {
                return Build::new("node --check", BuildResult::TimedOut(out.elapsed));
            }
            if !out.success() {
                errors.push(format!("{f}: {}", tail(&out.stderr, 2, " | ")));
            }
        }
        let result = if errors.is_empty() {
            BuildResult::Passed
        } else {
            BuildResult::Failed(errors.join("\n"))
        };
        Build::new("node --check", result)
    }

    fn test(&self, files: &RepoFiles, limits: &TestLimits) -> TestRun {
        let timeout = limits.suite;
        if !process::on_path("node") {
            return TestRun::not_run(&missing("node", "install Node.js"));
        }
        let pkg: Value = files
            .read("package.json")
            .and_then(|s| serde_json::from_str(&s).ok())
            .unwrap_or(Value::Null);
        let script = pkg
            .pointer("/scripts/test")
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim();
        if script.is_empty() || script.contains("no test specified") {
            return TestRun::not_run("package.json has no test script");
        }
        if has_dependencies(&pkg) && !files.root.join("node_modules").exists() {
            return TestRun::not_run("node_modules missing: run npm install (tests not run)");
        }
        let root = files.root.as_path();
        let test_timeout = format!("--test-timeout={}", limits.per_test.as_millis().max(1));
        let out = if let Some(rest) = script.strip_prefix("node --test") {
            let mut args = vec!["--test", "--test-reporter=tap"];
            if has_test_timeout(root) && !rest.contains("--test-timeout") {
                args.push(&test_timeout);
            }
            args.extend(rest.split_whitespace());
            process::run("node", &args, root, &[("CI", "1")], timeout)
        } else if process::on_path("npm") {
            process::run("npm", &["test", "--silent"], root, &[("CI", "1")], timeout)
        } else {
            return TestRun::not_run(&missing("npm", "install npm"));
        };
        let root_prefix = format!("{}/", root.display());
        let mut run = self.parse_output(&out.combined());
        for f in &mut run.failing {
            if let Some(file) = &f.file
                && let Some(rel) = file.strip_prefix(&root_prefix)
            {
                f.file = Some(rel.to_string());
            }
            // A test file that timed out as a whole is named by its absolute path.
            if let Some(rel) = f.id.strip_prefix(&root_prefix) {
                f.id = rel.to_string();
            }
        }
        if out.timed_out {
            return crate::cut_at_timeout("node tests", &out, run, Vec::new(), &out.combined());
        }
        run.finish("npm test", &out.combined(), out.success())
    }

    /// `node --test` only: a preloaded recorder ([`COVERAGE_PRELOAD`]) in each test file's
    /// process.
    fn coverage(&self, files: &RepoFiles, limits: &TestLimits) -> Option<Spectrum> {
        if !process::on_path("node") {
            return None;
        }
        let pkg: Value = serde_json::from_str(&files.read("package.json")?).ok()?;
        let script = pkg.pointer("/scripts/test").and_then(Value::as_str)?.trim();
        let rest = script.strip_prefix("node --test")?;
        let scratch = ScratchDir::new("node-cover")?;
        let dir = scratch.path();
        let out = dir.join("out");
        std::fs::create_dir_all(&out).ok()?;
        let preload = dir.join("preload.cjs");
        std::fs::write(&preload, COVERAGE_PRELOAD).ok()?;
        let mut options = format!("--require {}", preload.display());
        if let Ok(old) = std::env::var("NODE_OPTIONS") {
            options = format!("{old} {options}");
        }
        let (out_dir, root) = (out.display().to_string(), files.root.display().to_string());
        let env = [
            ("CI", "1"),
            ("NODE_OPTIONS", options.as_str()),
            ("SLOPGUARD_COVERAGE_DIR", out_dir.as_str()),
            ("SLOPGUARD_COVERAGE_ROOT", root.as_str()),
        ];
        let test_timeout = format!("--test-timeout={}", limits.per_test.as_millis().max(1));
        let mut args = vec!["--test", "--test-reporter=tap"];
        if has_test_timeout(&files.root) && !rest.contains("--test-timeout") {
            args.push(&test_timeout);
        }
        args.extend(rest.split_whitespace());
        process::run("node", &args, &files.root, &env, limits.suite);
        let mut spectrum = Spectrum::default();
        let mut recorded: Vec<PathBuf> = std::fs::read_dir(&out)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        recorded.sort();
        for path in recorded {
            if let Some(s) = std::fs::read_to_string(&path)
                .ok()
                .and_then(|t| Spectrum::from_recorded_json(&t))
            {
                spectrum.tests.extend(s.tests);
            }
        }
        (!spectrum.tests.is_empty()).then_some(spectrum)
    }

    fn parse_output(&self, text: &str) -> TestRun {
        let tap = parse_tap(text);
        if tap.ran {
            return tap;
        }
        let summary = parse_jest_or_vitest(text);
        if summary.recognised() { summary } else { tap }
    }

    fn is_test_file(&self, path: &str) -> bool {
        let name = file_name(path);
        name.contains(".test.") || name.contains(".spec.") || in_test_dir(path)
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
        let name = command_name(words.first()?);
        match name {
            "vitest" => (!matches!(words.get(1), Some(&"watch" | &"dev" | &"--watch")))
                .then(|| RunnerCommand::test("vitest"))
                .flatten(),
            "jest" | "mocha" | "ava" | "tap" | "karma" | "jasmine"
                if !words.contains(&"--watch") =>
            {
                RunnerCommand::test(name)
            }
            "playwright" if words.get(1) == Some(&"test") => RunnerCommand::test("playwright"),
            "cypress" if words.get(1) == Some(&"run") => RunnerCommand::test("cypress"),
            "tsc" | "vue-tsc" if !words.contains(&"--watch") && !words.contains(&"-w") => {
                RunnerCommand::check(name)
            }
            "eslint" | "biome" | "oxlint" => RunnerCommand::check(name),
            "node" | "deno" if words.contains(&"--test") || words.get(1) == Some(&"test") => {
                RunnerCommand::test(format!("{name} test"))
            }
            "deno" if matches!(words.get(1), Some(&"check" | &"lint")) => {
                RunnerCommand::check(format!("deno {}", words[1]))
            }
            "npm" | "pnpm" | "yarn" | "bun" => package_manager_command(name, words),
            _ => None,
        }
    }

    fn ignored_dirs(&self) -> &'static [&'static str] {
        &["node_modules"]
    }

    fn dependency_checks(&self, files: &RepoFiles) -> Vec<Check> {
        let pkg: Value = files
            .read("package.json")
            .and_then(|s| serde_json::from_str(&s).ok())
            .unwrap_or_default();
        let versions: Vec<&str> = ["dependencies", "devDependencies"]
            .iter()
            .filter_map(|k| pkg.get(k).and_then(Value::as_object))
            .flat_map(|m| m.values().filter_map(Value::as_str))
            .collect();
        let loose = versions
            .iter()
            .filter(|v| matches!(**v, "*" | "latest" | ""))
            .count();
        let mut checks = Vec::new();
        if !versions.is_empty() {
            let lock = [
                "package-lock.json",
                "yarn.lock",
                "pnpm-lock.yaml",
                "bun.lockb",
            ]
            .iter()
            .any(|l| files.has(l));
            checks.push(Check::new(
                if lock { 1.0 } else { 0.4 },
                format!("npm lockfile {}", if lock { "present" } else { "missing" }),
            ));
        }
        checks.push(Check::new(
            if loose > 0 { 0.3 } else { 1.0 },
            format!(
                "package.json: {} dependencies, {loose} unpinned (*/latest)",
                versions.len()
            ),
        ));
        checks
    }
}

/// Whether `node` knows `--test-timeout` (Node 20.11+, 21.2+), asked once per process.
/// The recorder `node --test` preloads in each test file's process for [`Node::coverage`]:
/// V8's precise coverage, taken and reset around each `test` and `it` callback, turned into
/// the project's lines, one JSON file per process.
const COVERAGE_PRELOAD: &str = include_str!("node_coverage.cjs");

fn has_test_timeout(root: &std::path::Path) -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        let out = process::run("node", &["--version"], root, &[], Duration::from_secs(20));
        node_version_has_test_timeout(out.stdout.trim())
    })
}

/// `v20.11.0` and later 20.x, `v21.2.0` and later: versions with `--test-timeout`.
fn node_version_has_test_timeout(version: &str) -> bool {
    let mut parts = version
        .trim_start_matches('v')
        .split('.')
        .map(|p| p.parse::<u32>().unwrap_or(0));
    let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    major > 21 || (major == 21 && minor >= 2) || (major == 20 && minor >= 11)
}

/// A TypeScript project: a `tsconfig.json` or `.ts` files.
fn is_typescript(files: &RepoFiles) -> bool {
    files.has("tsconfig.json") || files.with_suffix(&[".ts", ".tsx"]).next().is_some()
}

/// `tsc --noEmit`, the project's own tsc first.
fn typecheck(files: &RepoFiles, timeout: Duration) -> Build {
    const TOOL: &str = "tsc --noEmit";
    let local = files.root.join("node_modules/.bin/tsc");
    let tsc = if local.exists() {
        local.to_string_lossy().into_owned()
    } else if process::on_path("tsc") {
        "tsc".to_string()
    } else {
        return Build::new(
            TOOL,
            BuildResult::Missing(
                "tsc not installed (run npm install, or npm install typescript)".into(),
            ),
        );
    };
    let out = process::run(&tsc, &["--noEmit"], &files.root, &[], timeout);
    Build::judge(TOOL, &out)
}

fn has_dependencies(pkg: &Value) -> bool {
    ["dependencies", "devDependencies"].iter().any(|k| {
        pkg.get(k)
            .and_then(Value::as_object)
            .is_some_and(|m| !m.is_empty())
    })
}

/// `npm test`, `yarn run lint`, `pnpm typecheck`: a package script that tests or checks.
fn package_manager_command(name: &str, words: &[&str]) -> Option<RunnerCommand> {
    let (i, sub) = subcommand(words, 1)?;
    match sub {
        "test" | "t" | "tst" => RunnerCommand::test(format!("{name} test")),
        "run" | "run-script" => {
            let (_, script) = subcommand(words, i + 1)?;
            script_runner(script, format!("{name} run {script}"))
        }
        _ if name == "bun" || name == "npm" => None,
        "exec" | "dlx" => None,
        // `yarn lint`, `pnpm typecheck`: a script name directly.
        _ => script_runner(sub, format!("{name} {sub}")),
    }
}

/// What a script named `script` validates, by the words in its name.
fn script_runner(script: &str, runner: String) -> Option<RunnerCommand> {
    let kind = crate::script_kind(script)?;
    Some(RunnerCommand { kind, runner })
}

/// TAP (node's test runner): leaf `not ok` entries are failures, with the file from their
/// `location:`; `# pass` / `# fail` / `# skipped` (or the spec reporter's `ℹ pass`) the counts.
fn parse_tap(text: &str) -> TestRun {
    let mut run = TestRun::default();
    let mut pending: Option<(String, Option<String>, bool)> = None;
    let flush = |run: &mut TestRun, pending: Option<(String, Option<String>, bool)>| {
        if let Some((name, file, true)) = pending {
            run.push_failing(&name, file);
        }
    };
    let (mut pass, mut fail, mut skipped, mut cancelled) = (None, None, 0, 0);
    for line in text.lines() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("not ok ") {
            flush(&mut run, pending.take());
            let name = rest.split_once(" - ").map_or(rest, |(_, n)| n);
            let name = name.split(" # ").next().unwrap_or("").trim().to_string();
            pending = Some((name, None, true));
        } else if l.starts_with("ok ") {
            flush(&mut run, pending.take());
        } else if let Some((_, file, leaf)) = pending.as_mut() {
            if let Some(loc) = l.strip_prefix("location: ") {
                let loc = loc.trim_matches(|c| c == '\'' || c == '"');
                *file = Some(loc.split(':').next().unwrap_or(loc).to_string());
            }
            if l.starts_with("failureType:") && l.contains("subtestsFailed") {
                *leaf = false;
            }
        }
        let Some(rest) = l.strip_prefix("# ").or_else(|| l.strip_prefix("ℹ ")) else {
            continue;
        };
        let mut parts = rest.split_whitespace();
        if let (Some(key), Some(Ok(n)), None) = (
            parts.next(),
            parts.next().map(str::parse::<u32>),
            parts.next(),
        ) {
            match key {
                "pass" => pass = Some(n),
                "fail" => fail = Some(n),
                "skipped" => skipped = n,
                "cancelled" => cancelled = n,
                _ => {}
            }
        }
    }
    flush(&mut run, pending.take());
    if let (Some(p), Some(f)) = (pass, fail) {
        run.ran = true;
        run.passed = p;
        // Cancelled tests (a file or parent that timed out) fail the run as failures do.
        run.failed = f + cancelled;
        run.skipped = skipped;
    }
    run
}

/// A Jest summary line (`Tests: 1 failed, 2 passed, 3 total`) or a Vitest one
/// (`Tests  1 failed | 2 passed (3)`), and the `✕` / `×` lines of failed tests.
fn parse_jest_or_vitest(text: &str) -> TestRun {
    let mut run = TestRun::default();
    for line in text.lines() {
        let l = line.trim();
        let summary = l
            .strip_prefix("Tests:")
            .or_else(|| l.strip_prefix("Tests ").filter(|r| r.contains('(')));
        if let Some(rest) = summary {
            let n = numbers_before(rest, &["passed", "failed", "skipped"]);
            run.ran = true;
            run.passed += n[0];
            run.failed += n[1];
            run.skipped += n[2];
        }
        if let Some(name) = l.strip_prefix("✕ ").or_else(|| l.strip_prefix("× ")) {
            run.push_failing(strip_duration(name), None);
        }
    }
    run
}

/// A test name without the duration Jest (`(3 ms)`) or Vitest (`3ms`) appends: an id must
/// not change from run to run.
fn strip_duration(name: &str) -> &str {
    let name = name.rsplit_once(" (").map_or(name, |(n, _)| n).trim();
    match name.rsplit_once(' ') {
        Some((n, last)) if is_duration(last) => n,
        _ => name,
    }
}

/// `3ms`, `1.2s`: a test runner's timing.
fn is_duration(word: &str) -> bool {
    let digits = word
        .strip_suffix("ms")
        .or_else(|| word.strip_suffix('s'))
        .unwrap_or_default();
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// The files a test `require`s or `import`s by relative path: a file (with or without its
/// extension) or a directory (its `package.json` `main`, else its `index` file), so that
/// `require('..')` from `test/` is the package's entry point.
fn imports(view: &dyn FileView, test_file: &str, text: &str) -> BTreeSet<String> {
    static REQUIRE: OnceLock<Regex> = OnceLock::new();
    let require = REQUIRE.get_or_init(|| {
        Regex::new(r#"(?:require\(\s*|from\s+|import\s+|import\(\s*)['"](\.{1,2}(?:/[^'"]*)?)['"]"#)
            .expect("valid regex")
    });
    let dir = parent(test_file);
    let mut out = BTreeSet::new();
    for c in require.captures_iter(text) {
        if let Some(file) = join(dir, &c[1]).and_then(|base| resolve_module(view, &base)) {
            out.insert(file);
        }
    }
    out
}

/// The file a relative module path (already joined to the repository root) names.
fn resolve_module(view: &dyn FileView, base: &str) -> Option<String> {
    const EXTENSIONS: [&str; 6] = [".js", ".ts", ".mjs", ".cjs", ".jsx", ".tsx"];
    let under = |name: &str| {
        if base.is_empty() {
            name.to_string()
        } else {
            format!("{base}/{name}")
        }
    };
    if !base.is_empty() {
        let file = std::iter::once(String::new())
            .chain(EXTENSIONS.iter().map(|e| e.to_string()))
            .map(|e| format!("{base}{e}"))
            .find(|f| view.exists(f));
        if file.is_some() {
            return file;
        }
    }
    let main = view
        .read(&under("package.json"))
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|v| v["main"].as_str().map(str::to_string))
        .and_then(|m| join(base, &m))
        .and_then(|m| {
            std::iter::once(String::new())
                .chain(EXTENSIONS.iter().map(|e| e.to_string()))
                .map(|e| format!("{m}{e}"))
                .find(|f| view.exists(f))
        });
    main.or_else(|| {
        ["js", "ts", "mjs", "cjs"]
            .iter()
            .map(|e| under(&format!("index.{e}")))
            .find(|f| view.exists(f))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FailingTest, MemoryView};

    #[test]
    fn a_test_requiring_the_package_directory_maps_to_its_entry_point() {
        let view = MemoryView::from_pairs(&[
            ("package.json", r#"{"name": "x", "main": "lib/main.js"}"#),
            ("lib/main.js", ""),
            ("index.js", ""),
            ("test/a.test.js", ""),
            ("sub/index.mjs", ""),
        ]);
        let got = imports(
            &view,
            "test/a.test.js",
            "const x = require('..');\nimport y from '../sub';\nconst z = require('../index');",
        );
        assert_eq!(
            got.into_iter().collect::<Vec<_>>(),
            ["index.js", "lib/main.js", "sub/index.mjs"]
        );
    }

    #[test]
    fn tap_leaf_failures_only() {
        let text = "\
TAP version 13
# Subtest: suite
    # Subtest: inner
    not ok 1 - inner
      ---
      location: '/repo/test/a.test.js:3:1'
      failureType: 'testCodeFailure'
      ...
not ok 1 - suite
  ---
  location: '/repo/test/a.test.js:1:1'
  failureType: 'subtestsFailed'
  ...
ok 2 - other
# pass 1
# fail 1";
        let run = Node.parse_output(text);
        assert_eq!((run.passed, run.failed), (1, 1));
        assert_eq!(
            run.failing,
            vec![FailingTest {
                id: "inner".into(),
                file: Some("/repo/test/a.test.js".into())
            }]
        );
    }

    #[test]
    fn a_test_file_past_the_timeout_is_a_failure() {
        // Real `node --test --test-reporter=tap --test-timeout=2000` output (Node 20.20), a
        // file whose test loops forever (trimmed).
        let text = "\
TAP version 13
# Subtest: /repo/test/hang.test.js
not ok 1 - /repo/test/hang.test.js
  ---
  duration_ms: 2006.12
  location: '/repo/test/hang.test.js:1:1'
  failureType: 'testTimeoutFailure'
  error: 'test timed out after 2000ms'
  ...
# Subtest: adds
ok 2 - adds
1..2
# tests 2
# pass 1
# fail 0
# cancelled 1
# skipped 0";
        let run = Node.parse_output(text);
        assert_eq!((run.passed, run.failed), (1, 1));
        assert_eq!(run.failing[0].id, "/repo/test/hang.test.js");
        assert!(node_version_has_test_timeout("v20.11.0"));
        assert!(node_version_has_test_timeout("v22.1.0"));
        assert!(!node_version_has_test_timeout("v20.10.0"));
        assert!(!node_version_has_test_timeout("v18.19.1"));
        assert!(!node_version_has_test_timeout("v21.1.0"));
    }

    #[test]
    fn jest_and_vitest_summaries() {
        let run =
            Node.parse_output("  ✕ sub subtracts (3 ms)\nTests:       1 failed, 2 passed, 3 total");
        assert_eq!((run.passed, run.failed), (2, 1));
        assert_eq!(run.failing[0].id, "sub subtracts");
        // Vitest 3's default reporter.
        let text = " ❯ test/ops.test.ts (3 tests | 1 failed) 4ms
   × ops > sub subtracts 3ms
     → expected 8 to be 2 // Object.is equality

 Test Files  1 failed (1)
      Tests  1 failed | 2 passed (3)
   Start at  17:30:01
   Duration  312ms";
        let run = Node.parse_output(text);
        assert!(run.ran);
        assert_eq!((run.passed, run.failed), (2, 1));
        assert_eq!(run.failing[0].id, "ops > sub subtracts");
    }

    #[test]
    fn relative_imports_resolve_to_files() {
        let view = MemoryView::from_pairs(&[
            ("src/cart.js", ""),
            ("src/util/index.ts", ""),
            (
                "test/cart.test.js",
                "const c = require('../src/cart');\nimport u from '../src/util';",
            ),
        ]);
        let got = crate::sources_for_test(&view, "test/cart.test.js");
        assert_eq!(got, ["src/cart.js", "src/util/index.ts"]);
    }
}
