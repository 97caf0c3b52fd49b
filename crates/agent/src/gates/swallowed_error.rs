//! swallowed-error: a fix may not catch the error a failing test raised and only print it.
//!
//! When a failing test dies of an error the code raised (`sqlite3.OperationalError: near
//! "brien": syntax error`), a small model's cheapest answer is to wrap the failing call in
//! `try: ... except sqlite3.OperationalError as e: print(e)`. The error no longer reaches the
//! test; the bug stays, now silent, and the function returns `None` where it returned a value.
//! This gate refuses a candidate that adds, to a code file, a handler that catches such an
//! error (by its name, or every error: a bare `except`, `Exception`, a JavaScript `catch`, a
//! Ruby `rescue` without a class) and whose body only prints (`print`, `console.log`,
//! `console.error`, `puts`, `p`, `warn`) besides `pass` and comments. A handler that returns a
//! value, assigns a fallback or raises again is handling the error, and passes; so does one
//! that only passes (`except FileNotFoundError: pass` before `return config` is a common and
//! correct fix). Errors of assertions (`AssertionError`) are the tests' own and never count.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use regex::Regex;
use slopguard_change::ChangeSet;
use slopguard_lang::{FileKind, Language};

use super::{Phase, Rejection, RejectionFinding, code_edits};

/// The gate's slug.
pub const SLUG: &str = "swallowed-error";

/// The refusal of `change` when it adds a print-only handler of an error that `output` (what
/// the failing tests printed) shows the code raising; `None` otherwise.
pub fn check(change: &ChangeSet, output: &str) -> Option<Rejection> {
    let raised = raised_errors(output);
    if raised.is_empty() {
        return None;
    }
    let mut findings = Vec::new();
    for edit in code_edits(change, |path| Style::of(path).is_some()) {
        let Some(style) = Style::of(edit.path) else {
            continue;
        };
        let lines: Vec<&str> = edit.after.lines().collect();
        for (n, line) in edit.added_lines() {
            let Some(caught) = style.handler(line) else {
                continue;
            };
            let catches_raised = caught.broad
                || caught
                    .names
                    .iter()
                    .any(|name| raised.contains(name.as_str()));
            if catches_raised && style.body_only_prints(&lines, n) {
                findings.push(RejectionFinding {
                    path: Some(edit.path.to_string()),
                    message: format!(
                        "{}:{}: `{}` catches the error the failing test raised and only prints \
                         it: the bug stays, silent. Fix what raises the error instead",
                        edit.path,
                        n + 1,
                        line.trim()
                    ),
                    data: serde_json::json!({"line": n + 1, "raised": raised.iter().collect::<Vec<_>>()}),
                });
            }
        }
    }
    (!findings.is_empty()).then(|| Rejection::new(SLUG, Phase::Static, findings))
}

/// The error class names (last dotted segment) that `output` shows raised: `Name: message` or
/// `E   Name: message` at a line start (Python, Ruby, JavaScript), assertion errors left out.
fn raised_errors(output: &str) -> BTreeSet<String> {
    static RAISED: OnceLock<Regex> = OnceLock::new();
    let re = RAISED.get_or_init(|| {
        Regex::new(r"(?m)^\s*(?:E\s+)?(?:[\w.]+\.)?(\w*(?:Error|Exception))(?::|\s*$|\s+\()")
            .expect("valid regex")
    });
    re.captures_iter(output)
        .map(|c| c[1].to_string())
        .filter(|n| !n.starts_with("Assert"))
        .collect()
}

/// What a handler line catches.
struct Caught {
    /// Every error (bare `except:`, `Exception`, `BaseException`, a `catch`, a bare `rescue`).
    broad: bool,
    /// The class names it names (last dotted segment).
    names: Vec<String>,
}

/// The languages whose handlers the gate reads.
#[derive(Clone, Copy)]
enum Style {
    Python,
    Script,
    Ruby,
}

impl Style {
    /// The style of the file at `path`, by the language the project's file detection
    /// ([`slopguard_lang::detect`], the path alone) gives it.
    fn of(path: &str) -> Option<Style> {
        match slopguard_lang::detect(path, b"") {
            FileKind::Code(Language::Python) => Some(Style::Python),
            FileKind::Code(Language::JavaScript | Language::TypeScript | Language::Tsx) => {
                Some(Style::Script)
            }
            FileKind::Code(Language::Ruby) => Some(Style::Ruby),
            _ => None,
        }
    }

    /// What `line` catches when it starts a handler.
    fn handler(self, line: &str) -> Option<Caught> {
        let t = line.trim();
        let clause = match self {
            Style::Python => t.strip_prefix("except")?.trim_end_matches(':'),
            Style::Script => {
                let at = t.find("catch")?;
                let before = &t[..at];
                if !(before.is_empty() || before.trim_end().ends_with('}')) {
                    return None;
                }
                return Some(Caught {
                    broad: true,
                    names: Vec::new(),
                });
            }
            Style::Ruby => t.strip_prefix("rescue")?,
        };
        if !(clause.is_empty() || clause.starts_with([' ', '(', '*'])) {
            return None;
        }
        let clause = clause.split(" as ").next().unwrap_or(clause);
        let clause = clause.split("=>").next().unwrap_or(clause);
        let names: Vec<String> = clause
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .filter(|w| !w.is_empty())
            .map(|w| w.rsplit('.').next().unwrap_or(w).to_string())
            .collect();
        let broad = names.is_empty()
            || names
                .iter()
                .any(|n| matches!(n.as_str(), "Exception" | "BaseException" | "StandardError"));
        Some(Caught { broad, names })
    }

