//! Definitions and imports per language (insta snapshots of the `ok_basic` fixtures), body-hash
//! behaviour under renames and edits, and robustness on hostile inputs.

use std::path::Path;

use slopguard_lang::{DefKind, FileKind, Language, SourceAnalysis, analyze, detect};

fn fixture(name: &str) -> (Language, String) {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/code")
        .join(name);
    let src = std::fs::read_to_string(&p).expect("fixture");
    let FileKind::Code(lang) = detect(name, src.as_bytes()) else {
        panic!("{name} not code")
    };
    (lang, src)
}

fn render(a: &SourceAnalysis) -> String {
    let mut out = String::from("definitions:\n");
    for d in &a.definitions {
        out.push_str(&format!(
            "  {:?} {} {}-{}\n",
            d.kind, d.name, d.start_line, d.end_line
        ));
    }
    out.push_str("imports:\n");
    for i in &a.imports {
        out.push_str(&format!("  {} @{}\n", i.module, i.line));
    }
    out
}

macro_rules! snap {
    ($test:ident, $file:literal) => {
        #[test]
        fn $test() {
            let (lang, src) = fixture($file);
            let a = analyze(lang, &src);
            assert!(a.syntax_errors.is_empty(), "{:?}", a.syntax_errors);
            insta::assert_snapshot!(render(&a));
        }
    };
}

snap!(python_definitions, "ok_basic.py");
snap!(rust_definitions, "ok_basic.rs");
snap!(javascript_definitions, "ok_basic.js");
snap!(typescript_definitions, "ok_basic.ts");
snap!(tsx_definitions, "ok_basic.tsx");
snap!(go_definitions, "ok_basic.go");
snap!(java_definitions, "OkBasic.java");
snap!(c_definitions, "ok_basic.c");
snap!(cpp_definitions, "ok_basic.cpp");
snap!(cpp_header_as_c_definitions, "ok_cpp_header.h");
snap!(ruby_definitions, "ok_basic.rb");
snap!(bash_definitions, "ok_basic.sh");

/// (language, original, renamed, body changed, old name, new name)
const RENAMES: &[(Language, &str, &str, &str, &str, &str)] = &[
    (
        Language::Python,
        "def total(xs):\n    return sum(xs) if xs else total([0])\n",
        "def grand_total(xs):\n    return sum(xs) if xs else grand_total([0])\n",
        "def total(xs):\n    return sum(xs) + 1\n",
        "total",
        "grand_total",
    ),
    (
        Language::Rust,
        "fn total(xs: &[u8]) -> u32 {\n    xs.iter().map(|&x| u32::from(x)).sum()\n}\n",
        "fn sum_all(xs: &[u8]) -> u32 {\n    xs.iter().map(|&x| u32::from(x)).sum()\n}\n",
        "fn total(xs: &[u8]) -> u32 {\n    xs.iter().map(|&x| u32::from(x)).product()\n}\n",
        "total",
        "sum_all",
    ),
    (
        Language::JavaScript,
        "export function total(xs) { return xs.reduce((a, b) => a + b, 0); }\n",
        "export function sumAll(xs) { return xs.reduce((a, b) => a + b, 0); }\n",
        "export function total(xs) { return xs.reduce((a, b) => a * b, 1); }\n",
        "total",
        "sumAll",
    ),
    (
        Language::TypeScript,
        "const total = (xs: number[]): number => xs.length;\n",
        "const count = (xs: number[]): number => xs.length;\n",
        "const total = (xs: number[]): number => xs.length + 1;\n",
        "total",
        "count",
    ),
    (
        Language::Go,
        "package p\n\nfunc Total(xs []int) int {\n\treturn len(xs)\n}\n",
        "package p\n\nfunc Count(xs []int) int {\n\treturn len(xs)\n}\n",
        "package p\n\nfunc Total(xs []int) int {\n\treturn cap(xs)\n}\n",
        "Total",
        "Count",
    ),
    (
        Language::Java,
        "class A {\n  int total(int x) { return x * 2; }\n}\n",
        "class A {\n  int doubled(int x) { return x * 2; }\n}\n",
        "class A {\n  int total(int x) { return x * 3; }\n}\n",
        "A.total",
        "A.doubled",
    ),
    (
        Language::C,
        "int total(int a, int b) {\n    return a + b;\n}\n",
        "int sum(int a, int b) {\n  return a + b;\n}\n",
        "int total(int a, int b) {\n    return a - b;\n}\n",
        "total",
        "sum",
    ),
    (
        Language::Cpp,
        "namespace n {\nint total(int a) { return a; }\n}\n",
        "namespace n {\nint ident(int a) { return a; }\n}\n",
        "namespace n {\nint total(int a) { return -a; }\n}\n",
        "n::total",
        "n::ident",
    ),
    (
        Language::Ruby,
        "def total(xs)\n  xs.sum\nend\n",
        "def sum_all(xs)\n  xs.sum\nend\n",
        "def total(xs)\n  xs.max\nend\n",
        "total",
        "sum_all",
    ),
    (
        Language::Bash,
        "total() {\n  echo \"$1\"\n}\n",
        "sum_all() {\n  echo \"$1\"\n}\n",
        "total() {\n  echo \"$2\"\n}\n",
        "total",
        "sum_all",
    ),
];

