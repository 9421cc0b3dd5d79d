# Sourced by the tests that need a PostgreSQL server (after tests/support/script_checks.sh,
# which makes $TMP): a private cluster in $TMP/pg that listens on a unix socket in that folder
# only (no TCP port to collide with anything), trust authentication, user zkpipe.
#   pg_skip_unless_installed   exits 77 (ctest's SKIP_RETURN_CODE) with the reason when the
#                              server's binaries are missing; nothing else is a skip.
#   pg_start [-c name=value ...]  initdb + pg_ctl start; sets PG_URL (libpq URI) and PSQL.
#                              With PG_PORT set it listens on 127.0.0.1:PG_PORT too, and PG_URL
#                              goes over loopback TCP (measure.sh; the tests keep to the socket).
#   pg_stop                    immediate stop; safe to call twice, and from a trap.
#   pg_restart_after SECONDS   immediate stop (every connection dropped, as in a crash), SECONDS
#                              down, then the same cluster started again on the same socket.
# PostgreSQL refuses to run as root, and CI runs as root: then the server runs as the
# `postgres` user Debian's package creates (runuser), in a folder it owns.
# ZKPIPE_TEST_PG_BIN=DIR looks in DIR only (set it to an empty folder to see the skip).
PG_BIN=""
_pg_dirs=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r)
[ -n "${ZKPIPE_TEST_PG_BIN+x}" ] && _pg_dirs=$ZKPIPE_TEST_PG_BIN
for _d in $_pg_dirs; do
  if [ -x "$_d/initdb" ] && [ -x "$_d/pg_ctl" ]; then PG_BIN=$_d; break; fi
done
if [ -z "$PG_BIN" ] && [ -z "${ZKPIPE_TEST_PG_BIN+x}" ] && command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
  PG_BIN=$(dirname "$(command -v initdb)")
fi
PG_DIR=""
PG_OPTS=""
PG_URL=""
PSQL=""

pg_skip_unless_installed() {
  if [ -z "$PG_BIN" ]; then
    echo "SKIP: no PostgreSQL server binaries (initdb, pg_ctl under /usr/lib/postgresql/*/bin or on PATH);"
    echo "SKIP: apt-get install postgresql (scripts/install-deps.sh does) to run this test"
    exit 77
  fi
}

_as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_start() {
  PG_DIR=$TMP/pg
  mkdir -p "$PG_DIR/sock"
  if [ "$(id -u)" -eq 0 ]; then
    if ! id postgres >/dev/null 2>&1; then
      echo "pg_fixture: running as root and there is no 'postgres' user to run the server as"; return 1
    fi
    chmod 711 "$TMP"
    chown -R postgres: "$PG_DIR"
  fi
  if ! _as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U zkpipe -A trust -E UTF8 --no-sync > "$PG_DIR/initdb.log" 2>&1; then
    echo "pg_fixture: initdb failed:"; tail -n 20 "$PG_DIR/initdb.log"; return 1
  fi
  PG_OPTS="-c listen_addresses=${PG_PORT:+127.0.0.1} -p ${PG_PORT:-5432} -k $PG_DIR/sock -c fsync=off -c full_page_writes=off $*"
  _pg_ctl_start || return 1
  PG_URL="postgresql://zkpipe@/postgres?host=$PG_DIR/sock&port=${PG_PORT:-5432}"
  [ -n "${PG_PORT:-}" ] && PG_URL="postgresql://zkpipe@127.0.0.1:$PG_PORT/postgres"
  PSQL="$PG_BIN/psql"
  [ -x "$PSQL" ] || PSQL=psql
}

_pg_ctl_start() {
  if ! _as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 -o "$PG_OPTS" start > "$PG_DIR/pg_ctl.log" 2>&1; then
    echo "pg_fixture: pg_ctl start failed:"; tail -n 20 "$PG_DIR/server.log" "$PG_DIR/pg_ctl.log"; return 1
  fi
}

pg_restart_after() {
  pg_stop
  sleep "$1"
  _pg_ctl_start
}

pg_stop() {
  if [ -n "$PG_DIR" ] && [ -f "$PG_DIR/data/postmaster.pid" ]; then
    _as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop > /dev/null 2>&1 || true
  fi
}

# sql 'STATEMENT': one value per line, fields separated by |, no headers.
sql() {
  "$PSQL" -X -A -t -q -v ON_ERROR_STOP=1 -d "$PG_URL" -c "$1"
}
