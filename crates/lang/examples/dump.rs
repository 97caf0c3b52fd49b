//! Prints the tree-sitter-independent analysis of a file: `cargo run --example dump -- LANG FILE`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: dump PATH_FOR_DETECT FILE");
        return;
    }
    let src = std::fs::read_to_string(&args[2]).unwrap_or_default();
    match slopguard_lang::detect(&args[1], src.as_bytes()) {
        slopguard_lang::FileKind::Code(l) => {
            let a = slopguard_lang::analyze(l, &src);
            println!("{}", serde_json::to_string_pretty(&a).unwrap_or_default());
        }
        slopguard_lang::FileKind::Data(f) => println!("{:?}", slopguard_lang::parse_data(f, &src)),
        k => println!("{k:?}"),
    }
}
