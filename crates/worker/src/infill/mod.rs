//! Infill: the model writes a suspect statement again without being shown it.
//!
//! Asked in a chat to fix a statement it is shown, a small model mostly writes it back as it
//! was: over sessions 20-24 the 1.5B model's answers at the right statement were a copy 37 %
//! of the time and a fix 10 %. A code model trained to fill in the middle (FIM) can be asked
//! differently: the code before the statement, the code after it, and a hole where it was. It
//! cannot copy what it is not shown; it writes what the surrounding code and the failing test
//! call for (after AlphaRepair and FitRepair, which mask the buggy line and let a code model
//! infill it). Each answer becomes a one-statement change judged like a repair template: the
//! static guards, then the build and the tests.
//!
//! A statement can also be missing altogether (a call that updates state, a last step before
//! the result is returned): no rewrite of a statement that is there can fix that. [`gap`]
//! asks for a hole between two statements that held nothing, and the answer is inserted.
//!
//! Pure text work: [`FimFormat`] knows the special tokens of the model families that were
//! trained for it, [`request`] and [`gap`] build the prompt for one hole, and
//! [`InfillRequest::fix`] turns the model's middle into a [`TemplateFix`].

use crate::templates::lexer::{self, Lang, leading_space};
use crate::templates::{Operator, TemplateFix, after_a_jump};
use shown::{condensed, doc_blocks, shown_definition_line, shown_lines};

/// The fill-in-the-middle prompt format of a model family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FimFormat {
    /// Qwen2.5-Coder and later Qwen coder models: `<|fim_prefix|>`, with `<|file_sep|>`
    /// sections for other files.
    Qwen,
    /// StarCoder and StarCoder2: `<fim_prefix>`, with `<file_sep>` sections.
    StarCoder,
    /// DeepSeek-Coder: `<｜fim▁begin｜>`.
    DeepSeek,
    /// Code Llama: `<PRE>`, `<SUF>`, `<MID>`.
    CodeLlama,
}

impl FimFormat {
    /// The format of the model named `model` (its id as the server lists it), when its family
    /// was trained to fill in the middle; `None` for any other model (no infill is asked).
    pub fn for_model(model: &str) -> Option<FimFormat> {
        let m = model.to_ascii_lowercase();
        if m.contains("qwen") && m.contains("coder") {
            Some(FimFormat::Qwen)
        } else if m.contains("starcoder") {
            Some(FimFormat::StarCoder)
        } else if m.contains("deepseek-coder") || m.contains("deepseek_coder") {
            Some(FimFormat::DeepSeek)
        } else if m.contains("codellama") || m.contains("code-llama") || m.contains("code_llama") {
            Some(FimFormat::CodeLlama)
        } else {
            None
        }
    }

    /// The raw prompt: the other files (for the formats that have file sections), then the
    /// code around the hole.
    fn prompt(self, path: &str, prefix: &str, suffix: &str, others: &[(String, String)]) -> String {
        let files = |sep: &str| -> String {
            let mut s = String::new();
            for (p, text) in others {
                s.push_str(&format!("{sep}{p}\n{}\n", text.trim_end()));
            }
            if !s.is_empty() {
                s.push_str(&format!("{sep}{path}\n"));
            }
            s
        };
        match self {
            FimFormat::Qwen => format!(
                "{}<|fim_prefix|>{prefix}<|fim_suffix|>{suffix}<|fim_middle|>",
                files("<|file_sep|>")
            ),
            FimFormat::StarCoder => format!(
                "{}<fim_prefix>{prefix}<fim_suffix>{suffix}<fim_middle>",
                files("<file_sep>")
            ),
            FimFormat::DeepSeek => {
                format!("<｜fim▁begin｜>{prefix}<｜fim▁hole｜>{suffix}<｜fim▁end｜>")
            }
            FimFormat::CodeLlama => format!("<PRE> {prefix} <SUF>{suffix} <MID>"),
        }
    }

