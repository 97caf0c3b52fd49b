//! The worker: one subtask attempt from prompt to a judged change.
//!
//! [`prompt::build`] writes the prompt (with [`context::failure_context`] for a subtask behind
//! failing tests); [`reply::parse`] reads the plain-text reply; [`change_from_reply`] turns it
//! into a [`ChangeSet`] over the worktree (search texts placed by the matcher chain of
//! [`slopguard_change::matcher`], elided whole files refused, whole files only where the prompt
//! showed the file in full); [`static_guards`] judges the overlay before anything is written.
//! Every rejection becomes feedback text for the next attempt.

pub mod context;
pub mod fault_line;
pub mod infill;
pub mod prompt;
pub mod reply;
pub mod salvage;
pub mod subject;
pub mod templates;
pub mod trim;

use std::sync::Arc;

use slopguard_change::{
    ChangeSet, LlmPatch, LlmPatchList, PatchAction, SearchReplace, Tree, from_patch_list_traced,
    matcher,
};
use slopguard_fingerprint::Fingerprint;
use slopguard_guards::{Config, Report, run_static_with};
use slopguard_lang::Definition;

use reply::{FileEdit, ReplyFormat};
use slopguard_planning::plan::Subtask;

/// Why a reply could not become a change. The text is written for the model's retry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ApplyError {
    /// What was wrong, for the model.
    pub message: String,
    /// The reply could not be read at all (no file, a cut-off fence), as opposed to edits that
    /// could not be applied.
    pub unreadable: bool,
    /// The reply is the code as it already was (nothing but blank lines or spaces changed).
    pub unchanged: bool,
}

impl ApplyError {
    fn apply(message: String) -> Self {
        ApplyError {
            message,
            unreadable: false,
            unchanged: false,
        }
    }
}

/// A reply turned into a change.
#[derive(Debug, Clone)]
pub struct AppliedReply {
    /// The change over the worktree.
    pub change: ChangeSet,
    /// The reply's format.
    pub format: ReplyFormat,
    /// `path: matcher` for each search/replace edit (`path: whole-file` for whole files).
    pub matchers: Vec<String>,
}

/// Turns a worker reply (plain text) into a change set over `base`.
pub fn change_from_reply(
    base: Arc<dyn Tree>,
    text: &str,
    prompt: &prompt::WorkerPrompt,
) -> Result<AppliedReply, ApplyError> {
    let parsed = match reply::parse(text, &prompt.paths()) {
        Ok(parsed) => parsed,
        Err(e) => salvage_definition(base.as_ref(), text, prompt).ok_or(ApplyError {
            message: e.0,
            unreadable: true,
            unchanged: false,
        })?,
    };
    let mut list = LlmPatchList {
        commit_message: parsed.message.clone(),
        patches: Vec::new(),
    };
    let mut matchers = Vec::new();
    for edit in &parsed.edits {
        let path = edit.path().trim_start_matches("./").to_string();
        let current = base.read(&path).ok().flatten();
        list.patches.push(match edit {
            FileEdit::Whole { content, .. } => {
                check_fence(&path, current.is_some(), prompt)?;
                let (content, how) = match splice_part(prompt, &path, current.as_deref(), content) {
                    Some(Ok(spliced)) => spliced,
                    Some(Err(e)) => return Err(e),
                    None => (content.clone(), "whole-file"),
                };
                check_whole(
                    &path,
                    &content,
                    current.as_deref(),
                    prompt,
                    how == "whole-file",
                )?;
                matchers.push(format!("{path}: {how}"));
                patch(
                    if current.is_some() {
                        PatchAction::Modify
                    } else {
                        PatchAction::Create
                    },
                    &path,
                    Some(content),
                    Vec::new(),
                )
            }
            FileEdit::SearchReplace {
                search, replace, ..
            } => {
                if current.is_none() {
                    return Err(ApplyError::apply(format!(
                        "`{path}` does not exist, so there is nothing to search in; to create \
                         it, write the path and the whole file in a ``` fence"
                    )));
                }
                let edit = SearchReplace {
                    search: search.clone(),
                    replace: replace.clone(),
                };
                patch(PatchAction::Modify, &path, None, vec![edit])
            }
            FileEdit::Delete { .. } => patch(PatchAction::Delete, &path, None, Vec::new()),
        });
    }
    let (mut set, applied) = from_patch_list_traced(base, &list).map_err(|e| {
        ApplyError::apply(format!(
            "{e}\nCopy SEARCH lines exactly from the file as it is now, or write the whole file."
        ))
    })?;
    matchers.extend(
        applied
            .iter()
            .map(|a| format!("{}: {}", a.path, a.matcher.map_or("append", |m| m.name()))),
    );
    if set.is_empty() || set.changes.iter().all(only_whitespace) {
        return Err(ApplyError {
            unchanged: true,
            ..ApplyError::apply(
                "the answer changes nothing but blank lines or spaces: the code is the same as \
                 before. Make the change the subtask asks for"
                    .into(),
            )
        });
    }
    if set.message.as_deref().is_none_or(|m| m.trim().is_empty()) {
        set.message = None;
    }
    Ok(AppliedReply {
        change: set,
        format: parsed.format,
        matchers,
    })
}

