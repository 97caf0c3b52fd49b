#!/usr/bin/env python3
"""How many corpus bugs are one repair template away from the original code (stdlib only).

For each task of a half (default: dev), the seeded bug's changed line is looked up among the
fixes the repair templates offer for the buggy file (every line of the file, no fault
localisation, through the `template_probe` example): "covered" when one of them writes the
original line back, with the operator that does it. Bugs that change more than one line, or
delete or add lines, are "not one line" (missing calls, missing cases): the model's part.

This measures the template families, not the run: which line the run tries first, the test
time and the candidate cap decide whether a covered bug is fixed within the limit.

    scripts/bench/template-coverage.py [--corpus DIR] [--half dev|heldout|all] [ids ...]

--corpus DIR (default bench/corpus) reads the tasks of another directory of the same layout.
A directory without split.json (the tuning pool, bench/tuning) has no halves: all its tasks are
considered, and --half dev or heldout is refused there.
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from corpus import corpus_path, task_ids  # scripts/bench/corpus.py, beside this file

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = ROOT / "bench" / "corpus"


def corpus_dir(path):
    """The corpus directory named by --corpus, else the default one."""
    return DEFAULT_CORPUS if path is None else corpus_path(path)


def one_line_change(patch: str):
    """(path, original line, buggy line) when the patch replaces exactly one line, else None."""
    path, minus, plus = None, [], []
    for line in patch.splitlines():
        if line.startswith("+++ b/"):
            path = line[6:]
        elif line.startswith("---") or line.startswith("+++"):
            continue
        elif line.startswith("-"):
            minus.append(line[1:])
        elif line.startswith("+"):
            plus.append(line[1:])
    if len(minus) == 1 and len(plus) == 1:
        return path, minus[0], plus[0]
    return None


def probe(binary: Path, file: Path):
    out = subprocess.run([str(binary), "--json", str(file)], capture_output=True, text=True, check=True)
    return [json.loads(l) for l in out.stdout.splitlines() if l.strip()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", metavar="DIR", default=None,
                    help="task directory (default: bench/corpus), e.g. bench/tuning")
    ap.add_argument("--half", default=None, choices=["dev", "heldout", "all"],
                    help="half of split.json (default: dev; all tasks where there is no split.json)")
    ap.add_argument("ids", nargs="*")
    args = ap.parse_args()
    corpus = corpus_dir(args.corpus)
    ids = args.ids or task_ids(corpus, args.half)
    subprocess.run(["cargo", "build", "-q", "-j2", "-p", "slopguard-agent", "--example", "template_probe"],
                   cwd=ROOT, check=True)
    binary = ROOT / "target" / "debug" / "examples" / "template_probe"
    covered = one_line = 0
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, str(ROOT / "scripts/bench/corpus.py"), "--corpus", str(corpus),
                        "materialize", "--out", tmp, *ids],
                       check=True, capture_output=True)
        for tid in ids:
            change = one_line_change((corpus / "tasks" / tid / "bug.patch").read_text())
            if change is None:
                rows.append((tid, "not one line", ""))
                continue
            one_line += 1
            path, original, buggy = change
            fixes = probe(binary, Path(tmp) / tid / path)
            hits = [f for f in fixes if f["after"] == original.strip() and f["before"] == buggy.strip()]
            if hits:
                covered += 1
                rows.append((tid, "covered", f"{hits[0]['operator']} ({len(fixes)} fixes in the file)"))
            else:
                rows.append((tid, "missed", f"`{buggy.strip()}` -> `{original.strip()}`"))
    for tid, verdict, detail in rows:
        print(f"{tid:45} {verdict:13} {detail}")
    print(f"\n{covered} of {one_line} one-line bugs covered; {len(ids) - one_line} of {len(ids)} tasks not one line")
    return 0


if __name__ == "__main__":
    sys.exit(main())
