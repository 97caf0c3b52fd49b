//! phantom-import: new imports (Python, JavaScript/TypeScript, Rust, Go) must resolve to the
//! standard library, a declared dependency, or a local module.
//!
//! Name resolution per ecosystem:
//! - Python: the top-level module against `sys.stdlib_module_names` (shipped as data), declared
//!   distributions under PEP 503 normalisation with a shipped import-name map (`yaml` ->
//!   PyYAML, `PIL` -> Pillow, `sklearn` -> scikit-learn, `bs4` -> beautifulsoup4, ...) and the
//!   `python-x` / `pyx` conventions, namespace packages (`google.cloud.storage` ->
//!   google-cloud-storage), and local modules (`x.py` / `x/` next to the file, in any ancestor
//!   directory, or under `src/`). Imports guarded by `try:` or `if TYPE_CHECKING:` are optional
//!   and skipped.
//! - JS/TS: Node built-ins (with `node:`), npm dependencies after `@scope/pkg/sub`
//!   normalisation (`@types/x` counts for `x`), directories reachable through a `baseUrl`
//!   (`components/x` when `components/` or `src/components/` exists); relative paths and
//!   aliases are skipped.
//! - Rust: `std`/`core`/`alloc`/`proc_macro`/`test` and path keywords, dependencies with `-`/`_`
//!   equivalence, the workspace's own crates, modules declared or present next to the file.
//! - Go: standard library (no dot in the first path element), the module's own path, the
//!   modules of a `go.work`'s `use` directories, required modules (prefix match on path
//!   elements).
//!
//! Each ecosystem is judged only when the tree has a manifest of it: a script in a repository
//! with no `pyproject.toml`/`requirements.txt` gives no ground truth.

use serde::Serialize;
use slopguard_fingerprint::Fingerprint;
use slopguard_lang::{Import, Language};

use crate::config_refs::{is_node_builtin, normalize_npm};
use crate::data;
use crate::links::TreeView;

/// An import that resolves to nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PhantomImport {
    /// The module as written.
    pub module: String,
    /// The package name it needs ("requests", "serde_json", "github.com/x/y").
    pub package: String,
    /// 1-based line.
    pub line: u32,
    /// "python", "npm", "rust" or "go".
    pub ecosystem: &'static str,
}

