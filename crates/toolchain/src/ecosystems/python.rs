//! Python: every file compiled in memory as the build check; pytest when it is installed,
//! `python -m unittest discover` otherwise; `test_*.py`, `*_test.py`, `conftest.py` and files
//! under test directories; `from pkg.mod import x` to source files.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use regex::Regex;

use crate::process;
use crate::{
    Build, BuildResult, Check, Commands, Ecosystem, FileView, RepoFiles, RunnerCommand, TestRun,
    Tool, comma_counts, command_name, file_name, first_word, in_test_dir, missing, parent,
    timed_out,
};

/// Python with pytest or unittest.
pub struct Python;

/// The detail a test run carries when unittest ran because pytest is not installed.
pub const UNITTEST_RUNNER_DETAIL: &str = "runner: python -m unittest (pytest not installed)";

/// Compiles every Python file in memory (no `__pycache__` written) and prints the failures.
/// Virtualenvs, build output and slopguard's own `.slopguard/` are not the project's code.
const COMPILE_ALL: &str = r#"
import os, sys
bad = 0
skip = {'.git', 'node_modules', '__pycache__', '.venv', 'venv', '.tox', 'build', 'dist', 'target', '.slopguard'}
for d, dirs, files in os.walk('.'):
    dirs[:] = [x for x in dirs if x not in skip and not x.startswith('.venv')]
    for f in files:
        if f.endswith('.py'):
            p = os.path.join(d, f)
            try:
                with open(p, 'rb') as fh:
                    compile(fh.read(), p, 'exec')
            except (SyntaxError, ValueError) as e:
                bad += 1
                print(f"{p}: {e}")
sys.exit(1 if bad else 0)
"#;

const ENV: [(&str, &str); 2] = [("PYTHONDONTWRITEBYTECODE", "1"), ("PYTHONUNBUFFERED", "1")];

