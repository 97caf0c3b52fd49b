//! Times `analyze` on one file: `cargo run --release --example bench -- FILE [ITERS]`.
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else { return };
    let iters: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(50);
    let src = std::fs::read_to_string(path).unwrap_or_default();
    let slopguard_lang::FileKind::Code(lang) = slopguard_lang::detect(path, src.as_bytes()) else {
        return;
    };
    let _ = slopguard_lang::analyze(lang, &src);
    let t = Instant::now();
    for _ in 0..iters {
        std::hint::black_box(slopguard_lang::analyze(lang, &src));
    }
    let per = t.elapsed() / iters;
    let lines = src.lines().count();
    println!(
        "{path}: {lines} lines, {} bytes: {per:?} per analyze",
        src.len()
    );
    let g: tree_sitter::Language = match lang {
        slopguard_lang::Language::Rust => tree_sitter_rust::LANGUAGE.into(),
        slopguard_lang::Language::Python => tree_sitter_python::LANGUAGE.into(),
        slopguard_lang::Language::C => tree_sitter_c::LANGUAGE.into(),
        slopguard_lang::Language::Go => tree_sitter_go::LANGUAGE.into(),
        _ => tree_sitter_javascript::LANGUAGE.into(),
    };
    let mut p = tree_sitter::Parser::new();
    if p.set_language(&g).is_err() {
        return;
    }
    let t = Instant::now();
    for _ in 0..iters {
        std::hint::black_box(p.parse(&src, None));
    }
    println!("  tree-sitter parse alone: {:?}", t.elapsed() / iters);
    if lang == slopguard_lang::Language::Rust {
        let t = Instant::now();
        for _ in 0..iters {
            let _ = std::hint::black_box(syn::parse_file(&src));
            proc_macro2::extra::invalidate_current_thread_spans();
        }
        println!("  syn parse alone: {:?}", t.elapsed() / iters);
    }
}
