//! Ruby: every file compiled (`RubyVM::InstructionSequence`) as the build check; Minitest
//! files (`test/**/*_test.rb`, `test_*.rb`) run by one `ruby` process in verbose mode, or
//! `rspec` for a `spec/` suite; `*_test.rb`, `test_*.rb`, `*_spec.rb` and files under `test/`
//! and `spec/`; `require_relative` and `require` of `lib/` files.
//!
//! Hanging tests: the Minitest runner arms a watchdog thread per test that raises a
//! `Minitest::Assertion` ("timed out after N s") in the test past the per-test limit; the run
//! goes on. Its output is unbuffered, so a run killed at the suite limit still shows the
//! verdicts printed so far and, in verbose mode, the test that started last (`Klass#test_x = `
//! without a verdict): the one that hangs. RSpec runs keep their partial results only.

use std::collections::BTreeSet;
use std::sync::OnceLock;
use std::time::Duration;

use regex::Regex;

use crate::process;
use crate::{
    Build, BuildResult, Check, Commands, Ecosystem, FailingTest, FileView, RepoFiles,
    RunnerCommand, ScratchDir, Spectrum, TestLimits, TestRun, Tool, command_name, cut_at_timeout,
    file_name, first_word, in_test_dir, join, missing, numbers_before, parent,
};

/// Ruby with Minitest or RSpec.
pub struct Ruby;

/// Loads every test file given as an argument, then lets Minitest's `autorun` run them
/// verbosely (each test's name and verdict on its own line), output unbuffered. Each test gets
/// a watchdog thread: past `SLOPGUARD_PER_TEST_SECS` it raises a `Minitest::Assertion` naming
/// the test and "timed out after N s" in the test's thread, so the test fails and the run goes
/// on (a loop in Ruby code is interrupted; one inside a C extension may not be, and then the
/// suite limit applies).
///
/// With `SLOPGUARD_COVERAGE` set to a file path, it also records which lines of the project
/// each test runs (the `coverage` library, read and cleared around each test; the lines run
/// while the files loaded count for every test) and whether it passed, and writes them there
/// as JSON when the run ends: `[{"id": "Class#test_name", "passed": bool, "lines": {"lib/x.rb": [3, 4]}}]`.
const RUN_MINITEST_FILES: &str = r##"$stdout.sync = true; $stderr.sync = true
if (slopguard_cov_out = ENV['SLOPGUARD_COVERAGE'])
  begin
    require 'coverage'
    require 'json'
    require 'minitest'
    Coverage.start(lines: true)
    root = File.realpath(Dir.pwd) + '/'
    recorded = []
    take = lambda do
      Coverage.result(stop: false, clear: true).each_with_object({}) do |(file, data), out|
        next unless file.start_with?(root)
        rel = file[root.size..]
        next if rel.split('/')[0..-2].any? { |d| d.start_with?('.') || d == 'vendor' }
        counts = data.is_a?(Hash) ? data[:lines] : data
        lines = []
        counts.each_with_index { |c, i| lines << i + 1 if c && c > 0 }
        out[rel] = lines unless lines.empty?
      end
    end
    loaded = nil
    recorder = Module.new do
      define_method(:before_setup) do
        got = take.call
        loaded ||= got
        super()
      end
      define_method(:after_teardown) do
        begin
          super()
        ensure
          unless skipped?
            recorded << { id: "#{self.class}##{name}", passed: passed?, lines: take.call }
          end
        end
      end
    end
    Minitest::Test.prepend(recorder)
    at_exit do
      base = loaded || {}
      all = recorded.map { |t| t.merge(lines: base.merge(t[:lines]) { |_, a, b| (a | b).sort }) }
      File.write(slopguard_cov_out, JSON.dump(all))
    end
  rescue LoadError
  end