/// A fenced answer read as the part of the file the prompt asked for: the fixed statement of a
/// line prompt (or the target definition, when the model wrote that instead), or the
/// definition of a function prompt; spliced into the file, with how (`line`, `function`).
/// `None` when the answer is the whole file, or the prompt asked for no part of `path`.
fn splice_part(
    prompt: &prompt::WorkerPrompt,
    path: &str,
    current: Option<&[u8]>,
    content: &str,
) -> Option<Result<(String, &'static str), ApplyError>> {
    let current = current?;
    if let Some(line) = prompt.line.as_ref().filter(|l| l.path == path) {
        let defines_target = prompt.target.as_ref().is_some_and(|t| {
            t.path == path
                && context::definitions(path, content)
                    .iter()
                    .any(|d| d.simple_name() == t.simple_name())
        });
        if !defines_target {
            return fault_line::splice_statement(line, current, content)
                .map(|r| r.map(|whole| (whole, "line")));
        }
    }
    let function = prompt
        .function
        .as_ref()
        .or(prompt.target.as_ref().filter(|_| prompt.line.is_some()))
        .filter(|f| f.path == path)?;
    // A prompt that showed only the definition cannot get the file back whole: a reply that
    // looks like it holds invented neighbours, and only the definition is taken from it.
    let whole_file = prompt.whole_allowed(path);
    splice_function(function, current, content, whole_file)
        .map(|r| r.map(|whole| (whole, "function")))
}

/// A reply that no format reads, read as the fixed target definition when it holds one: the
/// code left once fence and conflict-marker lines are dropped, when it defines the target.
/// Small models write the right function inside a broken SEARCH/REPLACE block or a fence
/// without a path; the splice takes the definition alone, and every gate still judges it.
fn salvage_definition(
    base: &dyn Tree,
    text: &str,
    prompt: &prompt::WorkerPrompt,
) -> Option<reply::ParsedReply> {
    let target = prompt.function.as_ref().or(prompt.target.as_ref())?;
    let is_markup = |l: &str| {
        let t = l.trim_start();
        t.starts_with("```")
            || t.starts_with("<<<<<<<")
            || t.starts_with(">>>>>>>")
            || t == "======="
    };
    let code: String = text
        .lines()
        .filter(|l| !is_markup(l))
        .map(|l| format!("{l}\n"))
        .collect();
    let name = target.simple_name();
    if !context::definitions(&target.path, &code)
        .iter()
        .any(|d| d.name == name)
    {
        return None;
    }
    let current = base.read(&target.path).ok().flatten()?;
    let whole = splice_function(target, &current, &code, true)?.ok()?;
    Some(reply::ParsedReply {
        format: ReplyFormat::SalvagedDefinition,
        message: None,
        edits: vec![FileEdit::Whole {
            path: target.path.clone(),
            content: whole,
        }],
    })
}

