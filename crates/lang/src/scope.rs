//! Scope-aware resolution of one name in one file (Python, Rust, Go, JavaScript, TypeScript):
//! which occurrences bind it, in which scope, and which unqualified references no enclosing
//! local scope binds — those resolve to the file's top scope, or to what it imports.
//!
//! A bare-word search cannot tell a dropped free function from a method of the same name
//! (`fn on_service` vs `MethodRouter::on_service`, Go `func reset` vs `func (c *C) reset()`) or
//! from a local variable (`runner = CliRunner()` inside tests). Here member definitions
//! (methods, class attributes) bind nothing in any scope, member accesses and qualified paths
//! (`x.reset()`, `Type::f`, `pkg.F`) are not references to a free name, and a reference is
//! local when a function, block, closure, comprehension or loop around it binds the name
//! (parameter, `let`, `:=`, assignment, pattern, nested definition). Scopes are lexical and
//! flow-insensitive: a binding anywhere in an enclosing scope covers every reference in it.

use tree_sitter::{Node, Tree};

use crate::ts::{self, line_of, text};
use crate::{Language, NameUses};

/// Where an occurrence of the name binds it.
enum Site {
    /// A binding in the scope whose node id is given (`None`: the file's top scope).
    Bind(Option<usize>),
    /// An import binding at the top scope, with the module it comes from.
    Import(String),
    /// A member definition (method, class attribute): binds no scope.
    Member,
    /// A name that refers to something else (a keyword argument, a qualified path segment).
    Other,
    /// An unqualified reference.
    Ref,
}

/// See [`crate::names_uses`]: one parse and one walk for every name.
pub(crate) fn names_uses(lang: Language, src: &str, names: &[&str]) -> Option<Vec<NameUses>> {
    let tree = std::cell::OnceCell::new();
    names_uses_with(lang, src, names, || {
        tree.get_or_init(|| ts::parse(lang, src)).as_ref()
    })
}

