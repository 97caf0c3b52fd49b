#!/usr/bin/env bash
# The whole test suite, on a fresh machine: installs the toolchains the tests run for real
# (scripts/ci-toolchains.sh: Ruby), starts a local PostgreSQL for the store's tests (Debian's
# package; both need root or sudo, otherwise those tests are skipped with a notice), then runs
# every crate's tests. Extra arguments go to `cargo test`.
#
# The PostgreSQL cluster is left running for the next run (scripts/ci-postgres.sh says what it
# leaves and how to stop it: `bash scripts/ci-postgres.sh --stop`). The last line says whether
# the PostgreSQL tests ran.
set -euo pipefail
cd "$(dirname "$0")/.."

# Toolchains the tests run for real (Ruby); skipped with a notice when they cannot be installed.
bash scripts/ci-toolchains.sh || true

pg_note=""
if [ -z "${SLOPGUARD_TEST_PG:-}" ]; then
    if pg_env="$(bash scripts/ci-postgres.sh)"; then
        eval "$pg_env"
        export SLOPGUARD_TEST_PG
        pg_note=" (cluster started by scripts/ci-postgres.sh and left running; stop it: bash scripts/ci-postgres.sh --stop)"
    else
        echo "test.sh: PostgreSQL could not be started; its tests will be skipped" >&2
    fi
fi

# The binaries under test keep parse analyses between checks; keep theirs out of the user's
# cache directory.
SLOPGUARD_CACHE_DIR="$(mktemp -d)"
export SLOPGUARD_CACHE_DIR
trap 'rm -rf "$SLOPGUARD_CACHE_DIR"' EXIT

set +e
cargo test --workspace --no-fail-fast -j2 "$@"
code=$?
set -e

# Whether the store and gateway tests ran against PostgreSQL too (they skip it, with a NOTICE,
# when SLOPGUARD_TEST_PG is unset). The password is not printed.
echo
if [ -n "${SLOPGUARD_TEST_PG:-}" ]; then
    echo "test.sh: PostgreSQL tests: RAN against $(echo "$SLOPGUARD_TEST_PG" | sed -E 's#://([^:/@]+):[^@]*@#://\1:***@#')$pg_note"
else
    echo "test.sh: PostgreSQL tests: SKIPPED (no PostgreSQL: SLOPGUARD_TEST_PG unset and scripts/ci-postgres.sh could not start one)"
fi
exit "$code"