end
begin
  require 'minitest'
  limit = Float(ENV.fetch('SLOPGUARD_PER_TEST_SECS', '60'))
  guard = Module.new do
    define_method(:before_setup) do
      main = Thread.current
      id = "#{self.class}##{name}"
      @slopguard_watchdog = Thread.new do
        sleep limit
        main.raise(Minitest::Assertion, "#{id} timed out after #{'%g' % limit} s (slopguard per-test limit)")
      end
      super()
    end
    define_method(:after_teardown) do
      begin
        super()
      ensure
        @slopguard_watchdog&.kill
      end
    end
  end
  Minitest::Test.prepend(guard) if limit > 0
rescue LoadError, ArgumentError
end
files = ARGV.dup; ARGV.replace(['-v']); files.each { |f| require File.expand_path(f) }"##;

/// Runs every Minitest file of the project through [`RUN_MINITEST_FILES`] with the per-test
/// limit and `env`; `None` when the project has none.
fn run_minitest(
    files: &RepoFiles,
    limits: &TestLimits,
    env: &[(&str, &str)],
) -> Option<process::RunOutput> {
    let tests: Vec<&str> = files
        .files
        .iter()
        .filter(|f| is_minitest_file(f))
        .map(String::as_str)
        .collect();
    if tests.is_empty() {
        return None;
    }
    let mut args = vec!["-Ilib", "-Itest", "-e", RUN_MINITEST_FILES];
    args.extend(&tests);
    let secs = format!("{}", limits.per_test.as_secs_f64().max(0.1));
    let mut all_env = vec![("SLOPGUARD_PER_TEST_SECS", secs.as_str())];
    all_env.extend_from_slice(env);
    Some(process::run(
        "ruby",
        &args,
        &files.root,
        &all_env,
        limits.suite,
    ))
}

/// Compiles every file given as an argument without running it; prints the failures.
const COMPILE_FILES: &str = "bad = 0; ARGV.each { |f| begin; RubyVM::InstructionSequence.compile_file(f); \
     rescue SyntaxError => e; bad += 1; puts e.message; end }; exit(bad.zero? ? 0 : 1)";

/// Most Ruby files compiled by one build check.
const MAX_COMPILED_FILES: usize = 2000;

