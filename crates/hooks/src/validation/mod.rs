//! Validation detection: does a shell command line run the project's tests or checks, in a way
//! whose exit status can be trusted?
//!
//! The command line is split with a small shell lexer (quotes, escapes, `$(..)`, redirections,
//! comments) into a list of pipelines joined by `&&`, `||`, `;`, `&` and newlines. Each simple
//! command is unwrapped (`VAR=1 ..`, `env`, `time`, `timeout`, `nice`, `npx`, `uv run`,
//! `poetry run`, `bash -c '..'`, ...) and matched against known test runners and checkers.
//! A recognised validation then only counts when the exit status of the whole line reflects it:
//!
//! - run in the background (`cargo test &`): never counts;
//! - forced to succeed: a later `||` or `;` lets another command decide the exit status
//!   (`|| true`, `; exit 0`, `|| echo failed`), unless that command is `exit N` (N != 0),
//!   bare `exit` or `false`, or `set -e` is active for `;`;
//! - not the last command of a pipeline without `set -o pipefail` (`cargo test | tail`):
//!   [`Status::PipeMasked`], which counts only when the output shows passing test counts;
//! - flags that defeat the run: `--passWithNoTests`, `--collect-only`, `--list`, `--help`,
//!   `--dry-run`, `make -n`.
//!
//! The runners of the ecosystems slopguard knows (cargo, pytest, go, npm, ...) are the
//! toolchain crate's (`slopguard_toolchain::runner_command`); build tools, task runners and
//! other languages' runners are matched here.

use slopguard_toolchain::RunnerKind;

mod shell;
use shell::{Item, Sep, lex, parse_list};

/// What kind of validation a command is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Runs tests.
    Test,
    /// Type checks, lints or builds.
    Check,
}

/// Whether a recognised validation's result can be trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The exit status of the line reflects this validation.
    Counted,
    /// Not the last command of a pipeline: its status is lost unless `pipefail` is set. Counts
    /// only when the output shows passing tests.
    PipeMasked,
    /// Run in the background.
    Background,
    /// A later command decides the exit status (`|| true`, `; exit 0`).
    Forced,
    /// A flag makes it pass without testing anything (`--passWithNoTests`, `--collect-only`,
    /// `--help`, `--dry-run`, ...).
    Defeated,
}

/// One validation found in a command line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Found {
    /// Test or check.
    pub kind: Kind,
    /// The runner, e.g. `cargo test`, `pytest`, `npm test`.
    pub runner: String,
    /// The unwrapped argument vector of the validation command.
    pub argv: Vec<String>,
    /// Whether its result can be trusted.
    pub status: Status,
}

/// Everything [`detect`] found in one command line.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Detection {
    /// Validations, in order of appearance.
    pub found: Vec<Found>,
}

impl Detection {
    /// At least one validation whose exit status is reflected by the line's exit status.
    pub fn counted(&self) -> bool {
        self.found.iter().any(|f| f.status == Status::Counted)
    }

    /// At least one validation that counts when the output shows passing tests.
    pub fn counted_with_output(&self) -> bool {
        self.found
            .iter()
            .any(|f| matches!(f.status, Status::Counted | Status::PipeMasked))
    }

    /// Any validation at all, trusted or not (worth a ledger entry).
    pub fn any(&self) -> bool {
        !self.found.is_empty()
    }

    /// The first validation that does not count and why, for messages.
    pub fn rejection(&self) -> Option<&Found> {
        self.found
            .iter()
            .find(|f| !matches!(f.status, Status::Counted | Status::PipeMasked))
    }
}

/// Detects validations in a shell command line.
pub fn detect(command: &str) -> Detection {
    detect_depth(command, 0)
}

fn detect_depth(command: &str, depth: usize) -> Detection {
    let items = parse_list(&lex(command));
    let mut found = Vec::new();
    let mut errexit = false;
    let mut pipefail = false;
    for (idx, item) in items.iter().enumerate() {
        for (pos, words) in item.pipeline.iter().enumerate() {
            note_set_options(words, &mut errexit, &mut pipefail);
            let inner = classify(words, depth);
            if inner.is_empty() {
                continue;
            }
            let outer = if item.sep == Sep::Background {
                Status::Background
            } else if failure_masked(&items, idx, errexit) {
                Status::Forced
            } else if pos + 1 < item.pipeline.len() && !pipefail {
                Status::PipeMasked
            } else {
                Status::Counted
            };
            for mut f in inner {
                f.status = combine(f.status, outer);
                found.push(f);
            }
        }
    }
    Detection { found }
}

