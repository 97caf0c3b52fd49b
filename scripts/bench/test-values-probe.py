#!/usr/bin/env python3
"""Calibrates the test-values gate on the bug-fix corpus: each task's real fix (the original
code, against the code with the seeded bug) is judged with the task's whole test files as the
failing tests' sources. Every refusal is a false positive: a right fix the gate would turn
down. Prints one line per refused task and the count.

    scripts/bench/test-values-probe.py [--half dev|heldout|all]
"""
import argparse
import json
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--half", default="all", choices=["dev", "heldout", "all"])
    a = ap.parse_args()
    split = json.loads((ROOT / "bench/corpus/split.json").read_text())
    tasks = sorted(p.name for p in (ROOT / "bench/corpus/tasks").iterdir())
    if a.half != "all":
        tasks = [t for t in tasks if t in split[a.half]]
    subprocess.run(["cargo", "build", "-q", "-p", "slopguard-agent", "--example", "test_values_probe"],
                   cwd=ROOT, check=True)
    probe = ROOT / "target/debug/examples/test_values_probe"
    refused = 0
    for t in tasks:
        d = ROOT / "bench/corpus/tasks" / t
        meta = tomllib.loads((d / "task.toml").read_text())
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(["cp", "-r", str(d / "repo"), f"{tmp}/buggy"], check=True)
            subprocess.run(["git", "apply", str(d / "bug.patch")], cwd=f"{tmp}/buggy", check=True)
            for f in meta["bug_files"]:
                tests = [str(d / "repo" / tf) for tf in meta["test_files"]]
                r = subprocess.run([str(probe), f, f"{tmp}/buggy/{f}", str(d / "repo" / f), *tests],
                                   capture_output=True, text=True)
                if r.returncode == 1:
                    refused += 1
                    print(f"REFUSED {t}: {r.stdout.strip()}")
                elif r.returncode != 0:
                    print(f"ERROR {t}: {r.stderr.strip()}", file=sys.stderr)
    print(f"{refused} of {len(tasks)} real fixes refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