impl Ecosystem for Ruby {
    fn name(&self) -> &'static str {
        "ruby"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["rb"]
    }

    fn tools(&self) -> &'static [Tool] {
        &[Tool {
            name: "ruby",
            program: "ruby",
            version_args: &["--version"],
            install: "install Ruby (apt-get install ruby; Minitest comes with it)",
            without: crate::UNKNOWN_WITHOUT_IT,
        }]
    }

    fn detect(&self, files: &RepoFiles) -> bool {
        files.has("Gemfile")
            || files.has("Rakefile")
            || files
                .files
                .iter()
                .any(|f| f.ends_with(".gemspec") && !f.contains('/'))
            // Ruby code near the top without a manifest (a script collection, a small library
            // tested with Minitest), as Python is detected by its files.
            || files
                .files
                .iter()
                .any(|f| f.ends_with(".rb") && f.matches('/').count() <= 2)
    }

    fn stack_tag(&self, files: &RepoFiles) -> String {
        if files.has("Gemfile") {
            "ruby/bundler".into()
        } else {
            "ruby".into()
        }
    }

    fn commands(&self, files: &RepoFiles) -> Commands {
        Commands {
            build: "ruby -c <files>".into(),
            test: if uses_rspec(files) {
                "rspec".into()
            } else if files.has("Rakefile") {
                "rake test".into()
            } else {
                "ruby -Ilib -Itest test/**/*_test.rb".into()
            },
        }
    }

    fn build(&self, files: &RepoFiles, timeout: Duration) -> Build {
        const TOOL: &str = "ruby compile";
        if !process::on_path("ruby") {
            return Build::new(
                TOOL,
                BuildResult::Missing("install Ruby (apt-get install ruby)".into()),
            );
        }
        let sources: Vec<&str> = files
            .with_suffix(&[".rb"])
            .take(MAX_COMPILED_FILES)
            .map(String::as_str)
            .collect();
        if sources.is_empty() {
            return Build::new(TOOL, BuildResult::NotApplicable("no Ruby files".into()));
        }
        let mut args = vec!["-e", COMPILE_FILES];
        args.extend(&sources);
        let out = process::run("ruby", &args, &files.root, &[], timeout);
        Build::judge(TOOL, &out)
    }

    fn test(&self, files: &RepoFiles, limits: &TestLimits) -> TestRun {
        let timeout = limits.suite;
        if uses_rspec(files) {
            return run_rspec(files, timeout);
        }
        if !process::on_path("ruby") {
            return TestRun::not_run(&missing("ruby", "install Ruby (apt-get install ruby)"));
        }
        let Some(out) = run_minitest(files, limits, &[]) else {
            return TestRun::not_run("no Minitest files (test/**/*_test.rb)");
        };
        let root_prefix = format!("{}/", files.root.display());
        let locate = |run: &mut TestRun| {
            for f in &mut run.failing {
                f.file = f
                    .file
                    .take()
                    .map(|p| p.strip_prefix(&root_prefix).unwrap_or(&p).to_string())
                    .or_else(|| test_file_of_class(files, &f.id));
            }
        };
        let mut run = self.parse_output(&out.combined());
        locate(&mut run);
        if out.timed_out {
            let mut hanging = TestRun::default();
            if let Some(id) = minitest_started_last(&out.stdout) {
                hanging.push_failing(&id, None);
            }
            locate(&mut hanging);
            let mut run = cut_at_timeout("minitest", &out, run, hanging.failing, &out.combined());
            run.details.push("runner: minitest".into());
            return run;
        }
        let mut run = run.finish("minitest", &out.combined(), out.success());
        run.details.push("runner: minitest".into());
        run
    }

    /// Minitest only: the runner records each test's lines (`SLOPGUARD_COVERAGE`).
    fn coverage(&self, files: &RepoFiles, limits: &TestLimits) -> Option<Spectrum> {
        if uses_rspec(files) || !process::on_path("ruby") {
            return None;
        }
        let scratch = ScratchDir::new("rb-cover")?;
        let out_file = scratch.path().join("coverage.json");
        let out_path = out_file.display().to_string();
        run_minitest(files, limits, &[("SLOPGUARD_COVERAGE", out_path.as_str())])?;
        let text = std::fs::read_to_string(&out_file).ok();
        Spectrum::from_recorded_json(&text?)
    }

    fn parse_output(&self, text: &str) -> TestRun {
        let mut run = TestRun::default();
        let mut lines = text.lines().map(str::trim).peekable();
        while let Some(l) = lines.next() {
            if let Some((id, verdict)) = minitest_verbose_line(l) {
                if verdict == "." {
                    run.push_passing(id);
                }
            } else if l.ends_with(") Failure:") || l.ends_with(") Error:") {
                // `  1) Failure:` then `CalcTest#test_sub [test/calc_test.rb:10]:`
                if let Some(next) = lines.next() {
                    let (id, file) = minitest_failure_header(next);
                    // An `Error:` header names no file; its backtrace does.
                    let file = file.or_else(|| test_file_in_backtrace(lines.clone()));
                    run.push_failing(id, file);
                }
            } else if l.contains(" runs, ") && l.contains(" assertions, ") {
                let n = numbers_before(l, &["runs", "failures", "errors", "skips"]);
                run.ran = true;
                run.failed += n[1] + n[2];
                run.skipped += n[3];
                run.passed += n[0].saturating_sub(n[1] + n[2] + n[3]);
            } else if let Some(n) = rspec_summary(l) {
                run.ran = true;
                run.failed += n.1;
                run.skipped += n.2;
                run.passed += n.0.saturating_sub(n.1 + n.2);
            } else if let Some(rest) = l.strip_prefix("rspec ./") {
                // `rspec ./spec/calc_spec.rb:8 # Calc subtracts`
                if let Some((location, name)) = rest.split_once(" # ") {
                    let file = location.split(':').next().map(str::to_string);
                    run.push_failing(name, file);
                }
            }
        }
        run
    }

    fn is_test_file(&self, path: &str) -> bool {
        let name = file_name(path);
        let stem = name.strip_suffix(".rb").unwrap_or(name);
        stem.ends_with("_test")
            || stem.starts_with("test_")
            || stem.ends_with("_spec")
            || in_test_dir(path)
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
            "rspec" => RunnerCommand::test("rspec"),
            "rake" if matches!(words.get(1), Some(&"test" | &"spec")) => {
                RunnerCommand::test("rake")
            }
            "rubocop" => RunnerCommand::check("rubocop"),
            "ruby" if words.iter().skip(1).any(|w| is_minitest_file(w)) => {
                RunnerCommand::test("ruby (minitest)")
            }
            _ => None,
        }
    }

    fn ignored_dirs(&self) -> &'static [&'static str] {
        &[]
    }

    fn dependency_checks(&self, files: &RepoFiles) -> Vec<Check> {
        if !files.has("Gemfile") {
            return vec![Check::new(0.5, "no Gemfile")];
        }
        let lock = files.has("Gemfile.lock");
        vec![Check::new(
            if lock { 1.0 } else { 0.5 },
            if lock {
                "Gemfile.lock committed"
            } else {
                "Gemfile.lock missing"
            },
        )]
    }
}

