#!/usr/bin/env python3
"""Calibrates the kept-behaviour gate on the bug-fix corpus: each task's real fix (the original
code, against the code with the seeded bug) is judged by recording each test's lines in both
trees. Every refusal is a false positive: a right fix the gate would turn down. Prints one line
per task (refused, passed, or not recorded: no per-test coverage for its runner) and the counts.
With --same, the buggy tree is compared with a copy of itself: a refusal there is the recorders'
noise (a test attributed other lines on a second run of the same code).

    scripts/bench/kept-behaviour-probe.py [--corpus DIR] [--half dev|heldout|all] [--lang LANG] [ids ...]

--corpus takes another corpus of the same layout (bench/tuning); its tasks are all one half.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default="bench/corpus")
    ap.add_argument("--half", default="all", choices=["dev", "heldout", "all"])
    ap.add_argument("--lang")
    ap.add_argument("--same", action="store_true",
                    help="compare the buggy tree with a copy of itself: every refusal is noise")
    ap.add_argument("ids", nargs="*")
    a = ap.parse_args()
    corpus = ROOT / a.corpus
    tasks = a.ids or sorted(p.name for p in (corpus / "tasks").iterdir())
    if a.half != "all":
        split = json.loads((corpus / "split.json").read_text())
        tasks = [t for t in tasks if t in split[a.half]]
    if a.lang:
        tasks = [t for t in tasks if t.startswith(a.lang + "-")]
    subprocess.run(["cargo", "build", "-q", "-j2", "-p", "slopguard-agent", "--example",
                    "kept_behaviour_probe"], cwd=ROOT, check=True)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    probe = target / "debug/examples/kept_behaviour_probe"
    counts = {"refused": 0, "passed": 0, "not recorded": 0}
    for t in tasks:
        d = corpus / "tasks" / t
        meta = tomllib.loads((d / "task.toml").read_text())
        with tempfile.TemporaryDirectory() as tmp:
            for side in ("buggy", "fixed"):
                subprocess.run(["cp", "-r", str(d / "repo"), f"{tmp}/{side}"], check=True)
            for side in ("buggy", "fixed") if a.same else ("buggy",):
                subprocess.run(["git", "apply", str(d / "bug.patch")], cwd=f"{tmp}/{side}", check=True)
            r = subprocess.run([str(probe), f"{tmp}/buggy", f"{tmp}/fixed", *meta["bug_files"]],
                               capture_output=True, text=True)
            if r.returncode not in (0, 1):
                print(f"ERROR {t}: {r.stderr.strip()}", file=sys.stderr)
                continue
            out = json.loads(r.stdout)
            verdict = ("not recorded" if not out["recorded"]
                       else "refused" if r.returncode == 1 else "passed")
            counts[verdict] += 1
            detail = f" ({out['passing_before']} passing tests compared)" if out["recorded"] else ""
            print(f"{verdict.upper():13} {t}{detail}" + (f": {out['shifted']}" if out.get("shifted") else ""),
                  flush=True)
    print(f"{len(tasks)} real fixes: {counts['refused']} refused, {counts['passed']} passed, "
          f"{counts['not recorded']} not recorded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
