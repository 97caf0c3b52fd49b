//! Run state and the repository lock.
//!
//! The state of a run (plan, per-subtask status, commit ids, attempts, the test baseline) lives
//! in `<repo>/.slopguard/runs/<run-id>/state.json` and is written atomically (temporary file,
//! fsync, rename, fsync of the directory) after every step, so a crash or `kill -9` leaves
//! either the previous state or the new one, never a torn file. `<repo>/.slopguard/run.lock`
//! keeps two runs off one repository; a lock whose process is gone is stale and taken over.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::records::{Baseline, RunPhase, RunRecord, SubtaskSummary, TaskSummary};
use slopguard_planning::plan::Plan;

/// Version of the state file format.
pub const STATE_VERSION: u32 = 1;

/// Errors of state and lock handling.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// A file operation failed.
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    /// The state file is not valid.
    #[error("invalid run state {0}: {1}")]
    Invalid(String, String),
    /// Another live run holds the lock.
    #[error(
        "another slopguard run (pid {pid}, run {run_id}) is working on this repository; wait for it, or stop it (the lock is {path})"
    )]
    Locked {
        /// Its pid.
        pid: u32,
        /// Its run id.
        run_id: String,
        /// The lock file.
        path: String,
    },
}

/// Everything a resumed run needs: the run's record, plus where it stopped and what it still
/// has to do.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunState {
    /// [`STATE_VERSION`].
    pub version: u32,
    /// The run and what it has done so far.
    #[serde(flatten)]
    pub run: RunRecord,
    /// Where the run is (or stopped).
    pub phase: RunPhase,
    /// The final plan (after the post-processors), once planned.
    #[serde(default)]
    pub plan: Option<Plan>,
    /// An operator plan (`--plan-from-file`), kept so a resume before planning finished uses it.
    #[serde(default)]
    pub operator_plan: Option<Plan>,
    /// Test baseline (captured once, advanced after every landed subtask).
    #[serde(default)]
    pub baseline: Option<Baseline>,
    /// Retry budget per subtask.
    pub max_attempts: u32,
}

impl RunState {
    /// The subtask `id`, mutably.
    pub fn subtask_mut(&mut self, id: &str) -> Option<&mut SubtaskSummary> {
        self.run
            .tasks
            .iter_mut()
            .flat_map(|t| t.subtasks.iter_mut())
            .find(|s| s.id == id)
    }

    /// Ids of every subtask in plan order.
    pub fn subtask_ids(&self) -> Vec<String> {
        self.run
            .tasks
            .iter()
            .flat_map(|t| t.subtasks.iter().map(|s| s.id.clone()))
            .collect()
    }

    /// The first subtask that is not finished.
    pub fn first_unfinished(&self) -> Option<String> {
        self.run
            .tasks
            .iter()
            .flat_map(|t| t.subtasks.iter())
            .find(|s| !s.status.is_final())
            .map(|s| s.id.clone())
    }

    /// Fills [`RunState::tasks`] from the plan (every subtask pending).
    pub fn set_plan(&mut self, plan: Plan) {
        self.run.tasks = plan
            .tasks
            .iter()
            .map(|t| TaskSummary {
                id: t.id.clone(),
                title: t.title.clone(),
                description: t.description.clone(),
                priority: t.priority,
                subtasks: t
                    .subtasks
                    .iter()
                    .map(|s| SubtaskSummary {
                        id: s.id.clone(),
                        title: s.title.clone(),
                        description: s.description.clone(),
                        file_hints: s.file_hints.clone(),
                        ..Default::default()
                    })
                    .collect(),
            })
            .collect();
        self.plan = Some(plan);
    }
}

/// `<repo>/.slopguard`.
pub fn data_dir(repo: &Path) -> PathBuf {
    repo.join(".slopguard")
}

/// `<repo>/.slopguard/runs/<run-id>`.
pub fn run_dir(repo: &Path, run_id: &str) -> PathBuf {
    data_dir(repo).join("runs").join(run_id)
}