/// A Minitest file: `*_test.rb` or `test_*.rb` under `test/`.
fn is_minitest_file(path: &str) -> bool {
    let name = file_name(path);
    (path.starts_with("test/") || path.contains("/test/"))
        && name.ends_with(".rb")
        && (name.ends_with("_test.rb") || name.starts_with("test_"))
}

/// Whether the repository's tests are an RSpec suite and rspec is installed.
fn uses_rspec(files: &RepoFiles) -> bool {
    (files.has(".rspec") || files.with_suffix(&["_spec.rb"]).next().is_some())
        && process::on_path("rspec")
}

fn run_rspec(files: &RepoFiles, timeout: Duration) -> TestRun {
    let out = process::run("rspec", &["--no-color"], &files.root, &[], timeout);
    if out.timed_out {
        let run = Ruby.parse_output(&out.combined());
        let hanging: Vec<FailingTest> = Vec::new();
        let mut run = cut_at_timeout("rspec", &out, run, hanging, &out.combined());
        run.details.push("runner: rspec".into());
        return run;
    }
    let mut run =
        Ruby.parse_output(&out.combined())
            .finish("rspec", &out.combined(), out.success());
    run.details.push("runner: rspec".into());
    run
}

/// The test Minitest's verbose output announced last without a verdict (`CalcTest#test_hang = `
/// as the last line): the one a killed run was in.
fn minitest_started_last(text: &str) -> Option<String> {
    let last = text.lines().rev().find(|l| !l.trim().is_empty())?.trim();
    let id = last.strip_suffix(" =")?;
    is_minitest_id(id).then(|| id.to_string())
}

/// Whether `id` names a Minitest test: `CalcTest#test_add`, or a test of the spec DSL, whose
/// groups and method carry the descriptions' spaces (`Calc::adding#test_0001_sums two`).
fn is_minitest_id(id: &str) -> bool {
    let Some((_, method)) = id.rsplit_once('#') else {
        return false;
    };
    !id.contains(' ') || crate::minitest_spec_description(method).is_some()
}

/// `CalcTest#test_add = 0.00 s = .` (Minitest -v): the id and the verdict (`.`, `F`, `E`, `S`).
fn minitest_verbose_line(l: &str) -> Option<(&str, &str)> {
    let (id, rest) = l.split_once(" = ")?;
    let verdict = rest.rsplit(" = ").next()?;
    (is_minitest_id(id) && matches!(verdict, "." | "F" | "E" | "S")).then_some((id, verdict))
}

/// `CalcTest#test_sub [test/calc_test.rb:10]:` or `CalcTest#test_div:`: the id and the file.
fn minitest_failure_header(l: &str) -> (&str, Option<String>) {
    let l = l.trim_end_matches(':');
    match l.split_once(" [") {
        Some((id, location)) => (id, location.split(':').next().map(str::to_string)),
        // A spec test's description has spaces: the whole line is its id.
        None if is_minitest_id(l) && l.contains(' ') => (l, None),
        None => (first_word(l), None),
    }
}

