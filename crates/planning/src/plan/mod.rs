//! Planning: the task plan, the planner prompt and call, and the deterministic post-processors
//! ([`post`]): failing tests first, test-only hints retargeted, README-only and repeatedly
//! failing subtasks dropped, scope filter.

pub mod memory;
pub mod pipeline;
pub mod post;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use slopguard_fingerprint::Fingerprint;
use slopguard_llm::{BlockingClient, JsonReply, LlmClient, LlmError, Message, Role};

use crate::analysis::AnalysisReport;

/// What a subtask does to its files.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Change existing files.
    #[default]
    Modify,
    /// Add new files.
    Create,
    /// Remove files.
    Delete,
}

/// One unit of work for the worker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subtask {
    /// `T001-S01`.
    #[serde(default)]
    pub id: String,
    /// Short title.
    pub title: String,
    /// What to do, precisely.
    #[serde(default)]
    pub description: String,
    /// Repo-relative files the subtask expects to touch.
    #[serde(default)]
    pub file_hints: Vec<String>,
    /// Modify, create or delete.
    #[serde(default)]
    pub action: Action,
}

/// A task: a goal made of subtasks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Task {
    /// `T001`.
    #[serde(default)]
    pub id: String,
    /// Short title.
    pub title: String,
    /// 1 (highest) ..
    #[serde(default = "default_priority")]
    pub priority: u32,
    /// Why it matters.
    #[serde(default)]
    pub description: String,
    /// The subtasks, in order.
    #[serde(default)]
    pub subtasks: Vec<Subtask>,
}

fn default_priority() -> u32 {
    3
}

/// A task plan.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// Tasks, in execution order.
    pub tasks: Vec<Task>,
}

impl Plan {
    /// Number of subtasks.
    pub fn subtask_count(&self) -> usize {
        self.tasks.iter().map(|t| t.subtasks.len()).sum()
    }

    /// Gives tasks and subtasks stable ids (`T001`, `T001-S01`) where missing or duplicated,
    /// normalises file hints (no `./`, no leading `/`, forward slashes, deduplicated, empty ones
    /// dropped), drops repeated subtasks (same title and hints as an earlier one: small models
    /// loop) and drops tasks without subtasks.
    pub fn normalize(mut self) -> Self {
        let mut seen_subtasks: std::collections::BTreeSet<(String, Vec<String>)> =
            std::collections::BTreeSet::new();
        for task in &mut self.tasks {
            task.subtasks.retain(|st| {
                let mut hints: Vec<String> =
                    st.file_hints.iter().map(|h| normalize_hint(h)).collect();
                hints.sort();
                seen_subtasks.insert((st.title.trim().to_ascii_lowercase(), hints))
            });
        }
        self.tasks.retain(|t| !t.subtasks.is_empty());
        let mut seen = std::collections::BTreeSet::new();
        let mut next = 1;
        for task in &mut self.tasks {
            let id = task.id.trim().to_string();
            let valid = id.len() >= 2
                && id.starts_with('T')
                && id[1..].chars().all(|c| c.is_ascii_digit())
                && !seen.contains(&id);
            if !valid {
                while seen.contains(&format!("T{next:03}")) {
                    next += 1;
                }
                task.id = format!("T{next:03}");
            } else {
                task.id = id;
            }
            seen.insert(task.id.clone());
            for (i, st) in task.subtasks.iter_mut().enumerate() {
                st.id = format!("{}-S{:02}", task.id, i + 1);
                let mut hints = Vec::new();
                for h in &st.file_hints {
                    let n = normalize_hint(h);
                    if !n.is_empty() && !hints.contains(&n) {
                        hints.push(n);
                    }
                }
                st.file_hints = hints;
            }
        }
        self.tasks.retain(|t| !t.subtasks.is_empty());
        self
    }

    /// Human-readable plan.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for t in &self.tasks {
            s.push_str(&format!("{} [p{}] {}\n", t.id, t.priority, t.title));
            for st in &t.subtasks {
                let hints = if st.file_hints.is_empty() {
                    "(no files)".to_string()
                } else {
                    st.file_hints.join(", ")
                };
                s.push_str(&format!(
                    "  {} {:?} {}\n      files: {}\n",
                    st.id, st.action, st.title, hints
                ));
                if !st.description.is_empty() {
                    s.push_str(&format!("      {}\n", st.description));
                }
            }
        }
        if s.is_empty() {
            s.push_str("(empty plan)\n");
        }
        s
    }
}

/// Normalises one file hint: a path relative to the repository, and the file a location
/// names (see [`file_of_location`]).
pub fn normalize_hint(h: &str) -> String {
    let s = h.trim().trim_matches('`').replace('\\', "/");
    let mut s = s.as_str();
    while let Some(r) = s.strip_prefix("./") {
        s = r;
    }
    file_of_location(s.trim_start_matches('/')).to_string()
}

