//! `slopguard serve --help` tells a newcomer which endpoints the gateway answers.
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

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

/// Runs `slopguard serve --db URL` on a free port and returns its exit code, stderr and how
/// long it took (it must fail at once: the store cannot be opened).
fn serve_with_db(url: &str) -> (Option<i32>, String, std::time::Duration) {
    let dir = tempfile::tempdir().unwrap();
    let start = std::time::Instant::now();
    let out = common::slopguard(dir.path(), &["serve", "--addr", "127.0.0.1:0", "--db", url]);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        start.elapsed(),
    )
}

/// A store file in a directory that does not exist is an error naming the directory; the
/// directory is not created.
#[test]
fn serve_with_a_store_in_a_missing_directory_names_it_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nonexistent/dir");
    let url = format!("sqlite://{}/x.db", missing.display());
    let (code, stderr, _) = serve_with_db(&url);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("the directory {} ", missing.display())),
        "{stderr}"
    );
    assert!(stderr.contains("mkdir -p"), "says how to fix it: {stderr}");
    assert_eq!(
        stderr.matches("does not exist").count(),
        1,
        "said once: {stderr}"
    );
    assert!(!dir.path().join("nonexistent").exists(), "no silent mkdir");
}

/// A PostgreSQL server that refuses connections is reported as such within 5 s.
#[test]
fn serve_with_an_unreachable_postgres_says_connection_refused_quickly() {
    // Port 1 on loopback: nothing listens there, so the kernel refuses at once.
    let (code, stderr, took) = serve_with_db("postgres://u:secret@127.0.0.1:1/db");
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.matches("connection refused").count(), 1, "{stderr}");
    assert!(stderr.contains("127.0.0.1:1"), "names the server: {stderr}");
    assert!(
        !stderr.contains("secret"),
        "no password in the message: {stderr}"
    );
    assert!(took < std::time::Duration::from_secs(5), "took {took:?}");
}
