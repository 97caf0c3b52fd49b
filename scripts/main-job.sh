#!/usr/bin/env bash
# The main job in one command: set up the local model if needed, then `slopguard run` on a
# shipped sample repository (a rung of the bench ladder with a seeded bug), ending with the
# branch, the PR body and the run summary.
#
#   scripts/main-job.sh                      # rung-3-python-sql (SQL injection), 1.5B model
#   scripts/main-job.sh rung-4-js-slugify    # another rung of tests/ladder
#   LLM_MODEL=0.5b scripts/main-job.sh       # Qwen2.5-Coder-0.5B: faster, much weaker
#
# Against any OpenAI-compatible endpoint instead of the local model (LM Studio, Ollama, vLLM):
#   SLOPGUARD_LLM_URL=http://127.0.0.1:1234/v1 SLOPGUARD_LLM_MODEL=<model id> scripts/main-job.sh
#
# Without SLOPGUARD_LLM_URL the local model server is started and LEFT RUNNING (the last lines
# say so); stop it with `scripts/llm-setup.sh --stop`.
#
# The binary, fastest first: SLOPGUARD_BIN (for example `$(command -v slopguard)` after
# `cargo install --path crates/cli --locked`); else target/release/slopguard when a release
# build is there (brought up to date by cargo: seconds when nothing changed); else
# target/debug/slopguard, built (about 8 min on 2 cores the first time, seconds after).
# MAIN_JOB_RELEASE=1 makes the release build (longer the first time, the run faster).
# Each step ends with its time ("== ... done in N s").
#
# Env: MAIN_JOB_DIR (work directory; default a new temp dir), SLOPGUARD_BIN, MAIN_JOB_RELEASE,
#      MAIN_JOB_PLAN (an operator plan file: skips the planner), MAIN_JOB_MAX_ATTEMPTS (3).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUNG="${1:-rung-3-python-sql}"
SRC="$ROOT/tests/ladder/$RUNG"
if [[ ! -d "$SRC" ]]; then
    echo "main-job: no rung $RUNG; choose one of: $(ls "$ROOT/tests/ladder" | grep '^rung-' | tr '\n' ' ')" >&2
    exit 2
fi
WORK="${MAIN_JOB_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/slopguard-main-job.XXXXXX")}"
REPO="$WORK/$RUNG"

# Prints "== <step> done in N s" for the step that started at $step_start.
step_start=$SECONDS
step_done() {
    echo "== $1 done in $((SECONDS - step_start)) s" >&2
    step_start=$SECONDS
}

# 1. The binary.
BIN="${SLOPGUARD_BIN:-}"
if [[ -n "$BIN" ]]; then
    [[ -x "$BIN" ]] || { echo "main-job: SLOPGUARD_BIN=$BIN is not an executable file" >&2; exit 2; }
    echo "== slopguard: $BIN (SLOPGUARD_BIN)" >&2
else
    profile=debug
    if [[ "${MAIN_JOB_RELEASE:-}" == 1 || -x "$ROOT/target/release/slopguard" ]]; then
        profile=release
    fi
    if [[ "$profile" == release ]]; then
        echo "== building slopguard (release; the first build takes 20 min or more on 2 cores, seconds when up to date)" >&2
        build=(cargo build -q -j2 --release -p slopguard-cli)
    else
        echo "== building slopguard (the first build takes about 8 min on 2 cores, seconds when up to date; a release build is reused when present)" >&2
        build=(cargo build -q -j2 -p slopguard-cli)
    fi
    # shellcheck source=lib/heartbeat.sh
    source "$ROOT/scripts/lib/heartbeat.sh"
    (cd "$ROOT" && with_heartbeat "main-job: building slopguard" "${build[@]}")
    BIN="$ROOT/target/$profile/slopguard"
fi
step_done "binary"

# 2. The model: the local one unless an endpoint is given.
LOCAL_MODEL=""
if [[ -z "${SLOPGUARD_LLM_URL:-}" ]]; then
    LOCAL_MODEL=1
    echo "== local model (scripts/llm-setup.sh)" >&2
    # The 1.5B model by default: the 0.5B one rarely writes a correct fix (BENCHMARKS.md).
    export LLM_MODEL="${LLM_MODEL:-1.5b}"
    setup_out="$(bash "$ROOT/scripts/llm-setup.sh")"
    echo "$setup_out" >&2
    export_line="$(echo "$setup_out" | grep -E '^\s*export SLOPGUARD_LLM_URL=' | tail -1)"
    [[ -n "$export_line" ]] || { echo "main-job: llm-setup.sh did not print the endpoint" >&2; exit 2; }
    eval "$export_line"
    step_done "local model"
