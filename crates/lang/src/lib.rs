//! The language layer: what kind of file a path holds, whether it parses, and what it defines,
//! imports and references.
//!
//! Everything here is a pure function of `(path, bytes)`. Guards hold each file version as one
//! [`ParsedSource`], so the analysis and the scope resolutions of a version share one
//! tree-sitter parse; nothing in this crate touches the file system or the network.
//!
//! How the checks are made:
//!
//! - Source code is parsed with tree-sitter (one parser per language and thread, reused).
//!   tree-sitter recovers from some real breakage silently, so a precise second check runs
//!   where one exists: a CPython-rules tokenizer for Python (missing block bodies, bad
//!   dedents, brackets, strings), `syn` for Rust (the whole file, plus the arguments of
//!   `println!`-style macros, and their format strings' brace grammar), and for Go the
//!   `{{ }}` delimiters of `text/template` / `html/template` literals passed to `.Parse`.
//!   For C and C++, tree-sitter cannot expand macros, so errors that
//!   a macro or an `#ifdef` explains are reported in
//!   [`SourceAnalysis::uncertain_syntax_errors`] instead of [`SourceAnalysis::syntax_errors`].
//!   A precise text-level check backs it: brackets that do not balance outside comments,
//!   strings and preprocessor lines are certain errors whatever the macros.
//! - `Language::C` input that parses better as C++ (a C++ header named `.h`) is analysed as
//!   C++: [`analyze`] tries C first and, when C reports errors, keeps the C++ analysis if it
//!   has fewer certain errors.
//! - Data formats use their real parsers (serde_json, toml, serde-saphyr, rust-ini) through
//!   [`parse_data`]; duplicate keys are errors in every format.

mod analyze;
mod cfamily;
mod code_tokens;
mod data;
mod defs;
mod detect;
mod go_template;
mod hash;
mod implicit_calls;
mod imports;
mod js_regex;
mod module_interface;
pub mod paths;
mod python_check;
mod regex_calls;
mod rust_check;
mod scope;
mod setup_py;
mod source;
mod stubs;
mod ts;
mod types;
mod words;

pub use code_tokens::{CodeToken, code_tokens};
pub use hash::body_hash;
pub use implicit_calls::runs_implicitly;
pub use source::ParsedSource;
pub use types::*;
pub use words::{is_word_byte, mentions_word, word_positions};

/// The string entries of a Python file's top-level `__all__` assignments, with their 1-based
/// lines: what `from mod import *` exports; `None` when it could not be parsed.
pub fn python_dunder_all(source: &str) -> Option<Vec<(String, u32)>> {
    module_interface::python_dunder_all(source)
}

/// The package a Go file declares (`package logrus` -> `logrus`).
pub fn go_package(source: &str) -> Option<String> {
    module_interface::go_package(source)
}

/// Detects what kind of file `path` is, using the extension, well-known file names and (for
/// extension-less scripts) the shebang line of `content`.
pub fn detect(path: &str, content: &[u8]) -> FileKind {
    detect::detect(path, content)
}

/// Parses a source file and extracts syntax errors, top-level definitions, imports and
/// identifier references. Never panics on any input.
///
/// Certain errors go to [`SourceAnalysis::syntax_errors`]; errors that may be parser false
/// positives (C/C++ macros and `#ifdef`s, inputs too large to parse in time) go to
/// [`SourceAnalysis::uncertain_syntax_errors`]. `Language::C` falls back to C++ when the C++
/// grammar parses the file with fewer certain errors.
pub fn analyze(language: Language, source: &str) -> SourceAnalysis {
    analyze::analyze(language, source)
}

/// Parses a data file with the format's real parser into a JSON value (TOML datetimes become
/// strings, INI becomes `{section: {key: value}}`, YAML keeps `on:` as the string key "on",
/// duplicate keys are errors in every format).
///
/// Details per format: JSON rejects duplicate keys and tolerates a leading BOM; JSONC strips
/// `//` and `/* */` comments and trailing commas (string-aware, positions preserved) and then
/// parses as JSON; YAML uses YAML 1.2 core booleans (`on`, `yes` stay strings), accepts
/// multi-document streams (one document -> that document, several -> an array, none or an
/// empty file -> `null`); INI keeps values literally, supports indented continuation lines and
/// rejects duplicate keys in a section and duplicate sections, as Python's configparser does.
pub fn parse_data(format: DataFormat, source: &str) -> Result<serde_json::Value, SyntaxError> {
    data::parse_data(format, source)
}

/// Removes comments and trailing commas from JSON-with-comments text, keeping every newline
/// (so positions in the result match the source). Exposed for callers that want to hand
/// JSONC to a typed serde model.
pub fn strip_jsonc(source: &str) -> String {
    data::strip_jsonc(source)
}

/// The first `{{ }}` delimiter error of a Go `text/template` / `html/template` text (a
/// template file, a Helm chart template): an action opened by `{{` and not closed by `}}` before the
/// next `{{` or the end. `None` when the delimiters are well formed.
pub fn go_template_error(text: &str) -> Option<SyntaxError> {
    let (at, why) = go_template::delimiter_error(text)?;
    let (line, column) = ts::line_col(text, at);
    Some(SyntaxError::new(line, column, why))
}

/// Resolves each of `names` in one Python, Rust, Go, JavaScript or TypeScript file through the
/// language's scopes (one parse for all of them): whether the top scope binds it, whether a
/// local scope does, its top-level imports, and the lines of the references no local binding
/// captures (methods of the same name, member accesses, qualified paths and shadowing locals
/// excluded). One result per name, in order. `None` for the other languages, and when the file
/// could not be parsed in time.
pub fn names_uses(language: Language, source: &str, names: &[&str]) -> Option<Vec<NameUses>> {
    scope::names_uses(language, source, names)
}

/// The requirement strings a `setup.py` declares (`"urllib3>=1.21.1,<3"`), read from its
/// tree-sitter tree without running it: the literal values of `install_requires`,
/// `extras_require`, `tests_require` and `setup_requires`, following module-level names bound
/// to lists (`install_requires=requires`). `None` when the text could not be parsed in time.
pub fn setup_py_requirements(source: &str) -> Option<Vec<String>> {
    setup_py::requirements(source)
}

/// How many tree-sitter parses the calling thread has started so far: a probe for tests and
/// benchmarks that check a file version is parsed once however many checks read it.
pub fn parse_count() -> u64 {
    ts::parse_count()
}