/// The first test file (`*_test.rb`, `test_*.rb`) a failure's backtrace runs through, as
/// printed (absolute; the caller makes it relative to the root), reading `lines` up to the
/// next failure or the summary.
fn test_file_in_backtrace<'a>(lines: impl Iterator<Item = &'a str>) -> Option<String> {
    lines
        .take_while(|l| !(l.ends_with(") Failure:") || l.ends_with(") Error:")))
        .take_while(|l| !(l.contains(" runs, ") && l.contains(" assertions, ")))
        .find_map(|l| {
            let end = l.find(".rb:")? + 3;
            let path = &l[..end];
            let name = path.rsplit('/').next()?;
            (name.ends_with("_test.rb") || name.starts_with("test_")).then(|| path.to_string())
        })
}

/// `3 examples, 1 failure, 1 pending`: (examples, failures, pending).
fn rspec_summary(l: &str) -> Option<(u32, u32, u32)> {
    let (examples, rest) = l.split_once(" example")?;
    let examples: u32 = examples.trim().parse().ok()?;
    let rest = rest.trim_start_matches('s');
    if !rest.starts_with(", ") || !rest.contains(" failure") {
        return None;
    }
    let n = numbers_before(
        &rest.replace("failures", "failure"),
        &["failure", "pending"],
    );
    Some((examples, n[0], n[1]))
}

/// The test file that defines the class of a Minitest id (`CalcTest#test_div`).
fn test_file_of_class(files: &RepoFiles, id: &str) -> Option<String> {
    let class = id.split('#').next()?;
    let needle = format!("class {class}");
    files
        .files
        .iter()
        .filter(|f| is_minitest_file(f))
        .find(|f| files.read(f).is_some_and(|s| s.contains(&needle)))
        .cloned()
}

/// Directories on a Ruby test run's load path, in the order `require "x"` searches them:
/// `lib/` (`-Ilib`), then the suite's own directories (Minitest's `-Itest`, RSpec's `spec/`).
const LOAD_PATH: &[&str] = &["lib", "test", "spec"];

/// The files a test requires: `require_relative` from its directory, `require` from the load
/// path. A required suite helper (`test/test_helper.rb`, `spec/spec_helper.rb`) is followed one
/// level, because that is where a suite usually requires the library under test.
fn imports(view: &dyn FileView, test_file: &str, text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for required in requires(view, test_file, text) {
        if is_suite_helper(&required)
            && let Some(helper) = view.read(&required)
        {
            out.extend(
                requires(view, &required, &helper)
                    .into_iter()
                    .filter(|p| !is_suite_helper(p)),
            );
        }
        out.insert(required);
    }
    out
}

/// The existing files the `require` and `require_relative` lines of `text` (the file `from`) name.
fn requires(view: &dyn FileView, from: &str, text: &str) -> Vec<String> {
    static REQUIRE: OnceLock<Regex> = OnceLock::new();
    let require = REQUIRE.get_or_init(|| {
        Regex::new(r#"(?m)^\s*require(_relative)?\s*\(?\s*['"]([^'"]+)['"]"#).expect("valid regex")
    });
    require
        .captures_iter(text)
        .filter_map(|c| {
            let target = c[2].trim_end_matches(".rb");
            if c.get(1).is_some() {
                join(parent(from), target)
                    .map(|p| format!("{p}.rb"))
                    .filter(|p| view.exists(p))
            } else {
                LOAD_PATH
                    .iter()
                    .map(|dir| format!("{dir}/{target}.rb"))
                    .find(|p| view.exists(p))
            }
        })
        .collect()
}

/// A file of the suite's own directories (`test/`, `spec/`) that is not itself a test file:
/// `test_helper.rb`, `spec_helper.rb`, `support/matchers.rb`.
fn is_suite_helper(path: &str) -> bool {
    let name = file_name(path);
    let is_test = name.ends_with("_spec.rb") || is_minitest_file(path);
    (path.starts_with("test/") || path.starts_with("spec/"))
        && (name.ends_with("_helper.rb") || !is_test)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemoryView;

    /// Real output of Minitest 5.15 (`ruby -Ilib -Itest -e ... -v`), paths absolute.
    const MINITEST: &str = "\
Run options: -v --seed 29673

# Running:

CalcTest#test_div = 0.00 s = E
CalcTest#test_skip = 0.00 s = S
CalcTest#test_add = 0.00 s = .
CalcTest#test_sub = 0.00 s = F

Finished in 0.000540s, 7414.0938 runs/s, 3707.0469 assertions/s.

  1) Error:
CalcTest#test_div:
ZeroDivisionError: divided by 0
    /tmp/rb/lib/calc.rb:4:in `/'
    /tmp/rb/test/calc_test.rb:14:in `test_div'

  2) Failure:
CalcTest#test_sub [/tmp/rb/test/calc_test.rb:10]:
Expected: 2
  Actual: 8

4 runs, 2 assertions, 1 failures, 1 errors, 1 skips
";

    #[test]
    fn minitest_output() {
        let run = Ruby.parse_output(MINITEST);
        assert!(run.ran);
        assert_eq!((run.passed, run.failed, run.skipped), (1, 2, 1));
        assert_eq!(run.passing, ["CalcTest#test_add"]);
        let ids: Vec<(&str, Option<&str>)> = run
            .failing
            .iter()
            .map(|f| (f.id.as_str(), f.file.as_deref()))
            .collect();
        assert_eq!(
            ids,
            [
                ("CalcTest#test_div", Some("/tmp/rb/test/calc_test.rb")),
                ("CalcTest#test_sub", Some("/tmp/rb/test/calc_test.rb"))
            ]
        );
    }

    #[test]
    fn spec_dsl_tests_are_read_with_the_spaces_of_their_descriptions() {
        let text = "Calc::adding#test_0001_sums two = 0.00 s = .\n\
                    Calc::adding#test_0002_carries = 0.00 s = F\n\
                    a = b = .\n";
        let run = Ruby.parse_output(text);
        assert_eq!(run.passing, ["Calc::adding#test_0001_sums two"]);
        let error = "  1) Error:\nCalc#test_0003_raises here:\nRuntimeError: boom\n    \
                     test/calc_test.rb:4:in `block (2 levels) in <main>'\n";
        let run = Ruby.parse_output(error);
        assert_eq!(run.failing[0].id, "Calc#test_0003_raises here");
        assert_eq!(run.failing[0].file.as_deref(), Some("test/calc_test.rb"));
        let last = "Calc#test_0001_sums two = 0.00 s = .\nCalc#test_0002_hangs here = ";
        assert_eq!(
            minitest_started_last(last).as_deref(),
            Some("Calc#test_0002_hangs here")
        );
    }

    #[test]
    fn the_test_minitest_started_last() {
        let text = "# Running:\n\nCalcTest#test_add = 0.00 s = .\nCalcTest#test_hang = ";
        assert_eq!(
            minitest_started_last(text).as_deref(),
            Some("CalcTest#test_hang")
        );
        assert_eq!(
            minitest_started_last("CalcTest#test_add = 0.00 s = .\n"),
            None
        );
    }

    #[test]
    fn rspec_output() {
        let text = "\
Failures:

  1) Calc subtracts
     Failure/Error: expect(Calc.sub(5, 3)).to eq(2)

Finished in 0.01 seconds (files took 0.1 seconds to load)
3 examples, 1 failure, 1 pending

Failed examples:

rspec ./spec/calc_spec.rb:8 # Calc subtracts";
        let run = Ruby.parse_output(text);
        assert!(run.ran);
        assert_eq!((run.passed, run.failed, run.skipped), (1, 1, 1));
        assert_eq!(run.failing[0].id, "Calc subtracts");
        assert_eq!(run.failing[0].file.as_deref(), Some("spec/calc_spec.rb"));
    }

    #[test]
    fn requires_resolve_to_files() {
        let view = MemoryView::from_pairs(&[
            ("lib/calc.rb", ""),
            ("lib/calc/parser.rb", ""),
            (
                "test/calc_test.rb",
                "require \"minitest/autorun\"\nrequire \"calc\"\nrequire_relative \"../lib/calc/parser\"\n",
            ),
        ]);
        let got = crate::sources_for_test(&view, "test/calc_test.rb");
        assert_eq!(got, ["lib/calc.rb", "lib/calc/parser.rb"]);
    }

    /// Minitest's `-Itest` and RSpec's `spec/`: a test that requires only its suite helper
    /// reaches the library through it; the helper's own helpers are not followed further.
    #[test]
    fn requires_follow_the_suite_helper_to_the_library() {
        let view = MemoryView::from_pairs(&[
            ("lib/shop/cart.rb", ""),
            ("lib/shop.rb", "require \"shop/cart\"\n"),
            (
                "test/test_helper.rb",
                "require \"minitest/autorun\"\nrequire \"shop\"\nrequire \"support/fixtures\"\n",
            ),
            ("test/support/fixtures.rb", "require \"shop/cart\"\n"),
            ("spec/spec_helper.rb", "require \"shop/cart\"\n"),
        ]);
        let got: Vec<_> = imports(&view, "test/shop/cart_test.rb", "require \"test_helper\"\n")
            .into_iter()
            .collect();
        assert_eq!(got, ["lib/shop.rb", "test/test_helper.rb"]);
        let got: Vec<_> = imports(&view, "spec/cart_spec.rb", "require \"spec_helper\"\n")
            .into_iter()
            .collect();
        assert_eq!(got, ["lib/shop/cart.rb", "spec/spec_helper.rb"]);
    }

    #[test]
    fn a_real_minitest_run_when_ruby_is_installed() {
        if !process::on_path("ruby") {
            eprintln!("NOTICE: ruby not installed; the real Minitest run is skipped");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("lib")).unwrap();
        std::fs::create_dir_all(root.join("test")).unwrap();
        std::fs::write(root.join("Gemfile"), "source 'https://rubygems.org'\n").unwrap();
        std::fs::write(
            root.join("lib/calc.rb"),
            "module Calc\n  def self.add(a, b) = a + b\n  def self.sub(a, b) = a + b\nend\n",
        )
        .unwrap();
        std::fs::write(
            root.join("test/calc_test.rb"),
            "require 'minitest/autorun'\nrequire 'calc'\n\nclass CalcTest < Minitest::Test\n  \
             def test_add\n    assert_equal 5, Calc.add(2, 3)\n  end\n\n  def test_sub\n    \
             assert_equal 2, Calc.sub(5, 3)\n  end\nend\n",
        )
        .unwrap();
        std::fs::remove_file(root.join("Gemfile")).unwrap();
        // Without a Gemfile, Rakefile or gemspec: detected by its Ruby files.
        let files = RepoFiles::walk(root);
        assert_eq!(crate::detect(&files)[0].name(), "ruby");
        let run = Ruby.test(&files, &TestLimits::with_suite(Duration::from_secs(60)));
        assert_eq!((run.passed, run.failed), (1, 1), "{run:?}");
        assert_eq!(run.failing[0].id, "CalcTest#test_sub");
        assert_eq!(run.failing[0].file.as_deref(), Some("test/calc_test.rb"));
        assert!(run.log.contains("Expected: 2"));
        assert_eq!(
            Ruby.build(&files, Duration::from_secs(60)).result,
            BuildResult::Passed
        );
        std::fs::write(
            root.join("lib/calc.rb"),
            "module Calc\n  def self.add(a, b\nend\n",
        )
        .unwrap();
        let broken = Ruby.build(&RepoFiles::walk(root), Duration::from_secs(60));
        assert!(
            matches!(broken.result, BuildResult::Failed(ref m) if m.contains("calc.rb")),
            "{broken:?}"
        );
    }
}
