//! Per-test coverage of real runs (pytest, Go, Minitest, node:test, cargo): the line only the failing test runs is the
//! most suspect one, in a helper the test never names. Each is skipped with a NOTICE when its
//! toolchain is not installed.

mod common;

use std::path::Path;
use std::time::Duration;

use common::{has_pytest, write};
use slopguard_toolchain::{RepoFiles, Spectrum, TestLimits, per_test_coverage, process};

fn spectrum(root: &Path) -> Spectrum {
    let limits = TestLimits {
        suite: Duration::from_secs(120),
        per_test: Duration::from_secs(20),
    };
    per_test_coverage(&RepoFiles::walk(root), &limits).expect("coverage recorded")
}

/// Each recorded test's id and whether it passed, in the order recorded.
fn verdicts(s: &Spectrum) -> Vec<(&str, bool)> {
    s.tests.iter().map(|t| (t.id.as_str(), t.passed)).collect()
}

/// The most suspect line of `path`, with its score.
fn top_line(s: &Spectrum, path: &str) -> (u32, f64) {
    s.suspicion()
        .into_iter()
        .filter(|((p, _), _)| p == path)
        .map(|((_, l), score)| (l, score))
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        .unwrap_or_else(|| panic!("no line of {path} is suspect: {s:#?}"))
}

#[test]
fn pytest_records_each_tests_lines() {
    if !has_pytest("the pytest coverage test") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "ini.py",
                "def parse(text):\n\
                 \x20   return {k: value(v) for k, v in (l.split('=') for l in text.split())}\n\
                 \n\
                 \n\
                 def value(v):\n\
                 \x20   if ';' in v:\n\
                 \x20       return v.split(';')[1]\n\
                 \x20   return v\n\
                 \n\
                 \n\
                 def get(d, k):\n\
                 \x20   return d[k]\n",
            ),
            (
                "tests/test_ini.py",
                "from ini import parse, get\n\n\n\
                 def test_plain():\n    assert get(parse('a=1'), 'a') == '1'\n\n\n\
                 def test_comment():\n    assert get(parse('a=1;x'), 'a') == '1'\n\n\n\
                 @__import__('pytest').mark.skip\ndef test_skipped():\n    pass\n",
            ),
        ],
    );
    let s = spectrum(dir.path());
    let verdicts = verdicts(&s);
    assert_eq!(
        verdicts,
        [
            ("tests/test_ini.py::test_plain", true),
            ("tests/test_ini.py::test_comment", false)
        ]
    );
    assert_eq!(top_line(&s, "ini.py"), (7, 1.0));
    // What ran at import (the `def` lines) belongs to every test.
    assert!(
        s.tests.iter().all(|t| t.lines["ini.py"].contains(&5)),
        "{s:#?}"
    );
    // The test file is the project's too; nothing of pytest or the standard library is.
    assert!(s.tests[0].lines.contains_key("tests/test_ini.py"));
    let paths: Vec<&String> = s.tests[0].lines.keys().collect();
    assert!(
        paths
            .iter()
            .all(|p| *p == "ini.py" || p.starts_with("tests/")),
        "{paths:?}"
    );
}

#[test]
fn go_runs_each_test_alone_with_a_cover_profile() {
    if !process::on_path("go") {
        eprintln!("NOTICE: go not installed: the Go coverage test is skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("go.mod", "module example.com/ini\n\ngo 1.20\n"),
            (
                "ini.go",
                "package ini\n\
                 \n\
                 import \"strings\"\n\
                 \n\
                 func Parse(v string) string {\n\
                 \treturn value(v)\n\
                 }\n\
                 \n\
                 func value(v string) string {\n\
                 \tif i := strings.Index(v, \";\"); i >= 0 {\n\
                 \t\treturn v[i+1:]\n\
                 \t}\n\
                 \treturn v\n\
                 }\n",
            ),
            (
                "ini_test.go",
                "package ini\n\
                 \n\
                 import \"testing\"\n\
                 \n\
                 func TestPlain(t *testing.T) {\n\
                 \tif Parse(\"1\") != \"1\" {\n\
                 \t\tt.Fatal(\"plain\")\n\
                 \t}\n\
                 }\n\
                 \n\
                 func TestComment(t *testing.T) {\n\
                 \tif Parse(\"1;x\") != \"1\" {\n\
                 \t\tt.Fatal(\"comment\")\n\
                 \t}\n\
                 }\n",
            ),
        ],
    );
    let s = spectrum(dir.path());
    let verdicts = verdicts(&s);
    assert_eq!(
        verdicts,
        [
            ("example.com/ini::TestPlain", true),
            ("example.com/ini::TestComment", false)
        ]
    );
    assert_eq!(top_line(&s, "ini.go"), (11, 1.0));
}

