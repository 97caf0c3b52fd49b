//! Analysis: the eleven metric analyzers, the weighted overall score and the repo brief.
//!
//! [`analyze`] walks the repository once, runs the static analyzers (tests, CI, README, docs,
//! code quality, dependencies, security, license, structure) on the file list, and runs the
//! project's real toolchain for build and test results (cargo, pytest or unittest, go, node/npm)
//! with a timeout; a missing toolchain is [`Status::Unknown`], never a pass.

mod metrics;
mod results;

pub use metrics::is_source;
pub use slopguard_toolchain::{FailingTest, RepoFiles, TestRun, is_test_file};

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use slopguard_fingerprint::{Fingerprint, LanguageCount};

/// Score at or above which a metric passes.
pub const PASS_AT: f64 = 0.8;
/// Score at or above which a metric warns (below: fails).
pub const WARN_AT: f64 = 0.5;

/// Verdict of one metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Score >= [`PASS_AT`].
    Pass,
    /// Score >= [`WARN_AT`].
    Warn,
    /// Score below [`WARN_AT`].
    Fail,
    /// Could not be measured (missing toolchain, timeout, nothing to measure).
    Unknown,
}

impl Status {
    /// The status of a score.
    pub fn of(score: f64) -> Status {
        if score >= PASS_AT {
            Status::Pass
        } else if score >= WARN_AT {
            Status::Warn
        } else {
            Status::Fail
        }
    }

    /// `pass`, `warn`, `fail`, `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Warn => "warn",
            Status::Fail => "fail",
            Status::Unknown => "unknown",
        }
    }
}

/// One metric's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metric {
    /// Stable id: `build`, `test_results`, `tests`, `ci`, `readme`, `docs`, `code_quality`,
    /// `deps`, `security`, `license`, `structure`.
    pub name: String,
    /// Human title.
    pub title: String,
    /// 0..1 (`None` when unknown).
    pub score: Option<f64>,
    /// Verdict.
    pub status: Status,
    /// Weight in the overall score.
    pub weight: f64,
    /// Findings, one per line, written for humans and the planner.
    pub details: Vec<String>,
}

impl Metric {
    fn scored(name: &str, title: &str, weight: f64, score: f64, details: Vec<String>) -> Self {
        let score = score.clamp(0.0, 1.0);
        Self {
            name: name.into(),
            title: title.into(),
            score: Some((score * 1000.0).round() / 1000.0),
            status: Status::of(score),
            weight,
            details,
        }
    }

    fn unknown(name: &str, title: &str, weight: f64, details: Vec<String>) -> Self {
        Self {
            name: name.into(),
            title: title.into(),
            score: None,
            status: Status::Unknown,
            weight,
            details,
        }
    }
}

/// The project summary the planner and worker see.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RepoBrief {
    /// Languages by file count.
    pub languages: Vec<String>,
    /// Stack tags (`rust/cargo`, `python`, `go`, `node/npm`, ...).
    pub stack: Vec<String>,
    /// Commands that build the project.
    pub build_commands: Vec<String>,
    /// Commands that run its tests.
    pub test_commands: Vec<String>,
    /// Entry points.
    pub entry_points: Vec<String>,
    /// Build manifests.
    pub manifests: Vec<String>,
    /// Frameworks inferred from dependencies.
    pub frameworks: Vec<String>,
}

impl RepoBrief {
    /// A few lines of text for prompts.
    pub fn to_text(&self) -> String {
        let j = |v: &[String]| {
            if v.is_empty() {
                "(none)".to_string()
            } else {
                v.join(", ")
            }
        };
        format!(
            "Languages: {}\nStack: {}\nBuild: {}\nTest: {}\nEntry points: {}\nManifests: {}\nFrameworks: {}",
            j(&self.languages),
            j(&self.stack),
            j(&self.build_commands),
            j(&self.test_commands),
            j(&self.entry_points),
            j(&self.manifests),
            j(&self.frameworks)
        )
    }
}

