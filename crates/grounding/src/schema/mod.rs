//! G10 config-schema: configs that parse but violate their tool's schema.
//!
//! - GitHub workflows, composite/JS/Docker actions and dependabot: the typed models of
//!   `github-actions-models` (precise serde errors) plus the SchemaStore schemas vendored by
//!   check-jsonschema (unknown keys, wrong shapes).
//! - package.json, tsconfig/jsconfig, ESLint (`.eslintrc*`) and Prettier (`.prettierrc*`):
//!   bundled SchemaStore schemas.
//! - pyproject.toml: validate-pyproject's PEP 517/621 schemas for the document and `[project]`,
//!   and the SchemaStore schemas for common `[tool.*]` tables (ruff, mypy, black, pytest, poetry,
//!   uv, setuptools, hatch, pyright, setuptools_scm, cibuildwheel, maturin).
//! - Cargo.toml: `cargo_toml`'s typed manifest.
//!
//! Every schema is bundled (see `schemas/NOTICE.md`), `$ref`s resolve through an offline
//! registry, and each validator is compiled once per process and cached. A file that does not
//! parse is left to the syntax guard (no violation here). [`check`] reports only violations the
//! change introduced: a problem the original already had is not this change's doing.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde::Serialize;
use serde_json::Value;

mod lines;

/// The config families G10 knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConfigKind {
    /// `.github/workflows/*.yml`
    Workflow,
    /// `action.yml` / `action.yaml`
    Action,
    /// `.github/dependabot.yml`
    Dependabot,
    /// `package.json`
    PackageJson,
    /// `tsconfig*.json`, `jsconfig.json`
    Tsconfig,
    /// `.eslintrc`, `.eslintrc.json`, `.eslintrc.yaml`, `.eslintrc.yml`
    Eslintrc,
    /// `.prettierrc`, `.prettierrc.json`, `.prettierrc.yaml`, `.prettierrc.yml`
    Prettierrc,
    /// `pyproject.toml`
    Pyproject,
    /// `Cargo.toml`
    Cargo,
}

/// Classifies a path.
pub fn config_kind(path: &str) -> Option<ConfigKind> {
    let base = path.rsplit('/').next().unwrap_or(path);
    let yaml = base.ends_with(".yml") || base.ends_with(".yaml");
    Some(match base {
        "package.json" => ConfigKind::PackageJson,
        "jsconfig.json" => ConfigKind::Tsconfig,
        "action.yml" | "action.yaml" => ConfigKind::Action,
        ".eslintrc" | ".eslintrc.json" | ".eslintrc.yaml" | ".eslintrc.yml" => ConfigKind::Eslintrc,
        ".prettierrc" | ".prettierrc.json" | ".prettierrc.yaml" | ".prettierrc.yml" => {
            ConfigKind::Prettierrc
        }
        "pyproject.toml" => ConfigKind::Pyproject,
        "Cargo.toml" => ConfigKind::Cargo,
        _ if base.starts_with("tsconfig") && base.ends_with(".json") => ConfigKind::Tsconfig,
        _ if yaml && (path == ".github/dependabot.yml" || path == ".github/dependabot.yaml") => {
            ConfigKind::Dependabot
        }
        _ if yaml && path.starts_with(".github/workflows/") && !base.starts_with('.') => {
            ConfigKind::Workflow
        }
        _ => return None,
    })
}

/// One schema violation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// JSON pointer into the document (`/jobs/build/runs-on`), empty for the root.
    pub pointer: String,
    /// 1-based line, when it could be located.
    pub line: Option<u32>,
    /// What is wrong, phrased for someone fixing the file.
    pub message: String,
    /// Which schema or model said so (`github-actions-models`, `schemastore:tsconfig`, ...).
    pub source: String,
}

// ------------------------------------------------------------------ bundled schemas

