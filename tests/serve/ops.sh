#!/bin/bash
# ops.sh MODE ZKPIPE HTTP_CHECK — `zkpipe serve` as an operator runs it, driven by `zkpipe client`
# (the cpu prover, loopback, a temporary folder):
#   budget:  serve.key_budget = 1300000 B with keys of 323560 (A), 693912 (B) and 949440 (C) bytes:
#            A and B fit; A used again; loading C evicts B, the least recently used idle key (logged,
#            counted in /metrics), and `keys` lists A and C; with a 400-partition job in flight on A, loading B
#            evicts C, never A; a key of 1008552 B then fails naming serve.key_budget (A is in use);
#            a key larger than the budget fails at once; the job is cancelled (every partition
#            proved or cancelled); Submit and UnloadKey with the evicted C's id: NOT_FOUND (Submit says
#            it was evicted); /metrics counts it all.
#   signals: samples/serve/serve.ini (copied, its paths pointed at the folder), with
#            zkpipe-serve.service checked against it; SIGHUP re-reads the token file (old token
#            refused, new one served) and log_level; SIGTERM with a 64-partition job in flight:
#            every partition's outcome reaches `zkpipe client await` (ok or cancelled, none lost),
#            the log says what was drained, exit 0, the socket removed.
#   grace:   the sim prover at 3 s a partition, serve.grace = 200ms: SIGTERM with two partitions
#            on the device ends the server without waiting for them, exit 1 (a drain that
#            finished exits 0), the log says what was left on the device; the socket is removed.
#   grace_tls: as grace, with TLS: the private copy of serve.tls_key under $TMPDIR is removed on
#            the grace-time exit too (it used to stay behind: std::_Exit runs no destructor).
#   limits:  serve.max_waiting_calls = 6 with 20 Awaits opened on a long job: 14 refused with
#            RESOURCE_EXHAUSTED naming the key, the server's threads grow by at most 10 (6 and gRPC's
#            pollers), Health still answers, and every Await returns once the server stops; with
#            serve.request_budget = 1 MiB a 700 KB job is held, a second refused, and a third taken
#            once the first is cancelled.
#   stream:  serve.max_message = 1 MiB, serve.request_budget = 100 MiB: a 20-partition job of 1.2 MiB
#            goes by SubmitStream and its 20 proofs verify; a 60 MiB job raises the server's peak
#            RSS by at most 84 MiB (a unary Submit: +155) and reaches the prover intact (refused
#            there as zeros); a 120 MiB job is refused with RESOURCE_EXHAUSTED naming
#            serve.request_budget, the peak RSS up by at most 16 MiB: its bytes never came.
#   client:  `zkpipe client` by itself: prove (the proof verified), submit + await (3 partitions,
#            proofs written), status, health, keys, cancel of a finished job, a job with a truncated
#            witness (await exit 1; /status's recent_failures has it, message and all), unload, a usage error
#            (exit 2), and a server that is not there (exit 1, said so).
set -uo pipefail
MODE=$1
ZKPIPE=$2
CHECK=$3
source "$(dirname "$0")/../support/script_checks.sh"
D=$ROOT/tests/vectors/data
A=$D/many_public_bn128
server=""
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill -KILL "$server"; fi
  rm -rf "$TMP"
}
trap cleanup EXIT

# start CONFIG [key=value ...]: the server in the background, up when its log says it listens.
start() {
  "$ZKPIPE" serve --config "$@" 2> "$TMP/server.log" &
  server=$!
  for _ in $(seq 300); do
    grep -q "listening on" "$TMP/server.log" && return 0
    kill -0 "$server" 2>/dev/null || break
    sleep 0.05
  done
  bad "zkpipe serve did not start:"; cat "$TMP/server.log"; summary; exit 1
}
# stop: SIGTERM, then the exit status (30 s at most).
stop() {
  kill -TERM "$server"
  for _ in $(seq 300); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$server" 2>/dev/null; then bad "SIGTERM: still running after 30 s"; kill -KILL "$server"; fi
  wait "$server"; local rc=$?
  server=""
  return $rc
}
client() { "$ZKPIPE" client --socket "$TMP/serve.sock" "$@"; }
# witnesses N: N copies of A's witness, as arguments.
witnesses() { for _ in $(seq "$1"); do printf '%s ' "$A/witness.wtns"; done; }
http() { grep -o 'http:127.0.0.1:[0-9]*' "$TMP/server.log" | head -n 1 | cut -d: -f2-; }

