//! Go: `go build ./...` then `go vet ./...` as the build check; `go test -vet=off -json ./...`,
//! whose events give each test's verdict (the plain and `-v` text output are read too);
//! `_test.go` files; a test's package and the module's packages it imports.
//!
//! The tests run without `go test`'s own vet pass: vet is the build check's, which every
//! change that lands passes, and a vet pass per test run costs each of the many candidates a
//! run judges (repair templates, one per test run) up to half of its test time.
//!
//! Hanging tests: `go test -timeout` (twice the per-test limit: Go's limit covers a package's
//! whole test binary) makes the binary panic with `panic: test timed out after ...` and a
//! trace; the tests running then (Go 1.20's `running tests:` list, or the `TestX` frames of
//! the trace) are failing tests, the package's other results stand.

use std::collections::BTreeSet;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use regex::Regex;
use serde_json::Value;

use crate::process;
use crate::{
    Build, BuildResult, Check, Commands, Ecosystem, FileView, RepoFiles, RunnerCommand, ScratchDir,
    Spectrum, TestCoverage, TestLimits, TestRun, Tool, command_name, cut_at_timeout, first_word,
    missing, parent, read_go_profile, subcommand,
};

/// Go modules.
pub struct Go;

impl Ecosystem for Go {
    fn name(&self) -> &'static str {
        "go"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["go"]
    }

    fn tools(&self) -> &'static [Tool] {
        &[Tool {
            name: "go",
            program: "go",
            version_args: &["version"],
            install: "install Go (apt-get install golang-go)",
            without: crate::UNKNOWN_WITHOUT_IT,
        }]
    }

    fn detect(&self, files: &RepoFiles) -> bool {
        files.has("go.mod")
    }

    fn stack_tag(&self, _files: &RepoFiles) -> String {
        "go/modules".into()
    }

    fn commands(&self, _files: &RepoFiles) -> Commands {
        Commands {
            build: "go build ./...".into(),
            test: "go test ./...".into(),
        }
    }

    fn build(&self, files: &RepoFiles, timeout: Duration) -> Build {
        if !process::on_path("go") {
            return Build::new(
                "go build",
                BuildResult::Missing("install Go (e.g. apt-get install golang-go)".into()),
            );
        }
        for step in ["build", "vet"] {
            let out = process::run("go", &[step, "./..."], &files.root, &[], timeout);
            let build = Build::judge(format!("go {step}"), &out);
            if build.result != BuildResult::Passed {
                return build;
            }
        }
        Build::new("go build + go vet", BuildResult::Passed)
    }

    fn test(&self, files: &RepoFiles, limits: &TestLimits) -> TestRun {
        if !process::on_path("go") {
            return TestRun::not_run(&missing(
                "go",
                "install Go (e.g. apt-get install golang-go) to run the Go tests",
            ));
        }
        let binary_limit = format!("{}s", limits.per_test_secs() * 2);
        let out = process::run(
            "go",
            &[
                "test",
                "-vet=off",
                "-json",
                "-timeout",
                &binary_limit,
                "./...",
            ],
            &files.root,
            &[("GOFLAGS", "-mod=mod")],
            limits.suite,
        );
        let module = files
            .read("go.mod")
            .and_then(|m| module_path(&m))
            .unwrap_or_default();
        let locate = |run: &mut TestRun| {
            for f in &mut run.failing {
                if let Some((pkg, test)) = f.id.split_once("::") {
                    f.file = test_file(files, &module, pkg, test);
                }
            }
        };
        let text = json_output(&out.stdout);
        if out.timed_out {
            let mut hanging = TestRun::default();
            for id in unfinished_tests(&out.stdout) {
                hanging.push_failing(&id, None);
            }
            locate(&mut hanging);
            let mut run = self.parse_output(&out.stdout);
            locate(&mut run);
            return cut_at_timeout("go test", &out, run, hanging.failing, &text);
        }
        let mut run = self.parse_output(&out.stdout);
        locate(&mut run);
        let mut run = run.finish("go test", &format!("{text}\n{}", out.stderr), out.success());
        run.log = crate::log_tail(&text);
        run
    }

    /// Each package with tests is built once with `-cover -coverpkg=./...`, and each of its
    /// top-level tests runs alone with `-test.coverprofile` (at most [`MAX_COVERED_TESTS`],
    /// within the suite limit).
    fn coverage(&self, files: &RepoFiles, limits: &TestLimits) -> Option<Spectrum> {
        if !process::on_path("go") {
            return None;
        }
        let module = files.read("go.mod").and_then(|m| module_path(&m))?;
        let started = Instant::now();
        let left = || limits.suite.saturating_sub(started.elapsed());
        let scratch = ScratchDir::new("go-cover")?;
        let dir = scratch.path();
        let packages: BTreeSet<&str> = files
            .files
            .iter()
            .filter(|f| self.is_test_file(f))
            .map(|f| parent(f))
            .collect();
        let mut spectrum = Spectrum::default();
        let profile = dir.join("cover.out");
        let profile_flag = format!("-test.coverprofile={}", profile.display());
        let timeout_flag = format!("-test.timeout={}s", limits.per_test_secs());
        for (i, pkg) in packages.into_iter().enumerate() {
            let bin = dir.join(format!("pkg{i}.test"));
            let bin = bin.display().to_string();
            let target = if pkg.is_empty() {
                ".".to_string()
            } else {
                format!("./{pkg}")
            };
            let env = [("GOFLAGS", "-mod=mod")];
            let args = [
                "test",
                "-c",
                "-vet=off",
                "-cover",
                "-covermode=set",
                "-coverpkg=./...",
                "-o",
                &bin,
                &target,
            ];
            if !process::run("go", &args, &files.root, &env, left()).success() {
                continue;
            }
            let pkg_dir = files.root.join(pkg);
            let package = if pkg.is_empty() {
                module.clone()
            } else {
                format!("{module}/{pkg}")
            };
            let listed = process::run(&bin, &["-test.list", "."], &pkg_dir, &[], left());
            let tests = listed.stdout.lines().filter(|l| l.starts_with("Test"));
            for test in tests {
                if spectrum.tests.len() >= MAX_COVERED_TESTS || left().is_zero() {
                    break;
                }
                let _ = std::fs::remove_file(&profile);
                let only = format!("-test.run=^{test}$");
                let args = [only.as_str(), "-test.count=1", &profile_flag, &timeout_flag];
                let limit = left().min(limits.per_test + Duration::from_secs(5));
                let ran = process::run(&bin, &args, &pkg_dir, &[], limit);
                let text = std::fs::read_to_string(&profile).unwrap_or_default();
                spectrum.tests.push(TestCoverage {
                    id: format!("{package}::{test}"),
                    passed: ran.success(),
                    lines: read_go_profile(&text, &module),
                });
            }
        }
        (!spectrum.tests.is_empty()).then_some(spectrum)
    }

    fn parse_output(&self, text: &str) -> TestRun {
        let mut run = TestRun::default();
        let mut text_packages = TestRun::default();
        let mut verbose = false;
        let mut hangs = HangScan::default();
        for line in text.lines() {
            let l = line.trim();
            if l.starts_with('{') {
                if let Ok(event) = serde_json::from_str::<Value>(l) {
                    read_event(&event, &mut run);
                    if let Some(o) = event.get("Output").and_then(Value::as_str) {
                        let pkg = event.get("Package").and_then(Value::as_str);
                        hangs.read(o.trim_end_matches('\n'), pkg);
                    }
                }
            } else {
                hangs.read(line, None);
                if read_verbose_line(l, &mut run) {
                    verbose = true;
                } else {
                    read_package_line(l, &mut text_packages);
                }
            }
        }
        // Without `-v`, the package lines are all the text output says.
        let by_package = !verbose && !run.ran && text_packages.ran;
        if by_package {
            run.merge(text_packages);
        }
        hangs.add_to(&mut run, by_package);
        run
    }

    fn is_test_file(&self, path: &str) -> bool {
        path.ends_with("_test.go")
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
            "go" => match subcommand(words, 1)?.1 {
                "test" => RunnerCommand::test("go test"),
                sub @ ("vet" | "build") => RunnerCommand::check(format!("go {sub}")),
                _ => None,
            },
            "gotestsum" => RunnerCommand::test("gotestsum"),
            "golangci-lint" | "staticcheck" => RunnerCommand::check(name),
            _ => None,
        }
    }

    fn ignored_dirs(&self) -> &'static [&'static str] {
        &[]
    }

    fn dependency_checks(&self, files: &RepoFiles) -> Vec<Check> {
        let gomod = files.read("go.mod").unwrap_or_default();
        if !gomod.contains("require") {
            return vec![Check::new(1.0, "go.mod: no external modules")];
        }
        let sum = files.has("go.sum");
        vec![Check::new(
            if sum { 1.0 } else { 0.3 },
            if sum {
                "go.sum present"
            } else {
                "go.sum missing"
            },
        )]
    }
}

