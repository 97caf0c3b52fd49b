"""Seeds "body replaced by a stub" slop into real Rust, Go and JavaScript/TypeScript functions
and counts how many `slopguard check` blocks, and by which guard.

usage: seed-stubs-braces.py rust|go|js REPO_CLONE BINARY [MAX]

The functions are found without slopguard (so its parser does not pick its own cases): in
formatted code (rustfmt, gofmt, prettier), a function's header line (`fn name`, `func name`,
`function name`, a class method `name(...) {`, `const name = (...) => {`), the first line at or
after it that ends with `{`, and the first later line that is the header's indentation followed
by `}`. Kept: functions outside tests (Rust: files under src/ only, before the file's first
`#[cfg(test)]`, not `#[test]`; Go: not `_test.go`; JS/TS: not test/spec files, not
`node_modules`/`dist`), indented at most one level, whose body has at least two statement lines
and is not a stub already. The first MAX (default 100) such functions in path order each get
their whole body replaced, in turn, by the language's stubs:

    rust  todo!()  /  unimplemented!()
    go    panic("not implemented")
    js    throw new Error("Not implemented");

and `slopguard check` judges the working tree, one function at a time.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seedlib import Tally, tracked  # noqa: E402

LANGS = {
    "rust": {
        "files": ["*.rs"],
        "headers": [re.compile(
            r'^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:default\s+)?(?:const\s+)?(?:async\s+)?'
            r'(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+(\w+)')],
        "stubs": ["todo!()", "unimplemented!()"],
        "unit": "    ",
    },
    "go": {
        "files": ["*.go"],
        "headers": [re.compile(r"^()func\s+(?:\([^)]*\)\s*)?(\w+)")],
        "stubs": ['panic("not implemented")'],
        "unit": "\t",
    },
    "js": {
        "files": ["*.js", "*.mjs", "*.cjs", "*.ts", "*.tsx", "*.jsx"],
        "headers": [
            re.compile(r"^(\s*)(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*(\w+)"),
            re.compile(r"^(\s*)(?:export\s+)?(?:const|let|var)\s+(\w+)\s*(?::[^=]+)?=\s*"
                       r"(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|\w+\s*=>)"),
            re.compile(r"^(\s+)(?:(?:public|private|protected|static|async|override)\s+)*"
                       r"(?!(?:if|for|while|switch|catch|return|function|constructor)\b)"
                       r"(\w+)\s*\(.*\)\s*(?::\s*[^={]+)?\{\s*$"),
        ],
        "stubs": ['throw new Error("Not implemented");'],
        "unit": "  ",
    },
}

ALREADY_STUB = re.compile(r"todo!|unimplemented!|not (?:yet )?implemented", re.I)


def is_source(lang, path):
    """Files whose functions are seeded: the library's code, not its tests."""
    parts = path.split("/")
    if lang == "rust":
        return parts[0] == "src"
    if lang == "go":
        return not path.endswith("_test.go") and "vendor" not in parts and "testdata" not in parts
    skip = {"test", "tests", "__tests__", "node_modules", "dist", "bench", "benchmark", "scripts"}
    return not skip & set(parts) and not re.search(r"\.(test|spec|d)\.[cm]?[jt]sx?$", path)


def statement_lines(lines):
    return [l for l in lines if l.strip() and not l.strip().startswith(("//", "/*", "*"))]


def functions(lang, text):
    """(name, index of the line ending with `{`, index of the closing line) of each seedable
    function of `text`."""
    spec = LANGS[lang]
    lines = text.splitlines(keepends=True)
    out = []
    in_comment = False
    for i, line in enumerate(lines):
        if lang == "rust" and line.lstrip().startswith("#[cfg(test)]"):
            break
        # Code inside a block comment (a crate's `/*! ... */` docs) is an example, not code.
        if in_comment or line.lstrip().startswith("/*"):
            in_comment = "*/" not in line
            continue
        m = next((m for h in spec["headers"] if (m := h.match(line))), None)
        if not m or len(m.group(1).expandtabs(4)) > 4:
            continue
        # A call taking a callback (`setTimeout(() => {`) is no method.
        if lang == "js" and m.re is spec["headers"][2] and ("=>" in line or "function" in line):
            continue
        if lang == "rust" and i > 0 and lines[i - 1].strip() == "#[test]":
            continue
        indent, name = m.group(1), m.group(2)
        # The line that opens the body: the header's own, or one of the next few (a signature
        # over several lines); a `;` first means a declaration without body.
        opener = None
        for j in range(i, min(i + 12, len(lines))):
            code = lines[j].split("//")[0].rstrip()
            rest = code[len(indent):]
            # A signature goes on over lines indented deeper or closing it (`) -> T {`, `where`);
            # anything else at its indentation is the next statement.
            if j > i and not (rest[:1].isspace() or rest.lstrip().startswith((")", "{", "where", "->", ">"))):
                break
            if code.endswith("{"):
                opener = j
                break
            if code.endswith(";"):
                break
        if opener is None:
            continue
        close = next((k for k in range(opener + 1, len(lines))
                      if lines[k].rstrip("\n").rstrip() in (indent + "}", indent + "},", indent + "};")),
                     None)
        if close is None:
            continue
        body = lines[opener + 1:close]
        if len(statement_lines(body)) < 2 or ALREADY_STUB.search("".join(body)):
            continue
        # An odd number of backticks: the `}` found closes a line of a Go raw string or a
        # JavaScript template, not the function; cutting there would break the file.
        if lang != "rust" and "".join(body).count("`") % 2:
            continue
        out.append((name, indent, opener, close))
    return lines, out


def main():
    lang, repo, binary = sys.argv[1], sys.argv[2], sys.argv[3]
    limit = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    spec = LANGS[lang]
    tally = Tally(repo, binary)
    for path in tracked(repo, *spec["files"]):
        if not is_source(lang, path):
            continue
        with open(f"{repo}/{path}") as f:
            lines, fns = functions(lang, f.read())
        for name, indent, opener, close in fns:
            if tally.cases >= limit:
                break
            stub = spec["stubs"][tally.cases % len(spec["stubs"])]
            seeded = lines[:opener + 1] + [indent + spec["unit"] + stub + "\n"] + lines[close:]
            tally.judge(path, "".join(seeded), f"{path}:{name} ({stub})")
    print(tally.report())


main()
