//! Go: `go build ./...` then `go vet ./...` as the build check; `go test -json ./...`, whose
//! events give each test's verdict (the plain and `-v` text output are read too); `_test.go`
//! files; a test's package and the module's packages it imports.

use std::collections::BTreeSet;
use std::sync::OnceLock;
use std::time::Duration;

use regex::Regex;
use serde_json::Value;

use crate::process;
use crate::{
    Build, BuildResult, Check, Commands, Ecosystem, FileView, RepoFiles, RunnerCommand, TestRun,
    Tool, command_name, first_word, missing, parent, subcommand, timed_out,
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

    fn test(&self, files: &RepoFiles, timeout: Duration) -> TestRun {
        if !process::on_path("go") {
            return TestRun::not_run(&missing(
                "go",
                "install Go (e.g. apt-get install golang-go) to run the Go tests",
            ));
        }
        let out = process::run(
            "go",
            &["test", "-json", "./..."],
            &files.root,
            &[("GOFLAGS", "-mod=mod")],
            timeout,
        );
        if out.timed_out {
            return timed_out("go test", &out);
        }
        let module = files
            .read("go.mod")
            .and_then(|m| module_path(&m))
            .unwrap_or_default();
        let mut run = self.parse_output(&out.stdout);
        for f in &mut run.failing {
            if let Some((pkg, test)) = f.id.split_once("::") {
                f.file = test_file(files, &module, pkg, test);
            }
        }
        let text = json_output(&out.stdout);
        let mut run = run.finish("go test", &format!("{text}\n{}", out.stderr), out.success());
        run.log = crate::log_tail(&text);
        run
    }

    fn parse_output(&self, text: &str) -> TestRun {
        let mut run = TestRun::default();
        let mut text_packages = TestRun::default();
        let mut verbose = false;
        for line in text.lines() {
            let l = line.trim();
            if l.starts_with('{') {
                if let Ok(event) = serde_json::from_str::<Value>(l) {
                    read_event(&event, &mut run);
                }
            } else if read_verbose_line(l, &mut run) {
                verbose = true;
            } else {
                read_package_line(l, &mut text_packages);
            }
        }
        // Without `-v`, the package lines are all the text output says.
        if !verbose && !run.ran && text_packages.ran {
            run.merge(text_packages);
        }
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

/// The module path declared by a `go.mod` (`module example.com/m`).
pub fn module_path(go_mod: &str) -> Option<String> {
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
pub fn json_output(json_lines: &str) -> String {
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
