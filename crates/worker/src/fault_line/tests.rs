//! The fault line, the suspects and the splice of a fixed statement.

use super::*;
use slopguard_change::MemTree;

fn tree(files: &[(&str, &str)]) -> MemTree {
    MemTree::new(
        files
            .iter()
            .map(|(p, c)| (p.to_string(), c.as_bytes().to_vec()))
            .collect(),
    )
}

const DB: &str = "import sqlite3\n\n\ndef find_user(conn, name):\n    \"\"\"Finds.\"\"\"\n    row = conn.execute(f\"SELECT id FROM users WHERE name = '{name}'\").fetchone()\n    return row\n";

#[test]
fn pytest_frame_in_the_source_names_the_statement() {
    let t = tree(&[("src/db.py", DB), ("tests/test_db.py", "x\n")]);
    let log = "tests/test_db.py:27:\n_ _ _\n    def find_user(conn, name):\n>       row = conn.execute(...)\nE   sqlite3.OperationalError: near \"brien\"\nsrc/db.py:6: OperationalError\n";
    let f = fault_line(log, &t, &["src/db.py".into()], &[]).expect("a fault line");
    assert_eq!((f.path.as_str(), f.start, f.end), ("src/db.py", 6, 6));
    assert!(f.text.contains("conn.execute"), "{}", f.text);
    assert_eq!(
        f.error.as_deref(),
        Some("sqlite3.OperationalError: near \"brien\"")
    );
    // A file that is not to be changed, or only test frames: nothing.
    assert_eq!(fault_line(log, &t, &["src/other.py".into()], &[]), None);
    assert_eq!(
        fault_line("tests/test_db.py:27: AssertionError\n", &t, &[], &[]),
        None
    );
}

#[test]
fn a_frame_at_a_definitions_first_line_is_no_fault_line() {
    // A failing doctest is reported at its function's `def` line.
    let t = tree(&[("src/db.py", DB), ("tests/test_db.py", "x\n")]);
    let log =
        "E   doctest.DocTestFailure: <DocTest db.find_user from /abs/src/db.py:4 (1 example)>\n";
    assert_eq!(fault_line(log, &t, &["src/db.py".into()], &[]), None);
    for header in [
        "def f(x):",
        "async def f(x):",
        "class Parser:",
        "pub(crate) fn parse(s: &str) -> u8 {",
        "pub const unsafe fn f() {",
        "func (p *Parser) Parse(s string) error {",
        "export default async function parse(s) {",
    ] {
        assert!(opens_a_definition(header), "{header}");
    }
    for statement in [
        "return define(x)",
        "const fn_name = f(x);",
        "functions.push(f)",
        "classes = 1",
    ] {
        assert!(!opens_a_definition(statement), "{statement}");
    }
}

#[test]
fn python_takes_the_innermost_frame_last_rust_the_first() {
    let src = "def a():\n    return b()\n\ndef b():\n    return 1 / 0\n";
    let t = tree(&[("m.py", src), ("src/lib.rs", "fn a() {\n    panic!()\n}\n")]);
    let log = "  File \"/abs/m.py\", line 2, in a\n  File \"/abs/m.py\", line 5, in b\n";
    assert_eq!(fault_line(log, &t, &["m.py".into()], &[]).unwrap().start, 5);
    let log = "thread 'x' panicked at src/lib.rs:2:5:\nat src/lib.rs:1:1\n";
    assert_eq!(
        fault_line(log, &t, &["src/lib.rs".into()], &[])
            .unwrap()
            .start,
        2
    );
}

#[test]
fn a_frame_in_a_failing_unit_test_of_the_source_file_is_no_fault_line() {
    let src = "fn a() -> u8 {\n    1\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n        assert_eq!(super::a(), 2);\n    }\n}\n";
    let t = tree(&[("src/lib.rs", src)]);
    let log = "thread 'tests::t' panicked at src/lib.rs:9:9:\nassertion `left == right` failed\n";
    let sources = ["src/lib.rs".to_string()];
    let test = "    fn t() {\n        assert_eq!(super::a(), 2);\n    }".to_string();
    assert_eq!(
        fault_line(log, &t, &sources, &[("src/lib.rs".into(), 8, test)]),
        None
    );
    // Without the test's span the assertion would be taken for the bug.
    assert_eq!(fault_line(log, &t, &sources, &[]).unwrap().start, 9);
}

#[test]
fn a_call_spanning_lines_is_one_statement() {
    let src = "fn f() {\n    let x = g(\n        1,\n        \")\",\n    );\n}\n";
    let f = statement_at("a.rs", src, 2).unwrap();
    assert_eq!((f.start, f.end), (2, 5));
    assert_eq!(statement_at("a.rs", src, 40), None);
    assert_eq!(statement_at("a.rs", "\n\nx\n", 1), None);
}

