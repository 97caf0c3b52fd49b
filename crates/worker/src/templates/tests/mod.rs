use super::*;

mod documented;
mod order;
mod reversed;

fn afters(path: &str, text: &str, op: Operator) -> Vec<String> {
    let n = text.lines().count();
    fixes(path, text, &Places::regions(&[(1, n)]), 200)
        .into_iter()
        .filter(|f| f.operator == op)
        .map(|f| f.after)
        .collect()
}

#[test]
fn a_comparison_gets_its_bound_and_its_mirror_but_generics_and_arrows_stay() {
    let py = "def f(a, b):\n    return a < b\n";
    assert_eq!(
        afters("m.py", py, Operator::Comparison),
        ["return a <= b", "return a > b"]
    );
    let rs = "fn f(v: Vec<u8>) -> bool {\n    v.len() >= 2\n}\n";
    assert_eq!(
        afters("lib.rs", rs, Operator::Comparison),
        ["v.len() > 2", "v.len() <= 2"]
    );
}

#[test]
fn strings_comments_and_docstrings_are_never_changed() {
    let py = "def f(x):\n    \"\"\"x < 2 is\n    1 < 2\"\"\"\n    s = \"a < b\"  # 1 < 2\n    return s\n";
    let all = fixes("m.py", py, &Places::regions(&[(1, 5)]), 200);
    assert!(
        all.iter()
            .all(|f| f.line == 4 || f.line == 5 || f.line == 1),
        "{all:?}"
    );
    assert!(all.iter().all(|f| !f.after.contains("<=")), "{all:?}");
    assert!(
        all.iter()
            .all(|f| f.after.ends_with("# 1 < 2") || f.line != 4)
    );
}

#[test]
fn off_by_one_on_literals_and_lengths() {
    let js = "function last(xs) {\n  return xs[xs.length - 1];\n}\n";
    let got = afters("a.js", js, Operator::OffByOne);
    assert_eq!(got, ["return xs[xs.length - 2];", "return xs[xs.length];"]);
    let got = afters("a.js", js, Operator::LengthBound);
    assert_eq!(
        got,
        [
            "return xs[xs.length - 1 - 1];",
            "return xs[xs.length + 1 - 1];"
        ]
    );
    let py = "def f(xs):\n    return range(len(xs))\n";
    assert_eq!(
        afters("m.py", py, Operator::LengthBound),
        ["return range(len(xs) - 1)", "return range(len(xs) + 1)"]
    );
}

#[test]
fn negation_is_dropped_or_added_per_language() {
    let py = "def f(x):\n    if x > 0:\n        return not x\n";
    assert_eq!(
        afters("m.py", py, Operator::Negation),
        ["if not (x > 0):", "return x"]
    );
    let go = "func f(x int) bool {\n\tif x > 0 {\n\t\treturn !ok(x)\n\t}\n}\n";
    assert_eq!(
        afters("m.go", go, Operator::Negation),
        ["if !(x > 0) {", "return ok(x)"]
    );
    let js = "function f(x) {\n  if (x.ok && y) {\n  }\n}\n";
    assert_eq!(
        afters("m.js", js, Operator::Negation),
        ["if (!(x.ok && y)) {"]
    );
    let rb = "def f(x)\n  if x.empty?\n  end\nend\n";
    assert_eq!(afters("m.rb", rb, Operator::Negation), ["unless x.empty?"]);
}

#[test]
fn swapped_arguments_counterparts_logical_and_arithmetic() {
    let py = "def f(a, b):\n    return max(a - b, 0) and g(a, b)\n";
    assert!(
        afters("m.py", py, Operator::SwapArguments)
            .contains(&"return max(a - b, 0) and g(b, a)".to_string())
    );
    assert!(
        afters("m.py", py, Operator::SwapArguments)
            .contains(&"return max(0, a - b) and g(a, b)".to_string())
    );
    assert_eq!(
        afters("m.py", py, Operator::Counterpart),
        ["return min(a - b, 0) and g(a, b)"]
    );
    assert_eq!(
        afters("m.py", py, Operator::Logical),
        ["return max(a - b, 0) or g(a, b)"]
    );
    assert_eq!(
        afters("m.py", py, Operator::Arithmetic),
        ["return max(a + b, 0) and g(a, b)"]
    );
}

