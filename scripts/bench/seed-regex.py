#!/usr/bin/env python3
"""Seeded slop: a regex constructor's pattern with one bracket deleted (stdlib only).

    scripts/bench/seed-regex.py CALIBRATE_BIN OUT_DIR SRC_DIR...

For every call of a regex constructor with one plain string literal as its pattern
(`re.compile(r"...")`, `re.sub("...", ...)`, `Regex::new(r"...")`, `regexp.MustCompile(`...`)`)
found in code lines (not comments or doctests) of the .py, .rs and .go files under SRC_DIR,
writes a copy of the file with one `(` or `)` of that pattern deleted (one outside any character
class and not escaped: every engine then refuses the pattern when the line runs) into
OUT_DIR/seeded, and the untouched files into OUT_DIR/original. Then runs the lang
crate's calibrate example (`cargo build --example calibrate -p slopguard-lang`) over both and
prints how many seeded files carry a new "invalid regular expression" error, and how many
original files carry one (false alarms). Files whose pattern uses verbose mode are left out.
"""
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

CALLS = {
    ".py": r"\bre\.(?:compile|match|search|fullmatch|sub|subn|split|findall|finditer)\(",
    ".rs": r"(?<![\w:])(?:regex::)?(?:bytes::)?Regex(?:Builder)?::new\(",
    ".go": r"\bregexp\.(?:MustCompile|Compile|MatchString|Match)\(",
}
# A plain literal right after the call's `(`: prefix, quote, body, same quote.
LITERAL = re.compile(r"""\s*(r#*|[rR]?[bB]?|[bB]?[rR]?)("|'|`)((?:\\.|(?!\2).)*)\2\s*[,)]""", re.S)


def seeds(text: str, ext: str, rng: random.Random):
    """(start, end) spans of bracket characters that may be deleted, one per call."""
    for m in re.finditer(CALLS[ext], text):
        lit = LITERAL.match(text, m.end())
        if not lit or "(?x" in lit.group(3) or "VERBOSE" in text[lit.end():lit.end() + 80]:
            continue
        if lit.group(2) == "'" and ext != ".py":
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        if text[line_start:m.start()].lstrip().startswith(COMMENT_STARTS):
            continue
        body_start = lit.start(3)
        spots = group_brackets(lit.group(3))
        if spots:
            yield body_start + rng.choice(spots)


# Lines that are comments or doctests, not code.
COMMENT_STARTS = ("#", "//", "*", "/*", ">>>", "...")


def group_brackets(body: str):
    """Offsets of the `(` and `)` of `body` outside character classes and not escaped."""
    out, i, in_class = [], 0, False
    while i < len(body):
        c = body[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            if body[i + 1:i + 2] == "^":
                i += 1
            if body[i + 1:i + 2] == "]":
                i += 1
        elif c in "()":
            out.append(i)
        i += 1
    return out


def main():
    calibrate, out = sys.argv[1], Path(sys.argv[2])
    rng = random.Random(20261126)
    shutil.rmtree(out, ignore_errors=True)
    (out / "seeded").mkdir(parents=True)
    (out / "original").mkdir(parents=True)
    n = 0
    for src in sys.argv[3:]:
        for path in sorted(Path(src).rglob("*")):
            if path.suffix not in CALLS or not path.is_file():
                continue
            try:
                text = path.read_text()
            except (UnicodeDecodeError, OSError):
                continue
            for at in seeds(text, path.suffix, rng):
                n += 1
                name = f"{n:05d}{path.suffix}"
                (out / "original" / name).write_text(text)
                (out / "seeded" / name).write_text(text[:at] + text[at + 1:])
    def flagged(d):
        r = subprocess.run([calibrate, "--show", "1000000", str(d)], capture_output=True, text=True)
        return {line.split(": ")[1] for line in r.stdout.splitlines()
                if "invalid regular expression" in line}
    seeded, original = flagged(out / "seeded"), flagged(out / "original")
    caught = sum(1 for p in seeded if p.replace("/seeded/", "/original/") not in original)
    print(f"seeded patterns: {n}; blocked: {caught} ({100 * caught / max(n, 1):.1f} %); "
          f"untouched files with a regex error (false alarms): {len(original)}")
    for p in sorted(original):
        print("  false alarm:", p)


if __name__ == "__main__":
    main()
