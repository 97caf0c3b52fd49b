//! G2 syntax: a touched file must still parse.

use std::borrow::Cow;

use slopguard_lang::{DataFormat, FileKind, Language, SourceAnalysis, SyntaxError};

use crate::{Context, Finding, Guard, GuardInfo, Severity};

/// The syntax guard.
pub struct Syntax;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "syntax",
    code: Some("G2"),
    summary: "files that no longer parse: 11 languages plus JSON, TOML, YAML and INI",
    doc: include_str!("../../docs/syntax.md"),
    default_enabled: true,
    failure_mode: "syntax_invalid",
    trace_event: "critic_syntax_check.fail",
};

fn data_error(format: DataFormat, text: Option<&str>) -> Option<SyntaxError> {
    text.and_then(|t| slopguard_lang::parse_data(format, t).err())
}

/// Go template files: `*.gotmpl` and `*.gohtml` anywhere; `*.tmpl` and `*.tpl` (extensions
/// other engines share) in a Go module; and every file of a Helm chart's `templates/`
/// directory, whose YAML manifests are Go templates before they are YAML.
fn is_go_template(cx: &Context<'_>, path: &str) -> bool {
    if path.ends_with(".gotmpl") || path.ends_with(".gohtml") {
        return true;
    }
    if (path.ends_with(".tmpl") || path.ends_with(".tpl")) && cx.exists_after("go.mod") {
        return true;
    }
    helm_chart_template(cx, path)
}

/// A trybuild / compiletest compile-fail case: `x.rs` beside the `x.stderr` holding the
/// compiler errors it must produce (serde's `tests/ui/conflict/alias.rs` ends in `@//fail` on
/// purpose).
fn compile_fail_test(cx: &Context<'_>, path: &str) -> bool {
    path.strip_suffix(".rs")
        .is_some_and(|stem| cx.exists_after(&format!("{stem}.stderr")))
}

/// `<chart>/templates/...` with `<chart>/Chart.yaml` present.
fn helm_chart_template(cx: &Context<'_>, path: &str) -> bool {
    let mut from = 0;
    while let Some(at) = path[from..].find("templates/") {
        let start = from + at;
        if (start == 0 || path.as_bytes()[start - 1] == b'/')
            && cx.exists_after(&format!("{}Chart.yaml", &path[..start]))
        {
            return true;
        }
        from = start + "templates/".len();
    }
    false
}

/// The edition of the crate that holds the Rust file `path`: the `package.edition` of the
/// nearest `Cargo.toml` above it with a `[package]` (2015 when it names none), or the
/// workspace's `workspace.package.edition` when the package inherits it. `None` outside any
/// package, or when a manifest does not parse.
fn rust_edition(cx: &Context<'_>, path: &str) -> Option<u16> {
    let manifest = |dir: &str| -> Option<toml::Table> {
        let name = if dir.is_empty() {
            "Cargo.toml".to_owned()
        } else {
            format!("{dir}/Cargo.toml")
        };
        let bytes = cx.read_after(&name)?;
        std::str::from_utf8(&bytes).ok()?.parse().ok()
    };
    let edition_of = |value: &toml::Value| value.as_str().and_then(|e| e.parse().ok());
    // The file's directories, nearest first, the repository root last.
    let dirs: Vec<&str> = std::iter::successors(Some(path), |p| p.rsplit_once('/').map(|(d, _)| d))
        .skip(1)
        .chain([""])
        .collect();
    let (at, package) = dirs
        .iter()
        .enumerate()
        .find_map(|(i, dir)| Some((i, manifest(dir)?.get("package")?.as_table().cloned()?)))?;
    match package.get("edition") {
        None => Some(2015),
        Some(toml::Value::Table(t))
            if t.get("workspace").and_then(toml::Value::as_bool) == Some(true) =>
        {
            // The workspace root may be the package's own manifest.
            dirs[at..]
                .iter()
                .find_map(|dir| manifest(dir)?.get("workspace")?.as_table().cloned())?
                .get("package")?
                .get("edition")
                .and_then(edition_of)
        }
        Some(value) => edition_of(value),
    }
}

