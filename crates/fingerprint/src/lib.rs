//! The repository fingerprint: languages, manifests, declared dependencies per ecosystem,
//! frameworks inferred from them, and entry points. It is the ground truth the grounding guards
//! (G11, G12, phantom-import, Psi-lite) and the planner check claims against, and the gateway
//! serves it as `GET /repo/fingerprint`.
//!
//! Compute it with [`compute`] for a directory, or [`compute_from`] for any [`FileSource`] (a git
//! revision, an in-memory tree, a change overlay). Only manifests are read; language counts come
//! from paths alone, so a 5,000-file tree takes a few milliseconds once walked. Results are
//! cached per tree by [`FileSource::cache_key`].

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::{Mutex, OnceLock};

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

mod frameworks;
mod go;
mod manifests;
mod ruby;
mod source;

pub use frameworks::{FRAMEWORKS, FrameworkDef, framework, frameworks_for, package_matches};
pub use go::go_module_path;
pub use manifests::{is_manifest, pep508_name};
pub use source::{DiskSource, FileSource, MemorySource};

/// Number of files of one language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LanguageCount {
    /// Human-readable language name ("Rust", "Python", "C++").
    pub name: String,
    /// How many files of the tree are in this language.
    pub files: usize,
}

/// The fingerprint, in the gateway's wire shape (DESIGN.md section 6). Fields may be added,
/// never renamed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// The commit the tree was read at, when known.
    pub commit_sha: Option<String>,
    /// Languages by file count, most files first.
    pub languages: Vec<LanguageCount>,
    /// e.g. "rust/cargo", "python/poetry", "node/npm", "github-actions".
    pub stack: Vec<String>,
    /// ecosystem ("rust", "npm", "python", "go", "ruby") -> declared package names.
    pub declared_deps: BTreeMap<String, Vec<String>>,
    /// Framework ids (see [`FRAMEWORKS`]) inferred from the declared dependencies.
    pub declared_frameworks: Vec<String>,
    /// Files where execution starts (binaries, scripts, package mains), existing in the tree.
    pub entrypoints: Vec<String>,
    /// Every manifest found, as a path relative to the root.
    pub manifest_files: Vec<String>,
    /// Names of the repository's own packages: crate names, npm package names, Python project
    /// names, Go module paths. Imports of these are local, not phantom.
    #[serde(default)]
    pub local_packages: Vec<String>,
}

impl Fingerprint {
    /// True when no manifest was found: a greenfield tree has nothing to ground against.
    pub fn is_greenfield(&self) -> bool {
        self.manifest_files.is_empty()
    }

    /// The declared packages of one ecosystem (empty when none).
    pub fn deps(&self, ecosystem: &str) -> &[String] {
        self.declared_deps
            .get(ecosystem)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// True when any manifest of `ecosystem` was found (e.g. a `package.json` for "npm"),
    /// even one declaring nothing.
    pub fn has_ecosystem(&self, ecosystem: &str) -> bool {
        let prefix = match ecosystem {
            "npm" => "node/",
            "rust" => "rust/",
            "python" => "python/",
            "go" => "go/",
            "ruby" => "ruby/",
            other => other,
        };
        self.stack.iter().any(|s| s.starts_with(prefix))
    }
}

/// Errors of [`compute`].
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The root could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The root that was asked for.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
}

/// Fingerprints the directory `root` (walked respecting `.gitignore`), with `commit_sha` read
/// from `root/.git` when present. Cached by path list and manifest sizes/mtimes.
pub fn compute(root: &Path) -> Result<Fingerprint, Error> {
    let source = DiskSource::new(root).map_err(|source| Error::Io {
        path: root.display().to_string(),
        source,
    })?;
    let mut fp = compute_from(&source);
    if fp.commit_sha.is_none() {
        fp.commit_sha = source.head_commit();
    }
    Ok(fp)
}

fn cache() -> &'static Mutex<FxHashMap<String, Fingerprint>> {
    static CACHE: OnceLock<Mutex<FxHashMap<String, Fingerprint>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// Fingerprints any tree. Cached when the source gives a [`FileSource::cache_key`].
