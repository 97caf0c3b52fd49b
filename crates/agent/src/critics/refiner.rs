//! The refiner: proposes a revision for the devil's findings (the panel's high ones when the
//! devil did not run). The revision goes through every static and dynamic gate
//! ([`super::revision`]) and, when the judge is on, ships only if the judge prefers it.

use serde_json::{Value, json};
use slopguard_llm::Message;

use super::CriticsError;
use super::revision::try_revision;
use super::{CriticFinding, Models, RevisionOutcome, Severity, Workspace, judge};

/// Most files shown to the refiner.
const MAX_FILES: usize = 4;
/// Largest file shown (bytes).
const MAX_FILE_BYTES: usize = 16 * 1024;

/// Refines the branch when there is something to refine; records the outcome.
pub fn refine(
    ws: &Workspace<'_>,
    diff: &str,
    with_judge: bool,
    models: &mut Models<'_>,
    emit: &dyn Fn(&str, Value),
) -> Result<(), CriticsError> {
    let targets: Vec<CriticFinding> = to_refine(&models.report().findings)
        .into_iter()
        .cloned()
        .collect();
    if targets.is_empty() {
        models
            .report()
            .skipped
            .push("refiner: no devil finding (or high panel finding) to work on".into());
        return Ok(());
    }
    let files = changed_files(ws)?;
    let Some(reply) = models.ask("refiner", &prompt(ws, diff, &targets, &files), 2048) else {
        return Ok(());
    };
    models.report().ran.push("refiner".into());
    let paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
    let mut judge_said = None;
    let mut accept = |refinement: &str| -> Result<(), String> {
        if !with_judge {
            return Ok(());
        }
        match judge::decide(ws, diff, refinement, models) {
            Some(v) => {
                judge_said = Some(v.reason.clone());
                if v.prefer_v1 {
                    Ok(())
                } else {
                    Err(format!("the judge kept v0: {}", v.reason))
                }
            }
            None => Err("the judge could not answer: v0 kept".into()),
        }
    };
    let revised = try_revision(ws, "refiner", &reply, &paths, &mut accept)?;
    models.kept(revised.tests);
    if let Some(said) = &judge_said {
        emit("critic_judge.verdict", json!({"verdict": said}));
    }
    let report = models.report();
    report.judge = judge_said;
    match &revised.outcome {
        RevisionOutcome::Kept { commit, files } => emit(
            "critic_refiner.kept",
            json!({"commit": commit, "files": files}),
        ),
        RevisionOutcome::Reverted { reason } => {
            emit("critic_refiner.reverted", json!({"reason": reason}))
        }
    }
    report.refiner = Some(revised.outcome);
    Ok(())
}

/// The findings worth a revision: the devil's, else the panel's high ones.
fn to_refine(findings: &[CriticFinding]) -> Vec<&CriticFinding> {
    let devil: Vec<&CriticFinding> = findings.iter().filter(|f| f.critic == "devil").collect();
    if !devil.is_empty() {
        return devil;
    }
    findings
        .iter()
        .filter(|f| f.critic.starts_with("panel") && f.severity == Severity::High)
        .collect()
}

/// The branch's changed text files that still exist, with their contents.
pub fn changed_files(ws: &Workspace<'_>) -> Result<Vec<(String, String)>, CriticsError> {
    let range = format!("{}..HEAD", ws.base_commit);
    let names = crate::git::git(ws.worktree, &["diff", "--name-only", &range])?;
    Ok(names
        .lines()
        .filter_map(|p| {
            let bytes = std::fs::read(ws.worktree.join(p)).ok()?;
            let text = String::from_utf8(bytes).ok()?;
            (text.len() <= MAX_FILE_BYTES).then(|| (p.to_string(), text))
        })
        .take(MAX_FILES)
        .collect())
}

/// Files as the worker's prompt shows them: the path on a line, the text in a fence.
pub fn show_files(files: &[(String, String)]) -> String {
    files
        .iter()
        .map(|(p, text)| {
            format!(
                "{p}\n```{}\n{text}```",
                slopguard_worker::prompt::fence_language(p)
            )
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn prompt(
    ws: &Workspace<'_>,
    diff: &str,
    targets: &[CriticFinding],
    files: &[(String, String)],
) -> Vec<Message> {
    let problems: Vec<String> = targets
        .iter()
        .map(|f| match (&f.file, f.line) {
            (Some(file), Some(line)) => format!("- {file}:{line}: {}", f.message),
            (Some(file), None) => format!("- {file}: {}", f.message),
            _ => format!("- {}", f.message),
        })
        .collect();
    vec![
        Message::system(slopguard_worker::prompt::SYSTEM),
        Message::user(format!(
            "A change was made for: {}\n\n```diff\n{diff}```\n\nA reviewer says:\n{}\n\nIf a \
             point is right, fix it in the files below; keep every existing function and test. \
             Answer with a one-line commit message, then each file you change: its path on a \
             line, then the whole new file in a fenced block.\n\n{}\n",
            ws.task,
            problems.join("\n"),
            show_files(files)
        )),
    ]
}
