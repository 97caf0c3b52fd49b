//! The deterministic post-plan processors, in pipeline order (the seeds' names, which the trace
//! events keep, in parentheses):
//!
//! 0. [`drop_existing_creates`]: subtasks that would create files which already exist are
//!    dropped (`plan.create_existing_dropped`).
//! 1. [`failing_tests_first`] (Layer-A): failing tests that no task is about get a priority-1
//!    `T000` that fixes the source under test (`plan.real_bug_synthesized`); a task that is
//!    about them moves to the front.
//! 2. [`retarget_test_only_hints`] (Layer-2): subtasks whose hints are only test files get the
//!    sources those tests import (`plan.occam_rewrite`).
//! 3. [`drop_readme_only`] (Layer-B): README-only subtasks are dropped unless the docs metric
//!    fails and cites the README (`plan.readme_banished`).
//! 4. [`drop_repeated_failures`] (G9): subtasks whose files failed `threshold`+ times recently in
//!    this repository are dropped (`plan.occam_filter`).
//! 5. [`scope_filter`]: `--scope docs` keeps doc-only subtasks (`scope.plan_filtered`).
//!
//! Each is a pure function `(Plan, inputs) -> (Plan, Option<TraceEvent>)`; [`run_all`] chains
//! them and emits the events.

use serde_json::json;
use slopguard_store::failure_memory::{FailureMemory, PlanSubtaskRef, filter_plan};

use super::{Action, Plan, Subtask, Task};
use crate::analysis::{AnalysisReport, FailingTest, Metric, Status, is_test_file};
use crate::trace::{Trace, TraceEvent};
use slopguard_toolchain::{FileView, sources_for_test};

/// At most this many subtasks in a synthesised T000.
pub const MAX_SYNTH_SUBTASKS: usize = 4;

/// A vertical that narrows the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Documentation only: `*.md`, `*.mdx`, `*.rst`, `*.txt`, `*.adoc`, `docs/**`.
    Docs,
}

impl std::str::FromStr for Scope {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "docs" => Ok(Scope::Docs),
            other => Err(format!("unknown scope {other:?} (known: docs)")),
        }
    }
}

fn event(name: &str, data: serde_json::Value) -> TraceEvent {
    TraceEvent::new("planning", name, data)
}

