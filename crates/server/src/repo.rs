//! Repository endpoints: fingerprint, context, churn, blame, imports, exports, symbol.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::json;
use slopguard_lang::{FileKind, Language};

use crate::{ApiError, AppState, confine, gitinfo};

type ApiResult<T> = Result<T, ApiError>;

/// Largest source file the analysis endpoints read.
const MAX_SOURCE_BYTES: u64 = 2 * 1024 * 1024;
/// Most files `/symbol` scans for callers.
const MAX_CALLER_SCAN: usize = 5_000;

/// Query parameters of the repository endpoints.
#[derive(Debug, Deserialize)]
pub(crate) struct RepoParams {
    target: Option<String>,
    path: Option<String>,
    name: Option<String>,
    since: Option<String>,
}

fn params(p: Result<Query<RepoParams>, QueryRejection>) -> ApiResult<RepoParams> {
    p.map(|Query(p)| p)
        .map_err(|e| ApiError::bad_request(e.body_text()))
}

fn git_error(e: String) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "git_failed", e)
}

pub(crate) async fn fingerprint(
    State(state): State<Arc<AppState>>,
    p: Result<Query<RepoParams>, QueryRejection>,
) -> ApiResult<Json<slopguard_fingerprint::Fingerprint>> {
    let p = params(p)?;
    let root = confine(&state, p.target.as_deref(), None)?;
    let fp = tokio::task::spawn_blocking(move || slopguard_store::compute_fingerprint(&root))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()))?
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "fingerprint_failed", e))?;
    Ok(Json(fp))
}

/// Path of `file` relative to `root` (both canonical), with forward slashes.
fn rel(root: &Path, file: &Path) -> String {
    file.strip_prefix(root)
        .unwrap_or(file)
        .to_string_lossy()
        .replace('\\', "/")
}

pub(crate) async fn context(
    State(state): State<Arc<AppState>>,
    p: Result<Query<RepoParams>, QueryRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let p = params(p)?;
    let root = confine(&state, p.target.as_deref(), None)?;
    let since = p.since.unwrap_or_else(|| "90.days".to_owned());
    let files = gitinfo::ls_files(&root).await.map_err(git_error)?;
    let commit = gitinfo::git(&root, &["rev-parse", "HEAD"])
        .await
        .ok()
        .map(|s| s.trim().to_owned());
    let churn = gitinfo::churn_counts(&root, &since)
        .await
        .map_err(git_error)?;
    let mut languages: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut source_files = Vec::new();
    for f in &files {
        if let FileKind::Code(lang) = slopguard_lang::detect(f, b"") {
            *languages.entry(lang_id(lang)).or_insert(0) += 1;
            source_files.push(f.as_str());
        }
    }
    let mut langs: Vec<_> = languages.into_iter().collect();
    langs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut hot: Vec<(&String, &usize)> = churn.iter().collect();
    hot.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let stable: Vec<&str> = source_files
        .iter()
        .copied()
        .filter(|f| !churn.contains_key(*f))
        .take(100)
        .collect();
    Ok(Json(json!({
        "commit_sha": commit,
        "files": files.len(),
        "languages": langs.iter().map(|(n, c)| json!({"name": n, "files": c})).collect::<Vec<_>>(),
        "churn_window": since,
        "hot_files": hot.iter().take(30).map(|(f, n)| json!({"path": f, "commits": n})).collect::<Vec<_>>(),
        "stable_files": stable,
    })))
}

pub(crate) async fn churn(
    State(state): State<Arc<AppState>>,
    UrlPath(path): UrlPath<String>,
    p: Result<Query<RepoParams>, QueryRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let p = params(p)?;
    let root = confine(&state, p.target.as_deref(), None)?;
    let file = confine_lexical(&state, &root, &path)?;
    let since = match p.since.as_deref().filter(|s| !s.is_empty()) {
        Some(s) => Some(
            slopguard_store::parse_since(s, slopguard_store::now_ms())
                .map(slopguard_store::rfc3339_ms)
                .map_err(ApiError::store)?,
        ),
        None => None,
    };
    let c = gitinfo::churn(&root, &file, since.as_deref())
        .await
        .map_err(git_error)?;
    Ok(Json(serde_json::to_value(c).unwrap_or_default()))
}

pub(crate) async fn blame(
    State(state): State<Arc<AppState>>,
    UrlPath(path): UrlPath<String>,
    p: Result<Query<RepoParams>, QueryRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let p = params(p)?;
    let root = confine(&state, p.target.as_deref(), None)?;
    let file = confine_lexical(&state, &root, &path)?;
    let b = gitinfo::blame(&root, &file).await.map_err(git_error)?;
    Ok(Json(serde_json::to_value(b).unwrap_or_default()))
}

/// Checks a repo-relative path (which may no longer exist: churn of a deleted file) stays in the
/// roots; returns it relative to `root`.
fn confine_lexical(state: &AppState, root: &Path, path: &str) -> ApiResult<String> {
    let joined = root.join(path.trim_start_matches('/'));
    match confine(state, Some(&joined.to_string_lossy()), Some(root)) {
        Ok(canon) => Ok(rel(root, &canon)),
        Err(e) if e.status == StatusCode::NOT_FOUND => {
            // Gone from the tree: the lexical check passed (else 403), use the path as given.
            Ok(path.trim_start_matches('/').to_owned())
        }
        Err(e) => Err(e),
    }
}

/// The stable lower-case id of a language (its serde name).
fn lang_id(lang: Language) -> &'static str {
    match lang {
        Language::Python => "python",
        Language::Rust => "rust",
        Language::JavaScript => "javascript",
        Language::TypeScript => "typescript",
        Language::Tsx => "tsx",
        Language::Go => "go",
        Language::Java => "java",
        Language::C => "c",
        Language::Cpp => "cpp",
        Language::Ruby => "ruby",
        Language::Bash => "bash",
    }
}

