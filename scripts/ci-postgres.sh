#!/usr/bin/env bash
# Installs (Debian's `postgresql` package) and starts a local PostgreSQL server for the store's
# integration tests, creates a test role and database, and prints the URL to use on stdout:
#
#   eval "$(bash scripts/ci-postgres.sh)"   # sets SLOPGUARD_TEST_PG
#
# Idempotent: safe to run again when the package is installed, the cluster runs, or the role and
# database exist. Meant for CI running as root; as a non-root user it uses sudo when available.
# Everything but the final `export` line goes to stderr.
#
# What it leaves behind, on purpose (test machines, never production): the cluster
# `<version>/main` RUNNING on 127.0.0.1, a role `slopguard` whose password is the literal
# `slopguard` (SLOPGUARD_PG_PASS to change it), and `max_connections = 300` set with ALTER
# SYSTEM (in the cluster's postgresql.auto.conf). The last stderr lines repeat this and say how
# to undo it:
#
#   bash scripts/ci-postgres.sh --stop      # stop the cluster (pg_ctlcluster <version> main stop)
#   sudo pg_dropcluster --stop <version> main   # remove it, data included
set -euo pipefail

PG_USER="${SLOPGUARD_PG_USER:-slopguard}"
PG_PASS="${SLOPGUARD_PG_PASS:-slopguard}"
PG_DB="${SLOPGUARD_PG_DB:-slopguard_test}"

log() { echo "ci-postgres: $*" >&2; }
# shellcheck source=lib/heartbeat.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/heartbeat.sh"

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        log "not root and no sudo: cannot install or start PostgreSQL"; exit 1
    fi
fi

if [ "${1:-}" = "--stop" ]; then
    VERSION="$(ls /usr/lib/postgresql 2>/dev/null | sort -V | tail -1)"
    if [ -n "$VERSION" ] && command -v pg_lsclusters >/dev/null 2>&1 \
        && pg_lsclusters -h | awk -v v="$VERSION" '$1==v && $2=="main" && $4=="online" {f=1} END {exit !f}'; then
        $SUDO pg_ctlcluster "$VERSION" main stop >&2
        log "stopped cluster $VERSION/main (remove it, data included: $SUDO pg_dropcluster --stop $VERSION main)"
    else
        log "nothing to stop: no running PostgreSQL cluster ${VERSION:-(none installed)}/main"
    fi
    exit 0
fi

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    log "installing Debian's postgresql package"
    export DEBIAN_FRONTEND=noninteractive
    with_heartbeat "ci-postgres: apt-get update" $SUDO apt-get update -qq >&2
    with_heartbeat "ci-postgres: installing postgresql" $SUDO apt-get install -y -qq postgresql >&2
fi

VERSION="$(ls /usr/lib/postgresql | sort -V | tail -1)"
log "PostgreSQL $VERSION"

if ! command -v pg_lsclusters >/dev/null 2>&1; then
    log "pg_lsclusters missing (postgresql-common not installed?)"; exit 1
fi

if ! pg_lsclusters -h | awk -v v="$VERSION" '$1==v && $2=="main" {found=1} END {exit !found}'; then
    log "creating cluster $VERSION/main"
    $SUDO pg_createcluster "$VERSION" main >&2
fi

PORT="$(pg_lsclusters -h | awk -v v="$VERSION" '$1==v && $2=="main" {print $3}')"
STATUS="$(pg_lsclusters -h | awk -v v="$VERSION" '$1==v && $2=="main" {print $4}')"
if [ "$STATUS" != "online" ]; then
    log "starting cluster $VERSION/main on port $PORT"
    $SUDO pg_ctlcluster "$VERSION" main start >&2
fi

for _ in $(seq 1 60); do
    if pg_isready -q -h 127.0.0.1 -p "$PORT"; then break; fi
    sleep 0.5
done
pg_isready -h 127.0.0.1 -p "$PORT" >&2

as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi
}
psql_admin() { as_postgres psql -v ON_ERROR_STOP=1 -p "$PORT" -qtA "$@"; }

if [ "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = '$PG_USER'")" != "1" ]; then
    log "creating role $PG_USER"
    psql_admin -c "CREATE ROLE \"$PG_USER\" LOGIN PASSWORD '$PG_PASS' CREATEDB" >&2
fi
if [ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'")" != "1" ]; then
    log "creating database $PG_DB"
    psql_admin -c "CREATE DATABASE \"$PG_DB\" OWNER \"$PG_USER\"" >&2
fi
# Parallel test binaries each open several pools: allow more than the default 100 connections.
if [ "$(psql_admin -c "SHOW max_connections")" -lt 300 ]; then
    log "raising max_connections to 300 (restart)"
    psql_admin -c "ALTER SYSTEM SET max_connections = 300" >&2
    $SUDO pg_ctlcluster "$VERSION" main restart >&2
    for _ in $(seq 1 60); do
        if pg_isready -q -h 127.0.0.1 -p "$PORT"; then break; fi
        sleep 0.5
    done
fi

log "LEFT RUNNING: PostgreSQL cluster $VERSION/main on 127.0.0.1:$PORT, role $PG_USER (password '$PG_PASS', test use only), database $PG_DB, max_connections 300 (ALTER SYSTEM)"
log "stop it with: bash $(cd "$(dirname "$0")" && pwd)/ci-postgres.sh --stop"
echo "export SLOPGUARD_TEST_PG=postgres://$PG_USER:$PG_PASS@127.0.0.1:$PORT/$PG_DB"
