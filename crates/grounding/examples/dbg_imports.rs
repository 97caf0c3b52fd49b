//! Prints the imports `slopguard_lang::analyze` finds in a file (debugging aid).
fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(kind), Some(path)) = (args.next(), args.next()) else {
        eprintln!("usage: dbg_imports rs|py|go|ts FILE");
        return;
    };
    let Ok(src) = std::fs::read_to_string(&path) else {
        eprintln!("cannot read {path}");
        return;
    };
    let lang = match kind.as_str() {
        "rs" => slopguard_lang::Language::Rust,
        "py" => slopguard_lang::Language::Python,
        "go" => slopguard_lang::Language::Go,
        _ => slopguard_lang::Language::TypeScript,
    };
    println!("{:?}", slopguard_lang::analyze(lang, &src).imports);
}
