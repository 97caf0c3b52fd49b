#!/usr/bin/env python3
"""How the model's candidates fared, by what the prompt asked for and by the conversation that
asked it. Reads every run trace (.slopguard/runs/*/trace.jsonl, also under .git/) below the
given side-by-side output directories, with the run's exchanges.jsonl beside it; prints one
markdown table. Standard library only.

    scripts/bench/candidates.py OUT [OUT ...]

What a prompt asked for is the candidate's `asks` field in the trace (`statement PATH:A-B`,
`function PATH:LINE NAME`, `files`); traces older than that field are matched to their
exchange by seed and read from the request's last words. The conversation is fresh, or
continued after the model sent the code back unchanged (`worker.candidate.continued`; session
19's trial also continued after a change the failing tests refused, `"after": "failing tests"`).

Per (conversation, kind): candidates sampled, copies (the code sent back unchanged), those
that passed the static gates (a changed, applicable answer), those that won (landed as the
subtask's fix: `worker.candidate.won`), and the median seconds of the model call.
"""
import json
import statistics
import sys
from pathlib import Path


def traces(out_dirs):
    for d in out_dirs:
        yield from Path(d).rglob("trace.jsonl")


def events(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                try:
                    yield json.loads(line)
                except json.JSONDecodeError:
                    continue
    except FileNotFoundError:
        return


def kind_of_request(request):
    """The kind of a worker request, read from its last user message."""
    messages = request.get("messages") or []
    last = messages[-1].get("content", "") if messages else ""
    if "This line of" in last or "This code of it" in last or "The failing tests break at" in last:
        return "statement"
    if "Write the complete fixed" in last:
        return "function"
    return "files"


def kinds_by_seed(trace_path):
    """seed -> kind, from the exchanges beside a trace."""
    out = {}
    for e in events(trace_path.parent / "exchanges.jsonl"):
        req = e.get("request") or {}
        if e.get("role") == "worker" and req.get("seed") is not None:
            out[req["seed"]] = kind_of_request(req)
    return out


def kind_of_asks(asks):
    return asks.split(" ", 1)[0] if asks else "files"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = {}
    runs = 0
    for path in traces(sys.argv[1:]):
        runs += 1
        by_seed = None
        continued, won, sampled = {}, set(), {}
        for e in events(path):
            k, p = e.get("event"), e.get("data") or {}
            key = (p.get("subtask_id"), p.get("attempt"), p.get("candidate"))
            if k == "worker.candidate.continued":
                continued[key] = "after " + p.get("after", "unchanged code")
            elif k == "worker.candidate.won":
                won.add(key)
            elif k == "worker.candidate" and p.get("seed") is not None:
                sampled[key] = p
        for key, p in sampled.items():
            if "asks" in p:
                kind = kind_of_asks(p["asks"])
            else:
                if by_seed is None:
                    by_seed = kinds_by_seed(path)
                kind = by_seed.get(p.get("seed"), "unknown")
            verdict = str(p.get("verdict", ""))
            row = rows.setdefault((continued.get(key, "fresh"), kind),
                                  {"sampled": 0, "copies": 0, "survived": 0, "won": 0, "ms": []})
            row["sampled"] += 1
            row["copies"] += "changes nothing but blank lines" in verdict
            row["survived"] += verdict.startswith("passed static gates")
            row["won"] += key in won
            row["ms"].append(p.get("ms", 0))
    print(f"{runs} run traces\n")
    print("| conversation | prompt | candidates | copies | passed the static gates | landed | median s |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for (conv, kind), r in sorted(rows.items(), key=lambda kv: (kv[0][0] != "fresh", kv[0])):
        med = statistics.median(r["ms"]) / 1000 if r["ms"] else 0
        print(f"| {conv} | {kind} | {r['sampled']} | {r['copies']} | {r['survived']} | {r['won']} | {med:.0f} |")


if __name__ == "__main__":
    main()
