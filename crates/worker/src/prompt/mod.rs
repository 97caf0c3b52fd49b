//! The worker prompt: the subtask, short scope rules, the failing tests' output and source when
//! the subtask is behind failing tests, the files under a token budget, the answer format, and
//! the previous attempt's findings.
//!
//! Code is asked for as plain text (see [`super::reply`]): a file small enough is shown in full
//! and rewritten whole; a larger one gets SEARCH/REPLACE blocks. Nothing in the prompt is
//! placeholder prose a model could copy into its answer, and no example is in another language
//! than the repository's. Files are never silently truncated: a file that does not fit the
//! budget is shown as the regions around its relevant definitions, with a note that the rest is
//! not shown.

use std::collections::BTreeSet;

use slopguard_change::Tree;
use slopguard_llm::Message;

use super::context::FailureContext;
pub use super::context::FunctionTarget;
use super::fault_line::FaultLine;
use slopguard_planning::plan::Subtask;

mod brief;
mod policy;
#[cfg(test)]
mod tests;

use brief::*;
pub use brief::{refusal_in_brief, written_lines};
pub use policy::{FormatPolicy, model_billions};

/// Rough token count of a text (4 characters per token).
pub fn estimate_tokens(text: &str) -> usize {
    text.len().div_ceil(4)
}

/// Lines of context shown around a relevant symbol of a large file.
const CONTEXT_LINES: usize = 3;

/// How a file is presented to the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Presented {
    /// Shown in full.
    Full {
        /// The model rewrites it whole (otherwise SEARCH/REPLACE blocks).
        whole: bool,
    },
    /// Too large for the budget: regions shown, SEARCH/REPLACE only.
    Regions {
        /// 1-based inclusive line ranges shown.
        ranges: Vec<(usize, usize)>,
        /// Lines in the file.
        total_lines: usize,
    },
    /// A hinted file that does not exist yet (written whole).
    Missing,
    /// Binary or unreadable: not shown, must not be edited.
    Unreadable,
}

/// The prompt with what it promised about each file.
#[derive(Debug, Clone)]
pub struct WorkerPrompt {
    /// The chat messages.
    pub messages: Vec<Message>,
    /// Per hinted file, how it was shown.
    pub files: Vec<(String, Presented)>,
    /// The definition the answer rewrites alone, when the prompt asked for that.
    pub function: Option<FunctionTarget>,
    /// The definition the failing tests point at, whatever the prompt asked for: a reply that
    /// no format reads but that holds this definition is spliced in place of it (set by the
    /// run on every prompt of the subtask).
    pub target: Option<FunctionTarget>,
    /// The statement the answer rewrites alone, when the prompt asked for that.
    pub line: Option<FaultLine>,
    /// Tokens a complete answer needs at most (the files or the definition asked for, with
    /// room to spare), when that is known: a small model that rambles is cut off there.
    pub reply_tokens: Option<u32>,
    /// The refused answers it lists ([`PromptInput::tried`]).
    pub tried: Vec<TriedAnswer>,
}

/// What the model hears after it sent the code back unchanged, in the same conversation.
const SAME_CODE_NUDGE: &str = "That is the code as it already is: the tests above still fail \
     with it. Find what makes them fail and change it. Answer in the same form as before, with \
     the change made.";

impl WorkerPrompt {
    /// This prompt continued after `reply`, which sent the code back unchanged: the reply and
    /// a request to change it, in the same conversation (after ChatRepair). A caching server
    /// reads only the new turns; a model shown its own copy and told it changes nothing
    /// writes something else more often than a fresh sample at a higher temperature does.
    pub fn after_unchanged_reply(&self, reply: &str) -> WorkerPrompt {
        let mut next = self.clone();
        next.messages.push(Message::assistant(reply));
        next.messages.push(Message::user(SAME_CODE_NUDGE));
        next
    }

    /// Whether the answer is one definition or one statement (a brief prompt), not files.
    pub fn is_brief(&self) -> bool {
        self.function.is_some() || self.line.is_some()
    }

    /// What a brief prompt asks the model to rewrite, as a key equal for the same request in
    /// every attempt (`function pkg/m.py:12 parse`, `statement pkg/m.py:40-41`); `None` for a
    /// files prompt.
    pub fn asks_for(&self) -> Option<String> {
        if let Some(l) = &self.line {
            return Some(statement_key(l));
        }
        self.function
            .as_ref()
            .map(|f| format!("function {}:{} {}", f.path, f.start, f.name))
    }