fn hash_of(lang: Language, src: &str, name: &str) -> u64 {
    let a = analyze(lang, src);
    assert!(
        a.syntax_errors.is_empty(),
        "{lang:?}: {:?}",
        a.syntax_errors
    );
    a.definitions
        .iter()
        .find(|d| d.name == name)
        .unwrap_or_else(|| panic!("{lang:?}: no {name} in {:?}", a.definitions))
        .body_hash
}

#[test]
fn rename_keeps_body_hash_and_edit_changes_it() {
    for &(lang, orig, renamed, edited, old, new) in RENAMES {
        let h = hash_of(lang, orig, old);
        assert_eq!(
            h,
            hash_of(lang, renamed, new),
            "{lang:?}: rename changed the hash"
        );
        assert_ne!(
            h,
            hash_of(lang, edited, old),
            "{lang:?}: edit kept the hash"
        );
    }
}

#[test]
fn commonjs_exports_are_definitions() {
    let src = "'use strict';\n\nexports.normalizeType = function (type) {\n  return type;\n};\n\nmodule.exports.setCharset = function setCharset(t, c) {\n  return t + c;\n};\n\nexports.methods = ['get'];\nexports['quoted'] = 1;\nmodule.exports = { main };\nfunction inner() {\n  exports.nested = 1;\n}\n";
    let a = analyze(Language::JavaScript, src);
    let defs: Vec<(String, DefKind, u32, u32)> = a
        .definitions
        .iter()
        .map(|d| (d.name.clone(), d.kind, d.start_line, d.end_line))
        .collect();
    assert_eq!(
        defs,
        vec![
            ("normalizeType".to_string(), DefKind::Function, 3, 5),
            ("setCharset".to_string(), DefKind::Function, 7, 9),
            ("methods".to_string(), DefKind::Export, 11, 11),
            ("inner".to_string(), DefKind::Function, 14, 16),
        ]
    );
}

#[test]
fn simple_names() {
    let a = analyze(
        Language::Ruby,
        "class A\n  def f; end\n  def self.g; end\nend\n",
    );
    let names: Vec<&str> = a.definitions.iter().map(|d| d.simple_name()).collect();
    assert_eq!(names, ["A", "f", "g"]);
    let a = analyze(Language::Rust, "struct S;\nimpl S { fn m(&self) {} }\n");
    let names: Vec<&str> = a.definitions.iter().map(|d| d.simple_name()).collect();
    assert_eq!(names, ["S", "S", "m"]);
}

#[test]
fn ruby_methods_in_class_self_are_the_classs_own() {
    let a = analyze(
        Language::Ruby,
        "module Util\n  class << self\n    def snake_case(s)\n      s.downcase\n    end\n  end\nend\n",
    );
    let found: Vec<(&str, u32, u32)> = a
        .definitions
        .iter()
        .map(|d| (d.name.as_str(), d.start_line, d.end_line))
        .collect();
    assert_eq!(found, [("Util", 1, 7), ("Util.snake_case", 3, 5)]);
}

