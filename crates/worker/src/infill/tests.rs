//! The infill requests and the fixes made of their answers.

use super::*;

const PY: &str = "import math\n\n\ndef max_days(year, month):\n    \"\"\"Days in the month.\"\"\"\n    if month == 2:\n        if year % 4 == 0:\n            return 29\n        return 28\n    return 31\n\n\ndef other():\n    return 1\n";

#[test]
fn a_computed_value_written_as_a_constant_is_not_a_fix_but_a_literal_for_a_literal_is() {
    let py = "def f(y):\n    e = 10\n    e = e + y//100 - 16\n    return e\n";
    let r = request(FimFormat::Qwen, "a.py", py, (3, 3), (1, 4), &[]).unwrap();
    assert_eq!(r.fix("13"), Err(NotAFix::ConstantForComputation));
    assert_eq!(r.fix("'x'"), Err(NotAFix::ConstantForComputation));
    assert!(r.fix("e + y//100 - 15").is_ok());
    let js = "function r(t) {\n  let missing = 'empty'\n  return t\n}\n";
    let r = request(FimFormat::Qwen, "a.js", js, (2, 2), (1, 4), &[]).unwrap();
    assert!(
        r.fix("'keep'").is_ok(),
        "a literal for a literal is a value's fix"
    );
    let ret = "def g(xs):\n    return len(xs) - 1\n";
    let r = request(FimFormat::Qwen, "a.py", ret, (2, 2), (1, 2), &[]).unwrap();
    assert_eq!(r.fix("0"), Err(NotAFix::ConstantForComputation));
    assert_eq!(r.fix("None"), Err(NotAFix::ConstantForComputation));
    assert!(r.fix("len(xs)").is_ok());
}

#[test]
fn a_failing_tests_message_goes_under_it_as_comments_of_its_language() {
    let message = ["assert f(2) == 3".to_string()];
    assert_eq!(
        test_with_failure(
            "tests/test_a.py",
            "def test_f():\n    assert f(2) == 3\n",
            &message
        ),
        "def test_f():\n    assert f(2) == 3\n# When run, this test fails:\n#   assert f(2) == 3\n"
    );
    let go = test_with_failure("a_test.go", "func TestF(t *testing.T) {}\n", &message);
    assert!(go.ends_with("}\n// When run, this test fails:\n//   assert f(2) == 3\n"));
    assert_eq!(
        test_with_failure("a_test.go", "func TestF() {}\n", &[]),
        "func TestF() {}\n"
    );
}

#[test]
fn the_family_comes_from_the_model_id_and_other_models_get_none() {
    assert_eq!(
        FimFormat::for_model("qwen2.5-coder-1.5b-instruct"),
        Some(FimFormat::Qwen)
    );
    assert_eq!(
        FimFormat::for_model("Qwen/Qwen2.5-Coder-7B-Instruct"),
        Some(FimFormat::Qwen)
    );
    assert_eq!(
        FimFormat::for_model("bigcode/starcoder2-3b"),
        Some(FimFormat::StarCoder)
    );
    assert_eq!(FimFormat::for_model("qwen2.5-7b-instruct"), None);
    assert_eq!(FimFormat::for_model("gpt-4o"), None);
    let setting = |s: &str| s.parse::<InfillSetting>();
    assert_eq!(
        setting("off").unwrap().format_for("qwen2.5-coder-1.5b"),
        None
    );
    assert_eq!(
        setting("qwen").unwrap().format_for("my-alias"),
        Some(FimFormat::Qwen)
    );
    assert_eq!(setting("auto").unwrap().format_for("my-alias"), None);
    assert!(setting("gpt").is_err());
}

