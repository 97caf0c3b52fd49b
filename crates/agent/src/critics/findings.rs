//! The one line format every reviewing critic answers in, and its parser:
//! `- [high|medium|low] path:line: what is wrong`, or `- none`. Small models keep to a line
//! format better than to JSON; a line that does not fit is dropped, never guessed at. The
//! instruction shows the format with placeholders, not an example finding: measured live, the
//! 1.5B model copied an example finding ("add() returns the difference") into every review, so
//! a line that still holds a placeholder is dropped too.

use super::{CriticFinding, Severity};

/// The instruction that asks for the format (at most `max` findings).
pub(super) fn format_instruction(max: usize) -> String {
    format!(
        "List at most {max} problems you see in the diff, one per line, in this form:\n\
         - [SEVERITY] PATH:LINE: WHAT IS WRONG\n\
         where SEVERITY is high (likely a bug), medium or low, PATH:LINE is where in the diff, \
         and WHAT IS WRONG is one sentence of your own. Write `- none` when you find nothing."
    )
}

/// The findings of `reply`, attributed to `critic` (at most `max`).
/// A finding repeated word for word (small models repeat lines) counts once.
pub fn parse_findings(reply: &str, critic: &str, max: usize) -> Vec<CriticFinding> {
    let mut out: Vec<CriticFinding> = Vec::new();
    for f in reply.lines().filter_map(|l| parse_line(l, critic)) {
        if !out
            .iter()
            .any(|o| o.message == f.message && o.file == f.file)
        {
            out.push(f);
        }
    }
    out.truncate(max);
    out
}

/// Placeholders of the instruction: a line holding one was copied, not written.
const PLACEHOLDERS: &[&str] = &["SEVERITY", "PATH:LINE", "WHAT IS WRONG"];

fn parse_line(line: &str, critic: &str) -> Option<CriticFinding> {
    if PLACEHOLDERS.iter().any(|p| line.contains(p)) {
        return None;
    }
    let l = line.trim().trim_start_matches(['-', '*', ' ']);
    let rest = l.strip_prefix('[')?;
    let (severity, rest) = rest.split_once(']')?;
    let severity = match severity.trim().to_ascii_lowercase().as_str() {
        "high" => Severity::High,
        "medium" => Severity::Medium,
        "low" => Severity::Low,
        _ => return None,
    };
    let rest = rest.trim();
    let (file, line, message) = match location(rest) {
        Some((file, line, message)) => (Some(file), line, message),
        None => (None, None, rest),
    };
    let message = message.trim().trim_start_matches(':').trim();
    (!message.is_empty()).then(|| CriticFinding {
        critic: critic.to_string(),
        severity,
        file,
        line,
        message: message.to_string(),
    })
}

/// `path:line: message` or `path: message`, when the first word looks like a path.
fn location(text: &str) -> Option<(String, Option<u32>, &str)> {
    let (head, message) = text.split_once(": ")?;
    let (path, line) = match head.rsplit_once(':') {
        Some((p, n)) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => {
            (p, n.parse().ok())
        }
        _ => (head, None),
    };
    let looks_like_path = !path.contains(' ') && (path.contains('.') || path.contains('/'));
    looks_like_path.then(|| (path.to_string(), line, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_in_the_format_become_findings() {
        let reply = "Here is what I found:\n- [high] calc.py:12: add() subtracts\n\
                     - [Low] README.md: typo in the title\n- [medium] no test covers the edge case\n\
                     - [urgent] x.py:1: not a severity\n- none";
        let f = parse_findings(reply, "devil", 5);
        assert_eq!(f.len(), 3);
        assert_eq!(
            (
                f[0].severity,
                f[0].file.as_deref(),
                f[0].line,
                f[0].message.as_str()
            ),
            (Severity::High, Some("calc.py"), Some(12), "add() subtracts")
        );
        assert_eq!((f[1].file.as_deref(), f[1].line), (Some("README.md"), None));
        assert_eq!(
            (f[2].file.as_deref(), f[2].message.as_str()),
            (None, "no test covers the edge case")
        );
        assert!(parse_findings("- none", "devil", 5).is_empty());
        let twice = "- [high] a.py:1: wrong\n- [high] a.py:1: wrong";
        assert_eq!(parse_findings(twice, "devil", 5).len(), 1);
        assert!(parse_findings("- [high] PATH:LINE: WHAT IS WRONG", "devil", 5).is_empty());
        assert_eq!(parse_findings(reply, "devil", 1).len(), 1);
    }
}