/// The file of a hint written as a test id or a place in a file, as planners copy them from
/// test output: `tests/test_db.py::UserTest::test_quote`, `src/db.py:48`, `src/db.py:48:5`,
/// `src/db.py#L48`. Taken as a path they name no file, and the worker would be asked to
/// create one. Only cut where what is left names a file (its last segment has an extension).
fn file_of_location(hint: &str) -> &str {
    let names_a_file = |p: &str| {
        p.rsplit('/')
            .next()
            .is_some_and(|name| name.len() > 1 && name.contains('.'))
    };
    let mut s = hint;
    for sep in ["::", "#L"] {
        if let Some(at) = s.find(sep).filter(|at| names_a_file(&s[..*at])) {
            s = &s[..at];
        }
    }
    while let Some(at) = s.rfind(':') {
        let tail = &s[at + 1..];
        if tail.is_empty() || !tail.bytes().all(|b| b.is_ascii_digit()) || !names_a_file(&s[..at]) {
            break;
        }
        s = &s[..at];
    }
    s
}

/// The JSON Schema the planner must answer with (also sent as `response_format`). Bounded with
/// `maxItems` / `maxLength` so a small model cannot loop until `max_tokens`.
pub fn plan_schema() -> Value {
    json!({
        "type": "object",
        "required": ["tasks"],
        "properties": {
            "tasks": {
                "type": "array",
                "minItems": 1,
                "maxItems": 6,
                "items": {
                    "type": "object",
                    "required": ["id", "title", "priority", "subtasks"],
                    "properties": {
                        "id": {"type": "string", "maxLength": 8},
                        "title": {"type": "string", "minLength": 3, "maxLength": 120},
                        "priority": {"type": "integer", "minimum": 1, "maximum": 5},
                        "description": {"type": "string", "maxLength": 400},
                        "subtasks": {
                            "type": "array",
                            "minItems": 1,
                            "maxItems": 4,
                            "items": {
                                "type": "object",
                                "required": ["title", "description", "file_hints", "action"],
                                "properties": {
                                    "id": {"type": "string", "maxLength": 12},
                                    "title": {"type": "string", "minLength": 3, "maxLength": 120},
                                    "description": {"type": "string", "maxLength": 500},
                                    "file_hints": {
                                        "type": "array",
                                        "maxItems": 5,
                                        "items": {"type": "string", "maxLength": 200}
                                    },
                                    "action": {"enum": ["modify", "create", "delete"]}
                                }
                            }
                        }
                    }
                }
            }
        }
    })
}

/// Planner inputs beyond the report.
#[derive(Debug, Clone, Default)]
pub struct PlannerInput<'a> {
    /// The fingerprint (declared deps and frameworks keep the planner grounded).
    pub fingerprint: Option<&'a Fingerprint>,
    /// Prior failures, one line each (from the store's failure memory).
    pub prior_failures: Vec<String>,
    /// `Some("docs")` for the docs vertical.
    pub scope: Option<post::Scope>,
    /// Files of the repo (a sample is shown to the planner).
    pub files: Vec<String>,
}

const SYSTEM: &str = "You are the planner of a careful coding agent. You read a repository \
audit and produce a short JSON task plan that a small worker model will execute one subtask at a \
time. Every subtask names the exact repository files it touches in file_hints, using paths that \
exist in the file list (or new paths for action=create). Reply with JSON only.";

