//! Word constants the documentation gives a name (`missing: 'keep'`).

use super::*;

/// The other word constants tried in `text` from line `first` to its end: a definition
/// whose documentation above it is outside its region.
fn constants_from(path: &str, text: &str, first: usize) -> Vec<String> {
    let n = text.lines().count();
    fixes(path, text, &Places::regions(&[(first, n)]), 200)
        .into_iter()
        .filter(|f| f.operator == Operator::OtherLiteral)
        .map(|f| f.after)
        .collect()
}

#[test]
fn a_word_constant_is_replaced_by_the_one_the_documentation_gives_its_name() {
    // The default's documented value appears nowhere in the code: keeping is what happens
    // when no other mode matches.
    let js = "// Placeholders whose value is missing are left as they are\n// (`missing: 'keep'`), replaced by '' (`'empty'`), or make render throw.\nfunction r(t, { missing = 'empty' } = {}) {\n  if (missing === \"throw\") return 1\n  return 2\n}\n";
    let got = constants_from("a.js", js, 3);
    assert_eq!(
        got,
        [
            "function r(t, { missing = 'throw' } = {}) {",
            "function r(t, { missing = 'keep' } = {}) {",
            // Written with the token's own quote.
            "if (missing === \"empty\") return 1",
            "if (missing === \"keep\") return 1",
        ]
    );
    // A docstring inside the definition, JSDoc's `[options.mode='fast']`; a quoted word
    // the documentation gives no name is not taken.
    let py = "def f(mode='slow'):\n    \"\"\"Run.\n\n    mode='fast' by default; 'medium' is slower.\n    \"\"\"\n    return mode\n";
    assert_eq!(
        afters("m.py", py, Operator::OtherLiteral),
        ["def f(mode='fast'):"]
    );
    let js = "/**\n * @param {string} [options.mode='fast']\n */\nfunction f({ mode = \"slow\" } = {}) {\n  return mode\n}\n";
    let got = constants_from("a.js", js, 4);
    assert_eq!(got, ["function f({ mode = \"fast\" } = {}) {"]);
    // The file's header, after its prologue; not a comment further down, above another
    // definition.
    let js = "'use strict'\n\n// Modes: `mode: 'fast'` by default.\n\nconst K = 1\n\n// `mode: 'other'`\nfunction g() {}\n\nfunction f({ mode = 'slow' } = {}) {\n  return mode\n}\n";
    let got = constants_from("a.js", js, 10);
    assert_eq!(got, ["function f({ mode = 'fast' } = {}) {"]);
}
