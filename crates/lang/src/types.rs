//! Plain data types shared by every part of the language layer.

use serde::Serialize;

/// A programming language whose source slopguard parses with tree-sitter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    Python,
    Rust,
    JavaScript,
    TypeScript,
    Tsx,
    Go,
    Java,
    C,
    Cpp,
    Ruby,
    Bash,
}

impl Language {
    /// Every supported language, in a stable order.
    pub const ALL: [Language; 11] = [
        Language::Python,
        Language::Rust,
        Language::JavaScript,
        Language::TypeScript,
        Language::Tsx,
        Language::Go,
        Language::Java,
        Language::C,
        Language::Cpp,
        Language::Ruby,
        Language::Bash,
    ];

    /// Human-readable name ("Python", "C++", ...).
    pub fn name(self) -> &'static str {
        match self {
            Language::Python => "Python",
            Language::Rust => "Rust",
            Language::JavaScript => "JavaScript",
            Language::TypeScript => "TypeScript",
            Language::Tsx => "TSX",
            Language::Go => "Go",
            Language::Java => "Java",
            Language::C => "C",
            Language::Cpp => "C++",
            Language::Ruby => "Ruby",
            Language::Bash => "Bash",
        }
    }
}

/// A structured data format checked with its real parser.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DataFormat {
    Json,
    /// JSON with comments and trailing commas (tsconfig.json, .vscode/*.json, *.jsonc, ...).
    Jsonc,
    Toml,
    Yaml,
    Ini,
}

/// What a file is, as far as the guards care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", content = "type", rename_all = "lowercase")]
pub enum FileKind {
    Code(Language),
    Data(DataFormat),
    Markdown,
    /// Anything else: plain text, images, unknown extensions.
    Other,
}

/// A parse error with a 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SyntaxError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// The kind of a top-level definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DefKind {
    Function,
    Class,
    Struct,
    Enum,
    Trait,
    Interface,
    Impl,
    Module,
    TypeAlias,
    Const,
    Static,
    Macro,
    Variable,
    Export,
}

/// A top-level definition of a source file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Definition {
    /// The defined name; for impls, the implemented type (`impl Display for Foo` -> `Foo`, with
    /// `DefKind::Impl`).
    pub name: String,
    pub kind: DefKind,
    /// 1-based inclusive line span.
    pub start_line: u32,
    pub end_line: u32,
    /// Hash of the definition's text with its own name replaced, so a pure rename keeps the
    /// same hash.
    pub body_hash: u64,
}

/// An import / use / require / include statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Import {
    /// The module path as written (`os.path`, `serde_json::Value`, `./util`, `fmt`, `stdio.h`).
    pub module: String,
    /// 1-based line.
    pub line: u32,
}

/// Everything the guards need to know about one version of one source file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SourceAnalysis {
    pub syntax_errors: Vec<SyntaxError>,
    pub definitions: Vec<Definition>,
    pub imports: Vec<Import>,
    /// Identifier names used anywhere in the file (declarations included), deduplicated.
    pub references: Vec<String>,
}