    /// Whether the conversation already holds a reply of the model's.
    pub fn is_continued(&self) -> bool {
        self.messages.iter().any(|m| m.role == "assistant")
    }

    /// Whether `path` may be rewritten whole.
    pub fn whole_allowed(&self, path: &str) -> bool {
        match self.files.iter().find(|(p, _)| p == path) {
            Some((_, Presented::Full { .. })) | Some((_, Presented::Missing)) | None => true,
            Some((_, Presented::Regions { .. })) | Some((_, Presented::Unreadable)) => false,
        }
    }

    /// Whether the prompt is a brief one about one place: a statement asked with its
    /// definition (one offered as the wrong one, or the one a frame names inside the target),
    /// or one definition to rewrite whole.
    pub fn is_focused(&self) -> bool {
        let with_its_definition = |l: &FaultLine| {
            l.suspect_in.is_some()
                || self
                    .target
                    .as_ref()
                    .is_some_and(|t| t.holds(&l.path, l.start, l.end))
        };
        self.line.as_ref().is_some_and(with_its_definition) || self.function.is_some()
    }

    /// The files the prompt showed or named.
    pub fn paths(&self) -> Vec<String> {
        self.files.iter().map(|(p, _)| p.clone()).collect()
    }
}

/// The worker's system message.
pub const SYSTEM: &str = "You are a careful software engineer fixing one small thing in an \
existing repository. You change as little as possible. Deterministic checks (syntax, dropped \
definitions, manifests, build, tests) judge your answer before it is accepted.";

/// The scope rules, in a few lines.
pub const SCOPE_RULES: &str = "Rules:
- Change only the files listed under FILES.
- Keep every function, class, import and constant you do not need to change, exactly as it is.
- No new imports of packages the file does not already use; no changed function signatures.
- Never change, skip or delete tests to make them pass: fix the code.
- The smallest change that does the subtask; no reformatting, no renaming.";

/// The scope rules when the change must bring its own regression test in `test_file`.
fn regression_rules(test_file: &str) -> String {
    SCOPE_RULES.replace(
        "- Never change, skip or delete tests to make them pass: fix the code.",
        &format!(
            "- Keep every existing test and import exactly as it is. Add ONE new test to \
             {test_file} that fails on the code as it is now and passes after your fix (import \
             what it calls)."
        ),
    )
}

/// What the prompt is built from.
#[derive(Clone, Copy)]
pub struct PromptInput<'a> {
    /// The subtask.
    pub subtask: &'a Subtask,
    /// Its task's title.
    pub task_title: &'a str,
    /// The worktree at the branch head.
    pub tree: &'a dyn Tree,
    /// Token budget for file contents.
    pub budget_tokens: usize,
    /// The previous attempt's findings (empty on the first attempt).
    pub feedback: &'a str,
    /// This attempt's number (1-based).
    pub attempt: u32,
    /// The failing tests behind the subtask, when there are.
    pub failure: Option<&'a FailureContext>,
    /// Whole file or SEARCH/REPLACE, per file.
    pub policy: FormatPolicy,
    /// Ask for this one definition, rewritten whole, instead of files.
    pub function: Option<&'a FunctionTarget>,
    /// Ask for this one statement, fixed, instead of files (wins over `function`).
    pub line: Option<&'a FaultLine>,
    /// The test file a new regression test goes into, when the change must bring its own
    /// (`feedback fix`): the rules ask for one new test there instead of "never change tests".
    pub regression_test: Option<&'a str>,
    /// Earlier answers that were refused, shown with a brief prompt so it is not answered the
    /// same way again: a statement's own, or for a definition those to any of its statements.
    pub tried: &'a [TriedAnswer],
}

/// An earlier answer to a brief request, and why it was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TriedAnswer {
    /// The lines it wrote ([`written_lines`]).
    pub written: String,
    /// What the build or the tests said about it, briefly ([`refusal_in_brief`]).
    pub why: String,
}

/// The request key of a statement prompt ([`WorkerPrompt::asks_for`]).
pub fn statement_key(line: &FaultLine) -> String {
    format!("statement {}:{}-{}", line.path, line.start, line.end)
}