    /// Texts that end the middle: the family's end and separator tokens (at most three: the
    /// OpenAI API takes four stops, and a one-line hole adds its newline).
    fn stops(self) -> &'static [&'static str] {
        match self {
            FimFormat::Qwen => &["<|endoftext|>", "<|file_sep|>", "<|fim_pad|>"],
            FimFormat::StarCoder => &["<|endoftext|>", "<file_sep>", "<fim_prefix>"],
            FimFormat::DeepSeek => &["<｜end▁of▁sentence｜>", "<｜fim▁begin｜>"],
            FimFormat::CodeLlama => &["<EOT>", "</s>"],
        }
    }

    /// What the prompt puts between the code before the hole and the code after it.
    fn suffix_marker(self) -> &'static str {
        match self {
            FimFormat::Qwen => "<|fim_suffix|>",
            FimFormat::StarCoder => "<fim_suffix>",
            FimFormat::DeepSeek => "<｜fim▁hole｜>",
            FimFormat::CodeLlama => " <SUF>",
        }
    }
}

/// Whether and how infills are asked for (`slopguard run --infill`, `SLOPGUARD_INFILL`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InfillSetting {
    /// In the format of the model's family ([`FimFormat::for_model`]); none for other models.
    #[default]
    Auto,
    /// Never.
    Off,
    /// In this format, whatever the model's id says (a model served under an alias).
    Format(FimFormat),
}

impl InfillSetting {
    /// The format to ask the model `model` in, if any.
    pub fn format_for(self, model: &str) -> Option<FimFormat> {
        match self {
            InfillSetting::Auto => FimFormat::for_model(model),
            InfillSetting::Off => None,
            InfillSetting::Format(f) => Some(f),
        }
    }
}

impl std::str::FromStr for InfillSetting {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(InfillSetting::Auto),
            "off" => Ok(InfillSetting::Off),
            "qwen" => Ok(InfillSetting::Format(FimFormat::Qwen)),
            "starcoder" => Ok(InfillSetting::Format(FimFormat::StarCoder)),
            "deepseek" => Ok(InfillSetting::Format(FimFormat::DeepSeek)),
            "codellama" => Ok(InfillSetting::Format(FimFormat::CodeLlama)),
            other => Err(format!(
                "`{other}` is not an infill setting (auto, off, qwen, starcoder, deepseek, codellama)"
            )),
        }
    }
}

/// Most tokens a middle of one line may take; each further line of the statement adds as many.
const TOKENS_PER_LINE: u32 = 80;

/// Most lines a middle written into a gap may take: a missing call, or a missing check with
/// its block (`if s[0] == '/' {`, its body, `}`).
const GAP_LINES: usize = 3;

/// What the hole of an [`InfillRequest`] held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hole {
    /// A statement, which the middle replaces.
    Statement,
    /// Nothing: the middle is inserted before line `start`.
    Gap,
}

/// One infill to ask for: the statement at `start..=end` of `path` (or the gap before line
/// `start`), with its prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InfillRequest {
    /// The file.
    pub path: String,
    /// 1-based first line of the statement; for a gap, the line the middle goes before.
    pub start: usize,
    /// 1-based last line (inclusive); for a gap, `start`.
    pub end: usize,
    /// What the hole held.
    pub hole: Hole,
    /// The raw completion prompt.
    pub prompt: String,
    /// Texts that end the middle (a one-line statement also ends at its newline).
    pub stop: Vec<String>,
    /// Most tokens the middle may take.
    pub max_tokens: u32,
    /// The statement's indentation: the prompt ends with it and [`InfillRequest::head`].
    indent: String,
    /// What the middle starts after: a one-line assignment's or `return`'s head
    /// ([`assignment_head`]), else empty.
    head: String,
    /// The file's text the request was built from, which [`InfillRequest::fix`] changes.
    text: String,
    /// The prompt's format.
    format: FimFormat,
    /// The first line of the definition the hole is in, as the prompt shows it above the
    /// hole (with its line ending); `None` when the prompt starts below it. A refined
    /// prompt's note goes above it ([`InfillRequest::refined`]).
    definition_line: Option<String>,
    /// Whether the prompt shows an earlier answer and what the tests said of it
    /// ([`InfillRequest::refined`]).
    pub refined: bool,
}