/// The brief's Python test command when the tests ran with unittest.
const PYTHON_UNITTEST_COMMAND: &str = "python -m unittest discover";

impl RepoBrief {
    /// Makes the brief's test commands name the runner the test-results analyzer actually
    /// used. [`brief`] assumes pytest for Python; when pytest is not installed the analyzer
    /// runs `python -m unittest discover` instead and says so in its `runner: ...` detail, and
    /// the brief (what the planner and the worker read) must not then claim `python -m pytest`
    /// while the metric beside it says unittest. Without a runner detail (toolchain not run)
    /// the brief is left as it is.
    pub fn align_test_commands(&mut self, test_details: &[String]) {
        let unittest_ran = test_details
            .iter()
            .any(|d| d.starts_with("runner: python -m unittest"));
        if unittest_ran {
            for cmd in &mut self.test_commands {
                if cmd == "python -m pytest" {
                    *cmd = PYTHON_UNITTEST_COMMAND.into();
                }
            }
        }
    }
}

/// The analysis of a repository.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnalysisReport {
    /// The analysed root.
    pub root: String,
    /// The eleven metrics, in a stable order.
    pub metrics: Vec<Metric>,
    /// Weighted mean of the known metrics' scores (0..1).
    pub overall: f64,
    /// Failing tests found by the test-results analyzer.
    pub failing_tests: Vec<FailingTest>,
    /// The repo brief.
    pub brief: RepoBrief,
    /// The fingerprint used.
    pub fingerprint: Fingerprint,
    /// Wall-clock time of the analysis.
    pub elapsed_ms: u64,
    /// The test run itself, when the toolchain ran (not serialized): a run whose tree has not
    /// changed since takes it as its test baseline instead of running the suite again.
    #[serde(skip)]
    pub test_run: Option<TestRun>,
}

impl AnalysisReport {
    /// The metric called `name`.
    pub fn metric(&self, name: &str) -> Option<&Metric> {
        self.metrics.iter().find(|m| m.name == name)
    }

    /// The report as planner input: one line per metric with its details.
    pub fn to_prompt_text(&self) -> String {
        let mut s = format!("Overall score: {:.2}\n", self.overall);
        for m in &self.metrics {
            let score = m
                .score
                .map(|x| format!("{x:.2}"))
                .unwrap_or_else(|| "n/a".into());
            s.push_str(&format!(
                "- {} [{}] {}\n",
                m.title,
                m.status.as_str(),
                score
            ));
            for d in m.details.iter().take(6) {
                s.push_str(&format!("    * {d}\n"));
            }
        }
        s
    }
}

/// Analysis options.
#[derive(Debug, Clone)]
pub struct AnalyzeOptions {
    /// Run the toolchain for build and test results (off: both are unknown).
    pub run_toolchain: bool,
    /// Timeout of each build command.
    pub build_timeout: Duration,
    /// Timeout of each test command.
    pub test_timeout: Duration,
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        Self {
            run_toolchain: true,
            build_timeout: Duration::from_secs(600),
            test_timeout: Duration::from_secs(600),
        }
    }
}

fn language_of(path: &str) -> Option<&'static str> {
    let ext = path.rsplit_once('.').map(|(_, e)| e)?;
    Some(match ext {
        "py" => "Python",
        "rs" => "Rust",
        "go" => "Go",
        "js" | "mjs" | "cjs" | "jsx" => "JavaScript",
        "ts" | "tsx" | "mts" | "cts" => "TypeScript",
        "java" => "Java",
        "c" | "h" => "C",
        "cc" | "cpp" | "cxx" | "hpp" | "hh" => "C++",
        "rb" => "Ruby",
        "sh" | "bash" => "Bash",
        _ => return None,
    })
}

