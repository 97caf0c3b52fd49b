//! The pull-request body, rendered from the run's [`RunSummary`]: metrics before and after,
//! every task and subtask with its commit, guard activity per subtask, failed subtasks and why,
//! the model used.

use crate::run::summary::{MetricValue, RunSummary, SubtaskStatus, TaskSummary};

/// A one-line PR title.
pub fn pr_title(summary: &RunSummary) -> String {
    let landed: Vec<&TaskSummary> = summary
        .tasks
        .iter()
        .filter(|t| {
            t.subtasks
                .iter()
                .any(|s| s.status == SubtaskStatus::Committed)
        })
        .collect();
    match landed.as_slice() {
        [] => "slopguard: no change passed the guards".to_string(),
        [one] => format!("slopguard: {}", one_line(&one.title, 100)),
        many => format!(
            "slopguard: {} (+{} more task{})",
            one_line(&many[0].title, 80),
            many.len() - 1,
            if many.len() == 2 { "" } else { "s" }
        ),
    }
}

/// Renders the PR body as GitHub-flavoured markdown.
pub fn render_body(summary: &RunSummary) -> String {
    let mut out = String::new();
    let total = summary.subtasks().count();
    let committed = summary
        .subtasks()
        .filter(|s| s.status == SubtaskStatus::Committed)
        .count();
    out.push_str(&format!("## slopguard run `{}`\n\n", cell(&summary.run_id)));
    out.push_str(&format!(
        "**{committed} of {total} subtasks committed.** Model: `{}` · base `{}` ({}) · branch `{}`",
        cell(&summary.model),
        cell(&summary.base),
        short(&summary.base_commit),
        cell(&summary.branch),
    ));
    if summary.usage.prompt + summary.usage.completion > 0 {
        out.push_str(&format!(
            " · tokens {} prompt / {} completion",
            summary.usage.prompt, summary.usage.completion
        ));
    }
    out.push_str("\n\n");
    // Say what happened: the guarantee about "every commit" only means something when there
    // are commits.
    if summary.dry_run {
        out.push_str(
            "_Dry run: nothing was committed._ Subtasks marked `passed` passed slopguard's guard \
             stack (static guards on the patch, then build, test-regression and test-integrity on \
             the written tree).\n\n",
        );
    } else if committed == 0 {
        out.push_str(
            "**Nothing was committed: no change passed slopguard's guard stack.** Every patch was \
             reverted after failing a guard (static guards on the patch, then build, \
             test-regression and test-integrity on the written tree) and retried with the \
             findings as feedback until the attempts ran out; the last findings of each subtask \
             are under \"Failed or skipped subtasks\".\n\n",
        );
    } else {
        out.push_str(
            "Every commit on this branch passed slopguard's guard stack (static guards on the \
             patch, then build, test-regression and test-integrity on the written tree). Patches \
             that failed a guard were reverted and retried with the findings as feedback.\n\n",
        );
    }

    out.push_str("### Metrics\n\n");
    if summary.metrics_before.is_empty() && summary.metrics_after.is_empty() {
        out.push_str("_not measured_\n\n");
    } else {
        out.push_str("| metric | before | after | change |\n|---|---|---|---|\n");
        let mut names: Vec<(&str, &str)> = Vec::new();
        for m in summary
            .metrics_before
            .iter()
            .chain(summary.metrics_after.iter())
        {
            if !names.iter().any(|(n, _)| *n == m.name) {
                names.push((&m.name, &m.title));
            }
        }
        for (name, title) in names {
            let before = summary.metrics_before.iter().find(|m| m.name == name);
            let after = summary.metrics_after.iter().find(|m| m.name == name);
            let change = match (before.and_then(|m| m.score), after.and_then(|m| m.score)) {
                (Some(b), Some(a)) if (a - b).abs() < 0.005 => "=".to_string(),
                (Some(b), Some(a)) => format!("{:+.2}", a - b),
                _ => String::new(),
            };
            let label = if title.is_empty() { name } else { title };
            out.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                cell(label),
                metric_cell(before),
                metric_cell(after),
                change
            ));
        }
        if let (Some(b), Some(a)) = (summary.overall_before, summary.overall_after) {
            out.push_str(&format!(
                "| **overall** | {b:.2} | {a:.2} | {:+.2} |\n",
                a - b
            ));
        }
        out.push('\n');
    }

    out.push_str("### Tasks\n\n");
    if summary.tasks.is_empty() {
        out.push_str("_no tasks_\n\n");
    }
    for task in &summary.tasks {
        out.push_str(&format!(
            "#### {} {}\n\n",
            cell(&task.id),
            one_line(&task.title, 200)
        ));
        out.push_str("| subtask | status | commit | attempts | files |\n|---|---|---|---|---|\n");
        for st in &task.subtasks {
            let commit = match (&st.commit, &st.commit_title) {
                (Some(c), Some(t)) => format!("`{}` {}", short(c), cell(&one_line(t, 80))),
                (Some(c), None) => format!("`{}`", short(c)),
                _ => "—".into(),
            };
            let files = if st.touched_files.is_empty() {
                "—".to_string()
            } else {
                st.touched_files
                    .iter()
                    .map(|f| format!("`{}`", cell(f)))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            out.push_str(&format!(
                "| {} {} | {} | {} | {} | {} |\n",
                cell(&st.id),
                cell(&one_line(&st.title, 120)),
                st.status.as_str(),
                commit,
                match st.candidates_beaten {
                    Some(beaten) =>
                        format!("{} (chosen over {beaten} other candidates)", st.attempts),
                    None => st.attempts.to_string(),
                },
                files
            ));
        }
        out.push('\n');
    }

    out.push_str("### Guard activity\n\n");
    let mut any = false;
    for st in summary.subtasks() {
        let notable: Vec<_> = st
            .guard_activity
            .iter()
            .filter(|a| a.status == "blocked" || a.status == "warned")
            .collect();
        let passed = st
            .guard_activity
            .iter()
            .filter(|a| a.status == "passed")
            .count();
        if notable.is_empty() && passed == 0 {
            continue;
        }
        any = true;
        out.push_str(&format!(
            "- **{}** ({}): {} guard check{} passed",
            cell(&st.id),
            st.status.as_str(),
            passed,
            if passed == 1 { "" } else { "s" }
        ));
        if notable.is_empty() {
            out.push_str(", none blocked\n");
            continue;
        }
        out.push('\n');
        for a in notable {
            let name = match &a.code {
                Some(code) => format!("{code} {}", a.guard),
                None => a.guard.clone(),
            };
            let msg = a
                .messages
                .first()
                .map(|m| one_line(m, 300))
                .unwrap_or_default();
            let more = if a.messages.len() > 1 {
                format!(" (+{} more)", a.messages.len() - 1)
            } else {
                String::new()
            };
            out.push_str(&format!(
                "  - attempt {}: `{}` {} ({}){}{}\n",
                a.attempt,
                cell(&name),
                a.status,
                a.phase,
                if msg.is_empty() {
                    String::new()
                } else {
                    format!(": {msg}")
                },
                more
            ));
        }
    }
    if !any {
        out.push_str("_no guard ran_\n");
    }
    out.push('\n');

    let failed: Vec<_> = summary
        .subtasks()
        .filter(|s| matches!(s.status, SubtaskStatus::Failed | SubtaskStatus::Skipped))
        .collect();
    if !failed.is_empty() {
        out.push_str("### Failed or skipped subtasks\n\n");
        for st in failed {
            let modes = if st.failure_modes.is_empty() {
                String::new()
            } else {
                format!(" (failure modes: {})", st.failure_modes.join(", "))
            };
            let reason = if st.status == SubtaskStatus::Failed {
                st.failure_reason()
            } else {
                st.error
                    .clone()
                    .unwrap_or_else(|| "no reason recorded".into())
            };
            out.push_str(&format!(
                "- **{}** {} — {} after {} attempt{}: {}{}\n",
                cell(&st.id),
                one_line(&st.title, 120),
                st.status.as_str(),
                st.attempts,
                if st.attempts == 1 { "" } else { "s" },
                one_line(&reason, 400),
                modes
            ));
            // The line above is a digest; the last findings follow in full when it cut them.
            if reason.trim().contains('\n') || reason.chars().count() > 400 {
                out.push_str(&full_text_block(&reason));
            }
        }
        out.push('\n');
    }
    out.push_str("---\n_Generated by slopguard._\n");
    out
}

