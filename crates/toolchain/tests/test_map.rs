//! The test-to-source maps of every ecosystem, on in-memory trees.

use slopguard_toolchain::{MemoryView, sources_for_test};

#[test]
fn python_from_imports_resolve_to_modules() {
    let v = MemoryView::from_pairs(&[
        ("calc/__init__.py", ""),
        ("calc/ops.py", "def sub(a, b): ..."),
        ("src/app/db.py", ""),
        (
            "tests/test_ops.py",
            "import unittest\nfrom calc.ops import add, sub\nimport app.db\n",
        ),
    ]);
    assert_eq!(
        sources_for_test(&v, "tests/test_ops.py"),
        vec!["calc/ops.py", "src/app/db.py"]
    );
}

#[test]
fn python_relative_and_package_imports() {
    let v = MemoryView::from_pairs(&[
        ("pkg/__init__.py", ""),
        ("pkg/util.py", ""),
        (
            "pkg/test_util.py",
            "from . import util\nfrom .util import f\n",
        ),
    ]);
    assert_eq!(
        sources_for_test(&v, "pkg/test_util.py"),
        vec!["pkg/util.py"]
    );
}

#[test]
fn rust_integration_test_maps_to_module_files() {
    let v = MemoryView::from_pairs(&[
        ("Cargo.toml", "[package]\nname = \"sample-calc\"\n"),
        ("src/lib.rs", "pub mod ops;"),
        ("src/ops.rs", ""),
        (
            "tests/ops_test.rs",
            "use sample_calc::ops::{add, sub};\nuse std::fmt;\n",
        ),
        ("tests/root_test.rs", "use sample_calc::{helper};\n"),
    ]);
    assert_eq!(
        sources_for_test(&v, "tests/ops_test.rs"),
        vec!["src/ops.rs"]
    );
    assert_eq!(
        sources_for_test(&v, "tests/root_test.rs"),
        vec!["src/lib.rs"]
    );
}

#[test]
fn go_test_maps_to_package_and_local_imports() {
    let v = MemoryView::from_pairs(&[
        ("go.mod", "module example.com/calc\n"),
        ("calc.go", ""),
        (
            "calc_test.go",
            "package calc\nimport (\n\t\"testing\"\n\t\"example.com/calc/util\"\n)\n",
        ),
        ("util/u.go", ""),
        ("util/u_test.go", ""),
        ("other/o.go", ""),
    ]);
    assert_eq!(
        sources_for_test(&v, "calc_test.go"),
        vec!["calc.go", "util/u.go"]
    );
}

#[test]
fn js_relative_requires_and_imports() {
    let v = MemoryView::from_pairs(&[
        ("src/calc.js", ""),
        ("src/lib/index.ts", ""),
        (
            "test/calc.test.js",
            "const { sub } = require('../src/calc');\nimport x from '../src/lib';\nconst a = require('assert');\n",
        ),
    ]);
    assert_eq!(
        sources_for_test(&v, "test/calc.test.js"),
        vec!["src/calc.js", "src/lib/index.ts"]
    );
}
