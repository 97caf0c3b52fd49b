//! Psi-lite, as the seeds define it: Psi = alpha * Gamma - lambda * Omega per touched file,
//! aggregated as the minimum over files (the worst file dominates); the change is blocked when
//! Psi < threshold. Defaults alpha = 1.0, lambda = 1.0, threshold = 0.5.
//!
//! - Gamma (grounding): the fraction of evidence tokens that the fingerprint grounds. Evidence
//!   tokens are framework mentions in docs (G11's pattern map) and package references in JS/TS
//!   configs (G12's extractor). Source files, files without tokens, a missing fingerprint and a
//!   greenfield tree score 1.0 (presumed innocent).
//! - Omega (slop), the sum of these components, capped at 1.0:
//!   - literal `\n` inside fenced code blocks: 0.1 per occurrence, a block with a line of 3+
//!     scores 0.5, capped at 0.5 per block;
//!   - runs of three or more blank lines: 0.05 each, capped at 0.3;
//!   - the fraction of lines with trailing whitespace, capped at 0.2;
//!   - a source file wrapped in a Markdown fence: 0.6;
//!   - a modified source file left near-empty: 0.4.

use serde::{Deserialize, Serialize};
use slopguard_fingerprint::Fingerprint;

use crate::{config_refs, content, markdown};

/// Weights and threshold (`[guards.psi-lite]` in slopguard.toml).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PsiParams {
    /// Weight of Gamma.
    pub alpha: f64,
    /// Weight of Omega.
    pub lambda: f64,
    /// Psi below this blocks.
    pub threshold: f64,
}

impl Default for PsiParams {
    fn default() -> Self {
        PsiParams {
            alpha: 1.0,
            lambda: 1.0,
            threshold: 0.5,
        }
    }
}

/// One touched file.
#[derive(Debug, Clone, Copy)]
pub struct PsiInput<'a> {
    /// Path relative to the root.
    pub path: &'a str,
    /// Text before the change (`None` when created or binary).
    pub before: Option<&'a str>,
    /// Text after the change (`None` when deleted or binary).
    pub after: Option<&'a str>,
}

/// The Omega components of one file.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct OmegaParts {
    /// Literal `\n` in fenced blocks.
    pub literal_newlines: f64,
    /// Triple-blank-line runs.
    pub blank_runs: f64,
    /// Trailing-whitespace fraction.
    pub trailing_whitespace: f64,
    /// Source wrapped in a Markdown fence.
    pub fenced_source: f64,
    /// Source left near-empty.
    pub near_empty: f64,
}

impl OmegaParts {
    /// Sum, capped at 1.0.
    pub fn total(&self) -> f64 {
        (self.literal_newlines
            + self.blank_runs
            + self.trailing_whitespace
            + self.fenced_source
            + self.near_empty)
            .min(1.0)
    }
}

/// Score of one file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PsiFile {
    /// Path.
    pub path: String,
    /// Grounding fraction.
    pub gamma: f64,
    /// Evidence tokens seen / grounded.
    pub tokens: usize,
    /// Grounded tokens.
    pub grounded: usize,
    /// Slop score.
    pub omega: f64,
    /// Its components.
    pub omega_parts: OmegaParts,
    /// alpha * gamma - lambda * omega.
    pub psi: f64,
}

/// The change's score.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PsiReport {
    /// Minimum over files (alpha when no file was scored).
    pub psi: f64,
    /// The parameters used.
    pub params: PsiParams,
    /// True when psi < threshold.
    pub below_threshold: bool,
    /// The file with the lowest psi.
    pub worst_file: Option<String>,
    /// Per-file scores.
    pub files: Vec<PsiFile>,
}

