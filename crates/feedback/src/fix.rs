//! From a triaged item to a fix with proof: the plan (root cause, proposed change, regression
//! test sketch, size), the approval rule for large jobs, the run that writes the fix and its
//! test on `slopguard/fix/<id>` behind the `regression-proof` gate, the pull-request body that
//! quotes the feedback, and the verification on the merged revision.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::Intake;
use super::localise::Localisation;
use super::triage::{FixClass, Triage};
use slopguard_agent::gates::step_critic::Finding;
use slopguard_planning::analysis::is_test_file;
use slopguard_planning::plan::{Action, Plan, Subtask, Task};

/// Above this many estimated lines a fix waits for approval.
pub const APPROVAL_LINES: usize = 200;

/// The plan of a fix, shown before any code is written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FixPlan {
    /// The triage's root-cause hypothesis.
    pub root_cause: String,
    /// What will change.
    pub proposed_change: String,
    /// The regression test to write.
    pub test_sketch: String,
    /// Code files to change.
    pub files: Vec<String>,
    /// The test file the regression test goes into (existing or new).
    pub test_file: String,
    /// Estimated lines touched.
    pub estimated_lines: usize,
    /// Why it waits for approval, when it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub needs_approval: Option<String>,
    /// What the worker must also hear: the operator's refinement notes and the critic's
    /// confident findings on the plan.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// Plans the fix of a triaged item in the repository at `root`.
pub fn plan_fix(root: &Path, intake: &Intake, triage: &Triage, loc: &Localisation) -> FixPlan {
    let mut files: Vec<String> = triage
        .files
        .iter()
        .filter(|f| !is_test_file(f))
        .cloned()
        .collect();
    if files.is_empty() {
        files.extend(
            loc.files
                .iter()
                .filter(|f| !is_test_file(&f.path))
                .take(1)
                .map(|f| f.path.clone()),
        );
    }
    let test_file = test_file_for(root, &files, triage, loc);
    let estimated_lines = estimate_lines(root, &files, loc) + 15;
    let needs_approval = approval_reason(triage.class, estimated_lines, &files);
    FixPlan {
        root_cause: triage.root_cause.clone(),
        proposed_change: format!(
            "Change {} so that this no longer holds: {}",
            if files.is_empty() {
                "the code".to_string()
            } else {
                files.join(", ")
            },
            first_line(&intake.text)
        ),
        test_sketch: format!(
            "A test in {test_file} that reproduces the feedback (calls the code it names with the \
             case it describes and asserts the right result); it fails before the fix and passes \
             after it."
        ),
        files,
        test_file,
        estimated_lines,
        needs_approval,
        notes: Vec::new(),
    }
}

/// The first non-blank line of `text`, trimmed: a title or a transition's note quotes one line.
pub(crate) fn first_line(text: &str) -> &str {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
}

/// Large jobs wait: an architectural class, more than [`APPROVAL_LINES`] estimated lines, or
/// files under several top-level directories.
pub(crate) fn approval_reason(class: FixClass, lines: usize, files: &[String]) -> Option<String> {
    if class == FixClass::Architectural {
        return Some("an architectural change".into());
    }
    if lines > APPROVAL_LINES {
        return Some(format!(
            "about {lines} lines to change (more than {APPROVAL_LINES})"
        ));
    }
    let tops: BTreeSet<&str> = files
        .iter()
        .map(|f| f.split('/').next().unwrap_or(f))
        .collect();
    (tops.len() > 1).then(|| {
        format!(
            "it spans several top-level modules ({})",
            tops.into_iter().collect::<Vec<_>>().join(", ")
        )
    })
}

/// Lines likely touched: the definitions the localisation points into, else a share of each
/// file.
fn estimate_lines(root: &Path, files: &[String], loc: &Localisation) -> usize {
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(root.join(f)).unwrap_or_default();
            let total = text.lines().count();
            let defs = slopguard_worker::context::definitions(f, &text);
            let named: usize = loc
                .files
                .iter()
                .filter(|l| &l.path == f)
                .flat_map(|l| l.why.iter())
                .filter_map(|w| w.strip_prefix("defines `")?.strip_suffix('`'))
                .filter_map(|name| defs.iter().find(|d| d.simple_name() == name))
                .map(|d| (d.end_line - d.start_line + 1) as usize)
                .sum();
            if named > 0 { named } else { total.div_ceil(4) }
        })
        .sum()
}

