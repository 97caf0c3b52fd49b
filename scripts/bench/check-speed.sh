#!/usr/bin/env bash
# `slopguard check` speed, two binaries side by side: 1-, 3- and 10-file commits of a Python and
# a Rust repository, the binaries alternated run by run (so load drifts hit both alike), then
# `replay` commits/s over the same range with each.
#
#   scripts/bench/check-speed.sh OLD_BIN NEW_BIN PY_REPO RUST_REPO
#
# The repositories may be bare (check --commit reads them without a work tree). Env: RUNS (15
# per binary and commit), REPLAY (200 commits). Prints one markdown table: median, min-max and
# the median ratio OLD/NEW per commit, and the replay rates.
set -euo pipefail

OLD="$1"
NEW="$2"
shift 2
RUNS="${RUNS:-15}"
REPLAY="${REPLAY:-200}"

# The newest non-merge commit of `repo` that changes exactly `n` files (`*.py`/`*.rs` first).
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

# Milliseconds of one `check --commit` (exit 1, blocked, is a result too).
time_check() {
    local bin="$1" repo="$2" commit="$3"
    local t0 t1
    t0=$(date +%s%N)
    "$bin" check -C "$repo" --commit "$commit" --format json >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000000))
}

stats() {
    python3 -c '
import statistics, sys
xs = sorted(int(x) for x in sys.argv[1:])
print(f"{statistics.median(xs):.0f} {xs[0]} {xs[-1]}")' "$@"
}

echo "| repository | files | commit | old median (min-max) ms | new median (min-max) ms | old/new |"
echo "|---|---|---|---|---|---|"
for repo in "$@"; do
    name=$(basename "$(dirname "$repo")")
    [[ "$name" == "." || "$name" == "/" ]] && name=$(basename "$repo")
    for n in 1 3 10; do
        c=$(commit_with_files "$repo" "$n" || true)
        [[ -n "$c" ]] || continue
        # One warm-up run each (page cache), not counted.
        time_check "$OLD" "$repo" "$c" >/dev/null
        time_check "$NEW" "$repo" "$c" >/dev/null
        old=() new=()
        for _ in $(seq 1 "$RUNS"); do
            old+=("$(time_check "$OLD" "$repo" "$c")")
            new+=("$(time_check "$NEW" "$repo" "$c")")
        done
        read -r om omin omax <<<"$(stats "${old[@]}")"
        read -r nm nmin nmax <<<"$(stats "${new[@]}")"
        ratio=$(python3 -c "print(f'{$om / max($nm, 1):.2f}x')")
        echo "| $name | $n | ${c:0:10} | $om ($omin-$omax) | $nm ($nmin-$nmax) | $ratio |"
    done
done

echo
echo "| repository | binary | commits | seconds | commits/s |"
echo "|---|---|---|---|---|"
for repo in "$@"; do
    name=$(basename "$(dirname "$repo")")
    head=$(git -C "$repo" rev-parse HEAD)
    from=$(git -C "$repo" rev-list --no-merges --max-count="$REPLAY" "$head" | tail -1)
    for which in old new; do
        bin=$OLD
        [[ "$which" == new ]] && bin=$NEW
        t0=$(date +%s%N)
        "$bin" replay -C "$repo" "$from..$head" --format json >/dev/null 2>&1 || true
        t1=$(date +%s%N)
        n=$(git -C "$repo" rev-list --no-merges --count "$from..$head")
        python3 -c "s = ($t1 - $t0) / 1e9; print(f'| $name | $which | $n | {s:.1f} | {$n / s:.1f} |')"
    done
done