/// The file with the target definition replaced by `reply`, when `reply` is that definition
/// alone, or, when `whole_file` is false, the target definition taken out of whatever
/// `reply` holds (`None` when `whole_file` allows it and `reply` is the whole file: it is then
/// taken as one). The definition is re-indented to where it sits in the file. A reply that
/// does not define the target is refused.
fn splice_function(
    f: &prompt::FunctionTarget,
    current: &[u8],
    reply: &str,
    whole_file: bool,
) -> Option<Result<String, ApplyError>> {
    let text = String::from_utf8_lossy(current);
    let lines: Vec<&str> = text.lines().collect();
    let name = f.simple_name();
    let reply_defs = context::definitions(&f.path, reply);
    if whole_file && looks_like_whole_file(&f.path, &text, reply, &reply_defs, name) {
        return None;
    }
    // The definition inside a reply that wrapped it (a package line, imports, other
    // functions): only the target is taken.
    let reply = definition_lines(reply, &reply_defs, name).unwrap_or_else(|| reply.to_string());
    let Some(first) = reply.lines().find(|l| !l.trim().is_empty()) else {
        return Some(Err(ApplyError::apply("the answer is empty".into())));
    };
    if !reply.lines().take(5).any(|l| l.contains(name)) {
        return Some(Err(ApplyError::apply(format!(
            "the answer does not define `{name}` (it starts with `{}`); write the complete \
             fixed `{name}`, from its first line to its last",
            first.trim()
        ))));
    }
    let file_indent = matcher::indent_of(lines.get(f.start - 1).copied().unwrap_or(""));
    let body = matcher::reindent(
        reply.trim_end_matches('\n'),
        matcher::indent_of(first),
        file_indent,
    );
    let mut out: Vec<&str> = lines[..f.start - 1].to_vec();
    out.extend(body.lines());
    out.extend(&lines[f.end.min(lines.len())..]);
    let mut whole = out.join("\n");
    if text.ends_with('\n') {
        whole.push('\n');
    }
    Some(Ok(whole))
}

/// Whether `reply` is the whole file rather than the definition `name` alone: at least three
/// quarters of the file's length, defining at least half of the file's other definitions.
fn looks_like_whole_file(
    path: &str,
    file: &str,
    reply: &str,
    reply_defs: &[Definition],
    name: &str,
) -> bool {
    let long = reply.lines().count() * 4 >= file.lines().count() * 3;
    let file_defs = context::definitions(path, file);
    let others: Vec<&str> = file_defs
        .iter()
        .map(|d| d.simple_name())
        .filter(|n| *n != name)
        .collect();
    if others.is_empty() {
        return long;
    }
    let kept = others
        .iter()
        .filter(|n| reply_defs.iter().any(|d| d.simple_name() == **n))
        .count();
    long && kept * 2 >= others.len()
}

/// The lines of the definition named `name` among `defs` (the definitions of `text`).
fn definition_lines(text: &str, defs: &[Definition], name: &str) -> Option<String> {
    let def = defs.iter().find(|d| d.simple_name() == name)?;
    let lines: Vec<&str> = text.lines().collect();
    let (a, b) = (
        def.start_line as usize,
        (def.end_line as usize).min(lines.len()),
    );
    (a >= 1 && a <= b).then(|| lines[a - 1..b].join("\n") + "\n")
}

/// The lines of `text` that carry code: trailing whitespace dropped, blank lines skipped. Two
/// texts with the same significant lines differ only in blank lines and spaces.
pub fn significant_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().map(str::trim_end).filter(|l| !l.is_empty())
}

/// Whether a file change only adds or removes blank lines and trailing spaces.
fn only_whitespace(c: &slopguard_change::FileChange) -> bool {
    match (c.before.as_deref(), c.after.as_deref()) {
        (Some(before), Some(after)) => significant_lines(&String::from_utf8_lossy(before))
            .eq(significant_lines(&String::from_utf8_lossy(after))),
        _ => false,
    }
}

fn patch(
    action: PatchAction,
    path: &str,
    content: Option<String>,
    edits: Vec<SearchReplace>,
) -> LlmPatch {
    LlmPatch {
        action,
        path: path.to_string(),
        content,
        edits,
        search: None,
        replace: None,
    }
}

/// An existing file the prompt did not list may not be rewritten (the file fence of the scope
/// rules, enforced before the guards: small models put a test file's path on the fixed source).
fn check_fence(path: &str, exists: bool, prompt: &prompt::WorkerPrompt) -> Result<(), ApplyError> {
    let listed = prompt.paths();
    if !exists || listed.is_empty() || listed.iter().any(|p| p == path) {
        return Ok(());
    }
    Err(ApplyError::apply(format!(
        "`{path}` is not one of the files to change ({}); nothing was applied. Write the path of \
         the file you changed on the line above its fence",
        listed.join(", ")
    )))
}

