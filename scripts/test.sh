#!/usr/bin/env bash
# The whole test suite, on a fresh machine: starts a local PostgreSQL for the store's
# tests (Debian's package; needs root or sudo, otherwise those tests are skipped with a
# notice), then runs every crate's tests. Extra arguments go to `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${SLOPGUARD_TEST_PG:-}" ]; then
    if pg_env="$(bash scripts/ci-postgres.sh)"; then
        eval "$pg_env"
        export SLOPGUARD_TEST_PG
    else
        echo "test.sh: PostgreSQL could not be started; its tests will be skipped" >&2
    fi
fi

cargo test --workspace --no-fail-fast -j2 "$@"