#[test]
fn the_prompt_holds_the_code_around_the_hole_and_the_failing_test_but_not_the_statement() {
    let tests = [(
        "test_days.py".to_string(),
        "def test_1900():\n    assert max_days(1900, 2) == 28\n".to_string(),
    )];
    let r = request(FimFormat::Qwen, "days.py", PY, (7, 7), (4, 10), &tests).unwrap();
    assert!(!r.prompt.contains("year % 4 == 0"), "{}", r.prompt);
    assert!(
        r.prompt.starts_with(
            "<|file_sep|>test_days.py\ndef test_1900():\n    assert max_days(1900, 2) == 28\n<|file_sep|>days.py\n<|fim_prefix|>import math\n"
        ),
        "{}",
        r.prompt
    );
    assert!(
        r.prompt
            .contains("    if month == 2:\n        <|fim_suffix|>\n            return 29\n"),
        "{}",
        r.prompt
    );
    assert!(
        r.prompt.ends_with("    return 1\n<|fim_middle|>"),
        "{}",
        r.prompt
    );
    assert!(
        r.stop.contains(&"\n".to_string()),
        "a one-line hole ends at its newline"
    );
    // Without tests, or in a format without file sections, only the code.
    let plain = request(FimFormat::DeepSeek, "days.py", PY, (7, 7), (4, 10), &[]).unwrap();
    assert!(
        plain.prompt.starts_with("<｜fim▁begin｜>import math"),
        "{}",
        plain.prompt
    );
}

#[test]
fn a_middle_becomes_the_statement_with_its_indentation() {
    let r = request(FimFormat::Qwen, "days.py", PY, (7, 7), (4, 10), &[]).unwrap();
    let fix = r
        .fix("if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0):")
        .unwrap();
    assert_eq!(fix.line, 7);
    assert_eq!(fix.operator, Operator::Infill);
    assert_eq!(fix.before, "if year % 4 == 0:");
    assert!(
        fix.text.contains(
            "    if month == 2:\n        if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0):\n            return 29\n"
        ),
        "{}",
        fix.text
    );
    assert_eq!(fix.text.lines().count(), PY.lines().count());
}

const MERGE: &str = "def merge(a, b):\n    out = []\n    i = j = 0\n    while i < len(a) and j < len(b):\n        if a[i] <= b[j]:\n            out.append(a[i])\n            i += 1\n        else:\n            out.append(b[j])\n            j += 1\n    out.extend(a[i:])\n    return out\n";

#[test]
fn a_gap_prompt_holds_the_code_on_both_sides_and_an_empty_hole_between() {
    let r = gap(FimFormat::Qwen, "m.py", MERGE, 12, (1, 12), &[]).unwrap();
    assert_eq!(r.hole, Hole::Gap);
    assert!(
        r.prompt
            .contains("    out.extend(a[i:])\n    <|fim_suffix|>\n    return out\n<|fim_middle|>"),
        "{}",
        r.prompt
    );
    assert!(r.stop.contains(&"\n\n".to_string()));
    assert!(r.stop.len() <= 4, "the OpenAI API takes four stops");
    assert_eq!(gap(FimFormat::Qwen, "m.py", MERGE, 1, (1, 12), &[]), None);
    assert_eq!(gap(FimFormat::Qwen, "m.py", MERGE, 40, (1, 12), &[]), None);
}

#[test]
fn a_middle_written_into_a_gap_is_inserted_and_cut_where_it_writes_the_next_line_again() {
    let r = gap(FimFormat::Qwen, "m.py", MERGE, 12, (1, 12), &[]).unwrap();
    let fix = r.fix("out.extend(b[j:])\n    return out\n```").unwrap();
    assert_eq!(fix.operator, Operator::Infill);
    assert_eq!(fix.line, 12);
    assert_eq!(fix.before, "");
    assert_eq!(fix.after, "out.extend(b[j:])");
    assert!(
        fix.text
            .ends_with("    out.extend(a[i:])\n    out.extend(b[j:])\n    return out\n"),
        "{}",
        fix.text
    );
    assert_eq!(
        fix.describe(),
        "`out.extend(b[j:])` inserted (the model's infill)"
    );
}

