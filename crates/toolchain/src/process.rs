//! Running a project's toolchain with a timeout, in its own process group so that a timeout
//! kills the whole tree (test runners spawn children; `kill_on_drop` would only reach the
//! direct child).

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Most output kept per stream (the tail is kept).
const MAX_OUTPUT: usize = 4 * 1024 * 1024;

/// What a command did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOutput {
    /// Exit code (`None` when killed by a signal, timed out, or never started).
    pub code: Option<i32>,
    /// Captured stdout (lossy UTF-8).
    pub stdout: String,
    /// Captured stderr (lossy UTF-8).
    pub stderr: String,
    /// Killed because it ran past the timeout.
    pub timed_out: bool,
    /// The program was not found.
    pub not_found: bool,
    /// Another spawn error, if any.
    pub spawn_error: Option<String>,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl RunOutput {
    /// Exited with status 0.
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }

    /// stdout then stderr.
    pub fn combined(&self) -> String {
        format!("{}\n{}", self.stdout, self.stderr)
    }
}

/// Runs `program args..` in `cwd` with extra `env`, killing its process group after `timeout`.
pub fn run(
    program: &str,
    args: &[&str],
    cwd: &Path,
    env: &[(&str, &str)],
    timeout: Duration,
) -> RunOutput {
    let start = Instant::now();
    let mut cmd = Command::new(program);
    cmd.args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return RunOutput {
                code: None,
                stdout: String::new(),
                stderr: String::new(),
                timed_out: false,
                not_found: e.kind() == std::io::ErrorKind::NotFound,
                spawn_error: Some(e.to_string()),
                elapsed: start.elapsed(),
            };
        }
    };
    let pid = child.id() as i32;
    let out_reader = child.stdout.take().map(spawn_reader);
    let err_reader = child.stderr.take().map(spawn_reader);
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {
                if start.elapsed() >= timeout {
                    timed_out = true;
                    kill_group(pid);
                    break child.wait().ok();
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(_) => {
                kill_group(pid);
                break child.wait().ok();
            }
        }
    };
    // Grandchildren may still hold the pipes open after a normal exit; make sure they go too.
    kill_group(pid);
    let stdout = out_reader.and_then(|h| h.join().ok()).unwrap_or_default();
    let stderr = err_reader.and_then(|h| h.join().ok()).unwrap_or_default();
    RunOutput {
        code: if timed_out {
            None
        } else {
            status.and_then(|s| s.code())
        },
        stdout,
        stderr,
        timed_out,
        not_found: false,
        spawn_error: None,
        elapsed: start.elapsed(),
    }
}

fn kill_group(pgid: i32) {
    if pgid > 0 {
        // SAFETY: kill(2) with a negative pid signals the process group we created for the
        // child (process_group(0) makes the child's pid its group id); no memory is touched.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

fn spawn_reader<R: Read + Send + 'static>(mut r: R) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let mut chunk = [0u8; 8192];
        loop {
            match r.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    buf.extend_from_slice(&chunk[..n]);
                    if buf.len() > MAX_OUTPUT {
                        let excess = buf.len() - MAX_OUTPUT;
                        buf.drain(..excess);
                    }
                }
            }
        }
        String::from_utf8_lossy(&buf).into_owned()
    })
}

/// Whether `program` is on `PATH`.
pub fn on_path(program: &str) -> bool {
    let Some(paths) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&paths).any(|dir| {
        let p = dir.join(program);
        p.is_file()
            && std::fs::metadata(&p)
                .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o111 != 0)
                .unwrap_or(false)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_output_and_code() {
        let out = run(
            "sh",
            &["-c", "echo out; echo err >&2; exit 3"],
            Path::new("."),
            &[],
            Duration::from_secs(10),
        );
        assert_eq!(out.code, Some(3));
        assert_eq!(out.stdout.trim(), "out");
        assert_eq!(out.stderr.trim(), "err");
        assert!(!out.timed_out);
    }

    #[test]
    fn timeout_kills_the_whole_group() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("survived");
        let script = format!("(sleep 2; touch {}) & sleep 30", marker.display());
        let out = run(
            "sh",
            &["-c", &script],
            dir.path(),
            &[],
            Duration::from_millis(300),
        );
        assert!(out.timed_out);
        assert_eq!(out.code, None);
        assert!(out.elapsed < Duration::from_secs(5));
        std::thread::sleep(Duration::from_millis(2500));
        assert!(
            !marker.exists(),
            "the background grandchild must have been killed"
        );
    }

    #[test]
    fn missing_program_is_reported() {
        let out = run(
            "definitely-not-a-program-xyz",
            &[],
            Path::new("."),
            &[],
            Duration::from_secs(1),
        );
        assert!(out.not_found);
        assert!(!on_path("definitely-not-a-program-xyz"));
        assert!(on_path("sh"));
    }
}