/// Largest reason shown in full, in characters (GitHub refuses bodies over 65 536).
const MAX_REASON_CHARS: usize = 6000;

/// `text` as an indented fenced block under a list item, fenced with more backticks than it
/// contains so its own fences stay literal; cut at [`MAX_REASON_CHARS`] with a note.
fn full_text_block(text: &str) -> String {
    let mut body: String = text.trim().chars().take(MAX_REASON_CHARS).collect();
    if text.trim().chars().count() > MAX_REASON_CHARS {
        body.push_str("\n… (cut; the run's trace and summary.json have the rest)");
    }
    let longest_run = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest_run.max(2) + 1);
    let mut out = format!("\n  {fence}text\n");
    for l in body.lines() {
        out.push_str(&format!("  {l}\n"));
    }
    out.push_str(&format!("  {fence}\n\n"));
    out
}

fn metric_cell(m: Option<&MetricValue>) -> String {
    match m {
        Some(MetricValue {
            score: Some(s),
            status,
            ..
        }) if !status.is_empty() => format!("{s:.2} ({})", cell(status)),
        Some(MetricValue { score: Some(s), .. }) => format!("{s:.2}"),
        Some(m) if !m.status.is_empty() => cell(&m.status),
        _ => "—".into(),
    }
}

fn short(commit: &str) -> &str {
    commit.get(..10).unwrap_or(commit)
}