#[test]
fn another_variable_of_the_definition_replaces_one() {
    let py = "def f(lo, hi):\n    total = 0\n    return lo\n";
    let got = afters("m.py", py, Operator::OtherVariable);
    assert!(got.contains(&"return hi".to_string()), "{got:?}");
    assert!(got.contains(&"return total".to_string()), "{got:?}");
    let rs = "fn f(a: usize, b: usize) -> usize {\n    let c = a;\n    c\n}\n";
    let got = afters("lib.rs", rs, Operator::OtherVariable);
    assert!(got.contains(&"let c = b;".to_string()), "{got:?}");
}

#[test]
fn a_signature_keeps_its_parameters_and_types_but_not_its_defaults() {
    // Go's result list `(*T, error)` binds no name: `error` is no variable to swap in.
    let go =
        "func Parse(input string) (*T, error) {\n\tv, err := conv(input)\n\treturn v, err\n}\n";
    let got = afters("p.go", go, Operator::OtherVariable);
    assert!(got.iter().all(|a| !a.contains("error")), "{got:?}");
    assert!(got.contains(&"return v, input".to_string()), "{got:?}");
    // A parameter renamed in the signature alone is never a fix; a default value may be
    // another name.
    assert!(got.iter().all(|a| !a.starts_with("func")), "{got:?}");
    let py = "def f(lo, hi, step=lo):\n    return hi - step\n";
    let got = afters("m.py", py, Operator::OtherVariable);
    let on_signature: Vec<&String> = got.iter().filter(|a| a.starts_with("def")).collect();
    assert!(
        on_signature.contains(&&"def f(lo, hi, step=hi):".to_string()),
        "{got:?}"
    );
    assert!(
        on_signature
            .iter()
            .all(|a| a.starts_with("def f(lo, hi, step=")),
        "{got:?}"
    );
}

#[test]
fn crlf_endings_and_rust_lifetimes_survive() {
    let rs = "fn f<'a>(s: &'a str) -> bool {\r\n    s.len() < 3\r\n}\r\n";
    let all = fixes("lib.rs", rs, &Places::regions(&[(1, 3)]), 100);
    let cmp: Vec<&TemplateFix> = all
        .iter()
        .filter(|f| f.operator == Operator::Comparison)
        .collect();
    assert_eq!(
        cmp[0].text,
        "fn f<'a>(s: &'a str) -> bool {\r\n    s.len() <= 3\r\n}\r\n"
    );
}

#[test]
fn another_variable_comes_from_the_lines_own_definition_and_is_never_a_function() {
    let js = "const helper = (a, sep) => {\n  return a + sep;\n};\nfunction f(x, y) {\n  return helper(x, y);\n}\n";
    let all = fixes("m.js", js, &Places::regions(&[(4, 6), (1, 3)]), 500);
    let swaps: Vec<String> = all
        .iter()
        .filter(|f| f.operator == Operator::OtherVariable && f.line == 5)
        .map(|f| f.after.clone())
        .collect();
    assert_eq!(
        swaps,
        ["return helper(y, y);", "return helper(x, x);"],
        "{swaps:?}"
    );
}

#[test]
fn one_operand_of_a_condition_is_negated_at_a_time() {
    let js = "function q(str) {\n  if (str.length > 0 && TEXT.test(str)) {\n  }\n}\n";
    assert_eq!(
        afters("a.js", js, Operator::SubCondition),
        [
            "if (!(str.length > 0) && TEXT.test(str)) {",
            "if (str.length > 0 && !TEXT.test(str)) {"
        ]
    );
    let py = "def f(a, b):\n    if a and not b.ok(1, 2):\n        pass\n";
    assert_eq!(
        afters("m.py", py, Operator::SubCondition),
        ["if not a and not b.ok(1, 2):"]
    );
    let go = "func f(x int, done bool) {\n\tif x > 0 || done {\n\t}\n}\n";
    assert_eq!(
        afters("m.go", go, Operator::SubCondition),
        ["if !(x > 0) || done {", "if x > 0 || !done {"]
    );
    let single = "def f(a):\n    if a > 0:\n        pass\n";
    assert!(afters("m.py", single, Operator::SubCondition).is_empty());
    assert!(has_top_level_space("a.b(c) > d"));
    assert!(!has_top_level_space("a.b(c, d)"));
}

