#!/bin/bash
# bench_cli.sh MODE ZKPIPE — `zkpipe bench` and `zkpipe run --witness` end to end on the cpu
# prover with the committed chain_bn128 vector (2000 constraints: a proof in about 0.2 s here).
#
#   sweep        a 2-point sweep (workers 1,2; 2 proofs a point, 1 warm-up): exit 0; the table
#                has both rows; --json parses, has every field, 2 points of 2 proofs each, all
#                verified, p50 <= p99, proofs/s > 0; --csv has the header and one row per point;
#                the SVG is well-formed XML with the throughput, p50 and p99 series of 2 points
#                each and a busy-d0 series; the JSON's busy_samples are in increasing time,
#                one share per device; stderr (not a terminal) has one plain line per point and
#                no \r; a --duration point measures at least one proof; on a terminal (a pty)
#                the progress is a bar redrawn with \r and reaches 100%; a witness of another
#                circuit makes the bench fail (exit 1) rather than report numbers.
#   synthetic    --synthetic bn254:10 and bls12-381:10 (generated INSECURE known-tau keys):
#                exit 0, 4 proofs a point on 2 points, every one verified by the host (a wrong
#                key point fails the pairing check and the bench); the key is marked INSECURE in
#                the table, the JSON and on stderr with its generation time; the JSON has
#                keygen_s, keygen_threads and busy samples in increasing time; the SVG has busy-d0.
#   bad-flags    each bad command line exits 2 with a message naming the flag (--synthetic
#                among them: no ':', unknown curve, LOG2 not a number or out of range, with
#                --key, against a server); a missing key file exits 1 naming the file.
#   serve        against a `zkpipe serve` (cpu prover) started here on a unix socket: a 2-point
#                sweep of jobs in flight (1,2): exit 0, the JSON's target is the socket, each
#                point 2 proofs, all verified, workers_per_device the server's (2); --workers is
#                refused there (exit 2, the server's setting); busy samples (Status RPCs) in
#                increasing time; a socket nobody serves exits 1.
#   run-witness  zkpipe run --witness proves for real: 2 partitions, each "verified" by the
#                host; another curve's witness fails its partitions (exit 1); --witness
#                without --key is a usage error.
set -uo pipefail
MODE=$1
ZKPIPE=$2
source "$(dirname "$0")/../support/script_checks.sh"
export ZKPIPE_LOG_LEVEL=warn
V=$ROOT/tests/vectors/data/chain_bn128
OTHER=$ROOT/tests/vectors/data/chain_bls12381
QUIET=log_level=warn

