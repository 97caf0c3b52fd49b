//! Trace events: JSON lines of `{ts, run_id, phase, event, data}` (DESIGN.md section 4).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One trace event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceEvent {
    /// Milliseconds since the Unix epoch.
    pub ts: i64,
    /// The run this belongs to.
    pub run_id: String,
    /// `analysis`, `planning`, ...
    pub phase: String,
    /// The seeds' event name, e.g. `plan.real_bug_synthesized`.
    pub event: String,
    /// Event payload.
    pub data: Value,
}

impl TraceEvent {
    /// An event stamped now, with an empty run id (the sink fills it in).
    pub fn new(phase: &str, event: &str, data: Value) -> Self {
        Self {
            ts: now_ms(),
            run_id: String::new(),
            phase: phase.to_string(),
            event: event.to_string(),
            data,
        }
    }
}

/// Current time in Unix milliseconds.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Where trace events go: kept in memory and, when a path is set, appended to a JSONL file.
/// Writing never fails the caller (a broken trace must not kill a run).
#[derive(Debug, Default)]
pub struct Trace {
    run_id: String,
    path: Option<PathBuf>,
    events: Mutex<Vec<TraceEvent>>,
}

impl Trace {
    /// An in-memory trace for `run_id`.
    pub fn new(run_id: &str) -> Self {
        Self {
            run_id: run_id.to_string(),
            path: None,
            events: Mutex::new(Vec::new()),
        }
    }

    /// Also appends every event to `path` as a JSON line.
    pub fn with_file(mut self, path: &Path) -> Self {
        self.path = Some(path.to_path_buf());
        self
    }

    /// Records `event` (its run id is set to this trace's).
    pub fn emit(&self, mut event: TraceEvent) {
        event.run_id = self.run_id.clone();
        if let Some(p) = &self.path
            && let Ok(line) = serde_json::to_string(&event)
        {
            if let Some(parent) = p.parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
            {
                let _ = writeln!(f, "{line}");
            }
        }
        if let Ok(mut ev) = self.events.lock() {
            ev.push(event);
        }
    }

    /// Events recorded so far.
    pub fn events(&self) -> Vec<TraceEvent> {
        self.events.lock().map(|e| e.clone()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_go_to_memory_and_jsonl() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t/trace.jsonl");
        let t = Trace::new("run-1").with_file(&path);
        t.emit(TraceEvent::new(
            "planning",
            "plan.readme_banished",
            serde_json::json!({"n": 1}),
        ));
        t.emit(TraceEvent::new(
            "planning",
            "plan.occam_filter",
            serde_json::json!({}),
        ));
        assert_eq!(t.events().len(), 2);
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<TraceEvent> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].run_id, "run-1");
        assert_eq!(lines[0].event, "plan.readme_banished");
        assert_eq!(lines[0].data["n"], 1);
    }
}