#[test]
fn a_name_stands_for_its_siblings_whole_or_by_part() {
    let js = "function f(value) {\n  value = value.trimEnd()\n}\n";
    assert_eq!(
        afters("a.js", js, Operator::Counterpart),
        ["value = value.trim()", "value = value.trimStart()"]
    );
    let py = "def f(remaining, keys):\n    remaining.intersection_update(keys)\n";
    assert_eq!(
        afters("m.py", py, Operator::Counterpart),
        [
            "remaining.union_update(keys)",
            "remaining.difference_update(keys)"
        ]
    );
    assert!(siblings("intersection").contains(&"difference".to_string()));
    assert!(siblings("update_value").is_empty());
}

#[test]
fn an_assigned_value_or_a_dividend_is_one_more_or_one_less() {
    let py = "def f(lo, mid):\n    lo = mid\n    return None\n";
    assert_eq!(
        afters("m.py", py, Operator::ValueBound),
        ["lo = mid + 1", "lo = mid - 1"]
    );
    let go = "func f(count int) int {\n\tcount += count / 3\n\treturn count\n}\n";
    assert_eq!(
        afters("m.go", go, Operator::ValueBound),
        [
            "count += (count - 1) / 3",
            "count += (count + 1) / 3",
            "return count + 1",
            "return count - 1"
        ]
    );
    // A division rounded up: Python's idiom for `//`, `+ k - 1` for `/` (`+ 2` for a literal 3).
    assert_eq!(
        afters("m.go", go, Operator::RoundedUp),
        ["count += (count + 2) / 3"]
    );
    let py = "def pages(total, per_page):\n    last = max(1, total // per_page)\n    return last\n";
    let got = afters("m.py", py, Operator::RoundedUp);
    assert!(
        got.contains(&"last = max(1, -(-total // per_page))".to_string()),
        "{got:?}"
    );
    let rs = "fn chunks(total: usize, size: usize) -> usize {\n    let n = total / size.max(1) + total / size;\n    n\n}\n";
    let got = afters("lib.rs", rs, Operator::RoundedUp);
    assert_eq!(
        got,
        ["let n = total / size.max(1) + (total + size - 1) / size;"]
    );
}

#[test]
fn a_word_constant_is_replaced_by_another_of_its_definition() {
    let js = "function r(t, { missing = 'empty' } = {}) {\n  if (typeof t !== 'string') return 0\n  if (missing === 'throw') return 1\n  if (missing === 'keep') return 2\n}\nconst other = 'far away';\n";
    let got = afters("a.js", js, Operator::OtherLiteral);
    assert!(
        got.contains(&"function r(t, { missing = 'keep' } = {}) {".to_string()),
        "{got:?}"
    );
    assert!(
        got.iter()
            .all(|a| !a.contains("far away") && !a.contains("missing = 'string'")),
        "{got:?}"
    );
    assert!(
        got.iter().all(|a| !a.starts_with("if (typeof t !==")),
        "a constant compared with another name is not swapped in: {got:?}"
    );
    assert!(is_word_literal("\"utf-8\""));
    assert!(!is_word_literal("'a'"));
    assert!(!is_word_literal("'hello world'"));
}

#[test]
fn another_member_of_the_same_receiver_replaces_one() {
    let py = "\
def overlap(a, b):
    if a.start < b.end:
        return a.end - b.start
    return a.strip() + b.lower()
";
    let got = afters("m.py", py, Operator::OtherMember);
    assert!(got.contains(&"if a.end < b.end:".to_string()), "{got:?}");
    assert!(
        got.contains(&"if a.start < b.start:".to_string()),
        "{got:?}"
    );
    assert!(
        got.contains(&"return a.start - b.start".to_string()),
        "{got:?}"
    );
    // Read members are not swapped for called ones, nor across receivers.
    assert!(got.iter().all(|a| !a.contains("a.strip <")), "{got:?}");
    assert!(got.iter().all(|a| !a.contains("a.lower()")), "{got:?}");
    // A member of a call's result or of an index has no plain receiver.
    let js = "function f(xs) {\n  return g().x + xs[0].y + xs.length + xs.size;\n}\n";
    let got = afters("a.js", js, Operator::OtherMember);
    assert_eq!(
        got,
        [
            "return g().x + xs[0].y + xs.size + xs.size;",
            "return g().x + xs[0].y + xs.length + xs.length;"
        ]
    );
}

