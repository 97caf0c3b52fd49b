#!/usr/bin/env python3
"""How the model's candidates fared by the conversation that asked for them: a fresh prompt, or
one continued after the model sent the code back unchanged (`worker.candidate.continued`;
traces of session 19's trial also name a conversation continued after a change the failing
tests refused, `"after": "failing tests"`). Reads every run trace
(.slopguard/runs/*/trace.jsonl, also under .git/) below the given side-by-side output
directories; prints one markdown table. Standard library only.

    scripts/bench/continuations.py OUT [OUT ...]

Per kind: candidates sampled, those that passed the static gates (a changed, applicable
answer), and those that won (landed as the subtask's fix: `worker.candidate.won`).
"""
import json
import sys
from pathlib import Path


def traces(out_dirs):
    for d in out_dirs:
        yield from Path(d).rglob("trace.jsonl")


def events(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                continue


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = {}
    runs = 0
    for path in traces(sys.argv[1:]):
        runs += 1
        continued, won, verdicts = {}, set(), {}
        for e in events(path):
            k, p = e.get("event"), e.get("data") or {}
            key = (p.get("subtask_id"), p.get("attempt"), p.get("candidate"))
            if k == "worker.candidate.continued":
                continued[key] = "after " + p.get("after", "unchanged code")
            elif k == "worker.candidate.won":
                won.add(key)
            elif k == "worker.candidate":
                verdicts[key] = str(p.get("verdict", ""))
        for key, verdict in verdicts.items():
            row = rows.setdefault(continued.get(key, "fresh"),
                                  {"sampled": 0, "survived": 0, "won": 0})
            row["sampled"] += 1
            row["survived"] += verdict.startswith("passed static gates")
            if key in won:
                row["won"] += 1
    print(f"{runs} run traces\n")
    print("| conversation | candidates | passed the static gates | landed |")
    print("|---|---:|---:|---:|")
    for k, r in sorted(rows.items(), key=lambda kv: kv[0] != "fresh"):
        print(f"| {k} | {r['sampled']} | {r['survived']} | {r['won']} |")


if __name__ == "__main__":
    main()