    /// Whether the handler starting at line `at` of `lines` has a body of prints only (with
    /// `pass` and comments), at least one print.
    fn body_only_prints(self, lines: &[&str], at: usize) -> bool {
        let indent = |l: &str| l.len() - l.trim_start().len();
        let head = lines[at];
        let body: Vec<&str> = match self {
            Style::Python | Style::Ruby => {
                let own = indent(head);
                lines[at + 1..]
                    .iter()
                    .take_while(|l| l.trim().is_empty() || indent(l) > own)
                    .map(|l| l.trim())
                    .collect()
            }
            Style::Script => {
                let after_brace = head.split_once('{').map(|(_, r)| r.trim()).unwrap_or("");
                if let Some(inline) = after_brace.strip_suffix('}') {
                    vec![inline.trim()]
                } else {
                    let own = indent(head);
                    lines[at + 1..]
                        .iter()
                        .take_while(|l| !(indent(l) <= own && l.trim_start().starts_with('}')))
                        .map(|l| l.trim())
                        .collect()
                }
            }
        };
        let prints = |l: &str| {
            let l = l.trim_end_matches(';');
            [
                "print(",
                "console.log(",
                "console.error(",
                "console.warn(",
                "puts ",
                "puts(",
                "p ",
                "warn ",
                "warn(",
            ]
            .iter()
            .any(|p| l.starts_with(p))
        };
        let quiet = |l: &str| {
            l.is_empty()
                || l.starts_with('#')
                || l.starts_with("//")
                || matches!(l.trim_end_matches(';'), "pass" | "..." | "nil")
        };
        body.iter().any(|l| prints(l)) && body.iter().all(|l| prints(l) || quiet(l))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_change::{FileChange, MemTree};
    use std::sync::Arc;

    fn change(path: &str, before: &str, after: &str) -> ChangeSet {
        ChangeSet::new(
            Arc::new(MemTree::default()),
            vec![FileChange::modify(path, before, after)],
            "t",
        )
    }

    /// What pytest printed for the main job's rung: the code raised OperationalError.
    const SQL_OUTPUT: &str = "    def find_user(conn, name):\n>       row = conn.execute(f\"...\").fetchone()\nE       sqlite3.OperationalError: near \"brien\": syntax error\nsrc/db.py:48: OperationalError\n";
    const FIND: &str = "def find_user(conn, name):\n    row = conn.execute(q).fetchone()\n    return dict(row) if row is not None else None\n";

    #[test]
    fn a_print_only_handler_of_the_raised_error_is_refused() {
        let wrapped = "def find_user(conn, name):\n    try:\n        row = conn.execute(q, (name,)).fetchone()\n        return dict(row) if row is not None else None\n    except sqlite3.OperationalError as e:\n        print(f\"An error occurred: {e}\")\n";
        let r = check(&change("src/db.py", FIND, wrapped), SQL_OUTPUT).expect("refused");
        assert_eq!(r.findings.len(), 1);
        assert!(r.findings[0].message.contains("src/db.py:5"));
        // Every error caught and printed: refused as well.
        let broad = wrapped.replace(
            "except sqlite3.OperationalError as e:",
            "except Exception as e:",
        );
        assert!(check(&change("src/db.py", FIND, &broad), SQL_OUTPUT).is_some());
    }

    #[test]
    fn handling_the_error_or_another_one_passes() {
        let handled = "def find_user(conn, name):\n    try:\n        row = conn.execute(q).fetchone()\n    except sqlite3.OperationalError:\n        return None\n    return dict(row)\n";
        assert!(check(&change("src/db.py", FIND, handled), SQL_OUTPUT).is_none());
        let passed = handled.replace("        return None\n", "        pass\n");
        assert!(check(&change("src/db.py", FIND, &passed), SQL_OUTPUT).is_none());
        let other = "def find_user(conn, name):\n    try:\n        row = conn.execute(q).fetchone()\n    except KeyError as e:\n        print(e)\n    return dict(row)\n";
        assert!(check(&change("src/db.py", FIND, other), SQL_OUTPUT).is_none());
        // Failing assertions are the tests' own errors: nothing was raised by the code.
        let assertion = "E       AssertionError: 3 != 4\ntests/test_x.py:9: AssertionError\n";
        let broad = other.replace("except KeyError as e:", "except Exception as e:");
        assert!(check(&change("src/db.py", FIND, &broad), assertion).is_none());
        // A handler the file already had is not the candidate's.
        assert!(check(&change("src/db.py", &broad, &broad), SQL_OUTPUT).is_none());
    }

    #[test]
    fn javascript_catch_and_ruby_rescue_that_only_print() {
        let js_output = "TypeError: Cannot read properties of undefined (reading 'length')\n    at slug (lib/slug.js:4:20)\n";
        let before = "function slug(s) {\n  return s.trim().toLowerCase()\n}\n";
        let caught = "function slug(s) {\n  try {\n    return s.trim().toLowerCase()\n  } catch (e) {\n    console.error(e)\n  }\n}\n";
        assert!(check(&change("lib/slug.js", before, caught), js_output).is_some());
        let fallback = caught.replace("    console.error(e)\n", "    return ''\n");
        assert!(check(&change("lib/slug.js", before, &fallback), js_output).is_none());
        let rb_output =
            "NoMethodError: undefined method `strip' for nil\n    lib/slug.rb:3:in `slug'\n";
        let rb_before = "def slug(s)\n  s.strip.downcase\nend\n";
        let rescued = "def slug(s)\n  s.strip.downcase\nrescue => e\n  puts e.message\nend\n";
        assert!(check(&change("lib/slug.rb", rb_before, rescued), rb_output).is_some());
    }
}