if [ "$MODE" = budget ]; then
  printf 'prover = cpu\nworkers_per_device = 1\n[serve]\nsocket = %s\nhttp = 127.0.0.1:0\nkey_budget = 1300000\n' \
    "$TMP/serve.sock" > "$TMP/serve.ini"
  start "$TMP/serve.ini"
  a=$(client load "$A/circuit.zkey" 2>/dev/null); b=$(client load "$D/poseidon_bn128/circuit.zkey" 2>/dev/null)
  [ -n "$a" ] && [ -n "$b" ] && ok "A ($a) and B ($b) fit in 1300000 B" || bad "loading A and B: '$a' '$b'"
  [ "$(client load "$A/circuit.zkey" 2>/dev/null)" = "$a" ] && ok "A again: the same id, warm (A is now the more recently used)" ||
    bad "A again: a new id"
  c=$(client load "$D/chain_bn128/circuit.zkey" 2> "$TMP/load.log")
  [ -n "$c" ] && grep -q "key $b (.*poseidon_bn128/circuit.zkey, 693912 B) evicted" "$TMP/server.log" &&
    ok "C ($c) loaded; B evicted, logged: $(grep -o 'evicted, the least.*' "$TMP/server.log" | head -n 1)" ||
    bad "C: '$c' $(cat "$TMP/load.log")"
  keys=$(client keys | cut -d' ' -f1 | tr '\n' ' ')
  [ "$keys" = "$a $c " ] && ok "keys: A and C ($keys)" || bad "keys: '$keys', expected '$a $c '"

  job=$(client submit "$A/circuit.zkey" $(witnesses 400) 2>/dev/null)  # long enough to outlast the loads below
  b2=$(client load "$D/poseidon_bn128/circuit.zkey" 2> "$TMP/load.log")
  open=$(client status | grep -o '[0-9]* open')
  if [ -n "$b2" ] && grep -q "key $c (.*chain_bn128.*) evicted" "$TMP/server.log" && client keys | grep -q "^$a "; then
    ok "with job $job in flight on A ($open): B loaded again ($b2) by evicting C; A kept"
  else
    bad "B with a job on A: '$b2' $(cat "$TMP/load.log"); $(client keys)"
  fi
  out=$(client load "$D/poseidon_bls12381/circuit.zkey" 2>&1); rc=$?
  [ $rc -eq 1 ] && echo "$out" | grep -q "does not fit in serve.key_budget = 1300000 B: 323560 B are held by 1 key(s) with jobs in flight" &&
    ok "a 1008552-B key while A (in use) holds 323560 B: refused: ${out#*] }" || bad "the in-use refusal: exit $rc, $out"
  client keys | grep -q "^$a " && ok "A is still loaded (never evicted while in use)" || bad "A was evicted while in use"
  out=$(client load "$D/chain_bls12381/circuit.zkey" 2>&1); rc=$?
  [ $rc -eq 1 ] && echo "$out" | grep -q "needs 1335920 B, more than serve.key_budget = 1300000 B allows" &&
    ok "a key larger than the budget: refused at once" || bad "the oversized key: exit $rc, $out"
  client cancel "$job" && client await "$job" > "$TMP/await.log"
  ok_n=$(grep -c ': ok on device' "$TMP/await.log"); cancelled_n=$(grep -c ': cancelled' "$TMP/await.log")
  [ $((ok_n + cancelled_n)) -eq 400 ] && [ "$cancelled_n" -gt 0 ] && ok "job $job cancelled: $ok_n proved, $cancelled_n cancelled" ||
    bad "job $job: $ok_n ok + $cancelled_n cancelled (400, some cancelled, expected)"
  out=$(client submit --key-id "$c" "$A/witness.wtns" 2>&1); rc=$?
  [ $rc -eq 1 ] && echo "$out" | grep -q "\[5\] key $c was evicted (idle, least recently used) to keep within serve.key_budget; LoadKey it again" &&
    ok "Submit with the evicted C's id: NOT_FOUND, saying it was evicted" || bad "submit with an evicted id: exit $rc, $out"
  out=$("$ZKPIPE" client --socket "$TMP/serve.sock" unload "$c" 2>&1); rc=$?
  [ $rc -eq 1 ] && echo "$out" | grep -q "\[5\]" && ok "UnloadKey of the evicted C: NOT_FOUND" || bad "unload evicted: exit $rc, $out"
  if "$CHECK" "$(http)" metrics 'zkpipe_key_evictions_total=2' 'zkpipe_key_budget_refusals_total=2' 'zkpipe_key_loads_total=4' \
       'zkpipe_key_hits_total=2' 'zkpipe_keys_loaded=2' 'zkpipe_key_bytes=1017472' 'zkpipe_key_budget_bytes=1300000' \
       > "$TMP/metrics.log"; then
    ok "/metrics: 2 evictions, 2 refusals, 4 loads, 2 hits, 1017472 of 1300000 B"
  else
    bad "/metrics:"; grep -v '^ok' "$TMP/metrics.log"
  fi
  stop && ok "SIGTERM: exit 0" || bad "SIGTERM: exit $?"
  summary
  exit
