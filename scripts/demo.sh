#!/usr/bin/env bash
# The main job on the shipped example: builds slopguard, makes a throwaway git repository from
# examples/demo/repo (a user store with a SQL injection), and runs the guard stack on two LLM
# patches for the task in examples/demo/task.toml: a sloppy one (blocked) and a good one
# (passes). Nothing in the repository is modified.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q -j2 -p slopguard-cli
SG="$PWD/target/debug/slopguard"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r examples/demo/repo/. "$work/"
git -C "$work" init -q -b main
git -C "$work" -c user.email=demo@example.invalid -c user.name=demo add -A
git -C "$work" -c user.email=demo@example.invalid -c user.name=demo commit -q -m "userstore"

echo "== sloppy patch (expected: BLOCKED, exit 1)"
set +e
"$SG" check -C "$work" --patches examples/demo/sloppy-patch.json --task-file examples/demo/task.toml --color always
sloppy=$?
echo
echo "== good patch (expected: pass, exit 0)"
"$SG" check -C "$work" --patches examples/demo/good-patch.json --task-file examples/demo/task.toml --color always
good=$?
set -e
echo
echo "exit codes: sloppy=$sloppy good=$good"
[ "$sloppy" -eq 1 ] && [ "$good" -eq 0 ]