/// The fingerprint used by analysis and planning: `slopguard_fingerprint::compute` (declared
/// dependencies, frameworks, entry points), falling back to [`local_fingerprint`] when the
/// root cannot be read by it.
pub fn fingerprint(root: &Path, files: &RepoFiles) -> Fingerprint {
    match slopguard_fingerprint::compute(root) {
        Ok(fp) => fp,
        Err(e) => {
            tracing::warn!(%e, "fingerprint failed; using the local summary");
            local_fingerprint(files)
        }
    }
}

/// A small local fingerprint (languages, manifests, stack, entry points; no dependencies).
pub fn local_fingerprint(files: &RepoFiles) -> Fingerprint {
    let mut langs: BTreeMap<&str, usize> = BTreeMap::new();
    for f in &files.files {
        if let Some(l) = language_of(f) {
            *langs.entry(l).or_default() += 1;
        }
    }
    let mut languages: Vec<LanguageCount> = langs
        .into_iter()
        .map(|(name, files)| LanguageCount {
            name: name.to_string(),
            files,
        })
        .collect();
    languages.sort_by(|a, b| b.files.cmp(&a.files).then(a.name.cmp(&b.name)));
    let manifests = [
        "Cargo.toml",
        "package.json",
        "pyproject.toml",
        "setup.py",
        "setup.cfg",
        "requirements.txt",
        "go.mod",
        "Gemfile",
        "pom.xml",
        "build.gradle",
    ];
    let manifest_files: Vec<String> = files
        .files
        .iter()
        .filter(|f| {
            let base = f.rsplit('/').next().unwrap_or(f);
            manifests.contains(&base) && f.matches('/').count() <= 2
        })
        .cloned()
        .collect();
    let mut stack: Vec<String> = slopguard_toolchain::detect(files)
        .iter()
        .map(|e| e.stack_tag(files))
        .collect();
    if files
        .files
        .iter()
        .any(|f| f.starts_with(".github/workflows/"))
    {
        stack.push("github-actions".to_string());
    }
    let entry_candidates = [
        "src/main.rs",
        "main.go",
        "main.py",
        "app.py",
        "manage.py",
        "index.js",
        "src/index.js",
        "src/index.ts",
        "server.js",
    ];
    let mut entrypoints: Vec<String> = files
        .files
        .iter()
        .filter(|f| {
            entry_candidates.contains(&f.as_str())
                || f.ends_with("/__main__.py")
                || (f.starts_with("cmd/") && f.ends_with("/main.go"))
                || (f.starts_with("src/bin/") && f.ends_with(".rs"))
        })
        .cloned()
        .collect();
    if let Some(pkg) = files.read("package.json")
        && let Ok(v) = serde_json::from_str::<serde_json::Value>(&pkg)
        && let Some(main) = v.get("main").and_then(|m| m.as_str())
    {
        let main = main.trim_start_matches("./").to_string();
        if !entrypoints.contains(&main) {
            entrypoints.push(main);
        }
    }
    Fingerprint {
        commit_sha: None,
        languages,
        stack,
        manifest_files,
        entrypoints,
        ..Fingerprint::default()
    }
}

/// The brief: stack, commands, entry points.
pub fn brief(files: &RepoFiles, fp: &Fingerprint) -> RepoBrief {
    let mut b = RepoBrief {
        languages: fp
            .languages
            .iter()
            .map(|l| format!("{} ({} files)", l.name, l.files))
            .collect(),
        stack: fp.stack.clone(),
        entry_points: fp.entrypoints.clone(),
        manifests: fp.manifest_files.clone(),
        frameworks: fp.declared_frameworks.clone(),
        ..RepoBrief::default()
    };
    for eco in slopguard_toolchain::detect(files) {
        let commands = eco.commands(files);
        b.build_commands.push(commands.build);
        b.test_commands.push(commands.test);
    }
    b
}

