//! Which statement the model is asked to write next, decided as the calls go on.
//!
//! The first statement asked is the first of the default order: the statement a frame of the
//! failure names, else the most suspect by the tests' coverage ([`super::statements_to_ask`]).
//! Nothing else is known when the first call goes out. Each statement after it is the one the
//! repair templates judged meanwhile point at most, when one does: a one-token change of a
//! statement that makes failing tests pass says the tests' outcome hangs on that statement
//! (mutation-based fault localisation, as Metallaxis-FL and MUSE score statements; MUSE also
//! counts the passing tests such a change breaks against it). On the tuning pool
//! (`bench/tuning`, templates only, the Python, JavaScript, Go and Ruby tasks), a template
//! pointed at some statement in 20 of 24 tasks, and the one pointed at most was the bug's in
//! 14 of them, where the coverage ranked it first in 6; the bug was among the three
//! statements asked in 19 of 24 with pointers against 11 of 24 without (BENCHMARKS.md,
//! session 36). Those figures count the tasks a template fixes outright, where no infill is
//! needed: on the 8 tasks no template fixes, the statement pointed at most was the bug's in
//! none (their pointers made the failing test pass by breaking passing ones), and the first
//! of the default order in 2 (session 37). So the first statement stays the coverage's (a
//! session-37 try that chose it by the pointers too lost a held-out fix the coverage's first
//! statement had found), and the pointers only reorder what comes after it. Without a
//! pointer, the default order goes on.

use std::collections::BTreeMap;

use crate::run::carry::{Pointers, Statement};

use slopguard_worker::infill::{self, FimFormat, InfillRequest};

/// Chooses the statements to ask, one at a time ([`HolePicker::next_request`]).
pub(super) struct HolePicker {
    format: FimFormat,
    /// The failing tests shown in every prompt.
    tests: Vec<(String, String)>,
    /// The files' texts when the phase began: the templates are written into the worktree
    /// while the calls go on.
    texts: BTreeMap<String, String>,
    /// The default order.
    defaults: Vec<Statement>,
    /// Definitions a pointed-at line may be in: (path, first line, last line).
    definitions: Vec<(String, usize, usize)>,
    pointers: Pointers,
    /// The statements asked, those of earlier phases first.
    asked: Vec<Statement>,
    /// How many of `asked` an earlier phase of the subtask asked ([`HolePicker::after`]).
    asked_before: usize,
    /// The prompts of the gaps asked, to ask each once.
    gaps_asked: Vec<String>,
    /// Whether the failure says a test expected an error that did not come
    /// ([`slopguard_worker::context::expects_an_error`]).
    error_expected: bool,
}

impl HolePicker {
    pub(super) fn new(
        format: FimFormat,
        tests: Vec<(String, String)>,
        texts: BTreeMap<String, String>,
        defaults: Vec<Statement>,
        definitions: Vec<(String, usize, usize)>,
        pointers: Pointers,
        error_expected: bool,
    ) -> Self {
        HolePicker {
            format,
            tests,
            texts,
            defaults,
            definitions,
            pointers,
            asked: Vec::new(),
            asked_before: 0,
            gaps_asked: Vec::new(),
            error_expected,
        }
    }

    /// The picker of a later phase of the same subtask, after an earlier one asked `asked`:
    /// it asks only statements not asked yet, and no gap (the gaps are about the first
    /// phase's first statement, and were asked then).
    pub(super) fn after(mut self, asked: Vec<Statement>) -> Self {
        self.asked_before = asked.len();
        self.asked = asked;
        self
    }

    /// Whether an earlier phase asked statements ([`HolePicker::after`]): no gap is asked.
    fn is_later_phase(&self) -> bool {
        self.asked_before > 0
    }

    /// The statements asked, in all phases so far.
    pub(super) fn into_asked(self) -> Vec<Statement> {
        self.asked
    }

    /// Whether no statement can be asked.
    pub(super) fn is_empty(&self) -> bool {
        self.choose().is_none()
    }

    /// The first default statement whose file the phase read.
    fn first_default(&self) -> Option<&Statement> {
        self.defaults
            .iter()
            .find(|s| self.texts.contains_key(&s.path))
    }

