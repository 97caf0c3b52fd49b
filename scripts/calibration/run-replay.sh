#!/usr/bin/env bash
# Replay slopguard's guard stack over the histories made by build-histories.sh and summarise.
#
#   scripts/calibration/run-replay.sh [HISTORIES_DIR] [SLOPGUARD_BIN]
#       HISTORIES_DIR  default /tmp/sg-histories
#       SLOPGUARD_BIN  default target/release/slopguard (copied to OUT first, so a concurrent
#                      rebuild cannot swap the binary mid-run)
#
# Environment:
#   SG_OUT=DIR          where JSON results and the summary go (default HISTORIES_DIR/replay)
#   SG_JOBS=N           replay worker threads (default: slopguard's default, all cores)
#   SG_CHECK_SAMPLES=N  `slopguard check --commit` latency samples (default 200; 0 skips)
#   SG_REV=TEXT         what the binary was built from, for the record (default: git log of
#                       the checkout the binary sits in)
#
# For each repo under release/ and perfile/ it runs
#   slopguard replay <root>..HEAD -C <repo> --format json
# (the root commit, i.e. the package's first version added whole, is excluded), then prints
# per repo and per variant: commits, commits/s, blocked commits and per-guard blocked commits.
# Every blocking finding of the defect and grounding guards is listed in OUT/firings.md for
# review. Finally it times `slopguard check --commit REV` (process start to verdict) on a
# deterministic sample of per-file commits.
set -euo pipefail

HIST="${1:-/tmp/sg-histories}"
BIN_IN="${2:-$(cd "$(dirname "$0")/../.." && pwd)/target/release/slopguard}"
OUT="${SG_OUT:-$HIST/replay}"
SAMPLES="${SG_CHECK_SAMPLES:-200}"
mkdir -p "$OUT/json"
BIN="$OUT/slopguard"
cp "$BIN_IN" "$BIN.tmp" && mv "$BIN.tmp" "$BIN"
JOBS_ARG=()
[ -n "${SG_JOBS:-}" ] && JOBS_ARG=(-j "$SG_JOBS")