/// Layer-A in the seeds: when tests fail and no task's hints touch the sources under those tests, prepend
/// `T000` (priority 1) with one subtask per source file (at most [`MAX_SYNTH_SUBTASKS`]).
/// Does nothing when the planner already covers a mapped source, or when no source can be
/// mapped (hinting only the tests would invite the worker to weaken them).
pub fn failing_tests_first(
    plan: Plan,
    test_results: Option<&Metric>,
    failing: &[FailingTest],
    view: &dyn FileView,
) -> (Plan, Option<TraceEvent>) {
    if test_results.is_none_or(|m| m.status != Status::Fail) || failing.is_empty() {
        return (plan, None);
    }
    let mut test_files: Vec<String> = failing.iter().filter_map(|f| f.file.clone()).collect();
    test_files.sort();
    test_files.dedup();
    let mut sources: Vec<String> = Vec::new();
    for tf in &test_files {
        if !is_test_file(tf) && view.exists(tf) {
            // Unit tests inside a source file (Rust `#[cfg(test)]`): that file is the source.
            sources.push(tf.clone());
        }
        let mut imported = sources_for_test(view, tf);
        // The file the test is named after first (`parser_test.go` tests `parser.go`): the
        // others are only what the test's package or imports make reachable.
        imported.sort_by_key(|s| !is_named_subject(tf, s));
        for s in imported {
            if !sources.contains(&s) {
                sources.push(s);
            }
        }
    }
    if sources.is_empty() {
        return (plan, None);
    }
    let failing_ids: std::collections::BTreeSet<String> =
        failing.iter().map(|f| f.id.clone()).collect();
    if let Some(pos) = plan.tasks.iter().position(|t| {
        t.subtasks
            .iter()
            .any(|s| is_about_failing_tests(s, &failing_ids))
    }) {
        // The planner has a task about the failing tests: it goes first.
        let mut plan = plan;
        if pos > 0 {
            let task = plan.tasks.remove(pos);
            plan.tasks.insert(0, task);
        }
        return (plan, None);
    }
    let ids_for = |src: &str| -> Vec<String> {
        failing
            .iter()
            .filter(|f| {
                f.file.as_deref().is_some_and(|tf| {
                    tf == src || sources_for_test(view, tf).iter().any(|s| s == src)
                })
            })
            .map(|f| f.id.clone())
            .collect()
    };
    let subtasks: Vec<Subtask> = sources
        .iter()
        .take(MAX_SYNTH_SUBTASKS)
        .enumerate()
        .map(|(i, src)| {
            let ids = ids_for(src);
            let tests_text = if ids.is_empty() {
                "the failing tests".to_string()
            } else {
                ids.join(", ")
            };
            Subtask {
                id: format!("T000-S{:02}", i + 1),
                title: format!("Fix the bug in {src} behind the failing tests"),
                description: format!(
                    "These tests fail: {tests_text}. Read the tests ({}) and fix {src} so \
                     they pass. Do not change the tests.",
                    test_files.join(", ")
                ),
                file_hints: vec![src.clone()],
                action: Action::Modify,
            }
        })
        .collect();
    let task = Task {
        id: "T000".into(),
        title: "Fix the code behind the failing tests".into(),
        priority: 1,
        description: format!(
            "{} failing tests; the plan did not touch their sources.",
            failing.len()
        ),
        subtasks,
    };
    let ev = event(
        "plan.real_bug_synthesized",
        json!({
            "failing_tests": failing.iter().map(|f| &f.id).collect::<Vec<_>>(),
            "test_files": test_files,
            "source_files": sources,
        }),
    );
    let mut plan = plan;
    plan.tasks.retain(|t| t.id != "T000");
    plan.tasks.insert(0, task);
    (plan, Some(ev))
}

/// Whether `source` is the file `test_file` is named after, by the usual conventions:
/// `parser_test.go`, `test_parser.py`, `parser.test.js`, `parser_spec.rb`, `ParserTest.java`
/// all test `parser` (compared without case), and so does Python's private module
/// `_parser.py` (a package's implementation behind its `__init__.py`).
fn is_named_subject(test_file: &str, source: &str) -> bool {
    fn stem(path: &str) -> String {
        let name = path.rsplit('/').next().unwrap_or(path);
        name.split('.').next().unwrap_or(name).to_ascii_lowercase()
    }
    let test = stem(test_file);
    let file_name = test_file.rsplit('/').next().unwrap_or(test_file);
    let subject = if file_name.contains(".test.") || file_name.contains(".spec.") {
        // `parser.test.js`: the subject is all before the first dot.
        test.as_str()
    } else {
        ["test_", "spec_"]
            .iter()
            .find_map(|p| test.strip_prefix(p))
            .or_else(|| {
                ["_test", "_spec", "test", "tests", "spec"]
                    .iter()
                    .find_map(|s| test.strip_suffix(s))
            })
            .unwrap_or(&test)
    };
    let source = stem(source);
    !subject.is_empty() && (source == subject || source.strip_prefix('_') == Some(subject))
}

/// Whether a subtask is about the failing tests `failing` (ids): [`failing_tests_first`]'s own `T000`, or a
/// title or description that names one of them or says it fixes failing tests.
pub fn is_about_failing_tests(
    subtask: &Subtask,
    failing: &std::collections::BTreeSet<String>,
) -> bool {
    if failing.is_empty() {
        return false;
    }
    let text = format!("{} {}", subtask.title, subtask.description).to_lowercase();
    subtask.id.starts_with("T000")
        || text.contains("failing test")
        || text.contains("tests fail")
        || !tests_named_by(subtask, failing).is_empty()
}

