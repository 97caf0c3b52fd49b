//! Plain data types shared by every part of the language layer.

use serde::{Deserialize, Serialize};

/// A programming language whose source slopguard parses with tree-sitter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// `.py`, `.pyi`, Python shebangs.
    Python,
    /// `.rs`.
    Rust,
    /// `.js`, `.mjs`, `.cjs`, `.jsx`.
    JavaScript,
    /// `.ts`, `.mts`, `.cts`.
    TypeScript,
    /// `.tsx`.
    Tsx,
    /// `.go`.
    Go,
    /// `.java`.
    Java,
    /// `.c`, `.h` (analysed as C++ when the text is C++).
    C,
    /// `.cc`, `.cpp`, `.cxx`, `.hpp`, `.hh`, `.hxx`.
    Cpp,
    /// `.rb`, `Rakefile`, `Gemfile`, `*.gemspec`.
    Ruby,
    /// `.sh`, `.bash`, shell shebangs.
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
    /// Strict JSON (duplicate keys rejected).
    Json,
    /// JSON with comments and trailing commas (tsconfig.json, .vscode/*.json, *.jsonc, ...).
    Jsonc,
    /// TOML 1.0 (`.toml`, `Cargo.lock`, `poetry.lock`, `uv.lock`).
    Toml,
    /// YAML 1.2 (`.yml`, `.yaml`), multi-document streams accepted.
    Yaml,
    /// INI / configparser files (`.ini`, `.cfg`, `setup.cfg`, `.editorconfig`, ...).
    Ini,
}

/// What a file is, as far as the guards care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", content = "type", rename_all = "lowercase")]
pub enum FileKind {
    /// Source code in a language [`crate::analyze`] parses.
    Code(Language),
    /// A data file [`crate::parse_data`] parses.
    Data(DataFormat),
    /// `.md`, `.markdown`, `.mdx`.
    Markdown,
    /// Anything else: plain text, images, unknown extensions.
    Other,
}

/// A parse error with a 1-based line and column.
///
/// Columns count characters (Unicode scalar values) from 1, as editors show them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyntaxError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// Short human-readable message ("unexpected `)`", "missing `}`").
    pub message: String,
}

impl SyntaxError {
    /// Builds an error at a 1-based line and column.
    pub fn new(line: u32, column: u32, message: impl Into<String>) -> Self {
        Self {
            line,
            column,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for SyntaxError {}

/// The kind of a top-level definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DefKind {
    /// Functions and methods.
    Function,
    /// Classes (Python, JS/TS, Java incl. records, C++, Ruby).
    Class,
    /// Structs and unions (Rust, Go, C/C++).
    Struct,
    /// Enums.
    Enum,
    /// Rust traits.
    Trait,
    /// Interfaces (TS, Go, Java).
    Interface,
    /// Rust `impl` blocks, named by the implemented type.
    Impl,
    /// Modules and namespaces (Rust `mod`, TS `namespace`, C++ `namespace`, Ruby `module`).
    Module,
    /// Type aliases and typedefs.
    TypeAlias,
    /// Constants (also Python/Ruby ALL_CAPS module constants, JS `const` values).
    Const,
    /// Rust `static`s.
    Static,
    /// `macro_rules!` and C `#define`s.
    Macro,
    /// Module-level variables (Go `var`, JS `let`/`var`, C globals).
    Variable,
    /// JS/TS `export { a as b }` names, anonymous `export default`, and CommonJS
    /// `exports.name = value` / `module.exports.name = value` whose value is not a function.
    Export,
}

/// A top-level definition of a source file.
///
/// Besides the file's top-level items, members of top-level classes (and similar containers)
/// are listed too, with a qualified name, because dropping a method is as harmful as dropping
/// a function:
///
/// | language | member naming |
/// |---|---|
/// | Python, JavaScript, TypeScript, Java | `Class.method` (Java also nested types `Outer.Inner`) |
/// | Go | methods as `Type.Method` (receiver type, pointer stripped) |
/// | Rust | `Type::method` for functions in `impl` blocks and `Trait::method` for trait items; items of inline `mod m { .. }` as `m::item` |
/// | C++ | `Class::method` for methods defined in a class body, `ns::f` inside namespaces; out-of-class definitions keep their written qualified name (`Foo::bar`) |
/// | Ruby | instance methods `Class#method`, singleton methods `Class.method`, nested `Outer::Inner` |
///
/// [`Definition::simple_name`] gives the last segment, to compare with
/// [`SourceAnalysis::references`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Definition {
    /// The defined name; for impls, the implemented type (`impl Display for Foo` -> `Foo`, with
    /// `DefKind::Impl`). Members are qualified as described on the type.
    pub name: String,
    /// What was defined.
    pub kind: DefKind,
    /// 1-based inclusive line span.
    pub start_line: u32,
    /// 1-based last line (inclusive).
    pub end_line: u32,
    /// Hash of the definition's text with its own name replaced, so a pure rename keeps the
    /// same hash.
    pub body_hash: u64,
    /// What a function's body does, judged on its statements (see [`Body`]);
    /// [`Body::Unknown`] for other definitions.
    #[serde(default)]
    pub body: Body,
    /// The functions defined inside a function's body (Rust `#[cfg]` variants of a helper,
    /// Python closures): how many, and how many of them are placeholders.
    #[serde(default)]
    pub nested: NestedBodies,
}

/// The functions a function's body defines (see [`Definition::nested`]): one of them gutted
/// leaves the outer body [`Body::Logic`], so the placeholder guard compares these counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NestedBodies {
    /// Nested function definitions.
    pub functions: u16,
    /// Those whose body is a placeholder ([`Body::is_placeholder`]).
    pub placeholders: u16,
}