#[test]
fn the_fixed_statement_is_spliced_reindented() {
    let f = statement_at("src/db.py", DB, 6).unwrap();
    let reply = "row = conn.execute(\"SELECT id FROM users WHERE name = ?\", (name,)).fetchone()\n";
    let whole = splice_statement(&f, DB.as_bytes(), reply).unwrap().unwrap();
    assert!(whole.contains(
        "\n    row = conn.execute(\"SELECT id FROM users WHERE name = ?\", (name,)).fetchone()\n    return row\n"
    ));
    assert_eq!(whole.lines().count(), DB.lines().count());
    // The docstring above and the `return` below, copied around the fix, are not doubled.
    let reply = format!("    \"\"\"Finds.\"\"\"\n    {reply}    return row\n");
    let again = splice_statement(&f, DB.as_bytes(), &reply)
        .unwrap()
        .unwrap();
    assert_eq!(again, whole);
    // A whole file is not a statement fix; an empty one is refused.
    let long = "x = 1\n".repeat(20);
    assert!(splice_statement(&f, DB.as_bytes(), &long).is_none());
    assert!(matches!(
        splice_statement(&f, DB.as_bytes(), "\n\n"),
        Some(Err(_))
    ));
}

const WORDCOUNT: &str = "package wordcount\n\n// Count counts words.\nfunc Count(text string) map[string]int {\n\tcounts := make(map[string]int)\n\tfor _, w := range strings.Split(text, \" \") {\n\t\tif w == \"\" {\n\t\t\tcontinue\n\t\t}\n\t\t// count it\n\t\tcounts[strings.ToLower(w)]++\n\t}\n\treturn counts\n}\n";

#[test]
fn the_suspects_are_the_bodys_statements_reading_a_parameter_then_calls_first() {
    let t = tree(&[("wordcount.go", WORDCOUNT)]);
    let found = suspects(&FunctionTarget::new("wordcount.go", "Count", 4, 14), &t, 10);
    let shown: Vec<(usize, &str)> = found.iter().map(|f| (f.start, f.text.trim())).collect();
    // `text` is the parameter: the loop over it first, then the calls, the bare `if` last;
    // no `continue`, `}`, comment or bare `return counts`.
    assert_eq!(
        shown,
        [
            (6, "for _, w := range strings.Split(text, \" \") {"),
            (5, "counts := make(map[string]int)"),
            (11, "counts[strings.ToLower(w)]++"),
            (7, "if w == \"\" {"),
        ]
    );
    assert!(found.iter().all(
        |f| f.suspect_in.as_ref().map(|t| t.simple_name()) == Some("Count") && f.start == f.end
    ));
    assert_eq!(
        suspects(&FunctionTarget::new("wordcount.go", "Count", 4, 14), &t, 2).len(),
        2
    );
    assert!(suspects(&FunctionTarget::new("missing.go", "Count", 4, 14), &t, 4).is_empty());
}

#[test]
fn a_python_docstring_is_not_a_suspect_and_a_multi_line_call_is_one() {
    let src = "def total(items):\n    \"\"\"Sums the\n    prices.\"\"\"\n    values = [\n        i.price for i in items\n    ]\n    return sum(values) - 1\n";
    let t = tree(&[("cart.py", src)]);
    let found = suspects(&FunctionTarget::new("cart.py", "total", 1, 7), &t, 4);
    let spans: Vec<(usize, usize)> = found.iter().map(|f| (f.start, f.end)).collect();
    // The comprehension reads the parameter `items`: it comes before the `return`.
    assert_eq!(spans, [(4, 6), (7, 7)], "{found:#?}");
}

#[test]
fn a_signature_is_offered_when_it_gives_a_default_value() {
    let js = "function render (template, vars = {}, { missing = 'keep' } = {}) {\n  return template\n}\n\nfunction same (a, b) {\n  return a === b || a >= b\n}\n";
    let py = "def page(items,\n         per_page=20):\n    return items[:per_page]\n\n\ndef eq(a, b):\n    return a == b\n";
    let rb = "def parse(text, strict: false)\n  text\nend\n\ndef name(sym = :x)\n  sym\nend\n\ndef fetch(key)\n  key\nend\n";
    let t = tree(&[
        ("t.js", js),
        ("p.py", py),
        ("r.rb", rb),
        ("g.go", WORDCOUNT),
    ]);
    let found = signature_with_defaults(&FunctionTarget::new("t.js", "render", 1, 3), &t).unwrap();
    assert_eq!((found.start, found.end), (1, 1));
    assert!(found.text.starts_with("function render ("));
    assert_eq!(
        found.suspect_in.as_ref().map(|f| f.simple_name()),
        Some("render")
    );
    // A signature over two lines is one statement.
    let found = signature_with_defaults(&FunctionTarget::new("p.py", "page", 1, 3), &t).unwrap();
    assert_eq!((found.start, found.end), (1, 2));
    // ... and its second line is no statement of the body.
    let body = suspects(&FunctionTarget::new("p.py", "page", 1, 3), &t, 4);
    assert_eq!(body.iter().map(|f| f.start).collect::<Vec<_>>(), [3]);
    assert!(signature_with_defaults(&FunctionTarget::new("r.rb", "parse", 1, 3), &t).is_some());
    assert!(signature_with_defaults(&FunctionTarget::new("r.rb", "name", 5, 7), &t).is_some());
    // Comparisons and arrows in a body are not defaults; no default, no suspect.
    assert!(signature_with_defaults(&FunctionTarget::new("t.js", "same", 5, 7), &t).is_none());
    assert!(signature_with_defaults(&FunctionTarget::new("p.py", "eq", 6, 7), &t).is_none());
    assert!(signature_with_defaults(&FunctionTarget::new("r.rb", "fetch", 9, 11), &t).is_none());
    assert!(signature_with_defaults(&FunctionTarget::new("g.go", "Count", 4, 14), &t).is_none());
}

