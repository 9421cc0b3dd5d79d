#!/bin/bash
# http.sh ZKPIPE CLIENT HTTP_CHECK — `zkpipe serve`'s HTTP endpoint (serve.http) with the cpu
# prover: three proofs through the gRPC API (one key load, two warm LoadKeys), then
#   /metrics parses as Prometheus text and its counters are what the client did: 3 partitions
#   and 3 jobs ok, 3 device-time and synthesis observations, 1 key load and 2 hits, no eviction;
#   every other status is there at 0 (cancelled, bad_input: snake_case, no label value with a
#   space), and so are the failed key loads and the refused calls;
#   /status parses as JSON with the same figures, the device (with its memory fields) and the key;
#   /healthz answers ok; an unknown path 404, POST 405, a request line that is not HTTP 400, a
#   request head over 8 KiB 431; the server still serves after each; ten idle connections do not
#   hold /healthz behind them; serve.http on "127.evil.example" is refused (a name is no address);
#   with serve.http_token_file the pages need the bearer token and /healthz does not; serve.http on a
#   non-loopback address is refused at start (exit 2); SIGTERM stops it (exit 0).
set -uo pipefail
ZKPIPE=$1
CLIENT=$2
CHECK=$3
source "$(dirname "$0")/../support/script_checks.sh"
source "$(dirname "$0")/serve_fixture.sh"

start_http_serve

for i in 1 2 3; do
  "$CLIENT" "unix:$TMP/serve.sock" prove "$V/circuit.zkey" "$V/witness.wtns" "$TMP/proof$i.json" "$TMP/public$i.json" \
    2>> "$TMP/client.log" || bad "prove $i: $(tail -n 3 "$TMP/client.log")"
done
"$ZKPIPE" verify "$V/vkey.json" "$TMP/public3.json" "$TMP/proof3.json" > /dev/null && ok "three proofs through the service, the last verified" ||
  bad "the service's proof does not verify"

if "$CHECK" "$http" metrics 'zkpipe_partitions_total{status="ok"}=3' 'zkpipe_jobs_total{status="ok"}=3' \
     'zkpipe_jobs_submitted_total=3' 'sum(zkpipe_gpu_duration_seconds_count)=3' 'zkpipe_synthesis_seconds_count=3' \
     'zkpipe_partition_seconds_count=3' 'zkpipe_key_loads_total=1' 'zkpipe_key_hits_total=2' 'zkpipe_keys_loaded=1' \
     'zkpipe_key_evictions_total=0' 'zkpipe_admission_stalls_total=0' 'zkpipe_up=1' \
     'zkpipe_devices_quarantined=0' 'zkpipe_device_restarts_total=0' \
     'sum(zkpipe_device_partitions_proved_total)=3' 'sum(zkpipe_queue_depth)=0' 'zkpipe_jobs_open=0' \
     'zkpipe_partitions_total{status="cancelled"}=0' 'zkpipe_partitions_total{status="bad_input"}=0' \
     'zkpipe_partitions_total{status="unsatisfied_witness"}=0' 'zkpipe_jobs_total{status="cancelled"}=0' \
     'zkpipe_key_load_failures_total=0' 'zkpipe_auth_refusals_total{reason="wrong_token"}=0' \
     'sum(zkpipe_auth_refusals_total)=0' > "$TMP/metrics.log"; then
  ok "/metrics: $(grep -c '^ok' "$TMP/metrics.log") checks (Prometheus text; counters match the 3 proofs)"
else
  bad "/metrics:"; grep -v '^ok' "$TMP/metrics.log"
fi
if "$CHECK" "$http" status 'serving=true' 'prover=cpu' 'simulated=false' 'pacer.name?' 'pacer.status?' \
     'pacer.interval_seconds?' 'partitions.by_status.ok=3' 'partitions.succeeded=3' 'jobs.by_status.ok=3' 'jobs.open=0' \
     'queue.waiting=0' 'budget.peak_bytes?' 'devices#=1' 'key_cache.loads=1' 'key_cache.hits=2' 'key_cache.evictions=0' \
     'keys#=1' 'durations.synthesis.count=3' 'recent_failures#=0' 'version?' 'devices_quarantined=0' 'device_restarts=0' \
     'partitions.by_status.cancelled=0' 'partitions.by_status.bad_input=0' 'jobs.by_status.unsatisfied_witness=0' \
     'key_cache.load_failures=0' 'auth_refusals.no_token=0' > "$TMP/status.log"; then
  ok "/status: $(grep -c '^ok' "$TMP/status.log") checks (JSON; the same figures, the device, the key)"
else
  bad "/status:"; grep -v '^ok' "$TMP/status.log"
fi

"$CHECK" "$http" raw $'GET /healthz HTTP/1.1\n\n' 200 > "$TMP/raw.log" && ok "/healthz: 200" || bad "/healthz: $(cat "$TMP/raw.log")"
"$CHECK" "$http" raw $'GET /nope HTTP/1.1\n\n' 404 > "$TMP/raw.log" && ok "an unknown path: 404" || bad "$(cat "$TMP/raw.log")"
"$CHECK" "$http" raw $'POST /metrics HTTP/1.1\nContent-Length: 0\n\n' 405 > "$TMP/raw.log" && ok "POST: 405" || bad "$(cat "$TMP/raw.log")"
"$CHECK" "$http" raw $'hello\n\n' 400 > "$TMP/raw.log" && ok "not HTTP: 400" || bad "$(cat "$TMP/raw.log")"
big=$(head -c 9000 /dev/zero | tr '\0' a)
"$CHECK" "$http" raw "GET /metrics HTTP/1.1"$'\n'"X-Big: $big"$'\n\n' 431 > "$TMP/raw.log" && ok "a 9000-byte head: 431" ||
  bad "$(cat "$TMP/raw.log")"