/// The request for statement `start..=end` (1-based, inclusive) of `text`, the file at
/// `path`, in the definition at `definition` (1-based lines), with `tests` (path, source) as
/// other files of the repository (the failing tests: what the code must do). `None` when the
/// lines are not in the file or are blank.
pub fn request(
    format: FimFormat,
    path: &str,
    text: &str,
    (start, end): (usize, usize),
    definition: (usize, usize),
    tests: &[(String, String)],
) -> Option<InfillRequest> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    if start == 0 || end < start || end > lines.len() {
        return None;
    }
    let first = lines[start - 1];
    if lines[start - 1..end].iter().all(|l| l.trim().is_empty()) {
        return None;
    }
    let indent = leading_space(first).to_string();
    let (lo, hi) = shown_lines(definition, (start, end), lines.len());
    let docs = doc_blocks(&lines);
    let mut prefix = condensed(&lines, &docs, lo - 1..start - 1, definition);
    let head = if start == end {
        assignment_head(first.trim()).unwrap_or("")
    } else {
        ""
    };
    prefix.push_str(&indent);
    prefix.push_str(head);
    let ending = if lines[end - 1].ends_with('\n') {
        "\n"
    } else {
        ""
    };
    let suffix = format!("{ending}{}", condensed(&lines, &docs, end..hi, definition));
    let mut stop: Vec<String> = format.stops().iter().map(|s| s.to_string()).collect();
    if start == end {
        stop.push("\n".into());
    }
    Some(InfillRequest {
        path: path.to_string(),
        start,
        end,
        hole: Hole::Statement,
        prompt: format.prompt(path, &prefix, &suffix, tests),
        stop,
        max_tokens: TOKENS_PER_LINE * (end - start + 1) as u32,
        indent,
        head: head.to_string(),
        text: text.to_string(),
        format,
        definition_line: shown_definition_line(&lines, definition, lo, start),
        refined: false,
    })
}

/// Most characters of one line of a refined prompt's note ([`InfillRequest::refined`]).
const NOTE_LINE_CHARS: usize = 160;

/// Most lines of the tests' message a refined prompt shows.
const NOTE_MESSAGE_LINES: usize = 3;

impl InfillRequest {
    /// The request again, its prompt showing `tried`, an earlier middle, and `message`, what
    /// the failing tests printed with it, as comments above the definition the hole is in
    /// (right above the hole when the prompt does not show the definition's first line): a
    /// small model whose answer came close (the missing check written, its error message
    /// wrong) reads what the test wants and writes the answer again (ChatRepair feeds the
    /// test output back the same way). Above the definition, not at the hole: a note that
    /// ends right where the middle starts is what a completion model goes on writing.
    /// `None` when the message is empty or the prompt's hole is not found.
    pub fn refined(&self, tried: &str, message: &[String]) -> Option<InfillRequest> {
        if message.is_empty() {
            return None;
        }
        let hole = format!(
            "{}{}{}",
            self.indent,
            self.head,
            self.format.suffix_marker()
        );
        let at = self.prompt.rfind(&hole)?;
        let (note_at, indent) = match self
            .definition_line
            .as_deref()
            .and_then(|line| Some((self.prompt[..at].rfind(line)?, leading_space(line))))
        {
            Some(above_definition) => above_definition,
            None => (at, self.indent.as_str()),
        };
        let comment = Lang::of(&self.path).line_comment();
        let one_line = |text: &str| -> String {
            let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
            joined.chars().take(NOTE_LINE_CHARS).collect()
        };
        let mut note = format!(
            "{indent}{comment} Tried: {}\n{indent}{comment} The test still fails:\n",
            one_line(&format!("{}{}", self.head, tried.trim_start()))
        );
        for line in message.iter().take(NOTE_MESSAGE_LINES) {
            note.push_str(&format!("{indent}{comment}   {}\n", one_line(line)));
        }
        let mut prompt = self.prompt.clone();
        prompt.insert_str(note_at, &note);
        Some(InfillRequest {
            prompt,
            refined: true,
            ..self.clone()
        })
    }

