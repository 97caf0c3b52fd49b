//! The static analyzers: tests, CI, README, docs, code quality, dependencies, security, license,
//! structure. Pure functions of the file list and contents.

use std::sync::OnceLock;

use regex::Regex;

use super::{Metric, RepoFiles, is_test_file};

/// Weight of `build`.
pub(super) const W_BUILD: f64 = 2.0;
/// Weight of `test_results`.
pub(super) const W_TEST_RESULTS: f64 = 2.0;
const W_TESTS: f64 = 1.5;
const W_CI: f64 = 0.75;
const W_README: f64 = 1.0;
const W_DOCS: f64 = 0.75;
const W_QUALITY: f64 = 1.0;
const W_DEPS: f64 = 0.75;
const W_SECURITY: f64 = 1.5;
const W_LICENSE: f64 = 0.5;
const W_STRUCTURE: f64 = 0.5;

const SOURCE_EXTS: &[&str] = &[
    "py", "rs", "go", "js", "mjs", "cjs", "jsx", "ts", "tsx", "java", "c", "h", "cc", "cpp", "hpp",
    "rb", "sh",
];

fn ext(f: &str) -> &str {
    let base = f.rsplit('/').next().unwrap_or(f);
    base.rsplit_once('.').map(|(_, e)| e).unwrap_or("")
}

fn base(f: &str) -> &str {
    f.rsplit('/').next().unwrap_or(f)
}

/// Whether `f` is a source file.
pub fn is_source(f: &str) -> bool {
    SOURCE_EXTS.contains(&ext(f))
}

fn readme_path(files: &RepoFiles) -> Option<&String> {
    files.files.iter().find(|f| {
        !f.contains('/') && {
            let l = f.to_ascii_lowercase();
            l == "readme" || l.starts_with("readme.")
        }
    })
}

