#!/usr/bin/env python3
"""Aggregates live-bench repetitions into one table per model.

    scripts/bench/ladder-aggregate.py OUT/rep1 OUT/rep2 ... > ladder.md

Each argument is one repetition's output directory of scripts/live-bench.sh (with its
scorecards.json). Prints, per rung: solved in each repetition, pass@1 (share of repetitions
solved) and pass@n (solved in any), median wall time, total tokens, guard firings summed over
the repetitions, and collateral damage (previously passing tests that fail, files outside the
plan's hints) in any repetition. The last row gives the rungs solved per repetition.
"""
import json
import os
import statistics
import sys


def main(dirs):
    reps = []
    for d in dirs:
        p = os.path.join(d, "scorecards.json")
        if os.path.exists(p):
            reps.append({c["rung"]: c for c in json.load(open(p))})
        elif os.path.isdir(d):
            # A repetition whose final table was not written: its per-rung scorecards.
            cards = [json.load(open(os.path.join(d, f))) for f in sorted(os.listdir(d))
                     if f.startswith("rung-") and f.endswith(".json")]
            if cards:
                reps.append({c["rung"]: c for c in cards})
    if not reps:
        sys.exit("no scorecards.json in the given directories")
    rungs = sorted({r for rep in reps for r in rep})
    model = next((c.get("model") for rep in reps for c in rep.values() if c.get("model")), "?")
    n = len(reps)
    print(f"Model `{model}`, {n} repetition(s).\n")
    print("| rung | solved per repetition | pass@1 | pass@" + str(n) +
          " | wall (median) | tokens (prompt/completion, all reps) | guard firings (all reps) | collateral |")
    print("|---|---|---|---|---|---|---|---|")
    for rung in rungs:
        cards = [rep.get(rung) for rep in reps]
        marks = " ".join("✓" if c and c["solved"] else ("✗" if c else "—") for c in cards)
        done = [c for c in cards if c]
        solved = sum(1 for c in done if c["solved"])
        walls = [c["wall_time_s"] for c in done]
        prompt = sum(c["tokens"]["prompt"] for c in done)
        completion = sum(c["tokens"]["completion"] for c in done)
        firings = {}
        for c in done:
            for k, v in c["guard_firings"].items():
                firings[k] = firings.get(k, 0) + v
        collateral = [x for c in done for x in
                      c["collateral"]["previously_passing_now_failing"] + c["collateral"]["files_outside_hints"]]
        print(f"| {rung} | {marks} | {solved}/{len(done)} | {'yes' if solved else 'no'} | "
              f"{statistics.median(walls):.0f} s | {prompt}/{completion} | "
              f"{', '.join(f'{k}×{v}' for k, v in sorted(firings.items())) or '—'} | "
              f"{', '.join(sorted(set(collateral))) or 'none'} |")
    per_rep = [sum(1 for c in rep.values() if c["solved"]) for rep in reps]
    print(f"\nRungs solved per repetition: {', '.join(f'{s}/{len(rep)}' for s, rep in zip(per_rep, reps))}.")


if __name__ == "__main__":
    main(sys.argv[1:])