    /// The change the model's `middle` makes to the file the request was built from: the
    /// statement's lines replaced by it, with the statement's indentation; else why the
    /// middle is not worth a test run ([`NotAFix`]).
    pub fn fix(&self, middle: &str) -> Result<TemplateFix, NotAFix> {
        if middle.contains("<|") || middle.contains("<fim") {
            // The format's own tokens.
            return Err(NotAFix::Empty);
        }
        if self.hole == Hole::Gap {
            return self.insertion(middle);
        }
        let lines: Vec<&str> = self.text.split_inclusive('\n').collect();
        let middle = middle.trim_end();
        if middle.trim().is_empty() {
            return Err(NotAFix::Empty);
        }
        // The statement as written, without its indentation: the head the prompt ended with
        // (an assignment's target, `return`), then the middle.
        let head = self.head.as_str();
        // A middle that writes the head again (`return return x`) is taken without it.
        let value = middle.trim_start();
        let value = match value.strip_prefix(head.trim_end()) {
            Some(rest) if !head.is_empty() && rest.starts_with(char::is_whitespace) => rest,
            _ => value,
        };
        let middle = &format!("{head}{}", value.trim_start());
        let written: Vec<&str> = middle.lines().collect();
        let statement_lines = self.end - self.start + 1;
        if written.len() > statement_lines + 2 {
            return Err(NotAFix::Runaway);
        }
        let after_hole = lines[self.end..]
            .iter()
            .map(|l| l.trim())
            .find(|l| !l.is_empty());
        let before_hole = code_line_above(&lines, self.start);
        if statement_lines > 1
            && after_hole.is_some_and(|next| written.iter().any(|w| w.trim() == next))
        {
            return Err(NotAFix::Runaway);
        }
        if statement_lines == 1
            && [before_hole, after_hole]
                .into_iter()
                .flatten()
                .any(|l| squash(l) == squash(middle))
        {
            // The line before or after, written again: the statement deleted, in effect.
            return Err(NotAFix::RepeatsNeighbour);
        }
        if written.iter().all(|w| is_comment(w.trim())) {
            // A statement replaced by a comment is a deletion, not a fix.
            return Err(NotAFix::CommentOnly);
        }
        let new_statement = format!("{}{}", self.indent, middle.trim_start());
        let old: String = lines[self.start - 1..self.end].concat();
        let (old_code, new_code) = (squash(&old), squash(&new_statement));
        if new_code
            .strip_prefix(&old_code)
            .is_some_and(|rest| rest.is_empty() || is_comment(rest))
        {
            // The statement as it was, perhaps with a comment after it.
            return Err(NotAFix::Unchanged);
        }
        if !head.is_empty() && computed_made_constant(&old, head, value, Lang::of(&self.path)) {
            return Err(NotAFix::ConstantForComputation);
        }
        let ending = if lines[self.end - 1].ends_with('\n') {
            "\n"
        } else {
            ""
        };
        let mut out = lines[..self.start - 1].concat();
        out.push_str(&new_statement);
        out.push_str(ending);
        out.push_str(&lines[self.end..].concat());
        Ok(TemplateFix {
            path: self.path.clone(),
            line: self.start,
            operator: Operator::Infill,
            before: old.trim().to_string(),
            after: new_statement.trim().to_string(),
            text: out,
        })
    }

    /// The change `middle` makes with each call through a qualifier the file never names
    /// written without it ([`unknown_qualifiers_dropped`]); `None` when it has none, or
    /// without it makes no change.
    pub fn fix_without_unknown_qualifiers(&self, middle: &str) -> Option<TemplateFix> {
        self.fix(&unknown_qualifiers_dropped(middle, &self.text)?)
            .ok()
    }