fi

if [ "$MODE" = signals ]; then
  SAMPLE=$ROOT/samples/serve
  unit=$SAMPLE/zkpipe-serve.service
  grep -q '^ExecStart=.*zkpipe serve --config /etc/zkpipe/serve.ini$' "$unit" && grep -q '^ExecReload=/bin/kill -HUP \$MAINPID$' "$unit" &&
    grep -q '^KillSignal=SIGTERM$' "$unit" && grep -q '^RuntimeDirectory=zkpipe$' "$unit" &&
    grep -q '^socket = /run/zkpipe/zkpipe.sock$' "$SAMPLE/serve.ini" &&
    [ "$(sed -n 's/^TimeoutStopSec=//p' "$unit")" -gt "$(sed -n 's/^grace = \([0-9]*\)s$/\1/p' "$SAMPLE/serve.ini")" ] &&
    ok "zkpipe-serve.service runs serve.ini (ExecStart), reloads with SIGHUP, gives the drain longer than serve.grace" ||
    bad "zkpipe-serve.service and serve.ini disagree"
  head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$TMP/token" && chmod 600 "$TMP/token"
  cp "$TMP/token" "$TMP/old_token"
  sed -e "s|^socket = .*|socket = $TMP/serve.sock|" -e "s|^token_file = .*|token_file = $TMP/token|" \
      -e 's|^tcp = .*|tcp = 127.0.0.1:0|' -e 's|^http = .*|http = 127.0.0.1:0|' \
      -e "s|^key_dirs = .*|key_dirs = $ROOT/tests/vectors/data|" -e "s|^http_token_file = .*|http_token_file = $TMP/token|" \
      "$SAMPLE/serve.ini" > "$TMP/serve.ini"
  start "$TMP/serve.ini"
  ok "the sample configuration serves: $(grep -o 'listening on.*' "$TMP/server.log")"
  port=$(grep -o 'tcp:127.0.0.1:[0-9]*' "$TMP/server.log" | head -n 1 | cut -d: -f3)
  tcp() { "$ZKPIPE" client --address "127.0.0.1:$port" --token-file "$1" health 2>&1; }
  tcp "$TMP/token" > /dev/null && ok "TCP with the token: served" || bad "TCP with the token: $(tcp "$TMP/token")"

  head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$TMP/token"
  sed -i 's/^log_level = info$/log_level = debug/' "$TMP/serve.ini"
  kill -HUP "$server"
  for _ in $(seq 100); do grep -q "SIGHUP: reloaded" "$TMP/server.log" && break; sleep 0.05; done
  grep -q "SIGHUP: reloaded the HTTP endpoint's bearer token (from $TMP/token), the bearer token (from $TMP/token), log_level info -> debug" "$TMP/server.log" &&
    ok "SIGHUP: $(grep -o 'reloaded the HTTP.*' "$TMP/server.log")" || bad "SIGHUP: $(grep SIGHUP "$TMP/server.log")"
  out=$(tcp "$TMP/old_token"); [ $? -eq 1 ] && echo "$out" | grep -q "\[16\]" && ok "after SIGHUP the old token is refused" ||
    bad "the old token after SIGHUP: $out"
  tcp "$TMP/token" > /dev/null && ok "after SIGHUP the new token is served" || bad "the new token after SIGHUP: $(tcp "$TMP/token")"
  printf '[serve]\nnot_a_key = 1\n' >> "$TMP/serve.ini"
  kill -HUP "$server"
  for _ in $(seq 100); do grep -q "was not reloaded" "$TMP/server.log" && break; sleep 0.05; done
  grep -q "SIGHUP: the configuration was not reloaded, nothing changed: .*not_a_key" "$TMP/server.log" && kill -0 "$server" &&
    ok "SIGHUP with a broken configuration: logged, nothing changed, still serving" || bad "SIGHUP with a broken configuration"
  # Keys read only at the start (issue 39): a reload names each of them, loudly, and applies the rest.
  sed -i -e '/^not_a_key = 1$/d' -e 's/^key_budget = .*/key_budget = 9GiB/' -e 's/^log_level = debug$/log_level = info/' \
    -e '1i workers_per_device = 3' "$TMP/serve.ini"
  kill -HUP "$server"
  for _ in $(seq 1200); do grep -q "NOT applied" "$TMP/server.log" && break; sleep 0.05; done
  line=$(grep "NOT applied" "$TMP/server.log")
  grep -q "log_level debug -> info" <<< "$line" && grep -q "each takes a restart: serve.key_budget, workers_per_device (the running values stay)" <<< "$line" &&
    kill -0 "$server" && ok "SIGHUP with start-only keys changed: $(grep -o 'reloaded.*' <<< "$line")" ||
    bad "SIGHUP with start-only keys changed: $(grep SIGHUP "$TMP/server.log" | tail -n 2)"

  job=$(client submit "$A/circuit.zkey" $(witnesses 64) 2>/dev/null)
  client await "$job" > "$TMP/await.log" 2>&1 &
  awaiting=$!
  # A Prove waiting behind it when SIGTERM comes is cancelled by the shutdown, and says so
  # (UNAVAILABLE, "shutting down": worth a retry elsewhere), not as a Cancel would (issue 39).
  client prove "$A/circuit.zkey" "$A/witness.wtns" --out "$TMP/late" > "$TMP/late_prove.log" 2>&1 &
  proving=$!
  for _ in $(seq 200); do grep -q ': ok on device' "$TMP/await.log" && break; sleep 0.05; done
  # The SIGTERM only once the Prove's job is in the server (its LoadKey, or the Prove itself,
  # refused on arrival would be another check; a loaded machine made it that once).
  for _ in $(seq 1200); do client status 2>/dev/null | grep -q "^jobs: 2 submitted" && break; sleep 0.05; done
  stop; rc=$?
  wait $awaiting
  wait $proving
  grep -q "Prove: \[14\] zkpipe serve is shutting down" "$TMP/late_prove.log" &&
    ok "a Prove cancelled by the shutdown says so: $(cat "$TMP/late_prove.log")" ||
    bad "the Prove cancelled by SIGTERM: $(cat "$TMP/late_prove.log")"
  ok_n=$(grep -c ': ok on device' "$TMP/await.log"); cancelled_n=$(grep -c ': cancelled' "$TMP/await.log")
  [ $rc -eq 0 ] && ok "SIGTERM with job $job in flight: exit 0" || { bad "SIGTERM: exit $rc"; tail -n 5 "$TMP/server.log"; }
  [ $((ok_n + cancelled_n)) -eq 64 ] && [ "$ok_n" -gt 0 ] &&
    ok "every partition's outcome reached await: $ok_n proved, $cancelled_n cancelled, none lost" ||
    bad "await got $ok_n ok + $cancelled_n cancelled of 64: $(tail -n 3 "$TMP/await.log")"
  grep -q "serve: draining (queued work cancelled): .* on a device; up to 30000 ms to finish" "$TMP/server.log" && ok "the log: $(grep -o 'draining.*' "$TMP/server.log")" ||
    bad "no drain line in the log"
  [ ! -e "$TMP/serve.sock" ] && ok "the socket file is removed" || bad "the socket file is left behind"
  summary
  exit
