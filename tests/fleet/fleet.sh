#!/bin/bash
# fleet.sh MODE ZKPIPE — a fleet of `zkpipe worker`s (cpu prover) on a private PostgreSQL
# server (pg_fixture.sh), the job store made by `zkpipe queue init`:
#   workers: one job of $FLEET_PARTITIONS (200) partitions of the committed many_public_bn128
#            vector and a small job of higher priority (one witness in the row, one malformed
#            witness) shared by three workers; w1 is SIGKILLed while it holds leases, w2
#            SIGSTOPped past its lease and resumed, w3 SIGKILLed and restarted at once with the
#            same id. Checks: the schema commands; every partition has exactly one result, the
#            malformed one a failure, the priority-5 job finished first; every proof verifies
#            (`zkpipe verify`) and its public.json is the vector's; w1's leases were reclaimed
#            within 2 lease periods of the kill; the restarted w3 requeued its old leases at
#            start; after SIGTERM every worker exits 0 and no lease is left open.
#   chaos:   a job of 40 partitions while a loop (5 rounds, 20 s at most) stops a random worker
#            (SIGKILL and a restart with the same id, SIGKILL and a replacement with a new id whose
#            predecessor's leases must expire, or SIGTERM, which must exit 0, and a restart) after
#            a random pause; then the same exactly-once and verify checks.
#   affinity: one worker with key A loaded prefers a newer job of key A to an older one of key B.
set -uo pipefail
MODE=$1
ZKPIPE=$2
source "$(dirname "$0")/../support/script_checks.sh"
source "$(dirname "$0")/pg_fixture.sh"
pg_skip_unless_installed

V=$ROOT/tests/vectors/data/many_public_bn128
LEASE_MS=2000
HEARTBEAT_MS=500
declare -A PID
cleanup() {
  for id in "${!PID[@]}"; do kill -KILL "${PID[$id]}" 2>/dev/null; done
  pg_stop
  rm -rf "$TMP"
}
trap cleanup EXIT

if ! pg_start; then
  bad "the PostgreSQL server did not start"; summary; exit 1
fi
ok "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on unix socket $PG_DIR/sock"

start_worker() {  # start_worker ID: one synthesis thread, one device worker, no self-check (check_job verifies)
  "$ZKPIPE" worker --queue "$PG_URL" --id "$1" --lease-ms $LEASE_MS --heartbeat-ms $HEARTBEAT_MS --poll-ms 100 \
    prover=cpu synthesis_threads=1 workers_per_device=1 self_check=false >> "$TMP/$1.log" 2>&1 &
  PID[$1]=$!
}
# wait_for SECONDS 'SQL returning a count': until it is > 0.
wait_for() {
  local deadline=$((SECONDS + $1))
  while [ $SECONDS -lt $deadline ]; do
    [ "$(sql "$2")" -gt 0 ] 2>/dev/null && return 0
    sleep 0.05
  done
  return 1
}
now() { sql "SELECT extract(epoch FROM clock_timestamp())"; }
held_by() { echo "SELECT count(*) FROM zkpipe.partitions WHERE state = 'leased' AND lease_worker = '$1'"; }