    /// The model's `middle` for a statement that exits (`return false`, `break`, `raise`)
    /// inserted before it instead of replacing it, when the middle is a step of its own: a
    /// small model asked for the line where a step is missing writes that step (the error
    /// recorded before `return false`, even after the prompt's `return `), and put in the
    /// exit's place it would drop the exit. After a head (`return `) only a call is a step (a
    /// value alone is no statement). `None` for a gap, a statement over several lines, a
    /// middle of several lines, an exit, a comment, or the exit's own value again.
    pub fn fix_before_exit(&self, middle: &str) -> Option<TemplateFix> {
        if self.hole != Hole::Statement || self.start != self.end || middle.contains("<|") {
            return None;
        }
        let lines: Vec<&str> = self.text.split_inclusive('\n').collect();
        let lang = Lang::of(&self.path);
        let exit = lines[self.start - 1].trim();
        let step = middle.trim();
        let call = step.trim_end_matches(';').ends_with(')') && step.contains('(');
        if !after_a_jump(exit, lang)
            || step.is_empty()
            || step.contains('\n')
            || is_comment(step)
            || after_a_jump(step, lang)
            || (!self.head.is_empty() && !call)
            || squash(exit).ends_with(&squash(step))
        {
            return None;
        }
        let mut out = lines[..self.start - 1].concat();
        out.push_str(&format!("{}{}\n", self.indent, step));
        out.push_str(&lines[self.start - 1..].concat());
        Some(TemplateFix {
            path: self.path.clone(),
            line: self.start,
            operator: Operator::Infill,
            before: String::new(),
            after: step.to_string(),
            text: out,
        })
    }

    /// The change a middle written into a gap makes: its lines inserted before line `start`
    /// ([`InfillRequest::written_into_gap`]), at most [`GAP_LINES`] of them; else why not.
    fn insertion(&self, middle: &str) -> Result<TemplateFix, NotAFix> {
        self.inserted(self.written_into_gap(middle), GAP_LINES)
    }

    /// The statements of a middle written into a gap that is too long to be one missing
    /// statement ([`NotAFix::Runaway`]), each inserted alone: the first [`gaps::PARTS`]
    /// top-level statements that fit [`gaps::PART_LINES`] lines and make a change. The model
    /// often writes the missing statement with others around it (`if n % 5 != 0 { v.pop(); }`
    /// before the `v.truncate(n);` that was missing); the tests tell which one it is.
    pub fn parts(&self, middle: &str) -> Vec<TemplateFix> {
        if self.hole != Hole::Gap || !matches!(self.fix(middle), Err(NotAFix::Runaway)) {
            return Vec::new();
        }
        let mut fixes: Vec<TemplateFix> = Vec::new();
        for part in gaps::statements_of(&self.written_into_gap(middle)) {
            if let Ok(fix) = self.inserted(part, gaps::PART_LINES)
                && !fixes.iter().any(|f| f.text == fix.text)
            {
                fixes.push(fix);
            }
            if fixes.len() == gaps::PARTS {
                break;
            }
        }
        fixes
    }

    /// The lines of a middle written into a gap, cut where the model went on to write the
    /// code after the gap again (the line after it, or a line indented less than the gap: the
    /// end of its block), the first at the gap's indentation, without blank lines at the end.
    fn written_into_gap(&self, middle: &str) -> Vec<String> {
        let lines: Vec<&str> = self.text.split_inclusive('\n').collect();
        let next = lines[self.start - 1].trim();
        let mut written: Vec<String> = Vec::new();
        for (i, line) in middle.lines().enumerate() {
            // The first line follows the indentation the prompt ended with.
            let line = match i {
                0 => format!("{}{}", self.indent, line.trim_start()),
                _ => line.to_string(),
            };
            let dedented =
                !line.trim().is_empty() && leading_space(&line).len() < self.indent.len();
            if line.trim() == next || dedented {
                break;
            }
            written.push(line.trim_end().to_string());
        }
        while written.last().is_some_and(|l| l.trim().is_empty()) {
            written.pop();
        }
        written
    }

