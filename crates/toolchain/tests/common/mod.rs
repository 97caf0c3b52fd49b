//! Helpers of the toolchain's tests that run real toolchains on small projects.
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

use std::path::Path;
use std::time::Duration;

use slopguard_toolchain::process;

/// Writes `files` (path relative to `root`, text) under `root`.
pub(crate) fn write(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

/// python3 with pytest is installed; says so on stderr (a NOTICE naming `what`) when not.
pub(crate) fn has_pytest(what: &str) -> bool {
    let has = process::on_path("python3")
        && process::run(
            "python3",
            &["-c", "import pytest"],
            Path::new("."),
            &[],
            Duration::from_secs(30),
        )
        .success();
    if !has {
        eprintln!("NOTICE: python3 with pytest not installed: {what} is skipped");
    }
    has
}
