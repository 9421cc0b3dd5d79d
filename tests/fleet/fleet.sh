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
#            Then a worker with --key-idle-ms 800 unloads key B after 0.8 s unused (logged and
#            counted), and loads it again for the next job of B.
#   outage:  two workers share 40 partitions; the PostgreSQL server is stopped (immediate: every
#            connection dropped) while they hold leases and started again 3 s (1.5 lease
#            periods) later. Checks: both workers are still running and reconnected, every
#            partition has exactly one result and every proof verifies, SIGTERM exits 0; an
#            `enqueue --wait` of a second job, waiting as the server stopped, exits 0 after it.
#   sizing:  a worker whose memory budget fits one partition of the key (8 slots) never holds
#            more than 3 leases at once (1 waiting per device worker, 1 in the budget, and 1 that
#            has left the budget but whose result is not written yet), while a second worker
#            takes the rest; every partition completes once.
#   deadline: worker h1's prover hangs forever on its first partition (the `faulty` test prover
#            around the cpu one), and h1 has --attempt-deadline-ms 1500: it stops renewing what
#            is stuck, and worker h2 reclaims and proves it after the lease runs out. Checks:
#            every partition has exactly one result and proof that verifies, h1's first lease
#            ended 'expired', h1 logged the deadline, and h2 proved the hung partition.
#   poison:  a partition whose prover crashes every worker that takes it (the `faulty` prover
#            aborts the process on device 1; the partition's job has gpu_index 1, the other job
#            gpu_index 0) and --max-attempts 3; two workers with one slot each, restarted with the
#            same id whenever they die (a supervisor's job). Checks: the partition fails after
#            exactly 3 crashes, written by the store ('zkpipe', ZKP_ERR_DEVICE) with the history
#            of its 3 attempts (`zkpipe jobs --attempts`: 3 leases, each abandoned or expired);
#            the other job's 8 partitions complete once and verify; nothing crashes afterwards;
#            `zkpipe queue config` sets the store's default cap, which an enqueue then takes.
#            Then a host-local failure: worker g1's one device fails every proof (ZKP_ERR_DEVICE);
#            it gives both partitions of a job back to the queue (outcome 'returned', the error in
#            the lease), and the healthy g2 proves them.
#   statuses: the store's failures as distinct exit codes of the CLI (host/queue/queue_options.hpp):
#            no server at the address, and a worker whose server stays away past --reconnect-ms,
#            exit 75 [database unavailable]; a role that may not log in and an unknown database
#            exit 77 [database refused the connection]; a schema newer than this zkpipe, and a
#            database without one, exit 78 [schema version]; a URL that does not parse exits 2.
#   store:   the store's lease rules by statement (store_test.cpp: a claim passes over the
#            caller's own expired leases, two results for a partition in one batch, the claim
#            order from two bounded index scans), then an idle worker with a 600 s poll period
#            stops at SIGTERM at once.
#   roles:   docs/FLEET.md's set-up SQL, as written there (between its fleet.roles marker and the
#            block's end), run by psql as the server's superuser; then `queue init` as
#            zkpipe_admin, a job enqueued as zkpipe_client, proved by a worker as zkpipe_worker and
#            read back as zkpipe_client (exactly once, verified). The two other roles cannot
#            change the schema: init as zkpipe_client and a DROP TABLE as zkpipe_worker are refused.
#   monitor: a worker with --http on a loopback port (0: chosen, read from its log) proves a job;
#            then /healthz is 200 "ok", /metrics has serve's families (zkpipe_partitions_total,
#            zkpipe_up, zkpipe_keys_loaded) and the worker's (claims, results written, the
#            database up) with the job's counts, /status the same as JSON. The server is stopped:
#            /healthz turns 503 "database unavailable"; started again: 200, one reconnect counted.
#            A non-loopback --http is refused (exit 2); SIGTERM exits 0.
#   unit:    samples/fleet/zkpipe-worker@.service: its ExecStart, with the installed paths made
#            this build's and samples/fleet/worker.ini (prover=cpu added: no GPU here), runs a
#            worker (ZKPIPE_QUEUE from the environment, as its EnvironmentFile gives it) that
#            proves a job, logs JSON lines (log_format = json) and answers /healthz on its port;
#            SIGTERM exits 0. Its RestartPreventExitStatus holds every exit code `zkpipe worker
#            --help` lists except 0 (a requested stop) and the transient 1 and 75.
#   capi:    migrations 2 to 4 on a store taken back to version 1; then the C API (zkp_queue.h) by a C program (queue_capi_test.c, its checks listed there)
#            with one worker (c1, --curves bn254) started once its jobs are in; then the
#            refused enqueues wrote nothing, its proofs verify, the constrained jobs B (gpu_index
#            3) and C (curve bls12_381) were never claimed by c1, and a second worker c2 that
#            declares both curves claims and proves C while B, which no host here satisfies,
#            stays queued. In between, the server is restarted under the C program's open
#            handle, which must work again on its next call (as must c1, which reconnects).
set -uo pipefail
MODE=$1
ZKPIPE=$2
CAPI_TEST=${3:-}
TEST_PLUGIN_DIR=${4:-}  # where the host tests' `faulty` prover is (mode deadline)
CPU_PROVER=${5:-}       # libzkp_prover_cpu.so, which it wraps
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

