//! G9 failure memory: which files keep failing in a repo, so the planner stops re-planning them.
//!
//! Pure functions over agent-log rows. Two windows, as in the seeds: a narrow one
//! ([`Window::NARROW`], 24 h / 20 rows) for the planner prompt's "prior runs" block and a wide one
//! ([`Window::WIDE`], 7 d / 200 rows) for the plan filter ([`filter_plan`]).
//!
//! Counting: rows are taken oldest first; each failed row (`fail`, `aborted`, or `partial` with
//! failure modes) adds one per failure mode (or one `unknown` when it names none) to every file it
//! touched; a later `success` touching a file clears that file's count (decay on success). Only
//! rows of the asked repo count: another repo's failures never block this one.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::types::{FailureMode, LogQuery, ObservationRow, Outcome};

/// Default drop threshold: a subtask is dropped when one of its files failed this many times.
pub const DEFAULT_THRESHOLD: u32 = 2;

/// A look-back window of the agent log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    /// How far back, in milliseconds.
    pub since_ms: i64,
    /// At most this many rows (newest first).
    pub limit: u32,
}

impl Window {
    /// The prompt window: 24 hours, 20 rows (`since=24h&limit=20`).
    pub const NARROW: Window = Window {
        since_ms: 24 * 3_600_000,
        limit: 20,
    };
    /// The filter window: 7 days, 200 rows (`since=7d&limit=200`).
    pub const WIDE: Window = Window {
        since_ms: 7 * 24 * 3_600_000,
        limit: 200,
    };

    /// The agent-log query for this window, scoped to `repo`, relative to `now_ms`.
    pub fn query(&self, repo: &str, now_ms: i64) -> LogQuery {
        LogQuery {
            repo: Some(repo.to_owned()),
            since_ms: Some(now_ms.saturating_sub(self.since_ms)),
            limit: Some(self.limit),
            run_id: None,
            agent: None,
        }
    }

    /// The gateway's `since` parameter for this window (`24h`, `7d`, or seconds).
    pub fn since_param(&self) -> String {
        if self.since_ms % 86_400_000 == 0 && self.since_ms >= 2 * 86_400_000 {
            format!("{}d", self.since_ms / 86_400_000)
        } else if self.since_ms % 3_600_000 == 0 {
            format!("{}h", self.since_ms / 3_600_000)
        } else {
            format!("{}s", self.since_ms / 1000)
        }
    }
}

/// Failure counts per file and failure mode for one repo, after decay.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureMemory {
    /// The repo the counts are for.
    pub repo: String,
    /// path -> failure mode -> count (paths normalised: no leading `./`, forward slashes).
    pub counts: BTreeMap<String, BTreeMap<FailureMode, u32>>,
}

/// Normalises a repo-relative path for matching (`./a\\b` -> `a/b`): the shared lexical
/// normal form, or the trimmed text itself for a path that climbs above the root.
pub fn normalize_path(p: &str) -> String {
    let p = p.trim();
    slopguard_lang::paths::normalize(p).unwrap_or_else(|| p.to_owned())
}

/// Builds the failure memory of `repo` from agent-log rows (any order; rows of other repos are
/// ignored).
pub fn failure_memory(repo: &str, rows: &[ObservationRow]) -> FailureMemory {
    let mut ordered: Vec<&ObservationRow> = rows.iter().filter(|r| r.repo == repo).collect();
    ordered.sort_by_key(|r| (r.ts_ms, r.id));
    let mut counts: BTreeMap<String, BTreeMap<FailureMode, u32>> = BTreeMap::new();
    for row in ordered {
        let failed = match row.outcome {
            Outcome::Success => {
                for f in &row.touched_files {
                    counts.remove(&normalize_path(f));
                }
                continue;
            }
            Outcome::Skipped => false,
            Outcome::Fail | Outcome::Aborted => true,
            Outcome::Partial => !row.failure_modes.is_empty(),
        };
        if !failed {
            continue;
        }
        let modes: &[FailureMode] = if row.failure_modes.is_empty() {
            &[FailureMode::Unknown]
        } else {
            &row.failure_modes
        };
        for f in &row.touched_files {
            let entry = counts.entry(normalize_path(f)).or_default();
            for m in modes {
                *entry.entry(*m).or_insert(0) += 1;
            }
        }
    }
    FailureMemory {
        repo: repo.to_owned(),
        counts,
    }
}

