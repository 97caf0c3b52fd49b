#!/usr/bin/env bash
# `slopguard check` speed, two binaries side by side: 1-, 3- and 10-file commits of a Python and
# a Rust repository, then `replay` commits/s over the same range with each.
#
#   scripts/bench/check-speed.sh OLD_BIN NEW_BIN PY_REPO RUST_REPO
#
# The repositories may be bare (check --commit reads them without a work tree). Env: RUNS (15
# per binary and commit), REPLAY (200 commits). Timed with hyperfine (-N: no shell), one
# command after the other per commit. The new binary is timed cold (an empty analysis cache
# before every run, as a file version's first check) and warm (the cache its warm-up filled, as
# a version checked before, e.g. the base of an agent's next edit); it must know `check
# --cache-dir`. Prints one markdown table: median, min-max and the median ratios OLD/NEW per
# commit, then the replay rates (mean of 3 runs).
set -euo pipefail

OLD="$1"
NEW="$2"
shift 2
RUNS="${RUNS:-15}"
REPLAY="${REPLAY:-200}"

# hyperfine times each command without a shell in between (-N), so the figures are the
# binaries' own; installed from Debian when missing.
if ! command -v hyperfine >/dev/null; then
    if [[ $(id -u) -eq 0 ]]; then
        apt-get install -y -qq hyperfine >/dev/null
    else
        echo "check-speed.sh: hyperfine is needed (apt-get install hyperfine)" >&2
        exit 2
    fi
fi

CACHES=$(mktemp -d)
trap 'rm -rf "$CACHES"' EXIT

# The newest non-merge commit of `repo` that changes exactly `n` files.
commit_with_files() {
    local repo="$1" n="$2"
    git -C "$repo" log --no-merges --format='%H' -n 3000 | while read -r c; do
        files=$(git -C "$repo" diff-tree --no-commit-id --name-only -r "$c" | wc -l)
        if [[ "$files" -eq "$n" ]]; then
            echo "$c"
            break
        fi
    done
}

# "median (min-max)" in ms of command `i` of a hyperfine JSON export.
cell() {
    python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]
ms = {k: r[k] * 1000 for k in ("median", "min", "max")}
print("%.1f (%.1f-%.1f)" % (ms["median"], ms["min"], ms["max"]))
PY
}

# The median of command 0 over the median of command `i`.
ratio() {
    python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print("%.2fx" % (r[0]["median"] / r[int(sys.argv[2])]["median"]))
PY
}

echo "| repository | files | commit | old median (min-max) ms | new cold | new warm | old/new cold | old/new warm |"
echo "|---|---|---|---|---|---|---|---|"
for repo in "$@"; do
    name=$(basename "$(dirname "$repo")")
    [[ "$name" == "." || "$name" == "/" ]] && name=$(basename "$repo")
    for n in 1 3 10; do
        c=$(commit_with_files "$repo" "$n" || true)
        [[ -n "$c" ]] || continue
        check="check -C $repo --commit $c --format json"
        json="$CACHES/$name-$n.json"
        # Cold: an empty analysis cache before every run (a version's first check); warm:
        # the cache the warm-up filled (a version checked before). Exit 1 (blocked) is a
        # result too (-i).
        hyperfine -N -i -w 2 -r "$RUNS" --export-json "$json" --style none \
            -p true -p "rm -rf $CACHES/cold" -p true \
            "$OLD $check" \
            "$NEW $check --cache-dir $CACHES/cold" \
            "$NEW $check --cache-dir $CACHES/warm" >/dev/null 2>&1
        echo "| $name | $n | ${c:0:10} | $(cell "$json" 0) | $(cell "$json" 1) | $(cell "$json" 2) | $(ratio "$json" 1) | $(ratio "$json" 2) |"
    done
done

echo
echo "| repository | binary | commits | seconds (mean of 3) | commits/s |"
echo "|---|---|---|---|---|"
for repo in "$@"; do
    name=$(basename "$(dirname "$repo")")
    head=$(git -C "$repo" rev-parse HEAD)
    from=$(git -C "$repo" rev-list --no-merges --max-count="$REPLAY" "$head" | tail -1)
    n=$(git -C "$repo" rev-list --no-merges --count "$from..$head")
    json="$CACHES/$name-replay.json"
    hyperfine -N -i -w 1 -r 3 --export-json "$json" --style none \
        "$OLD replay -C $repo $from..$head --format json" \
        "$NEW replay -C $repo $from..$head --format json" >/dev/null 2>&1
    python3 - "$json" "$name" "$n" <<'PY'
import json, sys
for which, r in zip(["old", "new"], json.load(open(sys.argv[1]))["results"]):
    n = int(sys.argv[3])
    print("| %s | %s | %d | %.2f | %.1f |" % (sys.argv[2], which, n, r["mean"], n / r["mean"]))
PY
done