/// The test file for the regression test: one the triage or localisation named, else the
/// repository's convention for the first code file (`tests/test_<stem>.py`, `<stem>_test.go`,
/// `tests/<stem>.rs`, `test/<stem>.test.js`).
fn test_file_for(root: &Path, files: &[String], triage: &Triage, loc: &Localisation) -> String {
    if let Some(t) = triage
        .files
        .iter()
        .chain(loc.files.iter().map(|l| &l.path))
        .find(|f| is_test_file(f))
    {
        return t.clone();
    }
    let Some(code) = files.first() else {
        return "tests/test_feedback.py".into();
    };
    let path = Path::new(code);
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("fix");
    let dir = path
        .parent()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let join = |d: &str, name: String| {
        if d.is_empty() {
            name
        } else {
            format!("{d}/{name}")
        }
    };
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match ext {
        "go" => join(&dir, format!("{stem}_test.go")),
        "rs" => format!("tests/{stem}.rs"),
        "js" | "mjs" | "ts" => {
            let d = if root.join("test").is_dir() {
                "test"
            } else {
                "tests"
            };
            format!("{d}/{stem}.test.{ext}")
        }
        _ => format!("tests/test_{stem}.py"),
    }
}

/// The run plan of the fix: one subtask writing the fix and its regression test.
pub fn run_plan(id: i64, intake: &Intake, plan: &FixPlan) -> Plan {
    let mut hints = plan.files.clone();
    hints.push(plan.test_file.clone());
    Plan {
        tasks: vec![Task {
            id: "T001".into(),
            title: format!("Fix feedback #{id}"),
            priority: 1,
            description: intake.text.clone(),
            subtasks: vec![Subtask {
                id: String::new(),
                title: format!("Fix: {}", first_line(&intake.text)),
                description: subtask_description(intake, plan),
                file_hints: hints,
                action: Action::Modify,
            }],
        }],
    }
}

/// The fix subtask's description: the feedback, the plan, and the notes the worker must hear.
fn subtask_description(intake: &Intake, plan: &FixPlan) -> String {
    let mut d = format!(
        "Feedback from a reviewer: \"{}\". Likely cause: {} Fix it in {}, and add a \
         regression test to {} in the repository's test framework: the test must fail on the \
         code as it is now and pass after your fix.",
        intake.text.trim(),
        plan.root_cause,
        plan.files.join(", "),
        plan.test_file
    );
    for note in &plan.notes {
        d.push_str(&format!("\nAlso: {note}"));
    }
    d
}

/// What a landed fix is, for the item's detail and the pull request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LandedFix {
    /// The fix branch.
    pub branch: String,
    /// Its commit.
    pub commit: String,
    /// Test files of the fix (the regression test is in them).
    pub test_files: Vec<String>,
    /// Tests that failed without the fix (the proof).
    pub fails_without_fix: Vec<String>,
    /// The pull-request body written beside the run.
    pub pr_body: String,
    /// The critic's findings kept for the self-review (confidence 60-79, or 80+ after the
    /// last step), not acted on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub self_review: Vec<Finding>,
}

/// The pull-request body: cites the item, quotes the feedback verbatim, and shows the proof.
pub fn pr_body(id: i64, intake: &Intake, plan: &FixPlan, fix: &LandedFix) -> String {
    let quoted: String = intake.text.lines().map(|l| format!("> {l}\n")).collect();
    let proof: String = fix
        .fails_without_fix
        .iter()
        .map(|t| format!("- `{t}`: fails without the fix, passes with it\n"))
        .collect();
    let mut body = format!(
        "## Fix for feedback #{id}\n\n{quoted}\n**Root cause:** {}\n\n**Change:** {}\n\n\
         ### Regression test\n\nIn {}. Run for real both ways before this branch was \
         published:\n\n{proof}\nBranch `{}`, commit `{}`. Every commit on it passed slopguard's \
         guard stack and the `regression-proof` gate.\n",
        plan.root_cause,
        plan.proposed_change,
        fix.test_files.join(", "),
        fix.branch,
        fix.commit
    );
    if !fix.self_review.is_empty() {
        body.push_str(
            "\n### Self-review\n\nWhat the reviewer model noted between the steps and the \
             fix did not act on; check these before merging:\n\n",
        );
        for f in &fix.self_review {
            body.push_str(&format!(
                "- {} (on {}, confidence {})\n",
                f.message, f.step, f.confidence
            ));
        }
    }
    body
}

/// Test timeout for verification.
pub const VERIFY_TIMEOUT: Duration = Duration::from_secs(600);

/// The verdict of a verification run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verification {
    /// The revision checked.
    pub rev: String,
    /// Whether the regression tests ran and passed.
    pub green: bool,
    /// What failed or why it could not be judged.
    pub problems: Vec<String>,
}

