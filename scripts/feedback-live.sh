#!/usr/bin/env bash
# The self-correction loop live: each sample of tests/feedback (a repository with one seeded bug
# that no test covers, and the reviewer's feedback describing it) is copied into a fresh git
# repository, and `slopguard feedback` runs on it with a real local model:
#   add (feedback.txt) -> triage -> fix (fix + regression test, proven both ways) -> merge -> verify
#
#   scripts/feedback-live.sh                  # every sample, the 1.5B model
#   scripts/feedback-live.sh python-words     # some samples only
#   FEEDBACK_REPS=3 scripts/feedback-live.sh  # three repetitions
#
# Writes $OUT/<sample>-<rep>/ (repo, log.txt, show.json, the regression test as written) and
# $OUT/results.md (one line per sample and repetition: triage, state reached, the test).
# Env: OUT (default target/feedback-live/<UTC time>), FEEDBACK_REPS (1), SLOPGUARD_BIN (default:
# build target/debug), LLM_MODEL (1.5b), and the model endpoint variables of llm-setup.sh.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$ROOT/target/feedback-live/$(date -u +%Y%m%dT%H%M%SZ)}"
REPS="${FEEDBACK_REPS:-1}"
mkdir -p "$OUT"
# shellcheck source=lib/heartbeat.sh
source "$ROOT/scripts/lib/heartbeat.sh"

BIN="${SLOPGUARD_BIN:-}"
if [[ -z "$BIN" ]]; then
    (cd "$ROOT" && with_heartbeat "feedback-live: building slopguard" cargo build -q -j2 -p slopguard-cli)
    BIN="$ROOT/target/debug/slopguard"
fi
if ! command -v node >/dev/null; then
    echo "feedback-live: installing node (Debian's nodejs) for the js sample" >&2
    apt-get update -qq >/dev/null && apt-get install -y -qq nodejs >/dev/null
fi
if [[ -z "${SLOPGUARD_LLM_URL:-}" ]]; then
    export LLM_MODEL="${LLM_MODEL:-1.5b}"
    setup_out="$(bash "$ROOT/scripts/llm-setup.sh")"
    echo "$setup_out" >&2
    eval "$(echo "$setup_out" | grep -E '^\s*export SLOPGUARD_LLM_URL=' | tail -1)"
fi
export SLOPGUARD_LLM_URL SLOPGUARD_LLM_TIMEOUT="${SLOPGUARD_LLM_TIMEOUT:-600}"
export SLOPGUARD_WORKER_MAX_TOKENS="${SLOPGUARD_WORKER_MAX_TOKENS:-1536}"

samples=("$@")
if [[ ${#samples[@]} -eq 0 ]]; then
    mapfile -t samples < <(find "$ROOT/tests/feedback" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)
fi

echo "| sample | rep | triage | state | regression test (fails without the fix) | wall |" > "$OUT/results.md"
echo "|---|---|---|---|---|---|" >> "$OUT/results.md"
for rep in $(seq 1 "$REPS"); do
    for s in "${samples[@]}"; do
        dir="$OUT/$s-$rep"
        repo="$dir/repo"
        mkdir -p "$dir"
        cp -r "$ROOT/tests/feedback/$s" "$repo"
        feedback="$(cat "$repo/feedback.txt")"
        rm "$repo/feedback.txt"
        git -C "$repo" init -q -b main
        git -C "$repo" add -A
        git -C "$repo" -c user.email=bench@example.com -c user.name=bench commit -q -m "init"
        db="sqlite://$dir/store.db"
        sg() { "$BIN" feedback "$@" --repo "$repo" --db "$db"; }
        start=$(date +%s)
        {
            echo "== add"; id="$(sg add "$feedback" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')"
            echo "== triage $id"; sg triage "$id" || true
            echo "== fix $id"; with_heartbeat "feedback-live: $s rep $rep fix" sg fix "$id" || true
            state="$(sg show "$id" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["item"]["state"])')"
            if [[ "$state" == "fix-pr-open" ]]; then
                git -C "$repo" merge -q --ff-only "slopguard/fix/$id"
                echo "== verify $id"; sg verify "$id" --rev main || true
            fi
        } > "$dir/log.txt" 2>&1
        wall=$(( $(date +%s) - start ))
        sg show "$id" --format json > "$dir/show.json"
        git -C "$repo" diff HEAD~1 -- '*test*' > "$dir/regression-test.diff" 2>/dev/null || true
        python3 - "$dir/show.json" "$s" "$rep" "$wall" >> "$OUT/results.md" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))["item"]
t = d["detail"].get("triage", {})
fix = d["detail"].get("fix", {})
tests = ", ".join(fix.get("fails_without_fix", [])) or "-"
print(f"| {sys.argv[2]} | {sys.argv[3]} | {t.get('class', '-')} {t.get('confidence', '')} | {d['state']} | {tests} | {sys.argv[4]} s |")
EOF
        tail -1 "$OUT/results.md" >&2
    done
done
echo "feedback-live: results in $OUT/results.md" >&2
cat "$OUT/results.md"