#[test]
fn another_number_of_the_definition_replaces_one_that_is_not_one_off() {
    let go = "func size(n int) int {\n\tif n < 1000 {\n\t\treturn n / 1024\n\t}\n\treturn 0\n}\n";
    let got = afters("m.go", go, Operator::OtherNumber);
    assert!(got.contains(&"if n < 1024 {".to_string()), "{got:?}");
    assert!(got.contains(&"return n / 1000".to_string()), "{got:?}");
    assert!(got.contains(&"return 1000".to_string()), "{got:?}");
    // One off is the off-by-one template's; decimals and hex are left alone.
    let py = "def f(x):\n    return x[0] + x[1] + 0.5 + 0x10\n";
    assert!(afters("m.py", py, Operator::OtherNumber).is_empty());
}

#[test]
fn a_statement_a_sibling_definition_does_is_inserted_where_it_is_missing_first() {
    // `median` forgets to sort; `percentile` beside it sorts first.
    let py = "\
import math


def percentile(values, q):
    values = sorted(values)
    k = (len(values) - 1) * q
    return values[int(k)]


def median(values):
    if not values:
        raise ValueError(\"empty\")
    k = (len(values) - 1) * 0.5
    return values[int(k)]
";
    let places = Places::regions(&[(10, 14)]);
    let got = insertions("stats.py", py, &places, 10);
    let first = got.first().expect("an insertion");
    assert_eq!(first.operator, Operator::InsertedStatement);
    assert_eq!(first.after, "values = sorted(values)");
    assert_eq!(first.describe(), "`values = sorted(values)` inserted");
    assert!(
        first.text.contains(
            "        raise ValueError(\"empty\")\n    values = sorted(values)\n    k = (len"
        ),
        "{}",
        first.text
    );
    // Never before the signature, never a block opener or a return copied.
    assert!(got.iter().all(|f| f.line > 10), "{got:?}");
    assert!(
        got.iter()
            .all(|f| !f.after.starts_with("return") && !f.after.starts_with("if")),
        "{got:?}"
    );
}

#[test]
fn a_copy_one_branch_left_out_goes_back_first_even_where_the_definition_has_it() {
    // Three branches check the key the same way; the first forgot to report the error.
    let go = "\
package logfmt

func (dec *Decoder) scanKey(line []byte) bool {
\tconst invalid = \"invalid key\"
\tswitch {
\tcase line[0] == '=':
\t\tif bad(line) {
\t\t\treturn false
\t\t}
\t\tdec.pos++
\tcase line[0] == ' ':
\t\tif bad(line) {
\t\t\tdec.syntaxError(invalid)
\t\t\treturn false
\t\t}
\t}
\tif bad(line) {
\t\tdec.syntaxError(invalid)
\t\treturn false
\t}
\treturn true
}
";
    let got = insertions("decode.go", go, &Places::regions(&[(3, 22)]), 20);
    let first = got.first().expect("an insertion");
    assert_eq!(
        (first.line, first.after.as_str()),
        (8, "dec.syntaxError(invalid)")
    );
    // Elsewhere the definition's own statements are still not offered again.
    assert!(
        got.iter()
            .filter(|f| f.after == "dec.syntaxError(invalid)")
            .all(|f| f.line == 8),
        "{got:?}"
    );
}

#[test]
fn an_inserted_statement_reads_only_names_in_scope_and_keeps_blocks_whole() {
    // Go: the branch that updates an entry forgets to refresh it; `Get` shows how.
    let go = "\
package lru

func (c *Cache) Get(key string) (int, bool) {
\tif el, ok := c.items[key]; ok {
\t\tc.ll.MoveToFront(el)
\t\treturn el.Value.(*entry).value, true
\t}
\treturn 0, false
}

func (c *Cache) Put(key string, value int) {
\tif el, ok := c.items[key]; ok {
\t\tel.Value.(*entry).value = value
\t\treturn
\t}
\tc.items[key] = c.ll.PushFront(&entry{key: key, value: value})
\tc.evict(total)
}
";
    let got = insertions("lru.go", go, &Places::regions(&[(11, 18)]), 20);
    assert!(
        got.iter()
            .any(|f| f.after == "c.ll.MoveToFront(el)" && f.line == 14),
        "{got:?}"
    );
    // `total` is not a name of `Put`... it is used there, so `c.evict(total)` is visible; but a
    // statement reading a name `Put` never mentions is not offered.
    let go2 = go.replace("\tc.evict(total)\n", "");
    let got2 = insertions("lru.go", &go2, &Places::regions(&[(11, 17)]), 20);
    assert!(got2.iter().all(|f| !f.after.contains("total")), "{got2:?}");
    // Nothing goes before `} else {` or inside a call spread over lines.
    let js = "\
function put(map, key, value) {
  if (map.has(key)) {
    map.delete(key);
  } else {
    log(key,
        value);
  }
  map.set(key, value);
}
";
    let got = insertions("lru.js", js, &Places::regions(&[(1, 9)]), 20);
    assert!(got.iter().all(|f| f.line != 4 && f.line != 6), "{got:?}");
    // Rust: a line without `;` is a value, never copied.
    let rs = "fn f(v: &mut Vec<u8>) -> usize {\n    v.sort();\n    v.len()\n}\n\nfn g(v: &mut Vec<u8>) -> usize {\n    v.dedup();\n    v.len()\n}\n";
    let got = insertions("lib.rs", rs, &Places::regions(&[(6, 9)]), 20);
    assert!(got.iter().any(|f| f.after == "v.sort();"), "{got:?}");
    assert!(got.iter().all(|f| f.after != "v.len()"), "{got:?}");
}