/// `tests`: are there tests, in proportion to the code?
pub(super) fn tests(files: &RepoFiles) -> Metric {
    let sources = files.files.iter().filter(|f| is_source(f)).count();
    let mut tests: Vec<&String> = files.files.iter().filter(|f| is_test_file(f)).collect();
    // Rust unit tests live inside source files.
    let inline = files
        .files
        .iter()
        .filter(|f| f.ends_with(".rs") && !is_test_file(f))
        .filter(|f| files.read(f).is_some_and(|s| s.contains("#[test]")))
        .count();
    let code = sources.saturating_sub(tests.len());
    let mut details = vec![format!(
        "{} test files, {inline} source files with inline tests, {code} source files",
        tests.len()
    )];
    if sources == 0 {
        details.push("no source files".into());
        return Metric::unknown("tests", "Tests", W_TESTS, details);
    }
    let n = tests.len() + inline;
    let score = if n == 0 {
        details.push("no tests found".into());
        0.0
    } else {
        let ratio = n as f64 / code.max(1) as f64;
        (0.5 + ratio / 0.5 * 0.5).min(1.0)
    };
    tests.truncate(5);
    if !tests.is_empty() {
        details.push(format!(
            "e.g. {}",
            tests
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Metric::scored("tests", "Tests", W_TESTS, score, details)
}

/// `ci`: a CI configuration exists.
pub(super) fn ci(files: &RepoFiles) -> Metric {
    let found: Vec<&String> = files
        .files
        .iter()
        .filter(|f| {
            (f.starts_with(".github/workflows/") && (f.ends_with(".yml") || f.ends_with(".yaml")))
                || matches!(
                    f.as_str(),
                    ".gitlab-ci.yml"
                        | ".circleci/config.yml"
                        | "azure-pipelines.yml"
                        | "Jenkinsfile"
                        | ".travis.yml"
                        | ".woodpecker.yml"
                        | "bitbucket-pipelines.yml"
                )
                || f.starts_with(".ci/")
        })
        .collect();
    if found.is_empty() {
        return Metric::scored(
            "ci",
            "CI",
            W_CI,
            0.0,
            vec!["no CI configuration (.github/workflows, .gitlab-ci.yml, ...)".into()],
        );
    }
    let empty = found
        .iter()
        .filter(|f| files.read(f).is_none_or(|s| s.trim().is_empty()))
        .count();
    let mut details = vec![format!(
        "CI config: {}",
        found
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    )];
    let score = if empty > 0 {
        details.push(format!("{empty} empty CI files"));
        0.6
    } else {
        1.0
    };
    Metric::scored("ci", "CI", W_CI, score, details)
}

/// `readme`: a README with substance (length, sections, usage, code blocks).
pub(super) fn readme(files: &RepoFiles) -> Metric {
    let Some(path) = readme_path(files) else {
        return Metric::scored(
            "readme",
            "README",
            W_README,
            0.0,
            vec!["README missing".into()],
        );
    };
    let text = files.read(path).unwrap_or_default();
    let mut score = 0.3;
    let mut details = vec![format!("{path}: {} lines", text.lines().count())];
    let words = text.split_whitespace().count();
    if words >= 30 {
        score += 0.2;
    } else {
        details.push(format!("README is short ({words} words)"));
    }
    let headings = text.lines().filter(|l| l.starts_with('#')).count();
    if headings >= 2 {
        score += 0.15;
    } else {
        details.push("README has fewer than 2 headings".into());
    }
    let lower = text.to_ascii_lowercase();
    if ["install", "usage", "getting started", "quick start", "run "]
        .iter()
        .any(|k| lower.contains(k))
    {
        score += 0.2;
    } else {
        details.push("README does not say how to install or use the project".into());
    }
    if text.contains("```") || text.contains('`') {
        score += 0.15;
    } else {
        details.push("README has no code examples".into());
    }
    Metric::scored("readme", "README", W_README, score, details)
}

/// Directories GitHub looks in for a repository's community files (CONTRIBUTING, the code of
/// conduct, ...), besides the root.
const COMMUNITY_DIRS: [&str; 3] = [".github/", "docs/", "doc/"];

/// The files where GitHub looks for community files (the root, `.github/`, `docs/`), with their
/// file names upper-cased, any extension (`CONTRIBUTING.md`, `contributing.rst`).
fn community_files(files: &RepoFiles) -> Vec<(&str, String)> {
    files
        .files
        .iter()
        .filter_map(|f| {
            let name = COMMUNITY_DIRS
                .iter()
                .find_map(|d| f.strip_prefix(d))
                .or_else(|| (!f.contains('/')).then_some(f.as_str()))?;
            let name = name.rsplit('/').next().unwrap_or(name);
            let nested_ok = !f.contains('/') || f.matches('/').count() <= 2;
            nested_ok.then(|| (f.as_str(), name.to_ascii_uppercase()))
        })
        .collect()
}

/// `docs`: documentation beyond the README (docs/, CONTRIBUTING, CHANGELOG, doc comments).
/// Its details name the README when the README is what is missing, which is what the README-only filter
/// checks before keeping README-only subtasks.
pub(super) fn docs(files: &RepoFiles) -> Metric {
    let mut score: f64 = 0.0;
    let mut details = Vec::new();
    let has_dir = files
        .files
        .iter()
        .any(|f| f.starts_with("docs/") || f.starts_with("doc/"));
    if has_dir {
        score += 0.35;
        details.push("docs/ directory present".into());
    } else {
        details.push("no docs/ directory".into());
    }
    let community = community_files(files);
    match community
        .iter()
        .find(|(_, upper)| upper.starts_with("CONTRIBUTING"))
    {
        Some((path, _)) => {
            score += 0.15;
            details.push(format!("contributing guide: {path}"));
        }
        None => {
            details.push("no CONTRIBUTING guide (looked in the root, .github/ and docs/)".into())
        }
    }
    if community.iter().any(|(_, f)| {
        f.starts_with("CHANGELOG") || f.starts_with("CHANGES") || f.starts_with("HISTORY")
    }) {
        score += 0.1;
    } else {
        details.push("no CHANGELOG".into());
    }
    match readme_path(files) {
        Some(p) => {
            let words = files
                .read(p)
                .map(|s| s.split_whitespace().count())
                .unwrap_or(0);
            if words >= 30 {
                score += 0.2;
            } else {
                details.push(format!("README ({p}) is too short to document the project"));
            }
        }
        None => details.push("README missing: the project has no entry documentation".into()),
    }
    // Doc comments on a sample of sources.
    let (mut documented, mut total) = (0usize, 0usize);
    for f in files
        .files
        .iter()
        .filter(|f| is_source(f) && !is_test_file(f))
        .take(200)
    {
        let Some(text) = files.read(f) else { continue };
        total += 1;
        if text.contains("///")
            || text.contains("//!")
            || text.contains("\"\"\"")
            || text.contains("/**")
            || text.lines().any(|l| l.trim_start().starts_with("// "))
        {
            documented += 1;
        }
    }
    if total > 0 {
        let ratio = documented as f64 / total as f64;
        score += 0.2 * ratio;
        details.push(format!(
            "{documented}/{total} source files have doc comments"
        ));
    }
    Metric::scored("docs", "Documentation", W_DOCS, score, details)
}

fn lang_syntax_errors(path: &str, text: &str) -> Option<usize> {
    let kind = std::panic::catch_unwind(|| slopguard_lang::detect(path, text.as_bytes())).ok()?;
    let slopguard_lang::FileKind::Code(language) = kind else {
        return None;
    };
    std::panic::catch_unwind(|| slopguard_lang::analyze(language, text))
        .ok()
        .map(|a| a.syntax_errors.len())
}

/// `code_quality`: syntax errors, oversized files, long lines, TODO/FIXME density.
pub(super) fn code_quality(files: &RepoFiles) -> Metric {
    let mut checked = 0usize;
    let mut syntax_bad = Vec::new();
    let mut huge = Vec::new();
    let mut todos = 0usize;
    let mut long_lines = 0usize;
    let mut lines_total = 0usize;
    for f in files.files.iter().filter(|f| is_source(f)).take(400) {
        let Some(text) = files.read(f) else { continue };
        checked += 1;
        let n = text.lines().count();
        lines_total += n;
        if n > 1000 {
            huge.push(format!("{f} ({n} lines)"));
        }
        for l in text.lines() {
            if l.len() > 160 {
                long_lines += 1;
            }
            if l.contains("TODO") || l.contains("FIXME") || l.contains("XXX:") {
                todos += 1;
            }
        }
        if let Some(errs) = lang_syntax_errors(f, &text)
            && errs > 0
        {
            syntax_bad.push(format!("{f} ({errs} syntax errors)"));
        }
    }
    if checked == 0 {
        return Metric::unknown(
            "code_quality",
            "Code quality",
            W_QUALITY,
            vec!["no source files".into()],
        );
    }
    let mut score = 1.0;
    let mut details = vec![format!("{checked} source files, {lines_total} lines")];
    if !syntax_bad.is_empty() {
        score -= (0.2 * syntax_bad.len() as f64).min(0.6);
        details.push(format!("syntax errors: {}", syntax_bad.join(", ")));
    }
    if !huge.is_empty() {
        score -= (0.05 * huge.len() as f64).min(0.2);
        details.push(format!("very large files: {}", huge.join(", ")));
    }
    let per_kloc = todos as f64 * 1000.0 / lines_total.max(1) as f64;
    if per_kloc > 5.0 {
        score -= 0.1;
        details.push(format!(
            "{todos} TODO/FIXME markers ({per_kloc:.1} per 1000 lines)"
        ));
    }
    if long_lines > 20 {
        score -= 0.1;
        details.push(format!("{long_lines} lines longer than 160 characters"));
    }
    Metric::scored("code_quality", "Code quality", W_QUALITY, score, details)
}

/// `deps`: each detected ecosystem's dependency hygiene (manifests present, lockfiles
/// committed, no wildcard or unpinned versions), averaged.
pub(super) fn deps(files: &RepoFiles) -> Metric {
    let checks: Vec<slopguard_toolchain::Check> = slopguard_toolchain::detect(files)
        .iter()
        .flat_map(|eco| eco.dependency_checks(files))
        .collect();
    if checks.is_empty() {
        return Metric::unknown(
            "deps",
            "Dependencies",
            W_DEPS,
            vec!["no dependency manifest".into()],
        );
    }
    let score = checks.iter().map(|c| c.score).sum::<f64>() / checks.len() as f64;
    let details = checks.into_iter().map(|c| c.message).collect();
    Metric::scored("deps", "Dependencies", W_DEPS, score, details)
}

fn secret_patterns() -> &'static [(&'static str, Regex)] {
    static P: OnceLock<Vec<(&'static str, Regex)>> = OnceLock::new();
    P.get_or_init(|| {
        [
            ("AWS access key", r"\bAKIA[0-9A-Z]{16}\b"),
            ("private key", r"-----BEGIN (RSA |EC |OPENSSH |DSA )?PRIVATE KEY-----"),
            ("GitHub token", r"\bgh[pousr]_[A-Za-z0-9]{36,}\b"),
            ("Slack token", r"\bxox[baprs]-[A-Za-z0-9-]{10,}\b"),
            ("OpenAI-style key", r"\bsk-[A-Za-z0-9]{32,}\b"),
            (
                "hard-coded credential",
                r#"(?i)\b(api[_-]?key|secret[_-]?key|password|passwd|auth[_-]?token)\s*[:=]\s*["'][^"'\s]{12,}["']"#,
            ),
        ]
        .into_iter()
        .filter_map(|(n, p)| Regex::new(p).ok().map(|r| (n, r)))
        .collect()
    })
}

/// Whether `path` is a test or test data (`tests/certs/server.key`, `testdata/`,
/// `fixtures/`): keys and certificates there are made for the tests, not leaked.
fn is_test_fixture(path: &str) -> bool {
    is_test_file(path)
        || slopguard_toolchain::in_test_dir(path)
        || path.split('/').rev().skip(1).any(|c| {
            matches!(
                c,
                "fixtures" | "fixture" | "testdata" | "test_data" | "test-data" | "__fixtures__"
            )
        })
}

/// `security`: secrets in the tree, `.env` files committed, `.gitignore` coverage, a policy.
pub(super) fn security(files: &RepoFiles) -> Metric {
    let mut score: f64 = 1.0;
    let mut details = Vec::new();
    let mut hits = Vec::new();
    let (mut scanned, mut fixtures) = (0usize, 0usize);
    for f in files.files.iter().take(5000) {
        if matches!(
            ext(f),
            "png" | "jpg" | "gif" | "ico" | "lock" | "bin" | "gguf" | "zip"
        ) {
            continue;
        }
        if is_test_fixture(f) {
            fixtures += 1;
            continue;
        }
        let Some(text) = files.read(f) else { continue };
        scanned += 1;
        for (name, re) in secret_patterns() {
            if let Some(m) = re.find(&text) {
                let line = text[..m.start()].lines().count().max(1);
                hits.push(format!("{name} in {f}:{line}"));
            }
        }
    }
    if !hits.is_empty() {
        score -= (0.3 * hits.len() as f64).min(0.8);
        details.push(format!("possible secrets: {}", hits.join(", ")));
    }
    details.push(format!(
        "secrets looked for in {scanned} files ({fixtures} test files and fixtures skipped: their keys and certificates are test data)"
    ));
    let envs: Vec<&String> = files
        .files
        .iter()
        .filter(|f| {
            let b = base(f);
            b == ".env"
                || (b.starts_with(".env.") && !b.ends_with(".example") && !b.ends_with(".sample"))
        })
        .collect();
    if !envs.is_empty() {
        score -= 0.3;
        details.push(format!(
            "environment files in the tree: {}",
            envs.iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    match files.read(".gitignore") {
        None => {
            score -= 0.2;
            details.push("no .gitignore".into());
        }
        Some(gi) => {
            let want: Vec<&str> = slopguard_toolchain::detect(files)
                .iter()
                .flat_map(|eco| eco.ignored_dirs().iter().copied())
                .collect();
            let missing: Vec<&str> = want.into_iter().filter(|w| !gi.contains(w)).collect();
            if !missing.is_empty() {
                score -= 0.1;
                details.push(format!(".gitignore does not ignore {}", missing.join(", ")));
            } else {
                details.push(".gitignore present".into());
            }
            if !gi.contains(".env") {
                details.push(".gitignore does not ignore .env".into());
                score -= 0.05;
            }
        }
    }
    let policy = files.files.iter().any(|f| {
        let u = f.to_ascii_uppercase();
        u == "SECURITY.MD" || u == ".GITHUB/SECURITY.MD" || u == "DOCS/SECURITY.MD"
    });
    if policy {
        details.push("security policy present".into());
    } else {
        score -= 0.1;
        details.push("no SECURITY.md policy".into());
    }
    Metric::scored("security", "Security", W_SECURITY, score, details)
}

/// `license`: a license file (or at least a manifest license field).
pub(super) fn license(files: &RepoFiles) -> Metric {
    if let Some(f) = files.files.iter().find(|f| {
        let u = f.to_ascii_uppercase();
        !f.contains('/')
            && (u.starts_with("LICENSE") || u.starts_with("LICENCE") || u.starts_with("COPYING"))
    }) {
        return Metric::scored(
            "license",
            "License",
            W_LICENSE,
            1.0,
            vec![format!("{f} present")],
        );
    }
    let in_manifest = ["Cargo.toml", "package.json", "pyproject.toml"]
        .iter()
        .filter_map(|m| files.read(m))
        .any(|t| t.contains("license"));
    if in_manifest {
        Metric::scored(
            "license",
            "License",
            W_LICENSE,
            0.6,
            vec!["license declared in the manifest but no LICENSE file".into()],
        )
    } else {
        Metric::scored(
            "license",
            "License",
            W_LICENSE,
            0.0,
            vec!["no license".into()],
        )
    }
}

/// `structure`: sources in a source tree, tests separated, a tidy root.
pub(super) fn structure(files: &RepoFiles) -> Metric {
    let mut score: f64 = 0.4;
    let mut details = Vec::new();
    let root_files = files.files.iter().filter(|f| !f.contains('/')).count();
    let root_sources = files
        .files
        .iter()
        .filter(|f| !f.contains('/') && is_source(f) && !is_test_file(f))
        .count();
    let nested_sources = files
        .files
        .iter()
        .filter(|f| f.contains('/') && is_source(f) && !is_test_file(f))
        .count();
    if nested_sources > 0 || root_sources <= 3 {
        score += 0.3;
    } else {
        details.push(format!(
            "{root_sources} source files at the root, no source directory"
        ));
    }
    if files.files.iter().any(|f| is_test_file(f)) {
        score += 0.2;
    } else {
        details.push("no separate tests".into());
    }
    if root_files <= 25 {
        score += 0.1;
    } else {
        details.push(format!("{root_files} files at the root"));
    }
    details.insert(
        0,
        format!("{} files, {root_files} at the root", files.files.len()),
    );
    Metric::scored("structure", "Structure", W_STRUCTURE, score, details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Status;

    fn repo(files: &[(&str, &str)]) -> (tempfile::TempDir, RepoFiles) {
        let dir = tempfile::tempdir().unwrap();
        for (p, c) in files {
            let path = dir.path().join(p);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, c).unwrap();
        }
        let rf = RepoFiles::walk(dir.path());
        (dir, rf)
    }

    #[test]
    fn test_file_detection() {
        for t in [
            "tests/test_a.py",
            "a_test.go",
            "src/x.test.ts",
            "test/a.js",
            "pkg/tests/b.rs",
        ] {
            assert!(is_test_file(t), "{t}");
        }
        for s in [
            "src/a.py",
            "main.go",
            "src/lib.rs",
            "README.md",
            "tests/__init__.py",
        ] {
            assert!(!is_test_file(s), "{s}");
        }
    }

    #[test]
    fn missing_tests_and_ci_fail() {
        let (_d, f) = repo(&[("src/a.py", "x = 1\n")]);
        assert_eq!(tests(&f).status, Status::Fail);
        assert_eq!(ci(&f).status, Status::Fail);
        let (_d, f) = repo(&[
            ("src/a.py", "x = 1\n"),
            ("tests/test_a.py", "def test(): pass\n"),
            (".github/workflows/ci.yml", "on: push\n"),
        ]);
        assert_eq!(tests(&f).status, Status::Pass);
        assert_eq!(ci(&f).status, Status::Pass);
    }

    #[test]
    fn readme_scoring_and_docs_cite_readme() {
        let (_d, f) = repo(&[("a.py", "")]);
        assert_eq!(readme(&f).status, Status::Fail);
        let d = docs(&f);
        assert_eq!(d.status, Status::Fail);
        assert!(d.details.iter().any(|x| x.contains("README missing")));
        let long = "# Title\n\n## Usage\n\nInstall with `pip install x` and run it. ".to_string()
            + &"word ".repeat(40);
        let (_d, f) = repo(&[("README.md", &long)]);
        assert_eq!(readme(&f).status, Status::Pass);
        assert!(!docs(&f).details.iter().any(|x| x.contains("README")));
    }

    #[test]
    fn community_files_are_found_where_github_looks_for_them() {
        for path in [
            "CONTRIBUTING.md",
            ".github/CONTRIBUTING.md",
            "docs/dev/contributing.rst",
            "docs/CONTRIBUTING",
        ] {
            let (_d, f) = repo(&[(path, "How to contribute.\n")]);
            let d = docs(&f);
            assert!(
                d.details
                    .iter()
                    .any(|x| x == &format!("contributing guide: {path}")),
                "{path}: {:?}",
                d.details
            );
        }
        let (_d, f) = repo(&[("src/contributing.py", "x = 1\n")]);
        assert!(
            docs(&f)
                .details
                .iter()
                .any(|x| x.starts_with("no CONTRIBUTING guide"))
        );
        let (_d, f) = repo(&[("docs/changelog.md", "# 1.0\n")]);
        assert!(!docs(&f).details.iter().any(|x| x == "no CHANGELOG"));
    }

    #[test]
    fn keys_in_test_fixtures_are_test_data_not_secrets() {
        let key = "-----BEGIN RSA PRIVATE KEY-----\n";
        let (_d, f) = repo(&[
            ("tests/certs/server.key", key),
            ("pkg/testdata/k.pem", key),
            (".gitignore", ".env\n"),
        ]);
        let m = security(&f);
        assert!(
            !m.details.iter().any(|d| d.starts_with("possible secrets")),
            "{:?}",
            m.details
        );
        assert!(
            m.details
                .iter()
                .any(|d| d.contains("2 test files and fixtures skipped")),
            "{:?}",
            m.details
        );
        let (_d, f) = repo(&[("deploy/server.key", key)]);
        assert!(
            security(&f)
                .details
                .iter()
                .any(|d| d.contains("deploy/server.key"))
        );
    }

    #[test]
    fn secrets_and_env_files_lower_security() {
        let (_d, f) = repo(&[
            ("config.py", "API_KEY = \"abcdefghijklmnopqrstuvwxyz\"\n"),
            (".env", "X=1\n"),
            ("k.pem", "-----BEGIN RSA PRIVATE KEY-----\n"),
        ]);
        let m = security(&f);
        assert_eq!(m.status, Status::Fail);
        let text = m.details.join("\n");
        assert!(
            text.contains("hard-coded credential in config.py:1"),
            "{text}"
        );
        assert!(text.contains("private key in k.pem:1"), "{text}");
        assert!(text.contains(".env"), "{text}");
        let (_d, f) = repo(&[
            (".gitignore", "target\n.env\n"),
            ("SECURITY.md", "report to x"),
            ("Cargo.toml", "[package]\nname = \"x\"\n"),
            ("src/lib.rs", ""),
        ]);
        assert_eq!(security(&f).status, Status::Pass);
        let (_d, f) = repo(&[
            (".gitignore", ".env\n"),
            ("SECURITY.md", "report to x"),
            ("Cargo.toml", "[package]\nname = \"x\"\n"),
        ]);
        let m = security(&f);
        assert!(
            m.details
                .iter()
                .any(|d| d == ".gitignore does not ignore target"),
            "{:?}",
            m.details
        );
    }

    #[test]
    fn license_levels() {
        let (_d, f) = repo(&[("LICENSE", "MIT")]);
        assert_eq!(license(&f).score, Some(1.0));
        let (_d, f) = repo(&[("package.json", "{\"license\": \"MIT\"}")]);
        assert_eq!(license(&f).status, Status::Warn);
        let (_d, f) = repo(&[("a.go", "")]);
        assert_eq!(license(&f).status, Status::Fail);
    }

    #[test]
    fn deps_flags_wildcards_and_unpinned() {
        let (_d, f) = repo(&[
            ("package.json", r#"{"dependencies": {"left-pad": "*"}}"#),
            ("requirements.txt", "requests\nflask==2.0\n"),
        ]);
        let m = deps(&f);
        let text = m.details.join("\n");
        assert!(text.contains("1 unpinned"), "{text}");
        assert!(text.contains("npm lockfile missing"), "{text}");
        assert!(
            text.contains("2 entries, 1 without a version constraint"),
            "{text}"
        );
        assert!(m.score.unwrap() < 0.8);
    }

    #[test]
    fn code_quality_counts_todos_and_huge_files() {
        let big = "x = 1  # TODO\n".repeat(1200);
        let (_d, f) = repo(&[("big.py", &big)]);
        let m = code_quality(&f);
        let text = m.details.join("\n");
        assert!(
            text.contains("very large files: big.py (1200 lines)"),
            "{text}"
        );
        assert!(text.contains("1200 TODO/FIXME"), "{text}");
        assert!(m.score.unwrap() <= 0.85);
    }
}