/// Most tests [`Go::coverage`] runs one by one.
const MAX_COVERED_TESTS: usize = 400;

/// The module path declared by a `go.mod` (`module example.com/m`).
pub(super) fn module_path(go_mod: &str) -> Option<String> {
    go_mod.lines().find_map(|l| {
        let l = l.split("//").next().unwrap_or("").trim();
        let rest = l.strip_prefix("module")?;
        rest.starts_with(char::is_whitespace)
            .then(|| rest.trim().trim_matches('"').to_string())
            .filter(|m| !m.is_empty())
    })
}

/// One `go test -json` event: a test's pass or fail, or a package that failed without a
/// failing test (it did not build).
fn read_event(event: &Value, run: &mut TestRun) {
    let action = event.get("Action").and_then(Value::as_str).unwrap_or("");
    let pkg = event.get("Package").and_then(Value::as_str).unwrap_or("");
    match (action, event.get("Test").and_then(Value::as_str)) {
        ("pass", Some(test)) => {
            run.ran = true;
            run.passed += 1;
            run.push_passing(test);
        }
        ("skip", Some(_)) => run.skipped += 1,
        ("fail", Some(test)) => {
            run.ran = true;
            run.failed += 1;
            run.push_failing(&format!("{pkg}::{test}"), None);
        }
        ("fail", None)
            if !pkg.is_empty()
                && !run
                    .failing
                    .iter()
                    .any(|f| f.id.starts_with(&format!("{pkg}::"))) =>
        {
            run.broken = true;
            run.details
                .push(format!("go test: package {pkg} failed to build or run"));
        }
        _ => {}
    }
}