pub fn compute_from(source: &dyn FileSource) -> Fingerprint {
    let key = source.cache_key();
    if let Some(key) = &key
        && let Ok(c) = cache().lock()
        && let Some(fp) = c.get(key)
    {
        return fp.clone();
    }
    let fp = compute_uncached(source);
    if let Some(key) = key
        && let Ok(mut c) = cache().lock()
    {
        if c.len() > 256 {
            c.clear();
        }
        c.insert(key, fp.clone());
    }
    fp
}

/// Conventional entry points, checked for existence.
fn conventional_entry(path: &str) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path);
    let depth = path.matches('/').count();
    match base {
        "__main__.py" => depth <= 2,
        "manage.py" | "main.py" | "app.py" | "wsgi.py" | "asgi.py" => depth <= 1,
        "main.go" => depth == 0 || (path.starts_with("cmd/") && depth == 2),
        "index.js" | "index.ts" | "server.js" | "server.ts" | "main.js" | "main.ts" => {
            depth == 0 || (path.starts_with("src/") && depth == 1)
        }
        _ => {
            (path.starts_with("src/bin/") && depth == 2 && base.ends_with(".rs"))
                || path == "src/main.rs"
        }
    }
}

/// The computation itself, without the cache.
pub fn compute_uncached(source: &dyn FileSource) -> Fingerprint {
    let files: Vec<String> = source
        .files()
        .into_iter()
        .filter(|p| !source::in_skipped_dir(p))
        .collect();
    let file_set: BTreeSet<&str> = files.iter().map(String::as_str).collect();

    let mut lang_counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut manifests = Vec::new();
    let mut facts = manifests::Facts::default();
    let mut entry = BTreeSet::new();
    for path in &files {
        if let slopguard_lang::FileKind::Code(lang) = slopguard_lang::detect(path, b"") {
            *lang_counts.entry(lang.name()).or_default() += 1;
        }
        if let Some(kind) = manifests::manifest_kind(path)
            && !path.split('/').any(|c| c == "vendor" || c == "third_party")
        {
            manifests.push((path.as_str(), kind));
        }
        if conventional_entry(path) {
            entry.insert(path.clone());
        }
        if path.starts_with(".github/workflows/")
            && (path.ends_with(".yml") || path.ends_with(".yaml"))
        {
            facts.stack.insert("github-actions".into());
        }
        let base = path.rsplit('/').next().unwrap_or(path);
        let label = match base {
            "Dockerfile" | "Containerfile" => Some("docker"),
            "pnpm-lock.yaml" => Some("node/pnpm"),
            "yarn.lock" => Some("node/yarn"),
            "bun.lockb" | "bun.lock" => Some("node/bun"),
            "uv.lock" => Some("python/uv"),
            "poetry.lock" => Some("python/poetry"),
            ".pre-commit-config.yaml" => Some("pre-commit"),
            "Makefile" => Some("make"),
            _ => None,
        };
        if let Some(label) = label {
            facts.stack.insert(label.into());
        }
    }

    let read = |p: &str| -> Option<String> {
        source
            .read(p)
            .and_then(|b| String::from_utf8(b).ok())
            .map(|s| s.trim_start_matches('\u{feff}').to_string())
    };
    for (path, kind) in &manifests {
        if let Some(text) = read(path) {
            manifests::parse(*kind, path, &text, &read, &mut facts);
        }
    }

    let mut frameworks = BTreeSet::new();
    for (eco, names) in &facts.deps {
        for name in names {
            for f in frameworks_for(eco, name) {
                frameworks.insert(f.id.to_string());
            }
        }
    }
    entry.extend(
        facts
            .entrypoints
            .iter()
            .filter(|p| file_set.contains(p.as_str()))
            .cloned(),
    );

    let mut languages: Vec<LanguageCount> = lang_counts
        .into_iter()
        .map(|(name, files)| LanguageCount {
            name: name.to_string(),
            files,
        })
        .collect();
    languages.sort_by(|a, b| b.files.cmp(&a.files).then_with(|| a.name.cmp(&b.name)));

    Fingerprint {
        commit_sha: None,
        languages,
        stack: facts.stack.into_iter().collect(),
        declared_deps: facts
            .deps
            .into_iter()
            .map(|(k, v)| (k, v.into_iter().collect()))
            .collect(),
        declared_frameworks: frameworks.into_iter().collect(),
        entrypoints: entry.into_iter().collect(),
        manifest_files: manifests.iter().map(|(p, _)| p.to_string()).collect(),
        local_packages: facts.local.into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rust_cli() -> MemorySource {
        MemorySource::new()
            .with(
                "Cargo.toml",
                "[package]\nname = \"b2v\"\n[dependencies]\nclap = \"4\"\nserde = \"1\"\ntokio = \"1\"\n",
            )
            .with("src/main.rs", "fn main() {}")
            .with("src/lib.rs", "")
            .with("README.md", "# b2v")
            .with(".github/workflows/ci.yml", "on: push")
            .with("target/debug/foo.rs", "")
    }

    #[test]
    fn rust_cli_fingerprint() {
        let fp = compute_from(&rust_cli());
        assert_eq!(fp.manifest_files, ["Cargo.toml"]);
        assert_eq!(fp.deps("rust"), ["clap", "serde", "tokio"]);
        assert_eq!(fp.declared_frameworks, ["clap", "serde", "tokio"]);
        assert_eq!(fp.entrypoints, ["src/main.rs"]);
        assert!(fp.stack.contains(&"rust/cargo".to_string()));
        assert!(fp.stack.contains(&"github-actions".to_string()));
        assert_eq!(fp.local_packages, ["b2v"]);
        assert!(!fp.is_greenfield());
        assert!(fp.has_ecosystem("rust") && !fp.has_ecosystem("npm"));
    }

    #[test]
    fn greenfield() {
        let fp = compute_from(&MemorySource::new().with("notes.md", "hi"));
        assert!(fp.is_greenfield());
        assert!(fp.declared_deps.is_empty());
    }

    #[test]
    fn disk_walk_respects_gitignore_and_caches() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join(".gitignore"), "ignored/\n").unwrap();
        std::fs::create_dir_all(root.join("ignored")).unwrap();
        std::fs::write(
            root.join("ignored/package.json"),
            "{\"dependencies\":{\"x\":\"1\"}}",
        )
        .unwrap();
        std::fs::create_dir_all(root.join("node_modules/y")).unwrap();
        std::fs::write(root.join("node_modules/y/package.json"), "{}").unwrap();
        std::fs::write(
            root.join("package.json"),
            "{\"name\":\"site\",\"devDependencies\":{\"vitepress\":\"1\"}}",
        )
        .unwrap();
        let fp = compute(root).unwrap();
        assert_eq!(fp.manifest_files, ["package.json"]);
        assert_eq!(fp.deps("npm"), ["vitepress"]);
        assert_eq!(fp.declared_frameworks, ["vitepress"]);
        let again = compute(root).unwrap();
        assert_eq!(fp, again);
        // A manifest edit changes the cache key.
        std::fs::write(
            root.join("package.json"),
            "{\"devDependencies\":{\"vitepress\":\"1\",\"react\":\"18\"}}",
        )
        .unwrap();
        let fp = compute(root).unwrap();
        assert_eq!(fp.deps("npm"), ["react", "vitepress"]);
        assert!(compute(&root.join("missing")).is_err());
    }

    #[test]
    fn wire_shape() {
        let v = serde_json::to_value(compute_from(&rust_cli())).unwrap();
        for key in [
            "commit_sha",
            "languages",
            "stack",
            "declared_deps",
            "declared_frameworks",
            "entrypoints",
            "manifest_files",
        ] {
            assert!(v.get(key).is_some(), "{key}");
        }
    }
}
