#!/usr/bin/env python3
"""Audits the fixes of a side-by-side bench (scripts/bench/side-by-side.py OUT dirs): for every
solved run, where slopguard's landed fix came from (`fix_source` in its summary: a reply
format, `template` or `salvaged`) and whether the fixed files equal the corpus's original code
(whitespace at line ends ignored). A fix that passes the tests but differs from the original is
not necessarily wrong (there are many right fixes), but every wrong fix that passed is among
them: the table lists them for reading.

    scripts/bench/fix-audit.py [--corpus DIR] OUT [OUT ...]

`--corpus DIR` reads the original code from another directory of the corpus's layout (default
bench/corpus), such as the tuning pool `bench/tuning`.

Prints one line per solved run and a table: solved fixes by source, how many of each equal the
original, and how many the run flagged for review because the tests also pass with another fix
of the same statement (`also_passing` in the summary), among those that differ and those that
equal the original.
"""
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from corpus import TASKS, corpus_path  # scripts/bench/corpus.py, beside this file



def normalise(text: str) -> list[str]:
    return [line.rstrip() for line in text.rstrip("\n").split("\n")]


def file_at(repo: Path, commit: str, path: str) -> str | None:
    r = subprocess.run(["git", "-C", str(repo), "show", f"{commit}:{path}"],
                       capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def landed_subtasks(out: Path, run: dict) -> list[dict] | None:
    """The landed subtasks of a slopguard run (from the summary on stdout), or None when the
    summary cannot be read."""
    stdout = out / run["logs"] / "stdout.txt"
    try:
        summary = json.loads(stdout.read_text())
    except (OSError, ValueError):
        return None
    return [s for t in summary.get("tasks", []) for s in t.get("subtasks", [])
            if s.get("status") in ("committed", "partial")]


def fix_source(out: Path, run: dict) -> str:
    """slopguard's fix_source for the run's subtasks, else the system's name."""
    if run["system"] != "slopguard":
        return run["system"]
    landed = landed_subtasks(out, run)
    if landed is None:
        return "unknown"
    return "+".join(s.get("fix_source") or "?" for s in landed) or "none"


def flagged(out: Path, run: dict) -> bool:
    """Whether a slopguard run named another fix the tests pass too (`also_passing`)."""
    if run["system"] != "slopguard":
        return False
    return any(s.get("also_passing") for s in landed_subtasks(out, run) or [])


def main() -> int:
    args = sys.argv[1:]
    corpus = TASKS
    if args[:1] == ["--corpus"] and len(args) > 1:
        corpus = corpus_path(args[1]) / "tasks"
        args = args[2:]
    outs = [Path(a) for a in args]
    if not outs:
        print(__doc__, file=sys.stderr)
        return 2
    by_source: Counter = Counter()
    equal: Counter = Counter()
    flagged_equal: Counter = Counter()
    flagged_differ: Counter = Counter()
    for out in outs:
        for line in (out / "results.jsonl").read_text().splitlines():
            run = json.loads(line)
            if not run.get("solved"):
                continue
            repo = out / run["logs"].removesuffix(".logs")
            source = fix_source(out, run)
            same = all(
                (got := file_at(repo, run["result_commit"], f)) is not None
                and normalise(got) == normalise((corpus / run["task"] / "repo" / f).read_text())
                for f in run["bug_files"])
            flag = flagged(out, run)
            by_source[source] += 1
            equal[source] += same
            (flagged_equal if same else flagged_differ)[source] += flag
            print(f"{run['system']:10} {run['task']:40} {source:16} "
                  f"{'equals the original' if same else 'DIFFERS from the original'}"
                  f"{'  (flagged: the tests also pass with another fix)' if flag else ''}")
    print()
    print("| fix source | solved | equal to the original code | differ | flagged among equal "
          "| flagged among differ |")
    print("|---|---|---|---|---|---|")
    for source, n in sorted(by_source.items()):
        print(f"| {source} | {n} | {equal[source]} | {n - equal[source]} "
              f"| {flagged_equal[source]} | {flagged_differ[source]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