    /// [`HolePicker::first_default`] with its file's text, when the definition it is in is
    /// known (more than the statement itself): the definition the gaps asked before any
    /// statement are looked for in. `None` in a later phase: its gaps were asked in the first.
    fn first_in_a_definition(&self) -> Option<(&Statement, &String)> {
        if self.is_later_phase() {
            return None;
        }
        let first = self.first_default()?;
        (first.definition.0 < first.definition.1).then_some((first, &self.texts[&first.path]))
    }

    /// The request for the next statement to ask, or `None` when none is left.
    pub(super) fn next_request(&mut self) -> Option<InfillRequest> {
        loop {
            let statement = self.choose()?;
            self.asked.push(statement.clone());
            let text = self.texts.get(&statement.path)?;
            if let Some(request) = infill::request(
                self.format,
                &statement.path,
                text,
                statement.lines,
                statement.definition,
                &self.tests,
            ) {
                return Some(request);
            }
        }
    }

    /// The gap after a value the first default statement's definition computes and never
    /// uses ([`infill::after_unused_value`]), when it has one: the step that used it is
    /// missing, so this gap is asked before any statement.
    pub(super) fn unused_value_gap(&mut self) -> Option<InfillRequest> {
        let (first, text) = self.first_in_a_definition()?;
        let end = infill::after_unused_value(&first.path, text, first.definition)?;
        let gap = self.gap_ending_block(first, text, end)?;
        self.gaps_asked.push(gap.prompt.clone());
        Some(gap)
    }

    /// When the failure says a test expected an error that did not come, the gaps around the
    /// checks that refuse input in the first default statement's definition
    /// ([`infill::guard_gaps`]: a validation missing among the others), at most `most`, in
    /// file order; else none. Each is asked once.
    pub(super) fn guard_gap_requests(&mut self, most: usize) -> Vec<InfillRequest> {
        let Some((first, text)) = self.first_in_a_definition().filter(|_| self.error_expected)
        else {
            return Vec::new();
        };
        let gaps: Vec<InfillRequest> = infill::guard_gaps(text, first.definition)
            .into_iter()
            .filter_map(|at| self.gap_ending_block(first, text, at))
            .take(most)
            .collect();
        self.gaps_asked
            .extend(gaps.iter().map(|g| g.prompt.clone()));
        gaps
    }

    /// The request for the gap before line `end.0`, written at indentation `end.1`, in the
    /// definition of `statement` ([`infill::gap_ending_block`]).
    fn gap_ending_block(
        &self,
        statement: &Statement,
        text: &str,
        end: (usize, String),
    ) -> Option<InfillRequest> {
        infill::gap_ending_block(
            self.format,
            &statement.path,
            text,
            end,
            statement.definition,
            &self.tests,
        )
    }

    /// The empty holes where a statement may be missing, around the first asked statement
    /// (the frame's or the most suspect): the end of the block it is in, when that block is
    /// not its definition's body ([`infill::block_end`]: a branch only the failing tests take
    /// that stops a step short), then before the last statement of its definition (a step
    /// missing before the result is returned), when that definition is known.
    pub(super) fn gap_requests(&mut self) -> Vec<InfillRequest> {
        let Some(first) = self.asked.first().filter(|_| !self.is_later_phase()) else {
            return Vec::new();
        };
        let Some(text) = self.texts.get(&first.path) else {
            return Vec::new();
        };
        let block = infill::block_end(text, first.lines.0, first.definition)
            .and_then(|end| self.gap_ending_block(first, text, end));
        let last = super::gap_to_ask(text, first.definition).and_then(|before| {
            infill::gap(
                self.format,
                &first.path,
                text,
                before,
                first.definition,
                &self.tests,
            )
        });
        let mut gaps: Vec<InfillRequest> = Vec::new();
        for gap in block.into_iter().chain(last) {
            if !self.gaps_asked.contains(&gap.prompt) {
                self.gaps_asked.push(gap.prompt.clone());
                gaps.push(gap);
            }
        }
        gaps
    }

