//! The source of a failing test: a test function found by its name, or a test declared by a
//! string (node:test and jest, RSpec, Minitest's spec DSL) found by its description; and the
//! helpers of the tests' own files that the tests call.

use std::collections::BTreeSet;

use slopguard_change::Tree;
use slopguard_lang::{FileKind, detect};

use super::{MAX_TEST_LINES, definitions, source_text};
use crate::templates::lexer::{Lang, leading_space};

/// The functions of the failing tests' own files that the tests call (`split_ok(&[...])`, a
/// table-driven test's checker), other than the tests: (path, first line, source). What they
/// call is what the tests exercise, although the tests never name it.
pub(super) fn test_helpers(
    tree: &dyn Tree,
    tests: &[(String, usize, String)],
) -> Vec<(String, usize, String)> {
    let mut helpers = Vec::new();
    let mut files = BTreeSet::new();
    for (path, _, _) in tests {
        if !files.insert(path.as_str()) {
            continue;
        }
        let Some(text) = source_text(tree, path) else {
            continue;
        };
        let words: BTreeSet<&str> = tests
            .iter()
            .filter(|(p, _, _)| p == path)
            .flat_map(|(_, _, src)| src.split(|c: char| !(c.is_alphanumeric() || c == '_')))
            .collect();
        let lines: Vec<&str> = text.lines().collect();
        for d in definitions(path, &text) {
            let (start, end) = (d.start_line as usize, d.end_line as usize);
            let is_a_test = tests.iter().any(|(p, line, _)| p == path && *line == start);
            if d.kind != slopguard_lang::DefKind::Function
                || is_a_test
                || !words.contains(d.simple_name())
                || start == 0
                || end > lines.len()
            {
                continue;
            }
            helpers.push((path.clone(), start, shown(path, &lines[start - 1..end])));
        }
    }
    helpers
}

/// The source of the definition named `name` in `path` (first line, text), capped at
/// [`MAX_TEST_LINES`] lines.
pub fn function_source(tree: &dyn Tree, path: &str, name: &str) -> Option<(usize, String)> {
    let bytes = tree.read(path).ok().flatten()?;
    let text = String::from_utf8(bytes).ok()?;
    if !matches!(detect(path, text.as_bytes()), FileKind::Code(_)) {
        return None;
    }
    let word = name.split_whitespace().last().unwrap_or(name);
    let def = definitions(path, &text)
        .into_iter()
        .find(|d| d.simple_name() == name || d.simple_name() == word);
    let lines: Vec<&str> = text.lines().collect();
    let (start, end) = match def {
        Some(d) => (d.start_line as usize, d.end_line as usize),
        None => declared_by_string(&lines, name)?,
    };
    // A test whose decorators run long (a parametrize table of fifty cases) is shown from its
    // own line: its body says what it calls, the table does not.
    let start = if end.saturating_sub(start) >= MAX_TEST_LINES {
        (start..=end.min(lines.len()))
            .find(|&n| lines[n - 1].contains(word) && !lines[n - 1].trim_start().starts_with('@'))
            .unwrap_or(start)
    } else {
        start
    };
    let end = end.min(lines.len());
    if start == 0 || start > end {
        return None;
    }
    Some((start, shown(path, &lines[start - 1..end])))
}

/// The lines of a test (or a test's helper) of the file at `path` as shown: all of them up to
/// [`MAX_TEST_LINES`]; past that its first and its last lines, with a comment line `...`
/// between ([`cut_to`]).
fn shown(path: &str, lines: &[&str]) -> String {
    cut_to(path, lines, MAX_TEST_LINES)
}

/// A test's shown `source` (of the file at `path`) cut again to at most `max_lines` lines, the
/// same way ([`cut_to`]): for prompts that cannot spend a long test's middle.
pub fn shortened_test(path: &str, source: &str, max_lines: usize) -> String {
    let lines: Vec<&str> = source.lines().collect();
    cut_to(path, &lines, max_lines)
}