/// `<repo>/.slopguard/runs/<run-id>/state.json`.
pub fn state_path(repo: &Path, run_id: &str) -> PathBuf {
    run_dir(repo, run_id).join("state.json")
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, fsync, rename,
/// fsync of the directory.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StateError> {
    let io = |e| StateError::Io(path.display().to_string(), e);
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io)?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("state"),
        std::process::id()
    ));
    {
        let mut f = std::fs::File::create(&tmp).map_err(io)?;
        f.write_all(bytes).map_err(io)?;
        f.sync_all().map_err(io)?;
    }
    std::fs::rename(&tmp, path).map_err(io)?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Saves the state atomically.
pub fn save(path: &Path, state: &RunState) -> Result<(), StateError> {
    let bytes = serde_json::to_vec_pretty(state)
        .map_err(|e| StateError::Invalid(path.display().to_string(), e.to_string()))?;
    write_atomic(path, &bytes)
}

/// Loads a state file.
pub fn load(path: &Path) -> Result<RunState, StateError> {
    let text = std::fs::read(path).map_err(|e| StateError::Io(path.display().to_string(), e))?;
    let st: RunState = serde_json::from_slice(&text)
        .map_err(|e| StateError::Invalid(path.display().to_string(), e.to_string()))?;
    if st.version != STATE_VERSION {
        return Err(StateError::Invalid(
            path.display().to_string(),
            format!(
                "state version {} (this slopguard reads {STATE_VERSION})",
                st.version
            ),
        ));
    }
    Ok(st)
}

/// The most recent run of `repo` that is not done, if any.
pub fn latest_unfinished(repo: &Path) -> Option<RunState> {
    latest_where(repo, |st| st.phase != RunPhase::Done)
}

/// The most recent run of `repo`, finished or not.
pub fn latest_run(repo: &Path) -> Option<RunState> {
    latest_where(repo, |_| true)
}

fn latest_where(repo: &Path, keep: impl Fn(&RunState) -> bool) -> Option<RunState> {
    let runs = data_dir(repo).join("runs");
    let mut best: Option<RunState> = None;
    for e in std::fs::read_dir(runs).ok()?.flatten() {
        if let Ok(st) = load(&e.path().join("state.json"))
            && keep(&st)
            && best
                .as_ref()
                .is_none_or(|b| st.run.started_ms > b.run.started_ms)
        {
            best = Some(st);
        }
    }
    best
}

/// A new run id: UTC time plus a short random suffix.
pub fn new_run_id() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let secs = now.as_secs() as i64;
    let (y, mo, d, h, mi, s) = civil(secs);
    let salt = (now.subsec_nanos() ^ std::process::id().wrapping_mul(2_654_435_761)) & 0xffff;
    format!("{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}-{salt:04x}")
}

fn civil(secs: i64) -> (i64, u32, u32, u32, u32, u32) {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    (
        y,
        m,
        d,
        (rem / 3600) as u32,
        ((rem % 3600) / 60) as u32,
        (rem % 60) as u32,
    )
}

/// The lock against two runs on one repository. Released on drop.
#[derive(Debug)]
pub struct RepoLock {
    path: PathBuf,
}

#[derive(Debug, Serialize, Deserialize)]
struct LockBody {
    pid: u32,
    run_id: String,
    started_ms: i64,
}