{
  echo "binary: $BIN_IN ($(stat -c %y "$BIN_IN" | cut -d. -f1))"
  echo "slopguard git: ${SG_REV:-$(git -C "$(dirname "$BIN_IN")/../.." log -1 --format='%h %s' 2>/dev/null | cut -c1-100)}"
  echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(rustc --version 2>/dev/null)"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$OUT/meta.txt"

for variant in release perfile; do
  for repo in "$HIST/$variant"/*/; do
    repo="${repo%/}"; name="$(basename "$repo")"
    [ -d "$repo/.git" ] || continue
    root="$(git -C "$repo" rev-list --max-parents=0 HEAD | tail -1)"
    out="$OUT/json/$variant--$name.json"
    start=$(date +%s%N)
    if ! "$BIN" replay "$root..HEAD" -C "$repo" --format json "${JOBS_ARG[@]}" > "$out.tmp" 2> "$out.err"; then
      rc=$?
      # exit 1 just means some commit was blocked; anything else is a failure
      [ "$rc" -eq 1 ] || { echo "replay failed on $repo (exit $rc): $(head -c 300 "$out.err")" >&2; continue; }
    fi
    end=$(date +%s%N)
    mv "$out.tmp" "$out"
    echo "$(( (end - start) / 1000000 ))" > "$out.wall_ms"
  done
done

# --- summary ------------------------------------------------------------------------------------
python3 - "$OUT" <<'PY' | tee "$OUT/summary.md"
import json, os, sys, glob
out = sys.argv[1]
DEFECT = ["syntax", "symbol-preservation", "placeholder", "containment"]
GROUNDING = ["config-schema", "content-grounding", "config-grounding", "doc-preservation",
             "link-grounding", "phantom-import", "psi-lite"]
rows = []
for f in sorted(glob.glob(os.path.join(out, "json", "*.json"))):
    variant, name = os.path.basename(f)[:-5].split("--", 1)
    d = json.load(open(f))
    wall = int(open(f + ".wall_ms").read()) if os.path.exists(f + ".wall_ms") else None
    rows.append((variant, name, d, wall))
guards = []
for _, _, d, _ in rows:
    for g in d["guards"]:
        if g not in guards:
            guards.append(g)
order = [g for g in DEFECT + GROUNDING if g in guards] + [g for g in guards if g not in DEFECT + GROUNDING]

def pct(n, d):
    return f"{100.0 * n / d:.2f}%" if d else "-"

def still_used(firing):
    return any(f["guard"] == "symbol-preservation" and f["severity"] == "block" for f in firing["findings"])

for variant in ("release", "perfile"):
    vr = [r for r in rows if r[0] == variant]
    if not vr:
        continue
    print(f"\n### {variant} histories ({'one commit per published version' if variant == 'release' else 'one commit per changed file'})\n")
    print("| repo | commits | replay s | commits/s | blocked | " + " | ".join(order) + " |")
    print("|---|---:|---:|---:|---:|" + "---:|" * len(order))
    tot = {"commits": 0, "elapsed": 0.0, "blocked": 0, **{g: 0 for g in order}}
    for _, name, d, wall in vr:
        n = d["commits"]; el = d["elapsed_ms"] / 1000.0
        tot["commits"] += n; tot["elapsed"] += el; tot["blocked"] += d["blocked_commits"]
        cells = []
        for g in order:
            b = d["guards"].get(g, {}).get("blocked_commits", 0)
            tot[g] += b
            cells.append(str(b) if b else "·")
        cps = n / el if el else 0
        print(f"| {name} | {n} | {el:.2f} | {cps:.0f} | {d['blocked_commits']} | " + " | ".join(cells) + " |")
    n = tot["commits"]
    print(f"| **all {variant}** | **{n}** | {tot['elapsed']:.2f} | **{n / tot['elapsed']:.0f}** | {tot['blocked']} ({pct(tot['blocked'], n)}) | "
          + " | ".join(f"{tot[g]} ({pct(tot[g], n)})" for g in order) + " |")

# every blocking firing of defect + grounding guards, for review
with open(os.path.join(out, "firings.md"), "w") as fh:
    for variant, name, d, _ in rows:
        for g in order:
            if g not in DEFECT + GROUNDING:
                continue
            for firing in d["guards"].get(g, {}).get("commits", []):
                for f in firing["findings"]:
                    if f["severity"] != "block" or f["guard"] != g:
                        continue
                    loc = f"{f.get('path')}:{f.get('line') or ''}"
                    msg = f["message"].replace("\n", " ")[:400]
                    fh.write(f"- [{g}] {variant}/{name} {firing['commit'][:10]} \"{firing['subject']}\" {loc} -- {msg}\n")
    # warnings counted too (not blocking) for context
print(f"\nBlocking firings listed in {os.path.join(out, 'firings.md')}")
PY

# --- check latency ------------------------------------------------------------------------------
if [ "$SAMPLES" -gt 0 ]; then
  python3 - "$HIST" "$BIN" "$SAMPLES" <<'PY' | tee -a "$OUT/summary.md"
import os, random, subprocess, sys, time, glob, statistics
hist, binary, samples = sys.argv[1], sys.argv[2], int(sys.argv[3])
repos = sorted(glob.glob(os.path.join(hist, "perfile", "*")))
cands = []
for r in repos:
    revs = subprocess.run(["git", "-C", r, "rev-list", "--max-parents=1", "--min-parents=1", "HEAD"],
                          capture_output=True, text=True).stdout.split()
    cands += [(r, c) for c in revs]
rnd = random.Random(42)
pick = rnd.sample(cands, min(samples, len(cands)))
# warm the page cache and the binary once
subprocess.run([binary, "check", "--commit", pick[0][1]], cwd=pick[0][0], capture_output=True)
times = []
exits = {}
for r, c in pick:
    t0 = time.perf_counter_ns()
    p = subprocess.run([binary, "check", "--commit", c], cwd=r, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times.append((time.perf_counter_ns() - t0) / 1e6)
    exits[p.returncode] = exits.get(p.returncode, 0) + 1
times.sort()
q = lambda p: times[min(len(times) - 1, int(p * len(times)))]
print(f"\n`slopguard check --commit REV` process start to verdict, {len(times)} per-file commits "
      f"(random sample, seed 42, across {len(repos)} repos): p50 {q(0.5):.1f} ms, p90 {q(0.9):.1f} ms, "
      f"p99 {q(0.99):.1f} ms, max {times[-1]:.1f} ms, mean {statistics.mean(times):.1f} ms; exit codes {dict(sorted(exits.items()))}")
PY
fi
