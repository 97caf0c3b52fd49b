#!/usr/bin/env bash
# Intent-mode calibration (issue 25): `slopguard replay HEAD --limit 300 -j 2` over the newest
# 300 commits of the 12 calibration repositories, once with each commit's message as its task
# (`--task-from-message`) and once without a task. Human commits should almost never block.
#
#   scripts/bench/intent-calibration.sh BIN OUTDIR
#
# Writes OUTDIR/task/<owner+name>.json and OUTDIR/notask/<owner+name>.json (with every blocked
# commit listed: --show 100000). The repositories are the mirrors under $MIRROR (default
# /work/.mirror/<owner+name>/repo, bare or not). Compare two runs with
# scripts/bench/intent-report.py BEFORE_OUTDIR AFTER_OUTDIR.
set -euo pipefail

BIN="$1"
OUT="$2"
MIRROR="${MIRROR:-/work/.mirror}"
LIMIT="${LIMIT:-300}"
REPOS=(
  psf+requests pallets+flask pallets+click psf+black
  expressjs+express tj+commander.js spf13+cobra BurntSushi+ripgrep
  tokio-rs+axum gin-gonic+gin helm+helm serde-rs+serde
)
mkdir -p "$OUT/task" "$OUT/notask"
for r in "${REPOS[@]}"; do
  repo="$MIRROR/$r/repo"
  [[ -e "$repo" ]] || { echo "missing: $repo" >&2; continue; }
  "$BIN" replay HEAD -C "$repo" --limit "$LIMIT" -j 2 --show 100000 --format json \
    --task-from-message >"$OUT/task/$r.json" 2>/dev/null
  "$BIN" replay HEAD -C "$repo" --limit "$LIMIT" -j 2 --show 100000 --format json \
    >"$OUT/notask/$r.json" 2>/dev/null
  echo "$r done" >&2
done
