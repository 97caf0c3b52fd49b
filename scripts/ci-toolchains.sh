#!/usr/bin/env bash
# Installs the project toolchains the test suite runs for real and this machine may lack:
# Ruby (Debian's `ruby` package, with Minitest) for the toolchain crate's Ruby ecosystem.
# Without root or sudo it installs nothing; those tests then skip with a NOTICE.
# Idempotent: does nothing when every toolchain is there.
set -euo pipefail

log() { echo "ci-toolchains: $*" >&2; }
# shellcheck source=lib/heartbeat.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/heartbeat.sh"

missing=()
command -v ruby >/dev/null 2>&1 || missing+=(ruby)
if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        log "not root and no sudo: ${missing[*]} not installed; their tests will be skipped"; exit 0
    fi
fi
export DEBIAN_FRONTEND=noninteractive
log "installing Debian's ${missing[*]}"
with_heartbeat "ci-toolchains: apt-get update" $SUDO apt-get update -qq >&2
with_heartbeat "ci-toolchains: installing ${missing[*]}" $SUDO apt-get install -y -qq "${missing[@]}" >&2 \
    || log "could not install ${missing[*]}; their tests will be skipped"