impl Ecosystem for Python {
    fn name(&self) -> &'static str {
        "python"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["py"]
    }

    fn tools(&self) -> &'static [Tool] {
        &[
            Tool {
                name: "python3",
                program: "python3",
                version_args: &["--version"],
                install: "install Python 3",
                without: crate::UNKNOWN_WITHOUT_IT,
            },
            Tool {
                name: "pytest",
                program: "python3",
                version_args: &["-m", "pytest", "--version"],
                install: "pip install pytest",
                without: "Python tests run with unittest",
            },
        ]
    }

    fn detect(&self, files: &RepoFiles) -> bool {
        files.has("pyproject.toml")
            || files.has("setup.py")
            || files.has("setup.cfg")
            || files.files.iter().any(|f| {
                (f.starts_with("requirements") && f.ends_with(".txt") && !f.contains('/'))
                    || (f.ends_with(".py") && f.matches('/').count() <= 2)
            })
    }

    fn stack_tag(&self, files: &RepoFiles) -> String {
        if files.has("pyproject.toml") {
            "python/pyproject".into()
        } else {
            "python".into()
        }
    }

    fn commands(&self, _files: &RepoFiles) -> Commands {
        Commands {
            build: "python -m compileall".into(),
            test: "python -m pytest".into(),
        }
    }

    fn build(&self, files: &RepoFiles, timeout: Duration) -> Build {
        const TOOL: &str = "python compile";
        let Some(py) = ["python3", "python"]
            .into_iter()
            .find(|p| process::on_path(p))
        else {
            return Build::new(TOOL, BuildResult::Missing("install Python 3".into()));
        };
        let out = process::run(
            py,
            &["-c", COMPILE_ALL],
            &files.root,
            &[("PYTHONDONTWRITEBYTECODE", "1")],
            timeout,
        );
        Build::judge(TOOL, &out)
    }

    fn test(&self, files: &RepoFiles, timeout: Duration) -> TestRun {
        if !process::on_path("python3") {
            return TestRun::not_run(&missing("python3", "install Python 3"));
        }
        if has_pytest(&files.root) {
            run_pytest(files, timeout)
        } else {
            run_unittest(files, timeout)
        }
    }

    fn parse_output(&self, text: &str) -> TestRun {
        let mut run = TestRun::default();
        let mut unittest_total = None;
        let mut unittest_failed = 0;
        for line in text.lines() {
            let l = line.trim();
            if let Some(id) = pytest_summary_failure(l) {
                run.push_failing(id, pytest_file(id));
            } else if let Some((id, verdict)) = pytest_verbose_line(l) {
                match verdict {
                    "PASSED" => run.push_passing(id),
                    _ => run.push_failing(id, pytest_file(id)),
                }
            } else if let Some((p, f, s)) = pytest_summary(l) {
                run.ran = true;
                run.passed += p;
                run.failed += f;
                run.skipped += s;
            } else if let Some((id, file)) = unittest_failure(l) {
                unittest_failed += 1;
                run.push_failing(&id, file);
            } else if let Some(rest) = l.strip_prefix("Ran ") {
                unittest_total = rest
                    .strip_suffix('s')
                    .unwrap_or(rest)
                    .split_whitespace()
                    .next()
                    .and_then(|n| n.parse::<u32>().ok());
            }
        }
        if let Some(n) = unittest_total {
            run.ran |= n > 0;
            run.failed += unittest_failed;
            run.passed += n.saturating_sub(unittest_failed);
        }
        run
    }

    fn is_test_file(&self, path: &str) -> bool {
        let name = file_name(path);
        let stem = name.strip_suffix(".py").unwrap_or(name);
        stem != "__init__"
            && (stem.starts_with("test_")
                || stem.ends_with("_test")
                || stem == "conftest"
                || in_test_dir(path))
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
            "pytest" | "py.test" => RunnerCommand::test("pytest"),
            "unittest" | "nose2" | "tox" | "nox" | "trial" => RunnerCommand::test(name),
            "mypy" | "pyright" | "flake8" | "pylint" | "basedpyright" => RunnerCommand::check(name),
            "ruff" if words.get(1) == Some(&"check") => RunnerCommand::check("ruff check"),
            _ => None,
        }
    }

    fn ignored_dirs(&self) -> &'static [&'static str] {
        &["__pycache__"]
    }

    fn dependency_checks(&self, files: &RepoFiles) -> Vec<Check> {
        let reqs: Vec<&String> = files
            .files
            .iter()
            .filter(|f| !f.contains('/') && f.starts_with("requirements") && f.ends_with(".txt"))
            .collect();
        let (mut total, mut unpinned) = (0, 0);
        for r in &reqs {
            for l in files.read(r).unwrap_or_default().lines() {
                let l = l.split('#').next().unwrap_or("").trim();
                if l.is_empty() || l.starts_with('-') {
                    continue;
                }
                total += 1;
                if !l.contains("==") && !l.contains(">=") && !l.contains("~=") && !l.contains('<') {
                    unpinned += 1;
                }
            }
        }
        let has_manifest = files.has("pyproject.toml") || files.has("setup.py") || !reqs.is_empty();
        let mut checks = vec![if has_manifest {
            Check::new(1.0, "Python manifest present")
        } else {
            Check::new(0.5, "no pyproject.toml / setup.py / requirements.txt")
        }];
        if total > 0 {
            checks.push(Check::new(
                1.0 - unpinned as f64 / total as f64 * 0.7,
                format!("requirements: {total} entries, {unpinned} without a version constraint"),
            ));
        }
        checks
    }
}

/// Whether pytest can be imported, asked once per process.
fn has_pytest(root: &Path) -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        process::run(
            "python3",
            &["-c", "import pytest"],
            root,
            &[],
            Duration::from_secs(30),
        )
        .success()
    })
}

fn run_pytest(files: &RepoFiles, timeout: Duration) -> TestRun {
    let args = [
        "-m",
        "pytest",
        "-q",
        "-rfE",
        "--color=no",
        "-p",
        "no:cacheprovider",
    ];
    let out = process::run("python3", &args, &files.root, &ENV, timeout);
    if out.timed_out {
        return timed_out("pytest", &out);
    }
    let mut run = Python.parse_output(&out.stdout);
    // Exit 5: no tests collected.
    let no_tests = out.code == Some(5);
    if no_tests {
        run.details.push("pytest: no tests collected".into());
    }
    let mut run = run.finish("pytest", &out.combined(), out.success() || no_tests);
    run.log = crate::log_tail(&out.stdout);
    run.details.push("runner: pytest".into());
    run
}

fn run_unittest(files: &RepoFiles, timeout: Duration) -> TestRun {
    let args = ["-m", "unittest", "discover", "-v"];
    let out = process::run("python3", &args, &files.root, &ENV, timeout);
    if out.timed_out {
        return timed_out("unittest", &out);
    }
    let mut run = Python
        .parse_output(&out.stderr)
        .finish("unittest", &out.stderr, out.success());
    run.details.push(UNITTEST_RUNNER_DETAIL.into());
    run
}

