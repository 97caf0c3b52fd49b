//! Running a project's toolchain with a timeout, in its own process group so that a timeout
//! kills the whole tree (test runners spawn children; `kill_on_drop` would only reach the
//! direct child).
//!
//! No orphans: the groups running now are kept in [`LIVE`], and
//! [`kill_children_on_signals`] makes SIGTERM, SIGINT and SIGHUP to slopguard kill them
//! before slopguard dies of the signal. SIGKILL reaches no handler: for it, a [`Reaper`] (a
//! small `sh` in a process group of its own, deaf to terminal signals) is told each group
//! as it starts and ends, and kills the groups still listed when its input closes, which the
//! kernel does when slopguard dies however it dies. On Linux the direct child also gets
//! `PR_SET_PDEATHSIG = SIGKILL` (it dies at once, even where no `sh` can be started).
#![allow(
    unsafe_code,
    reason = "signal handlers, process groups and the parent-death signal are libc calls; each block says why it is sound"
)]

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
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

/// How much nicer than slopguard [`at_low_priority`] makes the commands it runs (capped at
/// 19): they get a small share of a busy CPU and all of an idle one. Relative, so that a
/// slopguard already run at a low priority never starts them at a higher one.
pub const LOW_PRIORITY: i32 = 10;

thread_local! {
    /// The niceness of the commands this thread starts ([`at_low_priority`]); 0: slopguard's.
    static NICENESS: std::cell::Cell<i32> = const { std::cell::Cell::new(0) };
}

/// Runs `f` with the commands this thread starts in it (and their children) at
/// [`LOW_PRIORITY`]: speculative work, such as the repair templates past a run's best
/// guesses, yields the CPU to what the run waits for (a model server on the same machine
/// answering the same subtask) and runs as fast as before on an idle machine.
pub fn at_low_priority<T>(f: impl FnOnce() -> T) -> T {
    /// Puts the thread's niceness back, also when `f` panics.
    struct Restore(i32);
    impl Drop for Restore {
        fn drop(&mut self) {
            NICENESS.set(self.0);
        }
    }
    let _restore = Restore(NICENESS.replace(LOW_PRIORITY));
    f()
}

/// Runs `program args..` in `cwd` with extra `env`, killing its process group after `timeout`.
pub fn run(
    program: &str,
    args: &[&str],
    cwd: &Path,
    env: &[(&str, &str)],
    timeout: Duration,
) -> RunOutput {
    run_watched(program, args, cwd, env, timeout, &mut NoWatch)
}

/// Reads a process's stdout line by line as it arrives and says when to stop the process
/// before its timeout. Test runners that only warn about a hanging test (libtest) are cut
/// this way.
pub trait Watch {
    /// One complete line of stdout (without its line end).
    fn line(&mut self, line: &str);
    /// When to kill the process group, given the lines so far; `None` while nothing calls
    /// for it. Asked again after every batch of lines and while the process is quiet.
    fn stop_at(&self) -> Option<Instant>;
}

/// A [`Watch`] that never stops the process.
pub struct NoWatch;

impl Watch for NoWatch {
    fn line(&mut self, _line: &str) {}

    fn stop_at(&self) -> Option<Instant> {
        None
    }
}

