//! The Q&A round: one call asks three questions that test the change's self-consistency, a
//! defender answers them. A revision in the defender's answer (whole files after the answers)
//! is applied only when every static guard, the build and the tests pass on it.

use serde_json::{Value, json};
use slopguard_llm::Message;

use super::CriticsError;
use super::revision::try_revision;
use super::{Models, QaExchange, Workspace, task_and_diff};

/// Questions asked.
const QUESTIONS: usize = 3;

/// Runs the round and records it.
pub fn round(
    ws: &Workspace<'_>,
    diff: &str,
    models: &mut Models<'_>,
    emit: &dyn Fn(&str, Value),
) -> Result<(), CriticsError> {
    let ask = [
        Message::system(format!(
            "You test whether a change is consistent with itself and its task. Ask exactly \
             {QUESTIONS} short questions about it, one per line, each starting with `Q:`."
        )),
        Message::user(task_and_diff(ws, diff)),
    ];
    let Some(reply) = models.ask("qa", &ask, 200) else {
        return Ok(());
    };
    let questions = parse_questions(&reply);
    if questions.is_empty() {
        models
            .report()
            .skipped
            .push("qa: no question in the reply".into());
        return Ok(());
    }
    let files = super::refiner::changed_files(ws)?;
    let Some(answer) = models.ask("qa", &defence(ws, diff, &questions, &files), 2048) else {
        return Ok(());
    };
    let answers = parse_answers(&answer, questions.len());
    let exchanges: Vec<QaExchange> = questions
        .into_iter()
        .zip(answers)
        .map(|(question, answer)| QaExchange { question, answer })
        .collect();
    emit("critic_qa.answers", json!({"exchanges": exchanges}));
    let report = models.report();
    report.ran.push("qa".into());
    report.qa = exchanges;
    if answer.contains("```") {
        let paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
        let revised = try_revision(ws, "qa", revision_part(&answer), &paths, &mut |_| Ok(()))?;
        emit("critic_qa.revision", json!(revised.outcome));
        models.kept(revised.tests);
        models.report().qa_revision = Some(revised.outcome);
    }
    Ok(())
}

fn defence(
    ws: &Workspace<'_>,
    diff: &str,
    questions: &[String],
    files: &[(String, String)],
) -> Vec<Message> {
    let numbered: Vec<String> = questions
        .iter()
        .enumerate()
        .map(|(i, q)| format!("Q{}: {q}", i + 1))
        .collect();
    vec![
        Message::system(
            "You defend a change you made. Answer each question on one line starting with \
             `A1:`, `A2:`, ... If an answer shows the change is wrong, add after the answers a \
             one-line commit message, then each fixed file: its path on a line, then the whole \
             file in a fenced block. Otherwise write no code.",
        ),
        Message::user(format!(
            "{}\n{}\n\nThe files now:\n{}\n",
            task_and_diff(ws, diff),
            numbered.join("\n"),
            super::refiner::show_files(files)
        )),
    ]
}

/// The `Q:` lines of a reply.
fn parse_questions(reply: &str) -> Vec<String> {
    reply
        .lines()
        .filter_map(|l| {
            let l = l.trim().trim_start_matches(['-', '*', ' ']);
            let rest = l.strip_prefix("Q:").or_else(|| {
                let (head, rest) = l.split_once(':')?;
                (head.starts_with('Q') && head[1..].chars().all(|c| c.is_ascii_digit()))
                    .then_some(rest)
            })?;
            let q = rest.trim();
            (!q.is_empty()).then(|| q.to_string())
        })
        .take(QUESTIONS)
        .collect()
}

/// The `A<n>:` answers, one per question (empty when missing).
fn parse_answers(reply: &str, n: usize) -> Vec<String> {
    (1..=n)
        .map(|i| {
            let prefix = format!("A{i}:");
            reply
                .lines()
                .find_map(|l| l.trim().strip_prefix(&prefix).map(|a| a.trim().to_string()))
                .unwrap_or_default()
        })
        .collect()
}

/// The reply after its answer lines: the commit message and the files.
fn revision_part(reply: &str) -> &str {
    let last_answer = reply
        .lines()
        .take_while(|l| !l.trim_start().starts_with("```"))
        .filter(|l| {
            let t = l.trim();
            t.starts_with('A')
                && t[1..]
                    .split(':')
                    .next()
                    .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty())
        })
        .last();
    match last_answer.and_then(|l| reply.find(l).map(|i| i + l.len())) {
        Some(end) => reply[end..].trim_start_matches('\n'),
        None => reply,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_answers_and_the_revision_are_read() {
        let q = parse_questions(
            "Sure.\nQ: What does add(0, 0) return?\nQ2: Is sub tested?\n- Q3: Why?\nQ: a fourth",
        );
        assert_eq!(q, ["What does add(0, 0) return?", "Is sub tested?", "Why?"]);
        let reply = "A1: 0\nA2: no\nA3: because\nFix sub too\ncalc.py\n```python\nx = 1\n```\n";
        assert_eq!(parse_answers(reply, 3), ["0", "no", "because"]);
        assert!(revision_part(reply).starts_with("Fix sub too\ncalc.py"));
        assert_eq!(parse_answers("A1: yes", 2), ["yes", ""]);
    }
}
