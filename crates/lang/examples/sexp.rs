//! Prints a tree-sitter S-expression: `cargo run --example sexp -- LANG FILE` (for grammar work).
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let src = std::fs::read_to_string(&args[2]).unwrap_or_default();
    let lang: tree_sitter::Language = match args[1].as_str() {
        "py" => tree_sitter_python::LANGUAGE.into(),
        "rs" => tree_sitter_rust::LANGUAGE.into(),
        "js" => tree_sitter_javascript::LANGUAGE.into(),
        "ts" => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        "go" => tree_sitter_go::LANGUAGE.into(),
        "java" => tree_sitter_java::LANGUAGE.into(),
        "c" => tree_sitter_c::LANGUAGE.into(),
        "cpp" => tree_sitter_cpp::LANGUAGE.into(),
        "rb" => tree_sitter_ruby::LANGUAGE.into(),
        _ => tree_sitter_bash::LANGUAGE.into(),
    };
    let mut p = tree_sitter::Parser::new();
    if p.set_language(&lang).is_err() {
        return;
    }
    if let Some(t) = p.parse(&src, None) {
        println!("{}", t.root_node().to_sexp());
    }
}