/// [`run`], showing each line of stdout to `watch` as it arrives: once the time
/// [`Watch::stop_at`] names has come, the process group is killed unless it exited first, and
/// the output says [`RunOutput::stopped`].
pub fn run_watched(
    program: &str,
    args: &[&str],
    cwd: &Path,
    env: &[(&str, &str)],
    timeout: Duration,
    watch: &mut dyn Watch,
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
    die_with_parent(&mut cmd);
    lower_priority(&mut cmd, NICENESS.get());
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
    let _live = LiveGroup::register(pid);
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
    let mut pending_line = Vec::new();
    let status = loop {
        watch_new_lines(&out_buf, &mut pending_line, &mut |line| watch.line(line));
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {
                if start.elapsed() >= timeout {
                    timed_out = true;
                    kill_group(pid);
                    break child.wait().ok();
                }
                if watch.stop_at().is_some_and(|at| Instant::now() >= at) {
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

/// Most process groups [`LIVE`] tracks at once (more run unregistered, still covered by the
/// parent-death signal).
const LIVE_SLOTS: usize = 64;

/// The process groups of the children running now (0: a free slot). Atomics in a fixed array,
/// so the signal handler reads them without a lock or an allocation.
static LIVE: [AtomicI32; LIVE_SLOTS] = [const { AtomicI32::new(0) }; LIVE_SLOTS];

/// A child's process group in [`LIVE`] while it runs; the slot is freed on drop.
struct LiveGroup(Option<usize>, i32);

impl LiveGroup {
    fn register(pgid: i32) -> LiveGroup {
        Reaper::tell(&format!("+{pgid}"));
        let slot = LIVE.iter().position(|s| {
            s.compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        });
        LiveGroup(slot, pgid)
    }
}

impl Drop for LiveGroup {
    fn drop(&mut self) {
        if let Some(i) = self.0 {
            LIVE[i].store(0, Ordering::SeqCst);
        }
        Reaper::tell(&format!("-{}", self.1));
    }
}

/// Kills the listed process groups when slopguard is gone. Its input is a pipe only slopguard
/// holds (close-on-exec: no child inherits it), fed `+PGID` when a group starts and `-PGID`
/// when it ended; the pipe closes when slopguard exits or is killed, even by SIGKILL, and the
/// groups still listed are killed then.
struct Reaper;

/// The reaper's program: ignore the signals a terminal or `timeout` sends the foreground
/// group, keep the list of live groups, kill what is left at the end of input.
const REAPER_SCRIPT: &str = r#"trap '' INT TERM HUP
groups=' '
while IFS= read -r line; do
  case "$line" in
    +*) groups="$groups${line#+} " ;;
    -*) g=${line#-}
        case "$groups" in *" $g "*) groups="${groups%% $g *} ${groups#* $g }" ;; esac ;;
  esac
done
for g in $groups; do kill -9 "-$g" 2>/dev/null; done
"#;

/// The reaper's input, started on first use; `None` when `sh` could not be started (the
/// parent-death signal and the signal handlers still apply).
static REAPER: Mutex<Option<Option<std::process::ChildStdin>>> = Mutex::new(None);

impl Reaper {
    /// Sends one line to the reaper, starting it first if needed. Never fails the caller.
    fn tell(line: &str) {
        use std::io::Write;
        let mut reaper = REAPER.lock().unwrap_or_else(|e| e.into_inner());
        let input = reaper.get_or_insert_with(Reaper::start);
        if let Some(stdin) = input
            && writeln!(stdin, "{line}").is_err()
        {
            *input = None;
        }
    }

    fn start() -> Option<std::process::ChildStdin> {
        let mut child = Command::new("sh")
            .args(["-c", REAPER_SCRIPT])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .map_err(|e| tracing::debug!(%e, "no reaper for orphaned test processes"))
            .ok()?;
        child.stdin.take()
    }
}

/// Kills every process group in [`LIVE`] (async-signal-safe: atomic loads and `kill`).
fn kill_live_groups() {
    for slot in &LIVE {
        kill_group(slot.load(Ordering::SeqCst));
    }
}

/// The handler of [`kill_children_on_signals`]: kill the children's groups, then die of the
/// same signal as if there were no handler, so the exit status still says what happened.
extern "C" fn on_termination(signal: libc::c_int) {
    kill_live_groups();
    // SAFETY: signal(2) and raise(3) are async-signal-safe; resetting the disposition to the
    // default before raising makes the signal end the process.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// Makes SIGTERM, SIGINT and SIGHUP kill the toolchain's running process groups before they
/// end slopguard (a `timeout` or Ctrl-C would otherwise leave a hanging test suite running,
/// re-parented to init). For commands that have no handler of their own for these signals:
/// `serve` shuts down gracefully on them and must not call this.
pub fn kill_children_on_signals() {
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        // SAFETY: installs a handler that only calls async-signal-safe functions; the
        // sigaction struct is zeroed and then filled as sigaction(2) documents.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_termination as *const () as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            action.sa_flags = libc::SA_RESTART;
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// On Linux, the child gets SIGKILL when slopguard dies (even of SIGKILL). Checked after the
/// setting too: if slopguard died between `fork` and `prctl`, the child ends itself.
#[cfg(target_os = "linux")]
fn die_with_parent(cmd: &mut Command) {
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: the closure runs between fork and exec and calls only async-signal-safe
    // functions (prctl, getppid, raise); it allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() != parent {
                libc::raise(libc::SIGKILL);
            }
            Ok(())
        });
    }
}

/// Starts the child `niceness` nicer than slopguard (nothing to do at 0; nice(2) caps it at
/// 19); a child that cannot lower its own priority runs at slopguard's.
fn lower_priority(cmd: &mut Command, niceness: i32) {
    if niceness == 0 {
        return;
    }
    // SAFETY: the closure runs between fork and exec and calls only nice(2), a plain system
    // call; it allocates nothing. Its failure is ignored: the command runs either way.
    unsafe {
        cmd.pre_exec(move || {
            libc::nice(niceness);
            Ok(())
        });
    }
}

/// Elsewhere there is no parent-death signal; the signal handler and timeouts remain.
#[cfg(not(target_os = "linux"))]
fn die_with_parent(_cmd: &mut Command) {}

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
    fn commands_run_at_low_priority_inside_it_and_as_before_after_it() {
        let niceness = || {
            let out = run("nice", &[], Path::new("."), &[], Duration::from_secs(10));
            out.stdout.trim().parse::<i32>().unwrap()
        };
        let before = niceness();
        let inside = at_low_priority(niceness);
        assert_eq!(inside, (before + LOW_PRIORITY).min(19));
        assert_eq!(niceness(), before);
        // Put back after a panic too.
        let _ = std::panic::catch_unwind(|| at_low_priority(|| panic!("in the closure")));
        assert_eq!(niceness(), before);
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

    /// Stops 100 ms after a line that says "hang", keeping the lines it saw.
    #[derive(Default)]
    struct StopAtHang {
        seen: Vec<String>,
        at: Option<Instant>,
    }

    impl Watch for StopAtHang {
        fn line(&mut self, line: &str) {
            self.seen.push(line.to_string());
            if line.contains("hang") {
                self.at = Some(Instant::now() + Duration::from_millis(100));
            }
        }

        fn stop_at(&self) -> Option<Instant> {
            self.at
        }
    }

    #[test]
    fn a_watched_line_stops_the_run() {
        let mut watch = StopAtHang::default();
        let out = run_watched(
            "sh",
            &["-c", "echo one; echo 'hang here'; sleep 30"],
            Path::new("."),
            &[],
            Duration::from_secs(20),
            &mut watch,
        );
        assert!(out.stopped && !out.timed_out, "{out:?}");
        assert!(out.elapsed < Duration::from_secs(5));
        assert_eq!(watch.seen, ["one", "hang here"]);
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
