//! Definition extraction per language (see [`crate::Definition`] for the naming of members).

use tree_sitter::Node;

use crate::hash::body_hash;
use crate::stubs::{body_shape, nested_bodies};
use crate::ts::{end_line_of, kids, line_of, named_kids, text};
use crate::{Body, DefKind, Definition, Language, NestedBodies};

mod scripts;

/// Nesting limit for the container recursion (namespaces, modules, classes, `#ifdef`s).
const MAX_NEST: usize = 24;

/// The definitions of a parsed file.
pub(crate) fn definitions(lang: Language, root: Node<'_>, src: &str) -> Vec<Definition> {
    let mut d = Defs {
        src,
        lang,
        out: Vec::new(),
        in_protocol: false,
    };
    match lang {
        Language::Python => d.python_block(root, None, 0),
        Language::Rust => d.rust_items(root, "", 0),
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            for c in named_kids(root) {
                d.js_item(c, c, 0);
            }
        }
        Language::Go => d.go(root),
        Language::Java => d.java_items(root, "", 0),
        Language::C | Language::Cpp => d.c_items(root, "", 0),
        Language::Ruby => d.ruby_items(root, "", 0),
        Language::Bash => d.bash_items(root, 0),
    }
    d.out
}

struct Defs<'s> {
    src: &'s str,
    lang: Language,
    out: Vec<Definition>,
    /// Python: the members being read belong to a `Protocol` class (their bodies are
    /// declarations, [`Body::Abstract`]).
    in_protocol: bool,
}

/// `prefix` + `sep` + `name`, or `name` when there is no prefix.
fn qualify(prefix: &str, sep: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_owned()
    } else {
        format!("{prefix}{sep}{name}")
    }
}

/// The type name of a Rust/Go type node with generics, references and pointers stripped.
fn base_type_name(t: &str) -> &str {
    let t = t.trim().trim_start_matches(['&', '*']).trim();
    let t = t.strip_prefix("mut ").unwrap_or(t).trim();
    let t = t.strip_prefix("dyn ").unwrap_or(t).trim();
    match t.find(['<', '[', '(', ' ']) {
        Some(i) => &t[..i],
        None => t,
    }
}