/// The tests a `go test` binary was running when its `-timeout` made it panic.
#[derive(Default)]
struct HangScan {
    /// The package whose binary panicked (empty for plain text output) and the panic's words
    /// (`test timed out after 2s`), while reading its report.
    current: Option<(String, String)>,
    /// Whether the report's `running tests:` list is being read (Go 1.20+).
    in_list: bool,
    /// (package or empty, test, the panic's words).
    found: Vec<(String, String, String)>,
    /// (package or empty, test) of the tests started (`=== RUN`) and not finished (`--- PASS`,
    /// `--- FAIL`, `--- SKIP`): the hanging test when the panic's report shows no frame of it
    /// (its goroutine "running on other thread; stack unavailable", Go 1.19 on a busy machine).
    open: Vec<(String, String)>,
    /// `found`'s length when the current panic began.
    found_before_panic: usize,
}

impl HangScan {
    /// One output line, with its package when a `-json` event said it.
    fn read(&mut self, line: &str, pkg: Option<&str>) {
        static FRAME: OnceLock<Regex> = OnceLock::new();
        let frame = FRAME.get_or_init(|| {
            Regex::new(r"^([\w.\-/~]+)\.((?:Test|Fuzz|Example)\w*)(?:\.func\d+)*\(")
                .expect("valid regex")
        });
        let l = line.trim();
        self.track_open(l, pkg.unwrap_or(""));
        if let Some(rest) = l.strip_prefix("panic: test timed out after ") {
            self.current = Some((
                pkg.unwrap_or("").to_string(),
                format!("test timed out after {}", first_word(rest)),
            ));
            self.in_list = false;
            self.found_before_panic = self.found.len();
            return;
        }
        let Some((pkg_name, why)) = &self.current else {
            return;
        };
        if l == "running tests:" {
            self.in_list = true;
            return;
        }
        if self.in_list && line.starts_with('\t') && !l.is_empty() {
            // `\tTestHang (2s)`, `\tTestOuter/inner (2s)`
            self.push(pkg_name.clone(), first_word(l).to_string(), why.clone());
            return;
        }
        self.in_list = false;
        if let Some(c) = frame.captures(l)
            && &c[2] != "TestMain"
        {
            // The event's package names the test (an external `_test` package's frames say
            // `pkg_test.TestX`); plain text keeps bare names, as its verdict lines do.
            self.push(pkg_name.clone(), c[2].to_string(), why.clone());
        } else if l.starts_with("FAIL\t") || l.starts_with("ok ") {
            self.end_panic();
        }
    }