/// PEP 503 normalisation: lowercase, runs of `-`, `_`, `.` become `-`.
pub fn pep503(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut sep = false;
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            sep = true;
        } else {
            if sep && !out.is_empty() {
                out.push('-');
            }
            sep = false;
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

/// Packages that come with the Python toolchain or test runner and are routinely used without
/// being declared.
const PY_TOOLCHAIN: &[&str] = &[
    "pytest",
    "_pytest",
    "setuptools",
    "pkg_resources",
    "pip",
    "wheel",
];

fn file_dir(path: &str) -> &str {
    path.rfind('/').map(|i| &path[..i]).unwrap_or("")
}

fn ancestors(path: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut d = file_dir(path);
    loop {
        out.push(d);
        if d.is_empty() {
            break;
        }
        d = file_dir(d);
    }
    out
}

fn joined(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

fn python_resolves(path: &str, module: &str, fp: &Fingerprint, tree: &dyn TreeView) -> bool {
    let top = module.split('.').next().unwrap_or(module);
    if top.is_empty() || data::python_stdlib().contains(top) || PY_TOOLCHAIN.contains(&top) {
        return true;
    }
    let deps: Vec<String> = fp.deps("python").iter().map(|d| pep503(d)).collect();
    let has = |name: &str| deps.iter().any(|d| *d == pep503(name));
    let parts: Vec<&str> = module.split('.').collect();
    for k in 1..=parts.len() {
        if has(&parts[..k].join("-")) {
            return true;
        }
    }
    if let Some(dists) = data::python_import_map().get(top)
        && dists.iter().any(|d| has(d))
    {
        return true;
    }
    if [
        format!("python-{top}"),
        format!("py{top}"),
        format!("{top}-python"),
        format!("{top}-py"),
        format!("{top}py"),
    ]
    .iter()
    .any(|n| has(n))
    {
        return true;
    }
    if fp.local_packages.iter().any(|l| pep503(l) == pep503(top)) {
        return true;
    }
    let mut places: Vec<String> = Vec::new();
    for a in ancestors(path) {
        places.push(joined(a, top));
        places.push(joined(a, &format!("{top}.py")));
        places.push(joined(a, &format!("src/{top}")));
    }
    for root in ["src", "lib", "python", "app"] {
        places.push(format!("{root}/{top}"));
        places.push(format!("{root}/{top}.py"));
    }
    places.push(format!("{top}.pyi"));
    places.iter().any(|p| tree.exists(p))
}

/// True when the import on `line` (1-based) sits under `try:` or `if TYPE_CHECKING:` (or
/// `if t.TYPE_CHECKING:`). `lines` are the source's lines (`str::lines`), split once per file
/// by the caller rather than once per import.
fn python_optional(lines: &[&str], line: u32) -> bool {
    let idx = (line as usize).saturating_sub(1);
    let Some(cur) = lines.get(idx) else {
        return false;
    };
    let indent = cur.len() - cur.trim_start().len();
    if indent == 0 {
        return false;
    }
    for l in lines[..idx].iter().rev() {
        let t = l.trim_start();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let i = l.len() - t.len();
        if i < indent {
            // `if TYPE_CHECKING:`, through any alias of `typing` (`if t.TYPE_CHECKING:`,
            // pallets' spelling).
            let type_checking = t.strip_prefix("if ").is_some_and(|cond| {
                let cond = cond.split(':').next().unwrap_or(cond).trim();
                cond == "TYPE_CHECKING"
                    || cond.strip_suffix(".TYPE_CHECKING").is_some_and(|m| {
                        !m.is_empty() && m.chars().all(|c| c.is_alphanumeric() || c == '_')
                    })
            });
            return t.starts_with("try:") || type_checking || t.starts_with("except");
        }
    }
    false
}

fn npm_resolves(spec: &str, fp: &Fingerprint, tree: &dyn TreeView) -> Option<String> {
    if is_node_builtin(spec) {
        return None;
    }
    let name = normalize_npm(spec)?;
    let declared = fp
        .deps("npm")
        .iter()
        .chain(fp.local_packages.iter())
        .any(|d| *d == name || d.strip_prefix("@types/") == Some(name.as_str()));
    if declared {
        return None;
    }
    let first = spec.split('/').next().unwrap_or(spec);
    if !name.starts_with('@')
        && ["", "src", "app", "lib"]
            .iter()
            .any(|r| tree.exists(&joined(r, first)))
    {
        return None;
    }
    Some(name)
}

fn rust_resolves(
    path: &str,
    module: &str,
    text: &str,
    fp: &Fingerprint,
    tree: &dyn TreeView,
) -> Option<String> {
    let m = module.trim_start_matches("::");
    let top = m
        .split("::")
        .next()
        .unwrap_or(m)
        .trim_matches(|c: char| c == '{' || c == '}' || c.is_whitespace());
    let top = top.split(" as ").next().unwrap_or(top).trim();
    if top.is_empty()
        || data::rust_builtin().contains(top)
        || top.starts_with(|c: char| c.is_ascii_uppercase())
        || !top.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return None;
    }
    let norm = |s: &str| s.replace('-', "_");
    let declared = fp
        .deps("rust")
        .iter()
        .chain(fp.local_packages.iter())
        .any(|d| norm(d) == top);
    if declared {
        return None;
    }
    // Modules and items in scope: `mod top`, `enum top`, `extern crate x as top`, a module file.
    let in_file = regex::Regex::new(&format!(
        r"\b(?:mod|enum|struct|trait|type|fn|const|static|union|macro_rules!)\s+{top}\b|\bas\s+{top}\b|\buse\s+[\w:]*::{top}\s*;"
    ))
    .map(|re| re.is_match(text))
    .unwrap_or(true);
    if in_file {
        return None;
    }
    let dir = file_dir(path);
    let stem = path
        .rsplit('/')
        .next()
        .unwrap_or(path)
        .trim_end_matches(".rs");
    for p in [
        joined(dir, &format!("{top}.rs")),
        joined(dir, top),
        joined(&joined(dir, stem), &format!("{top}.rs")),
        joined(&joined(dir, stem), top),
    ] {
        if tree.exists(&p) {
            return None;
        }
    }
    // Edition 2015 paths start at the crate root: a module file or an item of lib.rs/main.rs.
    let item = regex::Regex::new(&format!(
        r"\b(?:mod|enum|struct|trait|type|fn|const|static|union|macro_rules!)\s+{top}\b"
    ));
    for a in ancestors(path) {
        if !(a == "src" || a.ends_with("/src")) {
            continue;
        }
        if tree.exists(&joined(a, &format!("{top}.rs"))) || tree.exists(&joined(a, top)) {
            return None;
        }
        for root in ["lib.rs", "main.rs"] {
            if let Some(text) = tree.read_text(&joined(a, root))
                && item.as_ref().is_ok_and(|re| re.is_match(&text))
            {
                return None;
            }
        }
    }
    Some(top.to_string())
}

fn go_resolves(module: &str, fp: &Fingerprint) -> Option<String> {
    let first = module.split('/').next().unwrap_or(module);
    let under = |base: &str| module == base || module.starts_with(&format!("{base}/"));
    if fp.local_packages.iter().any(|l| under(l)) {
        return None;
    }
    if !first.contains('.') || data::go_stdlib().contains(first) {
        return None;
    }
    if fp.deps("go").iter().any(|d| under(d)) {
        return None;
    }
    Some(module.to_string())
}

/// phantom-import on one source file. `added` are the imports the change introduced (imports of
/// the new version whose module the old version did not import); `text` is the new source.
pub fn check(
    path: &str,
    language: Language,
    added: &[Import],
    text: &str,
    fp: &Fingerprint,
    tree: &dyn TreeView,
) -> Vec<PhantomImport> {
    let eco: &'static str = match language {
        Language::Python => "python",
        Language::JavaScript | Language::TypeScript | Language::Tsx => "npm",
        Language::Rust => "rust",
        Language::Go => "go",
        _ => return Vec::new(),
    };
    if !fp.has_ecosystem(eco) {
        return Vec::new();
    }
    let mut out: Vec<PhantomImport> = Vec::new();
    // The lines of `text`, split on the first import that needs them.
    let mut lines: Option<Vec<&str>> = None;
    for imp in added {
        let module = imp.module.trim();
        if module.is_empty() {
            continue;
        }
        let missing = match language {
            Language::Python => {
                if module.starts_with('.')
                    || python_optional(
                        lines.get_or_insert_with(|| text.lines().collect()),
                        imp.line,
                    )
                    || python_resolves(path, module, fp, tree)
                {
                    None
                } else {
                    Some(module.split('.').next().unwrap_or(module).to_string())
                }
            }
            Language::Rust => rust_resolves(path, module, text, fp, tree),
            Language::Go => go_resolves(module, fp),
            _ => npm_resolves(module, fp, tree),
        };
        if let Some(package) = missing
            && !out.iter().any(|o| o.package == package)
        {
            out.push(PhantomImport {
                module: module.to_string(),
                package,
                line: imp.line,
                ecosystem: eco,
            });
        }
    }
    out
}