/// `lines` of the file at `path`: all of them up to `max_lines`; past that their first and
/// their last lines, with a comment line `...` between (no word in it: the tests' words name
/// the definitions they exercise). A long test is most often a table of cases followed by the
/// loop that calls the code and compares (Go's table-driven tests, a list of pairs): the
/// call, which says what the test exercises, and the comparison, which says what it checks,
/// are at its end.
fn cut_to(path: &str, lines: &[&str], max_lines: usize) -> String {
    if lines.len() <= max_lines || max_lines < 3 {
        return lines.join("\n");
    }
    let head = max_lines / 2;
    let tail = max_lines - head - 1;
    let comment = Lang::of(path).line_comment();
    let marker = format!("{}{comment} ...", leading_space(lines[lines.len() - tail]));
    let mut out: Vec<&str> = lines[..head].to_vec();
    out.push(&marker);
    out.extend(&lines[lines.len() - tail..]);
    out.join("\n")
}

/// The lines of a test declared by a string rather than a function name: node:test and jest
/// (`test('collapses dashes', () => {`), RSpec (`it "subtracts" do`, which the runner names by
/// its groups' descriptions and its own: `Calc subtracts`) and Minitest's spec DSL (which names
/// it `test_0003_subtracts`). From the line that declares it to the line that closes its block
/// at the same indentation (`}` or `end`); 16 lines when none does. `None` when no line
/// declares it.
fn declared_by_string(lines: &[&str], name: &str) -> Option<(usize, usize)> {
    let i = lines
        .iter()
        .position(|l| l.contains(name))
        .or_else(|| declaring_line(lines, spec_description(name)))?;
    let indent = leading_width(lines[i]);
    let close = (i + 1..lines.len().min(i + MAX_TEST_LINES)).find(|&j| {
        let l = lines[j].trim_start();
        leading_width(lines[j]) == indent
            && (l.starts_with('}') || l == "end" || l.starts_with("end ") || l.starts_with("end)"))
    });
    Some((i + 1, close.map_or((i + 16).min(lines.len()), |j| j + 1)))
}

/// The description a spec-style test was declared with, as far as its name tells: Minitest's
/// spec DSL prefixes it with `test_` and a four-digit number; RSpec's full name ends with it.
fn spec_description(name: &str) -> &str {
    slopguard_toolchain::minitest_spec_description(name).unwrap_or(name)
}

/// The line whose quoted string is the longest that `description` is or ends with (after a
/// space: RSpec joins the groups' descriptions to the example's), at least two words or the
/// whole description, so that a lone common word does not match.
fn declaring_line(lines: &[&str], description: &str) -> Option<usize> {
    let declares = |quoted: &str| {
        !quoted.trim().is_empty()
            && (quoted == description
                || (quoted.contains(' ') && description.ends_with(&format!(" {quoted}"))))
    };
    lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            quoted_strings(l)
                .filter(|q| declares(q))
                .map(str::len)
                .max()
                .map(|len| (len, i))
        })
        .max_by_key(|&(len, i)| (len, std::cmp::Reverse(i)))
        .map(|(_, i)| i)
}

/// The single- and double-quoted strings of `line`, without their quotes (no escapes read).
fn quoted_strings(line: &str) -> impl Iterator<Item = &str> {
    let mut rest = line;
    std::iter::from_fn(move || {
        let open = rest.find(['"', '\''])?;
        let quote = rest[open..].chars().next()?;
        let body = &rest[open + 1..];
        let close = body.find(quote)?;
        rest = &body[close + 1..];
        Some(&body[..close])
    })
}

