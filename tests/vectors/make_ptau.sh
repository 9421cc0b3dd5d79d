#!/bin/bash
# make_ptau.sh CURVE POWER — run a small powers-of-tau ceremony (new, one contribution, prepare
# phase2) and leave ptau/CURVE_POWER.ptau. Test vectors only: the entropy is fixed text and the
# single contributor is this script, so the result is not a secure setup.
# Each step's wall time is appended to ptau/timings.tsv (step, curve, power, seconds).
set -euo pipefail
CURVE=$1; POWER=$2
HERE=$(cd "$(dirname "$0")" && pwd)
SJ="node $HERE/node_modules/snarkjs/build/cli.cjs"
[ -d "$HERE/node_modules/snarkjs" ] || { echo "snarkjs missing: run 'npm ci --prefix tests/vectors'" >&2; exit 1; }
D=$HERE/ptau; mkdir -p "$D"; cd "$D"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
step() {  # step NAME cmd... : run and record wall seconds
  local name=$1; shift
  local t0; t0=$(date +%s.%N)
  "$@" > "$TMP/$name.log" 2>&1 || { cat "$TMP/$name.log" >&2; exit 1; }
  printf "%s\t%s\t%s\t%.1f\n" "$name" "$CURVE" "$POWER" "$(echo "$(date +%s.%N) - $t0" | bc)" | tee -a timings.tsv
}
step ptau_new        $SJ powersoftau new "$CURVE" "$POWER" "$TMP/p0.ptau"
step ptau_contribute $SJ powersoftau contribute "$TMP/p0.ptau" "$TMP/p1.ptau" --name="zkpipe vectors" -e="zkpipe test vectors $CURVE $POWER"
step ptau_prepare2   $SJ powersoftau prepare phase2 "$TMP/p1.ptau" "${CURVE}_${POWER}.ptau"
ls -l "${CURVE}_${POWER}.ptau"