/// The tests of `ids` whose short name (`test_quote` of `tests/t.py::T::test_quote`, at least
/// four characters) the subtask's title or description names.
pub fn tests_named_by(subtask: &Subtask, ids: &std::collections::BTreeSet<String>) -> Vec<String> {
    let text = format!("{} {}", subtask.title, subtask.description).to_lowercase();
    ids.iter()
        .filter(|id| {
            let name = slopguard_toolchain::test_function_name(id).to_lowercase();
            name.len() >= 4 && text.contains(&name)
        })
        .cloned()
        .collect()
}

/// Subtasks that would create files which already exist are dropped: the planner did not see
/// them (`plan.create_existing_dropped`).
pub fn drop_existing_creates(plan: Plan, view: &dyn FileView) -> (Plan, Option<TraceEvent>) {
    let mut plan = plan;
    let mut dropped = Vec::new();
    for t in &mut plan.tasks {
        t.subtasks.retain(|s| {
            let exists = s.action == Action::Create
                && !s.file_hints.is_empty()
                && s.file_hints.iter().all(|h| view.exists(h));
            if exists {
                dropped.push(
                    json!({"subtask_id": s.id, "title": s.title, "file_hints": s.file_hints}),
                );
            }
            !exists
        });
    }
    plan.tasks.retain(|t| !t.subtasks.is_empty());
    if dropped.is_empty() {
        return (plan, None);
    }
    (
        plan,
        Some(event(
            "plan.create_existing_dropped",
            json!({"subtasks": dropped}),
        )),
    )
}

fn adds_tests(st: &Subtask) -> bool {
    if st.action == Action::Create {
        return true;
    }
    let text = format!("{} {}", st.title, st.description).to_ascii_lowercase();
    text.contains("coverage")
        || [
            "add", "write", "create", "new", "increase", "improve", "extend",
        ]
        .iter()
        .any(|verb| {
            text.split(|c: char| !c.is_alphanumeric())
                .collect::<Vec<_>>()
                .windows(3)
                .any(|w| w[0] == *verb && (w[1].starts_with("test") || w[2].starts_with("test")))
        })
}

/// Whether a subtask asks to weaken tests: remove, skip or loosen an assertion or a test
/// (`Remove the assert in test_x`), as small planners do for a failing test.
fn weakens_tests(st: &Subtask) -> bool {
    const WEAKEN: [&str; 9] = [
        "remove",
        "delete",
        "skip",
        "comment out",
        "disable",
        "drop",
        "relax",
        "loosen",
        "ignore",
    ];
    const TESTS: [&str; 3] = ["assert", "test", "check"];
    let text = format!("{} {}", st.title, st.description).to_lowercase();
    WEAKEN.iter().any(|w| text.contains(w)) && TESTS.iter().any(|t| text.contains(t))
}

/// A test-weakening subtask (its hints now the sources its tests exercise) rewritten to fix
/// the code instead, naming the tests its title named so it stays about them.
fn fix_the_code_instead(st: &mut Subtask) {
    let named: Vec<String> = st
        .title
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with("test_") || w.starts_with("Test"))
        .map(|w| format!("`{w}`"))
        .collect();
    let asked = std::mem::take(&mut st.title);
    st.title = if named.is_empty() {
        "Fix the code so the failing tests pass".to_string()
    } else {
        format!("Make {} pass by fixing the code", named.join(", "))
    };
    st.description = format!(
        "The plan asked: \"{asked}\". Tests are never weakened: change the code they exercise \
         so they pass as written."
    );
}

/// Layer-2 in the seeds: a subtask whose hints are all test files (and that is not about adding tests) gets
/// its hints replaced by the sources those tests import.
pub fn retarget_test_only_hints(plan: Plan, view: &dyn FileView) -> (Plan, Option<TraceEvent>) {
    let mut plan = plan;
    let mut rewrites = Vec::new();
    for task in &mut plan.tasks {
        for st in &mut task.subtasks {
            if st.file_hints.is_empty()
                || !st.file_hints.iter().all(|h| is_test_file(h))
                || adds_tests(st)
            {
                continue;
            }
            let mut sources: Vec<String> = Vec::new();
            for h in &st.file_hints {
                for s in sources_for_test(view, h) {
                    if !sources.contains(&s) {
                        sources.push(s);
                    }
                }
            }
            if sources.is_empty() {
                continue;
            }
            let mut rewrite = json!({
                "subtask_id": st.id,
                "before": st.file_hints,
                "after": sources,
            });
            if weakens_tests(st) {
                rewrite["title_before"] = json!(st.title);
                fix_the_code_instead(st);
            }
            rewrites.push(rewrite);
            st.file_hints = sources;
        }
    }
    let ev =
        (!rewrites.is_empty()).then(|| event("plan.occam_rewrite", json!({"rewrites": rewrites})));
    (plan, ev)
}