#[test]
fn a_gap_middle_that_is_empty_the_next_line_the_line_above_or_too_long_is_no_fix() {
    let r = gap(FimFormat::Qwen, "m.py", MERGE, 12, (1, 12), &[]).unwrap();
    assert_eq!(r.fix(""), Err(NotAFix::Empty));
    assert_eq!(r.fix("return out"), Err(NotAFix::Empty));
    assert_eq!(r.fix("out.extend(a[i:])"), Err(NotAFix::RepeatsNeighbour));
    assert_eq!(r.fix("# the rest of b"), Err(NotAFix::CommentOnly));
    assert_eq!(r.fix("return out[:1]"), Err(NotAFix::ExitBeforeCode));
    assert_eq!(r.fix("raise ValueError(a)"), Err(NotAFix::ExitBeforeCode));
    assert!(
        r.fix("if not b:\n        return out").is_ok(),
        "a guard clause exits only when its condition holds"
    );
    assert_eq!(
        r.fix("x = 1\n    y = 2\n    z = 3\n    w = 4"),
        Err(NotAFix::Runaway)
    );
}

#[test]
fn a_ruby_guard_written_as_a_modifier_fits_a_gap_and_a_bare_return_does_not() {
    let rb = "def ordinal(n)\n  n = n.abs\n  SUFFIXES[n % 10]\nend\n";
    let r = gap(FimFormat::Qwen, "o.rb", rb, 3, (1, 4), &[]).unwrap();
    let fix = r.fix("return 'th' if (11..13).include?(n % 100)").unwrap();
    assert!(
        fix.text
            .contains("  n = n.abs\n  return 'th' if (11..13).include?(n % 100)\n  SUFFIXES"),
        "{}",
        fix.text
    );
    assert_eq!(r.fix("return 'th'"), Err(NotAFix::ExitBeforeCode));
}

#[test]
fn a_check_with_its_block_fits_a_gap_and_a_dedent_ends_it() {
    let go = "func f(s string) bool {\n\tfailed := false\n\tif len(s) > 0 {\n\t\ts = s[1:]\n\t}\n\treturn failed\n}\n";
    let r = gap(FimFormat::Qwen, "f.go", go, 4, (1, 7), &[]).unwrap();
    let fix = r
        .fix("if s[0] == '/' {\n\t\t\tfailed = true\n\t\t}\n\t}\n\treturn failed")
        .unwrap();
    assert!(
        fix.text.contains(
            "\tif len(s) > 0 {\n\t\tif s[0] == '/' {\n\t\t\tfailed = true\n\t\t}\n\t\ts = s[1:]\n"
        ),
        "{}",
        fix.text
    );
}

#[test]
fn the_last_statement_of_a_definition_skips_closers_and_starts_where_it_starts() {
    // (definition's text, its lines, the last statement's line, why)
    type Case<'a> = (&'a str, (usize, usize), Option<usize>, &'a str);
    let cases: [Case; 9] = [
        (MERGE, (1, 12), Some(12), "a Python return"),
        (
            "fn add(&self) -> Date {\n    let day = self.day;\n    Date {\n        year,\n        day,\n    }\n}\n",
            (1, 7),
            Some(3),
            "the struct literal from its first line",
        ),
        (
            "func (c *C) Put(k string) {\n\tif el, ok := c.items[k]; ok {\n\t\treturn\n\t}\n\tc.items[k] = c.ll.PushFront(k)\n\t// done\n}\n",
            (1, 7),
            Some(5),
            "comments and braces passed over",
        ),
        (
            "def f(xs):\n    if xs:\n        return sum(xs) + \\\n            len(xs)\n",
            (1, 4),
            Some(2),
            "the block at the body's level",
        ),
        (
            "def f(xs)\n  xs.each do |x|\n    puts x\n  end\n  xs\nend\n",
            (1, 6),
            Some(5),
            "Ruby's ends passed over",
        ),
        (
            "fn f(v: &str) -> u8 {\n    let n = v.len();\n    match n {\n        0 => 1,\n        _ => 2,\n    }\n}\n",
            (1, 7),
            Some(3),
            "a match's arms are deeper",
        ),
        (
            "def f(\n    a,\n    b,\n):\n    return a + b\n",
            (1, 5),
            Some(5),
            "parameters on lines of their own",
        ),
        (
            "function f(xs) {\n  let n = 0\n  n++\n  return n\n}\n",
            (1, 5),
            Some(4),
            "`n++` does not continue",
        ),
        (
            "def f(xs):\n    end = len(xs)\n",
            (1, 2),
            Some(2),
            "`end = ...` is a statement",
        ),
    ];
    for (text, definition, expected, why) in cases {
        assert_eq!(last_statement(text, definition), expected, "{why}");
    }
    assert_eq!(last_statement("fn f() { 1 }\n", (1, 1)), None);
}