/// The syntax errors of one version of a code file: the analysis's certain errors, with the
/// Rust errors that hold from edition 2021 on when the file's crate is of that edition or
/// later.
fn code_errors<'x>(
    cx: &Context<'_>,
    path: &str,
    analysis: &'x SourceAnalysis,
) -> Cow<'x, [SyntaxError]> {
    let later = &analysis.syntax_errors_from_edition_2021;
    if later.is_empty() || rust_edition(cx, path).is_none_or(|e| e < 2021) {
        return Cow::Borrowed(&analysis.syntax_errors);
    }
    let mut all = analysis.syntax_errors.clone();
    all.extend(later.iter().cloned());
    all.sort_by_key(|e| (e.line, e.column));
    Cow::Owned(all)
}

/// C and C++ parse errors from tree-sitter are often preprocessor artefacts: a new file's
/// errors there warn instead of block.
fn uncertain_language(lang: Language) -> bool {
    matches!(lang, Language::C | Language::Cpp)
}

impl Guard for Syntax {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        for file in cx.files() {
            let path = file.path();
            if file.change().after.is_none() || file.change().after_is_symlink {
                continue;
            }
            match file.kind() {
                FileKind::Code(lang) => {
                    let Some(after) = file.after_analysis() else {
                        continue;
                    };
                    let after_errors = code_errors(cx, path, after);
                    if after_errors.is_empty() {
                        continue;
                    }
                    if lang == Language::Rust && compile_fail_test(cx, path) {
                        continue;
                    }
                    let before_path = file.change().old_path();
                    let before_errors = file
                        .before_analysis()
                        .map(|b| code_errors(cx, before_path, b).len());
                    // A file that was already broken is only blamed for new breakage.
                    if before_errors.is_some_and(|n| n >= after_errors.len()) {
                        continue;
                    }
                    let severity = if uncertain_language(lang) && before_errors.is_none() {
                        Severity::Warn
                    } else {
                        Severity::Block
                    };
                    let first = &after_errors[0];
                    let more = after_errors.len() - 1;
                    let extra = if more > 0 {
                        format!(" (and {more} more)")
                    } else {
                        String::new()
                    };
                    out.push(
                        Finding::new(&INFO, severity, format!("{} syntax error: {}{extra}", lang.name(), first.message))
                            .at(path, Some(first.line), Some(first.column))
                            .feedback(format!(
                                "`{path}` does not parse as {} at line {}, column {}: {}. Send the complete, valid file.",
                                lang.name(), first.line, first.column, first.message
                            ))
                            .data(serde_json::json!({"language": lang, "errors": after_errors})),
                    );
                }
                FileKind::Data(_) | FileKind::Other if is_go_template(cx, path) => {
                    go_template_finding(file, path, out);
                }
                FileKind::Data(format) => {
                    let Some(err) = data_error(format, file.after_text()) else {
                        continue;
                    };
                    if file.is_modify() && data_error(format, file.before_text()).is_some() {
                        continue;
                    }
                    let name = format!("{format:?}").to_uppercase();
                    out.push(
                        Finding::new(&INFO, Severity::Block, format!("invalid {name}: {}", err.message))
                            .at(path, Some(err.line), Some(err.column))
                            .feedback(format!(
                                "`{path}` is not valid {name} (line {}, column {}): {}. Fix the syntax; keep every value quoted as the format requires.",
                                err.line, err.column, err.message
                            )),
                    );
                }
                FileKind::Markdown | FileKind::Other => {}
            }
        }
    }
}

/// A Go template whose `{{ }}` delimiters the change broke.
fn go_template_finding(file: &crate::FileView<'_>, path: &str, out: &mut Vec<Finding>) {
    let Some(err) = file
        .after_text()
        .and_then(slopguard_lang::go_template_error)
    else {
        return;
    };
    if file.is_modify()
        && file
            .before_text()
            .and_then(slopguard_lang::go_template_error)
            .is_some()
    {
        return;
    }
    out.push(
                        Finding::new(&INFO, Severity::Block, format!("invalid Go template: {}", err.message))
                            .at(path, Some(err.line), Some(err.column))
                            .feedback(format!(
                                "`{path}` is not a valid Go template (line {}, column {}): {}. Close every `{{{{` action with `}}}}`.",
                                err.line, err.column, err.message
                            )),
                    );
}