/// [`names_uses`] with the tree of `src` supplied by `tree` (called at most once, and not at
/// all when no name occurs in the text or the language has no scope rules here).
pub(crate) fn names_uses_with<'t>(
    lang: Language,
    src: &str,
    names: &[&str],
    tree: impl FnOnce() -> Option<&'t Tree>,
) -> Option<Vec<NameUses>> {
    if !matches!(
        lang,
        Language::Python
            | Language::Rust
            | Language::Go
            | Language::JavaScript
            | Language::TypeScript
            | Language::Tsx
    ) {
        return None;
    }
    let mut all: Vec<NameUses> = names.iter().map(|_| NameUses::default()).collect();
    if names.iter().all(|n| n.is_empty() || !src.contains(n)) {
        return Some(all);
    }
    let tree = tree()?;
    let mut locals: Vec<Vec<usize>> = names.iter().map(|_| Vec::new()).collect();
    let mut refs: Vec<(usize, Node<'_>)> = Vec::new();
    ts::preorder(tree.root_node(), |node| {
        if is_name_kind(lang, node.kind())
            && let Some(k) = names.iter().position(|n| *n == text(node, src))
        {
            let out = &mut all[k];
            match site(lang, node, src) {
                Site::Bind(None) => out.top_level_binding = true,
                Site::Bind(Some(scope)) => {
                    out.local_binding = true;
                    locals[k].push(scope);
                }
                Site::Import(module) => out.imports.push((line_of(node), module)),
                Site::Ref => refs.push((k, node)),
                Site::Member | Site::Other => {}
            }
            if lang == Language::Python && is_fixture_parameter(node, src) {
                out.fixture_params.push(line_of(node));
            }
        }
    });
    for (k, r) in refs {
        let mut a = r.parent();
        let mut local = false;
        while let Some(n) = a {
            if locals[k].contains(&n.id()) {
                local = true;
                break;
            }
            a = n.parent();
        }
        if !local {
            all[k].free_uses.push(line_of(r));
        }
    }
    for u in &mut all {
        u.free_uses.dedup();
        u.fixture_params.dedup();
    }
    Some(all)
}

/// Leaf kinds that can carry the name as a binding or a reference.
fn is_name_kind(lang: Language, kind: &str) -> bool {
    match lang {
        Language::Python => kind == "identifier",
        Language::Rust | Language::Go => matches!(kind, "identifier" | "type_identifier"),
        _ => matches!(
            kind,
            "identifier"
                | "type_identifier"
                | "shorthand_property_identifier"
                | "shorthand_property_identifier_pattern"
                | "property_identifier"
        ),
    }
}

/// Whether `child` is the `field` child of `parent`.
fn is_field(parent: Node<'_>, field: &str, child: Node<'_>) -> bool {
    parent
        .child_by_field_name(field)
        .is_some_and(|c| c.id() == child.id())
}

/// Kinds that wrap a binding pattern without deciding it (`a, b = ...`, `let (a, b)`,
/// `{a, b} = obj`, `x = 1` defaults in JS patterns).
fn is_pattern_wrapper(lang: Language, kind: &str) -> bool {
    match lang {
        Language::Python => matches!(
            kind,
            "pattern_list"
                | "tuple_pattern"
                | "list_pattern"
                | "list_splat_pattern"
                | "dictionary_splat_pattern"
                | "as_pattern_target"
        ),
        Language::Rust => matches!(
            kind,
            "tuple_pattern"
                | "tuple_struct_pattern"
                | "struct_pattern"
                | "field_pattern"
                | "ref_pattern"
                | "mut_pattern"
                | "reference_pattern"
                | "slice_pattern"
                | "or_pattern"
                | "captured_pattern"
        ),
        Language::Go => kind == "expression_list",
        _ => matches!(
            kind,
            "object_pattern" | "array_pattern" | "rest_pattern" | "pair_pattern"
        ),
    }
}

/// Kinds that open a local scope.
fn is_scope(lang: Language, kind: &str) -> bool {
    match lang {
        Language::Python => matches!(
            kind,
            "function_definition"
                | "lambda"
                | "list_comprehension"
                | "set_comprehension"
                | "dictionary_comprehension"
                | "generator_expression"
        ),
        Language::Rust => matches!(
            kind,
            "function_item"
                | "closure_expression"
                | "block"
                | "match_arm"
                | "for_expression"
                | "if_expression"
                | "while_expression"
                | "mod_item"
        ),
        Language::Go => matches!(
            kind,
            "function_declaration"
                | "method_declaration"
                | "func_literal"
                | "block"
                | "for_statement"
                | "if_statement"
                | "expression_switch_statement"
                | "type_switch_statement"
                | "expression_case"
                | "type_case"
                | "communication_case"
        ),
        _ => matches!(
            kind,
            "function_declaration"
                | "generator_function_declaration"
                | "function_expression"
                | "function"
                | "generator_function"
                | "arrow_function"
                | "method_definition"
                | "statement_block"
                | "for_statement"
                | "for_in_statement"
                | "catch_clause"
                | "class_body"
        ),
    }
}

/// Kinds whose body holds members, not scope bindings.
fn is_member_container(lang: Language, kind: &str) -> bool {
    match lang {
        Language::Python => kind == "class_definition",
        Language::Rust => matches!(kind, "impl_item" | "trait_item"),
        _ => matches!(kind, "class_body" | "interface_body" | "object_type"),
    }
}

/// The scope a binding at `from` lands in: the nearest scope at or above `from` (`None`: top);
/// a member container in between makes it a member.
fn scope_of(lang: Language, from: Option<Node<'_>>) -> Site {
    let mut a = from;
    while let Some(n) = a {
        if is_member_container(lang, n.kind()) {
            return Site::Member;
        }
        if is_scope(lang, n.kind()) {
            return Site::Bind(Some(n.id()));
        }
        a = n.parent();
    }
    Site::Bind(None)
}

/// What the occurrence `node` of the name is.
fn site(lang: Language, node: Node<'_>, src: &str) -> Site {
    let mut child = node;
    let Some(mut p) = node.parent() else {
        return Site::Ref;
    };
    while is_pattern_wrapper(lang, p.kind()) {
        // `{ key: value }` patterns bind the value, not the key; the key of a destructured
        // `require` names what the module exports (`const { key: alias } = require('m')`).
        if p.kind() == "pair_pattern" && is_field(p, "key", child) {
            return required_module(p, src).map_or(Site::Other, Site::Import);
        }
        child = p;
        match p.parent() {
            Some(pp) => p = pp,
            None => return Site::Ref,
        }
    }
    let k = p.kind();
    match lang {
        Language::Python => python_site(p, k, child, src),
        Language::Rust => rust_site(p, k, child, node, src),
        Language::Go => go_site(p, k, child),
        _ => js_site(p, k, child, node, src),
    }
}

fn python_site(p: Node<'_>, k: &str, child: Node<'_>, src: &str) -> Site {
    let lang = Language::Python;
    match k {
        "attribute" if is_field(p, "attribute", child) => Site::Other,
        "keyword_argument" if is_field(p, "name", child) => Site::Other,
        "function_definition" | "class_definition" if is_field(p, "name", child) => {
            scope_of(lang, p.parent())
        }
        "assignment" | "augmented_assignment" if is_field(p, "left", child) => {
            scope_of(lang, Some(p))
        }
        "for_statement" | "named_expression" | "for_in_clause"
            if is_field(p, "left", child) || is_field(p, "name", child) =>
        {
            scope_of(lang, Some(p))
        }
        "parameters" | "lambda_parameters" => scope_of(lang, p.parent()),
        "default_parameter" | "typed_default_parameter" if is_field(p, "name", child) => {
            scope_of(lang, p.parent().and_then(|x| x.parent()))
        }
        "typed_parameter" if !is_field(p, "type", child) => {
            scope_of(lang, p.parent().and_then(|x| x.parent()))
        }
        "as_pattern" if is_field(p, "alias", child) => scope_of(lang, Some(p)),
        "aliased_import" if is_field(p, "alias", child) => import_site(lang, p, src),
        "aliased_import" => Site::Other,
        "dotted_name" => {
            let Some(stmt) = p.parent() else {
                return Site::Ref;
            };
            match stmt.kind() {
                "import_from_statement" if !is_field(stmt, "module_name", p) => {
                    import_site(lang, p, src)
                }
                "import_from_statement" | "aliased_import" | "relative_import" => Site::Other,
                "import_statement" => import_site(lang, p, src),
                _ => Site::Ref,
            }
        }
        "global_statement" | "nonlocal_statement" => Site::Other,
        _ => Site::Ref,
    }
}

/// An import at `node`: at the top scope it is an import binding (with its module); inside a
/// function it binds locally.
fn import_site(lang: Language, node: Node<'_>, src: &str) -> Site {
    match scope_of(lang, Some(node)) {
        Site::Bind(None) => {
            let mut stmt = node;
            let mut a = Some(node);
            while let Some(n) = a {
                if matches!(
                    n.kind(),
                    "import_statement" | "import_from_statement" | "use_declaration"
                ) {
                    stmt = n;
                    break;
                }
                a = n.parent();
            }
            let module = match lang {
                Language::Python => stmt
                    .child_by_field_name("module_name")
                    .map(|m| text(m, src).to_string())
                    .unwrap_or_default(),
                Language::Rust => {
                    let t = text(stmt, src);
                    let t = t.trim_start_matches("pub").trim_start();
                    let t = t.strip_prefix("use").unwrap_or(t).trim();
                    t.split("::{")
                        .next()
                        .unwrap_or(t)
                        .trim_end_matches(';')
                        .to_string()
                }
                _ => stmt
                    .child_by_field_name("source")
                    .map(|m| text(m, src).trim_matches(['"', '\'', '`']).to_string())
                    .unwrap_or_default(),
            };
            Site::Import(module)
        }
        other => other,
    }
}

fn rust_site(p: Node<'_>, k: &str, child: Node<'_>, node: Node<'_>, src: &str) -> Site {
    let lang = Language::Rust;
    let in_use = {
        let mut a = Some(p);
        let mut found = false;
        while let Some(n) = a {
            if n.kind() == "use_declaration" {
                found = true;
                break;
            }
            if is_scope(lang, n.kind()) || n.kind() == "source_file" {
                break;
            }
            a = n.parent();
        }
        found
    };
    if in_use {
        // `use a::b::name;`, `use a::{name, other};`, `use a::x as name;`
        let last = match k {
            "use_as_clause" => is_field(p, "alias", child),
            "scoped_identifier" => {
                is_field(p, "name", child)
                    && p.parent()
                        .is_some_and(|pp| pp.kind() != "scoped_identifier")
                    && !p.parent().is_some_and(|pp| {
                        pp.kind() == "use_as_clause" || pp.kind() == "scoped_use_list"
                    })
            }
            "use_list" | "use_declaration" => true,
            _ => false,
        };
        return if last {
            import_site(lang, child, src)
        } else {
            Site::Other
        };
    }
    match k {
        // `Type::name`: the name is qualified; the path (`Type`, `module`) is a reference.
        "scoped_identifier" | "scoped_type_identifier" if is_field(p, "name", child) => Site::Other,
        "field_expression" if is_field(p, "field", child) => Site::Other,
        "let_declaration" | "for_expression" | "let_condition" if is_field(p, "pattern", child) => {
            scope_of(lang, Some(p))
        }
        "match_pattern" => scope_of(lang, Some(p)),
        "parameter" if is_field(p, "pattern", child) => {
            scope_of(lang, p.parent().and_then(|x| x.parent()))
        }
        "closure_parameters" => scope_of(lang, p.parent()),
        "function_item"
        | "function_signature_item"
        | "const_item"
        | "static_item"
        | "struct_item"
        | "enum_item"
        | "union_item"
        | "trait_item"
        | "type_item"
        | "mod_item"
        | "macro_definition"
            if is_field(p, "name", child) =>
        {
            scope_of(lang, p.parent())
        }
        // `enum ErrorKind { InvalidUtf8InPathParam { key } }`: a variant binds no scope.
        "enum_variant" if is_field(p, "name", child) => Site::Member,
        "token_tree" => {
            // Inside a macro call: `.name` and `Path::name` are member / qualified uses.
            match node.prev_sibling().map(|s| s.kind()) {
                Some("." | "::") => Site::Other,
                _ => Site::Ref,
            }
        }
        _ => Site::Ref,
    }
}

fn go_site(p: Node<'_>, k: &str, child: Node<'_>) -> Site {
    let lang = Language::Go;
    // `T{name: v}`: the key of a composite literal names a field (a map keyed by a variable
    // is rare enough to lose).
    let is_key = |kv: Node<'_>, key: Node<'_>| {
        kv.kind() == "keyed_element" && kv.named_child(0).is_some_and(|c| c.id() == key.id())
    };
    if is_key(p, child) || (k == "literal_element" && p.parent().is_some_and(|kv| is_key(kv, p))) {
        return Site::Other;
    }
    match k {
        "qualified_type" => Site::Other,
        "short_var_declaration" | "range_clause" if is_field(p, "left", child) => {
            scope_of(lang, Some(p))
        }
        "var_spec"
        | "const_spec"
        | "parameter_declaration"
        | "variadic_parameter_declaration"
        | "type_spec"
        | "type_alias"
            if is_field(p, "name", child) =>
        {
            scope_of(lang, p.parent())
        }
        "function_declaration" if is_field(p, "name", child) => Site::Bind(None),
        "labeled_statement" | "break_statement" | "continue_statement" | "goto_statement" => {
            Site::Other
        }
        _ => Site::Ref,
    }
}

fn js_site(p: Node<'_>, k: &str, child: Node<'_>, node: Node<'_>, src: &str) -> Site {
    let lang = Language::JavaScript;
    match node.kind() {
        // Object keys, methods, fields and `obj.prop`: never a free name (the key of a
        // destructured `require` is judged in `site`).
        "property_identifier" => return Site::Other,
        "shorthand_property_identifier_pattern" => {
            return required_module(p, src).map_or_else(|| scope_of(lang, Some(p)), Site::Import);
        }
        _ => {}
    }
    match k {
        // `const a = require('./m').a` imports `a`; `const m = require('./m')` binds the
        // module object, a definition of the file as before.
        "variable_declarator" if is_field(p, "name", child) => {
            let member = p
                .child_by_field_name("value")
                .is_some_and(|v| v.kind() == "member_expression");
            match required_module(p, src) {
                Some(module) if member => Site::Import(module),
                _ => scope_of(lang, Some(p)),
            }
        }
        "assignment_pattern" if is_field(p, "left", child) => scope_of(lang, Some(p)),
        "formal_parameters" => scope_of(lang, p.parent()),
        "required_parameter" | "optional_parameter" if is_field(p, "pattern", child) => {
            scope_of(lang, p.parent().and_then(|x| x.parent()))
        }
        "arrow_function" if is_field(p, "parameter", child) => scope_of(lang, Some(p)),
        "function_declaration"
        | "generator_function_declaration"
        | "class_declaration"
        | "abstract_class_declaration"
        | "interface_declaration"
        | "type_alias_declaration"
        | "enum_declaration"
            if is_field(p, "name", child) =>
        {
            scope_of(lang, p.parent())
        }
        "function_expression" | "function" | "class" if is_field(p, "name", child) => {
            Site::Bind(Some(p.id()))
        }
        "catch_clause" if is_field(p, "parameter", child) => Site::Bind(Some(p.id())),
        "for_in_statement" if is_field(p, "left", child) => Site::Bind(Some(p.id())),
        "import_specifier" if is_field(p, "alias", child) => import_site(lang, p, src),
        // `import { name as alias }`: `name` is bound nowhere here, but it is what the module
        // must export: an import of it all the same.
        "import_specifier" => import_site(lang, p, src),
        "import_clause" | "namespace_import" => import_site(lang, p, src),
        "export_specifier" if is_field(p, "alias", child) => Site::Other,
        // `obj.name`, `ns.Type`: the trailing name is a member; the object is a reference.
        "member_expression" if is_field(p, "property", child) => Site::Other,
        "nested_type_identifier" if is_field(p, "name", child) => Site::Other,
        "nested_identifier" if is_field(p, "property", child) => Site::Other,
        "labeled_statement" | "break_statement" | "continue_statement" => Site::Other,
        _ => Site::Ref,
    }
}

/// The module of a CommonJS `require` that the pattern at `from` destructures or the
/// declarator at `from` binds: `const { a, b: c } = require('./m')`, `const m =
/// require('./m')`, `const a = require('./m').a` all name `./m`. A `require` inside a function
/// imports all the same (a lazy import), so its bindings are imports wherever they are.
fn required_module(from: Node<'_>, src: &str) -> Option<String> {
    let mut declarator = from;
    while declarator.kind() != "variable_declarator" {
        if !matches!(declarator.kind(), "object_pattern" | "pair_pattern") {
            return None;
        }
        declarator = declarator.parent()?;
    }
    let mut value = declarator.child_by_field_name("value")?;
    if value.kind() == "member_expression" {
        value = value.child_by_field_name("object")?;
    }
    if value.kind() != "call_expression"
        || value
            .child_by_field_name("function")
            .is_none_or(|f| text(f, src) != "require")
    {
        return None;
    }
    let source = value.child_by_field_name("arguments")?.named_child(0)?;
    (source.kind() == "string")
        .then(|| text(source, src).trim_matches(['"', '\'', '`']).to_string())
}

/// Python: whether `node` is a parameter of a test function (`def test_x(runner)`) or of a
/// pytest fixture — pytest passes fixtures by parameter name.
fn is_fixture_parameter(node: Node<'_>, src: &str) -> bool {
    let Some(mut p) = node.parent() else {
        return false;
    };
    match p.kind() {
        // `runner=None`, `runner: CliRunner`: the name, not the default or the type.
        "default_parameter" | "typed_default_parameter" if !is_field(p, "name", node) => {
            return false;
        }
        "typed_parameter" if is_field(p, "type", node) => return false,
        "default_parameter" | "typed_default_parameter" | "typed_parameter" => match p.parent() {
            Some(pp) => p = pp,
            None => return false,
        },
        _ => {}
    }
    let Some(f) = p
        .parent()
        .filter(|f| p.kind() == "parameters" && f.kind() == "function_definition")
    else {
        return false;
    };
    let is_test = f
        .child_by_field_name("name")
        .is_some_and(|n| text(n, src).starts_with("test"));
    let is_fixture = f
        .parent()
        .filter(|d| d.kind() == "decorated_definition")
        .is_some_and(|d| {
            let mut c = d.walk();
            d.named_children(&mut c)
                .any(|x| x.kind() == "decorator" && text(x, src).contains("fixture"))
        });
    is_test || is_fixture
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses(lang: Language, src: &str, name: &str) -> NameUses {
        let mut v = names_uses(lang, src, &[name]).expect("supported language");
        v.pop().expect("one result per name")
    }

    #[test]
    fn several_names_in_one_walk() {
        let src = "def a():\n    b = 1\n    return b\n\nprint(a(), b)\n";
        let v = names_uses(Language::Python, src, &["a", "b", "zz"]).expect("python");
        assert!(v[0].top_level_binding && v[0].free_uses == vec![5]);
        assert!(v[1].local_binding && v[1].free_uses == vec![5]);
        assert_eq!(v[2], NameUses::default());
    }

    #[test]
    fn rust_method_of_the_same_name_is_no_binding() {
        let src = "struct R;\nimpl R {\n    pub fn on_service(self) -> Self { self }\n}\nfn route() { on_service(1); R.on_service(); R::on_service(R); }\n";
        let u = uses(Language::Rust, src, "on_service");
        assert!(!u.top_level_binding && !u.local_binding, "{u:?}");
        assert_eq!(u.free_uses, vec![5]);
        let with_fn = format!("{src}fn on_service(x: u8) {{}}\n");
        assert!(uses(Language::Rust, &with_fn, "on_service").top_level_binding);
    }

    #[test]
    fn rust_locals_shadow() {
        let src = "pub fn f(x: u64) -> bool {\n    const LO: u64 = 1;\n    x > LO\n}\nfn g(LO: u8) -> u8 { LO }\nfn h() -> u64 { LO }\n";
        let u = uses(Language::Rust, src, "LO");
        assert!(u.local_binding && !u.top_level_binding);
        assert_eq!(u.free_uses, vec![6]);
        let u = uses(
            Language::Rust,
            "fn f() -> Foo { Foo::new() }\nfn g() { x.Foo; y::Foo(); }\n",
            "Foo",
        );
        assert_eq!(u.free_uses, vec![1]);
        let u = uses(
            Language::Rust,
            "use crate::util::{helper, other};\nfn f() { helper() }\n",
            "helper",
        );
        assert_eq!(u.imports, vec![(1, "crate::util".to_string())]);
        assert_eq!(u.free_uses, vec![2]);
        let u = uses(Language::Rust, "use routing::on_service;\n", "on_service");
        assert_eq!(u.imports, vec![(1, "routing::on_service".to_string())]);
    }

    #[test]
    fn go_method_and_locals() {
        let src = "package p\n\ntype C struct{}\n\nfunc (c *C) reset() {}\n\nfunc run(c *C) {\n\tc.reset()\n\treset()\n}\n\nfunc other() {\n\treset := 1\n\t_ = reset\n}\n";
        let u = uses(Language::Go, src, "reset");
        assert!(!u.top_level_binding);
        assert_eq!(u.free_uses, vec![9]);
        let src = "package p\n\nvar cases = []struct{ pkgName string }{{pkgName: \"x\"}}\nvar m = map[string]int{\"a\": pkgName}\n";
        assert_eq!(uses(Language::Go, src, "pkgName").free_uses, vec![4]);
    }

    #[test]
    fn python_fixture_and_locals() {
        let src = "import pytest\n\n\ndef test_a():\n    runner = CliRunner()\n    runner.invoke(x)\n\n\ndef test_b(runner):\n    runner.invoke(y)\n\n\nclass T:\n    def runner(self):\n        pass\n";
        let u = uses(Language::Python, src, "runner");
        assert!(!u.top_level_binding && u.local_binding);
        assert!(u.free_uses.is_empty(), "{u:?}");
        assert_eq!(u.fixture_params, vec![9]);
        let src = "def test_a(\n    x=runner,\n    runner=None,\n):\n    pass\n\ndef helper(runner):\n    pass\n";
        assert_eq!(
            uses(Language::Python, src, "runner").fixture_params,
            vec![3]
        );
        let u = uses(
            Language::Python,
            "from six import helper\nhelper(1)\n",
            "helper",
        );
        assert_eq!(u.imports, vec![(1, "six".to_string())]);
        assert_eq!(u.free_uses, vec![2]);
        let u = uses(
            Language::Python,
            "def f(helper=None):\n    return helper\nx.helper()\nf(helper=2)\n",
            "helper",
        );
        assert!(u.free_uses.is_empty(), "{u:?}");
    }

    #[test]
    fn js_requires_and_aliased_imports_are_imports() {
        let src = "const { fmt, parse: p } = require('./util');\nconst one = require('./one').one;\nfunction lazy() {\n  const { late } = require('./late');\n  return late();\n}\nconsole.log(fmt(1), p(2), one);\nconst obj = { fmt: 1, parse: 2 };\n";
        let fmt = uses(Language::JavaScript, src, "fmt");
        assert!(!fmt.top_level_binding, "{fmt:?}");
        assert_eq!(fmt.imports, vec![(1, "./util".to_string())]);
        assert_eq!(fmt.free_uses, vec![7]);
        // The key of a destructured require names the export; the object literal's key does not.
        let parse = uses(Language::JavaScript, src, "parse");
        assert_eq!(parse.imports, vec![(1, "./util".to_string())]);
        assert!(parse.free_uses.is_empty(), "{parse:?}");
        assert_eq!(
            uses(Language::JavaScript, src, "one").imports,
            vec![(2, "./one".to_string())]
        );
        // The module object a plain `require` binds is the file's own binding.
        let m = uses(
            Language::JavaScript,
            "const cookie = require('cookie');\n",
            "cookie",
        );
        assert!(m.top_level_binding && m.imports.is_empty(), "{m:?}");
        let late = uses(Language::JavaScript, src, "late");
        assert_eq!(late.imports, vec![(4, "./late".to_string())]);
        assert!(!late.local_binding);
        // A plain destructuring still binds.
        let plain = uses(Language::JavaScript, "const { fmt } = opts;\n", "fmt");
        assert!(plain.top_level_binding && plain.imports.is_empty());
        let src = "import { formatDate as fd } from '../lib/util';\nfd(1);\n";
        let u = uses(Language::TypeScript, src, "formatDate");
        assert_eq!(u.imports, vec![(1, "../lib/util".to_string())]);
        assert!(!u.top_level_binding);
    }

    #[test]
    fn js_members_and_locals() {
        let src = "import { fmt } from './util';\nclass A { fmt() { return 1 } }\nfunction f(fmt) { return fmt(1) }\nconst g = () => { const fmt = 2; return fmt };\nexport const h = (x) => fmt(x) + a.fmt();\n";
        let u = uses(Language::JavaScript, src, "fmt");
        assert_eq!(u.imports, vec![(1, "./util".to_string())]);
        assert_eq!(u.free_uses, vec![5]);
        let u = uses(
            Language::JavaScript,
            "x.Buffer = 1;\nconst b = Buffer.from('a');\n",
            "Buffer",
        );
        assert_eq!(u.free_uses, vec![2]);
    }

    #[test]
    fn other_languages_are_not_resolved() {
        assert!(names_uses(Language::Java, "class A {}", &["A"]).is_none());
    }
}
