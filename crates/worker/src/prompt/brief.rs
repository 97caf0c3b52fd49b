//! The brief prompts: one definition, or one statement, asked for alone with the failure.

use super::*;
use slopguard_lang::{DefKind, Definition};
use std::collections::BTreeSet;

/// `line 48` or `lines 48-50`.
pub(super) fn line_words(l: &FaultLine) -> String {
    if l.start == l.end {
        format!("line {}", l.start)
    } else {
        format!("lines {}-{}", l.start, l.end)
    }
}

/// How to answer with one statement fixed: the statement where the failing tests break.
pub(super) fn line_format(l: &FaultLine) -> String {
    let lang = fence_language(&l.path);
    let raises = l
        .error
        .as_deref()
        .map(|e| format!(", which raises `{e}`"))
        .unwrap_or_default();
    let place = match &l.suspect_in {
        Some(function) => format!(
            "The failing tests call `{}`. This code of it, {} of {}",
            function.simple_name(),
            line_words(l),
            l.path
        ),
        None => format!("The failing tests break at {} of {}", line_words(l), l.path),
    };
    format!(
        "{place}{raises}:\n```{lang}\n{}\n```\nThis code is wrong. \
         ANSWER FORMAT: plain text, no JSON. Write only that code, changed so the tests pass (it \
         may become a few lines), in one ```{lang} fence. Nothing else of the file: the rest \
         stays as it is.",
        l.text,
    )
}

/// The prompt for one statement of the definition the failing tests call, offered as the
/// wrong one ([`crate::fault_line::suspects`]) or named by a frame of the failure: only what
/// the failure printed, the
/// failing tests, the definition with the comment above it, and the statement. No rules, no
/// file listing, no earlier attempt's findings (they were about other statements): measured
/// with the 0.5B model in plain chat (BENCHMARKS.md, the model probe), a prompt this short
/// gets the named line fixed where the full worker prompt gets it copied back unchanged.
pub(super) fn focused_line_prompt(
    input: &PromptInput<'_>,
    line: &FaultLine,
    function: &FunctionTarget,
) -> WorkerPrompt {
    let lang = fence_language(&line.path);
    let shown = ShownDefinition::read(input.tree, function);
    let mut user = String::new();
    push_brief_failure(&mut user, input.failure);
    push_outline(&mut user, input.tree, &function.path);
    push_definition(&mut user, function, &shown);
    // A frame's statement is where the failure shows, not surely the code to change (a
    // statement missing before it): the error says what went wrong there.
    let what = match (&line.suspect_in, &line.error) {
        (Some(_), _) => "is wrong".to_string(),
        (None, Some(error)) => format!("is where the failing tests break, raising `{error}`"),
        (None, None) => "is where the failing tests break".to_string(),
    };
    user.push_str(&format!(
        "\nThis line of `{}` {what}:\n```{lang}\n{}\n```\n",
        function.simple_name(),
        line.text,
    ));
    push_tried(
        &mut user,
        input.tried,
        lang,
        "These answers were tried and are wrong",
    );
    user.push_str(&format!(
        "Write that line, fixed, in a ```{lang} fence (it may become a few lines). Nothing \
         else: the rest of the file stays as it is."
    ));
    let files = vec![(line.path.clone(), shown.presented())];
    let reply_tokens = reply_budget(input, &files, 0);
    WorkerPrompt {
        messages: vec![Message::system(SYSTEM), Message::user(user)],
        files,
        function: None,
        target: Some(function.clone()),
        line: Some(line.clone()),
        reply_tokens,
        tried: input.tried.to_vec(),
    }
}

/// Most earlier answers a statement prompt lists ([`push_tried`]), the latest.
const TRIED_SHOWN: usize = 3;