#[test]
fn a_method_takes_statements_of_its_class_siblings() {
    // The class is a region too; what `replace` lacks is judged against `replace` alone.
    let js = "\
class Registry {
  #items = new Map();
  #order = [];

  add(name, item) {
    this.#items.set(name, item);
    this.#order.push(name);
  }

  replace(name, item) {
    this.#items.set(name, item);
  }
}
";
    let got = insertions(
        "registry.js",
        js,
        &Places::regions(&[(1, 13), (10, 12)]),
        20,
    );
    assert!(
        got.iter()
            .any(|f| f.after == "this.#order.push(name);" && f.line == 11),
        "{got:?}"
    );
}

#[test]
fn a_ruby_guard_clause_is_not_a_jump_and_instance_variables_are_in_scope() {
    let rb = "\
class Stack
  def push(x)
    @items.push(x)
    @size += 1
  end

  def pop
    return nil if @items.empty?
    @items.pop
  end
end
";
    let got = insertions("stack.rb", rb, &Places::regions(&[(7, 10)]), 10);
    assert!(
        got.iter().any(|f| f.after == "@size += 1" && f.line == 9),
        "{got:?}"
    );
}

#[test]
fn a_frames_statement_gets_the_preparation_a_sibling_makes_but_no_module_constant() {
    // `store` forgets to wrap its argument before calling a method of the wrapper; `load`
    // beside it wraps first. A frame names the call; the focus is the lines just above it.
    let py = "\
_unset = object()


def store(doc, key, value):
    \"\"\"Stores value under key.\"\"\"
    return key.put(doc, value)


def load(doc, key, default=_unset):
    \"\"\"Loads key.\"\"\"
    key = Key(key)
    return key.get(doc, default)
";
    let places = Places {
        focus: vec![(4, 6)],
        focus_limit: None,
        lead: Some((4, 6)),
        regions: vec![(4, 6), (9, 12)],
        cleared: BTreeSet::new(),
    };
    let got = insertions("keys.py", py, &places, 10);
    let first = got.first().expect("an insertion");
    assert_eq!((first.line, first.after.as_str()), (6, "key = Key(key)"));
    assert!(
        first.text.contains(
            "\"\"\"Stores value under key.\"\"\"\n    key = Key(key)\n    return key.put"
        ),
        "{}",
        first.text
    );
    // The module's constant is never copied into a body.
    assert!(
        got.iter().all(|f| f.after != "_unset = object()"),
        "{got:?}"
    );
}