/// The width of `line`'s indentation.
fn leading_width(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::tests::tree;

    #[test]
    fn a_test_named_by_a_string_ends_where_its_call_closes() {
        let t = tree(&[(
            "test/s.test.js",
            "test('collapses dashes', () => {\n  assert.strictEqual(slugify('a  b'), 'a-b');\n});\n\ntest('unique', () => {\n  uniqueSlug('x');\n});\n",
        )]);
        let (line, src) = function_source(&t, "test/s.test.js", "collapses dashes").unwrap();
        assert_eq!(line, 1);
        assert!(src.ends_with("});") && !src.contains("uniqueSlug"), "{src}");
    }

    #[test]
    fn a_long_table_driven_test_shows_its_start_and_the_loop_at_its_end() {
        let cases: String = (0..60)
            .map(|i| format!("\t\t{{\"{i}s\", \"{i} seconds\"}},\n"))
            .collect();
        let test = format!(
            "package d\n\nfunc TestParse(t *testing.T) {{\n\tcases := []struct{{ in, want string }}{{\n{cases}\t}}\n\tfor _, c := range cases {{\n\t\tif got := Parse(c.in).String(); got != c.want {{\n\t\t\tt.Errorf(\"%q\", got)\n\t\t}}\n\t}}\n}}\n"
        );
        let t = tree(&[("d_test.go", &test)]);
        let (line, src) = function_source(&t, "d_test.go", "TestParse").unwrap();
        assert_eq!(line, 3);
        assert_eq!(src.lines().count(), MAX_TEST_LINES, "{src}");
        assert!(src.starts_with("func TestParse(t *testing.T) {"), "{src}");
        assert!(
            src.contains("\t\t{\"17s\", \"17 seconds\"},\n\t\t// ...\n\t\t{\"48s\""),
            "{src}"
        );
        assert!(
            src.contains("Parse(c.in).String()") && src.ends_with('}'),
            "{src}"
        );
        assert!(src.contains("{\"0s\"") && src.contains("{\"59s\""), "{src}");
        // A Python test's marker is a Python comment.
        let body: String = (0..50).map(|i| format!("    assert f({i})\n")).collect();
        let t = tree(&[("tests/test_f.py", &format!("def test_f():\n{body}"))]);
        let (_, src) = function_source(&t, "tests/test_f.py", "test_f").unwrap();
        assert!(
            src.contains("assert f(18)\n    # ...\n    assert f(31)"),
            "{src}"
        );
        assert!(src.ends_with("assert f(49)"), "{src}");
    }

    #[test]
    fn a_shown_test_is_shortened_by_its_middle_and_a_short_one_is_kept() {
        let body: String = (0..30).map(|i| format!("    assert f({i})\n")).collect();
        let src = format!("def test_f():\n{body}");
        let short = shortened_test("tests/test_f.py", &src, 8);
        assert_eq!(
            short,
            "def test_f():\n    assert f(0)\n    assert f(1)\n    assert f(2)\n    # ...\n    assert f(27)\n    assert f(28)\n    assert f(29)"
        );
        assert_eq!(shortened_test("tests/test_f.py", &src, 40), src.trim_end());
        // A Go test's marker is a Go comment, indented as the lines after it.
        let go = "func TestF(t *testing.T) {\n\tf(1)\n\tf(2)\n\tf(3)\n\tf(4)\n}";
        assert_eq!(
            shortened_test("f_test.go", go, 5),
            "func TestF(t *testing.T) {\n\tf(1)\n\t// ...\n\tf(4)\n}"
        );
    }

    #[test]
    fn a_minitest_spec_test_is_found_by_its_description() {
        let src = "describe Rack::Utils do\n  it \"parses ranges\" do\n    _(byte_ranges(1)).must_equal [0..1]\n  end\n\n  it \"escapes\" do\n    escape('x')\n  end\nend\n";
        let t = tree(&[("test/spec_utils.rb", src)]);
        let (line, src) =
            function_source(&t, "test/spec_utils.rb", "test_0001_parses ranges").unwrap();
        assert_eq!(line, 2);
        assert!(src.ends_with("  end") && !src.contains("escape("), "{src}");
    }

    #[test]
    fn an_rspec_example_is_found_by_the_end_of_its_full_description() {
        let src = "RSpec.describe Dry::Inflector do\n  describe '#ordinalize' do\n    it 'adds st' do\n      expect(ordinalize(1)).to eq('1st')\n    end\n\n    it 'adds nd to 2' do\n      expect(ordinalize(2)).to eq('2nd')\n    end\n  end\nend\n";
        let t = tree(&[("spec/inflector_spec.rb", src)]);
        let name = "Dry::Inflector#ordinalize adds nd to 2";
        let (line, src) = function_source(&t, "spec/inflector_spec.rb", name).unwrap();
        assert_eq!(line, 7);
        assert!(src.contains("eq('2nd')") && !src.contains("'1st'"), "{src}");
        // No quoted string ends the description: nothing is shown rather than a wrong test.
        assert_eq!(
            function_source(&t, "spec/inflector_spec.rb", "Other adds"),
            None
        );
    }
}
