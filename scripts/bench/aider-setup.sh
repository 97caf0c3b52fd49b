#!/usr/bin/env bash
# Installs aider (aider-chat from PyPI, pinned) into .venv-aider/ for the side-by-side bench
# (scripts/bench/side-by-side.py). Idempotent: a second run with the same version does nothing.
#
#   scripts/bench/aider-setup.sh        # prints the path of the aider executable on stdout
#
# Progress goes to stderr; stdout carries only the path. Not part of CI.
# Env: AIDER_VENV (default .venv-aider), AIDER_VERSION (default 0.86.2), PYTHON (default python3;
#      aider-chat needs Python 3.10-3.12).
#
# aider must not reach the internet when it runs: side-by-side.py passes --no-check-update
# --analytics-disable --no-show-model-warnings --no-show-release-notes and sets
# LITELLM_LOCAL_MODEL_COST_MAP=True (litellm reads its bundled price map instead of fetching it).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${AIDER_VENV:-$ROOT/.venv-aider}"
VERSION="${AIDER_VERSION:-0.86.2}"
PYTHON="${PYTHON:-python3}"

log() { echo "aider-setup: $*" >&2; }
# shellcheck source=../lib/heartbeat.sh
source "$ROOT/scripts/lib/heartbeat.sh"

if [[ ! -x "$VENV/bin/python" ]]; then
    log "creating $VENV"
    "$PYTHON" -m venv "$VENV"
fi
# The venv is self-ignoring, whatever the repo's .gitignore says.
echo '*' > "$VENV/.gitignore"

have="$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("aider-chat"))' 2>/dev/null || true)"
if [[ "$have" != "$VERSION" ]]; then
    log "installing aider-chat==$VERSION (have: ${have:-none}); a few minutes, about 300 MB"
    with_heartbeat "aider-setup: installing aider-chat" \
        "$VENV/bin/pip" install -q --disable-pip-version-check "aider-chat==$VERSION" >&2
fi

AIDER="$VENV/bin/aider"
if ! LITELLM_LOCAL_MODEL_COST_MAP=True "$AIDER" --version >/dev/null 2>&1; then
    log "$AIDER does not run"; exit 1
fi
log "aider $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("aider-chat"))') ok"
echo "$AIDER"