fi

if [ "$MODE" = limits ]; then
  # serve.max_waiting_calls (issue 36, item 9): each open Await holds a server thread; 20 of them
  # on a server allowing 6: the rest are refused with RESOURCE_EXHAUSTED [8], naming the key, and
  # the server's threads grow by the 6 and gRPC's pollers at most (before: a thread per stream).
  printf 'prover = sim\nprover.gpu_ms = 600000\nworkers_per_device = 1\n[serve]\nsocket = %s\nmax_waiting_calls = 6\ngrace = 100ms\nmax_message = 1MiB\nrequest_budget = 1MiB\n' \
    "$TMP/serve.sock" > "$TMP/serve.ini"
  start "$TMP/serve.ini"
  job=$(client submit "$A/circuit.zkey" "$A/witness.wtns" 2> "$TMP/submit.log")
  [ -n "$job" ] || bad "submit: $(cat "$TMP/submit.log")"
  before=$(ls "/proc/$server/task" | wc -l)
  for i in $(seq 20); do (client await "$job" > "$TMP/await$i.log" 2>&1; echo "exit $?" >> "$TMP/await$i.log") & done
  refused=0
  for _ in $(seq 1200); do
    refused=$(cat "$TMP"/await*.log 2>/dev/null | grep -c "Await: \[8\] .*serve.max_waiting_calls")
    [ "$refused" -ge 14 ] && break
    sleep 0.05
  done
  during=$(ls "/proc/$server/task" | wc -l)
  [ "$refused" -eq 14 ] && [ $((during - before)) -le 10 ] &&
    ok "20 Awaits on a server of max_waiting_calls 6: 14 refused with RESOURCE_EXHAUSTED, its threads $before -> $during" ||
    bad "20 Awaits, max_waiting_calls 6: $refused refused, threads $before -> $during"
  client health > /dev/null && ok "Health still answers with 6 Awaits open" || bad "Health with the Awaits open: $(client health 2>&1)"
  # serve.request_budget (issue 36, item 8): the witnesses of open jobs are counted until each
  # job ends. 1 MiB here: a 700 KB job is held (queued behind the first), a second is refused
  # with RESOURCE_EXHAUSTED naming the key; once the first is cancelled, a third is taken.
  head -c 700000 /dev/zero > "$TMP/700k.wtns"
  j2=$(client submit "$A/circuit.zkey" "$TMP/700k.wtns" 2>&1) && ok "a 700 KB job within serve.request_budget: job $j2" ||
    bad "the first 700 KB job: $j2"
  out=$(client submit "$A/circuit.zkey" "$TMP/700k.wtns" 2>&1); rc=$?
  [ $rc -eq 1 ] && grep -q "\[8\] .*serve.request_budget" <<< "$out" && ok "a second one past serve.request_budget: refused ($out)" ||
    bad "the second 700 KB job: exit $rc, $out"
  client cancel "$j2" > /dev/null 2>&1
  j3=""
  for _ in $(seq 600); do j3=$(client submit "$A/circuit.zkey" "$TMP/700k.wtns" 2>/dev/null) && break; sleep 0.05; done
  [ -n "$j3" ] && ok "after the first was cancelled, its bytes came back: job $j3 taken" || bad "no room after the cancel"
  kill -TERM "$server"; wait "$server"; server=""  # the grace time passes: exit 1, the open Awaits dropped
  for _ in $(seq 600); do
    [ "$(grep -l '^exit ' "$TMP"/await*.log 2>/dev/null | wc -l)" -eq 20 ] && break
    sleep 0.05
  done
  [ "$(grep -l '^exit ' "$TMP"/await*.log 2>/dev/null | wc -l)" -eq 20 ] && ok "every Await returned once the server stopped" ||
    bad "Awaits still running after the server stopped"
  summary
  exit