#[test]
fn minitest_records_each_tests_lines() {
    if !process::on_path("ruby") {
        eprintln!("NOTICE: ruby not installed: the Minitest coverage test is skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "lib/ini.rb",
                "module Ini\n\
                 \x20 def self.parse(text)\n\
                 \x20   value(text)\n\
                 \x20 end\n\
                 \n\
                 \x20 def self.value(v)\n\
                 \x20   if v.include?(';')\n\
                 \x20     return v.split(';').last\n\
                 \x20   end\n\
                 \x20   v\n\
                 \x20 end\n\
                 end\n",
            ),
            (
                "test/ini_test.rb",
                "require 'minitest/autorun'\n\
                 require 'ini'\n\
                 \n\
                 class IniTest < Minitest::Test\n\
                 \x20 def test_plain\n\
                 \x20   assert_equal '1', Ini.parse('1')\n\
                 \x20 end\n\
                 \n\
                 \x20 def test_comment\n\
                 \x20   assert_equal '1', Ini.parse('1;x')\n\
                 \x20 end\n\
                 \n\
                 \x20 def test_skipped\n\
                 \x20   skip 'later'\n\
                 \x20 end\n\
                 end\n",
            ),
        ],
    );
    let s = spectrum(dir.path());
    let mut verdicts = verdicts(&s);
    verdicts.sort();
    assert_eq!(
        verdicts,
        [
            ("IniTest#test_comment", false),
            ("IniTest#test_plain", true)
        ]
    );
    assert_eq!(top_line(&s, "lib/ini.rb"), (8, 1.0));
    // What ran while the files loaded (the `def` lines) belongs to every test.
    assert!(
        s.tests.iter().all(|t| t.lines["lib/ini.rb"].contains(&6)),
        "{s:#?}"
    );
}

#[test]
fn node_test_records_each_tests_lines_in_commonjs_and_esm_files() {
    if !process::on_path("node") {
        eprintln!("NOTICE: node not installed: the node --test coverage test is skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "package.json",
                "{\"scripts\": {\"test\": \"node --test\"}}\n",
            ),
            (
                "index.js",
                "function value(v) {\n\
                 \x20 if (v.includes(';')) {\n\
                 \x20   return v.split(';')[1];\n\
                 \x20 }\n\
                 \x20 return v;\n\
                 }\n\
                 \n\
                 function parse(text) {\n\
                 \x20 return value(text);\n\
                 }\n\
                 \n\
                 module.exports = { parse };\n",
            ),
            (
                "test/index.test.js",
                "const { test } = require('node:test');\n\
                 const assert = require('node:assert');\n\
                 const { parse } = require('../index.js');\n\
                 test('plain', () => { assert.strictEqual(parse('1'), '1'); });\n\
                 test('comment', () => { assert.strictEqual(parse('1;x'), '1'); });\n",
            ),
            (
                "test/esm.test.mjs",
                "import { it, describe } from 'node:test';\n\
                 import assert from 'node:assert/strict';\n\
                 import mod from '../index.js';\n\
                 describe('esm', () => { it('plain esm', () => { assert.equal(mod.parse('2'), '2'); }); });\n",
            ),
        ],
    );
    let s = spectrum(dir.path());
    let mut verdicts = verdicts(&s);
    verdicts.sort();
    assert_eq!(
        verdicts,
        [
            ("test/esm.test.mjs::plain esm", true),
            ("test/index.test.js::comment", false),
            ("test/index.test.js::plain", true)
        ]
    );
    assert_eq!(top_line(&s, "index.js"), (3, 1.0));
    // What ran while the files loaded (the `module.exports` line) belongs to every test.
    assert!(
        s.tests.iter().all(|t| t.lines["index.js"].contains(&12)),
        "{s:#?}"
    );
}

