//! Manifest recognition and the per-ecosystem dependency parsers. Each parser is a pure function
//! of the manifest's text and never fails: a manifest that does not parse contributes nothing
//! (the syntax guard reports it; the fingerprint must not invent facts from it).

use std::collections::{BTreeMap, BTreeSet};

/// Facts gathered from manifests.
#[derive(Debug, Default, Clone)]
pub(crate) struct Facts {
    /// ecosystem -> declared package names.
    pub deps: BTreeMap<String, BTreeSet<String>>,
    /// Names of the repository's own packages (crates, npm packages, Python projects, Go
    /// module paths).
    pub local: BTreeSet<String>,
    pub entrypoints: BTreeSet<String>,
    pub stack: BTreeSet<String>,
}

impl Facts {
    pub(crate) fn dep(&mut self, eco: &str, name: &str) {
        let name = name.trim();
        if !name.is_empty() && name.len() < 200 {
            self.deps
                .entry(eco.to_string())
                .or_default()
                .insert(name.to_string());
        }
    }
}

/// What kind of manifest a path is, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Manifest {
    Cargo,
    PackageJson,
    Pyproject,
    Requirements,
    SetupCfg,
    SetupPy,
    Pipfile,
    GoMod,
    GoWork,
    Gemfile,
    Gemspec,
    /// Recognised but not parsed for dependencies (stack label only).
    Other(&'static str),
}

/// Classifies a path by its base name.
pub(crate) fn manifest_kind(path: &str) -> Option<Manifest> {
    let base = path.rsplit('/').next().unwrap_or(path);
    Some(match base {
        "Cargo.toml" => Manifest::Cargo,
        "package.json" => Manifest::PackageJson,
        "pyproject.toml" => Manifest::Pyproject,
        "setup.cfg" => Manifest::SetupCfg,
        "setup.py" => Manifest::SetupPy,
        "Pipfile" => Manifest::Pipfile,
        "go.mod" => Manifest::GoMod,
        "go.work" => Manifest::GoWork,
        "Gemfile" => Manifest::Gemfile,
        "pom.xml" => Manifest::Other("java/maven"),
        "build.gradle" | "build.gradle.kts" => Manifest::Other("java/gradle"),
        "composer.json" => Manifest::Other("php/composer"),
        "mix.exs" => Manifest::Other("elixir/mix"),
        "CMakeLists.txt" => Manifest::Other("c/cmake"),
        "meson.build" => Manifest::Other("c/meson"),
        "Package.swift" => Manifest::Other("swift/spm"),
        "pubspec.yaml" => Manifest::Other("dart/pub"),
        "deno.json" | "deno.jsonc" => Manifest::Other("deno"),
        _ if base.ends_with(".gemspec") => Manifest::Gemspec,
        _ if base.ends_with(".csproj") || base.ends_with(".fsproj") => {
            Manifest::Other("dotnet/msbuild")
        }
        _ if is_requirements(path) => Manifest::Requirements,
        _ => return None,
    })
}

/// `requirements.txt`, `requirements-dev.txt`, `dev-requirements.txt`, `requirements/*.txt`,
/// `*.in` siblings of those.
fn is_requirements(path: &str) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path);
    let stem = base
        .strip_suffix(".txt")
        .or_else(|| base.strip_suffix(".in"));
    let Some(stem) = stem else { return false };
    stem.starts_with("requirements")
        || stem.ends_with("requirements")
        || stem.ends_with("-requirements")
        || path.contains("requirements/")
}

/// True when `path` is a manifest the fingerprint reads.
pub fn is_manifest(path: &str) -> bool {
    manifest_kind(path).is_some()
}

/// Directory part of a path ("" for the root).
pub(crate) fn dir_of(path: &str) -> &str {
    path.rfind('/').map(|i| &path[..i]).unwrap_or("")
}

pub(crate) fn join(dir: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = if dir.is_empty() {
        Vec::new()
    } else {
        dir.split('/').collect()
    };
    for c in rel.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    parts.join("/")
}

