use super::*;
use slopguard_change::MemTree;
use std::collections::BTreeMap;

fn subtask(hints: &[&str]) -> Subtask {
    Subtask {
        id: "T001-S01".into(),
        title: "Fix find_user".into(),
        description: "parameterise the query in find_user".into(),
        file_hints: hints.iter().map(|s| s.to_string()).collect(),
        action: slopguard_planning::plan::Action::Modify,
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
        tried: &[],
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
    assert!(user.contains("For db.py: write the path on its own line, then one or more blocks"));
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
    let target = FunctionTarget::new("calc.py", "average", 5, 6);
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
    // The rest of the file as an outline: the other function's first line, not its body.
    assert!(
        user.contains("(first lines only, bodies not shown; a fix may use them):\n```python\ndef average(xs):\ndef other():\n```"),
        "{user}"
    );
    assert!(!user.contains("return 2"), "{user}");
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
    // The answers refused so far, to any of its statements, say it shorter, with what each
    // wrote: they replace the findings.
    let tried = [TriedAnswer {
        written: "    return sum(xs) / len(xs) - 1".into(),
        why: "AssertionError: 1.0 != 2.0".into(),
    }];
    i.tried = &tried;
    let again = build(&i);
    let user = &again.messages[1].content;
    let listed = user
        .find("These changes to `average` were tried and are wrong; do not write them again:")
        .unwrap_or_else(|| panic!("{user}"));
    assert!(
        user[listed..].contains("return sum(xs) / len(xs) - 1\n```\nAssertionError: 1.0 != 2.0"),
        "{user}"
    );
    assert!(!user.contains("An earlier fix was rejected"), "{user}");
    assert!(listed < user.find("Write the complete fixed").unwrap());
    assert_eq!(again.tried, tried);
}

#[test]
fn a_suspect_statement_gets_the_short_prompt_with_the_definition_and_its_comment() {
    let src = "package wc\n\n// Count counts words separated by any whitespace.\nfunc Count(text string) int {\n\treturn len(strings.Split(text, \" \"))\n}\n\nfunc Other() {}\n";
    let tree = MemTree::new(BTreeMap::from([(
        "wc.go".to_string(),
        src.as_bytes().to_vec(),
    )]));
    let st = subtask(&["wc.go"]);
    let function = FunctionTarget::new("wc.go", "Count", 4, 6);
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
    // Not the rest of the file (its outline only), no rules, no findings about another
    // statement.
    assert!(
        user.contains("```go\nfunc Count(text string) int {\nfunc Other() {}\n```"),
        "{user}"
    );
    assert_eq!(user.matches("func Other").count(), 1, "{user}");
    assert!(
        !user.contains("Rules:") && !user.contains("FILES:"),
        "{user}"
    );
    assert!(!user.contains("undefined: counts"), "{user}");
    // The file was not shown whole: only the line (or the definition) is spliced back.
    assert!(!p.whole_allowed("wc.go"));
    assert_eq!(p.target.as_ref(), Some(&function));
    // A frame's line (not a suspect) outside every known definition keeps the full prompt.
    let framed = FaultLine {
        suspect_in: None,
        error: Some("index out of range".into()),
        ..line.clone()
    };
    i.line = Some(&framed);
    let full = build(&i);
    assert!(!full.is_focused());
    assert!(full.messages[1].content.contains("FILES:"));
    // Inside the definition given with it: the brief prompt, with the error it raised.
    let elsewhere = FunctionTarget::new("wc.go", "Other", 8, 8);
    i.function = Some(&elsewhere);
    assert!(!build(&i).is_focused());
    i.function = Some(&function);
    let brief = build(&i);
    let user = &brief.messages[1].content;
    assert!(brief.is_focused());
    assert!(
        user.contains(
            "This line of `Count` is where the failing tests break, raising `index out of range`:"
        ),
        "{user}"
    );
    assert!(!user.contains("FILES:"), "{user}");
    assert_eq!(brief.line.as_ref(), Some(&framed));
}

#[test]
fn a_statement_asked_again_lists_the_answers_already_refused_with_what_they_got() {
    let src = "impl Date {\n    pub fn add_months(&self, n: i32) -> Date {\n        let day = self.day;\n        Date { day }\n    }\n}\n\nfn days_in_month(year: i32, month: u8) -> u8 {\n    31\n}\n";
    let tree = MemTree::new(BTreeMap::from([(
        "src/lib.rs".to_string(),
        src.as_bytes().to_vec(),
    )]));
    let st = subtask(&["src/lib.rs"]);
    let function = FunctionTarget::new("src/lib.rs", "Date::add_months", 2, 5);
    let line = FaultLine {
        path: "src/lib.rs".into(),
        start: 3,
        end: 3,
        text: "        let day = self.day;".into(),
        error: None,
        suspect_in: Some(function.clone()),
    };
    let findings = "- [build] Your answer changed src/lib.rs (modify) (1 lines). The build fails:\n\
        error[E0599]: no method named `days_in_month` found for reference `&Date`\n\
        --> src/lib.rs:3:28\n\
        help: there is an associated function `days_in_month`\n\
        error: could not compile `civil_date`; rerun with --verbose";
    let why = refusal_in_brief(findings, "");
    // The findings' opening (what the answer changed) and the advice to rerun are left out.
    assert_eq!(
        why,
        "[build] The build fails:\nerror[E0599]: no method named `days_in_month` found for reference `&Date`"
    );
    // Of a test failure, what the prompt does not show already; no runner tallies.
    let shown = "  1) Failure:\nExpected: [14, 29, 57]\n  Actual: [14, 28, 58]\n";
    let tests = "- [tests] Your answer changed lib/a.rb (modify) (2 lines).\n\
        The build and the other tests pass, but the failing tests still fail.\n\
        Finished in 0.002097s, 3815.7326 runs/s, 10493.2645 assertions/s.\n\
        1) Error:\nNoMethodError: undefined method `floor' for [(100/3), 0]:Array\n\
        Expected: [14, 29, 57]\n8 runs, 29 assertions, 1 failures, 0 errors, 0 skips";
    assert_eq!(
        refusal_in_brief(tests, shown),
        "The build and the other tests pass, but the failing tests still fail.\n\
         1) Error:\nNoMethodError: undefined method `floor' for [(100/3), 0]:Array"
    );
    let tried = [TriedAnswer {
        written: "        let day = self.day.min(self.days_in_month(self.year, self.month));"
            .into(),
        why,
    }];
    let mut i = input(&st, &tree, 2000);
    i.line = Some(&line);
    let first = build(&i).messages[1].content.clone();
    assert!(!first.contains("were tried"), "{first}");
    i.tried = &tried;
    let again = build(&i).messages[1].content.clone();
    let listed = again
        .find("These answers were tried and are wrong")
        .unwrap();
    assert!(
        again[listed..].contains("self.days_in_month(self.year, self.month)"),
        "{again}"
    );
    assert!(
        again[listed..].contains("error[E0599]: no method named"),
        "{again}"
    );
    assert!(listed > again.find("This line of `add_months` is wrong").unwrap());
    // The request itself is the same words, after the list.
    assert!(
        again.ends_with(first.rsplit_once("```\n").unwrap().1),
        "{again}"
    );
    // The helper the answer needs is in the outline every brief prompt opens with.
    assert!(
        again.contains("fn days_in_month(year: i32, month: u8) -> u8 {"),
        "{again}"
    );
}

#[test]
fn an_outline_line_shared_by_two_definitions_is_shown_once() {
    let src = "class A:\n    def size(self):\n        return 1\n\n\nclass B:\n    def size(self):\n        return 2\n\n\ndef total(xs):\n    return sum(x.size() for x in xs) - 1\n";
    let tree = MemTree::new([("m.py".to_string(), src.as_bytes().to_vec())].into());
    let st = subtask(&["m.py"]);
    let target = FunctionTarget::new("m.py", "total", 11, 12);
    let mut i = input(&st, &tree, 4000);
    i.function = Some(&target);
    let user = build(&i).messages[1].content.clone();
    assert!(
        user.contains("a fix may use them):\n```python\n    def size(self):\ndef total(xs):\n```"),
        "{user}"
    );
}

#[test]
fn written_lines_are_the_lines_a_change_adds() {
    let change = slopguard_change::ChangeSet::new(
        std::sync::Arc::new(MemTree::new(BTreeMap::new())),
        vec![slopguard_change::FileChange::modify(
            "m.py",
            b"def f(x):\n    return x\n".to_vec(),
            b"def f(x):\n    if x < 0:\n        return -x\n    return x\n".to_vec(),
        )],
        "test",
    );
    assert_eq!(written_lines(&change), "    if x < 0:\n        return -x");
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
        tried: &[],
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
        proof.contains("Add ONE new test to tests/test_db.py that fails on the code as it is now"),
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