#[test]
fn the_statement_as_it_was_an_empty_middle_or_a_runaway_one_is_no_fix() {
    let r = request(FimFormat::Qwen, "days.py", PY, (7, 7), (4, 10), &[]).unwrap();
    assert_eq!(r.fix("if year % 4 == 0:"), Err(NotAFix::Unchanged));
    assert_eq!(
        r.fix("if year %4==0 :  # leap"),
        Err(NotAFix::Unchanged),
        "the same but for spaces and a comment"
    );
    assert_eq!(r.fix("  \n"), Err(NotAFix::Empty));
    assert_eq!(r.fix("if x:\n    a\n    b\n    c\n"), Err(NotAFix::Runaway));
    assert_eq!(r.fix("pass<|fim_pad|>"), Err(NotAFix::Empty));
    assert_eq!(r.fix("# leap years"), Err(NotAFix::CommentOnly));
    assert_eq!(
        r.fix("return  29"),
        Err(NotAFix::RepeatsNeighbour),
        "the line after"
    );
    assert_eq!(
        r.fix("if month==2:"),
        Err(NotAFix::RepeatsNeighbour),
        "the line before"
    );
    // A two-line statement whose middle writes the line after the hole again.
    let r2 = request(FimFormat::Qwen, "days.py", PY, (6, 7), (4, 10), &[]).unwrap();
    assert_eq!(
        r2.fix("if month == 2:\n    if year:\n        return 29"),
        Err(NotAFix::Runaway)
    );
    assert!(r2.fix("if month == 2:\n    if year % 400 == 0:").is_ok());
}

#[test]
fn an_assignment_keeps_its_target_and_the_model_writes_the_value() {
    assert_eq!(assignment_head("row = conn.execute(q)"), Some("row = "));
    assert_eq!(
        assignment_head("let mut n: usize = 3;"),
        Some("let mut n: usize = ")
    );
    assert_eq!(assignment_head("self.total = a + b"), Some("self.total = "));
    assert_eq!(assignment_head("@count = 0"), Some("@count = "));
    assert_eq!(assignment_head("x := f()"), Some("x := "));
    assert_eq!(assignment_head("const n = a.length"), Some("const n = "));
    assert_eq!(assignment_head("return x + 1"), Some("return "));
    for none in [
        "count += 1",
        "a[i] = 2",
        "if a == b:",
        "x == y",
        "a, b = b, a",
        "return",
        "f(x)",
        "x =",
    ] {
        assert_eq!(assignment_head(none), None, "{none}");
    }
    let src = "def f(conn, name):\n    row = conn.execute(q).fetchone()\n    return row\n";
    let r = request(FimFormat::Qwen, "db.py", src, (2, 2), (1, 3), &[]).unwrap();
    assert!(
        r.prompt
            .contains("<|fim_prefix|>def f(conn, name):\n    row = <|fim_suffix|>"),
        "{}",
        r.prompt
    );
    let fix = r.fix("conn.execute(q, (name,)).fetchone()").unwrap();
    assert_eq!(
        fix.text,
        "def f(conn, name):\n    row = conn.execute(q, (name,)).fetchone()\n    return row\n"
    );
    assert_eq!(fix.after, "row = conn.execute(q, (name,)).fetchone()");
    assert_eq!(r.fix("conn.execute(q).fetchone()"), Err(NotAFix::Unchanged));
    assert_eq!(
        r.fix("row = conn.execute(q, (name,)).fetchone()")
            .unwrap()
            .after,
        "row = conn.execute(q, (name,)).fetchone()",
        "the head written again is not doubled"
    );
}