case "$MODE" in
sweep)
  "$ZKPIPE" bench --key "$V/circuit.zkey" --witness "$V/witness.wtns" --backend cpu --workers 1,2 --in-flight 2 \
    --proofs 2 --warmup 1 --json "$TMP/r.json" --csv "$TMP/r.csv" --svg "$TMP/r.svg" $QUIET \
    > "$TMP/table.txt" 2> "$TMP/err.txt"
  rc=$?
  if [ $rc -eq 0 ]; then ok "bench exit 0"; else bad "bench exit $rc: $(cat "$TMP/err.txt")"; fi
  rows=$(grep -cE '^\| +[12] \| ' "$TMP/table.txt")
  if [ "$rows" = 2 ] && grep -q "1 warm-up proof(s) per point excluded" "$TMP/table.txt"; then ok "table: 2 rows, warm-up stated"
  else bad "table: $(cat "$TMP/table.txt")"; fi
  lines=$(grep -c '^point [12]/2: ' "$TMP/err.txt")
  if [ "$lines" = 2 ] && ! grep -q $'\r' "$TMP/err.txt"; then ok "progress: one plain line per point"
  else bad "progress: $(cat -A "$TMP/err.txt")"; fi
  if out=$(python3 - "$TMP/r.json" "$TMP/r.csv" "$TMP/r.svg" <<'PY' 2>&1
import csv, json, sys
import xml.etree.ElementTree as ET
j = json.load(open(sys.argv[1]))
for k in ("prover", "target", "key", "witness", "warmup", "points"):
    assert k in j, k
assert j["prover"] == "cpu" and j["target"] == "local" and j["warmup"] == 1, j
fields = ["workers_per_device", "synthesis_threads", "in_flight", "proofs", "failed", "verified", "wall_s",
          "proofs_per_s", "p50_ms", "p99_ms", "busy"]
assert [p["workers_per_device"] for p in j["points"]] == [1, 2], j["points"]
for p in j["points"]:
    assert sorted(p) == sorted(fields), p
    assert p["proofs"] == 2 and p["verified"] == 2 and p["failed"] == 0, p
    assert p["proofs_per_s"] > 0 and 0 < p["p50_ms"] <= p["p99_ms"], p
    # device time summed over the workers / wall: up to the worker count, plus timer noise
    assert 0 < p["busy"] <= 1.2 * p["workers_per_device"], p
rows = list(csv.reader(open(sys.argv[2])))
assert rows[0] == fields, rows[0]
assert len(rows) == 3 and [r[0] for r in rows[1:]] == ["1", "2"], rows
svg = ET.parse(sys.argv[3]).getroot()
ns = "{http://www.w3.org/2000/svg}"
assert svg.tag == ns + "svg", svg.tag
# The sweep's series: one marker per point in a group named for the series, not joined
# (issue 39); each device's busy share over time: a polyline.
markers = {g.get("id"): g.findall(ns + "circle") for g in svg.iter(ns + "g")}
assert sorted(markers) == ["p50", "p99", "throughput"], markers
assert all(len(markers[k]) == 2 for k in ("p50", "p99", "throughput")), markers
series = {e.get("id"): e.get("points").split() for e in svg.iter(ns + "polyline")}
assert sorted(series) == ["busy-d0"], series
assert len(series["busy-d0"]) >= 2, series
# What measured it: zkpipe's version, the start time, the machine.
assert j["zkpipe_version"] and j["started_unix_ms"] > 1.7e12, j
assert j["host"]["hardware_threads"] >= 1 and j["host"]["memory_bytes"] > 0 and j["host"]["name"], j["host"]
times = [s["t_s"] for s in j["busy_samples"]]
assert len(times) >= 2 and all(a < b for a, b in zip(times, times[1:])), times
assert all(len(s["busy"]) == 1 and s["busy"][0] >= 0 for s in j["busy_samples"]), j["busy_samples"]
texts = [t.text or "" for t in svg.iter(ns + "text")]
assert "Throughput" in texts and any("Latency" in t for t in texts), texts
print("ok")
PY
  ); then ok "json, csv and svg: $out"; else bad "outputs: $out"; fi

  if "$ZKPIPE" bench --key "$V/circuit.zkey" --witness "$V/witness.wtns" --backend cpu --workers 1 --duration 0.3 \
       --warmup 0 --json "$TMP/d.json" $QUIET > /dev/null 2>&1 &&
     python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["points"]; assert len(p)==1 and p[0]["proofs"]>=1, p' "$TMP/d.json"
  then ok "--duration point measured"; else bad "--duration: $(cat "$TMP/d.json" 2>&1)"; fi

  # On a terminal: a bar redrawn with \r, no plain per-point lines.
  if out=$(python3 - "$ZKPIPE" "$V" <<'PY' 2>&1
import os, pty, subprocess, sys
zkpipe, v = sys.argv[1:]
master, slave = pty.openpty()
subprocess.run([zkpipe, "bench", "--key", v + "/circuit.zkey", "--witness", v + "/witness.wtns", "--backend", "cpu",
                "--workers", "1,2", "--proofs", "2", "--warmup", "0", "log_level=warn"],
               stdout=subprocess.DEVNULL, stderr=slave, check=True)
os.close(slave)
data = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:  # EIO: the slave side is closed and drained
        break
    if not chunk:
        break
    data += chunk
text = data.decode()
assert text.count("\r[") >= 4 and "point 2/2" in text and "#" * 30 in text, repr(text)
assert "point 1/2: workers" not in text, repr(text)
print(f"{text.count(chr(13))} redraws")
PY
  ); then ok "progress on a terminal: $out"; else bad "progress on a terminal: $out"; fi

  out=$("$ZKPIPE" bench --key "$V/circuit.zkey" --witness "$OTHER/witness.wtns" --backend cpu --workers 1 --proofs 1 \
          --warmup 0 $QUIET 2>&1); rc=$?
  if [ $rc -eq 1 ] && grep -q "1 proof(s) failed, the first: \[" <<< "$out"; then ok "wrong witness: bench fails: $(grep 'the first' <<< "$out")"; else bad "wrong witness: exit $rc: $out"; fi
  ;;