/// The earlier answers to the same statement that the build or the tests refused, each with
/// what they said: a fresh sample of the same request often repeats an answer, and the
/// compiler's word on a near miss (`no method named days_in_month`) is what the next one
/// needs (after ChatRepair, which lists the patches already tried, without a conversation:
/// continued conversations were measured twice and did not help this model).
fn push_tried(user: &mut String, tried: &[TriedAnswer], lang: &str, heading: &str) {
    if tried.is_empty() {
        return;
    }
    user.push_str(&format!("{heading}; do not write them again:\n"));
    for t in &tried[tried.len().saturating_sub(TRIED_SHOWN)..] {
        user.push_str(&format!("```{lang}\n{}\n```\n", t.written.trim_end()));
        if !t.why.is_empty() {
            user.push_str(&format!("{}\n", t.why.trim_end()));
        }
    }
}

/// Most lines of what a refused answer wrote that [`written_lines`] keeps.
const WRITTEN_LINES: usize = 8;

/// The lines `change` adds (inserted or replacing others), in order, at most
/// [`WRITTEN_LINES`]: what an answer to a statement prompt wrote.
pub fn written_lines(change: &slopguard_change::ChangeSet) -> String {
    let mut out: Vec<String> = Vec::new();
    for c in &change.changes {
        let (Some(after), before) = (c.after_text(), c.before_text().unwrap_or("")) else {
            continue;
        };
        let diff = similar::TextDiff::from_lines(before, after);
        out.extend(
            diff.iter_all_changes()
                .filter(|d| d.tag() == similar::ChangeTag::Insert)
                .map(|d| d.value().trim_end().to_string()),
        );
    }
    out.truncate(WRITTEN_LINES);
    out.join("\n")
}

/// Most lines of a refusal that [`refusal_in_brief`] keeps, and most characters of each.
const REFUSAL_LINES: usize = 4;
const REFUSAL_LINE_CHARS: usize = 160;

/// What the build or the tests said about a refused answer, in a few lines: the reason (the
/// findings' first sentence after the one saying what the answer changed), then the lines that
/// carry an error, a failure or a compared value (`error[E0599]: no method named ...`,
/// `NoMethodError: undefined method`, `left: ...`, `got 3, want 4`) and that `already_shown`
/// (the failure the prompt opens with) does not hold: what this answer changed in the
/// failure, not the failure again. A test runner's tallies and advice are left out.
pub fn refusal_in_brief(feedback: &str, already_shown: &str) -> String {
    const MARKS: [&str; 12] = [
        "error",
        "Error",
        "assert",
        "xpected",
        "left:",
        "right:",
        "want",
        "got",
        "!=",
        "fail",
        "panic",
        "undefined",
    ];
    const TALLIES: [&str; 7] = [
        "runs/s",
        "assertions/s",
        " assertions, ",
        " passed in ",
        "rerun",
        "--- PASS",
        "test result:",
    ];
    let shown: BTreeSet<&str> = already_shown.lines().map(str::trim).collect();
    let mut lines = feedback
        .lines()
        .map(|l| match l.split_once("Your answer changed ") {
            // `- [tests] Your answer changed m.py (modify) (2 lines). The build ...`: the tag and
            // what follows the sentence.
            Some((tag, rest)) => match rest.split_once("). ") {
                Some((_, why)) => format!("{tag}{why}"),
                None => String::new(),
            },
            None => l.to_string(),
        })
        .map(|l| l.trim().trim_start_matches("- ").to_string())
        .filter(|l| !l.is_empty() && !TALLIES.iter().any(|t| l.contains(t)));
    let reason = lines.next();
    let telling =
        lines.filter(|l| MARKS.iter().any(|m| l.contains(m)) && !shown.contains(l.as_str()));
    let mut kept: Vec<String> = reason
        .into_iter()
        .chain(telling)
        .map(|l| match l.char_indices().nth(REFUSAL_LINE_CHARS) {
            Some((cut, _)) => format!("{}...", &l[..cut]),
            None => l,
        })
        .collect();
    kept.dedup();
    kept.truncate(REFUSAL_LINES);
    kept.join("\n")
}