/// Runs every analyzer on `root`.
pub fn analyze(root: &Path, opts: &AnalyzeOptions) -> AnalysisReport {
    let start = Instant::now();
    let files = RepoFiles::walk(root);
    let fp = fingerprint(root, &files);
    let (build, tests_run) = if opts.run_toolchain {
        (
            results::build_metric(&slopguard_toolchain::run_builds(&files, opts.build_timeout)),
            slopguard_toolchain::run_tests(&files, opts.test_timeout),
        )
    } else {
        (
            Metric::unknown(
                "build",
                "Build",
                metrics::W_BUILD,
                vec!["toolchain not run".into()],
            ),
            TestRun::not_run("toolchain not run"),
        )
    };
    let test_metric = results::test_results_metric(&tests_run);
    let mut all = vec![
        build,
        test_metric,
        metrics::tests(&files),
        metrics::ci(&files),
        metrics::readme(&files),
        metrics::docs(&files),
        metrics::code_quality(&files),
        metrics::deps(&files),
        metrics::security(&files),
        metrics::license(&files),
        metrics::structure(&files),
    ];
    for m in &mut all {
        if let Some(s) = m.score {
            m.status = Status::of(s);
        }
    }
    let (sum, wsum) = all
        .iter()
        .filter_map(|m| m.score.map(|s| (s * m.weight, m.weight)))
        .fold((0.0, 0.0), |(a, b), (x, w)| (a + x, b + w));
    let overall = if wsum > 0.0 {
        ((sum / wsum) * 1000.0).round() / 1000.0
    } else {
        0.0
    };
    let mut brief = brief(&files, &fp);
    brief.align_test_commands(&tests_run.details);
    AnalysisReport {
        root: root.display().to_string(),
        brief,
        metrics: all,
        overall,
        failing_tests: tests_run.failing.clone(),
        fingerprint: fp,
        elapsed_ms: start.elapsed().as_millis() as u64,
        test_run: opts.run_toolchain.then_some(tests_run),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_thresholds() {
        assert_eq!(Status::of(0.8), Status::Pass);
        assert_eq!(Status::of(0.79), Status::Warn);
        assert_eq!(Status::of(0.5), Status::Warn);
        assert_eq!(Status::of(0.49), Status::Fail);
    }

    #[test]
    fn walk_skips_dependency_dirs_and_detects_stack() {
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path();
        std::fs::create_dir_all(r.join("node_modules/x")).unwrap();
        std::fs::create_dir_all(r.join("src")).unwrap();
        std::fs::write(r.join("node_modules/x/index.js"), "").unwrap();
        std::fs::write(r.join("package.json"), r#"{"main": "./src/app.js"}"#).unwrap();
        std::fs::write(r.join("src/app.js"), "").unwrap();
        let files = RepoFiles::walk(r);
        assert_eq!(files.files, vec!["package.json", "src/app.js"]);
        let found: Vec<&str> = slopguard_toolchain::detect(&files)
            .iter()
            .map(|e| e.name())
            .collect();
        assert_eq!(found, ["node"]);
        let fp = local_fingerprint(&files);
        assert_eq!(fp.entrypoints, vec!["src/app.js"]);
        assert_eq!(fp.stack, vec!["node/npm"]);
        let b = brief(&files, &fp);
        assert_eq!(b.test_commands, vec!["npm test"]);
    }

    #[test]
    fn brief_names_the_python_runner_that_ran() {
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path();
        std::fs::write(r.join("ops.py"), "def add(a, b):\n    return a + b\n").unwrap();
        std::fs::create_dir_all(r.join("tests")).unwrap();
        std::fs::write(r.join("tests/__init__.py"), "").unwrap();
        std::fs::write(
            r.join("tests/test_ops.py"),
            "import unittest\nfrom ops import add\n\n\nclass OpsTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(1, 2), 3)\n",
        )
        .unwrap();
        let files = RepoFiles::walk(r);
        let fp = local_fingerprint(&files);
        let mut b = brief(&files, &fp);
        assert_eq!(b.test_commands, vec!["python -m pytest"]);
        // The analyzer fell back to unittest: the brief follows.
        let unittest = vec![
            "1 passed".to_string(),
            "runner: python -m unittest (pytest not installed)".to_string(),
        ];
        b.align_test_commands(&unittest);
        assert_eq!(b.test_commands, vec![PYTHON_UNITTEST_COMMAND]);
        // pytest ran, or nothing ran: the brief keeps pytest.
        for details in [
            vec!["runner: pytest".to_string()],
            vec!["toolchain not run".into()],
        ] {
            let mut b = brief(&files, &fp);
            b.align_test_commands(&details);
            assert_eq!(b.test_commands, vec!["python -m pytest"]);
        }
    }

    #[test]
    fn analyze_brief_and_test_metric_agree_on_the_runner() {
        // Whichever runner this machine has, the brief's Test line and the test metric's
        // `runner:` detail name the same one.
        if !slopguard_toolchain::process::on_path("python3") {
            eprintln!("NOTICE: python3 not on PATH: runner agreement not checked");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path();
        std::fs::write(r.join("ops.py"), "def add(a, b):\n    return a + b\n").unwrap();
        std::fs::write(
            r.join("test_ops.py"),
            "import unittest\nfrom ops import add\n\n\nclass OpsTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(1, 2), 3)\n",
        )
        .unwrap();
        let report = analyze(
            r,
            &AnalyzeOptions {
                run_toolchain: true,
                ..AnalyzeOptions::default()
            },
        );
        let details = &report.metric("test_results").expect("test metric").details;
        let runner = details
            .iter()
            .find(|d| d.starts_with("runner: "))
            .unwrap_or_else(|| panic!("no runner detail in {details:?}"));
        let test = &report.brief.test_commands;
        if runner.starts_with("runner: pytest") {
            assert_eq!(test, &vec!["python -m pytest".to_string()], "{runner}");
        } else {
            assert_eq!(test, &vec![PYTHON_UNITTEST_COMMAND.to_string()], "{runner}");
        }
    }

    #[test]
    fn a_ruby_project_is_analysed_through_its_ecosystem_module() {
        // The Ruby ecosystem is one module of the toolchain crate and one registry line; the
        // analysis reads its failing tests, build and brief with no code of its own.
        if !slopguard_toolchain::process::on_path("ruby") {
            eprintln!("NOTICE: ruby not on PATH: the Ruby analysis is not checked");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path();
        std::fs::create_dir_all(r.join("lib")).unwrap();
        std::fs::create_dir_all(r.join("test")).unwrap();
        std::fs::write(r.join("Gemfile"), "source 'https://rubygems.org'\n").unwrap();
        std::fs::write(
            r.join("lib/stats.rb"),
            "module Stats\n  def self.mean(xs) = xs.sum / (xs.size - 1)\nend\n",
        )
        .unwrap();
        std::fs::write(
            r.join("test/stats_test.rb"),
            "require 'minitest/autorun'\nrequire 'stats'\n\nclass StatsTest < Minitest::Test\n  def test_mean\n    assert_equal 2, Stats.mean([1, 2, 3])\n  end\nend\n",
        )
        .unwrap();
        let report = analyze(r, &AnalyzeOptions::default());
        assert_eq!(
            report.failing_tests,
            vec![FailingTest {
                id: "StatsTest#test_mean".into(),
                file: Some("test/stats_test.rb".into()),
            }]
        );
        assert_eq!(report.metric("build").unwrap().status, Status::Pass);
        assert_eq!(
            report.brief.test_commands,
            vec!["ruby -Ilib -Itest test/**/*_test.rb"]
        );
        let files = RepoFiles::walk(r);
        assert_eq!(
            slopguard_toolchain::sources_for_test(&files, "test/stats_test.rb"),
            vec!["lib/stats.rb"]
        );
    }
}