/// The imports of `after` whose module `before` did not import.
pub fn added_imports(before: &[Import], after: &[Import]) -> Vec<Import> {
    after
        .iter()
        .filter(|a| !before.iter().any(|b| b.module == a.module))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_fingerprint::{MemorySource, compute_from};
    use std::collections::BTreeSet;

    struct Tree(BTreeSet<&'static str>);
    impl TreeView for Tree {
        fn exists(&self, p: &str) -> bool {
            self.0.contains(p) || self.0.iter().any(|k| k.starts_with(&format!("{p}/")))
        }
        fn read_text(&self, _: &str) -> Option<String> {
            None
        }
    }

    fn imp(m: &str, line: u32) -> Import {
        Import {
            module: m.into(),
            line,
        }
    }

    fn fp() -> Fingerprint {
        compute_from(
            &MemorySource::new()
                .with("pyproject.toml", "[project]\nname=\"tool\"\ndependencies=[\"PyYAML\", \"scikit-learn\", \"google-cloud-storage\", \"python-dateutil\"]\n")
                .with("package.json", r#"{"name":"web","dependencies":{"react":"18","@scope/ui":"1"},"devDependencies":{"@types/node":"20"}}"#)
                .with("Cargo.toml", "[package]\nname=\"my-tool\"\n[dependencies]\nserde_json=\"1\"\ntokio-util=\"0.7\"\n")
                .with("go.mod", "module example.com/app\nrequire github.com/spf13/cobra v1.8.0\n"),
        )
    }

    fn tree() -> Tree {
        Tree(
            [
                "tool/__init__.py",
                "tests/helpers.py",
                "src/components/Button.tsx",
                "src/util.rs",
            ]
            .into_iter()
            .collect(),
        )
    }

    #[test]
    fn python() {
        let added = [
            imp("os.path", 1),
            imp("yaml", 2),
            imp("sklearn.linear_model", 3),
            imp("google.cloud.storage", 4),
            imp("dateutil.parser", 5),
            imp("tool.cli", 6),
            imp("helpers", 7),
            imp(".sibling", 8),
            imp("requests", 9),
        ];
        let v = check(
            "tests/test_x.py",
            Language::Python,
            &added,
            "",
            &fp(),
            &tree(),
        );
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(v[0].package, "requests");
        assert_eq!(v[0].line, 9);
    }

    #[test]
    fn imports_for_the_type_checker_through_an_alias_of_typing_are_skipped() {
        // pallets/click's src/click/core.py.
        let text = "import typing as t\n\nif t.TYPE_CHECKING:\n    from typing_extensions import Self\n\n    from .shell_completion import CompletionItem\n";
        let v = check(
            "src/click/core.py",
            Language::Python,
            &[imp("typing_extensions", 4)],
            text,
            &fp(),
            &tree(),
        );
        assert!(v.is_empty(), "{v:?}");
        // A condition that only mentions it is not the guard.
        let text = "if not_TYPE_CHECKING or x:\n    import typing_extensions\n";
        let v = check(
            "a.py",
            Language::Python,
            &[imp("typing_extensions", 2)],
            text,
            &fp(),
            &tree(),
        );
        assert_eq!(v.len(), 1, "{v:?}");
    }

    #[test]
    fn python_optional_imports_are_skipped() {
        let text = "try:\n    import ujson as json\nexcept ImportError:\n    import json\n";
        assert!(
            check(
                "a.py",
                Language::Python,
                &[imp("ujson", 2)],
                text,
                &fp(),
                &tree()
            )
            .is_empty()
        );
    }

    #[test]
    fn js() {
        let added = [
            imp("react", 1),
            imp("react-dom/client", 2),
            imp("node:fs", 3),
            imp("./x", 4),
            imp("@scope/ui/button", 5),
            imp("components/Button", 6),
            imp("lodash", 7),
            imp("node", 8),
        ];
        let v = check("src/app.tsx", Language::Tsx, &added, "", &fp(), &tree());
        let p: Vec<_> = v.iter().map(|x| x.package.as_str()).collect();
        assert_eq!(p, ["react-dom", "lodash"]);
    }

    #[test]
    fn rust() {
        let text = "mod inner;\nuse std::fmt;\nuse serde_json::Value;\nuse tokio_util::codec;\nuse my_tool::x;\nuse crate::a;\nuse inner::b;\nuse util::c;\nuse Ordering::*;\nuse anyhow::Result;\n";
        let added: Vec<_> = [
            "std::fmt",
            "serde_json::Value",
            "tokio_util::codec",
            "my_tool::x",
            "crate::a",
            "inner::b",
            "util::c",
            "Ordering::*",
            "anyhow::Result",
        ]
        .iter()
        .enumerate()
        .map(|(i, m)| imp(m, i as u32 + 2))
        .collect();
        let v = check("src/main.rs", Language::Rust, &added, text, &fp(), &tree());
        let p: Vec<_> = v.iter().map(|x| x.package.as_str()).collect();
        assert_eq!(p, ["anyhow"]);
    }

    #[test]
    fn rust_2015_crate_root_paths() {
        let v = check(
            "src/kv/value.rs",
            Language::Rust,
            &[imp("util::Error", 1), imp("nothere::X", 2)],
            "",
            &fp(),
            &tree(),
        );
        let p: Vec<_> = v.iter().map(|x| x.package.as_str()).collect();
        assert_eq!(p, ["nothere"]);
    }

    #[test]
    fn go() {
        let added = [
            imp("fmt", 1),
            imp("net/http", 2),
            imp("example.com/app/internal/x", 3),
            imp("github.com/spf13/cobra", 4),
            imp("github.com/gin-gonic/gin", 5),
            imp("C", 6),
        ];
        let v = check("main.go", Language::Go, &added, "", &fp(), &tree());
        let p: Vec<_> = v.iter().map(|x| x.package.as_str()).collect();
        assert_eq!(p, ["github.com/gin-gonic/gin"]);
    }

    #[test]
    fn no_manifest_no_judgement() {
        let bare = compute_from(&MemorySource::new().with("README.md", "x"));
        assert!(
            check(
                "a.py",
                Language::Python,
                &[imp("requests", 1)],
                "",
                &bare,
                &tree()
            )
            .is_empty()
        );
        assert_eq!(pep503("Foo_Bar.baz"), "foo-bar-baz");
    }
}