struct Bundled {
    name: &'static str,
    uri: &'static str,
    text: &'static str,
    /// 2022-era schema: report only type/required violations.
    stale: bool,
}

macro_rules! bundled {
    ($name:literal, $uri:literal, $file:literal, $stale:literal) => {
        Bundled {
            name: $name,
            uri: $uri,
            text: include_str!(concat!("../../schemas/", $file)),
            stale: $stale,
        }
    };
}

static BUNDLED: &[Bundled] = &[
    bundled!(
        "workflow",
        "https://json.schemastore.org/github-workflow.json",
        "check-jsonschema/github-workflows.json",
        false
    ),
    bundled!(
        "action",
        "https://json.schemastore.org/github-action.json",
        "check-jsonschema/github-actions.json",
        false
    ),
    bundled!(
        "dependabot",
        "https://json.schemastore.org/dependabot-2.0.json",
        "check-jsonschema/dependabot.json",
        false
    ),
    bundled!(
        "package.json",
        "https://json.schemastore.org/package.json",
        "schemastore/package.json",
        true
    ),
    bundled!(
        "eslintrc",
        "https://json.schemastore.org/eslintrc.json",
        "schemastore/eslintrc.json",
        true
    ),
    bundled!(
        "prettierrc",
        "https://json.schemastore.org/prettierrc.json",
        "schemastore/prettierrc.json",
        true
    ),
    bundled!(
        "tsconfig",
        "https://json.schemastore.org/tsconfig",
        "schemastore/tsconfig.json",
        true
    ),
    bundled!(
        "pyproject",
        "https://packaging.python.org/en/latest/specifications/declaring-build-dependencies/",
        "validate-pyproject/pyproject_toml.schema.json",
        false
    ),
    bundled!(
        "project-metadata",
        "https://packaging.python.org/en/latest/specifications/pyproject-toml/",
        "validate-pyproject/project_metadata.schema.json",
        false
    ),
    bundled!(
        "tool.ruff",
        "https://json.schemastore.org/ruff.json",
        "pyproject-tools/ruff.schema.json",
        false
    ),
    bundled!(
        "tool.mypy",
        "https://json.schemastore.org/partial-mypy.json",
        "pyproject-tools/mypy.schema.json",
        false
    ),
    bundled!(
        "tool.black",
        "https://json.schemastore.org/partial-black.json",
        "pyproject-tools/black.schema.json",
        false
    ),
    bundled!(
        "tool.pytest",
        "https://json.schemastore.org/partial-pytest.json",
        "pyproject-tools/pytest.schema.json",
        false
    ),
    bundled!(
        "tool.poetry",
        "https://json.schemastore.org/partial-poetry.json",
        "pyproject-tools/poetry.schema.json",
        false
    ),
    bundled!(
        "tool.uv",
        "https://json.schemastore.org/uv.json",
        "pyproject-tools/uv.schema.json",
        false
    ),
    bundled!(
        "tool.setuptools",
        "https://json.schemastore.org/partial-setuptools.json",
        "pyproject-tools/setuptools.schema.json",
        false
    ),
    bundled!(
        "tool.hatch",
        "https://json.schemastore.org/hatch.json",
        "pyproject-tools/hatch.schema.json",
        false
    ),
    bundled!(
        "tool.pyright",
        "https://json.schemastore.org/partial-pyright.json",
        "pyproject-tools/pyright.schema.json",
        false
    ),
    bundled!(
        "tool.setuptools_scm",
        "https://json.schemastore.org/partial-setuptools-scm.json",
        "pyproject-tools/setuptools_scm.schema.json",
        false
    ),
    bundled!(
        "tool.cibuildwheel",
        "https://json.schemastore.org/partial-cibuildwheel.json",
        "pyproject-tools/cibuildwheel.schema.json",
        false
    ),
    bundled!(
        "tool.maturin",
        "https://json.schemastore.org/maturin.json",
        "pyproject-tools/maturin.schema.json",
        false
    ),
];