/// A definition as a brief prompt shows it: with the comment block above it.
pub(super) struct ShownDefinition {
    /// Its lines, comment first.
    text: String,
    /// 1-based first line shown (the comment's) and last line.
    start: usize,
    end: usize,
    /// Lines in the file.
    total_lines: usize,
}

impl ShownDefinition {
    fn read(tree: &dyn Tree, function: &FunctionTarget) -> Self {
        let text = read_text(tree, &function.path);
        let lines: Vec<&str> = text.lines().collect();
        let end = function.end.min(lines.len());
        let start = comment_start(&lines, function.start).min(end);
        Self {
            text: lines[start.saturating_sub(1)..end].join("\n"),
            start,
            end,
            total_lines: lines.len(),
        }
    }

    /// How the file was presented: the shown lines only.
    fn presented(&self) -> Presented {
        Presented::Regions {
            ranges: vec![(self.start.max(1), self.end)],
            total_lines: self.total_lines,
        }
    }
}

/// The failure part that opens every prompt of a subtask behind failing tests, word for word
/// the same in each (a shared prefix is read once by a caching server): what the tests
/// printed, then each failing test's source.
pub(super) fn push_brief_failure(user: &mut String, failure: Option<&FailureContext>) {
    let Some(f) = failure.filter(|f| !f.is_empty()) else {
        return;
    };
    if !f.output.trim().is_empty() {
        user.push_str("These tests fail:\n");
        user.push_str(f.output.trim_end());
        user.push_str("\n\n");
    }
    for (path, at, src) in &f.tests {
        user.push_str(&format!(
            "TEST {path} (line {at}; it is right, do not change it):\n{}\n\n",
            src.trim_end()
        ));
    }
}

/// Most definitions an outline lists ([`push_outline`]).
const OUTLINE_MAX: usize = 30;

/// Longest line an outline shows (characters); longer ones are cut with `...`.
const OUTLINE_LINE_CHARS: usize = 120;

/// The outline of the file a brief prompt shows a definition of: the first line of each of its
/// functions and constants, in file order, bodies left out. A fix often needs what the file
/// already has (a helper such as `days_in_month`, a constant), and a brief prompt shows one
/// definition alone; a peer shows a map of the repository for the same reason. Placed before
/// the definition, so every brief prompt about the same file opens with the same text (a
/// caching server reads it once). A line the outline already has is not repeated (the
/// same `fn add(self, other: Unit) -> Self::Output {` of several `impl` blocks tells nothing
/// new). Nothing when the file has no more than one such definition, or cannot be read; at
/// most [`OUTLINE_MAX`] lines.
pub(super) fn push_outline(user: &mut String, tree: &dyn Tree, path: &str) {
    let text = read_text(tree, path);
    let lines: Vec<&str> = text.lines().collect();
    let mut seen = std::collections::HashSet::new();
    let firsts: Vec<String> = crate::context::definitions(path, &text)
        .iter()
        .filter(|d| matches!(d.kind, DefKind::Function | DefKind::Const))
        .filter_map(|d| first_line_naming(&lines, d))
        .filter(|line| seen.insert(line.clone()))
        .collect();
    if firsts.len() < 2 {
        return;
    }
    user.push_str(&format!(
        "The functions and constants of {path} (first lines only, bodies not shown; a fix may \
         use them):\n```{}\n",
        fence_language(path)
    ));
    for line in firsts.iter().take(OUTLINE_MAX) {
        user.push_str(line);
        user.push('\n');
    }
    if firsts.len() > OUTLINE_MAX {
        user.push_str(&format!("... ({} more)\n", firsts.len() - OUTLINE_MAX));
    }
    user.push_str("```\n\n");
}

/// The first line of `d`'s span that names it (a decorator or attribute line comes before
/// it), cut at [`OUTLINE_LINE_CHARS`].
fn first_line_naming(lines: &[&str], d: &Definition) -> Option<String> {
    let span = lines
        .get((d.start_line as usize).saturating_sub(1)..(d.end_line as usize).min(lines.len()))?;
    let line = span
        .iter()
        .find(|l| slopguard_lang::mentions_word(l, d.simple_name()))?
        .trim_end();
    Some(match line.char_indices().nth(OUTLINE_LINE_CHARS) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line.to_string(),
    })
}

