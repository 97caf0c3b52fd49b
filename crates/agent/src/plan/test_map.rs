//! Test file -> the source files it exercises, from its imports (Python, Rust, Go, JS/TS).
//! Used by the plan post-processors that put the failing tests first and retarget test-only hints.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use regex::Regex;

use crate::analysis::RepoFiles;

/// Read access to a repository's files, so the mapping is testable on an in-memory tree.
pub trait FileView {
    /// Every file, relative with `/`, sorted.
    fn list(&self) -> Vec<String>;
    /// Whether `path` exists.
    fn exists(&self, path: &str) -> bool;
    /// Contents of `path`.
    fn read(&self, path: &str) -> Option<String>;
}

impl FileView for RepoFiles {
    fn list(&self) -> Vec<String> {
        self.files.clone()
    }
    fn exists(&self, path: &str) -> bool {
        self.has(path)
    }
    fn read(&self, path: &str) -> Option<String> {
        RepoFiles::read(self, path)
    }
}

/// An in-memory tree (path -> contents).
#[derive(Debug, Clone, Default)]
pub struct MemoryView(pub BTreeMap<String, String>);

impl MemoryView {
    /// Builds a view from `(path, contents)` pairs.
    pub fn from_pairs(pairs: &[(&str, &str)]) -> Self {
        Self(
            pairs
                .iter()
                .map(|(p, c)| (p.to_string(), c.to_string()))
                .collect(),
        )
    }
}

impl FileView for MemoryView {
    fn list(&self) -> Vec<String> {
        self.0.keys().cloned().collect()
    }
    fn exists(&self, path: &str) -> bool {
        self.0.contains_key(path)
    }
    fn read(&self, path: &str) -> Option<String> {
        self.0.get(path).cloned()
    }
}

fn re(cell: &'static OnceLock<Regex>, pat: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pat).unwrap_or_else(|_| Regex::new("$^").expect("empty regex")))
}