    /// The phase's first statement is the first default one not asked yet; then the
    /// statement the templates point at most, not asked yet; else the next default one.
    fn choose(&self) -> Option<Statement> {
        let fresh = |s: &Statement| {
            self.texts.contains_key(&s.path)
                && !self
                    .asked
                    .iter()
                    .any(|a| a.path == s.path && a.lines.0 <= s.lines.1 && s.lines.0 <= a.lines.1)
        };
        if self.asked.len() > self.asked_before
            && let Some(pointed) = self.most_pointed_at(&fresh)
        {
            return Some(pointed);
        }
        self.defaults.iter().find(|s| fresh(s)).cloned()
    }

    /// The statement of the strongest pointer that `fresh` accepts: the largest share of the
    /// failing tests made to pass, then the fewest passing tests broken, then the first
    /// judged. A known definition's first line is none (swapping a signature's parameters
    /// makes a test that expects an error pass by raising another; written again, the
    /// signature is the same), unless the default order offers it (a default value).
    fn most_pointed_at(&self, fresh: &impl Fn(&Statement) -> bool) -> Option<Statement> {
        let pointers = self.pointers.lock().ok()?.clone();
        let signature = |s: &Statement| s.lines.0 == s.definition.0 && s.lines.0 < s.definition.1;
        pointers
            .iter()
            .map(|p| (p, self.statement_at(&p.path, p.line)))
            .filter(|(_, s)| fresh(s) && (!signature(s) || self.defaults.contains(s)))
            .min_by(|(a, _), (b, _)| {
                b.fixed_share
                    .total_cmp(&a.fixed_share)
                    .then(a.broke.cmp(&b.broke))
            })
            .map(|(_, s)| s)
    }