/// A definition as the brief prompts show it, the same way in each: its name, place and
/// lines, with the comment above it.
pub(super) fn push_definition(
    user: &mut String,
    function: &FunctionTarget,
    shown: &ShownDefinition,
) {
    user.push_str(&format!(
        "`{}` in {} (lines {}-{}):\n```{}\n{}\n```\n",
        function.simple_name(),
        function.path,
        function.start,
        shown.end,
        fence_language(&function.path),
        shown.text,
    ));
}

/// The file at `path` of `tree` as text (lossy), empty when it cannot be read.
pub(super) fn read_text(tree: &dyn Tree, path: &str) -> String {
    tree.read(path)
        .ok()
        .flatten()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

/// The first line of the comment block (or decorators) directly above 1-based line `start`,
/// or `start` when there is none: a definition's doc comment says what it should do.
pub(super) fn comment_start(lines: &[&str], start: usize) -> usize {
    const MAX_COMMENT_LINES: usize = 12;
    let mut first = start;
    while first > 1 && start - first < MAX_COMMENT_LINES {
        let above = lines.get(first - 2).map_or("", |l| l.trim_start());
        let comment = ["//", "#", "/*", "*", "@", "--"]
            .iter()
            .any(|c| above.starts_with(c));
        if !comment || above.is_empty() {
            break;
        }
        first -= 1;
    }
    first
}

/// Most characters of an earlier attempt's findings a brief prompt repeats.
pub(super) const BRIEF_FEEDBACK_CHARS: usize = 1200;

/// The prompt for one definition the failing tests call, rewritten whole: what the failure
/// printed, the failing tests, the definition with the comment above it, and the question, in
/// the words a peer uses ("this test fails; the bug is in this function"). No rules block and
/// no file listing: the answer is one definition, spliced in place of the old one, so it
/// cannot touch anything else. No explanation is asked for: asked to name the bug in one line
/// first, the 1.5B model wrote a paragraph before and after the code (answers 1.7 times as long
/// as whole files, two of them cut off at the reply cap; BENCHMARKS.md, session 11).
pub(super) fn definition_prompt(
    input: &PromptInput<'_>,
    function: &FunctionTarget,
) -> WorkerPrompt {
    let lang = fence_language(&function.path);
    let shown = ShownDefinition::read(input.tree, function);
    let name = function.simple_name();
    let mut user = String::new();
    push_brief_failure(&mut user, input.failure);
    push_outline(&mut user, input.tree, &function.path);
    push_definition(&mut user, function, &shown);
    push_tried(
        &mut user,
        input.tried,
        lang,
        &format!("\nThese changes to `{name}` were tried and are wrong"),
    );
    // The refused answers say what the earlier attempt's findings would, shorter and with
    // what each answer wrote.
    if input.tried.is_empty() && !input.feedback.trim().is_empty() {
        let feedback: String = input
            .feedback
            .trim()
            .chars()
            .take(BRIEF_FEEDBACK_CHARS)
            .collect();
        user.push_str(&format!(
            "\nAn earlier fix was rejected (the code above is unchanged):\n{feedback}\n"
        ));
    }
    user.push_str(&format!(
        "\nThe bug that makes the tests fail is most likely in `{name}`. Write the complete fixed \
         `{name}`, from its first line to its last, in one ```{lang} fence, and no explanation. \
         Nothing else of the file: the rest stays as it is."
    ));
    let files = vec![(function.path.clone(), shown.presented())];
    let reply_tokens = reply_budget(input, &files, 0);
    WorkerPrompt {
        messages: vec![Message::system(SYSTEM), Message::user(user)],
        files,
        function: Some(function.clone()),
        target: Some(function.clone()),
        line: None,
        reply_tokens,
        tried: input.tried.to_vec(),
    }
}