impl FailureMemory {
    /// Failures recorded against a path (all modes summed).
    pub fn failures(&self, path: &str) -> u32 {
        self.counts
            .get(&normalize_path(path))
            .map(|m| m.values().sum())
            .unwrap_or(0)
    }

    /// Lines for the planner prompt, worst files first, at most `max_lines`:
    /// `src/a.py: 3 failures (ast_diff x2, syntax_invalid x1)`.
    pub fn prompt_lines(&self, max_lines: usize) -> Vec<String> {
        let mut items: Vec<(&String, u32, &BTreeMap<FailureMode, u32>)> = self
            .counts
            .iter()
            .map(|(p, m)| (p, m.values().sum::<u32>(), m))
            .filter(|(_, n, _)| *n > 0)
            .collect();
        items.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        items
            .into_iter()
            .take(max_lines)
            .map(|(p, n, modes)| {
                let detail = modes
                    .iter()
                    .map(|(m, c)| format!("{m} x{c}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let noun = if n == 1 { "failure" } else { "failures" };
                format!("{p}: {n} {noun} ({detail})")
            })
            .collect()
    }
}

/// A plan subtask as G9 sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanSubtaskRef {
    /// Task id (e.g. `T001`).
    pub task_id: String,
    /// Subtask id (e.g. `T001-S02`).
    pub subtask_id: String,
    /// The files the subtask expects to touch.
    pub file_hints: Vec<String>,
}

/// A subtask G9 drops, with why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DroppedSubtask {
    /// Task id.
    pub task_id: String,
    /// Subtask id.
    pub subtask_id: String,
    /// The hinted files at or over the threshold, with their failure count.
    pub failing_files: Vec<(String, u32)>,
    /// Human-readable reason (for the trace event and the PR body).
    pub reason: String,
}