impl<'s> Defs<'s> {
    fn text(&self, n: Node<'_>) -> &'s str {
        text(n, self.src)
    }

    /// Records a definition spanning `node`; `simple` is the unqualified name (replaced in the
    /// hash), `name` the reported one.
    fn push(&mut self, name: String, simple: &str, kind: DefKind, node: Node<'_>) {
        self.push_with_body(name, simple, kind, node, Body::Unknown);
    }

    /// Records a function spanning `span` whose body is that of the function node `func`.
    fn push_function(&mut self, name: String, simple: &str, span: Node<'_>, func: Node<'_>) {
        let body = body_shape(self.lang, func, self.src);
        let before = self.out.len();
        self.push_with_body(name, simple, DefKind::Function, span, body);
        if let Some(def) = self.out.get_mut(before) {
            def.nested = nested_bodies(self.lang, func, self.src);
        }
    }

    /// [`Defs::push`] with the judged shape of a function's body.
    fn push_with_body(
        &mut self,
        name: String,
        simple: &str,
        kind: DefKind,
        node: Node<'_>,
        body: Body,
    ) {
        if name.is_empty() || simple.is_empty() {
            return;
        }
        self.out.push(Definition {
            body_hash: body_hash(text(node, self.src), simple),
            name,
            kind,
            start_line: line_of(node),
            end_line: end_line_of(node),
            body,
            nested: NestedBodies::default(),
        });
    }

    fn field_text(&self, node: Node<'_>, field: &str) -> Option<&'s str> {
        node.child_by_field_name(field).map(|n| self.text(n))
    }

    // ---------------------------------------------------------------- Python

    fn python_block(&mut self, block: Node<'_>, class: Option<&str>, nest: usize) {
        if nest > MAX_NEST {
            return;
        }
        for c in named_kids(block) {
            self.python_item(c, class, nest);
        }
    }

    fn python_item(&mut self, node: Node<'_>, class: Option<&str>, nest: usize) {
        let def = if node.kind() == "decorated_definition" {
            match node.child_by_field_name("definition") {
                Some(d) => d,
                None => return,
            }
        } else {
            node
        };
        match def.kind() {
            "function_definition" => {
                if let Some(name) = self.field_text(def, "name") {
                    let full = qualify(class.unwrap_or(""), ".", name);
                    if self.in_protocol || self.python_declared_abstract(node) {
                        self.push_with_body(full, name, DefKind::Function, node, Body::Abstract);
                    } else {
                        self.push_function(full, name, node, def);
                    }
                }
            }
            "class_definition" => {
                if let Some(name) = self.field_text(def, "name") {
                    let full = qualify(class.unwrap_or(""), ".", name);
                    self.push(full.clone(), name, DefKind::Class, node);
                    if let Some(body) = def.child_by_field_name("body") {
                        let protocol = self.python_is_protocol(def);
                        let outer = std::mem::replace(&mut self.in_protocol, protocol);
                        self.python_block(body, Some(&full), nest + 1);
                        self.in_protocol = outer;
                    }
                }
            }
            // Conditional definitions at module level (`if TYPE_CHECKING:`, `try: ... except
            // ImportError:`) are still definitions of the module.
            "if_statement" | "try_statement" | "elif_clause" | "else_clause" | "except_clause"
            | "finally_clause" | "block" | "with_statement" => {
                for c in named_kids(def) {
                    if matches!(
                        c.kind(),
                        "block"
                            | "elif_clause"
                            | "else_clause"
                            | "except_clause"
                            | "finally_clause"
                    ) {
                        self.python_block_or_clause(c, class, nest + 1);
                    }
                }
            }
            "expression_statement" if class.is_none() => {
                // Module-level ALL_CAPS constants: `MAX_SIZE = 10`.
                if let Some(a) = def.named_child(0)
                    && a.kind() == "assignment"
                    && let Some(left) = a.child_by_field_name("left")
                    && left.kind() == "identifier"
                {
                    let name = self.text(left);
                    if is_all_caps(name) {
                        self.push(name.to_owned(), name, DefKind::Const, node);
                    }
                }
            }
            _ => {}
        }
    }

    /// A decorated function whose decorators declare it has no body of its own:
    /// `@abstractmethod` (and the older `abstractproperty`, `abstractclassmethod`,
    /// `abstractstaticmethod`) and `@overload`, in any spelling (`@abc.abstractmethod`).
    fn python_declared_abstract(&self, node: Node<'_>) -> bool {
        node.kind() == "decorated_definition"
            && named_kids(node)
                .into_iter()
                .filter(|d| d.kind() == "decorator")
                .any(|d| {
                    let t = self.text(d).trim_start_matches('@').trim();
                    let callee = t.split('(').next().unwrap_or(t);
                    let last = callee.rsplit('.').next().unwrap_or(callee).trim();
                    last.starts_with("abstract") || last == "overload"
                })
    }

    /// A class whose bases name `Protocol` (`Protocol`, `typing.Protocol`,
    /// `Protocol[T]`): its methods are interface declarations.
    fn python_is_protocol(&self, class: Node<'_>) -> bool {
        let Some(bases) = class.child_by_field_name("superclasses") else {
            return false;
        };
        named_kids(bases).into_iter().any(|b| {
            let t = self.text(b);
            let base = t.split('[').next().unwrap_or(t).trim();
            base.rsplit('.').next() == Some("Protocol")
        })
    }

    fn python_block_or_clause(&mut self, node: Node<'_>, class: Option<&str>, nest: usize) {
        if nest > MAX_NEST {
            return;
        }
        if node.kind() == "block" {
            self.python_block(node, class, nest);
        } else {
            self.python_item(node, class, nest);
        }
    }

    // ---------------------------------------------------------------- Rust

    fn rust_items(&mut self, container: Node<'_>, prefix: &str, nest: usize) {
        if nest > MAX_NEST {
            return;
        }
        for c in named_kids(container) {
            self.rust_item(c, prefix, nest);
        }
    }

    fn rust_item(&mut self, node: Node<'_>, prefix: &str, nest: usize) {
        let kind = match node.kind() {
            "function_item" | "function_signature_item" => DefKind::Function,
            "struct_item" | "union_item" => DefKind::Struct,
            "enum_item" => DefKind::Enum,
            "trait_item" => DefKind::Trait,
            "mod_item" => DefKind::Module,
            "const_item" => DefKind::Const,
            "static_item" => DefKind::Static,
            "type_item" | "associated_type" => DefKind::TypeAlias,
            "macro_definition" => DefKind::Macro,
            "impl_item" => {
                let Some(ty) = node.child_by_field_name("type") else {
                    return;
                };
                let name = base_type_name(self.text(ty));
                let name = name.rsplit("::").next().unwrap_or(name);
                let full = qualify(prefix, "::", name);
                self.push(full.clone(), name, DefKind::Impl, node);
                if let Some(body) = node.child_by_field_name("body") {
                    for c in named_kids(body) {
                        if matches!(
                            c.kind(),
                            "function_item" | "const_item" | "type_item" | "associated_type"
                        ) {
                            self.rust_item(c, &full, nest + 1);
                        }
                    }
                }
                return;
            }
            "foreign_mod_item" => {
                if let Some(body) = node.child_by_field_name("body") {
                    self.rust_items(body, prefix, nest + 1);
                }
                return;
            }
            _ => return,
        };
        let Some(name) = self.field_text(node, "name") else {
            return;
        };
        let full = qualify(prefix, "::", name);
        if kind == DefKind::Function {
            self.push_function(full.clone(), name, node, node);
        } else {
            self.push(full.clone(), name, kind, node);
        }
        if matches!(kind, DefKind::Module | DefKind::Trait)
            && let Some(body) = node.child_by_field_name("body")
        {
            self.rust_items(body, &full, nest + 1);
        }
    }

    // ---------------------------------------------------------------- JavaScript / TypeScript

    /// `span` is the node whose text and lines the definition covers (the export statement
    /// around a declaration, for instance).
    fn js_item(&mut self, node: Node<'_>, span: Node<'_>, nest: usize) {
        if nest > MAX_NEST {
            return;
        }
        match node.kind() {
            "function_declaration"
            | "generator_function_declaration"
            | "function_signature"
            | "function_expression"
            | "function" => {
                if let Some(name) = self.field_text(node, "name") {
                    self.push_function(name.to_owned(), name, span, node);
                }
            }
            "class_declaration" | "abstract_class_declaration" | "class" => {
                if let Some(name) = self.field_text(node, "name") {
                    self.push(name.to_owned(), name, DefKind::Class, span);
                    if let Some(body) = node.child_by_field_name("body") {
                        for m in named_kids(body) {
                            if matches!(
                                m.kind(),
                                "method_definition"
                                    | "abstract_method_signature"
                                    | "method_signature"
                            ) && let Some(mn) = self.field_text(m, "name")
                            {
                                let mn = mn.trim_start_matches('#');
                                self.push_function(format!("{name}.{mn}"), mn, m, m);
                            }
                        }
                    }
                }
            }
            "lexical_declaration" | "variable_declaration" => {
                let is_const = node.child(0).is_some_and(|c| self.text(c) == "const");
                for d in named_kids(node) {
                    if d.kind() != "variable_declarator" {
                        continue;
                    }
                    let Some(n) = d.child_by_field_name("name") else {
                        continue;
                    };
                    if n.kind() != "identifier" {
                        continue;
                    }
                    let name = self.text(n);
                    let value = d.child_by_field_name("value");
                    let kind = match value.map(|v| v.kind()) {
                        Some(
                            "arrow_function"
                            | "function_expression"
                            | "function"
                            | "generator_function",
                        ) => DefKind::Function,
                        Some("class") => DefKind::Class,
                        _ if is_const => DefKind::Const,
                        _ => DefKind::Variable,
                    };
                    match value {
                        Some(v) if kind == DefKind::Function => {
                            self.push_function(name.to_owned(), name, span, v);
                        }
                        _ => self.push(name.to_owned(), name, kind, span),
                    }
                }
            }
            "interface_declaration" => self.js_named(node, span, DefKind::Interface),
            "type_alias_declaration" => self.js_named(node, span, DefKind::TypeAlias),
            "enum_declaration" => self.js_named(node, span, DefKind::Enum),
            "module" | "internal_module" => self.js_named(node, span, DefKind::Module),
            "ambient_declaration" => {
                for c in named_kids(node) {
                    self.js_item(c, span, nest + 1);
                }
            }
            "expression_statement" => match node.named_child(0) {
                // `namespace X {}` parses as an expression statement in some grammar versions.
                Some(c) if c.kind() == "internal_module" => self.js_item(c, span, nest + 1),
                Some(c) if c.kind() == "assignment_expression" => {
                    self.js_commonjs_export(c, span);
                }
                _ => {}
            },
            "export_statement" => {
                if let Some(decl) = node.child_by_field_name("declaration") {
                    self.js_item(decl, span, nest + 1);
                } else if let Some(value) = node.child_by_field_name("value") {
                    let named = matches!(
                        value.kind(),
                        "function_expression" | "function" | "class" | "generator_function"
                    ) && value.child_by_field_name("name").is_some();
                    if named {
                        self.js_item(value, span, nest + 1);
                    } else {
                        self.push("default".to_owned(), "default", DefKind::Export, span);
                    }
                } else {
                    for c in named_kids(node) {
                        if c.kind() != "export_clause" {
                            continue;
                        }
                        for spec in named_kids(c) {
                            let n = spec
                                .child_by_field_name("alias")
                                .or_else(|| spec.child_by_field_name("name"));
                            if let Some(n) = n {
                                let name = self.text(n);
                                self.push(name.to_owned(), name, DefKind::Export, spec);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// A CommonJS export, `exports.name = ...` or `module.exports.name = ...` (at the top
    /// level): a function when the value is one, an [`DefKind::Export`] otherwise. Other files
    /// use it as `require('./m').name`, so dropping it breaks them as dropping an ESM export
    /// does.
    fn js_commonjs_export(&mut self, assign: Node<'_>, span: Node<'_>) {
        let (Some(left), Some(value)) = (
            assign.child_by_field_name("left"),
            assign.child_by_field_name("right"),
        ) else {
            return;
        };
        if left.kind() != "member_expression" {
            return;
        }
        let (Some(object), Some(property)) = (
            left.child_by_field_name("object"),
            left.child_by_field_name("property"),
        ) else {
            return;
        };
        if !matches!(self.text(object), "exports" | "module.exports")
            || property.kind() != "property_identifier"
        {
            return;
        }
        let name = self.text(property);
        if matches!(
            value.kind(),
            "function_expression" | "function" | "arrow_function" | "generator_function"
        ) {
            self.push_function(name.to_owned(), name, span, value);
        } else {
            self.push(name.to_owned(), name, DefKind::Export, span);
        }
    }

    fn js_named(&mut self, node: Node<'_>, span: Node<'_>, kind: DefKind) {
        if let Some(name) = self.field_text(node, "name") {
            self.push(name.to_owned(), name, kind, span);
        }
    }

    // ---------------------------------------------------------------- Go

    fn go(&mut self, root: Node<'_>) {
        for c in named_kids(root) {
            match c.kind() {
                "function_declaration" => {
                    if let Some(name) = self.field_text(c, "name") {
                        self.push_function(name.to_owned(), name, c, c);
                    }
                }
                "method_declaration" => {
                    let Some(name) = self.field_text(c, "name") else {
                        continue;
                    };
                    let recv = c
                        .child_by_field_name("receiver")
                        .and_then(|r| {
                            named_kids(r)
                                .into_iter()
                                .find(|p| p.kind() == "parameter_declaration")
                        })
                        .and_then(|p| p.child_by_field_name("type"))
                        .map(|t| base_type_name(self.text(t)))
                        .unwrap_or("");
                    self.push_function(qualify(recv, ".", name), name, c, c);
                }
                "type_declaration" => {
                    for spec in named_kids(c) {
                        if !matches!(spec.kind(), "type_spec" | "type_alias") {
                            continue;
                        }
                        let Some(name) = self.field_text(spec, "name") else {
                            continue;
                        };
                        let kind = match spec.child_by_field_name("type").map(|t| t.kind()) {
                            Some("struct_type") => DefKind::Struct,
                            Some("interface_type") => DefKind::Interface,
                            _ => DefKind::TypeAlias,
                        };
                        let span = if named_kids(c).len() == 1 { c } else { spec };
                        self.push(name.to_owned(), name, kind, span);
                    }
                }
                "const_declaration" | "var_declaration" => {
                    let kind = if c.kind() == "const_declaration" {
                        DefKind::Const
                    } else {
                        DefKind::Variable
                    };
                    self.go_specs(c, kind, 0);
                }
                _ => {}
            }
        }
    }

    fn go_specs(&mut self, node: Node<'_>, kind: DefKind, nest: usize) {
        if nest > 2 {
            return;
        }
        for spec in named_kids(node) {
            match spec.kind() {
                "const_spec" | "var_spec" => {
                    let mut cursor = spec.walk();
                    let names: Vec<&'s str> = spec
                        .children_by_field_name("name", &mut cursor)
                        .filter(|n| n.kind() == "identifier")
                        .map(|n| text(n, self.src))
                        .collect();
                    for name in names {
                        if name != "_" {
                            self.push(name.to_owned(), name, kind, spec);
                        }
                    }
                }
                "var_spec_list" | "const_spec_list" => self.go_specs(spec, kind, nest + 1),
                _ => {}
            }
        }
    }

    // ---------------------------------------------------------------- Java

    fn java_items(&mut self, container: Node<'_>, prefix: &str, nest: usize) {
        if nest > MAX_NEST {
            return;
        }
        for c in named_kids(container) {
            let kind = match c.kind() {
                "class_declaration" | "record_declaration" => DefKind::Class,
                "interface_declaration" | "annotation_type_declaration" => DefKind::Interface,
                "enum_declaration" => DefKind::Enum,
                "method_declaration"
                | "constructor_declaration"
                | "compact_constructor_declaration"
                | "annotation_type_element_declaration"
                    if !prefix.is_empty() =>
                {
                    DefKind::Function
                }
                "enum_body_declarations" => {
                    self.java_items(c, prefix, nest + 1);
                    continue;
                }
                _ => continue,
            };
            let name = match self.field_text(c, "name") {
                Some(n) => n,
                None if c.kind() == "compact_constructor_declaration" => {
                    prefix.rsplit('.').next().unwrap_or(prefix)
                }
                None => continue,
            };
            let full = qualify(prefix, ".", name);
            if kind == DefKind::Function {
                self.push_function(full.clone(), name, c, c);
            } else {
                self.push(full.clone(), name, kind, c);
            }
            if kind != DefKind::Function
                && let Some(body) = c.child_by_field_name("body")
            {
                self.java_items(body, &full, nest + 1);
            }
        }
    }

    // ---------------------------------------------------------------- C / C++

    fn c_items(&mut self, container: Node<'_>, prefix: &str, nest: usize) {
        if nest > MAX_NEST {
            return;
        }
        for c in named_kids(container) {
            self.c_item(c, prefix, nest);
        }
    }

    fn c_item(&mut self, node: Node<'_>, prefix: &str, nest: usize) {
        match node.kind() {
            "function_definition" => {
                if let Some(name) = self.c_declarator_name(node.child_by_field_name("declarator")) {
                    let simple = simple_cpp(name);
                    self.push(qualify(prefix, "::", name), simple, DefKind::Function, node);
                }
            }
            "declaration" => {
                if let Some(t) = node.child_by_field_name("type") {
                    self.c_type(t, node, prefix, nest);
                }
                let is_extern = kids(node)
                    .iter()
                    .any(|k| k.kind() == "storage_class_specifier" && self.text(*k) == "extern");
                if is_extern {
                    return;
                }
                let mut cursor = node.walk();
                let decls: Vec<Node<'_>> = node
                    .children_by_field_name("declarator", &mut cursor)
                    .collect();
                for d in decls {
                    if contains_function_declarator(d) {
                        continue; // a prototype, not a definition
                    }
                    if let Some(name) = self.c_declarator_name(Some(d)) {
                        self.push(qualify(prefix, "::", name), name, DefKind::Variable, node);
                    }
                }
            }
            "struct_specifier" | "union_specifier" | "enum_specifier" | "class_specifier" => {
                self.c_type(node, node, prefix, nest);
            }
            "type_definition" => {
                if let Some(t) = node.child_by_field_name("type") {
                    self.c_type(t, node, prefix, nest);
                }
                let mut cursor = node.walk();
                let decls: Vec<Node<'_>> = node
                    .children_by_field_name("declarator", &mut cursor)
                    .collect();
                for d in decls {
                    if let Some(name) = self.c_declarator_name(Some(d)) {
                        self.push(qualify(prefix, "::", name), name, DefKind::TypeAlias, node);
                    }
                }
            }
            "alias_declaration" => {
                if let Some(name) = self.field_text(node, "name") {
                    self.push(qualify(prefix, "::", name), name, DefKind::TypeAlias, node);
                }
            }
            "namespace_definition" => {
                let name = self.field_text(node, "name").unwrap_or("");
                let full = if name.is_empty() {
                    prefix.to_owned()
                } else {
                    let full = qualify(prefix, "::", name);
                    let simple = simple_cpp(name);
                    self.push(full.clone(), simple, DefKind::Module, node);
                    full
                };
                if let Some(body) = node.child_by_field_name("body") {
                    self.c_items(body, &full, nest + 1);
                }
            }
            "linkage_specification" => {
                if let Some(body) = node.child_by_field_name("body") {
                    if body.kind() == "declaration_list" {
                        self.c_items(body, prefix, nest + 1);
                    } else {
                        self.c_item(body, prefix, nest + 1);
                    }
                }
            }
            "template_declaration" => {
                for c in named_kids(node) {
                    if c.kind() != "template_parameter_list" {
                        self.c_item(c, prefix, nest + 1);
                    }
                }
            }
            "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif"
            | "preproc_elifdef"
                if nest <= MAX_NEST =>
            {
                for c in named_kids(node) {
                    self.c_item(c, prefix, nest + 1);
                }
            }
            "preproc_def" | "preproc_function_def" => {
                if let Some(name) = self.field_text(node, "name") {
                    self.push(qualify(prefix, "::", name), name, DefKind::Macro, node);
                }
            }
            _ => {}
        }
    }

    /// A struct/union/enum/class specifier with a body, found as the type of `span`.
    fn c_type(&mut self, t: Node<'_>, span: Node<'_>, prefix: &str, nest: usize) {
        let kind = match t.kind() {
            "struct_specifier" | "union_specifier" => DefKind::Struct,
            "enum_specifier" => DefKind::Enum,
            "class_specifier" => DefKind::Class,
            _ => return,
        };
        let Some(body) = t.child_by_field_name("body") else {
            return;
        };
        let Some(name) = self.field_text(t, "name") else {
            return;
        };
        let full = qualify(prefix, "::", name);
        self.push(full.clone(), simple_cpp(name), kind, span);
        if nest > MAX_NEST {
            return;
        }
        // Methods defined in the class body.
        for m in named_kids(body) {
            match m.kind() {
                "function_definition" | "template_declaration" => self.c_item(m, &full, nest + 1),
                "field_declaration" | "declaration" => {
                    if let Some(ty) = m.child_by_field_name("type") {
                        self.c_type(ty, m, &full, nest + 1);
                    }
                }
                _ => {}
            }
        }
    }

    /// The declared name inside a (possibly nested) declarator.
    fn c_declarator_name(&self, mut d: Option<Node<'_>>) -> Option<&'s str> {
        for _ in 0..16 {
            let n = d?;
            match n.kind() {
                "identifier"
                | "field_identifier"
                | "type_identifier"
                | "qualified_identifier"
                | "destructor_name"
                | "operator_name"
                | "template_function"
                | "primitive_type" => return Some(self.text(n)),
                "parenthesized_declarator" | "attributed_declarator" | "reference_declarator" => {
                    d = n.named_child(0);
                }
                _ => d = n.child_by_field_name("declarator"),
            }
        }
        None
    }
}

fn is_all_caps(name: &str) -> bool {
    name.len() > 1
        && name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// The last segment of a C++ qualified name (`ns::Foo::bar` -> `bar`, `Foo::~Foo` -> `~Foo`).
fn simple_cpp(name: &str) -> &str {
    let s = name.rsplit("::").next().unwrap_or(name);
    s.trim_start_matches('~')
}

fn contains_function_declarator(d: Node<'_>) -> bool {
    let mut n = Some(d);
    for _ in 0..16 {
        let Some(x) = n else { return false };
        match x.kind() {
            "function_declarator" => return true,
            "init_declarator" => return false,
            "parenthesized_declarator" | "attributed_declarator" | "reference_declarator" => {
                n = x.named_child(0);
            }
            _ => n = x.child_by_field_name("declarator"),
        }
    }
    false
}