fi

if [ "$MODE" = grace ]; then
  printf 'prover = sim\nprover.gpu_ms = 3000\n[serve]\nsocket = %s\ngrace = 200ms\n' "$TMP/serve.sock" > "$TMP/serve.ini"
  start "$TMP/serve.ini"
  job=$(client submit "$A/circuit.zkey" $(witnesses 2) 2>/dev/null)
  for _ in $(seq 100); do client status | grep -q ", 2 proving;" && break; sleep 0.05; done
  start_ns=$(date +%s%N)
  stop; rc=$?
  took_ms=$(( ($(date +%s%N) - start_ns) / 1000000 ))
  # Exit 1 is the proof it did not wait for the device (a finished drain exits 0); the time is shown, not checked.
  [ $rc -eq 1 ] && ok "SIGTERM with job $job's 2 partitions on the device: exit 1 after $took_ms ms (grace 200 ms)" ||
    bad "SIGTERM past the grace time: exit $rc after $took_ms ms"
  grep -q "serve.grace (200 ms) passed with 2 partition(s) still on a device; exiting without them" "$TMP/server.log" &&
    ok "the log: $(grep -o 'serve.grace (200 ms) passed.*' "$TMP/server.log")" || bad "no grace line: $(tail -n 3 "$TMP/server.log")"
  [ ! -e "$TMP/serve.sock" ] && ok "the socket file is removed" || bad "the socket file is left behind"
  summary
  exit