fn bundled(name: &str) -> Option<&'static Bundled> {
    BUNDLED.iter().find(|b| b.name == name)
}

/// The URIs (fragment dropped) of the absolute `$ref`s in a schema's text.
fn absolute_refs(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices("\"$ref\"").filter_map(move |(i, m)| {
        let rest = text[i + m.len()..].trim_start().strip_prefix(':')?;
        let value = rest.trim_start().strip_prefix('"')?;
        let value = &value[..value.find('"')?];
        let uri = value.split('#').next().unwrap_or(value);
        (!uri.is_empty()).then_some(uri)
    })
}

/// The bundled schemas `root` needs to be compiled: itself and every bundled schema it names in
/// an absolute `$ref`, transitively (package.json names ESLint's and Prettier's, pyproject its
/// `[project]` schema). Every other `$ref` in the bundle is local (`#/...`).
fn needed_by(root: &'static Bundled) -> Vec<&'static Bundled> {
    let mut needed = vec![root];
    let mut i = 0;
    while let Some(b) = needed.get(i) {
        for uri in absolute_refs(b.text) {
            if let Some(dep) = BUNDLED.iter().find(|d| d.uri == uri)
                && !needed.iter().any(|n| std::ptr::eq(*n, dep))
            {
                needed.push(dep);
            }
        }
        i += 1;
    }
    needed
}

/// The offline registry for one bundled schema: the schemas it needs (see [`needed_by`]) under
/// their canonical URIs, built once per process. Parsing and preparing the whole bundle (1.2 MB
/// of JSON) for every validator cost more than the validation itself.
fn registry(root: &'static Bundled) -> Option<&'static jsonschema::Registry<'static>> {
    static REGS: OnceLock<Vec<OnceLock<Option<jsonschema::Registry<'static>>>>> = OnceLock::new();
    let regs = REGS.get_or_init(|| BUNDLED.iter().map(|_| OnceLock::new()).collect());
    let index = BUNDLED.iter().position(|b| std::ptr::eq(b, root))?;
    regs[index]
        .get_or_init(|| {
            let resources: Vec<(&str, Value)> = needed_by(root)
                .into_iter()
                .filter_map(|b| {
                    serde_json::from_str::<Value>(b.text)
                        .ok()
                        .map(|v| (b.uri, v))
                })
                .collect();
            jsonschema::Registry::new()
                .extend(resources)
                .ok()?
                .prepare()
                .ok()
        })
        .as_ref()
}

type Cache = Mutex<BTreeMap<&'static str, Option<Arc<jsonschema::Validator>>>>;

/// The compiled validator of a bundled schema (compiled once per process).
fn validator(name: &'static str) -> Option<Arc<jsonschema::Validator>> {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Ok(c) = cache.lock()
        && let Some(v) = c.get(name)
    {
        return v.clone();
    }
    let compiled = (|| {
        let root = bundled(name.trim_end_matches("#options"))?;
        let schema: Value = if name.ends_with("#options") {
            // Prettier's schema wraps its options in oneOf [options + overrides, string]: validate
            // an object against the options definition directly for precise messages.
            serde_json::json!({ "$ref": format!("{}#/definitions/optionsDefinition", root.uri) })
        } else {
            serde_json::from_str(root.text).ok()?
        };
        let reg = registry(root)?;
        jsonschema::options()
            .with_registry(reg)
            .offline()
            .should_validate_formats(false)
            .build(&schema)
            .ok()
            .map(Arc::new)
    })();
    if let Ok(mut c) = cache.lock() {
        c.insert(name, compiled.clone());
    }
    compiled
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let t: String = s.chars().take(n).collect();
        format!("{t}...")
    }
}