/// Parses one manifest into `facts`. `read` fetches other files (for `-r` includes).
pub(crate) fn parse(
    kind: Manifest,
    path: &str,
    text: &str,
    read: &dyn Fn(&str) -> Option<String>,
    facts: &mut Facts,
) {
    match kind {
        Manifest::Cargo => cargo(path, text, facts),
        Manifest::PackageJson => package_json(path, text, facts),
        Manifest::Pyproject => pyproject(path, text, facts),
        Manifest::Requirements => {
            facts.stack.insert("python/pip".into());
            let mut seen = BTreeSet::new();
            requirements(path, text, read, facts, &mut seen, 0);
        }
        Manifest::SetupCfg => setup_cfg(text, facts),
        Manifest::SetupPy => setup_py(text, facts),
        Manifest::Pipfile => pipfile(text, facts),
        Manifest::GoMod => crate::go::go_mod(path, text, facts),
        Manifest::GoWork => crate::go::go_work(path, text, read, facts),
        Manifest::Gemfile => crate::ruby::gemfile(text, facts),
        Manifest::Gemspec => crate::ruby::gemspec(path, text, facts),
        Manifest::Other(label) => {
            facts.stack.insert(label.into());
        }
    }
}

// ---------------------------------------------------------------- Cargo

const CARGO_DEP_TABLES: [&str; 3] = ["dependencies", "dev-dependencies", "build-dependencies"];

fn cargo_deps(table: &toml::Table, facts: &mut Facts) {
    for key in CARGO_DEP_TABLES
        .iter()
        .copied()
        .chain(["dev_dependencies", "build_dependencies"])
    {
        let Some(deps) = table.get(key).and_then(|v| v.as_table()) else {
            continue;
        };
        for (name, spec) in deps {
            facts.dep("rust", name);
            if let Some(pkg) = spec.get("package").and_then(|p| p.as_str()) {
                facts.dep("rust", pkg);
            }
        }
    }
}

fn cargo(path: &str, text: &str, facts: &mut Facts) {
    let Ok(doc) = text.parse::<toml::Table>() else {
        return;
    };
    facts.stack.insert("rust/cargo".into());
    cargo_deps(&doc, facts);
    if let Some(targets) = doc.get("target").and_then(|t| t.as_table()) {
        for (_cfg, t) in targets {
            if let Some(t) = t.as_table() {
                cargo_deps(t, facts);
            }
        }
    }
    if let Some(ws) = doc.get("workspace").and_then(|w| w.as_table()) {
        cargo_deps(ws, facts);
    }
    let dir = dir_of(path);
    if let Some(name) = doc
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(|n| n.as_str())
    {
        facts.local.insert(name.to_string());
        if let Some(lib) = doc
            .get("lib")
            .and_then(|l| l.get("name"))
            .and_then(|n| n.as_str())
        {
            facts.local.insert(lib.to_string());
        }
        // Conventional binary target; kept only when the file exists.
        facts.entrypoints.insert(join(dir, "src/main.rs"));
    }
    if let Some(bins) = doc.get("bin").and_then(|b| b.as_array()) {
        for bin in bins {
            if let Some(p) = bin.get("path").and_then(|p| p.as_str()) {
                facts.entrypoints.insert(join(dir, p));
            } else if let Some(n) = bin.get("name").and_then(|n| n.as_str()) {
                facts
                    .entrypoints
                    .insert(join(dir, &format!("src/bin/{n}.rs")));
                facts.local.insert(n.to_string());
            }
        }
    }
}

// ---------------------------------------------------------------- npm

const NPM_DEP_MAPS: [&str; 4] = [
    "dependencies",
    "devDependencies",
    "peerDependencies",
    "optionalDependencies",
];