fi

if [ "$MODE" = grace_tls ]; then
  # serve.tls_key's private copy lives in a folder of serve's own under $TMPDIR; the grace-time
  # exit (std::_Exit) runs no destructor, and used to leave the key there (issue 36). A sim
  # partition of 10 minutes is still on the device at SIGTERM, whatever the machine's speed.
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj "/CN=zkpipe grace test" \
    -addext "subjectAltName=IP:127.0.0.1" -keyout "$TMP/server.key" -out "$TMP/server.pem" 2> "$TMP/openssl.log" ||
    { bad "openssl could not make a certificate: $(cat "$TMP/openssl.log")"; summary; exit 1; }
  head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$TMP/token" && chmod 600 "$TMP/token"
  mkdir -p "$TMP/tmpdir"
  printf 'prover = sim\nprover.gpu_ms = 600000\n[serve]\nsocket = %s\ntcp = 127.0.0.1:0\ntoken_file = %s\ntls_cert = %s\ntls_key = %s\ngrace = 100ms\n' \
    "$TMP/serve.sock" "$TMP/token" "$TMP/server.pem" "$TMP/server.key" > "$TMP/serve.ini"
  TMPDIR="$TMP/tmpdir" start "$TMP/serve.ini"
  copies() { find "$TMP/tmpdir" -name key.pem | wc -l; }
  [ "$(copies)" -ge 1 ] && ok "the TLS key's private copy is in \$TMPDIR while serving: $(find "$TMP/tmpdir" -name key.pem | head -n 1)" ||
    bad "no private copy of the TLS key under \$TMPDIR ($TMP/tmpdir): $(find "$TMP/tmpdir")"
  job=$(client submit "$A/circuit.zkey" "$A/witness.wtns" 2>/dev/null)
  proving=0
  for _ in $(seq 1200); do client status | grep -q ", 1 proving;" && { proving=1; break; }; sleep 0.05; done
  [ $proving -eq 1 ] && ok "job $job's partition is on the device" || bad "job $job never reached the device: $(client status)"
  stop; rc=$?
  [ $rc -eq 1 ] && grep -q "serve.grace (100 ms) passed with 1 partition(s) still on a device" "$TMP/server.log" &&
    ok "SIGTERM: the grace-time exit (exit 1)" || bad "SIGTERM: exit $rc, $(tail -n 3 "$TMP/server.log")"
  [ -z "$(ls -A "$TMP/tmpdir")" ] && ok "the TLS key's private copy is removed: \$TMPDIR is empty" ||
    bad "left in \$TMPDIR after the grace-time exit: $(ls -lA "$TMP/tmpdir")"
  summary
  exit
fi