/// The node id of pytest's short summary line `FAILED tests/test_x.py::test_y - AssertionError`
/// (or `ERROR ...`). unittest's closing `FAILED (failures=1)` is not one: a node id names a
/// `.py` file.
fn pytest_summary_failure(l: &str) -> Option<&str> {
    let rest = l
        .strip_prefix("FAILED ")
        .or_else(|| l.strip_prefix("ERROR "))?;
    let id = rest.split(" - ").next().unwrap_or(rest).trim();
    id.split("::")
        .next()
        .is_some_and(|f| f.ends_with(".py"))
        .then_some(id)
}

/// The file part of a pytest node id (`tests/test_x.py::test_y`).
fn pytest_file(id: &str) -> Option<String> {
    id.split("::")
        .next()
        .filter(|f| f.ends_with(".py"))
        .map(str::to_string)
}

/// `tests/test_x.py::test_name PASSED  [ 50%]` (pytest -v): the id and the verdict.
fn pytest_verbose_line(l: &str) -> Option<(&str, &str)> {
    let (id, rest) = l.split_once(' ')?;
    if !id.contains("::") {
        return None;
    }
    let verdict = first_word(rest);
    matches!(verdict, "PASSED" | "FAILED" | "ERROR").then_some((id, verdict))
}

/// pytest's summary: `==== 3 passed, 1 failed, 2 skipped in 0.12s ====`, `5 passed in 0.1s`,
/// `no tests ran in 0.01s`.
fn pytest_summary(l: &str) -> Option<(u32, u32, u32)> {
    let inner = l.trim_matches(|c: char| c == '=' || c == ' ');
    if inner.starts_with("no tests ran") {
        return Some((0, 0, 0));
    }
    let (body, time) = inner.rsplit_once(" in ")?;
    if !time.trim_end().ends_with('s') {
        return None;
    }
    comma_counts(body)
}