#[test]
fn lines_outside_the_file_get_no_request() {
    assert!(request(FimFormat::Qwen, "days.py", PY, (0, 1), (1, 2), &[]).is_none());
    assert!(request(FimFormat::Qwen, "days.py", PY, (40, 40), (1, 2), &[]).is_none());
    assert!(
        request(FimFormat::Qwen, "days.py", PY, (2, 2), (1, 3), &[]).is_none(),
        "blank"
    );
}

/// A branch that computes its result and stops one step short of returning it.
const EXPAND: &str = "def expand(value, explode):\n    \"\"\"Expands.\"\"\"\n    if isinstance(value, list):\n        return ','.join(value)\n\n    if isinstance(value, dict):\n        items = sorted(value.items())\n        expanded = ','.join(k + '=' + v for k, v in items)\n\n    value = str(value)\n    return value\n";

#[test]
fn the_block_around_a_statement_ends_before_the_next_line_indented_no_more_than_its_header() {
    // The `dict` branch (lines 6-8): its gap follows line 8, at the branch body's indentation.
    assert_eq!(block_end(EXPAND, 7, (1, 11)), Some((9, "        ".into())));
    // A statement of the definition's own body has no block of its own.
    assert_eq!(block_end(EXPAND, 10, (1, 11)), None);
    // A condition over several lines is the block's header (the gap follows `pass`).
    let multi = "def f(d, s):\n    if (s.count(':') == 1\n        and 'h' not in d\n        ):\n        d['h'] = d['m']\n        pass\n    return d\n";
    assert_eq!(block_end(multi, 3, (1, 7)), Some((7, "        ".into())));
    // Braces: the gap goes before the block's `}`; Go's tabs are kept.
    let go = "func f(x int) int {\n\tif x > 0 {\n\t\tx = x * 2\n\t}\n\treturn x\n}\n";
    assert_eq!(block_end(go, 3, (1, 6)), Some((4, "\t\t".into())));
    // A line under a header that opens no block (a call's arguments) is no block's.
    let call = "fn f() {\n    let v = g(\n        1,\n    );\n}\n";
    assert_eq!(block_end(call, 3, (1, 5)), None);
}

#[test]
fn a_return_that_ends_a_block_fits_its_gap_and_one_before_code_of_the_block_does_not() {
    let end = block_end(EXPAND, 7, (1, 11)).unwrap();
    let r = gap_ending_block(FimFormat::Qwen, "m.py", EXPAND, end, (1, 11), &[]).unwrap();
    assert!(r.prompt.contains("expanded = ','.join(k + '=' + v for k, v in items)\n        <|fim_suffix|>\n\n    value = str(value)"), "{}", r.prompt);
    let fix = r.fix("return expanded if expanded else None").unwrap();
    assert!(
        fix.text.contains(
            "for k, v in items)\n        return expanded if expanded else None\n\n    value"
        ),
        "{}",
        fix.text
    );
    // Before the dedented statement the definition goes on with: an exit there would leave
    // the block's code after it, none; but the definition's last statement is still guarded.
    let last = gap(FimFormat::Qwen, "m.py", EXPAND, 11, (1, 11), &[]).unwrap();
    assert_eq!(last.fix("return None"), Err(NotAFix::ExitBeforeCode));
}

#[test]
fn a_step_written_where_an_exit_stands_is_also_offered_before_it() {
    let go = "func (d *Decoder) scan(key []byte) bool {\n\tif bad(key) {\n\t\treturn false\n\t}\n\treturn true\n}\n";
    let r = request(FimFormat::Qwen, "decode.go", go, (3, 3), (1, 6), &[]).unwrap();
    let before = r.fix_before_exit("d.syntaxError(invalidKeyError)").unwrap();
    assert!(
        before
            .text
            .contains("\t\td.syntaxError(invalidKeyError)\n\t\treturn false\n"),
        "{}",
        before.text
    );
    // The replacement stays a candidate of its own.
    assert!(r.fix("d.syntaxError(invalidKeyError)").is_ok());
    // An exit written for an exit replaces it only, a value after `return ` is no step, and
    // a statement that is no exit has no "before" to offer.
    assert_eq!(r.fix_before_exit("return true"), None);
    assert_eq!(r.fix_before_exit("true"), None);
    assert_eq!(r.fix_before_exit("false"), None);
    let assign = request(FimFormat::Qwen, "a.py", PY, (7, 7), (4, 10), &[]).unwrap();
    assert_eq!(assign.fix_before_exit("days = 30"), None);
}