/// Builds the worker prompt.
///
/// A statement goes in a brief prompt ([`focused_line_prompt`]) when its definition is known:
/// the one it is offered in, or for the statement a frame names, `input.function` when that
/// holds it. A frame's statement outside every known definition gets the files prompt.
pub fn build(input: &PromptInput<'_>) -> WorkerPrompt {
    if let Some(line) = input.line {
        let definition = line.suspect_in.as_ref().or(input
            .function
            .filter(|f| f.holds(&line.path, line.start, line.end)));
        if let Some(function) = definition {
            return focused_line_prompt(input, line, function);
        }
    }
    if let (None, Some(function)) = (input.line, input.function) {
        return definition_prompt(input, function);
    }
    let subtask = input.subtask;
    // The failure comes first, worded as in the brief prompts: every prompt of an attempt then
    // starts with the same text, and a server that caches prompt prefixes (llama.cpp, vLLM,
    // OpenAI) reads it once, not once per candidate.
    let mut user = String::new();
    push_brief_failure(&mut user, input.failure);
    user.push_str(&format!(
        "TASK: {}\nSUBTASK: {}\n",
        input.task_title, subtask.title
    ));
    if !subtask.description.trim().is_empty() {
        user.push_str(&format!("What to do: {}\n", subtask.description.trim()));
    }
    user.push('\n');
    match input.regression_test {
        Some(tf) => user.push_str(&regression_rules(tf)),
        None => user.push_str(SCOPE_RULES),
    }
    user.push_str("\n\n");
    if let Some(f) = input.failure.filter(|f| !f.is_empty()) {
        push_exercised(&mut user, f);
    }
    let (files_text, files, full_tokens) = show_files(input);
    user.push_str(&files_text);
    user.push('\n');
    match input.line {
        Some(l) => user.push_str(&line_format(l)),
        None => user.push_str(&answer_format(&files)),
    }
    if !input.feedback.trim().is_empty() {
        user.push_str(&format!(
            "\n\nYOUR PREVIOUS ANSWER (attempt {}) WAS REJECTED and nothing of it was kept; the \
             files above are unchanged. Do not send the same answer again. What was wrong:\n{}\n",
            input.attempt.saturating_sub(1),
            input.feedback.trim()
        ));
    }
    user.push('\n');
    match input.line {
        Some(l) => user.push_str(&format!(
            "Now write the fixed {} in a ```{} fence.",
            line_words(l),
            fence_language(&l.path)
        )),
        None => {
            if let Some(tf) = input.regression_test {
                user.push_str(&format!(
                    "Keep every test and import {tf} has; add the new test at its end. "
                ));
            }
            user.push_str(&final_cue(&files));
        }
    }
    let reply_tokens = reply_budget(input, &files, full_tokens);
    WorkerPrompt {
        messages: vec![Message::system(SYSTEM), Message::user(user)],
        files,
        function: input.function.filter(|_| input.line.is_none()).cloned(),
        target: input.function.cloned(),
        line: input.line.cloned(),
        reply_tokens,
        tried: Vec::new(),
    }
}

/// The definitions the failing tests call, named (the failure itself opens the prompt).
fn push_exercised(user: &mut String, f: &FailureContext) {
    if !f.exercised.is_empty() {
        let names: Vec<String> = f
            .exercised
            .iter()
            .map(|(p, n, a, b)| format!("`{n}` ({p}, lines {a}-{b})"))
            .collect();
        user.push_str(&format!(
            "The failing tests call {}: the bug is most likely there.\n\n",
            names.join(", ")
        ));
    }
}

/// The FILES section and how each hinted file was shown.
/// Also returns the tokens of the files shown in full, for the reply budget.
fn show_files(input: &PromptInput<'_>) -> (String, Vec<(String, Presented)>, usize) {
    let words = subtask_words(input.subtask, input.task_title);
    let mut files = Vec::new();
    let mut full_tokens = 0;
    let mut remaining = input.budget_tokens;
    let mut out = String::from("FILES:\n");
    for path in &input.subtask.file_hints {
        let Some(bytes) = input.tree.read(path).ok().flatten() else {
            out.push_str(&format!("{path} (does not exist yet: write it whole)\n\n"));
            files.push((path.clone(), Presented::Missing));
            continue;
        };
        let Ok(text) = String::from_utf8(bytes) else {
            out.push_str(&format!("{path} (binary: do not edit)\n\n"));
            files.push((path.clone(), Presented::Unreadable));
            continue;
        };
        let tokens = estimate_tokens(&text);
        if tokens <= remaining {
            remaining -= tokens;
            full_tokens += tokens;
            let whole = input.policy.whole(&text);
            out.push_str(&format!("{path}\n{}\n", fenced(path, &text)));
            files.push((path.clone(), Presented::Full { whole }));
        } else {
            let (shown, ranges) = show_regions(path, &text, &words, remaining);
            remaining = remaining.saturating_sub(estimate_tokens(&shown));
            out.push_str(&shown);
            files.push((
                path.clone(),
                Presented::Regions {
                    ranges,
                    total_lines: text.lines().count(),
                },
            ));
        }
    }
    (out, files, full_tokens)
}

