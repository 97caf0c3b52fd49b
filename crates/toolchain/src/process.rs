//! Running a project's toolchain with a timeout, in its own process group so that a timeout
//! kills the whole tree (test runners spawn children; `kill_on_drop` would only reach the
//! direct child).

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
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
    /// Killed before the timeout because a watched output line asked for it (see
    /// [`run_watched`]).
    pub stopped: bool,
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
    run_watched(program, args, cwd, env, timeout, &mut |_| None)
}

/// [`run`], reading each line of stdout as it arrives: when `watch` returns `Some(grace)` for a
/// line, the process group is killed `grace` later (the earliest such deadline wins) unless it
/// exits first, and the output says [`RunOutput::stopped`]. Test runners that only warn about
/// a hanging test (libtest) are cut this way.
pub fn run_watched(
    program: &str,
    args: &[&str],
    cwd: &Path,
    env: &[(&str, &str)],
    timeout: Duration,
    watch: &mut dyn FnMut(&str) -> Option<Duration>,
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
                stopped: false,
                not_found: e.kind() == std::io::ErrorKind::NotFound,
                spawn_error: Some(e.to_string()),
                elapsed: start.elapsed(),
            };
        }
    };
    let pid = child.id() as i32;
    let out_buf = Arc::new(Mutex::new(Captured::default()));
    let err_buf = Arc::new(Mutex::new(Captured::default()));
    let out_reader = child
        .stdout
        .take()
        .map(|r| spawn_reader(r, Arc::clone(&out_buf)));
    let err_reader = child
        .stderr
        .take()
        .map(|r| spawn_reader(r, Arc::clone(&err_buf)));
    let mut timed_out = false;
    let mut stopped = false;
    let mut stop_at: Option<Instant> = None;
    let mut pending_line = Vec::new();
    let status = loop {
        watch_new_lines(&out_buf, &mut pending_line, &mut |line| {
            if let Some(grace) = watch(line) {
                let at = Instant::now() + grace;
                stop_at = Some(stop_at.map_or(at, |s| s.min(at)));
            }
        });
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {
                if start.elapsed() >= timeout {
                    timed_out = true;
                    kill_group(pid);
                    break child.wait().ok();
                }
                if stop_at.is_some_and(|at| Instant::now() >= at) {
                    stopped = true;
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
    if let Some(h) = out_reader {
        let _ = h.join();
    }
    if let Some(h) = err_reader {
        let _ = h.join();
    }
    let take = |buf: &Arc<Mutex<Captured>>| {
        let bytes = std::mem::take(&mut buf.lock().unwrap_or_else(|e| e.into_inner()).bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    };
    RunOutput {
        code: if timed_out || stopped {
            None
        } else {
            status.and_then(|s| s.code())
        },
        stdout: take(&out_buf),
        stderr: take(&err_buf),
        timed_out,
        stopped,
        not_found: false,
        spawn_error: None,
        elapsed: start.elapsed(),
    }
}

/// One stream's output so far: its (tail of) bytes and how many bytes were ever read.
#[derive(Default)]
struct Captured {
    bytes: Vec<u8>,
    /// Total bytes read; `bytes` holds the last ones.
    total: usize,
    /// `total` when the watcher last looked.
    seen: usize,
}

/// Hands every complete line that arrived since the last call to `each`.
fn watch_new_lines(buf: &Arc<Mutex<Captured>>, pending: &mut Vec<u8>, each: &mut dyn FnMut(&str)) {
    let fresh = {
        let mut c = buf.lock().unwrap_or_else(|e| e.into_inner());
        let new = c.total - c.seen;
        c.seen = c.total;
        let keep = new.min(c.bytes.len());
        c.bytes[c.bytes.len() - keep..].to_vec()
    };
    if fresh.is_empty() {
        return;
    }
    pending.extend_from_slice(&fresh);
    while let Some(i) = pending.iter().position(|&b| b == b'\n') {
        let line: Vec<u8> = pending.drain(..=i).collect();
        each(String::from_utf8_lossy(&line).trim_end());
    }
    if pending.len() > 64 * 1024 {
        pending.clear();
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

fn spawn_reader<R: Read + Send + 'static>(
    mut r: R,
    buf: Arc<Mutex<Captured>>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut chunk = [0u8; 8192];
        loop {
            match r.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let mut c = buf.lock().unwrap_or_else(|e| e.into_inner());
                    c.bytes.extend_from_slice(&chunk[..n]);
                    c.total += n;
                    if c.bytes.len() > MAX_OUTPUT {
                        let excess = c.bytes.len() - MAX_OUTPUT;
                        c.bytes.drain(..excess);
                    }
                }
            }
        }
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
    fn a_watched_line_stops_the_run() {
        let mut seen = Vec::new();
        let out = run_watched(
            "sh",
            &["-c", "echo one; echo 'hang here'; sleep 30"],
            Path::new("."),
            &[],
            Duration::from_secs(20),
            &mut |line| {
                seen.push(line.to_string());
                line.contains("hang").then_some(Duration::from_millis(100))
            },
        );
        assert!(out.stopped && !out.timed_out, "{out:?}");
        assert!(out.elapsed < Duration::from_secs(5));
        assert_eq!(seen, ["one", "hang here"]);
        assert!(out.stdout.contains("hang here"));
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
