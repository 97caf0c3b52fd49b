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
        for s in sources_for_test(view, tf) {
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
            let name = crate::worker::context::short_name(id).to_lowercase();
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
mod tests {
    use super::*;
    use slopguard_store::failure_memory::failure_memory;
    use slopguard_store::{FailureMode, ObservationRow, Outcome};
    use slopguard_toolchain::MemoryView;

    fn st(id: &str, title: &str, hints: &[&str]) -> Subtask {
        Subtask {
            id: id.into(),
            title: title.into(),
            description: String::new(),
            file_hints: hints.iter().map(|s| s.to_string()).collect(),
            action: Action::Modify,
        }
    }

    fn task(id: &str, subtasks: Vec<Subtask>) -> Task {
        Task {
            id: id.into(),
            title: format!("task {id}"),
            priority: 2,
            description: String::new(),
            subtasks,
        }
    }

    fn metric(name: &str, status: Status, details: &[&str]) -> Metric {
        Metric {
            name: name.into(),
            title: name.into(),
            score: Some(if status == Status::Fail { 0.2 } else { 0.9 }),
            status,
            weight: 1.0,
            details: details.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn view() -> MemoryView {
        MemoryView::from_pairs(&[
            ("calc/__init__.py", ""),
            ("calc/ops.py", "def sub(a, b): return a + b\n"),
            ("tests/test_ops.py", "from calc.ops import sub\n"),
            ("README.md", "# calc"),
            ("docs/guide.md", ""),
            (".github/workflows/ci.yml", ""),
        ])
    }

    fn failing() -> Vec<FailingTest> {
        vec![FailingTest {
            id: "tests/test_ops.py::test_sub".into(),
            file: Some("tests/test_ops.py".into()),
        }]
    }

    #[test]
    fn failing_tests_first_prepends_t000_when_planner_ignores_failing_test() {
        let plan = Plan {
            tasks: vec![task(
                "T001",
                vec![st("T001-S01", "Add CI", &[".github/workflows/ci.yml"])],
            )],
        };
        let tr = metric("test_results", Status::Fail, &["1 failed"]);
        let (out, ev) = failing_tests_first(plan, Some(&tr), &failing(), &view());
        assert_eq!(out.tasks.len(), 2);
        let t0 = &out.tasks[0];
        assert_eq!((t0.id.as_str(), t0.priority), ("T000", 1));
        assert_eq!(t0.subtasks[0].file_hints, vec!["calc/ops.py"]);
        assert!(
            t0.subtasks[0]
                .description
                .contains("tests/test_ops.py::test_sub")
        );
        let ev = ev.unwrap();
        assert_eq!(ev.event, "plan.real_bug_synthesized");
        assert_eq!(ev.data["source_files"][0], "calc/ops.py");
    }

    #[test]
    fn failing_tests_first_respects_a_plan_about_the_failing_tests_and_puts_it_first() {
        let about = task(
            "T002",
            vec![st("T002-S01", "Make test_sub pass", &["calc/ops.py"])],
        );
        let other = task("T001", vec![st("T001-S01", "Add README", &["README.md"])]);
        let plan = Plan {
            tasks: vec![other.clone(), about.clone()],
        };
        let tr = metric("test_results", Status::Fail, &[]);
        let (out, ev) = failing_tests_first(plan, Some(&tr), &failing(), &view());
        assert_eq!(out.tasks, vec![about, other]);
        assert!(ev.is_none());
        // A subtask that only names the file is not about the failing tests: T000 comes first.
        let named = Plan {
            tasks: vec![task(
                "T001",
                vec![st("T001-S01", "Create ops module", &["calc/ops.py"])],
            )],
        };
        let (out, ev) = failing_tests_first(named, Some(&tr), &failing(), &view());
        assert_eq!(out.tasks[0].id, "T000");
        assert!(ev.is_some());
        // Passing tests: nothing to do either.
        let ok = metric("test_results", Status::Pass, &[]);
        let (_, ev) = failing_tests_first(Plan::default(), Some(&ok), &failing(), &view());
        assert!(ev.is_none());
    }

    #[test]
    fn failing_tests_first_caps_subtasks() {
        let mut pairs: Vec<(String, String)> = (0..6)
            .map(|i| (format!("m{i}.py"), String::new()))
            .collect();
        let imports: String = (0..6).map(|i| format!("import m{i}\n")).collect();
        pairs.push(("tests/test_all.py".into(), imports));
        let v = MemoryView(pairs.into_iter().collect());
        let f = vec![FailingTest {
            id: "t".into(),
            file: Some("tests/test_all.py".into()),
        }];
        let tr = metric("test_results", Status::Fail, &[]);
        let (out, _) = failing_tests_first(Plan::default(), Some(&tr), &f, &v);
        assert_eq!(out.tasks[0].subtasks.len(), MAX_SYNTH_SUBTASKS);
    }

    #[test]
    fn retarget_test_only_hints_maps_test_only_hints_to_sources() {
        let plan = Plan {
            tasks: vec![task(
                "T001",
                vec![
                    st("T001-S01", "Fix subtraction", &["tests/test_ops.py"]),
                    st("T001-S02", "Add tests for mul", &["tests/test_ops.py"]),
                    st(
                        "T001-S03",
                        "Fix both",
                        &["tests/test_ops.py", "calc/ops.py"],
                    ),
                ],
            )],
        };
        let (out, ev) = retarget_test_only_hints(plan, &view());
        let s = &out.tasks[0].subtasks;
        assert_eq!(s[0].file_hints, vec!["calc/ops.py"]);
        assert_eq!(
            s[1].file_hints,
            vec!["tests/test_ops.py"],
            "adding tests keeps the test file"
        );
        assert_eq!(s[2].file_hints, vec!["tests/test_ops.py", "calc/ops.py"]);
        let ev = ev.unwrap();
        assert_eq!(ev.event, "plan.occam_rewrite");
        assert_eq!(ev.data["rewrites"][0]["before"][0], "tests/test_ops.py");
        assert_eq!(ev.data["rewrites"][0]["after"][0], "calc/ops.py");
    }

    #[test]
    fn a_subtask_that_would_weaken_a_test_is_rewritten_to_fix_the_code() {
        let plan = Plan {
            tasks: vec![task(
                "T001",
                vec![
                    st(
                        "T001-S01",
                        "Remove `assert` statement in `test_sub`",
                        &["tests/test_ops.py"],
                    ),
                    st("T001-S02", "Skip the flaky tests", &["tests/test_ops.py"]),
                ],
            )],
        };
        let (out, ev) = retarget_test_only_hints(plan, &view());
        let s = &out.tasks[0].subtasks;
        assert_eq!(s[0].title, "Make `test_sub` pass by fixing the code");
        assert!(s[0].description.contains("Tests are never weakened"));
        assert_eq!(s[0].file_hints, vec!["calc/ops.py"]);
        assert_eq!(s[1].title, "Fix the code so the failing tests pass");
        let ev = ev.unwrap();
        assert_eq!(
            ev.data["rewrites"][0]["title_before"],
            "Remove `assert` statement in `test_sub`"
        );
        // A subtask that does not weaken tests keeps its title.
        let plan = Plan {
            tasks: vec![task(
                "T001",
                vec![st("T001-S01", "Fix subtraction", &["tests/test_ops.py"])],
            )],
        };
        let (out, _) = retarget_test_only_hints(plan, &view());
        assert_eq!(out.tasks[0].subtasks[0].title, "Fix subtraction");
    }

    #[test]
    fn drop_readme_only_drops_readme_only_subtasks() {
        let plan = Plan {
            tasks: vec![
                task(
                    "T001",
                    vec![st("T001-S01", "Update README", &["README.md"])],
                ),
                task(
                    "T002",
                    vec![
                        st("T002-S01", "Fix", &["calc/ops.py"]),
                        st("T002-S02", "Document", &["README.md", "calc/ops.py"]),
                        st("T002-S03", "Readme badge", &["readme.rst"]),
                    ],
                ),
            ],
        };
        let docs_ok = metric("docs", Status::Warn, &["no CHANGELOG"]);
        let (out, ev) = drop_readme_only(plan.clone(), Some(&docs_ok));
        assert_eq!(out.tasks.len(), 1, "T001 emptied and removed");
        let ids: Vec<&str> = out.tasks[0]
            .subtasks
            .iter()
            .map(|s| s.id.as_str())
            .collect();
        assert_eq!(ids, vec!["T002-S01", "T002-S02"]);
        let ev = ev.unwrap();
        assert_eq!(ev.event, "plan.readme_banished");
        assert_eq!(ev.data["dropped"].as_array().unwrap().len(), 2);
        assert_eq!(ev.data["tasks_dropped"], 1);
        // Docs metric failing AND citing the README: kept.
        let docs_bad = metric(
            "docs",
            Status::Fail,
            &["README missing: no entry documentation"],
        );
        let (out, ev) = drop_readme_only(plan.clone(), Some(&docs_bad));
        assert_eq!(out, plan);
        assert!(ev.is_none());
        // Failing but not citing the README: still dropped.
        let docs_other = metric("docs", Status::Fail, &["no docs/ directory"]);
        let (out, _) = drop_readme_only(plan, Some(&docs_other));
        assert_eq!(out.subtask_count(), 2);
    }

    fn row(id: i64, repo: &str, outcome: Outcome, files: &[&str]) -> ObservationRow {
        ObservationRow {
            id,
            ts: String::new(),
            ts_ms: id * 1000,
            repo: repo.into(),
            run_id: "r".into(),
            agent: "slopguard".into(),
            subtask_id: None,
            model: None,
            branch: None,
            commit_sha: None,
            outcome,
            touched_files: files.iter().map(|s| s.to_string()).collect(),
            failure_modes: vec![FailureMode::AstDiff],
            confidence: None,
            extra: None,
        }
    }

    #[test]
    fn g9_drops_subtask_failed_three_times_in_this_repo_only() {
        let rows = vec![
            row(1, "this", Outcome::Fail, &["calc/ops.py"]),
            row(2, "this", Outcome::Fail, &["calc/ops.py"]),
            row(3, "this", Outcome::Fail, &["calc/ops.py"]),
            row(4, "other", Outcome::Fail, &["src/util.py"]),
            row(5, "other", Outcome::Fail, &["src/util.py"]),
            row(6, "other", Outcome::Fail, &["src/util.py"]),
        ];
        let memory = failure_memory("this", &rows);
        let plan = Plan {
            tasks: vec![
                task("T001", vec![st("T001-S01", "Fix ops", &["calc/ops.py"])]),
                task(
                    "T002",
                    vec![
                        st("T002-S01", "Util", &["src/util.py"]),
                        st("T002-S02", "Ops again", &["./calc/ops.py", "x.py"]),
                    ],
                ),
            ],
        };
        let (out, ev) = drop_repeated_failures(plan, &memory, 2);
        assert_eq!(out.tasks.len(), 1);
        assert_eq!(out.tasks[0].subtasks.len(), 1);
        assert_eq!(
            out.tasks[0].subtasks[0].id, "T002-S01",
            "another repo's failures do not count"
        );
        let ev = ev.unwrap();
        assert_eq!(ev.event, "plan.occam_filter");
        assert_eq!(ev.data["total_subtasks"], 3);
        assert_eq!(ev.data["kept_subtasks"], 1);
        assert_eq!(ev.data["tasks_dropped"], 1);
        assert_eq!(ev.data["threshold"], 2);
    }

    #[test]
    fn g9_below_threshold_keeps_everything() {
        let memory = failure_memory("this", &[row(1, "this", Outcome::Fail, &["a.py"])]);
        let plan = Plan {
            tasks: vec![task("T001", vec![st("T001-S01", "A", &["a.py"])])],
        };
        let (out, ev) = drop_repeated_failures(plan.clone(), &memory, 2);
        assert_eq!(out, plan);
        assert!(ev.is_none());
    }

    #[test]
    fn scope_docs_keeps_doc_only_subtasks() {
        let plan = Plan {
            tasks: vec![task(
                "T001",
                vec![
                    st("T001-S01", "Guide", &["docs/guide.md"]),
                    st("T001-S02", "Code", &["calc/ops.py"]),
                    st("T001-S03", "Mixed", &["docs/a.md", "src/x.rs"]),
                    st("T001-S04", "Nothing", &[]),
                ],
            )],
        };
        let (same, ev) = scope_filter(plan.clone(), None);
        assert_eq!(same, plan);
        assert!(ev.is_none());
        let (out, ev) = scope_filter(plan, Some(Scope::Docs));
        assert_eq!(out.subtask_count(), 1);
        assert_eq!(out.tasks[0].subtasks[0].id, "T001-S01");
        let ev = ev.unwrap();
        assert_eq!(ev.event, "scope.plan_filtered");
        assert_eq!(ev.data["dropped"].as_array().unwrap().len(), 3);
    }

    #[test]
    fn readme_and_doc_predicates() {
        assert!(is_readme("README.md") && is_readme("docs/Readme.rst") && is_readme("README"));
        assert!(!is_readme("READMEish.py"));
        assert!(!is_readme("src/readme_parser.rs"));
        assert!(is_doc("docs/x.png") && is_doc("CHANGELOG.md") && !is_doc("src/a.py"));
        assert_eq!("docs".parse::<Scope>(), Ok(Scope::Docs));
        assert!("code".parse::<Scope>().is_err());
    }
}