fn pid_alive(pid: u32) -> bool {
    if pid == 0 || pid > i32::MAX as u32 {
        return false;
    }
    // SAFETY: kill(2) with signal 0 only checks whether the process exists; nothing is sent.
    #[allow(unsafe_code, reason = "kill(2) has no safe wrapper in std")]
    let r = unsafe { libc::kill(pid as i32, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

impl RepoLock {
    /// Takes `<repo>/.slopguard/run.lock` for `run_id`. A lock held by a live process is an
    /// error; a lock whose process is gone (crash, `kill -9`) is taken over. The second value
    /// says whether a stale lock was removed.
    pub fn acquire(repo: &Path, run_id: &str) -> Result<(RepoLock, Option<u32>), StateError> {
        let path = data_dir(repo).join("run.lock");
        let io = |e| StateError::Io(path.display().to_string(), e);
        std::fs::create_dir_all(data_dir(repo)).map_err(io)?;
        let body = serde_json::to_vec(&LockBody {
            pid: std::process::id(),
            run_id: run_id.to_string(),
            started_ms: slopguard_planning::trace::now_ms(),
        })
        .unwrap_or_default();
        let mut stale = None;
        for _ in 0..3 {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    f.write_all(&body).map_err(io)?;
                    let _ = f.sync_all();
                    return Ok((RepoLock { path }, stale));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let text = std::fs::read(&path).unwrap_or_default();
                    match serde_json::from_slice::<LockBody>(&text) {
                        Ok(other) if pid_alive(other.pid) && other.pid != std::process::id() => {
                            return Err(StateError::Locked {
                                pid: other.pid,
                                run_id: other.run_id,
                                path: path.display().to_string(),
                            });
                        }
                        Ok(other) => {
                            stale = Some(other.pid);
                            let _ = std::fs::remove_file(&path);
                        }
                        Err(_) => {
                            // Empty or torn: a writer died between create and write. Give a live
                            // writer a moment, then take it over.
                            std::thread::sleep(std::time::Duration::from_millis(50));
                            let again = std::fs::read(&path).unwrap_or_default();
                            if again == text {
                                stale = Some(0);
                                let _ = std::fs::remove_file(&path);
                            }
                        }
                    }
                }
                Err(e) => return Err(io(e)),
            }
        }
        Err(StateError::Io(
            path.display().to_string(),
            std::io::Error::other("could not take the run lock"),
        ))
    }
}

impl Drop for RepoLock {
    fn drop(&mut self) {
        if let Ok(text) = std::fs::read(&self.path)
            && let Ok(body) = serde_json::from_slice::<LockBody>(&text)
            && body.pid == std::process::id()
        {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_save_load_roundtrip() {
        let dir = tempfile::tempdir().unwrap();
        let p = state_path(dir.path(), "r1");
        let mut st = RunState {
            run: RunRecord {
                run_id: "r1".into(),
                ..Default::default()
            },
            version: STATE_VERSION,
            max_attempts: 3,
            ..Default::default()
        };
        st.set_plan(Plan {
            tasks: vec![slopguard_planning::plan::Task {
                id: "T001".into(),
                title: "t".into(),
                priority: 1,
                description: String::new(),
                subtasks: vec![slopguard_planning::plan::Subtask {
                    id: "T001-S01".into(),
                    title: "s".into(),
                    description: String::new(),
                    file_hints: vec!["a.py".into()],
                    action: slopguard_planning::plan::Action::Modify,
                }],
            }],
        });
        save(&p, &st).unwrap();
        let back = load(&p).unwrap();
        assert_eq!(back, st);
        assert_eq!(back.first_unfinished().as_deref(), Some("T001-S01"));
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(p.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1);
        assert_eq!(latest_unfinished(dir.path()).unwrap().run.run_id, "r1");
    }

    #[test]
    fn lock_blocks_live_and_takes_over_stale() {
        let dir = tempfile::tempdir().unwrap();
        let (lock, stale) = RepoLock::acquire(dir.path(), "a").unwrap();
        assert!(stale.is_none());
        // Same process again: treated as ours (re-entrant for resume in-process).
        drop(lock);
        // A live foreign pid (our parent) holds it.
        let lock_path = data_dir(dir.path()).join("run.lock");
        let parent = std::os::unix::process::parent_id();
        std::fs::write(
            &lock_path,
            format!(r#"{{"pid":{parent},"run_id":"x","started_ms":0}}"#),
        )
        .unwrap();
        assert!(matches!(
            RepoLock::acquire(dir.path(), "b"),
            Err(StateError::Locked { .. })
        ));
        // A dead pid: stale, taken over.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        std::fs::write(
            &lock_path,
            format!(r#"{{"pid":{dead},"run_id":"x","started_ms":0}}"#),
        )
        .unwrap();
        let (lock, stale) = RepoLock::acquire(dir.path(), "c").unwrap();
        assert_eq!(stale, Some(dead));
        drop(lock);
        assert!(!lock_path.exists());
    }

    #[test]
    fn run_ids_look_like_dates() {
        let id = new_run_id();
        assert_eq!(id.len(), "20261121-142800-ab12".len(), "{id}");
        assert_eq!(civil(0), (1970, 1, 1, 0, 0, 0));
        assert_eq!(civil(1_763_735_280).0, 2025);
    }
}