/// Keeps a table cell on one line and its pipes literal.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// `s` with whitespace collapsed, at most `max` characters.
fn one_line(s: &str, max: usize) -> String {
    let collapsed = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= max {
        collapsed
    } else {
        let mut t: String = collapsed.chars().take(max.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::run::summary::{GuardActivity, SubtaskSummary, TokenUsage};

    pub(crate) fn sample() -> RunSummary {
        RunSummary {
            run_id: "r-1".into(),
            branch: "slopguard/r-1".into(),
            base: "main".into(),
            base_commit: "fedcba9876543210".into(),
            model: "qwen2.5-coder-1.5b".into(),
            usage: TokenUsage {
                prompt: 1200,
                completion: 300,
            },
            metrics_before: vec![MetricValue {
                name: "test_results".into(),
                title: "Test results".into(),
                score: Some(0.6),
                status: "fail".into(),
            }],
            metrics_after: vec![MetricValue {
                name: "test_results".into(),
                title: "Test results".into(),
                score: Some(1.0),
                status: "pass".into(),
            }],
            tasks: vec![TaskSummary {
                id: "T001".into(),
                title: "Fix the SQL injection in find_user".into(),
                priority: 1,
                subtasks: vec![
                    SubtaskSummary {
                        id: "T001-S01".into(),
                        title: "Parameterise the query".into(),
                        status: SubtaskStatus::Committed,
                        commit: Some("0123456789abcdef".into()),
                        commit_title: Some("fix(db): parameterise find_user".into()),
                        attempts: 2,
                        touched_files: vec!["src/db.py".into()],
                        guard_activity: vec![
                            GuardActivity {
                                attempt: 1,
                                phase: "static".into(),
                                guard: "symbol-preservation".into(),
                                code: Some("G7".into()),
                                status: "blocked".into(),
                                messages: vec!["src/db.py: dropped seed, init_schema".into()],
                            },
                            GuardActivity {
                                attempt: 2,
                                phase: "dynamic".into(),
                                guard: "test-regression".into(),
                                code: Some("G8".into()),
                                status: "passed".into(),
                                messages: vec![],
                            },
                        ],
                        ..Default::default()
                    },
                    SubtaskSummary {
                        id: "T001-S02".into(),
                        title: "Add a regression test | quotes".into(),
                        status: SubtaskStatus::Failed,
                        attempts: 3,
                        error: Some("could not obtain valid JSON\nafter 3 attempts".into()),
                        failure_modes: vec!["json_emit".into()],
                        ..Default::default()
                    },
                ],
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    #[test]
    fn body_has_every_section() {
        let body = render_body(&sample());
        assert!(body.contains("**1 of 2 subtasks committed.** Model: `qwen2.5-coder-1.5b`"));
        assert!(body.contains("base `main` (fedcba9876)"));
        assert!(body.contains("tokens 1200 prompt / 300 completion"));
        assert!(body.contains("| Test results | 0.60 (fail) | 1.00 (pass) | +0.40 |"));
        assert!(body.contains("#### T001 Fix the SQL injection in find_user"));
        assert!(body.contains(
            "| T001-S01 Parameterise the query | committed | `0123456789` fix(db): parameterise \
             find_user | 2 | `src/db.py` |"
        ));
        assert!(
            body.contains("| T001-S02 Add a regression test \\| quotes | failed | — | 3 | — |")
        );
        assert!(body.contains("- **T001-S01** (committed): 1 guard check passed\n"));
        assert!(body.contains(
            "  - attempt 1: `G7 symbol-preservation` blocked (static): src/db.py: dropped seed, \
             init_schema\n"
        ));
        assert!(body.contains(
            "- **T001-S02** Add a regression test | quotes — failed after 3 attempts: could not \
             obtain valid JSON after 3 attempts (failure modes: json_emit)"
        ));
    }

    #[test]
    fn a_run_that_committed_nothing_does_not_claim_its_commits_passed() {
        let mut sum = sample();
        for st in sum.tasks.iter_mut().flat_map(|t| t.subtasks.iter_mut()) {
            st.status = SubtaskStatus::Failed;
            st.commit = None;
            st.error = Some(
                "failed after 3 attempt(s); last findings:\nsrc/db.py:4: `seed` was removed\n\
                 tests/test_db.py: 2 assertion(s) removed"
                    .into(),
            );
        }
        let body = render_body(&sum);
        assert!(
            !body.contains("Every commit on this branch passed"),
            "{body}"
        );
        assert!(
            body.contains("**Nothing was committed: no change passed slopguard's guard stack.**")
        );
        // The last findings in full, not only the one-line digest.
        assert!(
            body.contains("  ```text\n  failed after 3 attempt(s); last findings:\n  src/db.py:4: `seed` was removed\n  tests/test_db.py: 2 assertion(s) removed\n  ```\n"),
            "{body}"
        );
        // A committed run keeps the guarantee; a dry run says nothing was committed.
        assert!(render_body(&sample()).contains("Every commit on this branch passed"));
        let mut dry = sample();
        dry.dry_run = true;
        let body = render_body(&dry);
        assert!(body.contains("_Dry run: nothing was committed._"));
        assert!(
            !body.contains("Every commit on this branch passed"),
            "{body}"
        );
    }

    #[test]
    fn a_failure_without_findings_still_says_why() {
        let mut sum = sample();
        let st = &mut sum.tasks[0].subtasks[1];
        st.error = Some("failed after 3 attempt(s); last findings:\n".into());
        st.attempt_log = vec![crate::run::summary::AttemptRecord {
            attempt: 3,
            outcome: "llm_error".into(),
            feedback: "the reply was cut off at max_tokens".into(),
            ..Default::default()
        }];
        let body = render_body(&sum);
        assert!(
            body.contains(
                "last findings: attempt 3 (llm_error): the reply was cut off at max_tokens"
            ),
            "{body}"
        );
    }

    #[test]
    fn title_and_empty_summary() {
        assert_eq!(
            pr_title(&sample()),
            "slopguard: Fix the SQL injection in find_user"
        );
        let empty = RunSummary::default();
        assert_eq!(pr_title(&empty), "slopguard: no change passed the guards");
        let body = render_body(&empty);
        assert!(body.contains("_not measured_"));
        assert!(body.contains("_no tasks_"));
        assert!(body.contains("_no guard ran_"));
    }
}