start_worker() {  # start_worker ID [ARGS, after the defaults, so they win]: one synthesis thread, one device worker, no self-check (check_job verifies)
  "$ZKPIPE" worker --queue "$PG_URL" --id "$1" --lease-ms $LEASE_MS --heartbeat-ms $HEARTBEAT_MS --poll-ms 100 \
    prover=cpu synthesis_threads=1 workers_per_device=1 self_check=false "${@:2}" >> "$TMP/$1.log" 2>&1 &
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
# http_body URL: the body of a GET that answers 200 (a worker's --http pages); fails otherwise.
http_body() { python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' "$1"; }
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
out=$("$ZKPIPE" queue init --queue "$PG_URL" 2>&1) && [ "$out" = "schema version 0 -> 4" ] && ok "queue init: $out" || bad "queue init: $out"
out=$("$ZKPIPE" queue init --queue "$PG_URL" 2>&1) && grep -q "already initialised" <<< "$out" && ok "queue init again: $out" || bad "queue init again: $out"
out=$("$ZKPIPE" queue migrate --queue "$PG_URL" 2>&1) && grep -q "up to date" <<< "$out" && ok "queue migrate: $out" || bad "queue migrate: $out"
[ "$(sql "SELECT string_agg(version::text, ',' ORDER BY version) FROM zkpipe.schema_version")" = 1,2,3,4 ] &&
  ok "zkpipe.schema_version holds versions 1 to 4" || bad "schema_version: $(sql "SELECT * FROM zkpipe.schema_version")"

if [ "$MODE" = store ]; then
  # The store's lease rules, statement by statement (store_test.cpp, gtest; expiry by SQL, not
  # by waiting), then an idle worker's SIGTERM.
  if ZKPIPE_TEST_PG_URL=$PG_URL "$STORE_TEST" > "$TMP/store_test.log" 2>&1; then
    ok "store_test: $(grep -c '^\[       OK \]' "$TMP/store_test.log") tests passed ($(grep -o 'StoreTest\.[A-Za-z]*' "$TMP/store_test.log" | sort -u | tr '\n' ' '))"
  else
    bad "store_test failed:"; tail -n 40 "$TMP/store_test.log"
  fi
  # An idle worker waits for work on the database socket for --poll-ms; SIGTERM must end that
  # wait at once, not after the poll period (600 s here: a pass cannot be luck).
  sql "TRUNCATE zkpipe.jobs CASCADE"
  "$ZKPIPE" worker --queue "$PG_URL" --id idle --poll-ms 600000 prover=cpu synthesis_threads=1 workers_per_device=1 \
    >> "$TMP/idle.log" 2>&1 &
  PID[idle]=$!
  # Its first claim has returned (its connection idle after the claim statement): from there it
  # goes to the idle wait, where a SIGTERM that only set a flag would wait out the 600 s.
  wait_for 60 "SELECT count(*) FROM pg_stat_activity WHERE state = 'idle' AND query LIKE 'WITH first_rows%'" ||
    bad "the idle worker made no claim within 60 s"
  kill -TERM "${PID[idle]}"
  deadline=$((SECONDS + 60))
  while kill -0 "${PID[idle]}" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.05; done
  if kill -0 "${PID[idle]}" 2>/dev/null; then
    bad "an idle worker with --poll-ms 600000 still runs 60 s after SIGTERM"
  else
    wait "${PID[idle]}"; status=$?
    [ $status -eq 0 ] && ok "an idle worker with --poll-ms 600000 exits 0 at SIGTERM, without waiting out its poll" ||
      { bad "the idle worker exited $status after SIGTERM:"; tail -n 5 "$TMP/idle.log"; }
    unset "PID[idle]"
  fi
  summary
  exit
fi

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
  # On a loaded machine w3 may have proved the rest of job $JOB while w2 was stopped, so this
  # step brings work of its own to hold.
  more=()
  for _ in $(seq 40); do more+=("$V/witness.wtns"); done
  JOB3=$("$ZKPIPE" enqueue --queue "$PG_URL" --key "$V/circuit.zkey" "${more[@]}" 2> "$TMP/enqueue3.err")
  [ -n "$JOB3" ] && ok "enqueue: job $JOB3 of 40 partitions for w3's kill and restart" || bad "enqueue failed: $(cat "$TMP/enqueue3.err")"
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
  [ -n "${JOB3:-}" ] && check_job "$JOB3" 40
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
  # Cold keys: a worker with --key-idle-ms 800 unloads key B once no partition has used it for
  # 0.8 s, and loads it again for the next job of B.
  start_worker a2 --key-idle-ms 800
  "$ZKPIPE" enqueue --queue "$PG_URL" --key "$B/circuit.zkey" --wait 60 "$B/witness.wtns" > /dev/null 2>&1 ||
    bad "a2's first job of key B failed"
  deadline=$((SECONDS + 15))
  until grep -q "key $B/circuit.zkey unloaded: unused for over 800 ms" "$TMP/a2.log" || [ $SECONDS -ge $deadline ]; do sleep 0.1; done
  grep -q "key $B/circuit.zkey unloaded" "$TMP/a2.log" && ok "a2 unloaded key B after 0.8 s unused" ||
    { bad "a2 did not unload key B:"; tail -n 3 "$TMP/a2.log"; }
  if "$ZKPIPE" enqueue --queue "$PG_URL" --key "$B/circuit.zkey" --wait 60 "$B/witness.wtns" > /dev/null 2>&1; then
    ok "a2 loaded key B again and proved the next job of B"
  else
    bad "the job of key B after the unload failed"
  fi
  kill -TERM "${PID[a2]}"; wait "${PID[a2]}"; status=$?; unset "PID[a2]"
  r=$(grep -o "keys unloaded [0-9]*" "$TMP/a2.log" | tail -n 1)
  [ $status -eq 0 ] && [ "${r##* }" -ge 1 ] 2>/dev/null && ok "a2: SIGTERM, exit 0, $r" || bad "a2 exited $status, '$r'"
  summary
  exit
fi
if [ "$MODE" = outage ]; then
  N=40
  witnesses=()
  for _ in $(seq $N); do witnesses+=("$V/witness.wtns"); done
  JOB=$("$ZKPIPE" enqueue --queue "$PG_URL" --key "$V/circuit.zkey" "${witnesses[@]}")
  # A client waiting on a job of its own (behind the first, in FIFO order) across the restart:
  # `enqueue --wait` must ride it out and exit 0 once the fleet has proved the job (issue 39).
  "$ZKPIPE" enqueue --queue "$PG_URL" --key "$V/circuit.zkey" --wait 120 "$V/witness.wtns" "$V/witness.wtns" \
    > "$TMP/waiter.out" 2> "$TMP/waiter.err" &
  waiter=$!
  for id in o1 o2; do start_worker $id; done
  if wait_for 60 "SELECT count(*) FROM zkpipe.results HAVING count(*) >= 4" &&
     wait_for 20 "SELECT count(*) FROM zkpipe.partitions WHERE state = 'leased'"; then
    held=$(sql "SELECT count(*) FROM zkpipe.partitions WHERE state = 'leased'")
    done_before=$(sql "SELECT count(*) FROM zkpipe.results")
    kill -0 $waiter 2>/dev/null && ok "enqueue --wait is waiting on job $(head -n 1 "$TMP/waiter.out") as the server stops" ||
      bad "enqueue --wait was not waiting when the server stopped: $(cat "$TMP/waiter.err")"
    if pg_restart_after 3; then
      ok "PostgreSQL stopped (immediate) with $held partitions leased and $done_before results written, started again 3 s later"
    else
      bad "PostgreSQL did not start again"; summary; exit 1
    fi
  else
    bad "the workers never held leases after 4 results"
  fi
  check_job "$JOB" $N
  wait $waiter; rc=$?
  [ $rc -eq 0 ] && grep -q "2 of 2 partitions succeeded" "$TMP/waiter.err" &&
    ok "enqueue --wait rode out the restart: exit 0, $(tail -n 1 "$TMP/waiter.err")" ||
    bad "enqueue --wait across the restart: exit $rc, $(cat "$TMP/waiter.err")"
  for id in o1 o2; do
    if kill -0 "${PID[$id]}" 2>/dev/null && grep -q "reconnected to the queue database after" "$TMP/$id.log"; then
      ok "$id survived the outage: $(grep -o 'reconnected to the queue database after [0-9]* ms' "$TMP/$id.log" | head -n 1)"
    else
      bad "$id did not survive the outage:"; tail -n 5 "$TMP/$id.log"
    fi
  done
  echo "      dropped late results: $(sql "SELECT count(*) FROM zkpipe.dropped_results"); lease outcomes: $(sql "SELECT string_agg(outcome || ' ' || n, ', ') FROM (SELECT outcome, count(*) n FROM zkpipe.leases GROUP BY outcome ORDER BY outcome) t")"
  stop_workers
  summary
  exit
fi

if [ "$MODE" = sizing ]; then
  N=16
  witnesses=()
  for _ in $(seq $N); do witnesses+=("$V/witness.wtns"); done
  # The key's synthesis_bytes: what a host with a 1-byte budget says when it refuses the key.
  bytes=$("$ZKPIPE" run --partitions 1 --key "$V/circuit.zkey" prover=cpu budget=1 2>&1 |
          grep -o 'one partition needs [0-9]* bytes' | head -n 1 | grep -o '[0-9][0-9]*')
  if [ -z "$bytes" ]; then bad "could not read the key's synthesis bytes"; summary; exit 1; fi
  JOB=$("$ZKPIPE" enqueue --queue "$PG_URL" --key "$V/circuit.zkey" "${witnesses[@]}")
  start_worker s1 --slots 8 budget=$((bytes * 3 / 2))
  start_worker s2
  check_job "$JOB" $N
  # The most leases s1 held at once: at each of its claims, its leases acquired by then and not yet ended.
  most=$(sql "SELECT max((SELECT count(*) FROM zkpipe.leases b WHERE b.worker = 's1' AND b.acquired_at <= a.acquired_at
                                  AND coalesce(b.ended_at, 'infinity') > a.acquired_at)) FROM zkpipe.leases a WHERE a.worker = 's1'")
  n1=$(sql "SELECT count(*) FROM zkpipe.results WHERE worker = 's1'")
  # 4 at most: 1 waiting for its device worker, 1 in the budget, and the finished ones whose
  # results are not committed yet, which the writer can commit two at a time (docs/FLEET.md).
  # Without the budget's sizing, 8 slots would hold up to 8.
  [ "${most:-99}" -le 4 ] && [ "$n1" -gt 0 ] &&
    ok "s1 (budget $((bytes * 3 / 2)) B: 1 partition of $bytes B; 8 slots) held $most leases at most and proved $n1 partitions; s2 proved $((N - n1))" ||
    bad "s1 (budget for 1 partition, 8 slots) held ${most:-?} leases at once (4 at most expected) and proved $n1"
  stop_workers
  summary
  exit
fi

if [ "$MODE" = deadline ]; then
  N=6
  witnesses=()
  for _ in $(seq $N); do witnesses+=("$V/witness.wtns"); done
  start_worker h1 --slots 2 --attempt-deadline-ms 1500 prover=faulty plugin_path="$TEST_PLUGIN_DIR" \
    prover.inner="$CPU_PROVER" prover.devices=1 prover.fault=hang_finish prover.fault_at=1 prover.hang_ms=0
  JOB=$("$ZKPIPE" enqueue --queue "$PG_URL" --key "$V/circuit.zkey" "${witnesses[@]}")
  if wait_for 30 "$(held_by h1)"; then
    first=$(sql "SELECT min(id) FROM zkpipe.leases WHERE worker = 'h1'")
    ok "h1 (its prover hangs on its first partition) holds lease $first"
  else
    bad "h1 never claimed:"; tail -n 5 "$TMP/h1.log"; first=0
  fi
  start_worker h2
  check_job "$JOB" $N
  r=$(sql "SELECT l.outcome || ' ' || coalesce(r.worker, '-') FROM zkpipe.leases l LEFT JOIN zkpipe.results r USING (job_id, idx) WHERE l.id = $first")
  [ "$r" = "expired h2" ] && ok "h1's hung lease $first expired and h2 wrote that partition's result" || bad "h1's first lease: outcome, writer = $r"
  if grep -q "is no longer renewed" "$TMP/h1.log"; then
    ok "h1: $(grep -o 'partition [0-9]* has been in the host for over [0-9]* ms' "$TMP/h1.log" | head -n 1)"
  else
    bad "h1 did not log the attempt deadline:"; tail -n 5 "$TMP/h1.log"
  fi
  # h1's device is hung for good: it cannot finish a SIGTERM; it is killed (its leases expire).
  [ -n "${FLEET_DEBUG:-}" ] && cat "$TMP/h1.log"
  kill -KILL "${PID[h1]}"; wait "${PID[h1]}" 2>/dev/null; unset "PID[h1]"
  stop_workers
  summary
  exit
fi

if [ "$MODE" = poison ]; then
  ulimit -c 0  # the crashes are on purpose: no core files
  out=$("$ZKPIPE" queue config --queue "$PG_URL" 2>&1)
  [ "$out" = "max_attempts 5" ] && ok "queue config: the store's default is $out" || bad "queue config: $out"
  out=$("$ZKPIPE" queue config --queue "$PG_URL" --max-attempts 4 2>&1)
  [ "$out" = "max_attempts 4" ] && ok "queue config --max-attempts 4: $out" || bad "queue config --max-attempts 4: $out"
  N=8
  witnesses=()
  for _ in $(seq $N); do witnesses+=("$V/witness.wtns"); done
  P=$("$ZKPIPE" enqueue --queue "$PG_URL" --key "$V/circuit.zkey" --gpu-index 1 --max-attempts 3 "$V/witness.wtns")
  Q=$("$ZKPIPE" enqueue --queue "$PG_URL" --key "$V/circuit.zkey" --gpu-index 0 "${witnesses[@]}")
  r=$(sql "SELECT string_agg(max_attempts::text, ',' ORDER BY id) FROM zkpipe.jobs WHERE id IN ($P, $Q)")
  [ "$r" = "3,4" ] && ok "job $P takes its --max-attempts 3, job $Q the store's default 4" || bad "max_attempts of P, Q: $r"
  poison_worker() {  # two virtual devices on the one cpu; the first partition started on device 1 aborts the process
    start_worker "$1" --slots 1 prover=faulty plugin_path="$TEST_PLUGIN_DIR" prover.inner="$CPU_PROVER" \
      prover.devices=2 prover.fault=abort prover.fault_device=1 prover.fault_at=1
  }
  poison_worker p1
  poison_worker p2
  crashes=0; deadline=$((SECONDS + 90))
  # The supervisor: a worker that died is restarted with its id (which requeues its leases).
  # A worker that cannot start at all would be restarted forever: 10 deaths end the loop.
  while [ $SECONDS -lt $deadline ] && [ $crashes -le 10 ] &&
    [ "$(sql "SELECT count(*) FROM zkpipe.jobs WHERE id IN ($P, $Q) AND state = 'done'")" != 2 ]; do
    for id in p1 p2; do
      if ! kill -0 "${PID[$id]}" 2>/dev/null; then
        wait "${PID[$id]}" 2>/dev/null
        crashes=$((crashes + 1))
        poison_worker "$id"
      fi
    done
    sleep 0.1
  done
  check_job "$Q" $N
  r=$(sql "SELECT p.state || '|' || p.lost_attempts || '|' || r.worker || '|' || r.status FROM zkpipe.partitions p
           JOIN zkpipe.results r USING (job_id, idx) WHERE p.job_id = $P")
  [ "$r" = "failed|3|zkpipe|7" ] && ok "job $P's partition failed after 3 lost attempts, written by the store with ZKP_ERR_DEVICE" ||
    bad "job $P's partition: state|lost_attempts|writer|status = $r"
  [ $crashes -eq 3 ] && ok "the workers crashed exactly 3 times, all on job $P's partition" || bad "the workers crashed $crashes times, expected 3"
  r=$(sql "SELECT count(*) FROM zkpipe.leases WHERE job_id = $P AND outcome IN ('abandoned', 'expired') AND worker IN ('p1', 'p2')")
  [ "$r" = 3 ] && ok "job $P: 3 leases, each lost (abandoned or expired)" || bad "job $P: $r lost leases, expected 3"
  msg=$(sql "SELECT message FROM zkpipe.results WHERE job_id = $P")
  if grep -q "given up after 3 lost attempts (max_attempts 3)" <<< "$msg" && [ "$(grep -o 'p[12] [0-9:.]*\.\.[0-9:.]* \(abandoned\|expired\)' <<< "$msg" | wc -l)" = 3 ]; then
    ok "the result's message holds the history: $msg"
  else
    bad "the result's message: $msg"
  fi
  "$ZKPIPE" jobs --queue "$PG_URL" "$P" --attempts > "$TMP/attempts.txt" 2>&1
  r=$(grep -cE '^0 +[0-9]+ +p[12] .* (abandoned|expired)$' "$TMP/attempts.txt")
  [ "$r" = 3 ] && ok "zkpipe jobs $P --attempts lists the 3 attempts (worker, start, end, outcome)" ||
    { bad "zkpipe jobs $P --attempts lists $r lost attempts:"; cat "$TMP/attempts.txt"; }
  [ -n "${FLEET_DEBUG:-}" ] && cat "$TMP/attempts.txt" "$TMP/p1.log"
  stop_workers
  # A host-local failure: g1's only device fails every proof with ZKP_ERR_DEVICE. g1 gives each
  # partition back to the queue (a lost attempt, the error kept in the lease) instead of
  # failing it, and the healthy g2, started once both were given back, proves them.
  start_worker g1 prover=faulty plugin_path="$TEST_PLUGIN_DIR" prover.inner="$CPU_PROVER" prover.devices=1 \
    prover.fault=device_error prover.fault_probability=1
  G=$("$ZKPIPE" enqueue --queue "$PG_URL" --key "$V/circuit.zkey" "$V/witness.wtns" "$V/witness.wtns")
  if wait_for 30 "SELECT (count(DISTINCT idx) = 2)::int FROM zkpipe.leases WHERE job_id = $G AND outcome = 'returned'"; then
    ok "g1 gave both partitions of job $G back: $(sql "SELECT message FROM zkpipe.leases WHERE job_id = $G AND outcome = 'returned' LIMIT 1")"
  else
    bad "g1 did not give job $G's partitions back:"; tail -n 3 "$TMP/g1.log"
  fi
  start_worker g2
  check_job "$G" 2
  r=$(sql "SELECT count(*) FROM zkpipe.leases WHERE job_id = $G AND outcome = 'returned' AND worker = 'g1' AND message LIKE 'device error: %'")
  r2=$(sql "SELECT string_agg(DISTINCT worker, ',') FROM zkpipe.results WHERE job_id = $G")
  [ "$r" -ge 2 ] && [ "$r2" = g2 ] && ok "job $G: $r leases returned by g1 with the device's error, both results written by g2" ||
    bad "job $G: $r returned leases, results by '$r2'"
  stop_workers
  grep -q "given back [1-9]" "$TMP/g1.log" && ok "g1 counted its give-backs: $(grep -o 'given back [0-9]*' "$TMP/g1.log" | tail -n 1)" ||
    bad "g1's summary: $(grep 'zkpipe worker g1: claimed' "$TMP/g1.log")"
  summary
  exit
fi

if [ "$MODE" = statuses ]; then
  # expect_exit CODE WORDS WHAT -- COMMAND...: the command exits CODE and its stderr holds WORDS.
  expect_exit() {
    local code=$1 words=$2 what=$3 status
    shift 4
    "$@" > "$TMP/out.txt" 2> "$TMP/err.txt"; status=$?
    if [ $status -eq "$code" ] && grep -qF -- "$words" "$TMP/err.txt"; then
      ok "$what: exit $code, $(head -n 1 "$TMP/err.txt")"
    else
      bad "$what: exit $status (expected $code with '$words'):"; head -n 3 "$TMP/err.txt"
    fi
  }
  expect_exit 75 "[database unavailable]" "no server at the address" -- \
    "$ZKPIPE" jobs --queue "postgresql://zkpipe@/postgres?host=$TMP/no-server-here"
  sql "CREATE ROLE zkpipe_nologin NOLOGIN"
  expect_exit 77 "[database refused the connection]" "a role that may not log in" -- \
    "$ZKPIPE" jobs --queue "${PG_URL/zkpipe@/zkpipe_nologin@}"
  expect_exit 77 "does not exist [database refused the connection]" "a database that does not exist" -- \
    "$ZKPIPE" enqueue --queue "${PG_URL/\/postgres\?/\/zkpipe_no_such_db?}" --key "$V/circuit.zkey" "$V/witness.wtns"
  expect_exit 2 "does not parse" "a URL that does not parse" -- "$ZKPIPE" jobs --queue "postgresql://zkpipe@/postgres?nosuchoption=1"
  expect_exit 78 'queue init --queue URL` [schema version]' "a database without the schema" -- \
    "$ZKPIPE" jobs --queue "${PG_URL/\/postgres\?/\/template1?}"
  sql "INSERT INTO zkpipe.schema_version (version, description) VALUES (99, 'from a newer zkpipe')"
  expect_exit 78 "upgrade zkpipe [schema version]" "a schema newer than this zkpipe (jobs)" -- "$ZKPIPE" jobs --queue "$PG_URL"
  expect_exit 78 "upgrade zkpipe [schema version]" "a schema newer than this zkpipe (queue migrate)" -- \
    "$ZKPIPE" queue migrate --queue "$PG_URL"
  sql "DELETE FROM zkpipe.schema_version WHERE version = 99"
  # A worker whose database goes away for longer than --reconnect-ms exits 75.
  start_worker s1 --reconnect-ms 1500
  deadline=$((SECONDS + 30))
  until grep -q "worker s1: [0-9]* slots" "$TMP/s1.log" 2>/dev/null || [ $SECONDS -ge $deadline ]; do sleep 0.05; done
  if grep -q "worker s1: [0-9]* slots" "$TMP/s1.log"; then
    pg_stop
    stopped=$SECONDS
    wait "${PID[s1]}"; status=$?; unset "PID[s1]"
    if [ $status -eq 75 ] && grep -q "stayed unreachable for 1500 ms.*\[database unavailable\]" "$TMP/s1.log"; then
      ok "s1 exited 75 $((SECONDS - stopped)) s after the server stopped: $(grep -o 'stayed unreachable for 1500 ms' "$TMP/s1.log")"
    else
      bad "s1 exited $status after the server stopped:"; tail -n 3 "$TMP/s1.log"
    fi
    expect_exit 75 "[database unavailable]" "enqueue while the server is down" -- \
      "$ZKPIPE" enqueue --queue "$PG_URL" --key "$V/circuit.zkey" "$V/witness.wtns"
  else
    bad "s1 never listened for work:"; tail -n 3 "$TMP/s1.log"
  fi
  summary
  exit
fi

if [ "$MODE" = roles ]; then
  # The block as the document has it: a change there is a change here.
  awk '/<!-- fleet.roles: the set-up SQL -->/ { on = 1; next } on && /^```sql/ { inside = 1; next }
       inside && /^```/ { exit } inside { print }' "$ROOT/docs/FLEET.md" > "$TMP/roles.sql"
  if [ -s "$TMP/roles.sql" ] && "$PSQL" -X -q -v ON_ERROR_STOP=1 -d "$PG_URL" -f "$TMP/roles.sql" > "$TMP/roles.log" 2>&1; then
    ok "docs/FLEET.md's set-up SQL ($(grep -c . "$TMP/roles.sql") lines) ran as the superuser"
  else
    bad "docs/FLEET.md's set-up SQL failed:"; cat "$TMP/roles.log"; summary; exit 1
  fi
  role_url() { echo "postgresql://$1@/zkpipe?host=$PG_DIR/sock&port=${PG_PORT:-5432}"; }
  if out=$("$ZKPIPE" queue init --queue "$(role_url zkpipe_client)" 2>&1); then
    bad "queue init as zkpipe_client succeeded: $out"
  else
    ok "queue init as zkpipe_client is refused: $(tail -n 1 <<< "$out")"
  fi
  out=$("$ZKPIPE" queue init --queue "$(role_url zkpipe_admin)" 2>&1) && [ "$out" = "schema version 0 -> 4" ] &&
    ok "queue init as zkpipe_admin: $out" || bad "queue init as zkpipe_admin: $out"
  PG_URL=$(role_url zkpipe_client)  # check_job and sql() from here on: the client's view
  JOB=$("$ZKPIPE" enqueue --queue "$PG_URL" --key "$V/circuit.zkey" --inline-max 100000 "$V/witness.wtns" "$V/witness.wtns" \
        "$V/witness.wtns" 2> "$TMP/enqueue.err")
  [ -n "$JOB" ] && ok "enqueue as zkpipe_client: job $JOB of 3 partitions" || bad "enqueue as zkpipe_client: $(cat "$TMP/enqueue.err")"
  "$ZKPIPE" worker --queue "$(role_url zkpipe_worker)" --id r1 --lease-ms $LEASE_MS --heartbeat-ms $HEARTBEAT_MS --poll-ms 100 \
    prover=cpu synthesis_threads=1 workers_per_device=1 self_check=false >> "$TMP/r1.log" 2>&1 &
  PID[r1]=$!
  [ -n "$JOB" ] && check_job "$JOB" 3
  if out=$("$PSQL" -X -q -v ON_ERROR_STOP=1 -d "$(role_url zkpipe_worker)" -c "DROP TABLE zkpipe.results" 2>&1); then
    bad "zkpipe_worker dropped zkpipe.results"
  else
    ok "DROP TABLE as zkpipe_worker is refused: $out"
  fi
  stop_workers
  summary
  exit
fi

if [ "$MODE" = monitor ]; then
  # GET URL: "STATUS BODY" on one line (the body's lines joined), for any status.
  get() {
    python3 - "$1" <<'PY'
import sys, urllib.request, urllib.error
try:
    with urllib.request.urlopen(sys.argv[1], timeout=10) as r:
        code, body = r.status, r.read().decode()
except urllib.error.HTTPError as e:
    code, body = e.code, e.read().decode()
except OSError as e:
    code, body = 0, str(e)
print(code, " ".join(body.split("\n")))
PY
  }
  # metric TEXT NAME: the value of the sample NAME (with its labels, as written) in TEXT.
  metric() { awk -v n="$2" '$1 == n { print $2 }' <<< "$1"; }
  # wait_for_log ID PATTERN: until the worker's log has the pattern (60 s at most).
  wait_for_log() {
    local deadline=$((SECONDS + 60))
    while [ $SECONDS -lt $deadline ]; do grep -q "$2" "$TMP/$1.log" && return 0; sleep 0.05; done
    return 1
  }
  start_worker m1 --http 127.0.0.1:0 --reconnect-ms 120000
  if wait_for_log m1 'http:127.0.0.1:[0-9]*'; then
    url="http://$(grep -o 'http:127.0.0.1:[0-9]*' "$TMP/m1.log" | head -n 1 | cut -d: -f2-)"
    ok "worker m1 answers on $url"
  else
    bad "worker m1 logged no http address:"; tail -n 5 "$TMP/m1.log"; summary; exit 1
  fi
  JOB=$("$ZKPIPE" enqueue --queue "$PG_URL" --key "$V/circuit.zkey" "$V/witness.wtns" "$V/witness.wtns" "$V/witness.wtns" \
        "$V/witness.wtns" 2> "$TMP/enqueue.err")
  [ -n "$JOB" ] && check_job "$JOB" 4
  # A result is counted when written, which check_job has seen; the completion metrics before it.
  out=$(get "$url/healthz"); [ "$out" = "200 ok " ] && ok "/healthz: 200 ok" || bad "/healthz: $out"
  page=$(http_body "$url/metrics")
  want=('zkpipe_partitions_total{status="ok"} 4' 'zkpipe_up 1' 'zkpipe_keys_loaded 1' 'zkpipe_worker_database_up 1'
        'zkpipe_worker_claimed_total 4' 'zkpipe_worker_results_written_total 4' 'zkpipe_worker_results_dropped_total 0'
        'zkpipe_worker_partitions_in_flight 0' 'zkpipe_worker_info{id="m1"} 1' 'zkpipe_partitions_total{status="bad_input"} 0')
  missing=()
  for w in "${want[@]}"; do
    [ "$(metric "$page" "${w% *}")" = "${w##* }" ] || missing+=("$w (found: $(metric "$page" "${w% *}"))")
  done
  [ ${#missing[@]} -eq 0 ] && ok "/metrics: ${#want[@]} samples as expected (serve's families and the worker's)" ||
    bad "/metrics: ${missing[*]}"
  grep -q '^# TYPE zkpipe_worker_claimed_total counter' <<< "$page" && grep -q '^# TYPE zkpipe_queue_depth gauge' <<< "$page" &&
    ok "/metrics: typed families (counter, gauge)" || bad "/metrics has no TYPE lines for the worker's families"
  status=$(python3 -c 'import json, sys, urllib.request
s = json.load(urllib.request.urlopen(sys.argv[1], timeout=10))
print(s["worker"]["claimed_total"], s["worker"]["database_up"], s["worker_id"], s["partitions"]["by_status"]["ok"])' "$url/status" 2>&1)
  [ "$status" = "4 1 m1 4" ] && ok "/status: worker.claimed_total 4, database_up 1, worker_id m1, 4 ok" || bad "/status: $status"
  # The database goes away (the worker's idle wait sees its connection close) and comes back.
  pg_stop
  seen=""
  deadline=$((SECONDS + 60))
  while [ $SECONDS -lt $deadline ]; do out=$(get "$url/healthz"); [ "${out%% *}" = 503 ] && { seen=$out; break; }; sleep 0.1; done
  [ "$seen" = "503 database unavailable: reconnecting " ] && ok "server stopped: /healthz $seen" || bad "server stopped: /healthz '$out'"
  _pg_ctl_start || bad "the server did not start again"
  seen=""
  deadline=$((SECONDS + 60))
  while [ $SECONDS -lt $deadline ]; do out=$(get "$url/healthz"); [ "${out%% *}" = 200 ] && { seen=$out; break; }; sleep 0.1; done
  [ -n "$seen" ] && ok "server back: /healthz $seen" || bad "server back: /healthz still '$out'"
  page=$(http_body "$url/metrics")
  [ "$(metric "$page" zkpipe_worker_reconnects_total)" -ge 1 ] 2>/dev/null && [ "$(metric "$page" zkpipe_worker_database_up)" = 1 ] &&
    ok "/metrics after: zkpipe_worker_reconnects_total $(metric "$page" zkpipe_worker_reconnects_total), database up" ||
    bad "/metrics after the restart: reconnects '$(metric "$page" zkpipe_worker_reconnects_total)', up '$(metric "$page" zkpipe_worker_database_up)'"
  out=$("$ZKPIPE" worker --queue "$PG_URL" --id m2 --http 0.0.0.0:9464 prover=cpu 2>&1); rc=$?
  [ $rc -eq 2 ] && grep -q "loopback" <<< "$out" && ok "--http 0.0.0.0:9464 refused, exit 2: $(tail -n 1 <<< "$out")" ||
    bad "--http 0.0.0.0:9464: exit $rc, $out"
  stop_workers
  summary
  exit
fi

if [ "$MODE" = unit ]; then
  UNIT=$ROOT/samples/fleet/zkpipe-worker@.service
  exec_start=$(sed -n 's/^ExecStart=//p' "$UNIT")
  cmdline=${exec_start//\/usr\/local\/bin\/zkpipe/$ZKPIPE}
  cmdline=${cmdline//\/etc\/zkpipe\/worker.ini/$ROOT/samples/fleet/worker.ini}
  cmdline=${cmdline//%H/$(hostname)}
  cmdline=${cmdline//%i/5}
  read -r -a argv <<< "$cmdline"
  uid="$(hostname)-5"  # the unit's --id %H-%i
  ZKPIPE_QUEUE=$PG_URL "${argv[@]}" prover=cpu synthesis_threads=1 workers_per_device=1 self_check=false \
    >> "$TMP/$uid.log" 2>&1 &
  PID[$uid]=$!
  ok "started the unit's ExecStart: ${argv[*]:1}"
  JOB=$("$ZKPIPE" enqueue --queue "$PG_URL" --key "$V/circuit.zkey" "$V/witness.wtns" "$V/witness.wtns" 2> "$TMP/enqueue.err")
  [ -n "$JOB" ] && check_job "$JOB" 2
  out=$(http_body http://127.0.0.1:9475/healthz 2>&1)
  [ "$out" = ok ] && ok "the unit's --http answers: /healthz $out" || bad "/healthz on 127.0.0.1:9475: $out"
  # Every exit code --help lists is either a requested stop (0), transient and restarted (1, 75),
  # or in RestartPreventExitStatus.
  prevent=" $(sed -n 's/^RestartPreventExitStatus=//p' "$UNIT") "
  codes=$("$ZKPIPE" worker --help | awk '/^Exit status:/ { on = 1; next } on && $1 ~ /^[0-9]+$/ { print $1 }')
  wrong=""
  for c in $codes; do
    case $c in
      0|1|75) [[ $prevent == *" $c "* ]] && wrong+=" $c (listed, but must be restarted or is a stop)" ;;
      *) [[ $prevent == *" $c "* ]] || wrong+=" $c (not in RestartPreventExitStatus)" ;;
    esac
  done
  [ -n "$codes" ] && [ -z "$wrong" ] && ok "the unit's restart policy covers exit codes $(echo $codes): prevent$prevent" ||
    bad "restart policy against --help's exit codes ($(echo $codes)):$wrong"
  grep -q '^Restart=on-failure$' "$UNIT" && ok "Restart=on-failure" || bad "the unit has no Restart=on-failure"
  stop_workers
  if python3 -c 'import json, sys
lines = [l for l in open(sys.argv[1]) if l.strip()]
assert lines, "no log lines"
for l in lines: json.loads(l)
print(len(lines))' "$TMP/$uid.log" > "$TMP/json.txt" 2>&1; then
    ok "worker.ini's log_format = json: all $(cat "$TMP/json.txt") log lines are JSON, the closing summary too"
  else
    bad "the worker's log is not JSON lines: $(tail -n 2 "$TMP/json.txt")"; head -n 3 "$TMP/$uid.log"
  fi
  summary
  exit
fi

if [ "$MODE" = capi ]; then
  # Migrations 2 and 3 on a store of version 1: the schema as version 1 left it (no constraint
  # columns, no attempts cap).
  sql "DROP INDEX zkpipe.partitions_claimable_by_key; DROP FUNCTION zkpipe.give_up(); DROP FUNCTION zkpipe.attempt_history(bigint, integer); DROP TABLE zkpipe.settings;
       DROP FUNCTION zkpipe.complete_many;
       ALTER TABLE zkpipe.jobs DROP COLUMN gpu_index, DROP COLUMN curve, DROP COLUMN max_attempts;
       ALTER TABLE zkpipe.partitions DROP COLUMN gpu_index, DROP COLUMN curve, DROP COLUMN max_attempts,
         DROP COLUMN lost_attempts, DROP COLUMN returned_by, DROP COLUMN returned_until;
       ALTER TABLE zkpipe.leases DROP COLUMN message, DROP CONSTRAINT leases_outcome_check,
         ADD CONSTRAINT leases_outcome_check CHECK (outcome IN ('completed', 'released', 'expired', 'abandoned'));
       DELETE FROM zkpipe.schema_version WHERE version IN (2, 3, 4)"
  if ! out=$("$ZKPIPE" jobs --queue "$PG_URL" 2>&1) && grep -q "queue migrate" <<< "$out"; then
    ok "at version 1, zkpipe jobs refuses: $out"
  else
    bad "zkpipe jobs at version 1: $out"
  fi
  out=$("$ZKPIPE" queue migrate --queue "$PG_URL" 2>&1) && [ "$out" = "schema version 1 -> 4" ] &&
    [ "$(sql "SELECT count(*) FROM information_schema.columns WHERE table_schema = 'zkpipe' AND column_name IN ('gpu_index', 'curve')")" = 4 ] &&
    ok "queue migrate from version 1: $out, the constraint columns are back" || bad "queue migrate from version 1: $out"
  BLS=$ROOT/tests/vectors/data/many_public_bls12381
  mkdir -p "$TMP/capi"
  "$CAPI_TEST" "$PG_URL" "${PG_URL/\/postgres\?/\/template1?}" "$V" "$TMP/capi" "$TMP/capi.ready" "$BLS" \
    "$TMP/capi.restarted" > "$TMP/capi.out" 2>&1 &
  PID[capi]=$!
  # file_or_exit FILE: waits (60 s at most) for the C program to create FILE, unless it exits.
  file_or_exit() {
    local deadline=$((SECONDS + 60))
    while [ ! -e "$1" ] && kill -0 "${PID[capi]}" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.05; done
    [ -e "$1" ]
  }
  file_or_exit "$TMP/capi.ready" && start_worker c1 --curves bn254
  # Then it asks for a server restart under its open handle.
  if file_or_exit "$TMP/capi.restarted.ask"; then
    pg_restart_after 0.5 || { bad "PostgreSQL did not start again"; summary; exit 1; }
    touch "$TMP/capi.restarted"
  fi
  wait "${PID[capi]}"; status=$?
  unset "PID[capi]"
  sed 's/^/      /' "$TMP/capi.out"
  [ $status -eq 0 ] && ok "queue_capi_test: $(tail -n 1 "$TMP/capi.out")" || bad "queue_capi_test exited $status"
  read -r _ A B C D <<< "$(grep '^jobs ' "$TMP/capi.out")"
  if [ -n "${D:-}" ]; then
    [ "$(sql "SELECT count(*) FROM zkpipe.jobs")" = 4 ] && ok "the refused enqueues wrote nothing (4 jobs in the store)" ||
      bad "the store holds $(sql "SELECT count(*) FROM zkpipe.jobs") jobs, expected 4"
    r=$(sql "SELECT string_agg(max_attempts::text, ',' ORDER BY id) FROM zkpipe.jobs WHERE id IN ($B, $D)")
    [ "$r" = "7,5" ] && ok "max_attempts through the C API: B's 7, and the store's default 5 for D's older struct" ||
      bad "max_attempts of B, D: $r"
    verified=0
    for i in 0 1; do
      "$ZKPIPE" verify "$V/vkey.json" "$TMP/capi/$i.public.json" "$TMP/capi/$i.proof.json" > /dev/null 2>&1 &&
        cmp -s "$TMP/capi/$i.public.json" "$V/public.json" && verified=$((verified + 1))
    done
    [ $verified -eq 2 ] && ok "zkpipe verify accepts the 2 proof.json the C API returned, with the vector's public.json" ||
      bad "$verified of the 2 proofs the C API returned verify"
    r=$(sql "SELECT string_agg(attempts::text, ',' ORDER BY job_id) FROM zkpipe.partitions WHERE job_id IN ($B, $C)")
    [ "$r" = "0,0" ] && ok "c1 (1 device, bn254) never claimed B (gpu_index 3) or C (curve bls12_381)" || bad "attempts on B, C: $r"
    start_worker c2
    if "$ZKPIPE" jobs --queue "$PG_URL" "$C" --wait 60 > "$TMP/c.txt" 2>&1; then
      r=$(sql "SELECT worker || ' ' || status FROM zkpipe.results WHERE job_id = $C")
      [ "$r" = "c2 0" ] && ok "c2 (curves bn254,bls12_381) claimed and proved C (curve bls12_381)" || bad "C's result: $r"
    else
      bad "C did not complete with c2 running:"; tail -n 3 "$TMP/c.txt"
    fi
    sleep 0.5  # c2 polls every 100 ms: B would have been claimed by now
    r=$(sql "SELECT state || ' ' || attempts FROM zkpipe.partitions WHERE job_id = $B")
    [ "$r" = "queued 0" ] && ok "B (gpu_index 3) stays queued: no worker here has device 3" || bad "B's partition: $r"
  fi
  stop_workers
  summary
  exit
fi
bad "unknown mode '$MODE'"
summary
