//! `slopguard hook install` writes hook commands the agent can run: the absolute path of this
//! binary by default, and a warning when a given program cannot be found.

mod common;

use std::process::Command;

use common::{Repo, bin};

fn install(
    repo: &Repo,
    extra: &[&str],
    path_env: &str,
) -> (Option<i32>, String, serde_json::Value) {
    let out = Command::new(bin())
        .current_dir(repo.path())
        .args(["hook", "install", "claude"])
        .args(extra)
        .env("PATH", path_env)
        .output()
        .expect("slopguard runs");
    let settings = std::fs::read_to_string(repo.path().join(".claude/settings.json"))
        .map(|t| serde_json::from_str(&t).expect("settings.json is JSON"))
        .unwrap_or(serde_json::Value::Null);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        settings,
    )
}

/// Every hook command in a Claude settings file.
fn commands(settings: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    for groups in settings["hooks"]
        .as_object()
        .into_iter()
        .flat_map(|h| h.values())
    {
        for g in groups.as_array().into_iter().flatten() {
            for h in g["hooks"].as_array().into_iter().flatten() {
                out.push(h["command"].as_str().unwrap_or("").to_string());
            }
        }
    }
    out
}

#[test]
fn install_writes_the_absolute_path_of_this_binary() {
    let repo = Repo::new();
    // An empty PATH: the written command must not depend on it.
    let (code, stderr, settings) = install(&repo, &[], "");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
    let exe = std::fs::canonicalize(bin()).unwrap();
    let cmds = commands(&settings);
    assert!(!cmds.is_empty(), "{settings}");
    for c in &cmds {
        assert!(
            c.starts_with(&format!("{} hook claude", exe.display())),
            "{c} does not run {}",
            exe.display()
        );
    }
    // The written program really answers a hook event.
    let program = cmds[0].split_whitespace().next().unwrap();
    let out = Command::new(program).args(["--version"]).output().unwrap();
    assert!(out.status.success());

    // Installing again replaces the entries instead of adding a second set; uninstall
    // removes them all.
    let (_, _, settings) = install(&repo, &[], "");
    assert_eq!(commands(&settings).len(), cmds.len());
    let (code, _, settings) = install(&repo, &["--uninstall"], "");
    assert_eq!(code, Some(0));
    assert!(commands(&settings).is_empty(), "{settings}");
}

#[test]
fn a_program_that_is_not_on_path_is_warned_about() {
    let repo = Repo::new();
    let empty = tempfile::tempdir().unwrap();
    let (code, stderr, settings) = install(
        &repo,
        &["--program", "slopguard"],
        empty.path().to_str().unwrap(),
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("warning: `slopguard` is not on PATH")
            && stderr.contains("cargo install --path crates/cli"),
        "{stderr}"
    );
    assert!(
        commands(&settings)
            .iter()
            .all(|c| c.starts_with("slopguard hook claude"))
    );

    // On PATH: no warning.
    let dir = bin().parent().unwrap().to_path_buf();
    let (code, stderr, _) = install(&repo, &["--program", "slopguard"], dir.to_str().unwrap());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");

    // A path that does not exist: warned about too.
    let (_, stderr, _) = install(&repo, &["--program", "/nonexistent/slopguard"], "");
    assert!(
        stderr.contains("warning: /nonexistent/slopguard does not exist"),
        "{stderr}"
    );
}

#[test]
fn a_settings_file_that_is_not_a_json_object_is_refused_and_left_alone() {
    let repo = Repo::new();
    std::fs::create_dir_all(repo.path().join(".claude")).unwrap();
    let settings = repo.path().join(".claude/settings.json");
    for (content, says) in [
        ("{\"hooks\": {", "not JSON (EOF while parsing"),
        ("[\"hooks\"]", "the file is not a JSON object"),
        ("{\"hooks\": []}", "`hooks` is not an object"),
    ] {
        std::fs::write(&settings, content).unwrap();
        let out = Command::new(bin())
            .current_dir(repo.path())
            .args(["hook", "install", "claude"])
            .output()
            .expect("slopguard runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{content:?}: {stderr}");
        assert!(
            stderr.contains(".claude/settings.json: not a hook configuration"),
            "{content:?}: {stderr}"
        );
        assert!(stderr.contains(says), "{content:?}: {stderr}");
        assert_eq!(
            std::fs::read_to_string(&settings).unwrap(),
            content,
            "the file was changed"
        );
    }
    // An empty file is a fresh start, not an error.
    std::fs::write(&settings, "").unwrap();
    let (code, stderr, written) = install(&repo, &[], "");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!commands(&written).is_empty(), "{written}");
}