/// What the body of a function does, judged on its syntax tree with docstrings and comments
/// left out, so that a placeholder under a kept docstring still reads as a placeholder.
/// Computed for Python, Rust, JavaScript, TypeScript, Go and Java functions and methods.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Body {
    /// Not a function, a function without a body (a signature, a declaration), or a language
    /// whose bodies are not judged.
    #[default]
    Unknown,
    /// At least one statement that is not a placeholder.
    Logic,
    /// Only placeholders: `pass`, `...`, `raise NotImplementedError`, `todo!()`,
    /// `unimplemented!()`, `panic("not implemented")`, `throw new Error("Not implemented")`,
    /// or a bare `return None` / `return null` beside a TODO comment.
    Stub,
    /// No statement at all (comments and a docstring at most).
    Empty,
    /// A member declared abstract (`@abstractmethod`, `@overload`, a method of a `Protocol`
    /// class): whatever its body holds, having no logic is its design.
    Abstract,
}

impl Body {
    /// A stub or an empty body: no logic, and not declared abstract.
    pub fn is_placeholder(self) -> bool {
        matches!(self, Body::Stub | Body::Empty)
    }
}

impl Definition {
    /// The last segment of a qualified member name (`Class.method` -> `method`,
    /// `Type::method` -> `method`, `Class#method` -> `method`); the name itself otherwise.
    pub fn simple_name(&self) -> &str {
        let n = self.name.as_str();
        &n[last_member_separator(n).map_or(0, |(_, segment)| segment)..]
    }
}

/// Where the last member separator of a qualified name (`::`, `.` or `#`) is: the byte where
/// it starts and the byte where the last segment starts (`Type::method` -> `(4, 6)`); `None`
/// for an unqualified name.
pub(crate) fn last_member_separator(name: &str) -> Option<(usize, usize)> {
    [
        name.rfind("::").map(|i| (i, i + 2)),
        name.rfind('.').map(|i| (i, i + 1)),
        name.rfind('#').map(|i| (i, i + 1)),
    ]
    .into_iter()
    .flatten()
    .max_by_key(|(_, segment)| *segment)
}

/// An import / use / require / include statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Import {
    /// The module path as written (`os.path`, `serde_json::Value`, `./util`, `fmt`, `stdio.h`).
    pub module: String,
    /// 1-based line.
    pub line: u32,
}

/// The most syntax errors reported per file (the rest are dropped; the first ones matter).
pub const MAX_ERRORS: usize = 20;

/// Everything the guards need to know about one version of one source file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceAnalysis {
    /// Certain syntax errors: the file does not parse. At most [`MAX_ERRORS`] are reported.
    pub syntax_errors: Vec<SyntaxError>,
    /// Errors the parser reported that may be false positives: C/C++ errors explained by
    /// preprocessor conditionals or by ALL_CAPS macro identifiers near the error (tree-sitter
    /// parses C without expanding macros), and analyses cut short on huge inputs. A guard should
    /// warn on these, never block. Kept separate from `syntax_errors` so that code which only
    /// reads `syntax_errors` stays precise.
    pub uncertain_syntax_errors: Vec<SyntaxError>,
    /// Rust only: errors that hold only in crates of edition 2021 or later (a lone
    /// `panic!("{")` message was a plain string before). The caller knows the crate's edition;
    /// the analysis of a file's text does not.
    #[serde(default)]
    pub syntax_errors_from_edition_2021: Vec<SyntaxError>,
    /// Top-level definitions and class members, in source order.
    pub definitions: Vec<Definition>,
    /// Imports in source order (Rust use trees expanded to one path each).
    pub imports: Vec<Import>,
    /// Identifier names used anywhere in the file (declarations included), deduplicated.
    pub references: Vec<String>,
}

/// How one name is bound and used in one source file, resolved through the language's scopes
/// (see [`crate::names_uses`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct NameUses {
    /// The file's top scope binds the name other than by import: a top-level definition,
    /// assignment, `const`/`var`/`let`.
    pub top_level_binding: bool,
    /// A local scope binds it: a parameter, a local variable, a nested definition.
    pub local_binding: bool,
    /// Top-level imports of the name: (1-based line, module as written: `six`, `crate::util`,
    /// `./util`).
    pub imports: Vec<(u32, String)>,
    /// 1-based lines of unqualified references that no enclosing local scope binds: they
    /// resolve to the top scope, an import, or (in Go) the package. Member accesses
    /// (`x.name`), qualified paths (`Type::name`, `pkg.Name`), keyword arguments and member
    /// definitions are not references.
    pub free_uses: Vec<u32>,
    /// Python: 1-based lines where the name is a parameter of a test function or of a pytest
    /// fixture, which pytest fills with the fixture of that name.
    pub fixture_params: Vec<u32>,
}