    /// The statement holding `line` of `path`: a default one's lines when it holds it (a
    /// statement over several lines), else the line alone, in the innermost definition that
    /// holds it.
    fn statement_at(&self, path: &str, line: usize) -> Statement {
        if let Some(s) = self
            .defaults
            .iter()
            .find(|s| s.path == path && s.lines.0 <= line && line <= s.lines.1)
        {
            return s.clone();
        }
        let definition = self
            .definitions
            .iter()
            .filter(|(p, start, end)| p == path && *start <= line && line <= *end)
            .min_by_key(|(_, start, end)| end - start)
            .map_or((line, line), |(_, start, end)| (*start, *end));
        Statement {
            path: path.to_string(),
            lines: (line, line),
            definition,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::carry::Pointer;

    const PY: &str = "def f(xs, k):\n    total = 0\n    for x in xs:\n        if x > k:\n            total += x\n    return total\n";

    fn statement(line: usize) -> Statement {
        Statement {
            path: "a.py".into(),
            lines: (line, line),
            definition: (1, 6),
        }
    }

    fn picker(defaults: &[usize], pointers: &Pointers) -> HolePicker {
        HolePicker::new(
            FimFormat::Qwen,
            Vec::new(),
            BTreeMap::from([("a.py".to_string(), PY.to_string())]),
            defaults.iter().map(|&l| statement(l)).collect(),
            vec![("a.py".into(), 1, 6)],
            pointers.clone(),
            false,
        )
    }

    fn pointer(line: usize, fixed_share: f64, broke: usize) -> Pointer {
        Pointer {
            path: "a.py".into(),
            line,
            fixed_share,
            broke,
        }
    }

    #[test]
    fn without_pointers_the_default_order_is_asked_each_statement_once() {
        let pointers = Pointers::default();
        let mut p = picker(&[5, 2, 5, 4], &pointers);
        let starts: Vec<usize> = std::iter::from_fn(|| p.next_request().map(|r| r.start)).collect();
        assert_eq!(starts, [5, 2, 4]);
        // Line 5 ends the `if` branch: a gap after it in the branch, then one before the
        // return in the function's body, both before line 6.
        let gaps = p.gap_requests();
        let starts: Vec<usize> = gaps.iter().map(|r| r.start).collect();
        assert_eq!(starts, [6, 6]);
        assert!(
            gaps[0]
                .prompt
                .contains("total += x\n            <|fim_suffix|>")
        );
        assert!(gaps[1].prompt.contains("total += x\n    <|fim_suffix|>"));
    }

    #[test]
    fn a_value_never_used_is_asked_for_first_and_its_gap_only_once() {
        // `best` is computed in the branch and never used: the gap after it comes first.
        let text = PY.replace("total += x", "best = x * k");
        let mut p = HolePicker::new(
            FimFormat::Qwen,
            Vec::new(),
            BTreeMap::from([("a.py".to_string(), text)]),
            vec![statement(5)],
            vec![("a.py".into(), 1, 6)],
            Pointers::default(),
            false,
        );
        let unused = p.unused_value_gap().expect("a gap after the unused value");
        assert_eq!(unused.start, 6);
        assert!(
            unused
                .prompt
                .contains("best = x * k\n            <|fim_suffix|>")
        );
        assert_eq!(p.next_request().map(|r| r.start), Some(5));
        // The branch's end is that same gap: only the one before the return is left.
        let gaps = p.gap_requests();
        assert_eq!(gaps.len(), 1);
        assert!(gaps[0].prompt.contains("best = x * k\n    <|fim_suffix|>"));
        assert!(p.gap_requests().is_empty(), "each gap once");
    }

    #[test]
    fn nothing_unused_asks_no_gap_first() {
        let mut p = picker(&[5], &Pointers::default());
        assert!(p.unused_value_gap().is_none(), "`total` is returned");
    }

    #[test]
    fn after_the_first_statement_the_one_the_templates_point_at_most_comes_next() {
        let pointers = Pointers::default();
        let mut p = picker(&[5, 2, 3], &pointers);
        assert_eq!(
            p.next_request().map(|r| r.start),
            Some(5),
            "nothing judged yet"
        );
        pointers.lock().unwrap().extend([
            // The signature (line 1) is never asked, however strong its pointer.
            pointer(1, 1.0, 0),
            pointer(3, 1.0, 2),
            pointer(4, 0.5, 0),
            pointer(4, 1.0, 0),
            pointer(5, 1.0, 0),
        ]);
        // Line 5 was asked already; line 4's best template made every failing test pass and
        // broke nothing.
        assert_eq!(p.next_request().map(|r| r.start), Some(4));
        assert_eq!(p.next_request().map(|r| r.start), Some(3));
        assert_eq!(
            p.next_request().map(|r| r.start),
            Some(2),
            "the defaults go on"
        );
        assert_eq!(p.next_request().map(|r| r.start), None);
    }

    #[test]
    fn a_later_phase_asks_the_statements_not_asked_yet_the_first_default_first_and_no_gap() {
        let pointers = Pointers::default();
        let mut first = picker(&[5, 2, 3], &pointers);
        assert_eq!(first.next_request().map(|r| r.start), Some(5));
        pointers.lock().unwrap().push(pointer(4, 1.0, 0));
        assert_eq!(first.next_request().map(|r| r.start), Some(4));
        let asked = first.into_asked();

        let text = PY.replace("total += x", "best = x * k");
        let mut later = HolePicker::new(
            FimFormat::Qwen,
            Vec::new(),
            BTreeMap::from([("a.py".to_string(), text)]),
            [5, 2, 3].map(statement).to_vec(),
            vec![("a.py".into(), 1, 6)],
            pointers.clone(),
            true,
        )
        .after(asked);
        assert!(
            later.unused_value_gap().is_none(),
            "asked in the first phase"
        );
        assert!(later.guard_gap_requests(4).is_empty());
        pointers.lock().unwrap().push(pointer(3, 1.0, 0));
        // The phase's first statement is the default order's next, whatever the pointers say;
        // after it, the pointers lead again.
        assert_eq!(later.next_request().map(|r| r.start), Some(2));
        assert_eq!(later.next_request().map(|r| r.start), Some(3));
        assert_eq!(later.next_request().map(|r| r.start), None);
        assert!(later.gap_requests().is_empty());
        assert!(later.is_empty());
    }

    #[test]
    fn a_pointer_into_a_file_the_phase_did_not_read_is_ignored() {
        let pointers = Pointers::default();
        let mut p = picker(&[5, 2], &pointers);
        p.next_request();
        pointers.lock().unwrap().push(Pointer {
            path: "other.py".into(),
            line: 3,
            fixed_share: 1.0,
            broke: 0,
        });
        assert_eq!(p.next_request().map(|r| r.start), Some(2));
    }
}