    /// Follows which tests are running: `=== RUN   TestX` opens one, its verdict line closes it.
    fn track_open(&mut self, l: &str, pkg: &str) {
        if let Some(rest) = l.strip_prefix("=== RUN") {
            self.open
                .push((pkg.to_string(), first_word(rest.trim()).to_string()));
            return;
        }
        let verdict = ["--- PASS: ", "--- FAIL: ", "--- SKIP: "]
            .iter()
            .find_map(|v| l.strip_prefix(v));
        if let Some(rest) = verdict {
            let test = first_word(rest);
            self.open.retain(|(p, t)| !(p == pkg && t == test));
        }
    }

    /// The end of the current panic's report: when no frame named a test, the tests of its
    /// package still running are the ones that hung (the innermost of nested subtests).
    fn end_panic(&mut self) {
        let Some((pkg, why)) = self.current.take() else {
            return;
        };
        if self.found.len() > self.found_before_panic {
            return;
        }
        let running: Vec<String> = self
            .open
            .iter()
            .filter(|(p, _)| pkg.is_empty() || *p == pkg)
            .map(|(_, t)| t.clone())
            .collect();
        for test in running {
            self.push(pkg.clone(), test, why.clone());
        }
    }

    fn push(&mut self, pkg: String, test: String, why: String) {
        // A subtest's parent is running too: keep the innermost name only.
        self.found
            .retain(|(p, t, _)| !(p == &pkg && test.starts_with(&format!("{t}/"))));
        let covered = self
            .found
            .iter()
            .any(|(p, t, _)| p == &pkg && (t == &test || t.starts_with(&format!("{test}/"))));
        if !covered {
            self.found.push((pkg, test, why));
        }
    }

    /// The hanging tests as failing tests (`pkg::TestX` when the package is known), each
    /// counted once (not at all when the counts are of packages, `by_package`: the package's
    /// `FAIL` line already counted it), with a detail naming them.
    fn add_to(mut self, run: &mut TestRun, by_package: bool) {
        self.end_panic();
        for (pkg, test, why) in self.found {
            let id = if pkg.is_empty() {
                test
            } else {
                format!("{pkg}::{test}")
            };
            if !run.failing.iter().any(|f| f.id == id) {
                run.ran = true;
                if !by_package {
                    run.failed += 1;
                }
                run.push_failing(&id, None);
            }
            run.passing.retain(|p| *p != id);
            run.details.push(format!("go test: {id} hangs: {why}"));
            // The package failed because of the hang, not because it did not build.
            if !pkg.is_empty() {
                let unexplained = format!("go test: package {pkg} failed to build or run");
                run.details.retain(|d| *d != unexplained);
            }
        }
        run.broken = run
            .details
            .iter()
            .any(|d| d.starts_with("go test: package ") && d.ends_with("failed to build or run"));
    }
}