#[test]
fn a_comparisons_branch_gets_the_update_it_leaves_out() {
    // Merging sorted ranges: an overlapping range must extend the current one.
    let js = "\
function merge(ranges) {
  let current = ranges[0]
  for (const range of ranges.slice(1)) {
    if (range.start > current.end) {
      current = range
    } else if (range.end > current.end) {
      current.index = Math.min(current.index, range.index)
    }
  }
  return current
}
";
    let got = updates("merge.js", js, &Places::regions(&[(1, 11)]), 10);
    let afters: Vec<(usize, &str)> = got.iter().map(|f| (f.line, f.after.as_str())).collect();
    // Each branch assigns neither of the members it compares (`current` is not `current.end`).
    assert_eq!(
        afters,
        [
            (5, "current.end = range.start"),
            (5, "range.start = current.end"),
            (7, "current.end = range.end"),
            (7, "range.end = current.end"),
        ]
    );
    assert!(
        got[2]
            .text
            .contains("{\n      current.end = range.end\n      current.index"),
        "{}",
        got[2].text
    );
    // Semicolons where the body has them, in Rust always; Python's `elif`; Ruby's `@x`.
    let rs = "fn f(xs: &[i32]) -> i32 {\n    let mut best = 0;\n    for &x in xs {\n        if x > best {\n            println!(\"{x}\");\n        }\n    }\n    best\n}\n";
    let got = updates("f.rs", rs, &Places::regions(&[(1, 9)]), 1);
    assert_eq!(got[0].after, "best = x;");
    let py = "def f(xs):\n    hi = 0\n    for x in xs:\n        if x < 0:\n            pass\n        elif x >= hi:\n            print(x)\n    return hi\n";
    let got = updates("f.py", py, &Places::regions(&[(1, 8)]), 10);
    assert_eq!(got[0].after, "hi = x");
    assert_eq!(got.len(), 2, "{got:?}");
    // `max` bounds the list even when a branch gives two.
    let branches = "def f(a, b, c):\n    if a > b:\n        log(a)\n    if b < c:\n        log(b)\n    if a < c:\n        log(c)\n";
    assert_eq!(
        updates("f.py", branches, &Places::regions(&[(1, 7)]), 3).len(),
        3
    );
    // A branch that records either operand already is left alone.
    let py = "def f(xs):\n    hi = 0\n    for x in xs:\n        if x > hi:\n            hi += x\n    return hi\n";
    assert!(updates("f.py", py, &Places::regions(&[(1, 6)]), 10).is_empty());
    let rb = "def f(x)\n  if x > @max\n    log(x)\n  end\nend\n";
    assert_eq!(
        updates("f.rb", rb, &Places::regions(&[(1, 5)]), 1)[0].after,
        "@max = x"
    );
    // Not a loop, a call, an index or a literal; not a one-line branch.
    for line in [
        "while (a > b) {",
        "if (f(a) > b) {",
        "if (a[0] > b) {",
        "if (a > 0) {",
        "if (a > b) { b = a }",
        "if (a > b && c) {",
    ] {
        let js = format!("function g(a, b, c) {{\n  {line}\n    log(a)\n  }}\n}}\n");
        assert!(
            updates("g.js", &js, &Places::regions(&[(1, 5)]), 10).is_empty(),
            "{line}"
        );
    }
}

#[test]
fn the_number_a_line_uses_once_takes_the_one_its_other_parts_use() {
    let rs = "fn f(a: u16, b: u16, c: u16, d: u16) -> bool {\n    a < 10 && b < 10 && c < 10 && d < 0\n}\n";
    assert_eq!(
        afters("src/date.rs", rs, Operator::OddNumber),
        ["a < 10 && b < 10 && c < 10 && d < 10"]
    );
    // Numbers that all differ, or all agree, say nothing.
    let py = "def f(a):\n    return a[0] + a[1] * 2\n";
    assert!(afters("m.py", py, Operator::OddNumber).is_empty());
    let go = "func f(a, b int) bool {\n\treturn a < 10 && b < 10\n}\n";
    assert!(afters("m.go", go, Operator::OddNumber).is_empty());
}

