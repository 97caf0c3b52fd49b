//! Every fixture under `tests/fixtures/` is told apart: `ok*` files parse with no certain
//! syntax error, `bad*` files have at least one, `unsure*` files (C/C++ macros and `#ifdef`s)
//! have no certain error but at least one uncertain one.

use std::path::Path;

use slopguard_lang::{FileKind, analyze, detect, parse_data};

enum Expect {
    Ok,
    Bad,
    Unsure,
}

fn expectation(name: &str) -> Expect {
    let lower = name.to_ascii_lowercase();
    if lower.starts_with("ok") {
        Expect::Ok
    } else if lower.starts_with("bad") {
        Expect::Bad
    } else if lower.starts_with("unsure") {
        Expect::Unsure
    } else {
        panic!("fixture {name} must start with ok, bad or unsure")
    }
}

fn files(dir: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(dir);
    let mut out: Vec<(String, String)> = std::fs::read_dir(&root)
        .expect("fixtures dir")
        .map(|e| {
            let p = e.expect("entry").path();
            let name = p.file_name().expect("name").to_string_lossy().into_owned();
            let src = std::fs::read_to_string(&p).expect("utf-8 fixture");
            (name, src)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn code_fixtures_are_told_apart() {
    let mut failures = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (name, src) in files("code") {
        let FileKind::Code(lang) = detect(&name, src.as_bytes()) else {
            panic!("{name} is not detected as code");
        };
        seen.insert((lang.name(), name.to_ascii_lowercase().starts_with("ok")));
        let a = analyze(lang, &src);
        let ok = match expectation(&name) {
            Expect::Ok => a.syntax_errors.is_empty(),
            Expect::Bad => !a.syntax_errors.is_empty(),
            Expect::Unsure => a.syntax_errors.is_empty() && !a.uncertain_syntax_errors.is_empty(),
        };
        if !ok {
            failures.push(format!(
                "{name} ({}): certain {:?}, uncertain {:?}",
                lang.name(),
                a.syntax_errors,
                a.uncertain_syntax_errors
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every language has a valid and a broken fixture.
    for lang in slopguard_lang::Language::ALL {
        assert!(
            seen.contains(&(lang.name(), true)),
            "no ok fixture for {}",
            lang.name()
        );
        assert!(
            seen.contains(&(lang.name(), false)),
            "no bad fixture for {}",
            lang.name()
        );
    }
}

#[test]
fn data_fixtures_are_told_apart() {
    let mut failures = Vec::new();
    for (name, src) in files("data") {
        let FileKind::Data(format) = detect(&name, src.as_bytes()) else {
            panic!("{name} is not detected as data");
        };
        let r = parse_data(format, &src);
        let ok = match expectation(&name) {
            Expect::Ok => r.is_ok(),
            Expect::Bad => r.is_err(),
            Expect::Unsure => unreachable!(),
        };
        if !ok {
            failures.push(format!("{name} ({format:?}): {r:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