bad-flags)
  K=(--key "$V/circuit.zkey" --witness "$V/witness.wtns" --backend cpu)
  expect_usage() {  # expect_usage TEXT ARGS...: exit 2 and TEXT in the message
    local want=$1 out rc
    shift
    out=$("$ZKPIPE" bench "$@" 2>&1); rc=$?
    if [ $rc -eq 2 ] && grep -qF -- "$want" <<< "$out"; then ok "bench $*: $(echo "$out" | head -n 1)"
    else bad "bench $*: expected exit 2 naming $want, got $rc: $out"; fi
  }
  expect_usage --key --witness "$V/witness.wtns"
  expect_usage --witness --key "$V/circuit.zkey"
  expect_usage --workers "${K[@]}" --workers 0
  expect_usage --workers "${K[@]}" --workers 1,x
  expect_usage --in-flight "${K[@]}" --in-flight ""
  expect_usage --synthesis-threads "${K[@]}" --synthesis-threads 2,
  expect_usage --proofs "${K[@]}" --proofs 0
  expect_usage --duration "${K[@]}" --duration -1
  expect_usage "--proofs and --duration" "${K[@]}" --proofs 2 --duration 1
  expect_usage --warmup "${K[@]}" --warmup -1
  expect_usage frobnicate "${K[@]}" --frobnicate
  expect_usage --connect-timeout "${K[@]}" --connect-timeout -1
  expect_usage "--synthetic: 'bn254' is not CURVE:LOG2" --synthetic bn254
  expect_usage "--synthetic: unknown curve 'bn128'" --synthetic bn128:10
  expect_usage "--synthetic: LOG2 'x'" --synthetic bn254:x
  expect_usage "--synthetic: LOG2 '3'" --synthetic bls12-381:3
  expect_usage "--synthetic: LOG2 '25'" --synthetic bn254:25
  expect_usage "--synthetic replaces --key" --synthetic bn254:10 --key "$V/circuit.zkey"
  expect_usage "--synthetic benches a host in this process" --synthetic bn254:10 --socket "$TMP/none.sock"
  out=$("$ZKPIPE" bench --key "$TMP/missing.zkey" --witness "$V/witness.wtns" --backend cpu --proofs 1 2>&1); rc=$?
  if [ $rc -eq 1 ] && grep -q "missing.zkey" <<< "$out"; then ok "missing key: $(echo "$out" | tail -n 1)"
  else bad "missing key: exit $rc: $out"; fi
  ;;
synthetic)
  for spec in bn254:10 bls12-381:10; do
    "$ZKPIPE" bench --synthetic "$spec" --backend cpu --workers 1,2 --in-flight 2 --proofs 4 --warmup 1 \
      --json "$TMP/syn.json" --svg "$TMP/syn.svg" $QUIET > "$TMP/table.txt" 2> "$TMP/err.txt"
    rc=$?
    if [ $rc -eq 0 ]; then ok "$spec: bench exit 0"; else bad "$spec: bench exit $rc: $(cat "$TMP/err.txt")"; fi
    if grep -q "synthetic $spec key generated in .* INSECURE" "$TMP/err.txt" && grep -q "INSECURE" "$TMP/table.txt"
    then ok "$spec: INSECURE and the generation time on stderr and in the table"
    else bad "$spec: marking: $(cat "$TMP/err.txt" "$TMP/table.txt")"; fi
    if out=$(python3 - "$TMP/syn.json" "$TMP/syn.svg" "$spec" <<'PY' 2>&1
import json, sys
import xml.etree.ElementTree as ET
j = json.load(open(sys.argv[1]))
assert j["key"].startswith("synthetic " + sys.argv[3]) and "INSECURE" in j["key"], j["key"]
assert j["keygen_s"] > 0 and j["keygen_threads"] >= 1, j
assert [p["workers_per_device"] for p in j["points"]] == [1, 2], j["points"]
for p in j["points"]:
    assert p["proofs"] == 4 and p["verified"] == 4 and p["failed"] == 0, p
times = [s["t_s"] for s in j["busy_samples"]]
assert len(times) >= 2 and all(a < b for a, b in zip(times, times[1:])), times
assert times[0] > j["keygen_s"] * 0.5, (times, j["keygen_s"])  # the axis starts before the key was made
ns = "{http://www.w3.org/2000/svg}"
ids = [e.get("id") for e in ET.parse(sys.argv[2]).getroot().iter(ns + "polyline")]
assert "busy-d0" in ids, ids
print(f"keygen {j['keygen_s']:.3f} s, {len(times)} busy samples")
PY
    ); then ok "$spec: json and svg: $out"; else bad "$spec: outputs: $out"; fi
  done
  ;;