if [ "$MODE" = stream ]; then
  # SubmitStream (issue 36, item 8): jobs of more than 1 MiB of witnesses go in 256 KiB pieces,
  # their sizes counted in serve.request_budget before any byte arrives. Here serve.max_message
  # is 1 MiB, which a unary Submit of any of these jobs would pass.
  printf 'prover = cpu\nworkers_per_device = 1\n[serve]\nsocket = %s\nmax_message = 1MiB\nrequest_budget = 100MiB\n' \
    "$TMP/serve.sock" > "$TMP/serve.ini"
  start "$TMP/serve.ini"
  hwm() { awk '/^VmHWM:/ { print int($2 / 1024) }' "/proc/$server/status"; }
  C=$D/chain_bn128
  mkdir -p "$TMP/twenty"
  client prove "$C/circuit.zkey" $(for _ in $(seq 20); do printf '%s ' "$C/witness.wtns"; done) --out "$TMP/twenty" \
    > "$TMP/prove.log" 2>&1; rc=$?
  verified=0
  for i in $(seq 0 19); do
    "$ZKPIPE" verify "$C/vkey.json" "$TMP/twenty/public_$i.json" "$TMP/twenty/proof_$i.json" > /dev/null 2>&1 && verified=$((verified + 1))
  done
  [ $rc -eq 0 ] && [ $verified -eq 20 ] &&
    ok "20 partitions of $(stat -c %s "$C/witness.wtns") B (1.2 MiB, past max_message) proved through SubmitStream: 20 proofs verified" ||
    bad "20 partitions through SubmitStream: exit $rc, $verified verified, $(tail -n 3 "$TMP/prove.log")"
  # 60 MiB: the server's peak RSS grows by the witness and a few pieces, not the 155 MiB a
  # unary Submit of it cost (receive buffer, parsed message and a copy; docs/RELIABILITY.md).
  head -c $((60 << 20)) /dev/zero > "$TMP/60m.wtns"
  before=$(hwm)
  job=$(client submit "$C/circuit.zkey" "$TMP/60m.wtns" 2> "$TMP/submit.log")
  after=$(hwm)
  if grep -qa __asan_init "$ZKPIPE"; then
    # AddressSanitizer's quarantine keeps every freed piece resident for a while: the bound
    # measures the server, not the sanitizer, so it is checked on a build without one.
    [ -n "$job" ] && ok "a 60 MiB job taken (job $job); peak RSS not bounded under AddressSanitizer (+$((after - before)) MiB with its quarantine)" ||
      bad "the 60 MiB job: '$job' $(cat "$TMP/submit.log")"
  else
    [ -n "$job" ] && [ $((after - before)) -le 84 ] &&
      ok "a 60 MiB job taken (job $job); the server's peak RSS $before -> $after MiB (+$((after - before)), at most 60 + 24)" ||
      bad "the 60 MiB job: '$job' $(cat "$TMP/submit.log"); peak RSS $before -> $after MiB"
  fi
  out=$(client await "$job" 2>&1); rc=$?
  [ $rc -eq 1 ] && grep -q "partition 0: bad input: .*wrong magic" <<< "$out" &&
    ok "its zeros reached the prover, refused there: $out" || bad "await of the 60 MiB job: exit $rc, $out"
  # 120 MiB, past the budget: refused from its sizes, before its bytes arrive.
  head -c $((120 << 20)) /dev/zero > "$TMP/120m.wtns"
  before=$(hwm)
  out=$(client submit "$C/circuit.zkey" "$TMP/120m.wtns" 2>&1); rc=$?
  after=$(hwm)
  [ $rc -eq 1 ] && grep -q "SubmitStream: \[8\] .*serve.request_budget" <<< "$out" && [ $((after - before)) -le 16 ] &&
    ok "a 120 MiB job past serve.request_budget refused before its bytes came: peak RSS +$((after - before)) MiB ($out)" ||
    bad "the 120 MiB job: exit $rc, $out; peak RSS $before -> $after MiB"
  client health > /dev/null && ok "Health answers after the refusal" || bad "Health after the refusal: $(client health 2>&1)"
  stop; rc=$?
  [ $rc -eq 0 ] && ok "SIGTERM: exit 0" || bad "SIGTERM: exit $rc"
  summary
  exit
