#!/usr/bin/env bash
# Load bench of `slopguard serve` as its own process, driven by wrk (Debian's package) from a
# second process on loopback, with the mix of gateway-mix.lua. The store is seeded to --rows
# observations first by the in-process bench (reused when present).
#
#   scripts/bench/gateway-wrk.sh [DB_URL] [SECONDS] [CONNECTIONS]
#   scripts/bench/gateway-wrk.sh sqlite:///tmp/sg-bench.db 8 16
set -euo pipefail
cd "$(dirname "$0")/../.."
DB="${1:-sqlite:///tmp/sg-bench.db}"
SECONDS_="${2:-8}"
CONNS="${3:-16}"
PORT="${SLOPGUARD_BENCH_PORT:-18787}"

command -v wrk >/dev/null || apt-get install -y wrk >/dev/null
cargo build --release -j2 -p slopguard-cli -p slopguard-server --example gateway_load >/dev/null
target/release/examples/gateway_load --db "$DB" --rows 1000000 --seconds 0 --max-requests 0 | grep seed

target/release/slopguard serve --db "$DB" --addr "127.0.0.1:$PORT" --root /tmp >/tmp/sg-bench-serve.log 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
    sleep 0.1
done
# Warm-up, then the measured run.
wrk -t2 -c"$CONNS" -d2s -s scripts/bench/gateway-mix.lua "http://127.0.0.1:$PORT" >/dev/null
/usr/bin/time -f "server+wrk wall %e s" \
    wrk -t2 -c"$CONNS" -d"${SECONDS_}s" -s scripts/bench/gateway-mix.lua "http://127.0.0.1:$PORT" | grep mixed
ps -o cputime= -p "$SERVER" | sed 's/^/server CPU time (incl. warm-up): /'