fi
export SLOPGUARD_LLM_URL
# A small local model on one thread writes ~6-10 tokens/s: give each call time and bound it.
export SLOPGUARD_LLM_TIMEOUT="${SLOPGUARD_LLM_TIMEOUT:-600}"
export SLOPGUARD_WORKER_MAX_TOKENS="${SLOPGUARD_WORKER_MAX_TOKENS:-1536}"
# The run stays within the main job's ten minutes: once 300 s of execution are spent, only the
# subtasks behind the failing tests still run, each for at most 500 s (a candidate that starts
# before the end may finish up to one model call after it; analysis and landing take seconds).
export SLOPGUARD_RUN_BUDGET="${SLOPGUARD_RUN_BUDGET:-300}"
export SLOPGUARD_SUBTASK_BUDGET="${SLOPGUARD_SUBTASK_BUDGET:-500}"
[[ -n "${SLOPGUARD_LLM_MODEL:-}" ]] && export SLOPGUARD_LLM_MODEL

# 3. The sample repository: a fresh git repository with one seeded bug.
echo "== sample repository $REPO" >&2
rm -rf "$REPO"
mkdir -p "$WORK"
cp -r "$SRC" "$REPO"
rm -f "$REPO/golden.json"
(
    cd "$REPO"
    git init -q -b main
    git add -A
    git -c user.email=demo@example.invalid -c user.name=demo -c commit.gpgsign=false \
        commit -q -m "sample: $RUNG"
)
BASE="$(git -C "$REPO" rev-parse HEAD)"

# 4. The run (progress on stderr; the run summary is printed at the end).
plan_args=()
[[ -n "${MAIN_JOB_PLAN:-}" ]] && plan_args=(--plan-from-file "$MAIN_JOB_PLAN")
echo "== slopguard run $REPO (model ${SLOPGUARD_LLM_MODEL:-server default} at $SLOPGUARD_LLM_URL)" >&2
set +e
"$BIN" run "$REPO" "${plan_args[@]}" --max-attempts "${MAIN_JOB_MAX_ATTEMPTS:-3}" \
    --db "sqlite://$WORK/store.db" >"$WORK/summary.txt"
code=$?
set -e
step_done "slopguard run"

# 5. The branch, the PR body, the summary.
RUN_DIR="$(ls -td "$REPO"/.slopguard/runs/*/ 2>/dev/null | head -1 || true)"
BRANCH="$(git -C "$REPO" for-each-ref --format='%(refname:short)' 'refs/heads/slopguard/*' | tail -1)"
echo
echo "== branch"
if [[ -n "$BRANCH" ]]; then
    echo "$BRANCH (base $(git -C "$REPO" rev-parse --short "$BASE"))"
    git -C "$REPO" log --format='  %h %s' "$BASE..$BRANCH"
    git -C "$REPO" diff --stat "$BASE" "$BRANCH" | sed 's/^/  /'
else
    echo "(no branch: nothing was committed)"
fi
echo
echo "== PR body"
if [[ -n "$RUN_DIR" && -f "$RUN_DIR/PR.md" ]]; then
    echo "($RUN_DIR""PR.md)"
    cat "$RUN_DIR/PR.md"
else
    echo "(no PR body was written by this build)"
fi
echo
echo "== run summary"
cat "$WORK/summary.txt"
[[ -n "$RUN_DIR" ]] && echo "run directory: $RUN_DIR (state.json, trace.jsonl, exchanges.jsonl: every model request and reply)"
if [[ -n "$LOCAL_MODEL" ]]; then
    echo
    echo "== left running"
    echo "the local model server (scripts/llm-setup.sh), so the next run starts at once;"
    echo "stop it with: $ROOT/scripts/llm-setup.sh --stop"
fi

# 6. What happened, in two lines (the last ones).
echo
landed="$([[ -n "$BRANCH" ]] && git -C "$REPO" log --reverse --format='%s' "$BASE..$BRANCH" | paste -sd ';' - | sed 's/;/; /g' || true)"
if [[ -n "$landed" && "$code" -eq 0 ]]; then
    echo "main-job: FIXED — landed on $BRANCH: $landed"
    echo "main-job: look at it with: git -C $REPO show $BRANCH   (PR body: ${RUN_DIR}PR.md)"
elif [[ -n "$landed" ]]; then
    # Something landed but the run did not complete (exit 1: a subtask failed): say so, with
    # the failed subtasks, rather than calling the bug fixed.
    failed="$(grep -E '^\s+T[0-9]+-S[0-9]+ .* — failed' "$WORK/summary.txt" | sed 's/^\s*//; s/ — failed.*//' | paste -sd ';' - | sed 's/;/; /g' || true)"
    echo "main-job: PARTLY FIXED — landed on $BRANCH: $landed; not fixed: ${failed:-see the run summary above} (slopguard exit $code)"
    echo "main-job: look at it with: git -C $REPO show $BRANCH   (PR body: ${RUN_DIR}PR.md)"
else
    # The summary's `why:` line, and the first finding under it (the `why:` line alone ends
    # with "last findings:").
    why="$(grep -m1 -A1 -E '^\s+why:' "$WORK/summary.txt" | sed 's/^\s*why: //; s/^\s*- //' | paste -sd ' ' - || true)"
    echo "main-job: NOT FIXED — no patch passed the guards and the tests${why:+: $why}"
    echo "main-job: every candidate and its verdict: ${RUN_DIR}trace.jsonl (worker.candidate events)"
fi
exit "$code"
