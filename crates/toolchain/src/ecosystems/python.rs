//! Python: every file compiled in memory as the build check; pytest when it is installed,
//! `python -m unittest discover` otherwise; `test_*.py`, `*_test.py`, `conftest.py` and files
//! under test directories; `from pkg.mod import x` to source files.
//!
//! Hanging tests: both runners get an alarm (`signal.setitimer`) around each test, armed by a
//! small plugin (pytest, loaded with `-p`) or driver (unittest) slopguard writes to a
//! temporary directory. A test past the per-test limit fails with "timed out after N s" and
//! the run goes on. Both also log each test's start and verdict to a progress file, so a suite
//! killed at its limit still tells which tests passed, failed, and which one hung.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use regex::Regex;

use super::python_hangs::{
    GUARD_MODULE, guard_dir, guarded_env, progress_file, read_progress, run_file,
};
use crate::process;
use crate::{
    Build, BuildResult, Check, Commands, Ecosystem, FailingTest, FileView, RepoFiles,
    RunnerCommand, Spectrum, TestLimits, TestRun, Tool, comma_counts, command_name, cut_at_timeout,
    file_name, first_word, in_test_dir, missing, parent,
};

/// Python with pytest or unittest.
pub struct Python;

/// The detail a test run carries when unittest ran because pytest is not installed.
pub(super) const UNITTEST_RUNNER_DETAIL: &str = "runner: python -m unittest (pytest not installed)";

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

    fn test(&self, files: &RepoFiles, limits: &TestLimits) -> TestRun {
        if !process::on_path("python3") {
            return TestRun::not_run(&missing("python3", "install Python 3"));
        }
        let progress = progress_file();
        let env = guarded_env(limits, progress.as_deref());
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let run = if has_pytest(&files.root) {
            run_pytest(files, limits, &env, progress.as_deref())
        } else {
            run_unittest(files, limits, &env, progress.as_deref())
        };
        if let Some(p) = progress {
            let _ = std::fs::remove_file(p);
        }
        run
    }

    /// pytest only: the guard plugin records each test's lines (`SLOPGUARD_COVERAGE`).
    fn coverage(&self, files: &RepoFiles, limits: &TestLimits) -> Option<Spectrum> {
        if !process::on_path("python3") || !has_pytest(&files.root) {
            return None;
        }
        let out_file = run_file("coverage", "json")?;
        let mut env = guarded_env(limits, None);
        env.push(("SLOPGUARD_COVERAGE".into(), out_file.display().to_string()));
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let mut args = PYTEST_ARGS.to_vec();
        args.extend(["-p", GUARD_MODULE]);
        process::run("python3", &args, &files.root, &env, limits.suite);
        let text = std::fs::read_to_string(&out_file).ok();
        let _ = std::fs::remove_file(&out_file);
        Spectrum::from_recorded_json(&text?)
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

/// pytest quiet, its failures summarised, no colour, no cache written into the project.
const PYTEST_ARGS: [&str; 7] = [
    "-m",
    "pytest",
    "-q",
    "-rfE",
    "--color=no",
    "-p",
    "no:cacheprovider",
];

fn run_pytest(
    files: &RepoFiles,
    limits: &TestLimits,
    env: &[(&str, &str)],
    progress: Option<&Path>,
) -> TestRun {
    let mut args = PYTEST_ARGS.to_vec();
    if guard_dir().is_some() {
        args.extend(["-p", GUARD_MODULE]);
    }
    let out = process::run("python3", &args, &files.root, env, limits.suite);
    if out.timed_out {
        return cut_run("pytest", &out, progress, &out.stdout);
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

fn run_unittest(
    files: &RepoFiles,
    limits: &TestLimits,
    env: &[(&str, &str)],
    progress: Option<&Path>,
) -> TestRun {
    let args = if guard_dir().is_some() {
        ["-m", GUARD_MODULE, "", ""]
    } else {
        ["-m", "unittest", "discover", "-v"]
    };
    let args: Vec<&str> = args.into_iter().filter(|a| !a.is_empty()).collect();
    let out = process::run("python3", &args, &files.root, env, limits.suite);
    if out.timed_out {
        let mut run = cut_run("unittest", &out, progress, &out.stderr);
        run.details.push(UNITTEST_RUNNER_DETAIL.into());
        return run;
    }
    let parsed = without_load_failures(Python.parse_output(&out.stderr), &out.stderr);
    let mut run = parsed.finish("unittest", &out.stderr, out.success());
    run.details.push(UNITTEST_RUNNER_DETAIL.into());
    run
}

/// unittest's stand-in for a test module it could not import
/// (`test_x (unittest.loader._FailedTest.test_x) ... ERROR`): no test of the project failed,
/// its module did not load (most often because it imports pytest, which is not installed).
const UNITTEST_LOAD_FAILURE: &str = "unittest.loader._FailedTest";

/// `run` without unittest's stand-ins for modules that did not load: they are never failing
/// tests (a planner would set out to fix invented ids). The run says how many modules did not
/// load, which module they missed and how to install it; a run where nothing else ran did not
/// run, so the tests' state is unknown, not failing.
fn without_load_failures(mut run: TestRun, output: &str) -> TestRun {
    let before = run.failing.len();
    run.failing
        .retain(|f| !f.id.contains(UNITTEST_LOAD_FAILURE));
    let unloaded = before - run.failing.len();
    if unloaded == 0 {
        return run;
    }
    run.failed = run.failed.saturating_sub(unloaded as u32);
    let missing: BTreeSet<&str> = output
        .lines()
        .filter_map(|l| l.split("No module named '").nth(1))
        .filter_map(|rest| rest.split('\'').next())
        .collect();
    let mut why = format!("unittest: {unloaded} test module(s) could not be imported");
    if !missing.is_empty() {
        let names: Vec<&str> = missing.iter().copied().collect();
        why.push_str(&format!(" (no module named {})", names.join(", ")));
    }
    why.push_str(if missing.contains("pytest") {
        ": the tests need pytest (install it: pip install pytest)"
    } else {
        ": install the project's test dependencies"
    });
    if run.total() == 0 {
        return TestRun::not_run(&why);
    }
    run.details.push(why);
    run
}

/// A run killed at the suite limit: the verdicts the progress file logged, else what the
/// partial output shows; the test that started last without a verdict is the one that hangs.
fn cut_run(tool: &str, out: &process::RunOutput, progress: Option<&Path>, text: &str) -> TestRun {
    let (logged, open) = read_progress(progress);
    let run = if logged.recognised() {
        logged
    } else {
        Python.parse_output(text)
    };
    let hanging = open
        .map(|id| {
            let file = pytest_file(&id).or_else(|| unittest_file(&id));
            vec![FailingTest { id, file }]
        })
        .unwrap_or_default();
    cut_at_timeout(tool, out, run, hanging, text)
}

/// The module file of a dotted unittest id (`tests.test_ops.OpsTest.test_sub` ->
/// `tests/test_ops.py`): the segments before the first capitalised one.
pub(super) fn unittest_file(id: &str) -> Option<String> {
    if id.contains("::") {
        return None;
    }
    let module: Vec<&str> = id
        .split('.')
        .take_while(|p| !p.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
        .collect();
    (!module.is_empty() && module.len() < id.split('.').count())
        .then(|| format!("{}.py", module.join("/")))
}

/// The node id of pytest's short summary line `FAILED tests/test_x.py::test_y - AssertionError`
/// (or `ERROR ...`). unittest's closing `FAILED (failures=1)` is not one: a node id names a
/// `.py` file.
fn pytest_summary_failure(l: &str) -> Option<&str> {
    // pytest 9 names a failed subtest `SUBFAILED(n=3, step=2) tests/t.py::T::test_x - ...`.
    let subtest = l
        .strip_prefix("SUBFAILED")
        .and_then(|r| r.strip_prefix('('))
        .and_then(|r| r.split_once(") "))
        .map(|(_, rest)| rest);
    let rest = subtest
        .or_else(|| l.strip_prefix("FAILED "))
        .or_else(|| l.strip_prefix("ERROR "))?;
    let id = rest.split(" - ").next().unwrap_or(rest).trim();
    id.split("::")
        .next()
        .is_some_and(|f| f.ends_with(".py"))
        .then_some(id)
}

/// The file part of a pytest node id (`tests/test_x.py::test_y`).
pub(super) fn pytest_file(id: &str) -> Option<String> {
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
/// `no tests ran in 0.01s`; a run of a minute or more adds the clock time: `1 failed, 10
/// passed in 60.16s (0:01:00)`.
fn pytest_summary(l: &str) -> Option<(u32, u32, u32)> {
    let inner = l.trim_matches(|c: char| c == '=' || c == ' ');
    if inner.starts_with("no tests ran") {
        return Some((0, 0, 0));
    }
    let (body, time) = inner.rsplit_once(" in ")?;
    let time = match time.split_once(" (") {
        Some((secs, clock)) if clock.ends_with(')') => secs,
        _ => time,
    };
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
            vec![relative_base(dir, dots)]
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
            for c in candidates.filter(|c| view.exists(c)) {
                if c.ends_with("__init__.py") {
                    out.extend(re_exported_from(view, &c, &names));
                }
                out.insert(c);
            }
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

/// The package's own modules that its `__init__.py` (at `init`) imports `names` from (`from
/// .pages import paginate`): where a test that imports `paginate` from the package finds its
/// code. Every module it imports from relatively when `names` is empty (`import pager`) or
/// holds `*`.
fn re_exported_from(view: &dyn FileView, init: &str, names: &[String]) -> Vec<String> {
    let Some(text) = view.read(init) else {
        return Vec::new();
    };
    let package = parent(init);
    let any = names.is_empty() || names.iter().any(|n| n == "*");
    let mut out = Vec::new();
    let own = format!("{}.", file_name(package));
    for (module, exported, dots) in imported_modules(&text) {
        // `from .duration import X`, or the same spelled absolutely with the package's own
        // name (`from isodate.duration import X` in `isodate/__init__.py`).
        let (module, dots) = match module.strip_prefix(&own) {
            Some(rest) if dots == 0 && !package.is_empty() => (rest.to_string(), 1),
            _ => (module, dots),
        };
        if dots == 0 || module.is_empty() {
            continue;
        }
        if !any && !exported.iter().any(|e| e == "*" || names.contains(e)) {
            continue;
        }
        let base = relative_base(package, dots);
        let rel = module.replace('.', "/");
        let stem = if base.is_empty() {
            rel
        } else {
            format!("{base}/{rel}")
        };
        out.extend(
            [format!("{stem}.py"), format!("{stem}/__init__.py")]
                .into_iter()
                .filter(|c| view.exists(c)),
        );
    }
    out
}

/// The directory a relative import with `dots` leading dots starts from, in the package
/// directory `dir` (`.` is `dir` itself, `..` its parent).
fn relative_base(dir: &str, dots: usize) -> String {
    let mut base = dir.to_string();
    for _ in 1..dots {
        base = parent(&base).to_string();
    }
    base
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

    #[test]
    fn pytest_9_subtest_failures_and_summary_are_read() {
        let text = "\
=========================== short test summary info ============================
SUBFAILED(n=5) tests/test_more.py::WindowedTests::test_basic - AssertionError...
SUBFAILED(n=3, step=2) tests/test_more.py::WindowedTests::test_step - Asserti...
7 failed, 28 passed, 7 subtests passed in 0.13s";
        let run = Python.parse_output(text);
        assert!(run.ran);
        assert_eq!((run.passed, run.failed), (35, 7));
        // The same suite with the bug fixed counts as many.
        let fixed = Python.parse_output("28 passed, 14 subtests passed in 0.08s");
        assert_eq!(fixed.passed + fixed.failed, run.passed + run.failed);
        let ids: Vec<&str> = run.failing.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "tests/test_more.py::WindowedTests::test_basic",
                "tests/test_more.py::WindowedTests::test_step"
            ]
        );
    }

    #[test]
    fn a_name_a_package_re_exports_maps_to_the_module_that_defines_it() {
        let view = MemoryView::from_pairs(&[
            (
                "pager/__init__.py",
                "from .pages import Page, paginate\nfrom .links import page_links\n",
            ),
            ("pager/pages.py", "def paginate(): pass\n"),
            ("pager/links.py", "def page_links(): pass\n"),
            ("tests/test_pages.py", ""),
        ]);
        let got = imports(&view, "tests/test_pages.py", "from pager import paginate\n");
        assert_eq!(got.into_iter().collect::<Vec<_>>(), ["pager/pages.py"]);
        let all = imports(&view, "tests/test_pages.py", "import pager\n");
        assert_eq!(
            all.into_iter().collect::<Vec<_>>(),
            ["pager/links.py", "pager/pages.py"]
        );
        // The same re-export spelled with the package's own name.
        let view = MemoryView::from_pairs(&[
            (
                "isodate/__init__.py",
                "from isodate.duration import Duration
from isodate.isodates import parse_date
",
            ),
            (
                "isodate/duration.py",
                "class Duration: pass
",
            ),
            (
                "isodate/isodates.py",
                "def parse_date(): pass
",
            ),
            ("tests/test_duration.py", ""),
        ]);
        let got = imports(
            &view,
            "tests/test_duration.py",
            "from isodate import Duration
",
        );
        assert_eq!(got.into_iter().collect::<Vec<_>>(), ["isodate/duration.py"]);
    }
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
    fn a_summary_of_a_minute_or_more_is_read() {
        // pytest adds the clock time from a minute on; a suite with a test cut at a
        // minute's limit was read as one that never ran.
        let text = "FAILED tests/test_it.py::test_partition_all - Failed: timed out\n\
                    1 failed, 10 passed in 60.16s (0:01:00)";
        let run = Python.parse_output(text);
        assert!(run.ran);
        assert_eq!((run.passed, run.failed), (10, 1));
        let long = "==== 3 passed in 3725.01s (1:02:05) ====";
        assert_eq!(Python.parse_output(long).passed, 3);
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
    fn modules_unittest_could_not_import_are_no_failing_tests() {
        let text = "\
test_requests (unittest.loader._FailedTest.test_requests) ... ERROR
test_utils (unittest.loader._FailedTest.test_utils) ... ERROR

======================================================================
ERROR: test_requests (unittest.loader._FailedTest.test_requests)
----------------------------------------------------------------------
ImportError: Failed to import test module: test_requests
Traceback (most recent call last):
ModuleNotFoundError: No module named 'pytest'

----------------------------------------------------------------------
Ran 2 tests in 0.001s

FAILED (errors=2)";
        let run = without_load_failures(Python.parse_output(text), text);
        assert!(!run.ran, "nothing of the project ran: {run:?}");
        assert!(run.failing.is_empty(), "{run:?}");
        assert!(
            run.details[0]
                .contains("2 test module(s) could not be imported (no module named pytest)"),
            "{run:?}"
        );
        assert!(run.details[0].contains("pip install pytest"), "{run:?}");
        // Beside tests that ran, the stand-in is dropped and the real failure kept.
        let mixed = format!(
            "test_sub (tests.test_ops.OpsTest.test_sub) ... FAIL\ntest_ok (tests.test_ops.OpsTest.test_ok) ... ok\n{text}"
        )
        .replace("Ran 2 tests", "Ran 4 tests")
        .replace("FAILED (errors=2)", "FAILED (failures=1, errors=2)");
        let run = without_load_failures(Python.parse_output(&mixed), &mixed);
        assert_eq!((run.passed, run.failed), (1, 1), "{run:?}");
        assert_eq!(run.failing.len(), 1, "{run:?}");
        assert_eq!(run.failing[0].id, "tests.test_ops.OpsTest.test_sub");
        assert!(
            run.details
                .iter()
                .any(|d| d.contains("could not be imported"))
        );
    }

    /// The unittest driver (the runner without pytest) cuts a test that loops forever, names
    /// it failing and keeps the other verdicts.
    #[test]
    fn the_unittest_driver_cuts_a_hanging_test() {
        if !process::on_path("python3") {
            eprintln!("NOTICE: python3 not installed: the unittest driver test is skipped");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("tests")).unwrap();
        std::fs::write(root.join("tests/__init__.py"), "").unwrap();
        std::fs::write(
            root.join("tests/test_calc.py"),
            "import unittest\n\n\nclass CalcTest(unittest.TestCase):\n    \
             def test_add(self):\n        self.assertEqual(2 + 3, 5)\n\n    \
             def test_hangs(self):\n        while True:\n            pass\n\n    \
             def test_wrong(self):\n        self.assertEqual(2 + 2, 5)\n",
        )
        .unwrap();
        let files = RepoFiles::walk(root);
        let limits = TestLimits {
            suite: Duration::from_secs(60),
            per_test: Duration::from_secs(2),
        };
        let progress = progress_file();
        let env = guarded_env(&limits, progress.as_deref());
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let run = run_unittest(&files, &limits, &env, progress.as_deref());
        if let Some(p) = &progress {
            let _ = std::fs::remove_file(p);
        }
        assert_eq!((run.passed, run.failed), (1, 2), "{run:#?}");
        let hang = run
            .failing
            .iter()
            .find(|f| f.id == "tests.test_calc.CalcTest.test_hangs")
            .unwrap_or_else(|| panic!("{run:#?}"));
        assert_eq!(hang.file.as_deref(), Some("tests/test_calc.py"));
        assert!(
            run.log
                .contains("tests.test_calc.CalcTest.test_hangs timed out after 2 s"),
            "{}",
            run.log
        );
        // Killed at the suite limit instead: the driver's progress names the hanging test. (The
        // limit leaves a loaded machine time to start Python and run `test_add` first: 10 s
        // was not enough at load average 8.)
        let limits = TestLimits {
            suite: Duration::from_secs(20),
            per_test: Duration::from_secs(60),
        };
        let progress = progress_file();
        let env = guarded_env(&limits, progress.as_deref());
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let run = run_unittest(&files, &limits, &env, progress.as_deref());
        if let Some(p) = &progress {
            let _ = std::fs::remove_file(p);
        }
        assert_eq!(
            run.passing,
            ["tests.test_calc.CalcTest.test_add"],
            "{run:#?}"
        );
        assert!(
            run.details
                .iter()
                .any(|d| d.contains("the test that hangs: tests.test_calc.CalcTest.test_hangs")),
            "{run:#?}"
        );
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