/// For `oneOf`/`anyOf` failures, the alternative that came closest (fewest errors, first on a
/// tie), so the message names the actual problem instead of "not valid under any schema".
fn closest_branch<'e>(
    context: &'e [Vec<jsonschema::ValidationError<'static>>],
) -> Option<&'e [jsonschema::ValidationError<'static>]> {
    context
        .iter()
        .filter(|b| !b.is_empty())
        .min_by_key(|b| {
            // A branch failing only on its type is the wrong alternative, not a near miss.
            let type_only = b.iter().all(|e| e.kind().keyword() == "type");
            (type_only, b.len())
        })
        .map(Vec::as_slice)
}

fn describe_error(e: &jsonschema::ValidationError<'_>) -> String {
    use jsonschema::error::ValidationErrorKind as K;
    match e.kind() {
        K::OneOfNotValid { context } | K::AnyOf { context } => match closest_branch(context) {
            Some(branch) => {
                let parts: Vec<String> = branch
                    .iter()
                    .take(4)
                    .map(|b| {
                        let here = b.instance_path().as_str().to_string();
                        let rel = here
                            .strip_prefix(e.instance_path().as_str())
                            .unwrap_or(&here)
                            .to_string();
                        let msg = describe_error(b);
                        if rel.is_empty() {
                            msg
                        } else {
                            format!("at `{rel}`: {msg}")
                        }
                    })
                    .collect();
                parts.join("; ")
            }
            None => truncate(&e.to_string(), 240),
        },
        K::AdditionalProperties { unexpected } => format!(
            "unknown key{} {} (not allowed here by the tool's schema; check the spelling or remove it)",
            if unexpected.len() == 1 { "" } else { "s" },
            unexpected
                .iter()
                .map(|u| format!("`{u}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        K::Required { property } => format!("missing required key {property}"),
        K::Type { .. } => format!("wrong type: {}", truncate(&e.to_string(), 200)),
        K::Enum { options } => format!(
            "value {} is not one of the allowed values {}",
            truncate(&e.instance().to_string(), 60),
            truncate(&options.to_string(), 160)
        ),
        _ => truncate(&e.to_string(), 240),
    }
}

/// Whether the tool reading the file accepts what schema `name` refuses in `e`, or in the
/// alternative of a `oneOf`/`anyOf` that came closest:
/// - a wrong type where the value is YAML's `key:` (null), which the tools read as empty
///   (`TARGET_FLAGS:` in a workflow's `env`);
/// - a TOML number where a `[tool.*]` table wants a string (`python_version = 3.8`): the
///   tools coerce it;
/// - a workflow job whose `strategy` has no `matrix` (`fail-fast` alone: psf/requests'
///   workflows), which GitHub runs though the schema requires one (its own schema does not).
fn what_the_tool_accepts(name: &str, e: &jsonschema::ValidationError<'_>) -> bool {
    use jsonschema::error::ValidationErrorKind as K;
    match e.kind() {
        K::Type { .. } => {
            let inst = e.instance();
            inst.is_null() || (name.starts_with("tool.") && inst.is_number())
        }
        K::OneOfNotValid { context } | K::AnyOf { context } => closest_branch(context)
            .is_some_and(|b| b.iter().all(|x| what_the_tool_accepts(name, x))),
        _ => name == "workflow" && only_strategy_without_matrix(e),
    }
}

/// Whether the error is, or comes closest to, only `matrix` missing from a job's `strategy`.
fn only_strategy_without_matrix(e: &jsonschema::ValidationError<'_>) -> bool {
    use jsonschema::error::ValidationErrorKind as K;
    match e.kind() {
        K::Required { property } => {
            property.as_str() == Some("matrix") && e.instance_path().as_str().ends_with("/strategy")
        }
        K::OneOfNotValid { context } | K::AnyOf { context } => {
            closest_branch(context).is_some_and(|b| b.iter().all(only_strategy_without_matrix))
        }
        _ => false,
    }
}

/// Validates `instance` against bundled schema `name`; `prefix` is prepended to pointers.
fn validate_with(name: &'static str, instance: &Value, prefix: &str) -> Vec<Violation> {
    let Some(v) = validator(name) else {
        return Vec::new();
    };
    // Stale schemas and the [tool.*] schemas (which follow each tool's latest release, while a
    // repository pins an older or newer one) report only wrong types and missing keys.
    let lenient = bundled(name.trim_end_matches("#options")).is_some_and(|b| b.stale)
        || name.starts_with("tool.");
    let mut out = Vec::new();
    for e in v.iter_errors(instance) {
        let keyword = e.kind().keyword().to_string();
        if lenient && !matches!(keyword.as_str(), "type" | "required") {
            // An `anyOf`/`oneOf` whose closest alternative fails only on types is a type error.
            use jsonschema::error::ValidationErrorKind as K;
            let type_only = match e.kind() {
                K::OneOfNotValid { context } | K::AnyOf { context } => closest_branch(context)
                    .is_some_and(|b| {
                        b.iter().all(|x| {
                            matches!(x.kind().keyword(), "type" | "required")
                                && !x.instance().is_null()
                                && !(name.starts_with("tool.") && x.instance().is_number())
                        })
                    }),
                _ => false,
            };
            if !type_only {
                continue;
            }
        }
        if what_the_tool_accepts(name, &e) {
            continue;
        }
        // npm still accepts the legacy `license: {type, url}` and `licenses: [...]` forms.
        if name == "package.json" && e.instance_path().as_str().starts_with("/license") {
            continue;
        }
        if matches!(keyword.as_str(), "format" | "$ref") {
            continue;
        }
        out.push(Violation {
            pointer: format!("{prefix}{}", e.instance_path().as_str()),
            line: None,
            message: describe_error(&e),
            source: format!("schema:{name}"),
        });
        if out.len() >= 20 {
            break;
        }
    }
    out
}

// ------------------------------------------------------------------ parsing

/// Strips `//` and `/* */` comments and trailing commas (tsconfig, .eslintrc are JSONC).
pub fn strip_jsonc(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut in_str = false;
    let mut start = 0;
    while i < b.len() {
        let c = b[i];
        if in_str {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'"' {
                in_str = false;
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                out.push_str(&text[start..i]);
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                start = i;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                out.push_str(&text[start..i]);
                let end = text[i + 2..]
                    .find("*/")
                    .map(|e| i + 2 + e + 2)
                    .unwrap_or(b.len());
                // keep newlines so lines stay aligned
                out.extend(text[i..end].chars().filter(|c| *c == '\n'));
                i = end;
                start = i;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out.push_str(&text[start.min(text.len())..]);
    // trailing commas
    let mut res = String::with_capacity(out.len());
    let chars: Vec<char> = out.chars().collect();
    let mut in_str = false;
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k];
        if in_str {
            res.push(c);
            if c == '\\' && k + 1 < chars.len() {
                res.push(chars[k + 1]);
                k += 2;
                continue;
            }
            if c == '"' {
                in_str = false;
            }
            k += 1;
            continue;
        }
        if c == '"' {
            in_str = true;
        }
        if c == ',' {
            let next = chars[k + 1..].iter().find(|c| !c.is_whitespace());
            if matches!(next, Some('}') | Some(']')) {
                k += 1;
                continue;
            }
        }
        res.push(c);
        k += 1;
    }
    res
}

fn parse_yaml(text: &str) -> Option<Value> {
    let opts = serde_saphyr::options! { strict_booleans: true };
    serde_saphyr::from_str_with_options::<Value>(text, opts).ok()
}

fn parse_json_or_yaml(text: &str, jsonc: bool) -> Option<Value> {
    let json = if jsonc {
        serde_json::from_str(&strip_jsonc(text)).ok()
    } else {
        serde_json::from_str(text).ok()
    };
    json.or_else(|| {
        if text.trim_start().starts_with('{') {
            None
        } else {
            parse_yaml(text)
        }
    })
}

// ------------------------------------------------------------------ typed checks

fn typed_github(kind: ConfigKind, text: &str) -> Option<Violation> {
    use github_actions_models::{action::Action, dependabot::v2::Dependabot, workflow::Workflow};
    let opts = || serde_saphyr::options! { strict_booleans: true };
    let err = match kind {
        ConfigKind::Workflow => serde_saphyr::from_str_with_options::<Workflow>(text, opts()).err(),
        ConfigKind::Action => serde_saphyr::from_str_with_options::<Action>(text, opts()).err(),
        ConfigKind::Dependabot => {
            serde_saphyr::from_str_with_options::<Dependabot>(text, opts()).err()
        }
        _ => None,
    }?;
    let msg = err.to_string();
    let line = lines::line_from_message(&msg);
    Some(Violation {
        pointer: String::new(),
        line,
        message: truncate(msg.lines().next().unwrap_or(&msg), 300),
        source: "github-actions-models".into(),
    })
}

/// Conditions written `if: !expr` in a workflow or action. YAML reads a plain value that starts
/// with `!` as a tag, so the condition is empty, not a negation; GitHub's documentation says to
/// write `${{ !expr }}` or quote it. Found by line: the parsed document has only a null there,
/// and the typed model's error names no key ("did not match any variant of untagged enum Job").
fn tagged_conditions(text: &str) -> Vec<Violation> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_start();
        let line = line.strip_prefix("- ").map_or(line, str::trim_start);
        let Some(value) = line.strip_prefix("if:") else {
            continue;
        };
        if !value.starts_with(char::is_whitespace) {
            continue;
        }
        let value = value.trim();
        if value.starts_with('!') && !value.starts_with("!!") {
            out.push(Violation {
                pointer: format!("if: {value}"),
                line: Some(i as u32 + 1),
                // The guard names the pointer first: "... violation at `if: !x`: a YAML tag, ..."
                message: format!(
                    "a YAML tag, not a negation: the condition is empty. Write \
                     `if: ${{{{ {value} }}}}` or quote the expression"
                ),
                source: "yaml-tagged-condition".into(),
            });
        }
    }
    out
}

fn typed_cargo(text: &str) -> Option<Violation> {
    let err = cargo_toml::Manifest::from_str(text).err()?;
    let msg = err.to_string();
    // Plain TOML syntax errors are the syntax guard's business.
    if text.parse::<toml::Table>().is_err() {
        return None;
    }
    // toml's messages quote the offending source line between a header and the explanation:
    // keep the explanation.
    let explanation = msg
        .lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty()
                && !l.starts_with('|')
                && !l.contains(" | ")
                && !l.starts_with("TOML parse error")
        })
        .collect::<Vec<_>>()
        .join(" ");
    Some(Violation {
        pointer: String::new(),
        line: lines::line_from_message(&msg),
        message: truncate(
            if explanation.is_empty() {
                &msg
            } else {
                &explanation
            },
            300,
        ),
        source: "cargo_toml".into(),
    })
}