    /// The change `written` ([`InfillRequest::written_into_gap`]) makes inserted before line
    /// `start`, when it is at most `max_lines` lines of code; else why it is not worth a
    /// test run.
    fn inserted(&self, mut written: Vec<String>, max_lines: usize) -> Result<TemplateFix, NotAFix> {
        let lines: Vec<&str> = self.text.split_inclusive('\n').collect();
        if written.iter().all(|l| l.trim().is_empty()) {
            return Err(NotAFix::Empty);
        }
        if written
            .iter()
            .all(|w| w.trim().is_empty() || is_comment(w.trim()))
        {
            return Err(NotAFix::CommentOnly);
        }
        // The model's comments change nothing the tests see and say what it meant, not what
        // the code does: only the code is inserted, and only the code counts.
        written.retain(|w| !is_comment(w.trim()));
        if written.len() > max_lines {
            return Err(NotAFix::Runaway);
        }
        // The code line after the gap, when it is in the gap's block (not a dedented `}`,
        // `end` or next statement: a block that ends with an exit is whole).
        let in_block = lines[self.start - 1..]
            .iter()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| leading_space(l).len() >= self.indent.len());
        if in_block && after_a_jump(written[0].trim(), Lang::of(&self.path)) {
            // An unconditional exit before the code after the gap: that code deleted, in effect.
            return Err(NotAFix::ExitBeforeCode);
        }
        let before_gap = code_line_above(&lines, self.start);
        if written.len() == 1 && before_gap.is_some_and(|l| squash(l) == squash(&written[0])) {
            // The line above written again: a duplicate, not a missing statement.
            return Err(NotAFix::RepeatsNeighbour);
        }
        let inserted = written.join("\n");
        let mut out = lines[..self.start - 1].concat();
        out.push_str(&inserted);
        out.push('\n');
        out.push_str(&lines[self.start - 1..].concat());
        Ok(TemplateFix {
            path: self.path.clone(),
            line: self.start,
            operator: Operator::Infill,
            before: String::new(),
            after: inserted.trim().to_string(),
            text: out,
        })
    }
}

/// The last non-blank line above 1-based line `start` of `lines`, trimmed.
fn code_line_above<'a>(lines: &[&'a str], start: usize) -> Option<&'a str> {
    lines[..start - 1]
        .iter()
        .rev()
        .map(|l| l.trim())
        .find(|l| !l.is_empty())
}

/// `s` without its whitespace: two lines of code that differ only in spacing compare equal.
fn squash(s: &str) -> String {
    s.split_whitespace().collect()
}

/// The head of a one-line statement that assigns a name or returns, kept in the prompt so
/// that the model writes only the value: `row = `, `let n: usize = `, `x := `, `return `.
/// Without it the model cannot see which name the code after the hole reads (the main job's
/// statement was written as `cur = conn.execute(...)` in 15 of 18 answers, where the next
/// line reads `row`). `None` for compound assignments (`+=`: the operator may be the bug),
/// indexed or destructured targets, and anything else.
fn assignment_head(statement: &str) -> Option<&str> {
    if let Some(rest) = statement.strip_prefix("return ") {
        return (!rest.trim().is_empty()).then(|| &statement[..statement.len() - rest.len()]);
    }
    let after_keyword = ["let mut ", "let ", "const ", "var "]
        .iter()
        .find_map(|k| statement.strip_prefix(k))
        .unwrap_or(statement);
    let name_len = after_keyword
        .char_indices()
        .take_while(|&(i, c)| {
            c.is_alphanumeric() || c == '_' || (i > 0 && c == '.') || (i == 0 && c == '@')
        })
        .count();
    if name_len == 0 || after_keyword.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let rest = &after_keyword[name_len..];
    let rest_trimmed = rest.trim_start();
    let op_at = if rest_trimmed.starts_with(":=") {
        rest.len() - rest_trimmed.len()
    } else if let Some(annotated) = rest_trimmed.strip_prefix(':') {
        // `let n: usize = ...`: the type runs to the first ` = `.
        rest.len() - annotated.len() + annotated.find(" = ")? + 1
    } else if rest_trimmed.starts_with('=') {
        rest.len() - rest_trimmed.len()
    } else {
        return None;
    };
    let op = &rest[op_at..];
    let op_len = if op.starts_with(":=") { 2 } else { 1 };
    if op[op_len..].starts_with(['=', '>', '~']) {
        return None; // `==`, `=>`, `=~`
    }
    let value = &op[op_len..];
    let value_trimmed = value.trim_start();
    if value_trimmed.is_empty() {
        return None;
    }
    let head_len = statement.len() - value_trimmed.len();
    Some(&statement[..head_len])
}

/// A failing test's `source` (the test at `path`) with the failure's `message` under it as
/// comments ([`crate::context::failure_message`]), for the prompt's test file: the values the
/// test expected and got, which the test's source alone does not show (a test over a table of
/// cases names none of them). `source` unchanged when there is no message.
pub fn test_with_failure(path: &str, source: &str, message: &[String]) -> String {
    if message.is_empty() {
        return source.to_string();
    }
    let comment = Lang::of(path).line_comment();
    let mut out = source.trim_end().to_string();
    out.push_str(&format!("\n{comment} When run, this test fails:\n"));
    for line in message {
        out.push_str(&format!("{comment}   {line}\n"));
    }
    out
}

