//! The repository fingerprint: languages, manifests, declared dependencies per ecosystem,
//! frameworks inferred from them, and entry points. It is the ground truth the grounding guards
//! (G11, G12, phantom-import, Psi-lite) and the planner check claims against, and the gateway
//! serves it as `GET /repo/fingerprint`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Number of files of one language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LanguageCount {
    pub name: String,
    pub files: usize,
}

/// The fingerprint, in the gateway's wire shape (DESIGN.md section 6). Fields may be added,
/// never renamed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    pub commit_sha: Option<String>,
    pub languages: Vec<LanguageCount>,
    /// e.g. "rust/cargo", "python/poetry", "node/npm", "github-actions".
    pub stack: Vec<String>,
    /// ecosystem ("rust", "npm", "python", "go", "ruby") -> declared package names.
    pub declared_deps: BTreeMap<String, Vec<String>>,
    pub declared_frameworks: Vec<String>,
    pub entrypoints: Vec<String>,
    pub manifest_files: Vec<String>,
}