#[test]
fn cargo_test_records_each_tests_lines_through_an_instrumented_copy() {
    if !process::on_path("cargo") {
        eprintln!("NOTICE: cargo not installed: the cargo coverage test is skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let lib = "#![deny(warnings)]\n\
               mod ini;\n\
               pub fn parse(v: &str) -> &str {\n\
               \x20   ini::value(v)\n\
               }\n\
               #[cfg(test)]\n\
               mod tests {\n\
               \x20   #[test]\n\
               \x20   fn plain() {\n\
               \x20       assert_eq!(super::parse(\"1\"), \"1\");\n\
               \x20   }\n\
               }\n";
    write(
        dir.path(),
        &[
            (
                "Cargo.toml",
                "[package]\nname = \"ini_demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            ),
            ("src/lib.rs", lib),
            (
                "src/ini.rs",
                "pub(crate) fn value(v: &str) -> &str {\n\
                 \x20   if let Some(i) = v.find(';') {\n\
                 \x20       return &v[i + 1..];\n\
                 \x20   }\n\
                 \x20   match v.len() {\n\
                 \x20       0 => \"\",\n\
                 \x20       _ => v,\n\
                 \x20   }\n\
                 }\n",
            ),
            (
                "tests/it.rs",
                "#[test]\nfn comment() {\n    assert_eq!(ini_demo::parse(\"1;x\"), \"1\");\n}\n",
            ),
        ],
    );
    let s = spectrum(dir.path());
    let mut verdicts = verdicts(&s);
    verdicts.sort();
    assert_eq!(verdicts, [("comment", false), ("tests::plain", true)]);
    // The helper the test never names, on the line only the failing test runs.
    assert_eq!(top_line(&s, "src/ini.rs"), (3, 1.0));
    let plain = &s.tests.iter().find(|t| t.passed).unwrap().lines;
    assert_eq!(
        plain["src/ini.rs"].iter().copied().collect::<Vec<_>>(),
        [2, 5, 7]
    );
    // The test module is not instrumented; the repository is not touched.
    assert_eq!(plain["src/lib.rs"].iter().copied().collect::<Vec<_>>(), [4]);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/lib.rs")).unwrap(),
        lib
    );
}

#[test]
fn a_no_std_crate_of_the_2015_edition_is_recorded_too() {
    if !process::on_path("cargo") {
        eprintln!("NOTICE: cargo not installed: the cargo coverage test is skipped");
        return;
    }
    // No `edition` (2015: `use` paths start at the crate root) and no `std` at the root: the
    // probe module must still find `std`.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "Cargo.toml",
                "[package]\nname = \"nostd_demo\"\nversion = \"0.1.0\"\n",
            ),
            (
                "src/lib.rs",
                "#![no_std]\n\
                 pub fn half(v: u32) -> u32 {\n\
                 \x20   v / 2\n\
                 }\n\
                 #[cfg(test)]\n\
                 mod tests {\n\
                 \x20   #[test]\n\
                 \x20   fn halves() {\n\
                 \x20       assert_eq!(super::half(4), 2);\n\
                 \x20   }\n\
                 }\n",
            ),
        ],
    );
    let s = spectrum(dir.path());
    assert_eq!(verdicts(&s), [("tests::halves", true)]);
    let lines = &s.tests[0].lines;
    assert_eq!(lines["src/lib.rs"].iter().copied().collect::<Vec<_>>(), [3]);
}