#[test]
fn one_added_made_one_less_is_dropped_not_zero() {
    let rs = "fn f(ymd: &mut [u16; 3], i: usize) {\n    ymd[i + 1] = 2;\n}\n";
    let got = afters("src/date.rs", rs, Operator::OffByOne);
    assert!(got.contains(&"ymd[i] = 2;".to_string()), "{got:?}");
    assert!(got.contains(&"ymd[i + 2] = 2;".to_string()), "{got:?}");
    assert!(!got.iter().any(|a| a.contains("+ 0")), "{got:?}");
}

#[test]
fn a_dropped_negation_takes_the_brackets_it_needed_and_is_never_doubled() {
    let go = "func f(val, cutoff int) {\n\tif !(val > cutoff) {\n\t\treturn\n\t}\n}\n";
    assert_eq!(
        afters("a.go", go, Operator::Negation),
        ["if val > cutoff {"]
    );
    let js = "function f(index) {\n  if (!(index === 0)) {\n    return 1;\n  }\n}\n";
    assert_eq!(
        afters("a.js", js, Operator::Negation),
        ["if (index === 0) {"]
    );
    let rb = "def f(seconds, usec)\n  usec *= -1 if !(seconds < 0)\nend\n";
    assert_eq!(
        afters("a.rb", rb, Operator::Negation),
        ["usec *= -1 if seconds < 0"]
    );
    let py = "def f(a):\n    if not (a > 1):\n        return 1\n";
    assert_eq!(afters("a.py", py, Operator::Negation), ["if a > 1:"]);
    // A group that is one operand keeps its brackets.
    let js = "function f(a, b, c) {\n  return a && !(b || c);\n}\n";
    assert_eq!(
        afters("a.js", js, Operator::Negation),
        ["return a && (b || c);"]
    );
}

#[test]
fn another_variable_bound_nearest_above_the_line_comes_first_however_many_there_are() {
    // durafmt's Format in short: nine values computed, then a loop whose index the wrong
    // line should read (`unitsShort[hours]` for `unitsShort[i]`).
    let go = "func format(n int64) string {\n\tyears := n / 8\n\tweeks := n / 7\n\tdays := n / 6\n\thours := n / 5\n\tminutes := n / 4\n\tseconds := n / 3\n\tmillis := n / 2\n\tmicros := n\n\tout := \"\"\n\tfor i, u := range units {\n\t\tout += u + unitsShort[hours]\n\t}\n\tlate := out\n\treturn late\n}\n";
    let all = afters("d.go", go, Operator::OtherVariable);
    let got: Vec<&String> = all.iter().filter(|a| a.contains("unitsShort")).collect();
    // The line's three variables take turns, each replaced by the name bound nearest above
    // it first: the loop's index, before the values computed above the loop.
    assert_eq!(
        got[..3],
        [
            "i += u + unitsShort[hours]",
            "out += i + unitsShort[hours]",
            "out += u + unitsShort[i]"
        ],
        "{got:?}"
    );
    // A name bound below the line is not in scope there yet: after every name above it.
    let names: Vec<(String, usize)> =
        [("n", 1), ("years", 2), ("out", 10), ("i", 11), ("late", 14)]
            .map(|(n, l)| (n.to_string(), l))
            .into();
    let order: Vec<&str> = nearest_first(&names, 12).collect();
    assert_eq!(order, ["i", "out", "years", "n", "late"]);
    // The name a line declares is not replaced; the names it reads are.
    let go = "func f(a, b int) int {\n\tc := a + b\n\td := c * a\n\treturn d\n}\n";
    let got = afters("f.go", go, Operator::OtherVariable);
    assert!(
        got.iter()
            .all(|a| !a.ends_with("c * a") || a.starts_with("d :=")),
        "{got:?}"
    );
    assert!(got.contains(&"d := c * c".to_string()), "{got:?}");
}