/// Whether `hint` names a README (`README`, `README.md`, `docs/readme.rst`, ...).
pub fn is_readme(hint: &str) -> bool {
    let base = hint.rsplit('/').next().unwrap_or(hint).to_ascii_lowercase();
    base == "readme" || base.starts_with("readme.")
}

/// Layer-B in the seeds: drops subtasks whose hints are README files only, unless the docs metric fails and
/// its details cite the README. Tasks left empty are dropped.
pub fn drop_readme_only(plan: Plan, docs: Option<&Metric>) -> (Plan, Option<TraceEvent>) {
    let readme_cited = docs.is_some_and(|m| {
        m.status == Status::Fail
            && m.details
                .iter()
                .any(|d| d.to_ascii_lowercase().contains("readme"))
    });
    if readme_cited {
        return (plan, None);
    }
    let mut plan = plan;
    let mut dropped = Vec::new();
    for task in &mut plan.tasks {
        task.subtasks.retain(|st| {
            let only_readme =
                !st.file_hints.is_empty() && st.file_hints.iter().all(|h| is_readme(h));
            if only_readme {
                dropped.push(
                    json!({"subtask_id": st.id, "title": st.title, "file_hints": st.file_hints}),
                );
            }
            !only_readme
        });
    }
    let before = plan.tasks.len();
    plan.tasks.retain(|t| !t.subtasks.is_empty());
    let tasks_dropped = before - plan.tasks.len();
    let ev = (!dropped.is_empty()).then(|| {
        event(
            "plan.readme_banished",
            json!({"dropped": dropped, "tasks_dropped": tasks_dropped}),
        )
    });
    (plan, ev)
}

/// G9 in the seeds: drops subtasks whose hinted files failed `threshold`+ times recently in this repo (the
/// failure memory is per repo: another repo's failures never count), and tasks left empty.
pub fn drop_repeated_failures(
    plan: Plan,
    memory: &FailureMemory,
    threshold: u32,
) -> (Plan, Option<TraceEvent>) {
    let refs: Vec<PlanSubtaskRef> = plan
        .tasks
        .iter()
        .flat_map(|t| {
            t.subtasks.iter().map(|s| PlanSubtaskRef {
                task_id: t.id.clone(),
                subtask_id: s.id.clone(),
                file_hints: s.file_hints.clone(),
            })
        })
        .collect();
    let total = refs.len();
    let dropped = filter_plan(&refs, memory, threshold);
    if dropped.is_empty() {
        return (plan, None);
    }
    let mut plan = plan;
    for task in &mut plan.tasks {
        task.subtasks.retain(|s| {
            !dropped
                .iter()
                .any(|d| d.subtask_id == s.id && d.task_id == task.id)
        });
    }
    let before = plan.tasks.len();
    plan.tasks.retain(|t| !t.subtasks.is_empty());
    let ev = event(
        "plan.occam_filter",
        json!({
            "filtered_subtasks": dropped,
            "tasks_dropped": before - plan.tasks.len(),
            "kept_subtasks": plan.subtask_count(),
            "total_subtasks": total,
            "threshold": threshold,
        }),
    );
    (plan, Some(ev))
}

/// Whether `hint` is documentation for the docs scope.
pub fn is_doc(hint: &str) -> bool {
    let l = hint.to_ascii_lowercase();
    l.starts_with("docs/")
        || l.starts_with("doc/")
        || [".md", ".mdx", ".rst", ".txt", ".adoc"]
            .iter()
            .any(|e| l.ends_with(e))
}

