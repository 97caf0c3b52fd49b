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
use super::fault_line::FaultLine;
use crate::plan::Subtask;

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

/// Which files are rewritten whole: the limits come from the model (a small model copies a
/// whole small file more reliably than it quotes search text) and from its `max_tokens` (a
/// whole file must fit in one reply).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatPolicy {
    /// Files of at most this many lines are rewritten whole.
    pub whole_file_max_lines: usize,
    /// Reply budget in tokens; a file needing more than 60 % of it takes SEARCH/REPLACE.
    pub max_reply_tokens: usize,
    /// SEARCH/REPLACE for every file (a candidate asked in the other format).
    pub blocks_only: bool,
}

impl FormatPolicy {
    /// The policy for `model` (an id like `qwen2.5-coder-1.5b-instruct`) with `max_tokens`:
    /// whole files up to 250 lines for models under 7B parameters or of unknown size, up to 80
    /// lines for larger ones.
    pub fn for_model(model: &str, max_tokens: u32) -> Self {
        let small = model_billions(model).is_none_or(|b| b < 7.0);
        FormatPolicy {
            whole_file_max_lines: if small { 250 } else { 80 },
            max_reply_tokens: max_tokens as usize,
            blocks_only: false,
        }
    }

    fn whole(&self, text: &str) -> bool {
        !self.blocks_only
            && text.lines().count() <= self.whole_file_max_lines
            && estimate_tokens(text) * 10 <= self.max_reply_tokens * 6
    }
}

impl Default for FormatPolicy {
    fn default() -> Self {
        FormatPolicy {
            whole_file_max_lines: 250,
            max_reply_tokens: 2048,
            blocks_only: false,
        }
    }
}

/// The parameter count in billions named in a model id (`...-1.5b-...`, `7B`, `qwen2.5:14b`).
pub fn model_billions(model: &str) -> Option<f64> {
    let lower = model.to_ascii_lowercase();
    lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
        .filter_map(|w| w.strip_suffix('b'))
        .filter_map(|n| n.parse::<f64>().ok())
        .find(|n| *n > 0.0 && *n < 2000.0)
}

/// A definition the model is asked to rewrite alone: the function the failing tests call.
/// The smallest answer a small model can give, and one that cannot drop anything else.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionTarget {
    /// The file.
    pub path: String,
    /// The definition's name as the language layer gives it (`average`, `Stack::peek`).
    pub name: String,
    /// 1-based first line.
    pub start: usize,
    /// 1-based last line (inclusive).
    pub end: usize,
}

impl FunctionTarget {
    /// The name without its owner (`Stack::peek` -> `peek`).
    pub fn simple_name(&self) -> &str {
        self.name
            .rsplit([':', '.', '#'])
            .next()
            .unwrap_or(&self.name)
    }
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