/// A Go decoder in the shape of a real one (base32's): the output's length is computed, the
/// step that cuts the output to it is missing before the return.
const DECODE: &str = "func decode(data []byte) []byte {\n\tn := len(data) * 5 / 8\n\tout := make([]byte, 0, n)\n\tfor _, b := range data {\n\t\tout = append(out, b)\n\t}\n\treturn out\n}\n";

#[test]
fn a_gap_middle_of_several_statements_is_tried_one_statement_at_a_time() {
    let r = gap(FimFormat::Qwen, "d.go", DECODE, 7, (1, 8), &[]).unwrap();
    let middle = "if n%5 != 0 {\n\t\tout = out[1:]\n\t}\n\tif n > 0 {\n\t\tout = out[:n]\n\t} else {\n\t\tout = nil\n\t}\n\treturn out";
    assert_eq!(r.fix(middle), Err(NotAFix::Runaway));
    let parts = r.parts(middle);
    let inserted: Vec<&str> = parts.iter().map(|f| f.after.as_str()).collect();
    assert_eq!(
        inserted,
        [
            "if n%5 != 0 {\n\t\tout = out[1:]\n\t}",
            "if n > 0 {\n\t\tout = out[:n]\n\t} else {\n\t\tout = nil\n\t}"
        ]
    );
    assert!(
        parts[1]
            .text
            .ends_with("\t}\n\tif n > 0 {\n\t\tout = out[:n]\n\t} else {\n\t\tout = nil\n\t}\n\treturn out\n}\n"),
        "{}",
        parts[1].text
    );
    // A middle short enough to insert whole is not cut up, and a statement's request has no
    // parts.
    assert!(r.parts("out = out[:n]").is_empty());
    let statement = request(FimFormat::Qwen, "d.go", DECODE, (2, 2), (1, 8), &[]).unwrap();
    assert!(statement.parts(middle).is_empty());
}

#[test]
fn the_gaps_around_the_checks_that_refuse_input_are_before_and_after_each() {
    // The range checks of a cron parser (robfig/cron's getRange): the one refusing a start
    // beyond the end is missing between the others.
    let go = "func getRange(expr string, r bounds) (uint64, error) {\n\tstart, end, err := parse(expr)\n\tif err != nil {\n\t\treturn 0, err\n\t}\n\tif start < r.min {\n\t\treturn 0, fmt.Errorf(\"below minimum: %s\", expr)\n\t}\n\tif end > r.max {\n\t\treturn 0, fmt.Errorf(\"above maximum: %s\", expr)\n\t}\n\n\treturn bits(start, end), nil\n}\n";
    let gaps = guard_gaps(go, (1, 14));
    let at: Vec<usize> = gaps.iter().map(|(line, _)| *line).collect();
    // Not around the error passed on (line 3), which refuses nothing itself.
    assert_eq!(at, [6, 9, 13]);
    assert!(gaps.iter().all(|(_, indent)| indent == "\t"));
    // A branch with an alternative is no guard; a Ruby modifier and a Python one-liner are.
    let py = "def f(x):\n    if x is None:\n        x = 0\n    else:\n        raise ValueError(x)\n    if x < 0: raise ValueError(x)\n    return x\n";
    assert_eq!(
        guard_gaps(py, (1, 7)),
        [(6, "    ".to_string()), (7, "    ".to_string())]
    );
    let rb = "def f(x)\n  raise ArgumentError, 'x' unless x.is_a?(String)\n  x.upcase\nend\n";
    assert_eq!(
        guard_gaps(rb, (1, 4))
            .iter()
            .map(|g| g.0)
            .collect::<Vec<_>>(),
        [2, 3]
    );
}