fn package_json(path: &str, text: &str, facts: &mut Facts) {
    let Ok(serde_json::Value::Object(doc)) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    facts.stack.insert("node/npm".into());
    for key in NPM_DEP_MAPS {
        if let Some(map) = doc.get(key).and_then(|m| m.as_object()) {
            for name in map.keys() {
                facts.dep("npm", name);
            }
        }
    }
    for key in ["bundledDependencies", "bundleDependencies"] {
        if let Some(list) = doc.get(key).and_then(|m| m.as_array()) {
            for name in list.iter().filter_map(|v| v.as_str()) {
                facts.dep("npm", name);
            }
        }
    }
    if let Some(name) = doc.get("name").and_then(|n| n.as_str()) {
        facts.local.insert(name.to_string());
    }
    let dir = dir_of(path);
    for key in ["main", "module", "browser"] {
        if let Some(p) = doc.get(key).and_then(|m| m.as_str()) {
            facts.entrypoints.insert(join(dir, p));
        }
    }
    match doc.get("bin") {
        Some(serde_json::Value::String(p)) => {
            facts.entrypoints.insert(join(dir, p));
        }
        Some(serde_json::Value::Object(map)) => {
            for p in map.values().filter_map(|v| v.as_str()) {
                facts.entrypoints.insert(join(dir, p));
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------- Python

/// The distribution name of a PEP 508 requirement string (`requests[socks]>=2; python_version
/// > "3"` -> `requests`), or `None` for options, URLs without `#egg=` and blank lines.
pub fn pep508_name(req: &str) -> Option<&str> {
    let req = req.trim();
    if req.is_empty() || req.starts_with('#') || req.starts_with('-') {
        return None;
    }
    if let Some(i) = req.find("#egg=") {
        let name = &req[i + 5..];
        let end = name
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
            .unwrap_or(name.len());
        return (end > 0).then(|| &name[..end]);
    }
    if req.contains("://") && !req.contains(" @ ") && !req.contains('@') {
        return None;
    }
    let end = req
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .unwrap_or(req.len());
    let name = &req[..end];
    (!name.is_empty() && name.as_bytes()[0].is_ascii_alphanumeric()).then_some(name)
}

fn pep508_list(v: Option<&toml::Value>, facts: &mut Facts) {
    if let Some(list) = v.and_then(|v| v.as_array()) {
        for req in list.iter().filter_map(|r| r.as_str()) {
            if let Some(name) = pep508_name(req) {
                facts.dep("python", name);
            }
        }
    }
}

fn poetry_table(v: Option<&toml::Value>, facts: &mut Facts) {
    if let Some(t) = v.and_then(|v| v.as_table()) {
        for name in t.keys() {
            if name != "python" {
                facts.dep("python", name);
            }
        }
    }
}

fn pyproject(path: &str, text: &str, facts: &mut Facts) {
    let Ok(doc) = text.parse::<toml::Table>() else {
        return;
    };
    let project = doc.get("project");
    let tool = doc.get("tool");
    let poetry = tool.and_then(|t| t.get("poetry"));
    let build_backend = doc
        .get("build-system")
        .and_then(|b| b.get("build-backend"))
        .and_then(|b| b.as_str())
        .unwrap_or("");
    let label = if poetry.is_some() || build_backend.starts_with("poetry") {
        "python/poetry"
    } else if tool.and_then(|t| t.get("uv")).is_some() {
        "python/uv"
    } else if tool.and_then(|t| t.get("pdm")).is_some() || build_backend.starts_with("pdm") {
        "python/pdm"
    } else if build_backend.starts_with("hatch") {
        "python/hatch"
    } else if build_backend.starts_with("maturin") {
        "python/maturin"
    } else if build_backend.starts_with("flit") {
        "python/flit"
    } else {
        "python/pyproject"
    };
    facts.stack.insert(label.into());
    pep508_list(
        doc.get("build-system").and_then(|b| b.get("requires")),
        facts,
    );
    if let Some(project) = project {
        pep508_list(project.get("dependencies"), facts);
        if let Some(extras) = project
            .get("optional-dependencies")
            .and_then(|o| o.as_table())
        {
            for list in extras.values() {
                pep508_list(Some(list), facts);
            }
        }
        if let Some(name) = project.get("name").and_then(|n| n.as_str()) {
            facts.local.insert(name.to_string());
        }
        for key in ["scripts", "gui-scripts"] {
            scripts(project.get(key), facts);
        }
    }
    // PEP 735 dependency groups: lists of strings or {include-group = "..."} tables.
    if let Some(groups) = doc.get("dependency-groups").and_then(|g| g.as_table()) {
        for list in groups.values() {
            pep508_list(Some(list), facts);
        }
    }
    if let Some(poetry) = poetry {
        poetry_table(poetry.get("dependencies"), facts);
        poetry_table(poetry.get("dev-dependencies"), facts);
        if let Some(groups) = poetry.get("group").and_then(|g| g.as_table()) {
            for g in groups.values() {
                poetry_table(g.get("dependencies"), facts);
            }
        }
        if let Some(name) = poetry.get("name").and_then(|n| n.as_str()) {
            facts.local.insert(name.to_string());
        }
        if let Some(pkgs) = poetry.get("packages").and_then(|p| p.as_array()) {
            for inc in pkgs.iter().filter_map(|p| p.get("include")?.as_str()) {
                facts.local.insert(inc.to_string());
            }
        }
        scripts(poetry.get("scripts"), facts);
    }
    if let Some(tool) = tool {
        pep508_list(
            tool.get("uv").and_then(|u| u.get("dev-dependencies")),
            facts,
        );
        if let Some(pdm) = tool
            .get("pdm")
            .and_then(|p| p.get("dev-dependencies"))
            .and_then(|d| d.as_table())
        {
            for list in pdm.values() {
                pep508_list(Some(list), facts);
            }
        }
    }
    let _ = path;
}

/// `name = "pkg.module:func"` script tables -> entry point "pkg/module.py".
fn scripts(v: Option<&toml::Value>, facts: &mut Facts) {
    if let Some(t) = v.and_then(|v| v.as_table()) {
        for target in t.values().filter_map(|v| v.as_str()) {
            let module = target.split(':').next().unwrap_or("").trim();
            if !module.is_empty() {
                facts
                    .entrypoints
                    .insert(format!("{}.py", module.replace('.', "/")));
            }
        }
    }
}

/// Requirements files, following `-r` / `-c` / `--requirement` includes (depth-limited, cycle
/// safe).
fn requirements(
    path: &str,
    text: &str,
    read: &dyn Fn(&str) -> Option<String>,
    facts: &mut Facts,
    seen: &mut BTreeSet<String>,
    depth: usize,
) {
    if depth > 8 || !seen.insert(path.to_string()) {
        return;
    }
    for raw in text.lines() {
        let line = raw.split(" #").next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let include = [
            "-r ",
            "--requirement ",
            "--requirement=",
            "-c ",
            "--constraint ",
        ]
        .iter()
        .find_map(|p| line.strip_prefix(p))
        .or_else(|| line.strip_prefix("-r").filter(|r| !r.starts_with(' ')));
        if let Some(rel) = include {
            let target = join(dir_of(path), rel.trim());
            if let Some(t) = read(&target) {
                requirements(&target, &t, read, facts, seen, depth + 1);
            }
            continue;
        }
        let line = line
            .strip_prefix("-e ")
            .or_else(|| line.strip_prefix("--editable "))
            .unwrap_or(line)
            .trim();
        if line.starts_with('-') || line.starts_with('.') || line.starts_with('/') {
            continue;
        }
        if let Some(name) = pep508_name(line) {
            facts.dep("python", name);
        }
    }
}

fn setup_cfg(text: &str, facts: &mut Facts) {
    facts.stack.insert("python/setuptools".into());
    let mut in_list = false;
    let mut section = String::new();
    for raw in text.lines() {
        let line = raw.trim_end();
        if line.trim_start().starts_with('[') {
            section = line.trim().trim_matches(['[', ']']).to_string();
            in_list = false;
            continue;
        }
        let continued = line.starts_with([' ', '\t']);
        // configparser's inline comments (setuptools reads `#` after whitespace as one).
        let line = line.split(" #").next().unwrap_or(line);
        if !continued {
            let (key, value) = line.split_once('=').unwrap_or((line, ""));
            // setuptools accepts `install-requires` as well as `install_requires`.
            let key = key.trim().replace('-', "_");
            let key = key.as_str();
            in_list = (section == "options"
                && matches!(key, "install_requires" | "setup_requires" | "tests_require"))
                || section == "options.extras_require";
            if section == "options.extras_require" {
                if let Some(name) = pep508_name(value) {
                    facts.dep("python", name);
                }
            } else if in_list && let Some(name) = pep508_name(value) {
                facts.dep("python", name);
            }
            if section == "metadata" && key == "name" {
                facts.local.insert(value.trim().to_string());
            }
        } else if in_list && let Some(name) = pep508_name(line) {
            facts.dep("python", name);
        }
    }
}

/// The requirements of a setup.py, read from its syntax tree (setup.py is code and is never
/// executed): `install_requires`, `extras_require`, `tests_require`, `setup_requires`, literal
/// or through module-level names (`requires = [...]`, `install_requires=requires`).
fn setup_py(text: &str, facts: &mut Facts) {
    facts.stack.insert("python/setuptools".into());
    match slopguard_lang::setup_py_requirements(text) {
        Some(reqs) => {
            for req in &reqs {
                if let Some(name) = pep508_name(req) {
                    facts.dep("python", name);
                }
            }
        }
        None => setup_py_lexical(text, facts),
    }
}

/// String literals inside `install_requires=[...]` / `extras_require` / `tests_require` of a
/// setup.py the parser gave up on (too large to parse in time): a lexical scan.
fn setup_py_lexical(text: &str, facts: &mut Facts) {
    for key in [
        "install_requires",
        "tests_require",
        "setup_requires",
        "extras_require",
    ] {
        let mut rest = text;
        while let Some(i) = rest.find(key) {
            rest = &rest[i + key.len()..];
            let Some(open) = rest.find(['[', '{']) else {
                break;
            };
            let close_ch = if rest.as_bytes()[open] == b'[' {
                ']'
            } else {
                '}'
            };
            let Some(close) = rest[open..].find(close_ch) else {
                break;
            };
            let body = &rest[open + 1..open + close];
            // Keys of an extras dict look like bare names too: harmless (more declared, never
            // fewer).
            for lit in string_literals(body) {
                if let Some(name) = pep508_name(lit) {
                    facts.dep("python", name);
                }
            }
        }
    }
}

fn string_literals(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'"' || b[i] == b'\'' {
            let q = b[i];
            if let Some(end) = s[i + 1..].find(q as char) {
                out.push(&s[i + 1..i + 1 + end]);
                i += end + 2;
                continue;
            }
            break;
        }
        i += 1;
    }
    out
}

fn pipfile(text: &str, facts: &mut Facts) {
    let Ok(doc) = text.parse::<toml::Table>() else {
        return;
    };
    facts.stack.insert("python/pipenv".into());
    for key in ["packages", "dev-packages"] {
        poetry_table(doc.get(key), facts);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts_of(path: &str, text: &str) -> Facts {
        let mut f = Facts::default();
        parse(manifest_kind(path).unwrap(), path, text, &|_| None, &mut f);
        f
    }

    fn deps(f: &Facts, eco: &str) -> Vec<String> {
        f.deps
            .get(eco)
            .map(|s| s.iter().cloned().collect())
            .unwrap_or_default()
    }

    #[test]
    fn cargo_all_tables() {
        let f = facts_of(
            "Cargo.toml",
            r#"
[package]
name = "mycli"
[dependencies]
clap = "4"
json = { package = "serde_json", version = "1" }
[dev-dependencies]
insta = "1"
[build-dependencies]
cc = "1"
[target.'cfg(unix)'.dependencies]
libc = "0.2"
[workspace.dependencies]
tokio = "1"
"#,
        );
        assert_eq!(
            deps(&f, "rust"),
            ["cc", "clap", "insta", "json", "libc", "serde_json", "tokio"]
        );
        assert!(f.local.contains("mycli"));
        assert!(f.stack.contains("rust/cargo"));
    }

    #[test]
    fn package_json_four_maps() {
        let f = facts_of(
            "web/package.json",
            r#"{"name":"site","main":"index.js","bin":{"x":"./bin/x.js"},
               "dependencies":{"react":"18"},"devDependencies":{"vite":"5"},
               "peerDependencies":{"@reduxjs/toolkit":"2"},"optionalDependencies":{"fsevents":"2"}}"#,
        );
        assert_eq!(
            deps(&f, "npm"),
            ["@reduxjs/toolkit", "fsevents", "react", "vite"]
        );
        assert!(f.entrypoints.contains("web/index.js"));
        assert!(f.entrypoints.contains("web/bin/x.js"));
    }

    #[test]
    fn pyproject_pep621_groups_and_poetry() {
        let f = facts_of(
            "pyproject.toml",
            r#"
[build-system]
requires = ["hatchling"]
[project]
name = "tool"
dependencies = ["requests[socks]>=2.0; python_version>'3.8'", "PyYAML"]
[project.optional-dependencies]
web = ["fastapi>=0.1"]
[project.scripts]
tool = "tool.cli:main"
[dependency-groups]
dev = ["pytest", {include-group = "lint"}]
lint = ["ruff"]
[tool.poetry.dependencies]
python = "^3.10"
django = "^5"
[tool.poetry.group.test.dependencies]
hypothesis = "*"
"#,
        );
        assert_eq!(
            deps(&f, "python"),
            [
                "PyYAML",
                "django",
                "fastapi",
                "hatchling",
                "hypothesis",
                "pytest",
                "requests",
                "ruff"
            ]
        );
        assert!(f.entrypoints.contains("tool/cli.py"));
    }

    #[test]
    fn requirements_with_includes() {
        let mut f = Facts::default();
        let read = |p: &str| match p {
            "reqs/base.txt" => Some("numpy==1.2\n-r ../requirements.txt\n".to_string()),
            _ => None,
        };
        parse(
            Manifest::Requirements,
            "requirements.txt",
            "# c\nflask>=2  # web\n-r reqs/base.txt\n-e git+https://x/y.git#egg=mylib\n--index-url https://x\n./local\n",
            &read,
            &mut f,
        );
        assert_eq!(deps(&f, "python"), ["flask", "mylib", "numpy"]);
    }

    #[test]
    fn gemfile_lines() {
        let f = facts_of(
            "Gemfile",
            "source 'https://rubygems.org'\ngem 'rails', '~> 7'\n  gem \"rspec\"\n# gem 'nope'\n",
        );
        assert_eq!(deps(&f, "ruby"), ["rails", "rspec"]);
    }

    #[test]
    fn broken_manifests_contribute_nothing() {
        assert!(facts_of("Cargo.toml", "[dependencies\nx=1").deps.is_empty());
        assert!(facts_of("package.json", "{").deps.is_empty());
    }

    #[test]
    fn setup_cfg_and_py() {
        let f = facts_of(
            "setup.cfg",
            "[metadata]\nname = pkg\n[options]\ninstall_requires =\n    click>=7\n    attrs\n[options.extras_require]\ndev = pytest\n",
        );
        assert_eq!(deps(&f, "python"), ["attrs", "click", "pytest"]);
        let f = facts_of("setup.py", "setup(install_requires=['six', \"tqdm>=4\"])");
        assert_eq!(deps(&f, "python"), ["six", "tqdm"]);
    }

    #[test]
    fn setup_py_lists_bound_to_names_and_brackets_in_requirements() {
        // psf/requests' layout: the lexical scan stopped at the first bracket after the key,
        // the extras dict, and never saw `requires`.
        let f = facts_of(
            "setup.py",
            "requires = [\n    'charset_normalizer>=2,<4',\n    'urllib3>=1.21.1,<3',\n]\nsetup(\n    install_requires=requires,\n    extras_require={'socks': ['PySocks>=1.5.6, !=1.5.7']},\n)\n",
        );
        assert_eq!(
            deps(&f, "python"),
            ["PySocks", "charset_normalizer", "urllib3"]
        );
        // A `]` inside a requirement ended the lexical scan's list.
        let f = facts_of(
            "setup.py",
            "setup(install_requires=['requests[socks]>=2', 'click'], extras_require={'dev': ['black']})\n",
        );
        assert_eq!(deps(&f, "python"), ["black", "click", "requests"]);
    }

    #[test]
    fn setup_cfg_dashed_keys_and_inline_comments() {
        let f = facts_of(
            "setup.cfg",
            "[options]\ninstall-requires =\n    click>=7  # the CLI\n    # a comment line\n    importlib-metadata; python_version<\"3.8\"\n[options.extras_require]\nsocks = PySocks>=1.5.6, !=1.5.7\ndev =\n    pytest\n",
        );
        assert_eq!(
            deps(&f, "python"),
            ["PySocks", "click", "importlib-metadata", "pytest"]
        );
    }
}