/// `text` in a fence tagged with the file's language.
fn fenced(path: &str, text: &str) -> String {
    let fence = if text.contains("```") { "````" } else { "```" };
    format!(
        "{fence}{}\n{}{}{fence}\n",
        fence_language(path),
        text,
        if text.ends_with('\n') { "" } else { "\n" }
    )
}

/// The fence info string for a path (`python`, `rust`, ...; empty when unknown).
pub fn fence_language(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "py" => "python",
        "rs" => "rust",
        "go" => "go",
        "js" | "mjs" | "cjs" => "javascript",
        "ts" | "mts" | "cts" => "typescript",
        "tsx" => "tsx",
        "jsx" => "jsx",
        "java" => "java",
        "rb" => "ruby",
        "c" | "h" => "c",
        "cc" | "cpp" | "hpp" | "cxx" => "cpp",
        "sh" | "bash" => "bash",
        "toml" => "toml",
        "json" => "json",
        "yml" | "yaml" => "yaml",
        "md" => "markdown",
        _ => "",
    }
}

/// The regions of a file too large for the budget, with a note saying so.
fn show_regions(
    path: &str,
    text: &str,
    words: &BTreeSet<String>,
    budget: usize,
) -> (String, Vec<(usize, usize)>) {
    let total = text.lines().count();
    let ranges = relevant_ranges(path, text, words, budget);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = format!(
        "{path} (too large to show in full: {total} lines; only the lines below are shown. Edit \
         it with SEARCH/REPLACE blocks that quote lines shown here)\n"
    );
    for (a, b) in &ranges {
        let mut region = String::new();
        for l in &lines[a - 1..*b] {
            region.push_str(l);
            region.push('\n');
        }
        out.push_str(&format!("lines {a}-{b}:\n{}", fenced(path, &region)));
    }
    if ranges.is_empty() {
        out.push_str("(no region fits the budget)\n");
    }
    out.push('\n');
    (out, ranges)
}

/// Tokens a complete answer needs: 1.5 times what it must write, plus 200 for the commit line
/// and fences; `None` when SEARCH/REPLACE blocks are asked for (their size is not known).
fn reply_budget(
    input: &PromptInput<'_>,
    files: &[(String, Presented)],
    full_tokens: usize,
) -> Option<u32> {
    let needed = match input.function {
        _ if input.line.is_some() => input.line.map_or(0, |l| estimate_tokens(&l.text)) + 60,
        Some(f) => {
            let text = read_text(input.tree, &f.path);
            let lines: Vec<&str> = text.lines().collect();
            let end = f.end.min(lines.len());
            estimate_tokens(&lines[f.start.saturating_sub(1).min(end)..end].join("\n"))
        }
        None => {
            let mut missing = 0;
            let mut blocks = false;
            for (_, how) in files {
                match how {
                    Presented::Full { whole: true } => {}
                    Presented::Full { whole: false } => blocks = true,
                    Presented::Missing => missing += 1000,
                    _ => return None,
                }
            }
            // Every file shown is shown in full here, so `full_tokens` is all of them. Blocks
            // quote what they change and write its replacement: at most about twice the files.
            // (A 1.5B model once looped 140 s to a 1,536-token cap on a 30-line file.)
            if blocks {
                2 * full_tokens + missing
            } else {
                full_tokens + missing
            }
        }
    };
    Some((needed * 3 / 2 + 200) as u32)
}