#[test]
fn references_are_collected() {
    let a = analyze(
        Language::Python,
        "from x import helper\n\ndef f():\n    return helper(obj.attr)\n",
    );
    for name in ["helper", "f", "obj", "attr"] {
        assert!(
            a.references.iter().any(|r| r == name),
            "{name}: {:?}",
            a.references
        );
    }
    let a = analyze(Language::Ruby, "before_action :load_user\n");
    assert!(a.references.iter().any(|r| r == "load_user"));
}

/// (language, source, expected 1-based line of the first certain error)
const BLIND_SPOTS: &[(Language, &str, u32)] = &[
    (
        Language::Python,
        "def ok():\n    return 1\n\ndef cut():\n",
        4,
    ),
    (Language::Python, "class Cut:", 1),
    (Language::Python, "class C:\n    def m(self):\n", 2),
    (Language::Python, "if x:\n    a = 1\n  b = 2\n", 3),
    (Language::Python, "x = foo(1,\n\ny = 2\n", 1),
    (Language::Python, "x = 'abc\n", 1),
    (
        Language::Rust,
        "fn main() {\n    println!(\"{}\", x y);\n}\n",
        2,
    ),
    (
        Language::Rust,
        "fn main() {\n    let v = vec![1, 2 3];\n}\n",
        2,
    ),
    (
        Language::Rust,
        "fn main() {\n    assert_eq!(a b, c);\n}\n",
        2,
    ),
    (
        Language::Rust,
        "fn main() {\n    write!(f, \"{}\", 1 +);\n}\n",
        2,
    ),
    (Language::C, "int f(void) {\n    return 1;\n", 1),
    (
        Language::Cpp,
        "API_EXPORT int f();\nint g() {\n  return 1;\n",
        2,
    ),
];

#[test]
fn blind_spots_are_caught_with_their_line() {
    for &(lang, src, line) in BLIND_SPOTS {
        let a = analyze(lang, src);
        let first = a
            .syntax_errors
            .first()
            .unwrap_or_else(|| panic!("{lang:?} {src:?}: no certain error"));
        assert_eq!(first.line, line, "{lang:?} {src:?}: {:?}", a.syntax_errors);
    }
}

#[test]
fn c_macros_and_ifdefs_are_not_certain() {
    let cases = [
        "EXPORT int f(void);\nint g(void) { return 0; }\n",
        "#ifdef A\nint f(int a) {\n#else\nint f(long a) {\n#endif\n  return 0;\n}\n",
        "struct S {\n  Q_OBJECT\n  int x;\n};\n",
        "static const unsigned char t[] = {\n#include \"table.h\"\n};\n",
    ];
    for src in cases {
        for lang in [Language::C, Language::Cpp] {
            let a = analyze(lang, src);
            assert!(
                a.syntax_errors.is_empty(),
                "{lang:?} {src:?}: {:?}",
                a.syntax_errors
            );
        }
    }
}

#[test]
fn hostile_inputs_never_panic() {
    let deep_parens = format!("x = {}1{}\n", "(".repeat(5000), ")".repeat(5000));
    let deep_rust = format!(
        "fn f() {{ let x = {}1{}; }}\n",
        "[".repeat(3000),
        "]".repeat(3000)
    );
    let unclosed = "{".repeat(20000);
    let nul = "def f():\n    return '\0'\n\0\0";
    let long_line = "a".repeat(1 << 20);
    let inputs: [&str; 7] = [
        "",
        nul,
        &deep_parens,
        &deep_rust,
        &unclosed,
        &long_line,
        "\u{feff}",
    ];
    for lang in Language::ALL {
        for src in inputs {
            let a = analyze(lang, src);
            assert!(a.syntax_errors.len() <= slopguard_lang::MAX_ERRORS);
        }
    }
    for format in [
        slopguard_lang::DataFormat::Json,
        slopguard_lang::DataFormat::Jsonc,
        slopguard_lang::DataFormat::Toml,
        slopguard_lang::DataFormat::Yaml,
        slopguard_lang::DataFormat::Ini,
    ] {
        for src in inputs {
            let _ = slopguard_lang::parse_data(format, src);
        }
    }
}