fn is_source(path: &str) -> bool {
    matches!(
        slopguard_lang::detect(path, b""),
        slopguard_lang::FileKind::Code(_)
    )
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Omega of one file version.
pub fn omega(path: &str, before: Option<&str>, after: &str) -> OmegaParts {
    let mut parts = OmegaParts::default();
    if markdown::is_markdown_path(path) {
        for block in markdown::parse(after)
            .code_blocks
            .iter()
            .filter(|b| b.fenced)
        {
            let per_line: Vec<usize> = block
                .text
                .lines()
                .map(crate::doc_preservation::unquoted_literal_newlines)
                .collect();
            let total: usize = per_line.iter().sum();
            let heavy = per_line.iter().any(|n| *n >= 3);
            let score = if heavy { 0.5 } else { 0.1 * total as f64 };
            parts.literal_newlines += score.min(0.5);
        }
    }
    let mut blank = 0usize;
    let mut runs = 0usize;
    for l in after.lines() {
        if l.trim().is_empty() {
            blank += 1;
            if blank == 3 {
                runs += 1;
            }
        } else {
            blank = 0;
        }
    }
    parts.blank_runs = (0.05 * runs as f64).min(0.3);
    let lines = after.lines().count();
    if lines > 0 {
        let trailing = after
            .lines()
            .filter(|l| !l.trim().is_empty() && l.ends_with([' ', '\t']))
            .count();
        parts.trailing_whitespace = (trailing as f64 / lines as f64).min(0.2);
    }
    if is_source(path) {
        let first = after.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        if first.trim_start().starts_with("```") {
            parts.fenced_source = 0.6;
        }
        if let Some(before) = before {
            let weight = |s: &str| s.chars().filter(|c| !c.is_whitespace()).count();
            let (b, a) = (weight(before), weight(after));
            if b >= 200 && (a <= 20 || (a as f64) < 0.1 * b as f64) {
                parts.near_empty = 0.4;
            }
        }
    }
    parts
}

/// Gamma of one file: (tokens, grounded).
pub fn gamma_tokens(path: &str, after: &str, fp: Option<&Fingerprint>) -> (usize, usize) {
    let Some(fp) = fp.filter(|f| !f.is_greenfield()) else {
        return (0, 0);
    };
    if markdown::is_doc_path(path) {
        let ms = content::mentions(path, after);
        let grounded = ms
            .iter()
            .filter(|m| content::is_grounded(fp, m.framework))
            .count();
        (ms.len(), grounded)
    } else if config_refs::is_config_file(path) && fp.has_ecosystem("npm") {
        let refs = config_refs::extract(path, after);
        let missing = config_refs::check(path, None, after, fp);
        let missing_names: Vec<&str> = missing
            .iter()
            .map(|m| m.reference.package.as_str())
            .collect();
        let grounded = refs
            .iter()
            .filter(|r| !missing_names.contains(&r.package.as_str()))
            .count();
        (refs.len(), grounded)
    } else {
        (0, 0)
    }
}

/// Scores a change. Deleted files are not scored.
pub fn score(files: &[PsiInput<'_>], fp: Option<&Fingerprint>, params: PsiParams) -> PsiReport {
    let mut out = Vec::new();
    for f in files {
        let Some(after) = f.after else { continue };
        let (tokens, grounded) = gamma_tokens(f.path, after, fp);
        let gamma = if tokens == 0 {
            1.0
        } else {
            grounded as f64 / tokens as f64
        };
        let parts = omega(f.path, f.before, after);
        let omega = parts.total();
        out.push(PsiFile {
            path: f.path.to_string(),
            gamma: round3(gamma),
            tokens,
            grounded,
            omega: round3(omega),
            omega_parts: parts,
            psi: round3(params.alpha * gamma - params.lambda * omega),
        });
    }
    let worst = out.iter().min_by(|a, b| {
        a.psi
            .partial_cmp(&b.psi)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let psi = worst.map(|w| w.psi).unwrap_or(round3(params.alpha));
    PsiReport {
        psi,
        params,
        below_threshold: psi < params.threshold,
        worst_file: worst.map(|w| w.path.clone()),
        files: out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_fingerprint::{MemorySource, compute_from};

    fn rust_fp() -> Fingerprint {
        compute_from(&MemorySource::new().with(
            "Cargo.toml",
            "[package]\nname=\"b2v\"\n[dependencies]\nclap=\"4\"\n",
        ))
    }

    #[test]
    fn react_in_rust_scores_zero() {
        let doc = "# Architecture\n\nA React frontend with Redux.\n";
        let r = score(
            &[PsiInput {
                path: "docs/architecture.md",
                before: None,
                after: Some(doc),
            }],
            Some(&rust_fp()),
            PsiParams::default(),
        );
        assert_eq!(r.psi, 0.0);
        assert!(r.below_threshold);
    }

    #[test]
    fn literal_newline_readme_blocks() {
        let after = "# b2v\n\n```bash\ncargo install b2v\\nb2v encode in.bin\\nb2v decode out.mp4\\n\n```\n\nUses clap.   \n";
        let r = score(
            &[PsiInput {
                path: "README.md",
                before: Some("# b2v\n"),
                after: Some(after),
            }],
            Some(&rust_fp()),
            PsiParams::default(),
        );
        assert!(r.psi < 0.5, "{r:?}");
        assert_eq!(r.files[0].omega_parts.literal_newlines, 0.5);
    }

    #[test]
    fn clean_change_passes_and_params_apply() {
        let r = score(
            &[
                PsiInput {
                    path: "src/main.rs",
                    before: Some("fn main() {}\n"),
                    after: Some("fn main() {\n    run();\n}\n"),
                },
                PsiInput {
                    path: "README.md",
                    before: None,
                    after: Some("# b2v\n\nA clap CLI.\n"),
                },
            ],
            Some(&rust_fp()),
            PsiParams::default(),
        );
        assert_eq!(r.psi, 1.0);
        assert!(!r.below_threshold);
        let fenced = score(
            &[PsiInput {
                path: "src/lib.rs",
                before: None,
                after: Some("```rust\npub fn f() {}\n```\n"),
            }],
            None,
            PsiParams {
                alpha: 1.0,
                lambda: 0.5,
                threshold: 0.5,
            },
        );
        assert_eq!(fenced.psi, 0.7);
        assert!(!fenced.below_threshold);
    }

    #[test]
    fn near_empty_source() {
        let before = "fn a() {}\n".repeat(40);
        let p = omega("src/a.rs", Some(&before), "// rest unchanged\n");
        assert_eq!(p.near_empty, 0.4);
    }
}