serve)
  source "$(dirname "$0")/../serve/serve_fixture.sh"
  V=$ROOT/tests/vectors/data/chain_bn128  # (the fixture's default vector is another one)
  # (at the default log level: start_serve waits for serve's "listening on" info line)
  # A unix socket, and TCP on a free loopback port, which requires the bearer token.
  head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$TMP/token" && chmod 600 "$TMP/token"
  printf 'prover = cpu\n[serve]\nsocket = %s\ntcp = 127.0.0.1:0\ntoken_file = %s\nkey_dirs = %s\n' "$TMP/serve.sock" "$TMP/token" \
    "$ROOT/tests/vectors/data" > "$TMP/serve.ini"
  start_serve "$TMP/serve.ini"
  out=$("$ZKPIPE" bench --socket "$TMP/serve.sock" --key "$V/circuit.zkey" --witness "$V/witness.wtns" --in-flight 1,2 \
          --proofs 2 --warmup 1 --json "$TMP/s.json" 2>&1); rc=$?
  if [ $rc -eq 0 ] && out2=$(python3 - "$TMP/s.json" "unix:$TMP/serve.sock" <<'PY' 2>&1
import json, sys
j = json.load(open(sys.argv[1]))
assert j["target"] == sys.argv[2] and j["prover"] == "cpu", j
assert [p["in_flight"] for p in j["points"]] == [1, 2], j
for p in j["points"]:
    assert p["proofs"] == 2 and p["verified"] == 2 and p["failed"] == 0 and p["workers_per_device"] == 2, p
    assert 0 < p["p50_ms"] <= p["p99_ms"] and p["proofs_per_s"] > 0, p
times = [s["t_s"] for s in j["busy_samples"]]  # from Status RPCs
assert len(times) >= 2 and all(a < b for a, b in zip(times, times[1:])), times
print("ok")
PY
  ); then ok "bench against serve: 2 points, verified"; else bad "bench against serve: exit $rc: $out ${out2:-}"; fi
  port=$(grep -o 'tcp:127.0.0.1:[0-9]*' "$TMP/server.log" | head -n 1 | cut -d: -f3)
  out=$("$ZKPIPE" bench --address "127.0.0.1:$port" --token-file "$TMP/token" --key "$V/circuit.zkey" --witness "$V/witness.wtns" \
          --in-flight 2 --proofs 2 --warmup 0 2>&1); rc=$?
  if [ $rc -eq 0 ] && grep -qE '^\| +[0-9]+ \| +[0-9]+ \| +2 \| +2 \| +0 \| +2 \|' <<< "$out"; then ok "bench over TCP with the token: 2 proofs, verified"
  else bad "bench over TCP with the token: exit $rc: $out"; fi
  out=$("$ZKPIPE" bench --address "127.0.0.1:$port" --key "$V/circuit.zkey" --witness "$V/witness.wtns" --proofs 1 2>&1); rc=$?
  if [ $rc -eq 1 ] && grep -qi "unauthenticated\|token\|authorization" <<< "$out"; then ok "bench over TCP without the token: refused ($(tail -n 1 <<< "$out"))"
  else bad "bench over TCP without the token: exit $rc: $out"; fi
  out=$("$ZKPIPE" bench --socket "$TMP/serve.sock" --tls-ca "$TMP/token" --key "$V/circuit.zkey" --witness "$V/witness.wtns" 2>&1); rc=$?
  if [ $rc -eq 2 ] && grep -q -- "--tls-ca and --tls-server-name are for --address" <<< "$out"; then ok "--tls-ca with --socket refused"
  else bad "--tls-ca with --socket: exit $rc: $out"; fi
  out=$("$ZKPIPE" bench --socket "$TMP/serve.sock" --key "$V/circuit.zkey" --witness "$V/witness.wtns" --workers 1,2 2>&1); rc=$?
  if [ $rc -eq 2 ] && grep -q -- "--workers is the server's setting" <<< "$out"; then ok "--workers against serve refused"
  else bad "--workers against serve: exit $rc: $out"; fi
  out=$("$ZKPIPE" bench --socket "$TMP/nobody.sock" --connect-timeout 1 --key "$V/circuit.zkey" --witness "$V/witness.wtns" 2>&1); rc=$?
  if [ $rc -eq 1 ] && grep -q "no zkpipe serve answers" <<< "$out"; then ok "no server: $(tail -n 1 <<< "$out")"
  else bad "no server: exit $rc: $out"; fi
  stop_serve
  exit $?
  ;;
run-witness)
  out=$("$ZKPIPE" run --partitions 2 --key "$V/circuit.zkey" --witness "$V/witness.wtns" prover=cpu $QUIET 2>&1); rc=$?
  verified=$(grep -c ': ok .* verified$' <<< "$out")
  if [ $rc -eq 0 ] && [ "$verified" = 2 ] && grep -q "2 of 2 proof(s) verified" <<< "$out"; then ok "run --witness: 2 proofs, verified"
  else bad "run --witness: exit $rc: $out"; fi
  out=$("$ZKPIPE" run --partitions 2 --key "$V/circuit.zkey" --witness "$OTHER/witness.wtns" prover=cpu $QUIET 2>&1); rc=$?
  if [ $rc -eq 1 ] && [ "$(grep -c FAILED <<< "$out")" = 2 ]; then ok "run --witness of another curve: both fail"
  else bad "run, other curve's witness: exit $rc: $out"; fi
  out=$("$ZKPIPE" run --partitions 1 --witness "$V/witness.wtns" prover=cpu 2>&1); rc=$?
  if [ $rc -eq 2 ] && grep -q -- "--witness needs --key" <<< "$out"; then ok "run --witness without --key: usage error"
  else bad "run --witness without --key: exit $rc: $out"; fi
  ;;
*) bad "unknown mode $MODE" ;;
esac
summary