/// A failing test in `python -m unittest -v` output: `test_sub (tests.test_ops.OpsTest.test_sub)
/// ... FAIL` (3.11) or `test_div (pkg.test_math.MathTest) ... ERROR` (older): the dotted id
/// and the module's file.
fn unittest_failure(l: &str) -> Option<(String, Option<String>)> {
    let head = [" ... FAIL", " ... ERROR"]
        .iter()
        .find_map(|s| l.strip_suffix(s))?;
    let (name, rest) = head.split_once(" (")?;
    let qual = rest.trim_end_matches(')');
    let id = if qual.ends_with(&format!(".{name}")) {
        qual.to_string()
    } else {
        format!("{qual}.{name}")
    };
    // The module path: everything before the class (the first capitalised segment).
    let module: Vec<&str> = qual
        .split('.')
        .take_while(|p| !p.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
        .collect();
    let file = (!module.is_empty()).then(|| format!("{}.py", module.join("/")));
    Some((id, file))
}

/// The modules a test imports, as files: `from pkg.mod import x` -> `pkg/mod.py` (or
/// `pkg/mod/x.py`), relative imports from the test's directory, the root, `src/` and `lib/`.
fn imports(view: &dyn FileView, test_file: &str, text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let dir = parent(test_file);
    for (module, names, dots) in imported_modules(text) {
        let bases: Vec<String> = if dots > 0 {
            let mut d = dir.to_string();
            for _ in 1..dots {
                d = parent(&d).to_string();
            }
            vec![d]
        } else {
            vec![String::new(), "src".to_string(), "lib".to_string()]
        };
        let rel = module.replace('.', "/");
        for b in &bases {
            let stem = match (b.is_empty(), rel.is_empty()) {
                (true, _) => rel.clone(),
                (false, true) => b.clone(),
                (false, false) => format!("{b}/{rel}"),
            };
            if stem.is_empty() {
                continue;
            }
            let candidates = [format!("{stem}.py"), format!("{stem}/__init__.py")]
                .into_iter()
                .chain(names.iter().map(|n| format!("{stem}/{n}.py")));
            out.extend(candidates.filter(|c| view.exists(c)));
        }
    }
    // `__init__.py` that only re-exports is rarely where the bug is; keep it only when it is
    // the sole match.
    let inits: Vec<String> = out
        .iter()
        .filter(|p| p.ends_with("__init__.py"))
        .cloned()
        .collect();
    if inits.len() < out.len() {
        for i in inits {
            out.remove(&i);
        }
    }
    out
}

/// (module, imported names, leading dots) of every `from ... import` and `import` statement.
fn imported_modules(text: &str) -> Vec<(String, Vec<String>, usize)> {
    static FROM: OnceLock<Regex> = OnceLock::new();
    static IMPORT: OnceLock<Regex> = OnceLock::new();
    let from = FROM.get_or_init(|| {
        Regex::new(r"(?m)^[ \t]*from\s+(\.*)([\w\.]*)\s+import\s+(?:\(([^)]*)\)|([\w \t,\*]+))")
            .expect("valid regex")
    });
    let import = IMPORT.get_or_init(|| {
        Regex::new(r"(?m)^\s*import\s+([\w\.]+(?:\s*,\s*[\w\.]+)*)").expect("valid regex")
    });
    let mut modules = Vec::new();
    for c in from.captures_iter(text) {
        let dots = c.get(1).map_or(0, |m| m.as_str().len());
        let names = c
            .get(3)
            .or(c.get(4))
            .map_or("", |m| m.as_str())
            .split(',')
            .map(|n| first_word(n).to_string())
            .filter(|n| !n.is_empty() && n != "*")
            .collect();
        modules.push((c[2].to_string(), names, dots));
    }
    for c in import.captures_iter(text) {
        for m in c[1].split(',') {
            modules.push((m.trim().to_string(), Vec::new(), 0));
        }
    }
    modules
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemoryView;

    #[test]
    fn pytest_quiet_and_verbose_output() {
        let text = "\
..F                                                                      [100%]
=========================== short test summary info ============================
FAILED tests/test_ops.py::OpsTest::test_sub - AssertionError: 8 != 2
ERROR tests/test_db.py::test_conn - fixture missing
1 failed, 2 passed, 1 error in 0.05s";
        let run = Python.parse_output(text);
        assert!(run.ran);
        assert_eq!((run.passed, run.failed), (2, 2));
        assert_eq!(run.failing[0].id, "tests/test_ops.py::OpsTest::test_sub");
        assert_eq!(run.failing[0].file.as_deref(), Some("tests/test_ops.py"));
        assert_eq!(run.failing[1].id, "tests/test_db.py::test_conn");
        let verbose = "tests/test_x.py::test_a PASSED  [ 50%]\n\
                       tests/test_x.py::test_b FAILED  [100%]\n\
                       ==== 1 passed, 1 failed, 2 skipped in 0.12s ====";
        let run = Python.parse_output(verbose);
        assert_eq!((run.passed, run.failed, run.skipped), (1, 1, 2));
        assert_eq!(run.passing, ["tests/test_x.py::test_a"]);
        assert_eq!(run.failing[0].id, "tests/test_x.py::test_b");
    }

    #[test]
    fn unittest_output_new_and_old_formats() {
        let text = "\
test_add (tests.test_ops.OpsTest.test_add) ... ok
test_sub (tests.test_ops.OpsTest.test_sub) ... FAIL
test_div (pkg.test_math.MathTest) ... ERROR
----------------------------------------------------------------------
Ran 3 tests in 0.001s

FAILED (failures=1, errors=1)";
        let run = Python.parse_output(text);
        assert!(run.ran);
        assert_eq!((run.passed, run.failed), (1, 2));
        assert_eq!(
            run.failing.len(),
            2,
            "the closing FAILED line is no test: {run:?}"
        );
        assert_eq!(run.failing[0].id, "tests.test_ops.OpsTest.test_sub");
        assert_eq!(run.failing[0].file.as_deref(), Some("tests/test_ops.py"));
        assert_eq!(run.failing[1].id, "pkg.test_math.MathTest.test_div");
        assert_eq!(run.failing[1].file.as_deref(), Some("pkg/test_math.py"));
    }

    #[test]
    fn test_imports_resolve_to_modules() {
        let view = MemoryView::from_pairs(&[
            ("pkg/__init__.py", ""),
            ("pkg/ops.py", ""),
            ("src/calc/stats.py", ""),
            (
                "tests/test_ops.py",
                "from pkg import ops\nfrom calc.stats import mean\n",
            ),
        ]);
        let got = crate::sources_for_test(&view, "tests/test_ops.py");
        assert_eq!(got, ["pkg/ops.py", "src/calc/stats.py"]);
    }
}
