#!/bin/bash
# logs.sh ZKPIPE HTTP_CHECK — serve.log_format = json (host/serve/log_format.hpp): the cpu prover
# at log_level = debug on a unix socket and a loopback TCP port with a token; a proof (`zkpipe
# client prove`, verified), a job with a truncated witness (its failure logged with job and
# partition), a LoadKey of a path with a quote, a backslash and an é in it (the
# message comes back intact, escaped), a TCP call without the token (refused, logged), a SIGHUP
# and a SIGTERM. Then every line the server wrote parses as one JSON object (HTTP_CHECK's
# parser: protobuf's), with the fields the lines named.
set -uo pipefail
ZKPIPE=$1
CHECK=$2
source "$(dirname "$0")/../support/script_checks.sh"
source "$(dirname "$0")/serve_fixture.sh"

head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$TMP/token" && chmod 600 "$TMP/token"
cat > "$TMP/serve.ini" <<INI
prover = cpu
log_level = debug
[serve]
socket = $TMP/serve.sock
tcp = 127.0.0.1:0
token_file = $TMP/token
log_format = json
INI
start_serve "$TMP/serve.ini"
port=$(grep -o 'tcp:127.0.0.1:[0-9]*' "$TMP/server.log" | head -n 1 | cut -d: -f3)
[ -S "$TMP/serve.sock" ] && [ -n "$port" ] && ok "zkpipe serve (log_format = json) listens on the socket and tcp:127.0.0.1:$port" ||
  { bad "zkpipe serve did not start:"; cat "$TMP/server.log"; summary; exit 1; }
client() { "$ZKPIPE" client --socket "$TMP/serve.sock" "$@"; }

mkdir -p "$TMP/one"
client prove "$V/circuit.zkey" "$V/witness.wtns" --out "$TMP/one" > "$TMP/prove.log" 2>&1 &&
  "$ZKPIPE" verify "$V/vkey.json" "$TMP/one/public.json" "$TMP/one/proof.json" > /dev/null &&
  ok "a proof through the service verifies" || bad "prove: $(cat "$TMP/prove.log")"
head -c 100 "$V/witness.wtns" > "$TMP/short.wtns"
job=$(client submit "$V/circuit.zkey" "$TMP/short.wtns" 2>/dev/null)
client await "$job" > /dev/null 2>&1
[ -n "$job" ] && ok "a job with a truncated witness: job $job" || bad "submit of the truncated witness failed"
odd="$TMP/no \"such\" \\key é.zkey"
client load "$odd" > /dev/null 2>&1 && bad "LoadKey of a file that is not there succeeded" || ok "LoadKey of a path that is not there failed"
"$ZKPIPE" client --address "127.0.0.1:$port" health > /dev/null 2>&1 && bad "TCP without the token was served" ||
  ok "TCP without the token: refused"
# gRPC's own lines (here a bind failure: the port is taken) and the command's
# last words come out as JSON lines too (issue 39: they were raw text on the same stderr).
# A port held by a plain listener (gRPC's own listeners share ports through SO_REUSEPORT).
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
open(sys.argv[1], "w").write(str(s.getsockname()[1])); time.sleep(120)' "$TMP/held_port" &
holder=$!
for _ in $(seq 1200); do [ -s "$TMP/held_port" ] && break; sleep 0.05; done
"$ZKPIPE" serve --config "$TMP/serve.ini" serve.socket="$TMP/second.sock" serve.tcp="127.0.0.1:$(cat "$TMP/held_port")" \
  > /dev/null 2> "$TMP/second.log"; rc=$?
kill "$holder" 2>/dev/null
if [ $rc -ne 0 ] && python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
for line in lines: json.loads(line)
assert any("grpc:" in json.loads(l)["message"] for l in lines), "no line of gRPC"
assert "cannot listen" in json.loads(lines[-1])["message"]
' "$TMP/second.log"; then
  ok "a server on a taken port: exit $rc, all $(wc -l < "$TMP/second.log") stderr lines JSON, gRPC's among them"
else
  bad "a server on a taken port (exit $rc): $(cat "$TMP/second.log")"
fi
# No serve.key_dirs here: a TCP caller, token and all, may name no file (issue 36, item 1).
out=$("$ZKPIPE" client --address "127.0.0.1:$port" --token-file "$TMP/token" load "$V/circuit.zkey" 2>&1) &&
  bad "LoadKey over TCP without serve.key_dirs succeeded: $out" ||
  { grep -q "needs serve.key_dirs" <<< "$out" && ok "LoadKey over TCP without serve.key_dirs: refused ($out)" ||
      bad "LoadKey over TCP without serve.key_dirs: $out"; }
kill -HUP "$server"
for _ in $(seq 100); do grep -q "SIGHUP" "$TMP/server.log" && break; sleep 0.05; done
kill -TERM "$server"
for _ in $(seq 300); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$server" 2>/dev/null; then bad "SIGTERM: still running after 30 s"; kill -KILL "$server"; fi
wait "$server"; rc=$?
server=""
[ $rc -eq 0 ] && ok "SIGTERM: exit 0" || bad "SIGTERM: exit $rc"

if "$CHECK" - jsonlines "$TMP/server.log" job partition gpu_index key "~host ready" "~serve: listening on" \
     "~partition 0 failed" "~no \"such\" \\key é.zkey" "~refused Health" "~SIGHUP: reloaded" "~serve: stopped" \
     > "$TMP/check.log"; then
  ok "every line of the server's log is one JSON object: $(head -n 1 "$TMP/check.log" | cut -c6-); $(($(grep -c "^ok" "$TMP/check.log") - 1)) expected lines and fields found"
else
  bad "the JSON log:"; cat "$TMP/check.log"; head -n 20 "$TMP/server.log"
fi
grep -v '^ok ' "$TMP/check.log" | sed 's/^/      /'
summary
