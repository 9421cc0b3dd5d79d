#!/bin/bash
# measure.sh BUILD [N [SLOTS...]] — the figures of docs/FLEET.md: a private PostgreSQL server on loopback
# TCP (127.0.0.1:$PG_PORT, default 54329; fsync off as in the tests), then
# BUILD/bin/zkpipe_fleet_measure against it with the many_public_bn128 vector. Run by hand.
set -uo pipefail
BUILD=$(cd "$1" && pwd)
N=${2:-200}
shift $(($# > 1 ? 2 : 1))
source "$(dirname "$0")/../support/script_checks.sh"
source "$(dirname "$0")/pg_fixture.sh"
pg_skip_unless_installed
export PG_PORT=${PG_PORT:-54329}
trap 'pg_stop; rm -rf "$TMP"' EXIT
pg_start || exit 1
V=$ROOT/tests/vectors/data/many_public_bn128
echo "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') at $PG_URL; $(nproc) cores; N=$N"
"$BUILD/bin/zkpipe_fleet_measure" "$PG_URL" "$V/circuit.zkey" "$V/witness.wtns" "$N" "$@"
