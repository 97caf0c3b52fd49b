//! Helpers for integration tests: temporary git repositories and running the binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub(crate) use slopguard_testkit::git;

/// A temporary git repository.
pub(crate) struct Repo {
    pub dir: tempfile::TempDir,
}

impl Default for Repo {
    fn default() -> Self {
        Repo::new()
    }
}

impl Repo {
    pub(crate) fn new() -> Repo {
        let dir = tempfile::tempdir().expect("tempdir");
        let r = Repo { dir };
        r.git(&["init", "-q", "-b", "main"]);
        r.git(&["config", "user.email", "test@example.invalid"]);
        r.git(&["config", "user.name", "Test"]);
        r.git(&["config", "commit.gpgsign", "false"]);
        r
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn git(&self, args: &[&str]) -> String {
        git(self.path(), args)
    }

    pub(crate) fn write(&self, rel: &str, content: impl AsRef<[u8]>) {
        let p = self.path().join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, content).expect("write");
    }

    pub(crate) fn remove(&self, rel: &str) {
        std::fs::remove_file(self.path().join(rel)).expect("remove");
    }

    pub(crate) fn commit(&self, msg: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", msg]);
        self.git(&["rev-parse", "HEAD"]).trim().to_string()
    }
}

pub(crate) fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_slopguard"))
}

/// Runs slopguard with `args` in `dir`.
pub(crate) fn slopguard(dir: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("slopguard runs")
}

/// Runs slopguard and parses its stdout as JSON.
pub(crate) fn slopguard_json(dir: &Path, args: &[&str]) -> (i32, serde_json::Value) {
    let out = slopguard(dir, args);
    let code = out.status.code().unwrap_or(-1);
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}); exit {code}\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (code, v)
}