/// How to answer, for the files as they were shown.
fn answer_format(files: &[(String, Presented)]) -> String {
    let whole: Vec<&str> = files
        .iter()
        .filter(|(_, p)| matches!(p, Presented::Full { whole: true } | Presented::Missing))
        .map(|(f, _)| f.as_str())
        .collect();
    let blocks: Vec<&str> = files
        .iter()
        .filter(|(_, p)| {
            matches!(
                p,
                Presented::Full { whole: false } | Presented::Regions { .. }
            )
        })
        .map(|(f, _)| f.as_str())
        .collect();
    let mut s = String::from(
        "ANSWER FORMAT: plain text, no JSON. You may start with a one-line commit message saying \
         what you changed and why.\n",
    );
    if !whole.is_empty() {
        s.push_str(&format!(
            "For {}: write the path on its own line, then the COMPLETE new file in a ``` fence: \
             every line of it, the unchanged ones too. Never shorten it with \"...\" or a comment \
             about unchanged code.\n",
            whole.join(", ")
        ));
    }
    if !blocks.is_empty() {
        s.push_str(&format!(
            "For {}: write the path on its own line, then one or more blocks made of a line \
             `<<<<<<< SEARCH`, lines copied exactly from the file as it is now (before your \
             change, enough of them to occur only once), a line `=======`, the same lines as they \
             must be after your change, and a line `>>>>>>> REPLACE`.\n",
            blocks.join(", ")
        ));
    }
    s.push_str("Write only files you change; nothing after the last file.");
    s
}

/// The last line of the prompt: what to write now (small models follow the last instruction).
fn final_cue(files: &[(String, Presented)]) -> String {
    let whole: Vec<&str> = files
        .iter()
        .filter(|(_, p)| matches!(p, Presented::Full { whole: true } | Presented::Missing))
        .map(|(f, _)| f.as_str())
        .collect();
    match whole.as_slice() {
        [one] if files.len() == 1 => format!(
            "Now write the path {one} on one line, then the complete fixed file in a ```{} fence.",
            fence_language(one)
        ),
        [] => "Now write the path, then your SEARCH/REPLACE blocks.".to_string(),
        _ => "Now write each file you change: its path on one line, then its complete fixed \
              content in a fence (SEARCH/REPLACE blocks for the files that take them)."
            .to_string(),
    }
}

/// Identifier-like words of the subtask (for picking the relevant regions of a large file).
fn subtask_words(subtask: &Subtask, task_title: &str) -> BTreeSet<String> {
    let text = format!("{} {} {}", task_title, subtask.title, subtask.description);
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.len() >= 3)
        .map(|w| w.to_string())
        .collect()
}

/// Line ranges of `text` around the definitions the subtask names (all definitions when none is
/// named), merged and cut to `budget_tokens`.
pub fn relevant_ranges(
    path: &str,
    text: &str,
    words: &BTreeSet<String>,
    budget_tokens: usize,
) -> Vec<(usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let n = lines.len();
    if n == 0 {
        return Vec::new();
    }
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for d in super::context::definitions(path, text) {
        if words.contains(d.simple_name()) || words.contains(&d.name) {
            spans.push((d.start_line as usize, d.end_line as usize));
        }
    }
    if spans.is_empty() {
        // Lines that mention a subtask word.
        for (i, l) in lines.iter().enumerate() {
            if words.iter().any(|w| w.len() >= 4 && l.contains(w.as_str())) {
                spans.push((i + 1, i + 1));
            }
        }
    }
    if spans.is_empty() {
        spans.push((1, n.min(40)));
    }
    let mut spans: Vec<(usize, usize)> = spans
        .into_iter()
        .map(|(a, b)| {
            (
                a.saturating_sub(CONTEXT_LINES).max(1),
                (b + CONTEXT_LINES).min(n),
            )
        })
        .collect();
    spans.sort();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (a, b) in spans {
        match merged.last_mut() {
            Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    let mut out = Vec::new();
    let mut used = 0usize;
    for (a, b) in merged {
        let cost: usize = lines[a - 1..b].iter().map(|l| l.len() + 1).sum::<usize>() / 4 + 1;
        if used + cost > budget_tokens {
            // Keep what fits of this span, never cutting a line.
            let mut end = a;
            let mut c = 0;
            while end <= b {
                c += lines[end - 1].len() / 4 + 1;
                if used + c > budget_tokens {
                    break;
                }
                end += 1;
            }
            if end > a {
                out.push((a, end - 1));
            }
            break;
        }
        used += cost;
        out.push((a, b));
    }
    out
}