/// Whether `value`, the middle written after `head`, is a lone literal where the statement
/// `old` computed its value from names (`e = e + y//100 - 16` -> `e = 13`). Such a middle can
/// pass the tests only by matching the values they happen to check: the code no longer
/// computes what it did. Seen on the 1.5B model (`e = 13` for an Easter correction that is
/// 13 only for 1900-2099, the years the tests cover).
fn computed_made_constant(old: &str, head: &str, value: &str, lang: Lang) -> bool {
    let old_value = old.trim().strip_prefix(head.trim_end()).unwrap_or("");
    is_literal(value) && !is_literal(old_value) && reads_a_name(old_value, lang)
}

/// A number, a string without interpolation, or a language's literal keyword (a trailing `;`
/// aside).
fn is_literal(value: &str) -> bool {
    let v = value.trim().trim_end_matches(';').trim();
    let number = v
        .strip_prefix('-')
        .unwrap_or(v)
        .split('.')
        .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit() || c == '_'));
    let quoted = v.len() >= 2
        && ['"', '\''].iter().any(|&q| {
            v.starts_with(q) && v.ends_with(q) && !v[1..v.len() - 1].contains([q, '$', '{', '#'])
        });
    number || quoted || LITERAL_KEYWORDS.contains(&v)
}

/// Keywords that are values, not names.
const LITERAL_KEYWORDS: [&str; 9] = [
    "true",
    "false",
    "True",
    "False",
    "None",
    "nil",
    "null",
    "undefined",
    "nullptr",
];

/// Whether `value` reads a name: an identifier token ([`lexer::tokens`]: strings and
/// comments are not identifiers) that is not a literal keyword.
fn reads_a_name(value: &str, lang: Lang) -> bool {
    lexer::tokens(value, lang).iter().any(|t| {
        t.kind == lexer::Kind::Ident && !LITERAL_KEYWORDS.contains(&&value[t.start..t.end])
    })
}

/// Why a middle is not worth judging: it would cost a build and a test run and cannot fix
/// the statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotAFix {
    /// Nothing, or the format's own tokens.
    Empty,
    /// More lines than the statement's and two, or the code after the hole written again.
    Runaway,
    /// The statement as it is (spaces and a trailing comment aside).
    Unchanged,
    /// The line before or after the hole written again: the statement deleted, in effect.
    RepeatsNeighbour,
    /// Only comments: the statement deleted.
    CommentOnly,
    /// A lone literal where the statement computed its value from names: it can pass only
    /// the cases the tests happen to check.
    ConstantForComputation,
    /// An unconditional `return`, `raise` or `break` written into a gap: the code after it
    /// would never run.
    ExitBeforeCode,
}

impl std::fmt::Display for NotAFix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NotAFix::Empty => "empty",
            NotAFix::Runaway => "runs past the statement",
            NotAFix::Unchanged => "no change",
            NotAFix::RepeatsNeighbour => "repeats a neighbouring line",
            NotAFix::CommentOnly => "only a comment",
            NotAFix::ConstantForComputation => "a constant for a computed value",
            NotAFix::ExitBeforeCode => "an exit before code that would never run",
        })
    }
}

/// Whether `text` (trimmed) is a line comment: `//` or `#`, but not a Rust attribute
/// (`#[...]`, `#![...]`) or a C preprocessor line.
fn is_comment(text: &str) -> bool {
    text.starts_with("//")
        || (text.starts_with('#')
            && !text.starts_with("#[")
            && !text.starts_with("#!")
            && !text.starts_with("#include")
            && !text.starts_with("#define")
            && !text.starts_with("#if"))
}

mod gaps;
mod qualifiers;
mod shown;
pub use gaps::{block_end, gap, gap_ending_block, guard_gaps, last_statement};
pub use qualifiers::unknown_qualifiers_dropped;
mod unused;
pub use unused::after_unused_value;
#[cfg(test)]
mod tests;
