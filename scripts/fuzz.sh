#!/usr/bin/env bash
# Fuzzes the parsers of untrusted input (crates/cli/tests/fuzz_inputs.rs: diffs, edit blocks,
# patch lists, task files, model replies, hook payloads, hook configs, goal files) for a budget
# of cases per target, and prints the executions and the time taken.
#
#   scripts/fuzz.sh [CASES_PER_TARGET]      (default 200000)
#
# A crash fails the run; proptest shrinks it and writes its seed to
# crates/cli/tests/fuzz_inputs.proptest-regressions, which is re-run first every time (commit it,
# and add the input to the parser's own tests). Builds in release mode unless FUZZ_PROFILE=dev.
set -euo pipefail
cd "$(dirname "$0")/.."
cases="${1:-200000}"
profile="${FUZZ_PROFILE:-release}"
flag=(--release)
[ "$profile" = dev ] && flag=()
targets=$(grep -c '^    fn .*_without_panicking' crates/cli/tests/fuzz_inputs.rs)
# The hook target feeds three parsers per case.
parsers=$((targets + 2))
echo "fuzz: $targets targets ($parsers parsers), $cases cases each, profile $profile"
start=$(date +%s)
PROPTEST_CASES="$cases" PROPTEST_MAX_SHRINK_ITERS=2000 \
  cargo test -j2 "${flag[@]}" -p slopguard-cli --test fuzz_inputs -- --test-threads 2
end=$(date +%s)
echo "fuzz: $((cases * parsers)) parser executions in $((end - start)) s, 0 crashes"