fi

# client
printf 'prover = cpu\n[serve]\nsocket = %s\nhttp = 127.0.0.1:0\n' "$TMP/serve.sock" > "$TMP/serve.ini"
start "$TMP/serve.ini"
mkdir -p "$TMP/one" "$TMP/three"
client prove "$A/circuit.zkey" "$A/witness.wtns" --out "$TMP/one" > "$TMP/prove.log" &&
  "$ZKPIPE" verify "$A/vkey.json" "$TMP/one/public.json" "$TMP/one/proof.json" > /dev/null &&
  ok "prove: $(cat "$TMP/prove.log"); zkpipe verify accepts it" || bad "prove: $(cat "$TMP/prove.log")"
job=$(client submit "$A/circuit.zkey" $(witnesses 3) 2>/dev/null)
client await "$job" --out "$TMP/three" > "$TMP/await.log"; rc=$?
verified=0
for i in 0 1 2; do
  "$ZKPIPE" verify "$A/vkey.json" "$TMP/three/public_$i.json" "$TMP/three/proof_$i.json" > /dev/null 2>&1 && verified=$((verified + 1))
done
[ $rc -eq 0 ] && [ "$(grep -c ': ok on device' "$TMP/await.log")" -eq 3 ] && [ $verified -eq 3 ] &&
  ok "submit ($job) + await: 3 lines, 3 proofs verified" || bad "submit + await: rc $rc, $verified verified, $(cat "$TMP/await.log")"
client status > "$TMP/status.log" && grep -q "jobs: 2 submitted, 2 finished, 0 open; partitions: 4 succeeded" "$TMP/status.log" &&
  ok "status: $(sed -n 2p "$TMP/status.log")" || bad "status: $(cat "$TMP/status.log")"
client health | grep -q "^serving yes" && ok "health: serving" || bad "health"
key=$(client keys | cut -d' ' -f1)
[ "$(client keys | wc -l)" -eq 1 ] && client keys | grep -q "many_public_bn128/circuit.zkey bn128 .* jobs=2$" &&
  ok "keys: $(client keys)" || bad "keys: $(client keys)"
out=$(client cancel "$job" 2>&1); rc=$?
[ $rc -eq 0 ] || { echo "$out" | grep -q "\[5\]"; } && ok "cancel of a finished job: exit $rc ${out:+($out)}" || bad "cancel: $out"
head -c 100 "$A/witness.wtns" > "$TMP/short.wtns"
bad_job=$(client submit "$A/circuit.zkey" "$TMP/short.wtns" 2>/dev/null)
client await "$bad_job" > "$TMP/bad.log"; rc=$?
[ $rc -eq 1 ] && grep -q "^job $bad_job partition 0: .*: .*" "$TMP/bad.log" && ! grep -q ": ok on device" "$TMP/bad.log" &&
  ok "await of a job with a truncated witness: exit 1, $(cat "$TMP/bad.log")" || bad "await of the bad job: exit $rc, $(cat "$TMP/bad.log")"
if "$CHECK" "$(http)" status 'recent_failures#=1' "recent_failures.0.job_id=$bad_job" 'recent_failures.0.partition=0' \
     'recent_failures.0.message?' 'recent_failures.0.unix_ms?' 'partitions.failed=1' > "$TMP/status.log"; then
  ok "/status lists the failure (job $bad_job, partition 0, with its message)"
else
  bad "/status recent_failures:"; grep -v '^ok' "$TMP/status.log"
fi
client unload "$key" && [ -z "$(client keys)" ] && ok "unload $key: no keys left" || bad "unload $key"
"$ZKPIPE" client --socket "$TMP/serve.sock" frobnicate > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && ok "an unknown command: exit 2" || bad "an unknown command: exit $rc"
out=$("$ZKPIPE" client --socket "$TMP/nothing.sock" --connect-timeout 1 health 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "no zkpipe serve answers on unix:$TMP/nothing.sock" && ok "no server: exit 1, $out" ||
  bad "no server: exit $rc, $out"
stop && ok "SIGTERM: exit 0" || bad "SIGTERM: exit $?"
summary