# Exactly once, verified: CHECK_JOB JOB N (expects N succeeded partitions, none failed).
check_job() {
  local job=$1 n=$2
  if "$ZKPIPE" jobs --queue "$PG_URL" "$job" --wait 90 --write "$TMP/proofs$job" > "$TMP/jobs$job.txt" 2> "$TMP/jobs$job.err"; then
    ok "job $job is done ($(sql "SELECT finished_at - created_at FROM zkpipe.jobs WHERE id = $job") from enqueue to its last result)"
  else
    bad "job $job did not finish:"; tail -n 5 "$TMP/jobs$job.err"; head -n 3 "$TMP/jobs$job.txt"
  fi
  local counts
  counts=$(sql "SELECT succeeded, failed, (SELECT count(*) FROM zkpipe.results r WHERE r.job_id = j.id AND r.status = 0),
                (SELECT count(*) FROM zkpipe.partitions p WHERE p.job_id = j.id AND p.state = 'done')
                FROM zkpipe.jobs j WHERE id = $job")
  [ "$counts" = "$n|0|$n|$n" ] && ok "job $job: $n partitions, each with exactly one result, all succeeded" ||
    bad "job $job: succeeded|failed|results|done = $counts, expected $n|0|$n|$n"
  local verified same=0 p
  # Two verifiers at a time (the machine's cores); one "ok" line per accepted proof.
  verified=$(find "$TMP/proofs$job" -name '*.proof.json' -print0 |
    xargs -0 -r -P 2 -I{} sh -c '"$0" verify "$1" "${2%.proof.json}.public.json" "$2" > /dev/null 2>&1 && echo ok' \
      "$ZKPIPE" "$V/vkey.json" {} | grep -c '^ok$')
  for p in "$TMP/proofs$job"/*.public.json; do
    cmp -s "$p" "$V/public.json" && same=$((same + 1))
  done
  [ $verified -eq "$n" ] && ok "zkpipe verify accepts all $n proofs of job $job" || bad "zkpipe verify accepted $verified of $n proofs of job $job"
  [ $same -eq "$n" ] && ok "every public.json of job $job is the vector's" || bad "$same of $n public.json files of job $job are the vector's"
}

# Stops every worker with SIGTERM; each must exit 0 with its summary line.
stop_workers() {
  local id status
  for id in "${!PID[@]}"; do kill -CONT "${PID[$id]}" 2>/dev/null; kill -TERM "${PID[$id]}" 2>/dev/null; done
  for id in "${!PID[@]}"; do
    wait "${PID[$id]}"; status=$?
    if [ $status -eq 0 ] && grep -q "zkpipe worker $id: claimed" "$TMP/$id.log"; then
      ok "$id: SIGTERM, exit 0: $(grep "zkpipe worker $id: claimed" "$TMP/$id.log" | tail -n 1 | cut -d: -f2-)"
    else
      bad "$id exited $status after SIGTERM:"; tail -n 5 "$TMP/$id.log"
    fi
    unset "PID[$id]"
  done
  local open
  open=$(sql "SELECT count(*) FROM zkpipe.leases WHERE ended_at IS NULL")
  [ "$open" = 0 ] && ok "no lease is left open" || bad "$open leases are still open after every worker stopped"
}

if ! "$ZKPIPE" jobs --queue "$PG_URL" > "$TMP/noschema.txt" 2>&1 && grep -q "queue init" "$TMP/noschema.txt"; then
  ok "before init, zkpipe jobs refuses: $(head -n 1 "$TMP/noschema.txt")"
else
  bad "zkpipe jobs on an empty database:"; cat "$TMP/noschema.txt"
fi
out=$("$ZKPIPE" queue init --queue "$PG_URL" 2>&1) && [ "$out" = "schema version 0 -> 1" ] && ok "queue init: $out" || bad "queue init: $out"
out=$("$ZKPIPE" queue init --queue "$PG_URL" 2>&1) && grep -q "already initialised" <<< "$out" && ok "queue init again: $out" || bad "queue init again: $out"
out=$("$ZKPIPE" queue migrate --queue "$PG_URL" 2>&1) && grep -q "up to date" <<< "$out" && ok "queue migrate: $out" || bad "queue migrate: $out"
[ "$(sql "SELECT version FROM zkpipe.schema_version")" = 1 ] && ok "zkpipe.schema_version holds version 1" || bad "schema_version: $(sql "SELECT * FROM zkpipe.schema_version")"

if [ "$MODE" = workers ]; then
  N=${FLEET_PARTITIONS:-200}
  witnesses=()
  for _ in $(seq "$N"); do witnesses+=("$V/witness.wtns"); done
  JOB=$("$ZKPIPE" enqueue --queue "$PG_URL" --key "$V/circuit.zkey" "${witnesses[@]}" 2> "$TMP/enqueue.err")
  [ -n "$JOB" ] && ok "enqueue: job $JOB of $N partitions (witness by path)" || { bad "enqueue failed: $(cat "$TMP/enqueue.err")"; summary; exit 1; }
  printf 'not a wtns file' > "$TMP/bad.wtns"
  SMALL=$("$ZKPIPE" enqueue --queue "$PG_URL" --key "$V/circuit.zkey" --priority 5 --inline-max 100000 "$V/witness.wtns" "$TMP/bad.wtns")
  [ "$(sql "SELECT count(*) FROM zkpipe.partitions WHERE job_id = $SMALL AND witness_bytes IS NOT NULL")" = 2 ] &&
    ok "enqueue --inline-max: job $SMALL (priority 5) carries its 2 witnesses in the rows" || bad "job $SMALL's witnesses are not in the rows"

  for id in w1 w2 w3; do start_worker $id; done

  # w1 is killed while it holds leases, after it has written some results.
  if wait_for 60 "SELECT count(*) FROM zkpipe.results WHERE worker = 'w1' HAVING count(*) >= 3" && wait_for 20 "$(held_by w1)"; then
    kill -KILL "${PID[w1]}"; t_kill=$(now); wait "${PID[w1]}" 2>/dev/null; unset "PID[w1]"
    w1_leases=$(sql "SELECT string_agg(id::text, ',') FROM zkpipe.leases WHERE worker = 'w1' AND ended_at IS NULL")
    ok "w1 SIGKILLed holding leases $w1_leases"
  else
    bad "w1 never wrote 3 results while holding a lease:"; tail -n 5 "$TMP/w1.log"; w1_leases=""
  fi
  # w2 is stopped past its lease (3 lease periods), then resumed.
  if wait_for 20 "$(held_by w2)"; then
    kill -STOP "${PID[w2]}"
    w2_leases=$(sql "SELECT string_agg(id::text, ',') FROM zkpipe.leases WHERE worker = 'w2' AND ended_at IS NULL")
    sleep $((3 * LEASE_MS / 1000))
    kill -CONT "${PID[w2]}"
    ok "w2 SIGSTOPped for 3 lease periods holding leases $w2_leases, then SIGCONT"
  else
    bad "w2 never held a lease"; w2_leases=""
  fi
  if [ -n "$w1_leases" ]; then
    # Every lease of the dead worker ended by expiry (another worker took the partition), within 2 lease periods.
    r=$(sql "SELECT count(*) FILTER (WHERE outcome = 'expired'), count(*),
             round(max(extract(epoch FROM ended_at) - $t_kill)::numeric, 2) FROM zkpipe.leases WHERE id IN ($w1_leases)")
    IFS='|' read -r expired total worst <<< "$r"
    if [ "$expired" = "$total" ] && awk -v w="$worst" -v l=$LEASE_MS 'BEGIN { exit !(w != "" && w * 1000 <= 2 * l) }'; then
      ok "w1's $total leases were reclaimed by others, the last $worst s after the kill (lease $((LEASE_MS / 1000)) s; limit 2 periods)"
    else
      bad "w1's leases: $expired of $total expired and reclaimed, the last $worst s after the kill (limit $((2 * LEASE_MS / 1000)) s)"
    fi
  fi
  if [ -n "$w2_leases" ]; then
    n_expired=$(sql "SELECT count(*) FROM zkpipe.leases WHERE id IN ($w2_leases) AND outcome = 'expired'")
    [ "$n_expired" -gt 0 ] && ok "w2's leases were reclaimed while it was stopped ($n_expired of them)" || bad "none of w2's leases was reclaimed while it was stopped"
  fi
  start_worker w1
  ok "w1 restarted with the same id"
  # w3 is killed and restarted at once: its old leases come back at its start, not at expiry.
  if wait_for 20 "$(held_by w3)"; then
    kill -KILL "${PID[w3]}"; wait "${PID[w3]}" 2>/dev/null
    w3_leases=$(sql "SELECT string_agg(id::text, ',') FROM zkpipe.leases WHERE worker = 'w3' AND ended_at IS NULL")
    start_worker w3
    if wait_for 20 "SELECT count(*) FROM zkpipe.leases WHERE id IN (${w3_leases:-0}) AND outcome = 'abandoned'"; then
      ok "w3 SIGKILLed and restarted: its leases ($w3_leases) requeued at its start ($(grep -o 'requeued [0-9]* leases' "$TMP/w3.log" | head -n 1))"
    else
      bad "the restarted w3 did not requeue its old leases ($w3_leases):"; tail -n 5 "$TMP/w3.log"
    fi
  else
    bad "w3 never held a lease"
  fi

  check_job "$JOB" "$N"
  "$ZKPIPE" jobs --queue "$PG_URL" "$SMALL" --wait 30 > "$TMP/small.txt" 2>&1
  r=$(sql "SELECT j.state, j.succeeded, j.failed, (SELECT status FROM zkpipe.results WHERE job_id = j.id AND idx = 1),
           (SELECT message FROM zkpipe.results WHERE job_id = j.id AND idx = 1) FROM zkpipe.jobs j WHERE id = $SMALL")
  IFS='|' read -r state s f st msg <<< "$r"
  [ "$state|$s|$f" = "done|1|1" ] && [ "$st" = 4 ] && ok "job $SMALL: the inline witness proved, the malformed one failed once, ZKP_ERR_BAD_INPUT: $msg" ||
    bad "job $SMALL: $r"
  # Priority across the fleet: job $SMALL, enqueued after job $JOB but at priority 5, was claimed
  # first, so it finished long before the 200 partitions of priority 0 (by id order it would be last).
  [ "$(sql "SELECT (SELECT finished_at FROM zkpipe.jobs WHERE id = $SMALL) < (SELECT finished_at FROM zkpipe.jobs WHERE id = $JOB)")" = t ] &&
    ok "priority: job $SMALL (priority 5, enqueued second) finished before job $JOB (priority 0)" ||
    bad "job $SMALL (priority 5) did not finish before job $JOB (priority 0)"
  echo "      dropped late results: $(sql "SELECT count(*) FROM zkpipe.dropped_results"); lease outcomes: $(sql "SELECT string_agg(outcome || ' ' || n, ', ') FROM (SELECT outcome, count(*) n FROM zkpipe.leases GROUP BY outcome ORDER BY outcome) t")"
  stop_workers
  summary
  exit
fi

if [ "$MODE" = chaos ]; then
  N=40
  witnesses=()
  for _ in $(seq $N); do witnesses+=("$V/witness.wtns"); done
  JOB=$("$ZKPIPE" enqueue --queue "$PG_URL" --key "$V/circuit.zkey" "${witnesses[@]}")
  for id in w1 w2 w3; do start_worker $id; done
  rounds=0; deadline=$((SECONDS + 20))
  while [ $rounds -lt 5 ] && [ $SECONDS -lt $deadline ] && [ "$(sql "SELECT state FROM zkpipe.jobs WHERE id = $JOB")" = open ]; do
    sleep "0.$((RANDOM % 9 + 1))"
    ids=("${!PID[@]}")
    victim=${ids[RANDOM % ${#ids[@]}]}
    rounds=$((rounds + 1))
    case $((RANDOM % 3)) in
      0) how="SIGKILL, restarted with the same id"; next=$victim; signal=KILL ;;
      1) how="SIGKILL, replaced by a new id (its leases must expire)"; next=${victim%%.*}.r$rounds; signal=KILL ;;
      2) how="SIGTERM (unstarted leases released), restarted"; next=$victim; signal=TERM ;;
    esac
    kill -$signal "${PID[$victim]}" 2>/dev/null; wait "${PID[$victim]}" 2>/dev/null; status=$?
    if [ $signal = TERM ] && [ $status -ne 0 ]; then bad "$victim exited $status after SIGTERM"; tail -n 5 "$TMP/$victim.log"; fi
    unset "PID[$victim]"
    sleep "0.$((RANDOM % 9))"
    start_worker "$next"
    echo "      round $rounds: $victim: $how; $(sql "SELECT succeeded FROM zkpipe.jobs WHERE id = $JOB") of $N done"
  done
  [ $rounds -gt 0 ] && ok "$rounds rounds of a worker stopped and restarted" || bad "the job finished before any kill"
  check_job "$JOB" $N
  echo "      dropped late results: $(sql "SELECT count(*) FROM zkpipe.dropped_results"); lease outcomes: $(sql "SELECT string_agg(outcome || ' ' || n, ', ') FROM (SELECT outcome, count(*) n FROM zkpipe.leases GROUP BY outcome ORDER BY outcome) t")"
  stop_workers
  summary
  exit
fi
if [ "$MODE" = affinity ]; then
  # One worker (4 slots) warms key A with a one-partition job; stopped, it then gets job Y of key
  # B (older) and job Z of key A (newer), both priority 0. Resumed, its first claim must be Z's:
  # the key it has loaded beats age. Then both jobs complete.
  B=$ROOT/tests/vectors/data/chain_bn128
  start_worker a1
  WARM=$("$ZKPIPE" enqueue --queue "$PG_URL" --key "$V/circuit.zkey" --wait 60 "$V/witness.wtns" 2>/dev/null)
  [ -n "$WARM" ] && ok "a1 proved job $WARM with key A (many_public_bn128): A is warm" || bad "the warm-up job failed"
  kill -STOP "${PID[a1]}"
  Y=$("$ZKPIPE" enqueue --queue "$PG_URL" --key "$B/circuit.zkey" "$B/witness.wtns" "$B/witness.wtns")
  Z=$("$ZKPIPE" enqueue --queue "$PG_URL" --key "$V/circuit.zkey" "$V/witness.wtns" "$V/witness.wtns" "$V/witness.wtns")
  kill -CONT "${PID[a1]}"
  "$ZKPIPE" jobs --queue "$PG_URL" "$Y" --wait 90 > /dev/null 2>&1
  "$ZKPIPE" jobs --queue "$PG_URL" "$Z" --wait 30 > /dev/null 2>&1
  # One claim is one statement: its leases share acquired_at (the transaction's now()). By age
  # alone the 4 slots would take Y's 2 partitions and 2 of Z's.
  first=$(sql "SELECT count(*) FILTER (WHERE job_id = $Z) || '|' || count(*) FILTER (WHERE job_id = $Y) FROM zkpipe.leases
               WHERE acquired_at = (SELECT min(acquired_at) FROM zkpipe.leases WHERE job_id IN ($Y, $Z))")
  [ "$first" = "3|1" ] && ok "affinity: a1's first claim (4 slots) took all 3 partitions of job $Z (warm key A) and 1 of the older job $Y (key B)" ||
    bad "affinity: a1's first claim took Z|Y = $first partitions (3|1 expected: job $Z has the warm key)"
  r=$(sql "SELECT string_agg(state || ' ' || succeeded, ',' ORDER BY id) FROM zkpipe.jobs WHERE id IN ($Y, $Z)")
  [ "$r" = "done 2,done 3" ] && ok "jobs $Y (key B) and $Z (key A) both completed: $r" || bad "jobs $Y and $Z: $r"
  stop_workers
  summary
  exit
fi
bad "unknown mode '$MODE'"
summary
