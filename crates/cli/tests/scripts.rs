//! The setup scripts say what they leave running and stop it when asked:
//! `scripts/llm-setup.sh --stop` stops the server it started (and only that).

use std::path::PathBuf;
use std::process::{Command, Stdio};

fn script(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../scripts")
        .join(name)
}

fn stop(venv: &std::path::Path) -> (Option<i32>, String, String) {
    let out = Command::new("bash")
        .arg(script("llm-setup.sh"))
        .arg("--stop")
        .env("LLM_VENV", venv)
        .output()
        .expect("bash runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn llm_setup_stop_stops_the_server_it_started_and_says_so() {
    let venv = tempfile::tempdir().unwrap();
    // Nothing started: nothing to stop, and it says why.
    let (code, stdout, stderr) = stop(venv.path());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.is_empty(), "progress belongs on stderr: {stdout}");
    assert!(stderr.contains("nothing to stop"), "{stderr}");

    // A "server" (a sleeping process) whose pid the script recorded: stopped, and reported.
    let mut server = Command::new("sleep")
        .arg("300")
        .stdin(Stdio::null())
        .spawn()
        .expect("sleep runs");
    std::fs::write(venv.path().join("server.pid"), server.id().to_string()).unwrap();
    let (code, _, stderr) = stop(venv.path());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!("stopped the model server (pid {})", server.id())),
        "{stderr}"
    );
    let status = server.wait().unwrap();
    assert!(
        !status.success(),
        "the server was killed, not left to finish"
    );
    assert!(!venv.path().join("server.pid").exists());

    // Its pid file outliving it: said, and cleaned up.
    std::fs::write(venv.path().join("server.pid"), server.id().to_string()).unwrap();
    let (code, _, stderr) = stop(venv.path());
    assert_eq!(code, Some(0));
    assert!(stderr.contains("was not running any more"), "{stderr}");
    assert!(!venv.path().join("server.pid").exists());
}

#[test]
fn test_sh_says_the_postgresql_tests_ran_without_printing_the_password() {
    // A stand-in `cargo` records its arguments and exits 3: test.sh must pass its status on
    // and end with the PostgreSQL line either way.
    let bin = tempfile::tempdir().unwrap();
    let fake = bin.path().join("cargo");
    std::fs::write(&fake, "#!/bin/sh\necho \"fake cargo $*\"\nexit 3\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .arg(script("test.sh"))
        .arg("--lib")
        .env("PATH", path)
        .env(
            "SLOPGUARD_TEST_PG",
            "postgres://slopguard:hunter2@127.0.0.1:5432/slopguard_test",
        )
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(
        stdout.contains("fake cargo test --workspace --no-fail-fast -j2 --lib"),
        "{stdout}"
    );
    let last = stdout.lines().last().unwrap_or("");
    assert_eq!(
        last,
        "test.sh: PostgreSQL tests: RAN against postgres://slopguard:***@127.0.0.1:5432/slopguard_test"
    );
    assert!(!stdout.contains("hunter2"), "{stdout}");
}

#[test]
fn long_script_steps_say_they_are_still_running_and_keep_their_exit_status() {
    let run = |command: &str| {
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!(
                "source {}; {command}",
                script("lib/heartbeat.sh").display()
            ))
            .env("HEARTBEAT_SECS", "1")
            .output()
            .expect("bash runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stderr) = run("with_heartbeat 'building' sleep 2.6");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("building: still running (1 s)"), "{stderr}");
    assert!(stderr.contains("building: still running (2 s)"), "{stderr}");

    let (code, stderr) = run("with_heartbeat 'quick' true");
    assert_eq!(code, Some(0));
    assert!(stderr.is_empty(), "a short step prints nothing: {stderr}");

    let (code, _) = run("with_heartbeat 'failing' bash -c 'exit 3'");
    assert_eq!(code, Some(3), "the command's own exit status comes back");
}