#[test]
fn a_gap_middle_is_inserted_without_the_models_comments_and_they_do_not_count() {
    let r = gap(FimFormat::Qwen, "d.go", DECODE, 7, (1, 8), &[]).unwrap();
    let fix = r
        .fix("// cut the output to its length\n\tif n > 0 {\n\t\tout = out[:n]\n\t}")
        .unwrap();
    assert_eq!(fix.after, "if n > 0 {\n\t\tout = out[:n]\n\t}");
    assert!(
        fix.text
            .contains("\t}\n\tif n > 0 {\n\t\tout = out[:n]\n\t}\n\treturn out\n"),
        "{}",
        fix.text
    );
}

#[test]
fn a_refined_request_shows_the_answer_tried_and_the_tests_message_above_the_definition() {
    let src = "package r\n\nfunc parse(lo, hi int) (int, error) {\n\tif lo > hi {\n\t\treturn 0, nil\n\t}\n\treturn hi - lo, nil\n}\n";
    let r = request(FimFormat::StarCoder, "r.go", src, (5, 5), (3, 8), &[]).unwrap();
    assert!(!r.refined);
    let message = vec![
        "expected \"beyond end of range\", got \"lo > hi\"".to_string(),
        "second".into(),
        "third".into(),
        "fourth, not shown".into(),
    ];
    let again = r.refined("0, errors.New(\"lo > hi\")", &message).unwrap();
    assert!(again.refined);
    let note = "// Tried: return 0, errors.New(\"lo > hi\")\n// The test still fails:\n//   expected \"beyond end of range\", got \"lo > hi\"\n//   second\n//   third\nfunc parse(lo, hi int) (int, error) {\n\tif lo > hi {\n\t\treturn <fim_suffix>";
    assert!(again.prompt.contains(note), "{}", again.prompt);
    assert!(!again.prompt.contains("fourth"));
    // The same hole: the answer makes the same change.
    assert_eq!(again.fix("1, nil").unwrap(), r.fix("1, nil").unwrap());
    assert!(r.refined("1, nil", &[]).is_none(), "nothing new to show");
    // A prompt without the definition's first line above the hole: the note is right above it.
    let headless = request(FimFormat::StarCoder, "r.go", src, (5, 5), (5, 5), &[]).unwrap();
    let again = headless.refined("0, nil", &message[..1]).unwrap();
    let note = "\t\t// Tried: return 0, nil\n\t\t// The test still fails:\n\t\t//   expected \"beyond end of range\", got \"lo > hi\"\n\t\treturn <fim_suffix>";
    assert!(again.prompt.contains(note), "{}", again.prompt);
    // Python's comments, on a gap.
    let gap = gap_ending_block(
        FimFormat::Qwen,
        "d.py",
        PY,
        (9, "        ".into()),
        (4, 10),
        &[],
    )
    .unwrap();
    let again = gap
        .refined("raise ValueError(year)\n", &["ValueError: 1900".into()])
        .unwrap();
    assert!(again.prompt.contains("# Tried: raise ValueError(year)\n# The test still fails:\n#   ValueError: 1900\ndef max_days(year, month):\n"), "{}", again.prompt);
    assert!(
        again
            .prompt
            .contains("            return 29\n        <|fim_suffix|>"),
        "{}",
        again.prompt
    );
}

#[test]
fn holes_deep_in_a_long_definition_share_the_prompts_first_line() {
    use super::shown::shown_lines;
    // A definition on lines 252-315 (go-cron-parser's `getRange`); the holes a run asks.
    let definition = (252, 315);
    let lo = |hole: usize| shown_lines(definition, (hole, hole), 400).0;
    // Near the top: from 12 lines above the definition.
    assert_eq!(lo(260), 240);
    assert_eq!(lo(295), 240);
    // Deeper: one band further down, the same for every hole in it.
    assert_eq!(lo(304), 270);
    assert_eq!(lo(311), 270);
    for hole in 252..=315 {
        let shown_above = hole - lo(hole);
        assert!(shown_above <= 60, "hole {hole}: {shown_above} lines above");
    }
    // A short definition is shown whole, from 12 lines above it.
    assert_eq!(shown_lines((20, 40), (35, 35), 100), (8, 52));
}