/// Builds the planner messages: report, brief, fingerprint, prior failures, rules.
pub fn planner_messages(report: &AnalysisReport, input: &PlannerInput<'_>) -> Vec<Message> {
    let mut user = String::new();
    user.push_str("== REPOSITORY AUDIT ==\n");
    user.push_str(&report.to_prompt_text());
    user.push_str("\n== REPO BRIEF ==\n");
    user.push_str(&report.brief.to_text());
    user.push('\n');
    if let Some(fp) = input.fingerprint {
        let deps: Vec<String> = fp
            .declared_deps
            .iter()
            .map(|(eco, d)| format!("{eco}: {}", d.join(", ")))
            .collect();
        user.push_str(&format!(
            "\n== FINGERPRINT ==\nDeclared dependencies: {}\nFrameworks: {}\nEntry points: {}\n",
            if deps.is_empty() {
                "(none)".into()
            } else {
                deps.join("; ")
            },
            if fp.declared_frameworks.is_empty() {
                "(none)".into()
            } else {
                fp.declared_frameworks.join(", ")
            },
            fp.entrypoints.join(", ")
        ));
    }
    if !input.files.is_empty() {
        user.push_str("\n== FILES ==\n");
        for f in input.files.iter().take(80) {
            user.push_str(f);
            user.push('\n');
        }
        if input.files.len() > 80 {
            user.push_str(&format!("... and {} more\n", input.files.len() - 80));
        }
    }
    if !input.prior_failures.is_empty() {
        user.push_str(
            "\n== PRIOR RUNS CONTEXT (files that failed recently; do NOT plan them again) ==\n",
        );
        for l in input.prior_failures.iter().take(15) {
            user.push_str(&format!("- {l}\n"));
        }
    }
    user.push_str("\n== RULES ==\n");
    if !report.failing_tests.is_empty() {
        user.push_str(
            "HARD RULE: tests are failing. The FIRST task (priority 1) must fix the source code \
             under test so the failing tests pass. Do not edit the tests to make them pass.\n",
        );
    }
    user.push_str(
        "HARD RULE: do not plan README-only edits; README updates are a consequence of code \
         changes, not a goal.\n\
         Do not invent frameworks or dependencies that the fingerprint does not list.\n\
         Do not edit build manifests or lockfiles unless a task is about dependencies.\n\
         At most 6 tasks, at most 4 subtasks each; each subtask is one small, verifiable change.\n",
    );
    if input.scope == Some(post::Scope::Docs) {
        user.push_str("SCOPE: documentation only (docs/, *.md, *.rst, *.txt). No code changes.\n");
    }
    user.push_str(
        "\nAnswer with one JSON object {\"tasks\": [...]}. Each task has: id (T001, T002, ...), \
         title, priority (1 = most urgent), description, subtasks. Each subtask has: title, \
         description (what exactly to change), file_hints (real paths copied from FILES above; \
         new paths only with action create), action (modify, create or delete).\n",
    );
    vec![Message::system(SYSTEM), Message::user(user)]
}

/// A plan from the LLM, with the reply details.
#[derive(Debug, Clone)]
pub struct LlmPlan {
    /// The normalised plan (before post-processing).
    pub plan: Plan,
    /// How the JSON was obtained (repairs, corrections, usage, time).
    pub reply: JsonReply,
}

fn plan_from_reply(reply: JsonReply) -> Result<LlmPlan, LlmError> {
    let plan: Plan =
        serde_json::from_value(reply.value.clone()).map_err(|e| LlmError::InvalidJson {
            attempts: reply.corrections + 1,
            last_error: e.to_string(),
            last_content: reply.raw.clone(),
        })?;
    Ok(LlmPlan {
        plan: plan.normalize(),
        reply,
    })
}

/// Asks the planner role for a plan (async).
pub async fn request_plan(
    client: &LlmClient,
    report: &AnalysisReport,
    input: &PlannerInput<'_>,
) -> Result<LlmPlan, LlmError> {
    let messages = planner_messages(report, input);
    let reply = client
        .chat_json_value(Role::Planner, &messages, &plan_schema())
        .await?;
    plan_from_reply(reply)
}

/// Asks the planner role for a plan (blocking).
pub fn request_plan_blocking(
    client: &BlockingClient,
    report: &AnalysisReport,
    input: &PlannerInput<'_>,
) -> Result<LlmPlan, LlmError> {
    let messages = planner_messages(report, input);
    let reply = client.chat_json_value(Role::Planner, &messages, &plan_schema())?;
    plan_from_reply(reply)
}

/// Errors loading an operator plan.
#[derive(Debug, thiserror::Error)]
pub enum PlanFileError {
    /// The file could not be read.
    #[error("cannot read plan file {0}: {1}")]
    Io(String, std::io::Error),
    /// The file is not a valid plan.
    #[error("invalid plan file {0}: {1}")]
    Invalid(String, String),
}