/// Which subtasks to drop: those with at least one file hint whose failure count reaches
/// `threshold` (use [`DEFAULT_THRESHOLD`]). A threshold of 0 drops nothing. Order follows `plan`.
pub fn filter_plan(
    plan: &[PlanSubtaskRef],
    memory: &FailureMemory,
    threshold: u32,
) -> Vec<DroppedSubtask> {
    if threshold == 0 {
        return Vec::new();
    }
    let mut dropped = Vec::new();
    for st in plan {
        let failing: Vec<(String, u32)> = st
            .file_hints
            .iter()
            .map(|h| (normalize_path(h), memory.failures(h)))
            .filter(|(_, n)| *n >= threshold)
            .collect();
        if failing.is_empty() {
            continue;
        }
        let files = failing
            .iter()
            .map(|(p, n)| {
                let modes = memory
                    .counts
                    .get(p)
                    .map(|m| m.keys().map(|k| k.as_str()).collect::<Vec<_>>().join("/"))
                    .unwrap_or_default();
                format!("{p} ({n}x: {modes})")
            })
            .collect::<Vec<_>>()
            .join(", ");
        dropped.push(DroppedSubtask {
            task_id: st.task_id.clone(),
            subtask_id: st.subtask_id.clone(),
            reason: format!(
                "G9: failed {threshold}+ times recently in {}: {files}",
                if memory.repo.is_empty() {
                    "this repo"
                } else {
                    memory.repo.as_str()
                }
            ),
            failing_files: failing,
        });
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(
        id: i64,
        repo: &str,
        outcome: Outcome,
        files: &[&str],
        modes: &[FailureMode],
    ) -> ObservationRow {
        ObservationRow {
            id,
            ts: String::new(),
            ts_ms: id * 1000,
            repo: repo.into(),
            run_id: "r".into(),
            agent: "worker".into(),
            subtask_id: None,
            model: None,
            branch: None,
            commit_sha: None,
            outcome,
            touched_files: files.iter().map(|s| s.to_string()).collect(),
            failure_modes: modes.to_vec(),
            confidence: None,
            extra: None,
        }
    }

    fn plan() -> Vec<PlanSubtaskRef> {
        vec![
            PlanSubtaskRef {
                task_id: "T1".into(),
                subtask_id: "T1-S1".into(),
                file_hints: vec!["./src/a.py".into()],
            },
            PlanSubtaskRef {
                task_id: "T1".into(),
                subtask_id: "T1-S2".into(),
                file_hints: vec!["src/b.py".into(), "README.md".into()],
            },
        ]
    }

    #[test]
    fn counts_and_filters_at_threshold() {
        let rows = vec![
            row(
                1,
                "repo",
                Outcome::Fail,
                &["src/a.py"],
                &[FailureMode::AstDiff],
            ),
            row(
                2,
                "repo",
                Outcome::Fail,
                &["src/a.py"],
                &[FailureMode::SyntaxInvalid],
            ),
            row(3, "repo", Outcome::Fail, &["src/b.py"], &[]),
        ];
        let mem = failure_memory("repo", &rows);
        assert_eq!(mem.failures("src/a.py"), 2);
        assert_eq!(mem.failures("src/b.py"), 1);
        let dropped = filter_plan(&plan(), &mem, DEFAULT_THRESHOLD);
        assert_eq!(dropped.len(), 1);
        assert_eq!(dropped[0].subtask_id, "T1-S1");
        assert!(
            dropped[0].reason.contains("src/a.py"),
            "{}",
            dropped[0].reason
        );
        assert_eq!(
            mem.prompt_lines(5)[0],
            "src/a.py: 2 failures (ast_diff x1, syntax_invalid x1)"
        );
    }

    #[test]
    fn later_success_decays() {
        let rows = vec![
            row(3, "repo", Outcome::Success, &["src/a.py"], &[]),
            row(
                1,
                "repo",
                Outcome::Fail,
                &["src/a.py"],
                &[FailureMode::AstDiff],
            ),
            row(
                2,
                "repo",
                Outcome::Fail,
                &["src/a.py"],
                &[FailureMode::AstDiff],
            ),
        ];
        let mem = failure_memory("repo", &rows);
        assert_eq!(mem.failures("src/a.py"), 0);
        assert!(filter_plan(&plan(), &mem, 2).is_empty());
    }

    #[test]
    fn other_repo_never_blocks() {
        let rows = vec![
            row(
                1,
                "other",
                Outcome::Fail,
                &["src/a.py"],
                &[FailureMode::AstDiff],
            ),
            row(
                2,
                "other",
                Outcome::Fail,
                &["src/a.py"],
                &[FailureMode::AstDiff],
            ),
        ];
        let mem = failure_memory("repo", &rows);
        assert!(filter_plan(&plan(), &mem, 2).is_empty());
        assert!(!filter_plan(&plan(), &failure_memory("other", &rows), 2).is_empty());
    }

    #[test]
    fn skipped_and_clean_partial_do_not_count() {
        let rows = vec![
            row(1, "repo", Outcome::Skipped, &["src/a.py"], &[]),
            row(2, "repo", Outcome::Partial, &["src/a.py"], &[]),
            row(3, "repo", Outcome::Aborted, &["src/a.py"], &[]),
        ];
        assert_eq!(failure_memory("repo", &rows).failures("src/a.py"), 1);
        assert!(filter_plan(&plan(), &failure_memory("repo", &rows), 0).is_empty());
    }

    #[test]
    fn windows() {
        assert_eq!(Window::NARROW.since_param(), "24h");
        assert_eq!(Window::WIDE.since_param(), "7d");
        let q = Window::WIDE.query("r", 1_000_000_000);
        assert_eq!(q.limit, Some(200));
        assert_eq!(q.since_ms, Some(1_000_000_000 - 7 * 86_400_000));
    }
}