    /// Whether the prompt is a brief one about one place: a statement of the target
    /// definition offered as the wrong one, or one definition to rewrite whole.
    pub fn is_focused(&self) -> bool {
        self.line.as_ref().is_some_and(|l| l.suspect_in.is_some()) || self.function.is_some()
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
}

/// Builds the worker prompt.
pub fn build(input: &PromptInput<'_>) -> WorkerPrompt {
    if let Some((line, function)) = input
        .line
        .and_then(|l| l.suspect_in.as_ref().map(|f| (l, f)))
    {
        return focused_line_prompt(input, line, function);
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

/// `line 48` or `lines 48-50`.
fn line_words(l: &FaultLine) -> String {
    if l.start == l.end {
        format!("line {}", l.start)
    } else {
        format!("lines {}-{}", l.start, l.end)
    }
}

/// How to answer with one statement fixed: the statement where the failing tests break.
fn line_format(l: &FaultLine) -> String {
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
/// wrong one ([`crate::worker::fault_line::suspects`]): only what the failure printed, the
/// failing tests, the definition with the comment above it, and the statement. No rules, no
/// file listing, no earlier attempt's findings (they were about other statements): measured
/// with the 0.5B model in plain chat (BENCHMARKS.md, the model probe), a prompt this short
/// gets the named line fixed where the full worker prompt gets it copied back unchanged.
fn focused_line_prompt(
    input: &PromptInput<'_>,
    line: &FaultLine,
    function: &FunctionTarget,
) -> WorkerPrompt {
    let lang = fence_language(&line.path);
    let shown = ShownDefinition::read(input.tree, function);
    let mut user = String::new();
    push_brief_failure(&mut user, input.failure);
    push_definition(&mut user, function, &shown);
    user.push_str(&format!(
        "\nThis line of `{}` is wrong:\n```{lang}\n{}\n```\nWrite that line, fixed, in a \
         ```{lang} fence (it may become a few lines). Nothing else: the rest of the file stays \
         as it is.",
        function.simple_name(),
        line.text,
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
    }
}

/// A definition as a brief prompt shows it: with the comment block above it.
struct ShownDefinition {
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
fn push_brief_failure(user: &mut String, failure: Option<&FailureContext>) {
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

/// A definition as the brief prompts show it, the same way in each: its name, place and
/// lines, with the comment above it.
fn push_definition(user: &mut String, function: &FunctionTarget, shown: &ShownDefinition) {
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
fn read_text(tree: &dyn Tree, path: &str) -> String {
    tree.read(path)
        .ok()
        .flatten()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

/// The first line of the comment block (or decorators) directly above 1-based line `start`,
/// or `start` when there is none: a definition's doc comment says what it should do.
fn comment_start(lines: &[&str], start: usize) -> usize {
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
const BRIEF_FEEDBACK_CHARS: usize = 1200;

/// The prompt for one definition the failing tests call, rewritten whole: what the failure
/// printed, the failing tests, the definition with the comment above it, and the question, in
/// the words a peer uses ("this test fails; the bug is in this function"). No rules block and
/// no file listing: the answer is one definition, spliced in place of the old one, so it
/// cannot touch anything else. No explanation is asked for: asked to name the bug in one line
/// first, the 1.5B model wrote a paragraph before and after the code (answers 1.7 times as long
/// as whole files, two of them cut off at the reply cap; BENCHMARKS.md, session 11).
fn definition_prompt(input: &PromptInput<'_>, function: &FunctionTarget) -> WorkerPrompt {
    let lang = fence_language(&function.path);
    let shown = ShownDefinition::read(input.tree, function);
    let name = function.simple_name();
    let mut user = String::new();
    push_brief_failure(&mut user, input.failure);
    push_definition(&mut user, function, &shown);
    if !input.feedback.trim().is_empty() {
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
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_change::MemTree;
    use std::collections::BTreeMap;

    fn subtask(hints: &[&str]) -> Subtask {
        Subtask {
            id: "T001-S01".into(),
            title: "Fix find_user".into(),
            description: "parameterise the query in find_user".into(),
            file_hints: hints.iter().map(|s| s.to_string()).collect(),
            action: crate::plan::Action::Modify,
        }
    }

    fn input<'a>(st: &'a Subtask, tree: &'a dyn Tree, budget: usize) -> PromptInput<'a> {
        PromptInput {
            subtask: st,
            task_title: "t",
            tree,
            budget_tokens: budget,
            feedback: "",
            attempt: 1,
            failure: None,
            policy: FormatPolicy::default(),
            function: None,
            line: None,
            regression_test: None,
        }
    }

    #[test]
    fn small_files_whole_big_files_as_regions_with_blocks() {
        let mut big = String::new();
        for i in 0..400 {
            big.push_str(&format!("def helper_{i}(x):\n    return x + {i}\n\n"));
        }
        big.push_str("def find_user(conn, name):\n    return conn.execute(\"SELECT * FROM u WHERE n = '%s'\" % name)\n");
        let mut files = BTreeMap::new();
        files.insert("db.py".to_string(), big.clone().into_bytes());
        files.insert("small.py".to_string(), b"def a():\n    return 1\n".to_vec());
        let tree = MemTree::new(files);
        let st = subtask(&["small.py", "db.py", "new.py"]);
        let p = build(&input(&st, &tree, 2000));
        let user = &p.messages[1].content;
        assert!(
            user.contains("small.py\n```python\ndef a():\n    return 1\n```"),
            "{user}"
        );
        assert!(p.whole_allowed("small.py"));
        assert!(!p.whole_allowed("db.py"));
        assert!(p.whole_allowed("new.py"));
        assert!(user.contains("too large to show in full"));
        assert!(user.contains("def find_user(conn, name):"));
        assert!(!user.contains("def helper_10(x)"));
        assert!(
            user.contains("For small.py, new.py: write the path"),
            "{user}"
        );
        assert!(
            user.contains("For db.py: write the path on its own line, then one or more blocks")
        );
        // No placeholder prose and no other language's example to copy.
        assert!(!user.contains("unchanged body"));
        assert!(!user.contains("sqlite3"));
        assert!(!user.contains("\"patches\""));
        assert!(estimate_tokens(user) < 4000);
        // SEARCH/REPLACE blocks have no known size: no reply cap.
        assert_eq!(p.reply_tokens, None);
        let only_small = subtask(&["small.py"]);
        let p = build(&input(&only_small, &tree, 2000));
        let small_tokens = estimate_tokens("def a():\n    return 1\n");
        assert_eq!(p.reply_tokens, Some((small_tokens * 3 / 2 + 200) as u32));
        // Asked for blocks on a file shown whole: twice the file is the most a reply needs.
        let mut blocks = input(&only_small, &tree, 2000);
        blocks.policy.blocks_only = true;
        let p = build(&blocks);
        assert_eq!(
            p.reply_tokens,
            Some((2 * small_tokens * 3 / 2 + 200) as u32)
        );
    }

    #[test]
    fn failing_tests_and_feedback_are_shown() {
        let tree = MemTree::new(BTreeMap::new());
        let st = subtask(&[]);
        let failure = FailureContext {
            output: "AssertionError: 1 != 1.5\n".into(),
            tests: vec![(
                "tests/t.py".into(),
                8,
                "def test_avg(self):\n    ...".into(),
            )],
            frame_files: vec![],
            exercised: vec![("calc.py".into(), "average".into(), 3, 6)],
        };
        let mut i = input(&st, &tree, 100);
        i.failure = Some(&failure);
        i.feedback = "- [G7] dropped get_conn";
        i.attempt = 2;
        let user = build(&i).messages[1].content.clone();
        assert!(user.starts_with("These tests fail:"), "{user}");
        assert!(user.contains("AssertionError: 1 != 1.5"));
        assert!(user.contains("TEST tests/t.py (line 8"));
        assert!(user.contains("call `average` (calc.py, lines 3-6)"));
        assert!(user.contains("WAS REJECTED"));
        assert!(user.contains("dropped get_conn"));
    }

    #[test]
    fn a_function_target_gets_the_brief_prompt_with_the_failure_and_the_definition() {
        let src = "import math\n\n\n# The mean of xs.\ndef average(xs):\n    return sum(xs) / (len(xs) - 1)\n\n\ndef other():\n    return 2\n";
        let tree = MemTree::new([("calc.py".to_string(), src.as_bytes().to_vec())].into());
        let st = subtask(&["calc.py"]);
        let failure = FailureContext {
            output: "AssertionError: 3.0 != 2.0\n".into(),
            tests: vec![(
                "tests/t.py".into(),
                8,
                "def test_avg():\n    assert average([1, 2, 3]) == 2.0".into(),
            )],
            frame_files: vec![],
            exercised: vec![("calc.py".into(), "average".into(), 5, 6)],
        };
        let target = FunctionTarget {
            path: "calc.py".into(),
            name: "average".into(),
            start: 5,
            end: 6,
        };
        let mut i = input(&st, &tree, 4000);
        i.failure = Some(&failure);
        i.function = Some(&target);
        let p = build(&i);
        let user = &p.messages[1].content;
        assert!(user.contains("AssertionError: 3.0 != 2.0"), "{user}");
        assert!(user.contains("def test_avg():"), "{user}");
        // The definition with its comment, not the rest of the file, no rules block.
        assert!(
            user.contains("# The mean of xs.\ndef average(xs):"),
            "{user}"
        );
        assert!(!user.contains("def other()"), "{user}");
        assert!(!user.contains("import math"), "{user}");
        assert!(!user.contains("Rules:"), "{user}");
        assert!(
            user.contains("in one ```python fence, and no explanation"),
            "{user}"
        );
        assert!(
            user.ends_with("Nothing else of the file: the rest stays as it is."),
            "{user}"
        );
        assert!(p.is_focused());
        assert_eq!(p.function.as_ref(), Some(&target));
        assert!(!p.whole_allowed("calc.py"));
        // A copy of the definition sent back is answered in the same conversation: the
        // prompt as it was (a cached prefix), the copy, and the request to change it.
        assert!(p.is_brief() && !p.is_continued());
        let copy = "```python\ndef average(xs):\n    return sum(xs) / (len(xs) - 1)\n```";
        let next = p.after_unchanged_reply(copy);
        assert!(next.is_continued());
        assert_eq!(next.messages[..2], p.messages[..]);
        assert_eq!(next.messages[2].role, "assistant");
        assert_eq!(next.messages[2].content, copy);
        assert!(next.messages[3].content.contains("still fail"));
        assert_eq!(next.function, p.function);
        // A later attempt repeats what was wrong with the earlier one, briefly.
        i.feedback = "- [tests] test_avg still fails";
        i.attempt = 2;
        let user = build(&i).messages[1].content.clone();
        assert!(user.contains("An earlier fix was rejected"), "{user}");
        assert!(user.contains("test_avg still fails"), "{user}");
    }

    #[test]
    fn a_suspect_statement_gets_the_short_prompt_with_the_definition_and_its_comment() {
        let src = "package wc\n\n// Count counts words separated by any whitespace.\nfunc Count(text string) int {\n\treturn len(strings.Split(text, \" \"))\n}\n\nfunc Other() {}\n";
        let tree = MemTree::new(BTreeMap::from([(
            "wc.go".to_string(),
            src.as_bytes().to_vec(),
        )]));
        let st = subtask(&["wc.go"]);
        let function = FunctionTarget {
            path: "wc.go".into(),
            name: "Count".into(),
            start: 4,
            end: 6,
        };
        let line = FaultLine {
            path: "wc.go".into(),
            start: 5,
            end: 5,
            text: "\treturn len(strings.Split(text, \" \"))".into(),
            error: None,
            suspect_in: Some(function.clone()),
        };
        let failure = FailureContext {
            output: "wc_test.go:9: Count = 1, want 2\n".into(),
            tests: vec![(
                "wc_test.go".into(),
                7,
                "func TestCount(t *testing.T) {}".into(),
            )],
            frame_files: vec![],
            exercised: vec![],
        };
        let mut i = input(&st, &tree, 2000);
        i.failure = Some(&failure);
        i.line = Some(&line);
        i.feedback = "- [build] undefined: counts";
        i.attempt = 2;
        let p = build(&i);
        let user = &p.messages[1].content;
        assert!(p.is_focused());
        assert!(user.contains("Count = 1, want 2"), "{user}");
        assert!(user.contains("TEST wc_test.go (line 7;"), "{user}");
        assert!(user.contains("// Count counts words separated by any whitespace.\nfunc Count"));
        // The same opening as the definition prompt for the same function: a caching server
        // reads it once.
        let definition = build(&PromptInput {
            line: None,
            function: Some(line.suspect_in.as_ref().unwrap()),
            ..i
        });
        let opening = user.find("This line of").unwrap();
        assert!(
            definition.messages[1].content.starts_with(&user[..opening]),
            "{}",
            definition.messages[1].content
        );
        assert!(user.contains("This line of `Count` is wrong:"), "{user}");
        // Not the rest of the file, no rules, no findings about another statement.
        assert!(!user.contains("func Other"), "{user}");
        assert!(
            !user.contains("Rules:") && !user.contains("FILES:"),
            "{user}"
        );
        assert!(!user.contains("undefined: counts"), "{user}");
        // The file was not shown whole: only the line (or the definition) is spliced back.
        assert!(!p.whole_allowed("wc.go"));
        assert_eq!(p.target.as_ref(), Some(&function));
        // A frame's line (not a suspect) keeps the full prompt.
        let framed = FaultLine {
            suspect_in: None,
            ..line.clone()
        };
        i.line = Some(&framed);
        let full = build(&i);
        assert!(!full.is_focused());
        assert!(full.messages[1].content.contains("FILES:"));
    }

    #[test]
    fn a_change_that_brings_its_own_test_is_asked_for_one_new_test() {
        let tree = MemTree::new(BTreeMap::from([
            (
                "src/db.py".to_string(),
                b"def f():\n    return 1\n".to_vec(),
            ),
            (
                "tests/test_db.py".to_string(),
                b"def test_f():\n    pass\n".to_vec(),
            ),
        ]));
        let st = subtask(&["src/db.py", "tests/test_db.py"]);
        let plain = build(&input(&st, &tree, 4000)).messages[1].content.clone();
        assert!(
            plain.contains("Never change, skip or delete tests"),
            "{plain}"
        );
        let proof = build(&PromptInput {
            regression_test: Some("tests/test_db.py"),
            ..input(&st, &tree, 4000)
        })
        .messages[1]
            .content
            .clone();
        assert!(
            !proof.contains("Never change, skip or delete tests"),
            "{proof}"
        );
        assert!(
            proof.contains(
                "Add ONE new test to tests/test_db.py that fails on the code as it is now"
            ),
            "{proof}"
        );
        assert!(
            proof.contains(
                "Keep every test and import tests/test_db.py has; add the new test at its end."
            ),
            "{proof}"
        );
    }

    #[test]
    fn model_sizes() {
        assert_eq!(model_billions("qwen2.5-coder-1.5b-instruct"), Some(1.5));
        assert_eq!(model_billions("Qwen/Qwen2.5-Coder-7B-Instruct"), Some(7.0));
        assert_eq!(model_billions("qwen2.5-coder:14b"), Some(14.0));
        assert_eq!(model_billions("scripted-model"), None);
        assert_eq!(
            FormatPolicy::for_model("x-7b", 4096).whole_file_max_lines,
            80
        );
        assert_eq!(
            FormatPolicy::for_model("x-0.5b", 4096).whole_file_max_lines,
            250
        );
        // A file that would not fit in one reply takes blocks.
        let p = FormatPolicy::for_model("x-0.5b", 100);
        assert!(!p.whole(&"x = 1\n".repeat(200)));
    }
}