/// The tests of `go test -json` output that started (`run`) and never finished: those a run
/// killed at the suite limit was in (`pkg::TestX`).
fn unfinished_tests(json_lines: &str) -> Vec<String> {
    let mut open: Vec<String> = Vec::new();
    for line in json_lines.lines() {
        let Ok(event) = serde_json::from_str::<Value>(line.trim()) else {
            continue;
        };
        let (Some(action), Some(test)) = (
            event.get("Action").and_then(Value::as_str),
            event.get("Test").and_then(Value::as_str),
        ) else {
            continue;
        };
        let pkg = event.get("Package").and_then(Value::as_str).unwrap_or("");
        let id = format!("{pkg}::{test}");
        match action {
            "run" => open.push(id),
            "pass" | "fail" | "skip" => open.retain(|o| *o != id),
            _ => {}
        }
    }
    // A parent test is open while its subtests run: name the innermost.
    let inner: Vec<String> = open
        .iter()
        .filter(|o| !open.iter().any(|x| x.starts_with(&format!("{o}/"))))
        .cloned()
        .collect();
    inner
}

/// `--- PASS: TestX (0.00s)`, `--- FAIL: TestX`, `--- SKIP: TestX` (go test -v).
fn read_verbose_line(l: &str, run: &mut TestRun) -> bool {
    if let Some(rest) = l.strip_prefix("--- PASS: ") {
        run.ran = true;
        run.passed += 1;
        run.push_passing(first_word(rest));
    } else if let Some(rest) = l.strip_prefix("--- FAIL: ") {
        run.ran = true;
        run.failed += 1;
        run.push_failing(first_word(rest), None);
    } else if l.starts_with("--- SKIP: ") {
        run.skipped += 1;
    } else {
        return false;
    }
    true
}

/// Package lines of plain `go test`: `ok  \tpkg\t0.01s`, `FAIL\tpkg\t0.01s`,
/// `?   \tpkg\t[no test files]`; counted per package.
fn read_package_line(l: &str, run: &mut TestRun) {
    if (l.starts_with("ok ") || l.starts_with("ok\t")) && l.contains('\t') || l.starts_with("ok  ")
    {
        run.ran = true;
        if !l.contains("[no tests to run]") && !l.contains("[no test files]") {
            run.passed += 1;
        }
    } else if l.starts_with("FAIL\t")
        || (l.starts_with("FAIL ") && l.split_whitespace().count() >= 2)
    {
        run.ran = true;
        run.failed += 1;
    }
}