/// The weaker of an inner status (from `bash -c` or flags) and the position's status.
fn combine(inner: Status, outer: Status) -> Status {
    fn rank(s: Status) -> u8 {
        match s {
            Status::Counted => 0,
            Status::PipeMasked => 1,
            Status::Forced => 2,
            Status::Background => 3,
            Status::Defeated => 4,
        }
    }
    if rank(inner) >= rank(outer) {
        inner
    } else {
        outer
    }
}

fn note_set_options(words: &[String], errexit: &mut bool, pipefail: &mut bool) {
    if words.first().map(String::as_str) != Some("set") {
        return;
    }
    let mut it = words.iter().skip(1).peekable();
    while let Some(w) = it.next() {
        if w == "-o" {
            match it.next().map(String::as_str) {
                Some("pipefail") => *pipefail = true,
                Some("errexit") => *errexit = true,
                _ => {}
            }
        } else if let Some(flags) = w.strip_prefix('-') {
            if flags.contains('e') {
                *errexit = true;
            }
            if flags.ends_with('o') && it.peek().map(|s| s.as_str()) == Some("pipefail") {
                *pipefail = true;
                it.next();
            }
        }
    }
}

/// Would a failure of item `idx` be hidden from the line's exit status?
fn failure_masked(items: &[Item], idx: usize, errexit: bool) -> bool {
    let mut i = idx;
    loop {
        match items[i].sep {
            Sep::End | Sep::Background => return false,
            Sep::And => {
                // The next item is skipped when this one fails; keep looking after it.
                i += 1;
                if i >= items.len() {
                    return false;
                }
            }
            Sep::Seq if errexit => return false,
            Sep::Or | Sep::Seq => {
                let Some(next) = items.get(i + 1) else {
                    return false;
                };
                return !preserves_failure(next);
            }
        }
    }
}

/// `exit` (keeps the last status), `exit N` with N != 0, or `false`.
fn preserves_failure(item: &Item) -> bool {
    let Some(words) = item.pipeline.last() else {
        return false;
    };
    match words
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["exit"] | ["false"] | ["return"] => true,
        ["exit", code] | ["return", code] => *code != "0",
        _ => false,
    }
}

// ---------------------------------------------------------------------------- classification

const MAX_DEPTH: usize = 4;

/// Classifies one simple command (already split into words); returns the validations in it
/// (more than one only through `bash -c`).
fn classify(words: &[String], depth: usize) -> Vec<Found> {
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    let w = unwrap(&w);
    let Some(&cmd) = w.first() else {
        return Vec::new();
    };
    let base = cmd.rsplit('/').next().unwrap_or(cmd);

    // Shells: recurse into the script.
    if matches!(base, "bash" | "sh" | "zsh" | "dash" | "ksh") {
        let mut i = 1;
        while i < w.len() {
            let a = w[i];
            if a.starts_with('-') && !a.starts_with("--") && a.contains('c') {
                if depth >= MAX_DEPTH {
                    return Vec::new();
                }
                return w
                    .get(i + 1)
                    .map(|script| detect_depth(script, depth + 1).found)
                    .unwrap_or_default();
            }
            if a == "-o" {
                i += 1;
            } else if !a.starts_with('-') {
                // `bash script.sh`: a script file.
                return script_file(a, w).into_iter().collect();
            }
            i += 1;
        }
        return Vec::new();
    }
    match_runner(w).into_iter().collect()
}

