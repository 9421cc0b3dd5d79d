# Sourced by the tests/serve scripts after tests/support/script_checks.sh: the committed
# vector they prove, a `zkpipe serve` started in the background and killed on exit whatever
# happens, and the wait for it to listen.
V=$ROOT/tests/vectors/data/many_public_bn128
server=""
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill -KILL "$server"; fi
  rm -rf "$TMP"
}
trap cleanup EXIT

# start_serve CONFIG: `$ZKPIPE serve --config CONFIG` with its log in $TMP/server.log; returns
# once it logs "listening on" or exits (at most 10 s); $server is its pid.
start_serve() {
  "$ZKPIPE" serve --config "$1" 2> "$TMP/server.log" &
  server=$!
  for _ in $(seq 200); do
    grep -q "listening on" "$TMP/server.log" && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.05
  done
}

# The HTTP address (HOST:PORT) the server logged, empty if none.
logged_http() { grep -o 'http:127.0.0.1:[0-9]*' "$TMP/server.log" | head -n 1 | cut -d: -f2-; }

# stop_serve: SIGTERM, at most 30 s for the drain; passes if the server exits 0. Then summary.
stop_serve() {
  kill -TERM "$server"
  for _ in $(seq 300); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$server" 2>/dev/null; then bad "SIGTERM: still running after 30 s"; kill -KILL "$server"; fi
  wait "$server"; local rc=$?
  server=""
  [ $rc -eq 0 ] && ok "SIGTERM: exit 0" || { bad "SIGTERM: exit $rc"; tail -n 20 "$TMP/server.log"; }
  summary
}

# start_http_serve: the cpu prover on $TMP/serve.sock with serve.http on a free loopback port;
# $http is its address. Exits the test if it does not come up.
start_http_serve() {
  cat > "$TMP/serve.ini" <<INI
prover = cpu
[serve]
socket = $TMP/serve.sock
http = 127.0.0.1:0
INI
  start_serve "$TMP/serve.ini"
  http=$(logged_http)
  if [ -n "$http" ]; then
    ok "zkpipe serve answers HTTP on $http"
  else
    bad "zkpipe serve did not start with serve.http:"; cat "$TMP/server.log"; summary; exit 1
  fi
}