/// Violations of the `[tool.*]` tables that have a schema. A table equal to the same table of
/// `unchanged_from` is skipped: its violations would be the earlier version's, which
/// [`check`] drops anyway, and compiling its tool's schema (ruff's is large) is most of the
/// cost.
fn pyproject_tools(doc: &Value, unchanged_from: Option<&Value>) -> Vec<Violation> {
    let mut out = Vec::new();
    let Some(tool) = doc.get("tool").and_then(|t| t.as_object()) else {
        return out;
    };
    let earlier = unchanged_from.and_then(|d| d.get("tool"));
    for (name, table) in tool {
        if earlier.and_then(|t| t.get(name)) == Some(table) {
            continue;
        }
        let schema: &'static str = match name.as_str() {
            "ruff" => "tool.ruff",
            "mypy" => "tool.mypy",
            "black" => "tool.black",
            "pytest" => "tool.pytest",
            "poetry" => "tool.poetry",
            "uv" => "tool.uv",
            "setuptools" => "tool.setuptools",
            "hatch" => "tool.hatch",
            "pyright" => "tool.pyright",
            "setuptools_scm" => "tool.setuptools_scm",
            "cibuildwheel" => "tool.cibuildwheel",
            "maturin" => "tool.maturin",
            _ => continue,
        };
        out.extend(validate_with(schema, table, &format!("/tool/{name}")));
    }
    out
}