"$CHECK" "$http" raw $'GET /healthz?probe=1 HTTP/1.1\n\n' 200 > "$TMP/raw.log" && ok "still serving after those (query ignored)" ||
  bad "$(cat "$TMP/raw.log")"
# Ten idle connections, opened first and sending nothing, must not hold /healthz behind them
# (issue 36, item 4: served one at a time, each idle one held the endpoint for its 2 s read
# timeout). Decided by order, not by a clock: /healthz is answered before the idle connections
# get their 408s (a server serving one at a time answers it only after all ten 408s).
python3 - "$http" > "$TMP/idle.log" 2>&1 <<'PY'
import select, socket, sys
host, port = sys.argv[1].rsplit(":", 1)
idle = [socket.create_connection((host, int(port)), timeout=60) for _ in range(10)]
probe = socket.create_connection((host, int(port)), timeout=60)
probe.sendall(b"GET /healthz HTTP/1.1\r\n\r\n")
answer = b""
while b"\r\n\r\n" not in answer:
    chunk = probe.recv(4096)
    if not chunk:
        break
    answer += chunk
ready, _, _ = select.select(idle, [], [], 0)
status_line = answer.split(b"\r\n")[0].decode()
print("healthz: %s; idle connections already answered: %d of 10" % (status_line, len(ready)))
sys.exit(0 if answer.startswith(b"HTTP/1.1 200") and len(ready) < 10 else 1)
PY
[ $? -eq 0 ] && ok "/healthz with 10 idle connections open: $(cat "$TMP/idle.log")" || bad "idle connections: $(cat "$TMP/idle.log")"

out=$("$ZKPIPE" serve --config "$TMP/serve.ini" serve.socket="$TMP/other.sock" serve.http=0.0.0.0:9464 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "serve.http = '0.0.0.0:9464' is invalid: .*loopback only" &&
  ok "serve.http on a non-loopback address: refused (exit 2)" || bad "serve.http=0.0.0.0: exit $rc, $out"
# A name is no address (issue 36, item 10): "127.evil.example" was taken for loopback and resolved.
out=$("$ZKPIPE" serve --config "$TMP/serve.ini" serve.socket="$TMP/other.sock" serve.http=127.evil.example:9464 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "serve.http = '127.evil.example:9464' is invalid" <<< "$out" &&
  ok "serve.http on a name that starts with 127.: refused (exit 2), not resolved" || bad "serve.http=127.evil.example: exit $rc, $out"
# A socket folder that does not exist is said in words (issue 39), not as gRPC's "No address added".
out=$("$ZKPIPE" serve --config "$TMP/serve.ini" serve.socket="$TMP/missing/zkpipe.sock" serve.http= 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "the folder $TMP/missing does not exist" <<< "$out" &&
  ok "serve.socket in a missing folder: exit 1, $(tail -n 1 <<< "$out" | cut -c1-90)..." || bad "serve.socket in a missing folder: exit $rc, $out"

stop_serve

# serve.http_token_file (issue 36, item 10): /, /metrics and /status need the bearer token,
# /healthz stays open for health checks.
head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$TMP/http_token" && chmod 600 "$TMP/http_token"
printf 'prover = cpu\n[serve]\nsocket = %s\nhttp = 127.0.0.1:0\nhttp_token_file = %s\n' "$TMP/serve.sock" "$TMP/http_token" \
  > "$TMP/serve.ini"
start_serve "$TMP/serve.ini"
http=$(logged_http)
python3 - "$http" "$(cat "$TMP/http_token")" > "$TMP/token_pages.log" 2>&1 <<'PY'
import http.client, sys
host, port = sys.argv[1].rsplit(":", 1)
token = sys.argv[2]
cases = [("/healthz", None, 200), ("/metrics", None, 401), ("/status", "Bearer wrong", 401), ("/", "Basic " + token, 401),
         ("/metrics", "Bearer " + token, 200), ("/status", "Bearer " + token, 200), ("/", "Bearer " + token, 200)]
failed = 0
for path, auth, want in cases:
    c = http.client.HTTPConnection(host, int(port), timeout=60)
    c.request("GET", path, headers={"Authorization": auth} if auth else {})
    r = c.getresponse()
    r.read()
    challenge = r.getheader("WWW-Authenticate", "")
    good = r.status == want and (want != 401 or challenge.startswith("Bearer"))
    failed += not good
    print("%s %s -> %d%s" % (path, (auth or "no token").split(" ")[0], r.status, "" if good else " (expected %d)" % want))
sys.exit(1 if failed else 0)
PY
[ $? -eq 0 ] && ok "serve.http_token_file: $(tr '\n' ';' < "$TMP/token_pages.log")" || bad "serve.http_token_file: $(cat "$TMP/token_pages.log")"
grep -q "serve.http: refused GET /metrics: no Authorization header" "$TMP/server.log" && ok "a refused page is logged" ||
  bad "no log line for a refused page"
stop_serve