/// A whole-file rewrite is refused when the prompt did not show the file in full (`whole`:
/// the reply is the file, not a statement or definition spliced into it) or when it elides
/// code.
fn check_whole(
    path: &str,
    content: &str,
    current: Option<&[u8]>,
    prompt: &prompt::WorkerPrompt,
    whole: bool,
) -> Result<(), ApplyError> {
    if whole && current.is_some() && !prompt.whole_allowed(path) {
        return Err(ApplyError::apply(format!(
            "`{path}` was not shown in full, so it cannot be rewritten whole: send SEARCH/REPLACE \
             blocks that quote the lines shown"
        )));
    }
    let old = current.map(String::from_utf8_lossy).unwrap_or_default();
    if let Some((line, text)) = reply::elided_line(content, &old) {
        return Err(ApplyError::apply(format!(
            "your `{path}` leaves code out at line {line} (`{text}`): nothing was applied. Write \
             the complete file, every line of it, the unchanged ones too"
        )));
    }
    Ok(())
}

/// The subtask as the guards' intent.
pub fn guard_task(subtask: &Subtask, task_title: &str) -> slopguard_change::Task {
    slopguard_change::Task {
        title: format!("{task_title}: {}", subtask.title),
        description: subtask.description.clone(),
        file_hints: subtask.file_hints.clone(),
        allowed_manifests: Vec::new(),
        compile_fix: false,
        from_commit_message: false,
    }
}