/// Reads and analyses one source file under the roots.
async fn analyse_file(
    state: &AppState,
    p: &RepoParams,
) -> ApiResult<(PathBuf, Language, String, slopguard_lang::SourceAnalysis)> {
    let Some(given) = p.path.as_deref().filter(|s| !s.is_empty()) else {
        return Err(ApiError::bad_request("missing ?path="));
    };
    let base = match p.target.as_deref() {
        Some(t) if !t.is_empty() => Some(confine(state, Some(t), None)?),
        _ => None,
    };
    let file = confine(state, Some(given), base.as_deref())?;
    let meta = tokio::fs::metadata(&file)
        .await
        .map_err(|e| ApiError::new(StatusCode::NOT_FOUND, "not_found", e.to_string()))?;
    if !meta.is_file() {
        return Err(ApiError::bad_request(format!("{given} is not a file")));
    }
    if meta.len() > MAX_SOURCE_BYTES {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "file_too_large",
            format!("{given} is over {MAX_SOURCE_BYTES} bytes"),
        ));
    }
    let bytes = tokio::fs::read(&file)
        .await
        .map_err(|e| ApiError::new(StatusCode::NOT_FOUND, "not_found", e.to_string()))?;
    let name = file.to_string_lossy().into_owned();
    let (lang, source, analysis) = tokio::task::spawn_blocking(move || {
        let FileKind::Code(lang) = slopguard_lang::detect(&name, &bytes) else {
            return Err(name);
        };
        let source = String::from_utf8_lossy(&bytes).into_owned();
        let analysis = slopguard_lang::analyze(lang, &source);
        Ok((lang, source, analysis))
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()))?
    .map_err(|name| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "unsupported_language",
            format!(
                "{name} is not source code of a supported language ({})",
                Language::ALL.map(lang_id).join(", ")
            ),
        )
    })?;
    Ok((file, lang, source, analysis))
}

pub(crate) async fn imports(
    State(state): State<Arc<AppState>>,
    p: Result<Query<RepoParams>, QueryRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let p = params(p)?;
    let (_file, lang, _src, a) = analyse_file(&state, &p).await?;
    Ok(Json(json!({
        "path": p.path,
        "language": lang_id(lang),
        "imports": a.imports.iter().map(|i| json!({"module": i.module, "line": i.line})).collect::<Vec<_>>(),
    })))
}

pub(crate) async fn exports(
    State(state): State<Arc<AppState>>,
    p: Result<Query<RepoParams>, QueryRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let p = params(p)?;
    let (_file, lang, _src, a) = analyse_file(&state, &p).await?;
    Ok(Json(json!({
        "path": p.path,
        "language": lang_id(lang),
        "exports": a.definitions.iter().map(|d| json!({
            "name": d.name,
            "kind": d.kind,
            "line": d.start_line,
            "end_line": d.end_line,
        })).collect::<Vec<_>>(),
    })))
}

pub(crate) async fn symbol(
    State(state): State<Arc<AppState>>,
    p: Result<Query<RepoParams>, QueryRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let p = params(p)?;
    let Some(name) = p.name.clone().filter(|s| !s.is_empty()) else {
        return Err(ApiError::bad_request("missing ?name="));
    };
    let (file, lang, source, a) = analyse_file(&state, &p).await?;
    let Some(def) = a.definitions.iter().find(|d| d.name == name) else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "symbol_not_found",
            format!(
                "no top-level definition named {name:?} in {}",
                p.path.unwrap_or_default()
            ),
        ));
    };
    let signature = source
        .lines()
        .nth(def.start_line.saturating_sub(1) as usize)
        .unwrap_or("")
        .trim()
        .to_owned();
    // Callers: tracked files of the same language in the root that holds the file, that
    // reference the name (a cheap byte search first, then the parser's reference list).
    let root = state
        .roots
        .iter()
        .find(|r| file.starts_with(r))
        .cloned()
        .unwrap_or_else(|| state.roots[0].clone());
    let files = gitinfo::ls_files(&root).await.unwrap_or_default();
    let def_file = file.clone();
    let needle = name.clone();
    let callers = tokio::task::spawn_blocking(move || {
        let mut out = Vec::new();
        for f in files.iter().take(MAX_CALLER_SCAN) {
            let path = root.join(f);
            if path == def_file {
                continue;
            }
            if !matches!(slopguard_lang::detect(f, b""), FileKind::Code(l) if same_family(l, lang))
            {
                continue;
            }
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            if bytes.len() as u64 > MAX_SOURCE_BYTES
                || memchr::memmem::find(&bytes, needle.as_bytes()).is_none()
            {
                continue;
            }
            let FileKind::Code(l) = slopguard_lang::detect(f, &bytes) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            if slopguard_lang::analyze(l, &text)
                .references
                .contains(&needle)
            {
                out.push(f.clone());
            }
        }
        out
    })
    .await
    .unwrap_or_default();
    Ok(Json(json!({
        "path": p.path,
        "name": name,
        "language": lang_id(lang),
        "kind": def.kind,
        "start_line": def.start_line,
        "end_line": def.end_line,
        "signature": signature,
        "callers": callers,
    })))
}

/// Languages whose files can call each other.
fn same_family(a: Language, b: Language) -> bool {
    use Language::*;
    let fam = |l: Language| match l {
        JavaScript | TypeScript | Tsx => 1,
        C | Cpp => 2,
        other => 10 + other as u8,
    };
    fam(a) == fam(b)
}