#[test]
fn a_suspect_is_spliced_back_as_a_line_fix() {
    let t = tree(&[("wordcount.go", WORDCOUNT)]);
    let found = suspects(&FunctionTarget::new("wordcount.go", "Count", 4, 14), &t, 4);
    let header = found.iter().find(|f| f.start == 6).unwrap();
    // The model wrote the whole loop back with the header fixed: only the header changes.
    let reply = "for _, w := range strings.Fields(text) {\n\tif w == \"\" {\n\t\tcontinue\n\t}\n";
    let fixed = splice_statement(header, WORDCOUNT.as_bytes(), reply)
        .unwrap()
        .unwrap();
    assert_eq!(
        fixed,
        WORDCOUNT.replace("strings.Split(text, \" \")", "strings.Fields(text)")
    );
}

#[test]
fn parameter_names_of_each_languages_signature() {
    let names = |sig: &str| parameter_names(&sig.lines().collect::<Vec<_>>());
    assert_eq!(
        names("func Count(text string, n int) map[string]int {"),
        ["text", "n"]
    );
    assert_eq!(names("func Pair(a, b int) int {"), ["a", "b"]);
    assert_eq!(
        names("def average(values, *, default=None):"),
        ["values", "default"]
    );
    assert_eq!(
        names("pub fn peek(&mut self, at: Option<(usize, u8)>) -> Option<&T> {"),
        ["self", "at"]
    );
    assert_eq!(
        names("function slugify(title, { lower = true } = {}, ...rest) {"),
        ["title", "rest"]
    );
    assert_eq!(
        names("def f(\n    items: list[int],\n    key=len,\n):"),
        ["items", "key"]
    );
    assert!(names("class Cart:").is_empty());
}

#[test]
fn a_block_header_answered_without_its_opener_gets_it_back() {
    let t = tree(&[("wordcount.go", WORDCOUNT)]);
    let found = suspects(&FunctionTarget::new("wordcount.go", "Count", 4, 14), &t, 4);
    let header = found.iter().find(|f| f.start == 6).unwrap();
    let fixed = splice_statement(
        header,
        WORDCOUNT.as_bytes(),
        "\tfor _, w := range strings.Fields(text)\n",
    )
    .unwrap()
    .unwrap();
    assert_eq!(
        fixed,
        WORDCOUNT.replace("strings.Split(text, \" \")", "strings.Fields(text)")
    );
    // Python: the colon of an `if`.
    let src = "def f(x):\n    if x > 0:\n        return 1\n    return 0\n";
    let header = statement_at("f.py", src, 2).unwrap();
    let fixed = splice_statement(&header, src.as_bytes(), "if x >= 0")
        .unwrap()
        .unwrap();
    assert_eq!(fixed, src.replace("x > 0", "x >= 0"));
    // A header answered with its opener, or a statement that opens nothing: as written.
    assert_eq!(
        with_block_opener_kept("if x >= 0:".into(), "if x > 0:"),
        "if x >= 0:"
    );
    assert_eq!(with_block_opener_kept("y = 2".into(), "y = 1"), "y = 2");
    // A different statement in its place (not the same block keyword) is not patched.
    assert_eq!(
        with_block_opener_kept("return 1".into(), "if x > 0:"),
        "return 1"
    );
}

#[test]
fn a_method_chain_one_call_a_line_is_one_suspect() {
    let src = "function slugify(title) {\n  return String(title)\n    .toLowerCase()\n    .replace(/[^a-z0-9]/g, '-')\n    .replace(/^-+|-+$/g, '');\n}\n";
    let t = tree(&[("src/slugify.js", src)]);
    let found = suspects(
        &FunctionTarget::new("src/slugify.js", "slugify", 1, 6),
        &t,
        4,
    );
    let spans: Vec<(usize, usize)> = found.iter().map(|f| (f.start, f.end)).collect();
    assert_eq!(spans, [(2, 5)], "{found:#?}");
}

#[test]
fn a_statement_that_only_raises_is_offered_last() {
    let src = "def average(values):\n    if not values:\n        raise ValueError(\"empty\")\n    return total(values) // len(values)\n";
    let t = tree(&[("calc/stats.py", src)]);
    let found = suspects(
        &FunctionTarget::new("calc/stats.py", "average", 1, 4),
        &t,
        4,
    );
    let starts: Vec<usize> = found.iter().map(|f| f.start).collect();
    assert_eq!(starts, [4, 2, 3]);
}