/// Scope filter: with [`Scope::Docs`], keep only subtasks whose hints are all documentation
/// (a subtask without hints is dropped too: it could touch anything).
pub fn scope_filter(plan: Plan, scope: Option<Scope>) -> (Plan, Option<TraceEvent>) {
    let Some(Scope::Docs) = scope else {
        return (plan, None);
    };
    let mut plan = plan;
    let mut dropped = Vec::new();
    for task in &mut plan.tasks {
        task.subtasks.retain(|st| {
            let reason = if st.file_hints.is_empty() {
                Some("no file hints".to_string())
            } else {
                let non_doc: Vec<&String> = st.file_hints.iter().filter(|h| !is_doc(h)).collect();
                (!non_doc.is_empty()).then(|| {
                    format!(
                        "non-doc files: {}",
                        non_doc
                            .iter()
                            .map(|s| s.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })
            };
            if let Some(r) = &reason {
                dropped.push(json!({"subtask_id": st.id, "reason": r}));
            }
            reason.is_none()
        });
    }
    plan.tasks.retain(|t| !t.subtasks.is_empty());
    let ev = (!dropped.is_empty()).then(|| {
        event(
            "scope.plan_filtered",
            json!({"scope": "docs", "dropped": dropped}),
        )
    });
    (plan, ev)
}

/// With [`Scope::Docs`], keeps only the `docs` and `readme` metrics for the planner
/// (`scope.metrics_filtered`).
pub fn scope_metrics(
    mut report: AnalysisReport,
    scope: Option<Scope>,
) -> (AnalysisReport, Option<TraceEvent>) {
    let Some(Scope::Docs) = scope else {
        return (report, None);
    };
    let (kept, dropped): (Vec<Metric>, Vec<Metric>) = report
        .metrics
        .into_iter()
        .partition(|m| m.name == "docs" || m.name == "readme");
    let ev = event(
        "scope.metrics_filtered",
        json!({
            "kept": kept.iter().map(|m| &m.name).collect::<Vec<_>>(),
            "dropped": dropped.iter().map(|m| &m.name).collect::<Vec<_>>(),
        }),
    );
    report.metrics = kept;
    report.failing_tests.clear();
    (report, Some(ev))
}

/// Inputs of the post-processing chain.
pub struct PostContext<'a> {
    /// The analysis (test results, failing tests, docs metric).
    pub report: &'a AnalysisReport,
    /// The repository's files.
    pub view: &'a dyn FileView,
    /// The failure memory of this repo (wide window), if the store is available.
    pub memory: Option<&'a FailureMemory>,
    /// G9 threshold (default [`slopguard_store::failure_memory::DEFAULT_THRESHOLD`]).
    pub threshold: u32,
    /// Scope vertical.
    pub scope: Option<Scope>,
}

/// Runs every processor in the order above, emitting each trace event.
pub fn run_all(plan: Plan, ctx: &PostContext<'_>, trace: &Trace) -> Plan {
    let emit = |ev: Option<TraceEvent>| {
        if let Some(e) = ev {
            trace.emit(e);
        }
    };
    let (plan, ev) = drop_existing_creates(plan, ctx.view);
    emit(ev);
    let (plan, ev) = failing_tests_first(
        plan,
        ctx.report.metric("test_results"),
        &ctx.report.failing_tests,
        ctx.view,
    );
    emit(ev);
    let (plan, ev) = retarget_test_only_hints(plan, ctx.view);
    emit(ev);
    let (plan, ev) = drop_readme_only(plan, ctx.report.metric("docs"));
    emit(ev);
    let plan = match ctx.memory {
        Some(m) => {
            let (p, ev) = drop_repeated_failures(plan, m, ctx.threshold);
            emit(ev);
            p
        }
        None => plan,
    };
    let (plan, ev) = scope_filter(plan, ctx.scope);
    emit(ev);
    plan
}

#[cfg(test)]
mod tests;