/// Loads an operator plan (`--plan-from-file`): JSON in the plan schema (a bare array of tasks
/// is accepted too), validated and normalised.
pub fn load_plan_file(path: &std::path::Path) -> Result<Plan, PlanFileError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| PlanFileError::Io(name.clone(), e))?;
    let mut value: Value = serde_json::from_str(&text)
        .map_err(|e| PlanFileError::Invalid(name.clone(), e.to_string()))?;
    if value.is_array() {
        value = json!({"tasks": value});
    }
    let violations = slopguard_llm::schema::validate(&plan_schema(), &value);
    if !violations.is_empty() {
        let list: Vec<String> = violations.iter().map(|v| v.to_string()).collect();
        return Err(PlanFileError::Invalid(name, list.join("; ")));
    }
    let plan: Plan =
        serde_json::from_value(value).map_err(|e| PlanFileError::Invalid(name, e.to_string()))?;
    Ok(plan.normalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_assigns_ids_and_cleans_hints() {
        let plan = Plan {
            tasks: vec![
                Task {
                    id: "T001".into(),
                    title: "a".into(),
                    priority: 1,
                    description: String::new(),
                    subtasks: vec![Subtask {
                        id: "x".into(),
                        title: "s".into(),
                        description: String::new(),
                        file_hints: vec![
                            "./src/a.py".into(),
                            "src/a.py".into(),
                            " ".into(),
                            "/b\\c.rs".into(),
                        ],
                        action: Action::Modify,
                    }],
                },
                Task {
                    id: "T001".into(),
                    title: "dup".into(),
                    priority: 2,
                    description: String::new(),
                    subtasks: vec![Subtask {
                        id: String::new(),
                        title: "s".into(),
                        description: String::new(),
                        file_hints: vec![],
                        action: Action::Create,
                    }],
                },
                Task {
                    id: "T009".into(),
                    title: "empty".into(),
                    priority: 2,
                    description: String::new(),
                    subtasks: vec![],
                },
            ],
        }
        .normalize();
        assert_eq!(plan.tasks.len(), 2);
        assert_eq!(plan.tasks[0].subtasks[0].id, "T001-S01");
        assert_eq!(
            plan.tasks[0].subtasks[0].file_hints,
            vec!["src/a.py", "b/c.rs"]
        );
        assert_eq!(plan.tasks[1].id, "T002");
        assert_eq!(plan.tasks[1].subtasks[0].id, "T002-S01");
    }

    #[test]
    fn a_hint_written_as_a_test_id_or_a_location_is_its_file() {
        for (hint, file) in [
            (
                "tests/test_db.py::UserStoreTest::test_injection_matches_nothing",
                "tests/test_db.py",
            ),
            ("src/db.py:48", "src/db.py"),
            ("./src/lib.rs:12:5", "src/lib.rs"),
            ("`src/db.py#L48`", "src/db.py"),
            ("src/db.py", "src/db.py"),
            // Not a file before the separator, or not a line after it: left as written.
            ("crate::util", "crate::util"),
            ("docs/notes:draft.md", "docs/notes:draft.md"),
            ("Makefile:12", "Makefile:12"),
        ] {
            assert_eq!(normalize_hint(hint), file, "{hint}");
        }
    }

    #[test]
    fn normalize_drops_repeated_subtasks_and_emptied_tasks() {
        let st = |title: &str, hint: &str| Subtask {
            id: String::new(),
            title: title.into(),
            description: String::new(),
            file_hints: vec![hint.into()],
            action: Action::Create,
        };
        let task = |subtasks: Vec<Subtask>| Task {
            id: String::new(),
            title: "t".into(),
            priority: 1,
            description: String::new(),
            subtasks,
        };
        let plan = Plan {
            tasks: vec![
                task(vec![st("Add test file", "tests/test_ops.py")]),
                task(vec![st("Add test file", "./tests/test_ops.py")]),
                task(vec![
                    st("add test file ", "tests/test_ops.py"),
                    st("Fix sub", "calc/ops.py"),
                ]),
            ],
        }
        .normalize();
        assert_eq!(plan.tasks.len(), 2);
        assert_eq!(plan.subtask_count(), 2);
        assert_eq!(plan.tasks[1].subtasks[0].title, "Fix sub");
        assert_eq!(plan.tasks[1].id, "T002");
    }

    #[test]
    fn plan_file_is_validated() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("p.json");
        std::fs::write(
            &good,
            r#"[{"id": "T001", "title": "Fix sub", "priority": 1, "subtasks": [
                {"title": "Fix sub()", "description": "return a - b", "file_hints": ["calc/ops.py"], "action": "modify"}]}]"#,
        )
        .unwrap();
        let p = load_plan_file(&good).unwrap();
        assert_eq!(p.tasks[0].subtasks[0].id, "T001-S01");
        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, r#"{"tasks": [{"id": "T001", "title": "x"}]}"#).unwrap();
        let err = load_plan_file(&bad).unwrap_err().to_string();
        assert!(err.contains("missing required field"), "{err}");
    }

    #[test]
    fn schema_accepts_a_normal_plan_and_bounds_size() {
        let v = json!({"tasks": [{"id": "T001", "title": "Fix it", "priority": 1, "subtasks": [
            {"title": "Fix f", "description": "d", "file_hints": ["a.py"], "action": "modify"}]}]});
        assert!(slopguard_llm::schema::validate(&plan_schema(), &v).is_empty());
        let many: Vec<Value> = (0..7).map(|_| v["tasks"][0].clone()).collect();
        let v = json!({"tasks": many});
        assert!(!slopguard_llm::schema::validate(&plan_schema(), &v).is_empty());
    }
}
