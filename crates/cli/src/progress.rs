//! Progress of long commands (`run`, `plan`, `replay`) when stderr is not a terminal: plain,
//! timestamped lines as cargo prints them, and a heartbeat that repeats what is being done when
//! a step (a model call, a test run) has printed nothing for [`HEARTBEAT`]. A terminal
//! gets indicatif bars instead; each command decides which with [`plain_progress_wanted`].

use std::io::IsTerminal;
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// The heartbeat repeats what is being done when nothing was printed for this long; with the
/// thread's half-second polling, no silence lasts longer than 10 s.
pub(crate) const HEARTBEAT: Duration = Duration::from_millis(9_500);

/// True when progress should be printed as plain lines: stderr is a log or a pipe.
pub(crate) fn plain_progress_wanted() -> bool {
    !std::io::stderr().is_terminal()
}

/// Plain progress lines on stderr, each stamped with the time since the command started.
#[derive(Clone)]
pub(crate) struct PlainLines {
    started: Instant,
    /// When the last line was printed, and what is being done since (empty: nothing to repeat).
    last: Arc<Mutex<(Instant, String)>>,
}

impl Default for PlainLines {
    fn default() -> Self {
        Self::new()
    }
}

impl PlainLines {
    pub(crate) fn new() -> Self {
        Self {
            started: Instant::now(),
            last: Arc::new(Mutex::new((Instant::now(), String::new()))),
        }
    }

    /// `[mm:ss]`, the time since the command started.
    pub(crate) fn stamp(&self) -> String {
        let t = self.started.elapsed().as_secs();
        format!("[{:02}:{:02}]", t / 60, t % 60)
    }

    /// Prints `[mm:ss] line`. `doing`, when given, becomes what the heartbeat repeats until the
    /// next line that names something else.
    pub(crate) fn say(&self, line: &str, doing: Option<&str>) {
        if let Ok(mut last) = self.last.lock() {
            last.0 = Instant::now();
            if let Some(d) = doing {
                last.1 = d.to_string();
            }
        }
        eprintln!("{} {line}", self.stamp());
    }

    /// Prints a line the step wrote itself (a candidate's verdict), unstamped, and counts it as
    /// output for the heartbeat.
    pub(crate) fn raw(&self, line: &str, doing: Option<&str>) {
        if let Ok(mut last) = self.last.lock() {
            last.0 = Instant::now();
            if let Some(d) = doing {
                last.1 = d.to_string();
            }
        }
        eprintln!("{line}");
    }

    /// Changes what the heartbeat repeats without printing anything (a counter that moves
    /// too often to print each step).
    pub(crate) fn set_doing(&self, doing: String) {
        if let Ok(mut last) = self.last.lock() {
            last.1 = doing;
        }
    }

    /// Starts the heartbeat thread; it stops when the returned value is dropped.
    pub(crate) fn heartbeat(&self) -> Heartbeat {
        Heartbeat::start(self.clone())
    }

    /// One heartbeat tick: repeats what is being done when nothing was printed for
    /// [`HEARTBEAT`]. Returns the line printed, if any.
    fn tick(&self) -> Option<String> {
        let mut last = self.last.lock().ok()?;
        if last.0.elapsed() < HEARTBEAT || last.1.is_empty() {
            return None;
        }
        let line = format!("{} still working: {}", self.stamp(), last.1);
        last.0 = Instant::now();
        Some(line)
    }
}

/// Progress of a command made of a few long steps (`plan`: analysis, then the model): a
/// spinner naming the step on a terminal; otherwise one plain line per step and a heartbeat.
pub(crate) struct StepProgress {
    spinner: Option<ProgressBar>,
    plain: Option<(PlainLines, Heartbeat)>,
}

impl StepProgress {
    /// Nothing at all when `quiet`.
    pub(crate) fn start(quiet: bool) -> Self {
        if quiet {
            return Self {
                spinner: None,
                plain: None,
            };
        }
        if plain_progress_wanted() {
            let lines = PlainLines::new();
            let beat = lines.heartbeat();
            return Self {
                spinner: None,
                plain: Some((lines, beat)),
            };
        }
        let spinner = ProgressBar::new_spinner();
        spinner.set_style(
            ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        spinner.enable_steady_tick(Duration::from_millis(200));
        Self {
            spinner: Some(spinner),
            plain: None,
        }
    }

    /// A new step: `doing` says what it waits for (repeated by the heartbeat).
    pub(crate) fn step(&self, doing: &str) {
        if let Some(s) = &self.spinner {
            s.set_message(doing.to_string());
        }
        if let Some((lines, _)) = &self.plain {
            lines.say(doing, Some(doing));
        }
    }

    /// Ends the progress: the spinner is cleared, the heartbeat stopped.
    pub(crate) fn finish(self) {
        if let Some(s) = self.spinner {
            s.finish_and_clear();
        }
    }
}

/// A thread that prints a "still working" line whenever [`PlainLines`] has been silent for
/// [`HEARTBEAT`]; stopped and joined when dropped. It waits on a channel, not a sleep, so the
/// drop wakes it at once: a short command does not wait out the half-second poll.
pub(crate) struct Heartbeat {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Heartbeat {
    fn start(lines: PlainLines) -> Heartbeat {
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) =
                stopped.recv_timeout(Duration::from_millis(500))
            {
                if let Some(line) = lines.tick() {
                    eprintln!("{line}");
                }
            }
        });
        Heartbeat {
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for Heartbeat {
    fn drop(&mut self) {
        // Dropping the sender disconnects the channel: the thread's wait ends now.
        self.stop.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heartbeat_repeats_what_is_being_done_only_after_silence() {
        let lines = PlainLines::new();
        assert_eq!(lines.tick(), None, "nothing is being done yet");
        lines.say("phase planning", Some("planning (waiting for the model)"));
        assert_eq!(lines.tick(), None, "a line was just printed");
        // Pretend the last line is older than the heartbeat interval.
        lines.last.lock().unwrap().0 = Instant::now() - HEARTBEAT - Duration::from_millis(1);
        let beat = lines.tick().expect("silent for longer than the interval");
        assert!(
            beat.ends_with("still working: planning (waiting for the model)"),
            "{beat}"
        );
        assert_eq!(lines.tick(), None, "the beat itself counts as output");
    }

    #[test]
    fn a_line_without_doing_keeps_the_previous_step() {
        let lines = PlainLines::new();
        lines.say("subtask 1/2", Some("t1-1: fix the query"));
        lines.say("t1-1 candidate 1: rejected", None);
        assert_eq!(lines.last.lock().unwrap().1, "t1-1: fix the query");
    }
}
