//! The judge: given the worker's version (v0) and the refiner's (v1), which ships. It answers
//! `PREFER: v0` or `PREFER: v1`; anything else keeps v0, the version the gates already passed
//! as the worker's.

use slopguard_llm::Message;

use super::{Models, Workspace};

/// The judge's choice and its reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The refiner's version is preferred.
    pub prefer_v1: bool,
    /// The line the judge gave (or why v0 stayed).
    pub reason: String,
}

/// Asks the judge; `None` when no answer could be had (budget, model error).
pub fn decide(
    ws: &Workspace<'_>,
    v0_diff: &str,
    refinement_diff: &str,
    models: &mut Models<'_>,
) -> Option<Verdict> {
    let messages = [
        Message::system(
            "You judge two versions of a change. v0 is the change as it stands; v1 is v0 plus a \
             refinement. Answer with one line: `PREFER: v0 - <reason>` or `PREFER: v1 - \
             <reason>`. Prefer v1 only when the refinement clearly fixes a real problem.",
        ),
        Message::user(format!(
            "The change was made for: {}\n\nv0:\n```diff\n{v0_diff}```\n\nThe refinement (v1 = \
             v0 + this):\n```diff\n{refinement_diff}```\n",
            ws.task
        )),
    ];
    let reply = models.ask("judge", &messages, 120)?;
    models.report().ran.push("judge".into());
    Some(parse(&reply))
}

/// The verdict of a reply: v1 only on an explicit `PREFER: v1`.
pub fn parse(reply: &str) -> Verdict {
    let line = reply
        .lines()
        .map(|l| l.trim().trim_matches('`').trim())
        .find(|l| l.to_ascii_lowercase().starts_with("prefer:"));
    match line {
        Some(l) => Verdict {
            prefer_v1: l["prefer:".len()..]
                .trim()
                .to_ascii_lowercase()
                .starts_with("v1"),
            reason: l.to_string(),
        },
        None => Verdict {
            prefer_v1: false,
            reason: "no PREFER line: v0 kept".into(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_explicit_v1_prefers_the_refinement() {
        assert!(parse("PREFER: v1 - handles the empty list").prefer_v1);
        assert!(parse("Thinking...\n`prefer: V1`").prefer_v1);
        assert!(!parse("PREFER: v0 - the refinement adds noise").prefer_v1);
        assert!(!parse("Both look fine.").prefer_v1);
    }
}
