//! Runs `analyze` over real files and reports, per language, how many files had certain or
//! uncertain syntax errors and how long analysis took:
//! `cargo run --release --example calibrate -- [--show N] [--skip SUBSTR]... [--edition-2021] DIR...`.
//! With `--edition-2021` the Rust files are judged as code of edition 2021 or later (the errors
//! that hold only there, such as a brace in a lone `panic!` message, count as certain).
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use slopguard_lang::{FileKind, analyze, detect, parse_data};

#[derive(Default)]
struct Stat {
    files: usize,
    bytes: usize,
    certain: usize,
    uncertain: usize,
    time: Duration,
}

fn walk(dir: &Path, skip: &[String], out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let s = p.to_string_lossy();
        if skip.iter().any(|k| s.contains(k.as_str())) {
            continue;
        }
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            walk(&p, skip, out);
        } else if ft.is_file() {
            out.push(p);
        }
    }
}

fn main() {
    let mut show = 10usize;
    let mut skip = Vec::new();
    let mut dirs = Vec::new();
    let mut edition_2021 = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--show" => show = args.next().and_then(|n| n.parse().ok()).unwrap_or(10),
            "--skip" => skip.extend(args.next()),
            "--edition-2021" => edition_2021 = true,
            _ => dirs.push(a),
        }
    }
    let mut files = Vec::new();
    for d in &dirs {
        walk(Path::new(d), &skip, &mut files);
    }
    let mut stats: BTreeMap<String, Stat> = BTreeMap::new();
    let mut shown: BTreeMap<String, usize> = BTreeMap::new();
    for f in files {
        let Ok(bytes) = std::fs::read(&f) else {
            continue;
        };
        let Ok(src) = String::from_utf8(bytes) else {
            continue;
        };
        let path = f.to_string_lossy();
        let kind = detect(&path, src.as_bytes());
        let (name, certain, uncertain, first, dt) = match kind {
            FileKind::Code(l) => {
                let t = Instant::now();
                let mut a = analyze(l, &src);
                let dt = t.elapsed();
                if edition_2021 {
                    a.syntax_errors
                        .append(&mut a.syntax_errors_from_edition_2021);
                    a.syntax_errors.sort_by_key(|e| (e.line, e.column));
                }
                (
                    l.name().to_owned(),
                    !a.syntax_errors.is_empty(),
                    !a.uncertain_syntax_errors.is_empty(),
                    a.syntax_errors.first().map(|e| e.to_string()),
                    dt,
                )
            }
            FileKind::Data(d) => {
                let t = Instant::now();
                let r = parse_data(d, &src);
                let dt = t.elapsed();
                let err = r.err();
                (
                    format!("{d:?}"),
                    err.is_some(),
                    false,
                    err.map(|e| e.to_string()),
                    dt,
                )
            }
            _ => continue,
        };
        let s = stats.entry(name.clone()).or_default();
        s.files += 1;
        s.bytes += src.len();
        s.time += dt;
        if certain {
            s.certain += 1;
            let n = shown.entry(name.clone()).or_default();
            if *n < show {
                *n += 1;
                println!("{name}: {path}: {}", first.unwrap_or_default());
            }
        } else if uncertain {
            s.uncertain += 1;
        }
    }
    println!(
        "\n{:<12} {:>7} {:>9} {:>8} {:>10} {:>10}",
        "language", "files", "certain", "uncert.", "MB", "us/file"
    );
    for (k, s) in stats {
        println!(
            "{:<12} {:>7} {:>9} {:>8} {:>10.1} {:>10.0}",
            k,
            s.files,
            s.certain,
            s.uncertain,
            s.bytes as f64 / 1e6,
            s.time.as_micros() as f64 / s.files.max(1) as f64
        );
    }
}