/// Strips environment assignments and transparent wrappers from the front.
fn unwrap<'a>(mut w: &'a [&'a str]) -> &'a [&'a str] {
    loop {
        let Some(&first) = w.first() else { return w };
        let base = first.rsplit('/').next().unwrap_or(first);
        if is_assignment(first) {
            w = &w[1..];
            continue;
        }
        let skip = match base {
            "env" => {
                let mut i = 1;
                while i < w.len() {
                    let a = w[i];
                    if a == "-u" || a == "-C" || a == "--unset" || a == "--chdir" {
                        i += 2;
                    } else if a.starts_with('-') || is_assignment(a) {
                        i += 1;
                    } else {
                        break;
                    }
                }
                i
            }
            "time" | "command" | "exec" | "nohup" | "builtin" | "noglob" => 1,
            "sudo" | "doas" => 1 + flags_len(&w[1..], &["-u", "-g", "-C"]),
            "nice" | "ionice" | "chrt" => 1 + flags_len(&w[1..], &["-n", "-c"]),
            "stdbuf" | "xvfb-run" | "catchsegv" => 1 + flags_len(&w[1..], &[]),
            "timeout" | "gtimeout" => {
                let n = 1 + flags_len(&w[1..], &["-s", "-k", "--signal", "--kill-after"]);
                n + usize::from(n < w.len())
            }
            "npx" | "bunx" | "pnpx" => 1 + flags_len(&w[1..], &["-p", "--package"]),
            "dotenv" => {
                // `dotenv [-e file] -- cmd`
                w.iter().position(|a| *a == "--").map_or(1, |p| p + 1)
            }
            "uv" | "poetry" | "pipenv" | "pdm" | "hatch" | "rye" | "conda" | "mamba"
                if w.get(1) == Some(&"run") =>
            {
                2 + flags_len(
                    &w[2..],
                    &["--with", "-p", "--python", "--env", "-e", "-n", "--name"],
                )
            }
            "pnpm" | "yarn" if matches!(w.get(1), Some(&"exec") | Some(&"dlx")) => 2,
            "bundle" if w.get(1) == Some(&"exec") => 2,
            "python" | "python3" | "py" if w.get(1) == Some(&"-m") => {
                // `python -m pytest` -> `pytest`
                if w.len() > 2 {
                    2
                } else {
                    return w;
                }
            }
            _ => 0,
        };
        if skip == 0 || skip >= w.len() {
            return w;
        }
        w = &w[skip..];
    }
}

/// Number of leading option words (with the listed options taking a value).
fn flags_len(w: &[&str], with_value: &[&str]) -> usize {
    let mut i = 0;
    while i < w.len() && w[i].starts_with('-') {
        if w[i] == "--" {
            return i + 1;
        }
        i += if with_value.contains(&w[i]) { 2 } else { 1 };
    }
    i.min(w.len())
}

fn is_assignment(w: &str) -> bool {
    match w.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}

fn found(kind: Kind, runner: impl Into<String>, argv: &[&str]) -> Found {
    let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
    let defeated = argv.iter().skip(1).any(|a| {
        let a = a.as_str();
        matches!(
            a,
            "--passWithNoTests"
                | "--pass-with-no-tests"
                | "--passWithNoTests=true"
                | "--collect-only"
                | "--co"
                | "--listTests"
                | "--list"
                | "--help"
                | "-h"
                | "--version"
                | "-V"
                | "--dry-run"
                | "--just-print"
                | "--recon"
                | "--setup-plan"
        ) || a.starts_with("--passWithNoTests")
    });
    Found {
        kind,
        runner: runner.into(),
        argv,
        status: if defeated {
            Status::Defeated
        } else {
            Status::Counted
        },
    }
}

/// `Kind` of a script or make target by the words in its name (`test:unit`, `lint`).
fn script_is_validation(name: &str) -> Option<Kind> {
    slopguard_toolchain::script_kind(name).map(Kind::from)
}

impl From<RunnerKind> for Kind {
    fn from(kind: RunnerKind) -> Self {
        match kind {
            RunnerKind::Test => Kind::Test,
            RunnerKind::Check => Kind::Check,
        }
    }
}

/// The validation a simple command runs: an ecosystem's runner that the toolchain crate
/// knows, else the build tools, task runners and other languages' runners below.
fn match_runner(w: &[&str]) -> Option<Found> {
    if let Some(runner) = slopguard_toolchain::runner_command(w) {
        return Some(found(runner.kind.into(), runner.runner, w));
    }
    let cmd = *w.first()?;
    let base = cmd.rsplit('/').next().unwrap_or(cmd);
    match base {
        "shellcheck" => Some(found(Kind::Check, base, w)),
        "make" | "gmake" | "just" | "task" | "mage" => {
            if w.iter()
                .any(|a| matches!(*a, "-n" | "--dry-run" | "--just-print" | "--recon"))
            {
                let mut f = found(Kind::Test, base, w);
                f.status = Status::Defeated;
                return Some(f);
            }
            let targets: Vec<&str> = w[1..]
                .iter()
                .enumerate()
                .filter(|(j, a)| {
                    !a.starts_with('-')
                        && !a.contains('=')
                        && !matches!(w[*j], "-C" | "-f" | "--directory" | "--file")
                })
                .map(|(_, a)| *a)
                .collect();
            let kind = targets
                .iter()
                .filter_map(|t| script_is_validation(t))
                .min_by_key(|k| match k {
                    Kind::Test => 0,
                    Kind::Check => 1,
                })?;
            Some(found(kind, format!("{base} {}", targets.join(" ")), w))
        }
        "mvn" | "mvnw" | "gradle" | "gradlew" => {
            let tasks = &w[1..];
            if tasks
                .iter()
                .any(|t| matches!(*t, "test" | "verify" | "check" | "integrationTest"))
            {
                Some(found(Kind::Test, base, w))
            } else if tasks
                .iter()
                .any(|t| matches!(*t, "build" | "compile" | "package" | "install"))
            {
                Some(found(Kind::Check, base, w))
            } else {
                None
            }
        }
        "dotnet" | "swift" | "zig" | "stack" | "cabal" | "mix" | "bazel" | "bazelisk" | "deno2" => {
            match w.get(1).copied() {
                Some("test") => Some(found(Kind::Test, format!("{base} test"), w)),
                Some("build") if base != "mix" => {
                    Some(found(Kind::Check, format!("{base} build"), w))
                }
                _ => None,
            }
        }
        "ctest" | "phpunit" | "pest" | "prove" | "busted" | "bats" => {
            Some(found(Kind::Test, base, w))
        }
        _ => script_file(cmd, w),
    }
}

/// A script run by path: `./test.sh`, `scripts/run_tests`, `.ci/run`.
fn script_file(path: &str, w: &[&str]) -> Option<Found> {
    if path == ".ci/run" || path == "./.ci/run" || path.ends_with("/.ci/run") {
        return Some(found(Kind::Test, ".ci/run", w));
    }
    if !path.contains('/') && !path.ends_with(".sh") {
        return None;
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.strip_suffix(".sh").unwrap_or(name);
    let kind = script_is_validation(stem)?;
    Some(found(kind, name, w))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected classification of a command line.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Want {
        /// Counts as validation.
        Yes,
        /// Counts only with passing test counts in the output.
        Masked,
        /// Does not count (not a validation, or one that cannot be trusted).
        No,
    }
    use Want::*;

    const TABLE: &[(&str, Want)] = &[
        // Plain runners.
        ("cargo test", Yes),
        ("cargo test -p slopguard-hooks --lib", Yes),
        ("cargo +nightly test --workspace", Yes),
        ("cargo nextest run", Yes),
        ("cargo clippy --all-targets -- -D warnings", Yes),
        ("cargo check", Yes),
        ("pytest -q tests/", Yes),
        ("python -m pytest -x", Yes),
        ("python3 -m unittest discover", Yes),
        ("go test ./...", Yes),
        ("go vet ./...", Yes),
        ("npm test", Yes),
        ("npm run test:unit", Yes),
        ("pnpm run typecheck", Yes),
        ("yarn lint", Yes),
        ("bun test", Yes),
        ("vitest run", Yes),
        ("jest --ci", Yes),
        ("tsc --noEmit", Yes),
        ("make test", Yes),
        ("make -C backend check", Yes),
        ("just test", Yes),
        ("mvn -q test", Yes),
        ("./gradlew check", Yes),
        ("ctest --output-on-failure", Yes),
        ("bundle exec rspec", Yes),
        ("bash .ci/run", Yes),
        ("./scripts/run_tests.sh", Yes),
        // Chains and directories.
        ("cd crates/hooks && cargo test", Yes),
        ("cd web && npm ci && npm test", Yes),
        ("cargo fmt && cargo clippy && cargo test", Yes),
        ("(cd api && go test ./...)", Yes),
        ("cargo build; cargo test", Yes),
        ("cargo test && echo ok", Yes),
        ("set -e; cargo test; echo done", Yes),
        ("cargo test || exit 1", Yes),
        // Wrappers.
        ("env RUST_BACKTRACE=1 cargo test", Yes),
        ("CI=1 npm test", Yes),
        ("RUST_LOG=debug timeout 600 cargo test -q", Yes),
        ("bash -c 'cd app && pytest'", Yes),
        ("sh -c \"make test\"", Yes),
        ("bash -lc 'npm run test'", Yes),
        ("npx vitest run", Yes),
        ("npx --yes jest", Yes),
        ("uv run pytest", Yes),
        ("uv run --with pytest-xdist pytest -n 4", Yes),
        ("poetry run pytest tests", Yes),
        ("time cargo test", Yes),
        ("nice -n 10 go test ./...", Yes),
        ("cargo test 2>&1", Yes),
        ("cargo test > out.txt 2>&1", Yes),
        ("cargo test &> log", Yes),
        // Pipes: status lost unless pipefail.
        ("cargo test 2>&1 | tail -20", Masked),
        ("pytest | tee log.txt", Masked),
        ("set -o pipefail; cargo test | tail", Yes),
        ("set -euo pipefail\ncargo test | tail -5", Yes),
        ("cat log | grep FAIL", No),
        // Background.
        ("cargo test &", No),
        ("nohup pytest > log 2>&1 &", No),
        ("npm test & sleep 1", No),
        // Forced success.
        ("cargo test || true", No),
        ("pytest || :", No),
        ("npm test; exit 0", No),
        ("go test ./... || echo 'tests failed'", No),
        ("cargo test; echo done", No),
        ("bash -c 'cargo test || true'", No),
        ("bash -c 'cargo test' || true", No),
        ("cargo test && echo ok || true", No),
        // Flags that defeat the run.
        ("jest --passWithNoTests", No),
        ("npm test -- --passWithNoTests", No),
        ("vitest run --passWithNoTests", No),
        ("pytest --collect-only", No),
        ("cargo test --help", No),
        ("make -n test", No),
        ("jest --listTests", No),
        // Not validation at all.
        ("echo cargo test", No),
        ("echo 'run make test'", No),
        ("ls -la", No),
        ("git status", No),
        ("git commit -m 'cargo test passes'", No),
        ("cat Makefile", No),
        ("grep -r pytest .", No),
        ("cargo fmt", No),
        ("npm install", No),
        ("npm ci", No),
        ("make", No),
        ("make install", No),
        ("vitest watch", No),
        ("tsc --watch", No),
        ("rm -rf target # cargo test", No),
        ("", No),
    ];

    fn classify_want(cmd: &str) -> Want {
        let d = detect(cmd);
        if d.counted() {
            Yes
        } else if d.counted_with_output() {
            Masked
        } else {
            No
        }
    }

    #[test]
    fn detector_table() {
        assert!(TABLE.len() >= 40, "the table must have at least 40 rows");
        let mut failures = Vec::new();
        for (cmd, want) in TABLE {
            let got = classify_want(cmd);
            if got != *want {
                failures.push(format!(
                    "{cmd:?}: want {want:?}, got {got:?} ({:?})",
                    detect(cmd)
                ));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn reasons_are_reported() {
        let d = detect("cargo test || true");
        assert_eq!(d.rejection().map(|f| f.status), Some(Status::Forced));
        let d = detect("cargo test &");
        assert_eq!(d.rejection().map(|f| f.status), Some(Status::Background));
        let d = detect("jest --passWithNoTests");
        assert_eq!(d.rejection().map(|f| f.status), Some(Status::Defeated));
        assert!(detect("ls").rejection().is_none());
    }

    #[test]
    fn runner_and_argv_are_unwrapped() {
        let d = detect("cd x && env CI=1 uv run pytest -k parser");
        assert_eq!(d.found.len(), 1);
        assert_eq!(d.found[0].runner, "pytest");
        assert_eq!(d.found[0].argv, vec!["pytest", "-k", "parser"]);
        assert_eq!(d.found[0].kind, Kind::Test);
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let mut cmd = "cargo test".to_string();
        for _ in 0..10 {
            cmd = format!("bash -c {:?}", cmd);
        }
        // Must terminate; beyond the depth limit nothing is recognised.
        let _ = detect(&cmd);
    }
}
