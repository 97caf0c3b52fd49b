//! conflict-marker: merge-conflict or edit-block markers left in a file no parser checks.

use slopguard_lang::FileKind;

use crate::{Context, Finding, Guard, GuardInfo, Severity};

/// The conflict-marker guard.
pub struct ConflictMarker;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "conflict-marker",
    code: None,
    summary: "merge-conflict or SEARCH/REPLACE markers (<<<<<<< / ======= / >>>>>>>) added to Markdown, text and other files no parser checks",
    doc: include_str!("../../docs/conflict-marker.md"),
    default_enabled: true,
    failure_mode: "patcher_reject",
    trace_event: "critic_conflict_marker.fail",
};

/// Which marker a line is, by its first seven characters (followed by nothing or a space).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marker {
    Open,
    Middle,
    Close,
}

fn marker(line: &str) -> Option<Marker> {
    let line = line.trim_end();
    // `get` rather than slicing: the seventh byte may fall inside a multi-byte character.
    let (head, rest) = (line.get(..7)?, line.get(7..)?);
    if !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    match head {
        "<<<<<<<" => Some(Marker::Open),
        "=======" if rest.is_empty() => Some(Marker::Middle),
        ">>>>>>>" => Some(Marker::Close),
        _ => None,
    }
}

/// Files a parser checks are left to the syntax guard (a marker there is a syntax error unless
/// it sits inside a string literal, where it is data); test data may hold markers on purpose.
fn is_checked_here(kind: FileKind, path: &str) -> bool {
    let test_data = path.split('/').any(|c| {
        matches!(
            c,
            "test" | "tests" | "testdata" | "fixtures" | "__fixtures__" | "spec" | "__snapshots__"
        )
    });
    matches!(kind, FileKind::Markdown | FileKind::Other) && !test_data
}

/// Line numbers (1-based) of the lines inside fenced code blocks of a Markdown text.
fn fenced_lines(text: &str) -> Vec<bool> {
    let mut inside = false;
    text.lines()
        .map(|l| {
            let t = l.trim_start();
            if t.starts_with("```") || t.starts_with("~~~") {
                inside = !inside;
                return true;
            }
            inside
        })
        .collect()
}

/// The first complete marker block (open, middle, close, in that order) among `lines`: the
/// line of its opening marker.
fn first_block(lines: &[(u32, &str)]) -> Option<u32> {
    let mut open = None;
    let mut middle = false;
    for &(n, l) in lines {
        match (marker(l), open, middle) {
            (Some(Marker::Open), _, _) => {
                open = Some(n);
                middle = false;
            }
            (Some(Marker::Middle), Some(_), _) => middle = true,
            (Some(Marker::Close), Some(at), true) => return Some(at),
            _ => {}
        }
    }
    None
}

impl Guard for ConflictMarker {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        for file in cx.files() {
            let path = file.path();
            if !is_checked_here(file.kind(), path) {
                continue;
            }
            let Some(after) = file.after_text() else {
                continue;
            };
            let fenced = if file.kind() == FileKind::Markdown {
                fenced_lines(after)
            } else {
                Vec::new()
            };
            let added: Vec<(u32, &str)> = file
                .line_changes()
                .added
                .iter()
                .copied()
                .filter(|(n, _)| !fenced.get(*n as usize - 1).copied().unwrap_or(false))
                .collect();
            if let Some(line) = first_block(&added) {
                out.push(
                    Finding::new(
                        &INFO,
                        Severity::Block,
                        "conflict markers (<<<<<<< / ======= / >>>>>>>) left in the file",
                    )
                    .at(path, Some(line), None)
                    .feedback(format!(
                        "`{path}` line {line} starts a block of conflict or edit markers \
                         (`<<<<<<<`, `=======`, `>>>>>>>`): the markers of a merge or of a \
                         SEARCH/REPLACE block were written into the file. Write the file's final \
                         text only, without the markers."
                    )),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_are_whole_seven_character_runs() {
        assert_eq!(marker("<<<<<<< HEAD"), Some(Marker::Open));
        assert_eq!(marker("<<<<<<< SEARCH"), Some(Marker::Open));
        assert_eq!(marker("======="), Some(Marker::Middle));
        assert_eq!(marker(">>>>>>> feature/x"), Some(Marker::Close));
        assert_eq!(marker("<<<<<<<< eight"), None);
        assert_eq!(marker("======= text"), None, "a middle marker stands alone");
        assert_eq!(marker("=========="), None, "a Markdown or RST underline");
        assert_eq!(marker("<<< short"), None);
        assert_eq!(
            marker("- ⚠️ Added support"),
            None,
            "no byte-slicing inside a character"
        );
    }

    #[test]
    fn only_a_complete_block_in_order_counts() {
        let block = [
            (3, "<<<<<<< HEAD"),
            (4, "a"),
            (5, "======="),
            (6, ">>>>>>> b"),
        ];
        assert_eq!(first_block(&block), Some(3));
        assert_eq!(first_block(&block[1..]), None, "no opening marker");
        assert_eq!(
            first_block(&[(1, "<<<<<<< HEAD"), (2, ">>>>>>> b")]),
            None,
            "no middle"
        );
    }
}