/// Every violation of one config's text (empty when it does not parse: that is the syntax
/// guard's finding).
pub fn validate(kind: ConfigKind, text: &str) -> Vec<Violation> {
    validate_since(kind, text, None)
}

/// [`validate`], leaving out parts equal in `before` (the earlier version's text) where the
/// parts are validated alone: their violations are the earlier version's.
fn validate_since(kind: ConfigKind, text: &str, before: Option<&str>) -> Vec<Violation> {
    let mut out = match kind {
        ConfigKind::Workflow | ConfigKind::Action | ConfigKind::Dependabot => {
            let Some(doc) = parse_yaml(text) else {
                return Vec::new();
            };
            let name = match kind {
                ConfigKind::Workflow => "workflow",
                ConfigKind::Action => "action",
                _ => "dependabot",
            };
            let mut v = validate_with(name, &doc, "");
            if kind != ConfigKind::Dependabot {
                v.extend(tagged_conditions(text));
            }
            if v.is_empty()
                && let Some(t) = typed_github(kind, text)
            {
                v.push(t);
            }
            v
        }
        ConfigKind::PackageJson => match serde_json::from_str::<Value>(text) {
            Ok(doc) => validate_with("package.json", &doc, ""),
            Err(_) => Vec::new(),
        },
        ConfigKind::Tsconfig => match serde_json::from_str::<Value>(&strip_jsonc(text)) {
            Ok(doc) => validate_with("tsconfig", &doc, ""),
            Err(_) => Vec::new(),
        },
        ConfigKind::Eslintrc => match parse_json_or_yaml(text, true) {
            Some(doc) => validate_with("eslintrc", &doc, ""),
            None => Vec::new(),
        },
        ConfigKind::Prettierrc => match parse_json_or_yaml(text, true) {
            // A bare string in .prettierrc names a shared config package.
            Some(doc) if doc.is_object() => validate_with("prettierrc#options", &doc, ""),
            _ => Vec::new(),
        },
        ConfigKind::Pyproject => match toml::from_str::<Value>(text) {
            Ok(doc) => {
                let mut v = validate_with("pyproject", &doc, "");
                let earlier = before.and_then(|b| toml::from_str::<Value>(b).ok());
                v.extend(pyproject_tools(&doc, earlier.as_ref()));
                v
            }
            Err(_) => Vec::new(),
        },
        ConfigKind::Cargo => typed_cargo(text).into_iter().collect(),
    };
    for v in &mut out {
        if v.line.is_none() {
            v.line = lines::locate(text, &v.pointer);
        }
    }
    out
}

/// G10 on one file: violations of `after` that `before` (None for a created file) did not have.
pub fn check(path: &str, before: Option<&str>, after: &str) -> Vec<Violation> {
    let Some(kind) = config_kind(path) else {
        return Vec::new();
    };
    let new = validate_since(kind, after, before);
    if new.is_empty() {
        return new;
    }
    let old: Vec<Violation> = before.map(|b| validate(kind, b)).unwrap_or_default();
    new.into_iter()
        .filter(|v| {
            !old.iter().any(|o| {
                // Typed-model errors carry positions in their text and no pointer: same source
                // = carry-over.
                (o.source == v.source && !v.source.starts_with("schema:") && v.pointer.is_empty())
                    || (o.pointer == v.pointer && o.message == v.message)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;