/// The text `go test -json` printed: the `Output` fields of its events, in order.
pub(super) fn json_output(json_lines: &str) -> String {
    let mut out = String::new();
    for line in json_lines.lines() {
        match serde_json::from_str::<Value>(line) {
            Ok(v) => {
                if let Some(o) = v.get("Output").and_then(Value::as_str) {
                    out.push_str(o);
                }
            }
            Err(_) => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// The `_test.go` file of `pkg` that defines `func <test>(`.
fn test_file(files: &RepoFiles, module: &str, pkg: &str, test: &str) -> Option<String> {
    let dir = pkg
        .strip_prefix(module)
        .map(|d| d.trim_start_matches('/').to_string())
        .unwrap_or_default();
    let needle = format!("func {}(", test.split('/').next().unwrap_or(test));
    files
        .with_suffix(&["_test.go"])
        .filter(|f| parent(f) == dir)
        .find(|f| files.read(f).is_some_and(|s| s.contains(&needle)))
        .cloned()
}

/// The test's own package and the module's packages it imports.
fn imports(view: &dyn FileView, test_file: &str, text: &str) -> BTreeSet<String> {
    static IMPORT: OnceLock<Regex> = OnceLock::new();
    let import = IMPORT.get_or_init(|| Regex::new(r#""([\w\.\-/]+)""#).expect("valid regex"));
    let files = view.list();
    let package_files = |dir: &str| -> Vec<String> {
        files
            .iter()
            .filter(|f| parent(f) == dir && f.ends_with(".go") && !f.ends_with("_test.go"))
            .cloned()
            .collect()
    };
    let mut out: BTreeSet<String> = package_files(parent(test_file)).into_iter().collect();
    let module = view
        .read("go.mod")
        .and_then(|m| module_path(&m))
        .unwrap_or_default();
    if module.is_empty() {
        return out;
    }
    let imports_block = text
        .split("import")
        .skip(1)
        .map(|s| s.split(')').next().unwrap_or(s))
        .collect::<Vec<_>>()
        .join("\n");
    for c in import.captures_iter(&imports_block) {
        if let Some(rel) = c[1].strip_prefix(&module) {
            out.extend(package_files(rel.trim_start_matches('/')));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemoryView;

    #[test]
    fn json_events() {
        let text = r#"{"Action":"run","Package":"example.com/calc","Test":"TestAdd"}
{"Action":"pass","Package":"example.com/calc","Test":"TestAdd"}
{"Action":"fail","Package":"example.com/calc","Test":"TestSub"}
{"Action":"fail","Package":"example.com/calc"}
not json"#;
        let run = Go.parse_output(text);
        assert_eq!((run.passed, run.failed), (1, 1));
        assert_eq!(run.failing[0].id, "example.com/calc::TestSub");
        assert!(!run.broken, "package fail explained by its failing test");
        let broken = Go.parse_output(r#"{"Action":"fail","Package":"x/y"}"#);
        assert!(broken.broken && !broken.ran);
    }

    #[test]
    fn plain_and_verbose_text() {
        let plain = "ok  \texample.com/a\t0.01s\nFAIL\texample.com/b\t0.02s\n?   \texample.com/c\t[no test files]";
        let run = Go.parse_output(plain);
        assert_eq!((run.passed, run.failed), (1, 1));
        let verbose = "=== RUN   TestA\n--- PASS: TestA (0.00s)\n--- FAIL: TestB (0.00s)\nFAIL\texample.com/b\t0.02s";
        let run = Go.parse_output(verbose);
        assert_eq!(
            (run.passed, run.failed),
            (1, 1),
            "packages not counted again"
        );
        assert_eq!(run.failing[0].id, "TestB");
    }

    #[test]
    fn a_test_timeout_panic_names_the_running_tests() {
        // Go 1.19 `go test -json -timeout 2s` (trimmed): no fail event for the hanging test.
        let json = r#"{"Action":"run","Package":"example.com/calc","Test":"TestAdd"}
{"Action":"pass","Package":"example.com/calc","Test":"TestAdd","Elapsed":0}
{"Action":"run","Package":"example.com/calc","Test":"TestHang"}
{"Action":"output","Package":"example.com/calc","Test":"TestHang","Output":"panic: test timed out after 2s\n"}
{"Action":"output","Package":"example.com/calc","Test":"TestHang","Output":"goroutine 1 [chan receive]:\n"}
{"Action":"output","Package":"example.com/calc","Test":"TestHang","Output":"testing.(*T).Run(0xc0000964e0, {0x5249c0?, 0x4b7e45?}, 0x52f308)\n"}
{"Action":"output","Package":"example.com/calc","Test":"TestHang","Output":"main.main()\n"}
{"Action":"output","Package":"example.com/calc","Test":"TestHang","Output":"goroutine 19 [runnable]:\n"}
{"Action":"output","Package":"example.com/calc","Test":"TestHang","Output":"example.com/calc_test.TestHang(0xc000096680?)\n"}
{"Action":"output","Package":"example.com/calc","Test":"TestHang","Output":"\t/tmp/x/calc_test.go:12 +0x1\n"}
{"Action":"output","Package":"example.com/calc","Output":"FAIL\texample.com/calc\t2.008s\n"}
{"Action":"fail","Package":"example.com/calc","Elapsed":2.008}"#;
        let run = Go.parse_output(json);
        assert_eq!((run.passed, run.failed), (1, 1), "{run:?}");
        assert_eq!(run.failing[0].id, "example.com/calc::TestHang");
        assert!(!run.broken, "the package failure is the hang's");
        assert_eq!(
            run.details,
            ["go test: example.com/calc::TestHang hangs: test timed out after 2s"]
        );
        // Go 1.20+ text: the `running tests:` list, a subtest named rather than its parent.
        let text = "=== RUN   TestOuter\n=== RUN   TestOuter/inner\n\
                    panic: test timed out after 4s\nrunning tests:\n\tTestOuter (4s)\n\
                    \tTestOuter/inner (4s)\n\ngoroutine 7 [running]:\n\
                    example.com/m.TestOuter.func1(0xc0)\n\t/m/m_test.go:9 +0x1\n\
                    FAIL\texample.com/m\t4.01s\n";
        let run = Go.parse_output(text);
        assert_eq!(run.failing.len(), 1, "{run:?}");
        assert_eq!(run.failing[0].id, "TestOuter/inner");
        assert_eq!(run.failed, 1);
        // Killed at the suite limit: the tests started and never finished.
        let open = unfinished_tests(
            r#"{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"run","Package":"p","Test":"TestB"}
{"Action":"run","Package":"p","Test":"TestB/x"}"#,
        );
        assert_eq!(open, ["p::TestB/x"]);
    }

    #[test]
    fn a_hang_whose_stack_is_unavailable_is_the_test_still_running() {
        // Go 1.19, `go test -v ./...` on a busy machine: the hanging test's goroutine ran on
        // another thread, so no frame names it; another package's output came in between.
        let text = "=== RUN   TestAdd\n--- PASS: TestAdd (0.00s)\n=== RUN   TestWrong\n\
                    --- FAIL: TestWrong (0.00s)\n=== RUN   TestHangs\n=== RUN   TestOther\n\
                    --- PASS: TestOther (0.00s)\nPASS\nok  \texample.com/calc/other\t0.043s\n\
                    panic: test timed out after 4s\n\ngoroutine 5 [running]:\n\
                    testing.(*M).startAlarm.func1()\n\t/usr/lib/go-1.19/src/testing/testing.go:2036\n\
                    main.main()\n\t_testmain.go:51 +0x1aa\n\ngoroutine 20 [running]:\n\
                    \tgoroutine running on other thread; stack unavailable\n\
                    FAIL\texample.com/calc\t4.018s\n";
        let run = Go.parse_output(text);
        let failing: Vec<&str> = run.failing.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(failing, ["TestWrong", "TestHangs"], "{run:?}");
        assert_eq!(
            run.details,
            ["go test: TestHangs hangs: test timed out after 4s"]
        );
        assert!(!run.passing.contains(&"TestHangs".to_string()));
    }

    #[test]
    fn module_path_and_imports() {
        assert_eq!(
            module_path("// x\nmodule \"example.com/m\" // c\ngo 1.22").as_deref(),
            Some("example.com/m")
        );
        assert_eq!(module_path("go 1.22\nmodules x"), None);
        let view = MemoryView::from_pairs(&[
            ("go.mod", "module example.com/m\n"),
            ("count.go", ""),
            (
                "count_test.go",
                "import (\n\t\"testing\"\n\t\"example.com/m/text\"\n)",
            ),
            ("text/split.go", ""),
        ]);
        let got = crate::sources_for_test(&view, "count_test.go");
        assert_eq!(got, ["count.go", "text/split.go"]);
    }
}
