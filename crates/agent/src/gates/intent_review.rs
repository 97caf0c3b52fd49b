//! intent-review: the reviewer model reads a candidate's diff next to the subtask and says
//! whether the diff does what the subtask asks. Opt-in (`slopguard run --intent-review`): it costs
//! one model call per candidate that reaches the toolchain.
//!
//! The reviewer answers one line, `VERDICT: ok` or `VERDICT: reject - <reason>`. Only an explicit
//! reject refuses the candidate; an answer that says neither lets it through (a critic that cannot
//! answer must not block a patch the deterministic gates passed), and the trace says so.

use slopguard_change::ChangeSet;
use slopguard_llm::{BlockingClient, LlmError, Message, Role, Sampling};

use super::{Gate, ModelGate, Phase, Rejection, ReviewInput};

/// The intent-review gate.
pub struct IntentReview;

/// Its record (listed by `slopguard guards`).
pub static GATE: Gate = Gate {
    slug: "intent-review",
    code: None,
    phase: Phase::Review,
    summary: "opt-in (--intent-review): the reviewer model says whether the diff does what the subtask asks",
    mode: slopguard_store::FailureMode::Unknown,
    event: "critic_intent_review.fail",
    doc: "# intent-review (opt-in)\n\nWith `slopguard run --intent-review`, every candidate that passed \
          the static guards is shown to the reviewer model (`SLOPGUARD_REVIEWER_MODEL`, else the \
          worker's) as a unified diff beside the subtask, before the build and tests run on it. The \
          reviewer answers `VERDICT: ok` or `VERDICT: reject - <reason>`; a reject refuses the \
          candidate with the reason as feedback. An answer that says neither lets the candidate \
          through. Off by default: one model call per candidate that reaches the toolchain.\n",
};

/// Largest diff shown to the reviewer, in characters.
const MAX_DIFF_CHARS: usize = 12_000;

impl ModelGate for IntentReview {
    fn gate(&self) -> &'static Gate {
        &GATE
    }

    fn review(
        &self,
        input: &ReviewInput<'_>,
        client: &BlockingClient,
    ) -> Result<Option<Rejection>, LlmError> {
        let messages = [
            Message::system(
                "You review one patch. Answer with exactly one line: `VERDICT: ok` when the \
                 patch does what the task asks and nothing unrelated, or `VERDICT: reject - \
                 <one sentence saying what is wrong>` otherwise.",
            ),
            Message::user(format!(
                "Task: {}\n{}\n\nPatch:\n```diff\n{}```\n",
                input.title,
                input.description,
                unified_diff(input.change)
            )),
        ];
        let sampling = Sampling {
            temperature: Some(0.0),
            seed: None,
            max_tokens: Some(120),
        };
        let reply = client.chat_sampled(Role::Reviewer, &messages, sampling)?;
        Ok(verdict(&reply.content).map(|reason| {
            Rejection::message(GATE.slug, Phase::Review, format!("the reviewer: {reason}"))
        }))
    }
}

/// The reason of a `VERDICT: reject` line, or `None` for ok or an answer that says neither.
fn verdict(reply: &str) -> Option<String> {
    let line = reply
        .lines()
        .map(|l| l.trim().trim_matches('`').trim())
        .find(|l| l.to_ascii_lowercase().starts_with("verdict:"))?;
    let rest = line["verdict:".len()..].trim();
    let lower = rest.to_ascii_lowercase();
    if !lower.starts_with("reject") {
        return None;
    }
    let reason = rest["reject".len()..]
        .trim_start_matches([' ', '-', ':', '—', '–'])
        .trim();
    Some(if reason.is_empty() {
        "it does not do what the subtask asks".to_string()
    } else {
        reason.to_string()
    })
}

/// The change as a unified diff (text files), cut at [`MAX_DIFF_CHARS`].
fn unified_diff(change: &ChangeSet) -> String {
    let mut out = String::new();
    for c in &change.changes {
        let before = c.before_text().unwrap_or("");
        let after = c.after_text().unwrap_or("");
        let diff = similar::TextDiff::from_lines(before, after);
        out.push_str(
            &diff
                .unified_diff()
                .context_radius(3)
                .header(&format!("a/{}", c.old_path()), &format!("b/{}", c.path))
                .to_string(),
        );
        if out.len() > MAX_DIFF_CHARS {
            let cut = (0..=MAX_DIFF_CHARS)
                .rev()
                .find(|&i| out.is_char_boundary(i))
                .unwrap_or(0);
            out.truncate(cut);
            out.push_str("\n[diff cut]\n");
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_explicit_reject_refuses() {
        assert_eq!(verdict("VERDICT: ok"), None);
        assert_eq!(
            verdict("Looks fine to me."),
            None,
            "no verdict: let through"
        );
        assert_eq!(
            verdict("`VERDICT: reject - it deletes the tests`").as_deref(),
            Some("it deletes the tests")
        );
        assert_eq!(
            verdict("Some thoughts first.\nverdict: REJECT: wrong file").as_deref(),
            Some("wrong file")
        );
        assert_eq!(
            verdict("VERDICT: reject").as_deref(),
            Some("it does not do what the subtask asks")
        );
    }

    #[test]
    fn the_diff_names_both_sides_and_shows_the_change() {
        let change = ChangeSet::new(
            std::sync::Arc::new(slopguard_change::MemTree::new(Default::default())),
            vec![slopguard_change::FileChange::modify(
                "calc.py",
                "def add(a, b):\n    return a - b\n",
                "def add(a, b):\n    return a + b\n",
            )],
            "test",
        );
        let d = unified_diff(&change);
        assert!(
            d.contains("--- a/calc.py") && d.contains("+++ b/calc.py"),
            "{d}"
        );
        assert!(
            d.contains("-    return a - b") && d.contains("+    return a + b"),
            "{d}"
        );
    }
}
