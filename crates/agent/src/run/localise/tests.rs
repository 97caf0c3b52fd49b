//! Localisation: targets by the tests' source and by coverage, suspect statements.

use super::*;

fn targets(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn functions_the_failing_tests_call_ranked_by_the_test_names() {
    let src = "class Ops:\n    def sub(self, a, b):\n        return a - b\n\n\ndef add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return helper(a) * b\n\n\ndef helper(a):\n    return a\n";
    let tree = slopguard_change::MemTree::new(
        [("ops.py".to_string(), src.as_bytes().to_vec())]
            .into_iter()
            .collect(),
    );
    let fc = |defs: &[(&str, usize, usize)]| FailureContext {
        output: String::new(),
        tests: Vec::new(),
        frame_files: Vec::new(),
        exercised: defs
            .iter()
            .map(|(n, a, b)| ("ops.py".to_string(), n.to_string(), *a, *b))
            .collect(),
    };
    let names =
        |fs: Vec<prompt::FunctionTarget>| fs.into_iter().map(|f| f.name).collect::<Vec<_>>();
    let all = fc(&[
        ("Ops", 1, 3),
        ("add", 6, 7),
        ("Ops.sub", 2, 3),
        ("mul", 10, 11),
    ]);
    // The class is left out; the function a failing test is named after comes first.
    let t = targets(&["tests/test_ops.py::OpsTest::test_sub_negative"]);
    assert_eq!(
        names(function_targets(&all, &t, &tree, None)),
        ["Ops.sub", "add", "mul"]
    );
    // Camel-case test names (Go, JavaScript) name their function too.
    let t = targets(&["example.com/ops::TestMulOverflow"]);
    assert_eq!(
        names(function_targets(&all, &t, &tree, None)),
        ["mul", "add", "Ops.sub"]
    );
    // A name that is only part of a word does not count.
    let t = targets(&["t.py::test_address"]);
    assert_eq!(
        names(function_targets(&all, &t, &tree, None)),
        ["add", "Ops.sub", "mul"]
    );
    assert!(function_targets(&fc(&[("Ops", 1, 3)]), &t, &tree, None).is_empty());
    // A failing test in a file to change is never offered as the code to fix.
    let mut with_test = fc(&[("add", 6, 7)]);
    with_test.exercised.insert(
        0,
        ("tests/test_ops.py".into(), "OpsTest.test_add".into(), 1, 2),
    );
    let tree_with_test = slopguard_change::MemTree::new(
        [
            ("ops.py".to_string(), src.as_bytes().to_vec()),
            (
                "tests/test_ops.py".to_string(),
                b"def test_add():\n    assert add(1, 2) == 3\n".to_vec(),
            ),
        ]
        .into_iter()
        .collect(),
    );
    let t = targets(&["tests/test_ops.py::OpsTest::test_add"]);
    assert_eq!(
        names(function_targets(&with_test, &t, &tree_with_test, None)),
        ["add"]
    );
    // The functions the first one calls follow the ones the tests call.
    let t = targets(&["t.py::test_mul"]);
    assert_eq!(
        names(function_targets(&fc(&[("mul", 10, 11)]), &t, &tree, None)),
        ["mul", "helper"]
    );
}

#[test]
fn a_function_the_passing_tests_call_too_is_less_suspect() {
    let src = "def total(xs):\n    return sum(xs)\n\n\ndef average(xs):\n    return total(xs) // len(xs)\n";
    let tests = "from calc import average, total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n\n\ndef test_total_empty():\n    assert total([]) == 0\n\n\ndef test_average_fraction():\n    assert average([1, 2]) == total([1, 2]) / 2\n";
    let tree = slopguard_change::MemTree::new(
        [
            ("calc.py".to_string(), src.as_bytes().to_vec()),
            ("test_calc.py".to_string(), tests.as_bytes().to_vec()),
        ]
        .into_iter()
        .collect(),
    );
    let fc = FailureContext {
        output: String::new(),
        tests: vec![(
            "test_calc.py".into(),
            12,
            "def test_average_fraction():\n    assert average([1, 2]) == total([1, 2]) / 2".into(),
        )],
        frame_files: Vec::new(),
        exercised: vec![
            ("calc.py".into(), "total".into(), 1, 2),
            ("calc.py".into(), "average".into(), 5, 6),
        ],
    };
    // No test is named after either; `total` is what the passing tests call.
    let t = targets(&["test_calc.py::test_average_fraction"]);
    let got: Vec<String> = function_targets(&fc, &t, &tree, None)
        .into_iter()
        .map(|f| f.name)
        .collect();
    assert_eq!(got, ["average", "total"]);
    let none: Vec<BTreeSet<String>> = Vec::new();
    let x = prompt::FunctionTarget {
        path: "calc.py".into(),
        name: "x".into(),
        start: 1,
        end: 2,
    };
    assert_eq!(suspicion(&x, &none, &none), 0.0);
}

#[test]
fn a_test_mentions_the_method_its_language_runs_for_it() {
    // `str(d)` runs `Duration.__str__` without naming it.
    let to_str = prompt::FunctionTarget {
        path: "duration.py".into(),
        name: "Duration.__str__".into(),
        start: 10,
        end: 14,
    };
    let failing = vec![context::identifier_words(
        "def test_str():\n    assert str(Duration(days=1)) == '1 day'",
    )];
    let passing = vec![context::identifier_words(
        "def test_add():\n    assert Duration(1) + Duration(2) == Duration(3)",
    )];
    assert_eq!(suspicion(&to_str, &failing, &passing), 1.0);
    assert_eq!(suspicion(&to_str, &passing, &failing), 0.0);
}

#[test]
fn a_one_line_definition_comes_after_a_longer_one_as_suspect() {
    let src = "package lru\n\nfunc (c *Cache) Len() int { return c.n }\n\nfunc (c *Cache) Put(k string) {\n\tc.n++\n\tc.keys = append(c.keys, k)\n}\n";
    let tree = slopguard_change::MemTree::new(
        [("lru.go".to_string(), src.as_bytes().to_vec())]
            .into_iter()
            .collect(),
    );
    let fc = FailureContext {
        output: String::new(),
        tests: vec![(
            "lru_test.go".into(),
            3,
            "func TestUpdate(t *testing.T) {\n\tc.Put(\"a\")\n\tif c.Len() != 1 {}\n}".into(),
        )],
        frame_files: Vec::new(),
        exercised: vec![
            ("lru.go".into(), "Cache.Len".into(), 3, 3),
            ("lru.go".into(), "Cache.Put".into(), 5, 8),
        ],
    };
    let t = targets(&["example.com/lru::TestUpdate"]);
    let got: Vec<String> = function_targets(&fc, &t, &tree, None)
        .into_iter()
        .map(|f| f.name)
        .collect();
    assert_eq!(got, ["Cache.Put", "Cache.Len"]);
}

/// A coverage localisation of `tests`: (passed, lines of `path`).
fn localisation(path: &str, tests: &[(bool, &[u32])]) -> Localisation {
    let spectrum = Spectrum {
        tests: tests
            .iter()
            .enumerate()
            .map(|(i, (passed, lines))| slopguard_toolchain::TestCoverage {
                id: format!("t{i}"),
                passed: *passed,
                lines: [(path.to_string(), lines.iter().copied().collect())]
                    .into_iter()
                    .collect(),
            })
            .collect(),
    };
    Localisation::new(spectrum)
}

const INI: &str = "package ini\n\n\
    func Parse(s string) string {\n\treturn value(s)\n}\n\n\
    func value(v string) string {\n\tif v == \"\" {\n\t\treturn v\n\t}\n\treturn v[1:]\n}\n\n\
    func (f *File) Get(k string) string {\n\treturn f.m[k]\n}\n\n\
    func (f *File) String() string {\n\treturn \"file\"\n}\n";

fn ini_tree() -> slopguard_change::MemTree {
    slopguard_change::MemTree::new(
        [("ini.go".to_string(), INI.as_bytes().to_vec())]
            .into_iter()
            .collect(),
    )
}

#[test]
fn where_the_failing_tests_run_only_what_every_test_runs_the_tests_source_orders() {
    // Lines: Parse 3-5, value 7-12, Get 14-16. The failing test stops at line 8 of
    // `value` (an exception); the passing ones run all of it.
    let cov = localisation(
        "ini.go",
        &[
            (false, &[3, 4, 7, 8, 14, 15]),
            (true, &[3, 4, 7, 8, 9, 11, 14, 15]),
            (true, &[3, 4, 7, 8, 9, 11, 14, 15]),
        ],
    );
    assert!(!cov.sets_apart);
    let fc = FailureContext {
        output: String::new(),
        tests: vec![(
            "ini_test.go".into(),
            3,
            "func TestGet(t *testing.T) {\n\tf := Parse(\"x\")\n\tf.Get(\"a\")\n}".into(),
        )],
        frame_files: Vec::new(),
        exercised: vec![("ini.go".into(), "File.Get".into(), 14, 16)],
    };
    let t = targets(&["example.com/ini::TestGet"]);
    let names: Vec<String> = function_targets(&fc, &t, &ini_tree(), Some(&cov))
        .into_iter()
        .map(|f| f.name)
        .collect();
    // `Get`, which the test names, first; then the others the failing test ran.
    assert_eq!(names[0], "File.Get");
    assert_eq!(names.len(), 3, "{names:?}");
    // A line only the failing test runs sets it apart.
    let apart = localisation("ini.go", &[(false, &[3, 4, 7, 11]), (true, &[3, 4, 7, 8])]);
    assert!(apart.sets_apart);
}

#[test]
fn coverage_puts_the_helper_only_failing_tests_reach_before_what_the_test_names() {
    // Lines: Parse 3-5, value 7-12 (11: `return v[1:]`), Get 14-16, String 18-20.
    let cov = localisation(
        "ini.go",
        &[
            (false, &[3, 4, 7, 8, 11, 14, 15, 18, 19]),
            (true, &[3, 4, 7, 8, 9, 14, 15]),
            (true, &[3, 4, 7, 8, 9, 14, 15]),
        ],
    );
    let fc = FailureContext {
        output: String::new(),
        tests: vec![(
            "ini_test.go".into(),
            3,
            "func TestComment(t *testing.T) {\n\tf := Parse(\"x\")\n\tif f.Get(\"a\") != \"\" {}\n}"
                .into(),
        )],
        frame_files: Vec::new(),
        exercised: vec![
            ("ini.go".into(), "Parse".into(), 3, 5),
            ("ini.go".into(), "File.Get".into(), 14, 16),
        ],
    };
    let t = targets(&["example.com/ini::TestComment"]);
    let names =
        |fs: Vec<prompt::FunctionTarget>| fs.into_iter().map(|f| f.name).collect::<Vec<_>>();
    // The message's `String` ran only in the failing test too, but it renders the message.
    assert_eq!(
        names(function_targets(&fc, &t, &ini_tree(), Some(&cov))),
        ["value", "Parse", "File.Get"]
    );
    // Without coverage the tests' source decides: what they call.
    assert_eq!(
        names(function_targets(&fc, &t, &ini_tree(), None)),
        ["Parse", "File.Get", "value"]
    );
    // A test that renders the value itself checks the text: `String` is code under test.
    let renders = FailureContext {
        tests: vec![(
            "ini_test.go".into(),
            3,
            "func TestComment(t *testing.T) {\n\tf := Parse(\"x\")\n\tif f.String() != \"\" {}\n}"
                .into(),
        )],
        ..fc
    };
    assert!(
        names(function_targets(&renders, &t, &ini_tree(), Some(&cov)))
            .contains(&"File.String".to_string())
    );
}

/// The one-line statement at `start` of `ini.go`.
fn line(start: usize) -> FaultLine {
    FaultLine {
        path: "ini.go".into(),
        start,
        end: start,
        text: String::new(),
        error: None,
        suspect_in: None,
    }
}

#[test]
fn statements_only_failing_tests_run_are_offered_first() {
    let cov = localisation("ini.go", &[(false, &[8, 11]), (true, &[8, 9])]);
    let ordered: Vec<usize> = most_suspect_first(vec![line(8), line(9), line(11)], &cov, 2)
        .into_iter()
        .map(|l| l.start)
        .collect();
    assert_eq!(ordered, [11, 8]);
}

#[test]
fn the_statements_set_apart_are_those_scoring_above_a_line_every_test_runs() {
    let starts = |lines: Vec<FaultLine>| lines.into_iter().map(|l| l.start).collect::<Vec<_>>();
    // Line 11 runs in the failing tests alone, line 10 in them and one passing test, line 8
    // in every test.
    let cov = localisation(
        "ini.go",
        &[
            (false, &[8, 10, 11]),
            (false, &[8, 10, 11]),
            (true, &[8, 9, 10]),
            (true, &[8]),
        ],
    );
    let ranked = most_suspect_first(vec![line(8), line(9), line(10), line(11)], &cov, 4);
    assert_eq!(starts(set_apart(&cov, &ranked, 3)), [11, 10]);
    assert_eq!(starts(set_apart(&cov, &ranked, 1)), [11]);
    // Every line the failing tests run, the passing ones run too: nothing is set apart.
    let cov = localisation("ini.go", &[(false, &[8, 11]), (true, &[8, 9, 11])]);
    let ranked = most_suspect_first(vec![line(8), line(11)], &cov, 4);
    assert!(set_apart(&cov, &ranked, 3).is_empty());
}

#[test]
fn of_two_functions_the_failing_test_alone_runs_the_one_with_more_such_lines_comes_first() {
    // `value` (7-12) has two lines only the failing test runs, `Parse` (3-5) one.
    let cov = localisation("ini.go", &[(false, &[4, 8, 9, 11]), (true, &[8])]);
    let names: Vec<String> = covered_functions(&cov, &ini_tree(), &[], false)
        .into_iter()
        .map(|f| f.name)
        .collect();
    assert_eq!(names, ["value", "Parse"]);
}

#[test]
fn a_definitions_body_starts_after_its_decorators_and_first_line() {
    let src = [
        "@cached",
        "@other(1)",
        "def f(x):",
        "    return x",
        "",
        "def g(): return 1",
    ];
    assert_eq!(body_start(&src, 1, 4), 4);
    assert_eq!(body_start(&src, 6, 6), 6);
    // A `def` line that ran when the file loaded does not make its function suspect.
    let cov = localisation("m.py", &[(false, &[3]), (true, &[3, 4])]);
    let tree = slopguard_change::MemTree::new(
        [("m.py".to_string(), src.join("\n").into_bytes())]
            .into_iter()
            .collect(),
    );
    assert!(covered_functions(&cov, &tree, &[], false).is_empty());
}

#[test]
fn a_function_every_test_runs_is_less_suspect_as_a_whole() {
    let cov = localisation("ini.go", &[(false, &[4, 8]), (true, &[4]), (true, &[4])]);
    assert!(span_suspicion(&cov, "ini.go", 7, 12) > span_suspicion(&cov, "ini.go", 3, 5));
    assert_eq!(span_suspicion(&cov, "ini.go", 14, 16), 0.0);
    assert!(renders_for_messages("File.String"));
    assert!(renders_for_messages("Duration.__repr__"));
    assert!(!renders_for_messages("File.Get"));
}

#[test]
fn name_words_split_snake_and_camel_case() {
    assert_eq!(
        name_words("TestMergeUnsorted"),
        ["test", "merge", "unsorted"]
    );
    assert_eq!(
        name_words("test_last_page_2"),
        ["test", "last", "page", "2"]
    );
    assert_eq!(name_words("lastPage"), ["last", "page"]);
    assert_eq!(name_words("HTTPServer"), ["httpserver"]);
}

#[test]
fn the_helpers_of_the_first_target_with_statements_come_before_one_line_wrappers() {
    let src = "const none = () => '';\nconst blank = (s) => s.replace(/\\S/g, ' ');\n\nconst isEscaped = (s, at) => {\n\tlet i = at - 1;\n\twhile (s[i] === '\\\\') {\n\t\ti -= 1;\n\t}\n\treturn (at - i) % 2 === 0;\n};\n\nexport default function strip(s, {whitespace = true} = {}) {\n\tconst f = whitespace ? blank : none;\n\treturn isEscaped(s, 0) ? f(s, 0, 1) : s;\n}\n";
    let tree = slopguard_change::MemTree::new(
        [("index.js".to_string(), src.as_bytes().to_vec())]
            .into_iter()
            .collect(),
    );
    let fc = FailureContext {
        output: String::new(),
        tests: Vec::new(),
        frame_files: Vec::new(),
        exercised: vec![("index.js".into(), "strip".into(), 12, 15)],
    };
    let t = targets(&["strips comments inside strings"]);
    let names: Vec<String> = function_targets(&fc, &t, &tree, None)
        .into_iter()
        .map(|f| f.name)
        .collect();
    assert_eq!(names, ["strip", "isEscaped", "none"]);
}