/// Runs the tests of revision `rev` of `repo` in a temporary worktree and judges the fix:
/// green when the suite ran, the regression tests are in its test files there, and none of
/// those files' tests fail.
pub fn verify(repo: &Path, rev: &str, fix: &LandedFix) -> Result<Verification, String> {
    let test_files = &fix.test_files;
    let commit = slopguard_agent::git::resolve(repo, rev).map_err(|e| e.to_string())?;
    let wt = std::env::temp_dir().join(format!(
        "slopguard-verify-{}-{}",
        std::process::id(),
        slopguard_planning::trace::now_ms()
    ));
    let wt_str = wt.to_string_lossy().into_owned();
    slopguard_agent::git::git(
        repo,
        &["worktree", "add", "--detach", "-q", &wt_str, &commit],
    )
    .map_err(|e| e.to_string())?;
    let outcome = slopguard_agent::dynamic::run_tests(&wt, VERIFY_TIMEOUT);
    let mut problems = Vec::new();
    let merged: String = test_files
        .iter()
        .filter_map(|f| std::fs::read_to_string(wt.join(f)).ok())
        .collect();
    for t in &fix.fails_without_fix {
        let name = slopguard_toolchain::test_function_name(t);
        if !merged.contains(&name) {
            problems.push(format!(
                "the regression test {name} is not in {rev}: the fix was not merged"
            ));
        }
    }
    if !outcome.ran {
        problems.push(format!(
            "the tests did not run: {}",
            outcome.details.join("; ")
        ));
    }
    let base = slopguard_agent::records::Baseline::default();
    for id in slopguard_agent::run::proof::new_failures_in(&base, &outcome, test_files) {
        problems.push(format!("{id} fails on {rev}"));
    }
    let _ = slopguard_agent::git::git(repo, &["worktree", "remove", "--force", &wt_str]);
    let _ = std::fs::remove_dir_all(&wt);
    Ok(Verification {
        rev: commit,
        green: problems.is_empty(),
        problems,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn triage(class: FixClass, files: &[&str]) -> Triage {
        Triage {
            class,
            proposed_class: None,
            root_cause: "divides by n-1".into(),
            files: files.iter().map(|s| s.to_string()).collect(),
            confidence: 85,
            escalated: false,
            notes: vec![],
        }
    }

    #[test]
    fn small_fixes_go_ahead_and_large_ones_wait() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("calc")).unwrap();
        std::fs::write(
            dir.path().join("calc/stats.py"),
            "def average(v):\n    return sum(v) / (len(v) - 1)\n",
        )
        .unwrap();
        let intake =
            Intake::new("average() divides by n-1", None, Default::default(), "cli").unwrap();
        let loc = Localisation::default();
        let p = plan_fix(
            dir.path(),
            &intake,
            &triage(FixClass::Bug, &["calc/stats.py"]),
            &loc,
        );
        assert_eq!(p.files, vec!["calc/stats.py".to_string()]);
        assert_eq!(p.test_file, "tests/test_stats.py");
        assert_eq!(p.needs_approval, None);
        let arch = plan_fix(
            dir.path(),
            &intake,
            &triage(FixClass::Architectural, &["calc/stats.py"]),
            &loc,
        );
        assert_eq!(
            arch.needs_approval.as_deref(),
            Some("an architectural change")
        );
        let wide = plan_fix(
            dir.path(),
            &intake,
            &triage(FixClass::Bug, &["calc/stats.py", "web/app.py"]),
            &loc,
        );
        assert!(
            wide.needs_approval
                .unwrap()
                .contains("several top-level modules")
        );
        let plan = run_plan(7, &intake, &p);
        let st = &plan.tasks[0].subtasks[0];
        assert_eq!(
            st.file_hints,
            vec![
                "calc/stats.py".to_string(),
                "tests/test_stats.py".to_string()
            ]
        );
        assert!(
            st.description
                .contains("must fail on the code as it is now")
        );
    }

    #[test]
    fn the_pr_body_quotes_the_feedback_and_the_proof() {
        let intake = Intake::new(
            "average() divides by n-1\nsee [1, 2]",
            None,
            Default::default(),
            "cli",
        )
        .unwrap();
        let plan = FixPlan {
            root_cause: "n-1".into(),
            proposed_change: "divide by n".into(),
            test_sketch: String::new(),
            files: vec![],
            test_file: "tests/test_stats.py".into(),
            estimated_lines: 3,
            needs_approval: None,
            notes: vec![],
        };
        let fix = LandedFix {
            branch: "slopguard/fix/3".into(),
            commit: "abc".into(),
            test_files: vec!["tests/test_stats.py".into()],
            fails_without_fix: vec!["tests/test_stats.py::test_mean".into()],
            pr_body: String::new(),
            self_review: vec![],
        };
        let body = pr_body(3, &intake, &plan, &fix);
        assert!(!body.contains("Self-review"), "{body}");
        let reviewed = LandedFix {
            self_review: vec![Finding {
                message: "the empty list is not handled".into(),
                confidence: 70,
                step: "plan".into(),
            }],
            ..fix.clone()
        };
        assert!(
            pr_body(3, &intake, &plan, &reviewed)
                .contains("- the empty list is not handled (on plan, confidence 70)\n")
        );
        assert!(body.contains("feedback #3"));
        assert!(body.contains("> average() divides by n-1\n> see [1, 2]\n"));
        assert!(body.contains("`tests/test_stats.py::test_mean`: fails without the fix"));
    }
}
