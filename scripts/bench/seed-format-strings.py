#!/usr/bin/env python3
"""Seeded slop: a Rust format string or a Go template with one brace deleted (stdlib only).

    scripts/bench/seed-format-strings.py CALIBRATE_BIN OUT_DIR SRC_DIR...

Rust: for every call of a std formatting macro (`format!`, `println!`, `write!`, `panic!`, ...)
in code lines of the .rs files under SRC_DIR whose format string is one plain `"..."` literal
with at least one `{...}` argument, one brace of one argument is deleted: rustc then refuses
the format string ("invalid format string"). Go: for every `.Parse(` given one literal that
holds a `{{ ... }}` action, in a .go file that imports text/template or html/template, one `}`
of one action's closing `}}` is deleted: the template then fails to parse ("unclosed action").
Seeds are kept only where the deletion really breaks the string (a brace checker below, the
grammar of each), so every seed is an error the compiler or the template parser reports.

Each seeded file goes to OUT_DIR/seeded, the untouched file to OUT_DIR/original, each under
the edition of its crate (`2021` for edition 2021 or later, else `2015`: a lone `panic!`
message is a format string only from 2021); the lang crate's calibrate example (`cargo build
--release --example calibrate -p slopguard-lang`) then runs over both, with `--edition-2021`
over the `2021` ones, and the script prints, per kind, how many seeded files carry a new
format or template error, and how many untouched files carry one (false alarms). Set
`MISSED=1` to list the seeds not caught.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

RUST_MACROS = r"(?<![\w:])(?:std::)?(?:format|print|println|eprint|eprintln|format_args|panic)!\(\s*"
RUST_WRITE = r"(?<![\w:])(?:std::)?(?:write|writeln)!\(\s*[\w.&*()\[\]]+\s*,\s*"
RUST_LITERAL = re.compile(r'"((?:\\.|[^"\\])*)"\s*[,)]', re.S)
GO_PARSE = re.compile(r"\.Parse\(\s*(`[^`]*`|\"(?:\\.|[^\"\\])*\")\s*\)")

# Lines that are comments, not code.
COMMENT_STARTS = ("//", "*", "/*")


def in_comment(text: str, at: int) -> bool:
    """Whether offset `at` is on a comment line or inside a `/* ... */` block (a package doc)."""
    line_start = text.rfind("\n", 0, at) + 1
    in_block = text.rfind("/*", 0, at) > text.rfind("*/", 0, at)
    return in_block or text[line_start:at].lstrip().startswith(COMMENT_STARTS)


def rust_arguments(fmt: str):
    """(open, close) offsets of the `{...}` arguments of a well-formed Rust format string;
    None when it is not well formed (nothing to seed)."""
    out, i = [], 0
    while i < len(fmt):
        c = fmt[i]
        if c == "\\":
            # An escape: `\u{1b}`'s braces are the escape's, not the format's.
            close = fmt.find("}", i) if fmt.startswith("u{", i + 1) else i + 1
            i = close + 1
        elif c == "{":
            if fmt[i + 1:i + 2] == "{":
                i += 2
                continue
            close = fmt.find("}", i + 1)
            if close < 0 or "{" in fmt[i + 1:close]:
                return None
            out.append((i, close))
            i = close + 1
        elif c == "}":
            if fmt[i + 1:i + 2] != "}":
                return None
            i += 2
        else:
            i += 1
    return out


def rust_seeds(text: str, rng: random.Random):
    """Offsets of a brace to delete, one per formatting call with arguments."""
    for pattern in (RUST_MACROS, RUST_WRITE):
        for m in re.finditer(pattern, text):
            lit = RUST_LITERAL.match(text, m.end())
            if not lit or in_comment(text, m.start()):
                continue
            args = rust_arguments(lit.group(1))
            if not args:
                continue
            open_at, close_at = rng.choice(args)
            at = rng.choice([open_at, close_at])
            seeded = lit.group(1)[:at] + lit.group(1)[at + 1:]
            if rust_arguments(seeded) is None:
                yield lit.start(1) + at


def go_actions(tpl: str):
    """Offsets of the first `}` of each action's closing `}}`; None when an action is left
    open, at the text's end or at the next `{{` (nothing to seed, or a seed that breaks the
    template). Quoted strings and comments inside an action are skipped."""
    out, i = [], 0
    while True:
        open_at = tpl.find("{{", i)
        if open_at < 0:
            return out
        j = open_at + 2
        while True:
            if j >= len(tpl):
                return None
            if tpl.startswith("/*", j):
                end = tpl.find("*/", j + 2)
                if end < 0:
                    return None
                j = end + 2
            elif tpl[j] in "\"'`":
                q, j = tpl[j], j + 1
                while j < len(tpl) and tpl[j] != q:
                    j += 2 if tpl[j] == "\\" and q != "`" else 1
                j += 1
            elif tpl.startswith("}}", j):
                out.append(j)
                i = j + 2
                break
            elif tpl.startswith("{{", j):
                return None  # the next action opens before this one closed
            else:
                j += 1


def go_seeds(text: str, rng: random.Random):
    if not re.search(r'"(?:text|html)/template"', text) or ".Delims(" in text:
        return
    for m in GO_PARSE.finditer(text):
        if in_comment(text, m.start()):
            continue
        tpl = m.group(1)[1:-1]
        actions = go_actions(tpl)
        if actions:
            at = rng.choice(actions)
            # `{{.X}}}` (an action before a brace of the text) stays well formed without one.
            if go_actions(tpl[:at] + tpl[at + 1:]) is None:
                yield m.start(1) + 1 + at


def crate_edition(path: Path) -> str:
    """`2021` when the crate holding `path` (its nearest Cargo.toml with a `[package]`) is of
    edition 2021 or later, else `2015` (published manifests name no inherited edition)."""
    for d in path.parents:
        manifest = d / "Cargo.toml"
        if manifest.is_file():
            try:
                package = tomllib.loads(manifest.read_text()).get("package")
            except (tomllib.TOMLDecodeError, UnicodeDecodeError):
                return "2015"
            if package is not None:
                edition = package.get("edition", "2015")
                return "2021" if isinstance(edition, str) and edition >= "2021" else "2015"
    return "2015"


KINDS = {".rs": ("Rust format strings", rust_seeds, "invalid format string"),
         ".go": ("Go templates", go_seeds, "in a template passed to `Parse`")}


def main():
    calibrate, out = sys.argv[1], Path(sys.argv[2])
    rng = random.Random(20261202)
    shutil.rmtree(out, ignore_errors=True)
    for d in ("seeded", "original"):
        for edition in ("2015", "2021"):
            (out / d / edition).mkdir(parents=True)
    n, sources = {ext: 0 for ext in KINDS}, {}
    count = 0
    for src in sys.argv[3:]:
        for path in sorted(Path(src).rglob("*")):
            if path.suffix not in KINDS or not path.is_file():
                continue
            # Compile-fail fixtures and the template packages' own error tests expect errors.
            if "/tests/ui" in str(path) or ("/template/" in str(path) and path.name.endswith("_test.go")):
                continue
            try:
                text = path.read_text()
            except (UnicodeDecodeError, OSError):
                continue
            edition = crate_edition(path) if path.suffix == ".rs" else "2015"
            for at in KINDS[path.suffix][1](text, rng):
                count += 1
                n[path.suffix] += 1
                name = f"{count:05d}{path.suffix}"
                sources[name] = f"{path}:{text.count(chr(10), 0, at) + 1}"
                (out / "original" / edition / name).write_text(text)
                (out / "seeded" / edition / name).write_text(text[:at] + text[at + 1:])

    def first_errors(d):
        """The first certain syntax error of each file under `d` (calibrate's --show lines)."""
        lines = []
        for edition, flags in (("2015", []), ("2021", ["--edition-2021"])):
            r = subprocess.run([calibrate, "--show", "1000000", *flags, str(d / edition)],
                               capture_output=True, text=True)
            lines += r.stdout.splitlines()
        return [line.split(": ", 2)[1:] for line in lines if line.count(": ") >= 2]

    errors = {d: first_errors(out / d) for d in ("seeded", "original")}

    def flagged(d, ext):
        return {Path(path).name for path, message in errors[d]
                if path.endswith(ext) and KINDS[ext][2] in message}

    for ext, (kind, _, _) in KINDS.items():
        seeded, original = flagged("seeded", ext), flagged("original", ext)
        caught = seeded - original
        print(f"{kind}: seeded {n[ext]}; blocked {len(caught)} "
              f"({100 * len(caught) / max(n[ext], 1):.1f} %); "
              f"untouched files with such an error (false alarms): {len(original)}")
        for name in sorted(original):
            print("  false alarm:", sources[name])
        if os.environ.get("MISSED"):
            for name in sorted(s for s in sources if s.endswith(ext) and s not in caught):
                print("  missed:", sources[name])


if __name__ == "__main__":
    main()
