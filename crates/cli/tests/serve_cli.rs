//! `slopguard serve --help` tells a newcomer which endpoints the gateway answers.

mod common;

#[test]
fn serve_help_lists_every_endpoint() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::slopguard(dir.path(), &["serve", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    for e in slopguard_server::ENDPOINTS {
        assert!(
            help.lines()
                .any(|l| l.split_whitespace().nth(1) == Some(e.path)),
            "serve --help does not list {}:\n{help}",
            e.path
        );
    }
}

#[test]
fn readme_lists_every_endpoint() {
    let readme = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"),
    )
    .unwrap();
    let section = readme
        .split("## The observer gateway (`serve`)")
        .nth(1)
        .expect("README has the gateway section");
    let section = section.split("\n## ").next().unwrap();
    for e in slopguard_server::ENDPOINTS {
        assert!(
            section.contains(&format!("`{}`", e.path)),
            "README's gateway section does not list {}",
            e.path
        );
    }
}
