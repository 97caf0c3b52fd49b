"""Seeds "Go function deleted while a method of the same name exists and the function is still
called" slop and counts how many `slopguard check` blocks, and by which guard.

usage: seed-go-namesakes.py REPO_CLONE BINARY [MAX]

Found without slopguard, on gofmt'ed code: a function `func NAME(` (no receiver) at column 0
of a non-test `.go` file (not `init` or `main`), ending at the first later line `}`, is a
case when
- a method `func (r T) NAME(` exists in some `.go` file of the repository, and
- the function is still called: a call `NAME(...)` in another file of its directory (its
  package), or `PKG.NAME(...)` in another file (an external `_test` package, another
  directory), where PKG is the function's package name; calls are read with Go's own parser (go-calls/main.go, run with `go run`);
- no other file of its directory defines `func NAME(` too (a build-tagged variant).
The first MAX (default 100) cases in path order each get the function and its doc comment
deleted, in turn, and `slopguard check` judges the working tree.

The JSON line has the usual fields and `classes`: cases and blocked by where the method is
(`same-file`, `same-package`, `other-package`).
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seedlib import Tally, tracked  # noqa: E402

FUNC = re.compile(r"^func\s+(\w+)\s*[\[(]")
METHOD = re.compile(r"^func\s+\([^)]*\)\s*(\w+)\s*[\[(]")
PACKAGE = re.compile(r"^package\s+(\w+)", re.M)
HERE = os.path.dirname(os.path.abspath(__file__))


def calls(repo, files):
    """The calls of `files` as (file, qualifier or "bare", name), parsed by go-calls/main.go
    (Go's own parser)."""
    out = subprocess.run(["go", "run", os.path.join(HERE, "go-calls", "main.go"), repo],
                         input="\n".join(files), capture_output=True, text=True, check=True)
    return {tuple(l.split("\t")) for l in out.stdout.splitlines()}


def main():
    repo, binary = sys.argv[1], sys.argv[2]
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    files = tracked(repo, "*.go")
    texts = {}
    for f in files:
        with open(os.path.join(repo, f), errors="replace") as fh:
            texts[f] = fh.read()
    called_as = calls(repo, files)
    methods = {}
    funcs = {}
    for f, t in texts.items():
        for line in t.splitlines():
            m = METHOD.match(line)
            if m:
                methods.setdefault(m.group(1), set()).add(f)
            m = FUNC.match(line)
            if m:
                funcs.setdefault(m.group(1), set()).add(f)
    dirname = os.path.dirname
    tally = Tally(repo, binary)
    classes = {}
    for f in files:
        if f.endswith("_test.go") or tally.cases >= limit:
            continue
        text = texts[f]
        pkg = PACKAGE.search(text)
        pkg = pkg.group(1) if pkg else ""
        lines = text.splitlines(keepends=True)
        for i, line in enumerate(lines):
            if tally.cases >= limit:
                break
            m = FUNC.match(line)
            if not m or m.group(1) not in methods or m.group(1) in ("init", "main"):
                continue
            name = m.group(1)
            if any(g != f and dirname(g) == dirname(f) for g in funcs[name]):
                continue
            called = any(
                g != f and n == name and (q == pkg or q == "bare" and dirname(g) == dirname(f))
                for g, q, n in called_as
            )
            if not called:
                continue
            end = next((k for k in range(i, len(lines)) if lines[k].rstrip("\n") == "}"), None)
            if end is None:
                continue
            start = i
            while start > 0 and lines[start - 1].startswith("//"):
                start -= 1
            owners = methods[name]
            where = ("same-file" if f in owners else
                     "same-package" if any(dirname(g) == dirname(f) for g in owners) else
                     "other-package")
            seeded = "".join(lines[:start] + lines[end + 1:])
            guards = tally.judge(f, seeded, f"{f}:{name} ({where})")
            c = classes.setdefault(where, {"cases": 0, "blocked": 0})
            c["cases"] += 1
            c["blocked"] += bool(guards)
    line = tally.report(most_missed=100)
    print(line[:-1] + ', "classes": ' + json.dumps(classes) + "}")


main()
