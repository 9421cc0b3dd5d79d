#!/bin/bash
# queue.sh ZKPIPE — Enqueue and JobStatus of `zkpipe serve` into the fleet's job store: a private
# PostgreSQL server (tests/fleet/pg_fixture.sh; exit 77, a skip, without its binaries), the store
# made by `zkpipe queue init`, `zkpipe serve` (cpu prover) with serve.queue_url, driven by
# `zkpipe client`. Checks: Enqueue of 3 partitions (2 witnesses as bytes, 1 by path) returns the
# store's id, and JobStatus says not done, none leased before any worker runs; a key path that is
# no file is NOT_FOUND, an unknown job NOT_FOUND, and the server keeps serving; then one `zkpipe
# worker` proves the job: JobStatus --wait says done, 3 succeeded, and each of the 3 proofs it
# returns verifies (`zkpipe verify`); a server without serve.queue_url answers FAILED_PRECONDITION;
# SIGTERM exits 0.
set -uo pipefail
ZKPIPE=$1
source "$(dirname "$0")/../support/script_checks.sh"
source "$(dirname "$0")/../fleet/pg_fixture.sh"
pg_skip_unless_installed
V=$ROOT/tests/vectors/data/many_public_bn128
server=""
worker=""
cleanup() {
  for p in "$server" "$worker"; do [ -n "$p" ] && kill -KILL "$p" 2>/dev/null; done
  pg_stop
  rm -rf "$TMP"
}
trap cleanup EXIT

pg_start || { bad "the PostgreSQL server did not start"; summary; exit 1; }
out=$("$ZKPIPE" queue init --queue "$PG_URL" 2>&1) && ok "queue init: $out" || { bad "queue init: $out"; summary; exit 1; }

# start_serve [key=value ...]: on $TMP/serve.sock, up when it logs that it listens.
start_serve() {
  "$ZKPIPE" serve prover=cpu serve.socket="$TMP/serve.sock" "$@" 2> "$TMP/server.log" &
  server=$!
  for _ in $(seq 200); do
    grep -q "listening on" "$TMP/server.log" && return 0
    kill -0 "$server" 2>/dev/null || break
    sleep 0.05
  done
  bad "zkpipe serve did not start:"; cat "$TMP/server.log"; summary; exit 1
}
stop_serve() {
  kill -TERM "$server"
  for _ in $(seq 300); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$server" 2>/dev/null; then kill -KILL "$server"; fi
  wait "$server"; local rc=$?
  server=""
  return $rc
}
client() { "$ZKPIPE" client --socket "$TMP/serve.sock" "$@"; }

start_serve serve.queue_url="$PG_URL" serve.key_dirs="$ROOT/tests/vectors/data:$TMP"
ok "zkpipe serve with serve.queue_url is up"
# The workers open Enqueue's paths: a caller may name only what serve.key_dirs holds (issue 36).
out=$(client enqueue /etc/passwd "$V/witness.wtns" 2>&1); rc=$?
out2=$(client enqueue --paths "$V/circuit.zkey" /etc/passwd 2>&1); rc2=$?
[ $rc -eq 1 ] && [ $rc2 -eq 1 ] && grep -q "key path '/etc/passwd' is not inside serve.key_dirs" <<< "$out" &&
  grep -q "witness path '/etc/passwd' is not inside serve.key_dirs" <<< "$out2" &&
  ok "Enqueue of a key or witness path outside serve.key_dirs: refused, nothing enqueued" ||
  bad "Enqueue outside serve.key_dirs: exit $rc/$rc2, $out / $out2"
job=$(client enqueue "$V/circuit.zkey" "$V/witness.wtns" "$V/witness.wtns" 2> "$TMP/enqueue.log")
cp "$V/witness.wtns" "$TMP/by_path.wtns"
job2=$(client enqueue --paths "$V/circuit.zkey" "$TMP/by_path.wtns" 2>> "$TMP/enqueue.log")
[ -n "$job" ] && [ -n "$job2" ] && ok "Enqueue: jobs $job (2 witnesses as bytes) and $job2 (1 by path)" ||
  bad "Enqueue: $(cat "$TMP/enqueue.log")"
out=$(client job-status "$job" 2>&1)
[ "$out" = "job $job: not done, 2 partition(s): 0 succeeded, 0 failed, 0 leased; priority 0" ] &&
  ok "JobStatus before any worker: $out" || bad "JobStatus before any worker: $out"
out=$(client enqueue "$TMP/nothing.zkey" "$V/witness.wtns" 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "\[5\]" <<< "$out" && grep -q "nothing.zkey" <<< "$out" &&
  ok "Enqueue of a key that is no file: NOT_FOUND ($out)" || bad "Enqueue of a missing key: exit $rc, $out"
out=$(client job-status 987654 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "\[5\]" <<< "$out" && ok "JobStatus of an unknown job: NOT_FOUND" || bad "JobStatus of an unknown job: exit $rc, $out"
client health > /dev/null && ok "the server is still serving" || bad "the server stopped serving"

"$ZKPIPE" worker --queue "$PG_URL" --id s1 --poll-ms 100 prover=cpu synthesis_threads=1 workers_per_device=1 \
  > "$TMP/worker.log" 2>&1 &
worker=$!
mkdir -p "$TMP/out" "$TMP/out2"
out=$(client job-status "$job" --wait 60 --out "$TMP/out" 2>&1); rc=$?
out2=$(client job-status "$job2" --wait 60 --out "$TMP/out2" 2>&1); rc2=$?
[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && grep -q "^job $job: done, 2 partition(s): 2 succeeded, 0 failed" <<< "$out" &&
  grep -q "^job $job2: done, 1 partition(s): 1 succeeded" <<< "$out2" &&
  ok "JobStatus --wait after a worker ran: $(head -n 1 <<< "$out"); $(head -n 1 <<< "$out2")" ||
  { bad "JobStatus --wait: exit $rc/$rc2, $out $out2"; tail -n 5 "$TMP/worker.log"; }
verified=0
for p in "$TMP/out/proof_0.json" "$TMP/out/proof_1.json" "$TMP/out2/proof.json"; do
  [ -e "$p" ] && "$ZKPIPE" verify "$V/vkey.json" "${p/proof/public}" "$p" > /dev/null 2>&1 && verified=$((verified + 1))
done
[ $verified -eq 3 ] && ok "zkpipe verify accepts the 3 proofs JobStatus returned" || bad "zkpipe verify accepted $verified of 3"
kill -TERM "$worker"; wait "$worker"; worker=""
stop_serve && ok "SIGTERM: exit 0" || bad "SIGTERM: exit $?"

start_serve
out=$(client enqueue "$V/circuit.zkey" "$V/witness.wtns" 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "\[9\].*serve.queue_url" <<< "$out" && ok "without serve.queue_url: FAILED_PRECONDITION, naming it" ||
  bad "Enqueue without serve.queue_url: exit $rc, $out"
stop_serve || bad "SIGTERM: exit $?"
summary