/// Runs the static guard stack on the overlay (nothing is written).
pub fn static_guards(
    change: &ChangeSet,
    task: &slopguard_change::Task,
    config: &Config,
    fingerprint: Option<&Fingerprint>,
) -> Report {
    run_static_with(change, Some(task), config, |cx| {
        if let Some(fp) = fingerprint {
            cx.set_fingerprint(fp.clone());
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_change::MemTree;
    use std::collections::BTreeMap;

    const CALC: &str = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n";

    fn tree() -> Arc<dyn Tree> {
        let mut m = BTreeMap::new();
        m.insert("calc.py".to_string(), CALC.as_bytes().to_vec());
        Arc::new(MemTree::new(m))
    }

    fn st() -> Subtask {
        Subtask {
            id: "T001-S01".into(),
            title: "fix add".into(),
            description: String::new(),
            file_hints: vec!["calc.py".into()],
            action: slopguard_planning::plan::Action::Modify,
        }
    }

    fn prompt_for(t: &dyn Tree) -> prompt::WorkerPrompt {
        prompt_with(t, &st(), None)
    }

    #[test]
    fn whole_file_reply_applies_with_its_commit_line() {
        let t = tree();
        let p = prompt_for(t.as_ref());
        let reply = format!(
            "Fix add to add\n\ncalc.py\n```python\n{}```\n",
            CALC.replacen("a - b", "a + b", 1)
        );
        let a = change_from_reply(t.clone(), &reply, &p).unwrap();
        assert_eq!(a.format, ReplyFormat::WholeFile);
        assert_eq!(a.change.message.as_deref(), Some("Fix add to add"));
        assert_eq!(a.matchers, vec!["calc.py: whole-file".to_string()]);
    }

    #[test]
    fn blocks_apply_and_errors_are_feedback() {
        let t = tree();
        let p = prompt_for(t.as_ref());
        let ok = "fix add\ncalc.py\n<<<<<<< SEARCH\ndef add(a, b):\n    return a - b\n=======\ndef add(a, b):\n    return a + b\n>>>>>>> REPLACE\n";
        let a = change_from_reply(t.clone(), ok, &p).unwrap();
        assert_eq!(a.change.changes.len(), 1);
        assert_eq!(a.matchers, vec!["calc.py: exact".to_string()]);
        let ambiguous = "x\ncalc.py\n<<<<<<< SEARCH\n    return a - b\n=======\n    return a + b\n>>>>>>> REPLACE\n";
        let e = change_from_reply(t.clone(), ambiguous, &p).unwrap_err();
        assert!(e.message.contains("2 places"), "{e}");
        let missing = "x\ncalc.py\n<<<<<<< SEARCH\n    return a * b\n=======\nx\n>>>>>>> REPLACE\n";
        let e = change_from_reply(t.clone(), missing, &p).unwrap_err();
        assert!(e.message.contains("closest lines"), "{e}");
        let noop = "x\ncalc.py\n<<<<<<< SEARCH\ndef add(a, b):\n=======\ndef add(a, b):\n>>>>>>> REPLACE\n";
        assert!(
            change_from_reply(t.clone(), noop, &p)
                .unwrap_err()
                .message
                .contains("changes nothing")
        );
    }

    #[test]
    fn whole_file_outside_the_listed_files_is_refused() {
        let mut m = BTreeMap::new();
        m.insert("calc.py".to_string(), CALC.as_bytes().to_vec());
        m.insert("test_calc.py".to_string(), b"import calc\n".to_vec());
        let t: Arc<dyn Tree> = Arc::new(MemTree::new(m));
        let p = prompt_for(t.as_ref());
        let reply = format!("fix\ntest_calc.py\n```python\n{CALC}```\n");
        let e = change_from_reply(t.clone(), &reply, &p).unwrap_err();
        assert!(e.message.contains("not one of the files to change"), "{e}");
    }

    #[test]
    fn whole_file_copied_back_unchanged_is_no_change() {
        let t = tree();
        let p = prompt_for(t.as_ref());
        let reply = format!(
            "fix\ncalc.py\n```python\n{}\n```\n",
            CALC.replace("\n\n\n", "\n\n")
        );
        let e = change_from_reply(t.clone(), &reply, &p).unwrap_err();
        assert!(e.message.contains("changes nothing but blank lines"), "{e}");
    }

    #[test]
    fn a_function_alone_is_spliced_where_it_was() {
        let t = tree();
        let s = st();
        let target = add_target();
        let p = prompt::build(&prompt::PromptInput {
            subtask: &s,
            task_title: "t",
            tree: t.as_ref(),
            budget_tokens: 4000,
            feedback: "",
            attempt: 1,
            failure: None,
            policy: prompt::FormatPolicy::default(),
            function: Some(&target),
            line: None,
            regression_test: None,
            tried: &[],
        });
        assert!(
            p.messages[1]
                .content
                .contains("Write the complete fixed `add`, from its first line to its last")
        );
        // The one line naming the bug, then the definition.
        let a = change_from_reply(
            t.clone(),
            "`add` subtracts instead of adding; it returns a + b now.\n```python\ndef add(a, b):\n    return a + b\n```\n",
            &p,
        )
        .unwrap();
        assert_eq!(a.matchers, vec!["calc.py: function".to_string()]);
        let after = String::from_utf8(a.change.changes[0].after.clone().unwrap()).unwrap();
        assert_eq!(after, CALC.replacen("a - b", "a + b", 1));
        let e = change_from_reply(t.clone(), "```python\nx = 1\n```\n", &p).unwrap_err();
        assert!(e.message.contains("does not define `add`"), "{e}");
        // Wrapped in imports and another function: only `add` is taken.
        let wrapped = "```python\nimport os\n\ndef add(a, b):\n    return a + b\n\ndef other():\n    pass\n```\n";
        let a = change_from_reply(t.clone(), wrapped, &p).unwrap();
        let after = String::from_utf8(a.change.changes[0].after.clone().unwrap()).unwrap();
        assert_eq!(after, CALC.replacen("a - b", "a + b", 1));
    }

    /// `add` of [`CALC`], as a definition target.
    fn add_target() -> prompt::FunctionTarget {
        prompt::FunctionTarget {
            path: "calc.py".into(),
            name: "add".into(),
            start: 1,
            end: 2,
        }
    }

    /// The statement of `add` (line 2 of [`CALC`]), as a frame names it (`suspect_in: None`)
    /// or as a suspect of the definition `suspect_in`.
    fn add_statement(suspect_in: Option<prompt::FunctionTarget>) -> fault_line::FaultLine {
        fault_line::FaultLine {
            path: "calc.py".into(),
            start: 2,
            end: 2,
            text: "    return a - b".into(),
            error: None,
            suspect_in,
        }
    }

    /// `p` asks for `add`'s statement: the fixed statement alone (without its indentation)
    /// is spliced as that line, and the whole fixed `add` as the definition, not pasted into
    /// it; both give `add` fixed.
    fn assert_statement_and_definition_answers_splice(t: &Arc<dyn Tree>, p: &prompt::WorkerPrompt) {
        let fixed = CALC.replacen("a - b", "a + b", 1);
        for (answer, how) in [
            ("```python\nreturn a + b\n```\n", "calc.py: line"),
            (
                "```python\ndef add(a, b):\n    return a + b\n```\n",
                "calc.py: function",
            ),
        ] {
            let a = change_from_reply(t.clone(), answer, p).unwrap();
            assert_eq!(a.matchers, vec![how.to_string()], "{answer}");
            assert_eq!(a.change.changes[0].after.as_deref(), Some(fixed.as_bytes()));
        }
    }

    /// The prompt asking for `line` fixed.
    fn line_prompt(
        t: &dyn Tree,
        s: &Subtask,
        line: &fault_line::FaultLine,
    ) -> prompt::WorkerPrompt {
        prompt_with(t, s, Some(line))
    }

    fn prompt_with(
        t: &dyn Tree,
        s: &Subtask,
        line: Option<&fault_line::FaultLine>,
    ) -> prompt::WorkerPrompt {
        prompt::build(&prompt::PromptInput {
            subtask: s,
            task_title: "t",
            tree: t,
            budget_tokens: 4000,
            feedback: "",
            attempt: 1,
            failure: None,
            policy: prompt::FormatPolicy::default(),
            function: None,
            line,
            regression_test: None,
            tried: &[],
        })
    }

    #[test]
    fn a_line_prompt_takes_the_fixed_statement_or_the_whole_definition() {
        let t = tree();
        let s = st();
        let line = add_statement(None);
        let mut p = line_prompt(t.as_ref(), &s, &line);
        let ask = &p.messages[1].content;
        assert!(
            ask.contains("The failing tests break at line 2 of calc.py"),
            "{ask}"
        );
        assert!(
            ask.ends_with("Now write the fixed line 2 in a ```python fence."),
            "{ask}"
        );
        p.target = Some(add_target());
        assert_statement_and_definition_answers_splice(&t, &p);
        // The statement copied back unchanged is no change.
        let e = change_from_reply(t.clone(), "```python\n    return a - b\n```\n", &p);
        assert!(e.unwrap_err().message.contains("changes nothing"));
    }

    #[test]
    fn a_focused_prompts_answer_is_spliced_and_never_taken_as_the_whole_file() {
        let t = tree();
        let s = st();
        let line = add_statement(Some(add_target()));
        let p = line_prompt(t.as_ref(), &s, &line);
        assert!(p.is_focused());
        assert_statement_and_definition_answers_splice(&t, &p);
        // The file was not shown whole, so a long answer is not pasted over it.
        let long = format!("calc.py\n```python\n{}```\n", "x = 1\n".repeat(20));
        let e = change_from_reply(t.clone(), &long, &p).unwrap_err();
        assert!(e.message.contains("not shown in full"), "{e}");
    }

    #[test]
    fn an_unreadable_reply_holding_the_target_definition_is_spliced() {
        let t = tree();
        let mut p = prompt_for(t.as_ref());
        p.target = Some(add_target());
        // A broken SEARCH/REPLACE block (nine `<`, no SEARCH text, no `=======`) around the
        // right function and a stray import, as a 0.5B model wrote it.
        let broken = "<<<<<<<<< calc.py\nfrom calc import add\n\ndef add(a, b):\n    return a + b\n>>>>>>> REPLACE\n";
        let a = change_from_reply(t.clone(), broken, &p).unwrap();
        assert_eq!(a.format, ReplyFormat::SalvagedDefinition);
        let after = String::from_utf8(a.change.changes[0].after.clone().unwrap()).unwrap();
        assert_eq!(after, CALC.replacen("a - b", "a + b", 1));
        // Prose, or code that does not define the target, stays unreadable.
        for reply in ["I fixed it.", "<<<<<<< calc.py\nx = 1\n>>>>>>> REPLACE\n"] {
            let e = change_from_reply(t.clone(), reply, &p).unwrap_err();
            assert!(e.unreadable, "{reply}: {e}");
        }
        // Without a target nothing is salvaged.
        p.target = None;
        assert!(
            change_from_reply(t.clone(), broken, &p)
                .unwrap_err()
                .unreadable
        );
    }

    #[test]
    fn elided_whole_file_is_refused() {
        let t = tree();
        let p = prompt_for(t.as_ref());
        let reply = "fix\ncalc.py\n```python\ndef add(a, b):\n    return a + b\n\n# ... rest of the file unchanged\n```\n";
        let e = change_from_reply(t.clone(), reply, &p).unwrap_err();
        assert!(e.message.contains("leaves code out at line 4"), "{e}");
    }

    #[test]
    fn static_guards_block_dropped_function() {
        let t = tree();
        let p = prompt_for(t.as_ref());
        let bad = "fix add\ncalc.py\n```python\ndef add(a, b):\n    return a + b\n```\n";
        let a = change_from_reply(t.clone(), bad, &p).unwrap();
        let gt = guard_task(&st(), "t");
        let r = static_guards(&a.change, &gt, &Config::default(), None);
        assert!(r.blocked(), "{}", r.feedback());
        assert!(r.guards.iter().any(|g| g.guard == "symbol-preservation"
            && g.status == slopguard_guards::GuardStatus::Blocked));
    }
}