fn parent(p: &str) -> &str {
    p.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

fn join(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = if dir.is_empty() {
        Vec::new()
    } else {
        dir.split('/').collect()
    };
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// The source files `test_file` imports (existing, non-test files only), sorted.
pub fn sources_for_test(view: &dyn FileView, test_file: &str) -> Vec<String> {
    let Some(text) = view.read(test_file) else {
        return Vec::new();
    };
    let mut out = BTreeSet::new();
    let ext = test_file.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    match ext {
        "py" => python(view, test_file, &text, &mut out),
        "rs" => rust(view, test_file, &text, &mut out),
        "go" => go(view, test_file, &text, &mut out),
        "js" | "mjs" | "cjs" | "jsx" | "ts" | "tsx" | "mts" | "cts" => {
            js(view, test_file, &text, &mut out)
        }
        _ => {}
    }
    out.into_iter()
        .filter(|p| p != test_file && !crate::analysis::is_test_file(p))
        .collect()
}

fn python(view: &dyn FileView, test_file: &str, text: &str, out: &mut BTreeSet<String>) {
    static FROM: OnceLock<Regex> = OnceLock::new();
    static IMPORT: OnceLock<Regex> = OnceLock::new();
    let from = re(
        &FROM,
        r"(?m)^\s*from\s+(\.*)([\w\.]*)\s+import\s+\(?\s*([\w\s,\*]+)",
    );
    let import = re(&IMPORT, r"(?m)^\s*import\s+([\w\.]+(?:\s*,\s*[\w\.]+)*)");
    let mut modules: Vec<(String, Vec<String>, usize)> = Vec::new();
    for c in from.captures_iter(text) {
        let dots = c.get(1).map(|m| m.as_str().len()).unwrap_or(0);
        let module = c.get(2).map(|m| m.as_str()).unwrap_or("").to_string();
        let names = c
            .get(3)
            .map(|m| {
                m.as_str()
                    .split(',')
                    .map(|n| n.split_whitespace().next().unwrap_or("").to_string())
                    .filter(|n| !n.is_empty() && n != "*")
                    .collect()
            })
            .unwrap_or_default();
        modules.push((module, names, dots));
    }
    for c in import.captures_iter(text) {
        for m in c[1].split(',') {
            modules.push((m.trim().to_string(), Vec::new(), 0));
        }
    }
    let dir = parent(test_file);
    for (module, names, dots) in modules {
        let bases: Vec<String> = if dots > 0 {
            let mut d = dir.to_string();
            for _ in 1..dots {
                d = parent(&d).to_string();
            }
            vec![d]
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
            for cand in [format!("{stem}.py"), format!("{stem}/__init__.py")] {
                if view.exists(&cand) {
                    out.insert(cand);
                }
            }
            for n in &names {
                let cand = format!("{stem}/{n}.py");
                if view.exists(&cand) {
                    out.insert(cand);
                }
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
}

fn rust_crate_name(view: &dyn FileView, test_file: &str) -> (String, String) {
    // The nearest Cargo.toml above the test decides the crate (and its root dir).
    let mut dir = parent(test_file).to_string();
    loop {
        let manifest = if dir.is_empty() {
            "Cargo.toml".to_string()
        } else {
            format!("{dir}/Cargo.toml")
        };
        if let Some(text) = view.read(&manifest)
            && let Ok(v) = text.parse::<toml_lite::Table>()
            && let Some(name) = v.package_name()
        {
            return (name.replace('-', "_"), dir);
        }
        if dir.is_empty() {
            return (String::new(), String::new());
        }
        dir = parent(&dir).to_string();
    }
}

/// A tiny `[package] name = "..."` reader (the full TOML parser lives in other crates).
mod toml_lite {
    /// Just enough of a manifest.
    pub struct Table(Option<String>);

    impl std::str::FromStr for Table {
        type Err = ();
        fn from_str(s: &str) -> Result<Self, ()> {
            let mut in_pkg = false;
            for line in s.lines() {
                let l = line.trim();
                if l.starts_with('[') {
                    in_pkg = l == "[package]";
                    continue;
                }
                if in_pkg
                    && let Some(rest) = l.strip_prefix("name")
                    && let Some(v) = rest.trim_start().strip_prefix('=')
                {
                    return Ok(Table(Some(v.trim().trim_matches('"').to_string())));
                }
            }
            Ok(Table(None))
        }
    }

    impl Table {
        pub fn package_name(&self) -> Option<&str> {
            self.0.as_deref()
        }
    }
}

fn rust(view: &dyn FileView, test_file: &str, text: &str, out: &mut BTreeSet<String>) {
    static USE: OnceLock<Regex> = OnceLock::new();
    let use_re = re(&USE, r"(?m)^\s*(?:pub\s+)?use\s+([\w:]+)(?:::\{([^}]*)\})?");
    let (crate_name, crate_dir) = rust_crate_name(view, test_file);
    let src = if crate_dir.is_empty() {
        "src".to_string()
    } else {
        format!("{crate_dir}/src")
    };
    for c in use_re.captures_iter(text) {
        let path = c[1].trim_end_matches("::");
        let mut segs: Vec<&str> = path.split("::").collect();
        let Some(first) = segs.first().copied() else {
            continue;
        };
        if first == "super" || first == "self" {
            // Unit tests inside the source file itself.
            if !crate::analysis::is_test_file(test_file) {
                out.insert(test_file.to_string());
            }
            continue;
        }
        if first != crate_name && first != "crate" {
            continue;
        }
        segs.remove(0);
        let mut found = false;
        // Longest module prefix that exists as a file.
        for len in (1..=segs.len()).rev() {
            let module = segs[..len].join("/");
            for cand in [
                format!("{src}/{module}.rs"),
                format!("{src}/{module}/mod.rs"),
            ] {
                if view.exists(&cand) {
                    out.insert(cand);
                    found = true;
                }
            }
            if found {
                break;
            }
        }
        if !found {
            // `use my_crate::{a, b}` or items at the root: names may be modules.
            if let Some(group) = c.get(2) {
                for name in group.as_str().split(',').map(str::trim) {
                    let cand = format!("{src}/{name}.rs");
                    if view.exists(&cand) {
                        out.insert(cand);
                        found = true;
                    }
                }
            }
        }
        if !found {
            for cand in [format!("{src}/lib.rs"), format!("{src}/main.rs")] {
                if view.exists(&cand) {
                    out.insert(cand);
                    break;
                }
            }
        }
    }
}

fn go(view: &dyn FileView, test_file: &str, text: &str, out: &mut BTreeSet<String>) {
    let dir = parent(test_file);
    let in_dir =
        |d: &str, f: &str| parent(f) == d && f.ends_with(".go") && !f.ends_with("_test.go");
    let files = view.list();
    for f in files.iter().filter(|f| in_dir(dir, f)) {
        out.insert(f.clone());
    }
    static IMP: OnceLock<Regex> = OnceLock::new();
    let imp = re(&IMP, r#""([\w\.\-/]+)""#);
    let module = view
        .read("go.mod")
        .and_then(|m| slopguard_fingerprint::go_module_path(&m))
        .unwrap_or_default();
    if module.is_empty() {
        return;
    }
    let imports_block = text
        .split("import")
        .skip(1)
        .map(|s| s.split(')').next().unwrap_or(s))
        .collect::<Vec<_>>()
        .join("\n");
    for c in imp.captures_iter(&imports_block) {
        if let Some(rel) = c[1].strip_prefix(&module) {
            let d = rel.trim_start_matches('/');
            for f in files.iter().filter(|f| in_dir(d, f)) {
                out.insert(f.clone());
            }
        }
    }
}

fn js(view: &dyn FileView, test_file: &str, text: &str, out: &mut BTreeSet<String>) {
    static REQ: OnceLock<Regex> = OnceLock::new();
    let req = re(
        &REQ,
        r#"(?:require\(\s*|from\s+|import\s+|import\(\s*)['"](\.{1,2}/[^'"]+)['"]"#,
    );
    let dir = parent(test_file);
    for c in req.captures_iter(text) {
        let Some(base) = join(dir, &c[1]) else {
            continue;
        };
        let exts = ["", ".js", ".ts", ".mjs", ".cjs", ".jsx", ".tsx"];
        let mut hit = false;
        for e in exts {
            let cand = format!("{base}{e}");
            if view.exists(&cand) {
                out.insert(cand);
                hit = true;
                break;
            }
        }
        if !hit {
            for e in ["js", "ts", "mjs", "cjs"] {
                let cand = format!("{base}/index.{e}");
                if view.exists(&cand) {
                    out.insert(cand);
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
