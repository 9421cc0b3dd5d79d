#!/bin/bash
# cli_proofs.sh MODE ZKPIPE — end-to-end checks of `zkpipe prove` and `zkpipe verify` on every
# committed vector (tests/vectors/data/*, samples/circuits/*), through the CLI a user runs.
#
#   verify      zkpipe verify accepts snarkjs's own proof of every vector, and rejects: the proof
#               with one byte changed (in each of A, B, C), a wrong public input, a missing or
#               extra public input, and the other curve's verification key.
#   prove       zkpipe prove (cpu backend, random r, s) on every vector: `snarkjs groth16 verify`
#               and `zkpipe verify` accept the proof; public.json is byte-identical to snarkjs's.
#               Needs the pinned snarkjs (npm ci --prefix tests/vectors): fails without it.
#   fresh       regenerates the small `chain` vector on both curves with the pinned circom2 and
#               snarkjs (fresh setup and contribution, so a key nobody committed), then checks
#               both directions on it: snarkjs verifies zkpipe's proof, zkpipe verifies snarkjs's.
#   exit-codes  zkpipe verify's documented exit status on every vector: 0 for snarkjs's proof and
#               for the same proof in rapidsnark's layout (compact, no "curve" key: the key's curve),
#               1 for that rapidsnark-layout proof tampered, 3 for malformed JSON (truncated, a
#               missing key, a number above the prime) and for a missing file, 2 for a bad
#               command line; `zkpipe verify --help` states the codes.
#   bad-input   zkpipe prove fails with a clear message, exit 1 and no output file for: a witness
#               that does not satisfy the circuit, the other curve's witness, a truncated zkey,
#               a missing witness file, a FIFO or a device as the witness, key or config (at
#               once, no hang), a corrupted but well-formed key ("the key or the witness is
#               wrong"). With prover.verify and self_check off it warns that the proof is
#               unchecked. A symlink planted at OUT.tmp does not redirect the write. A public.json
#               that cannot be written leaves proof.json as it was (the pair together or not at all).
set -uo pipefail
MODE=$1
ZKPIPE=$2
source "$(dirname "$0")/../support/script_checks.sh"
export ZKPIPE_LOG_LEVEL=warn

VECTORS=$(ls -d "$ROOT"/tests/vectors/data/*/ "$ROOT"/samples/circuits/*/)

# other_curve DIR: the same circuit on the other curve (chain_bn128 <-> chain_bls12381), if any.
other_curve() {
  local d=${1%/}
  case "$d" in
    *_bn128) echo "${d%_bn128}_bls12381" ;;
    *_bls12381) echo "${d%_bls12381}_bn128" ;;
  esac
}

# expect_reject NAME VKEY PUBLIC PROOF: zkpipe verify must exit 1 and say why.
expect_reject() {
  local name=$1 out rc
  out=$("$ZKPIPE" verify "$2" "$3" "$4" 2>&1); rc=$?
  if [ $rc -eq 1 ] && [ -n "$out" ]; then ok "$name rejected: $(echo "$out" | head -n 1)"
  else bad "$name: expected exit 1 with a reason, got $rc: $out"; fi
}

# Changes one byte of the first decimal number of the JSON field FIELD (pi_a, pi_b, pi_c).
flip_byte() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
src, field, dst = sys.argv[1:]
p = json.load(open(src))
v = p[field]
while isinstance(v[0], list): v = v[0]
v[0] = str(int(v[0]) ^ (1 << 8))  # flips one bit in the second-lowest byte
json.dump(p, open(dst, "w"))
PY
}

case "$MODE" in
  prove|fresh)
    if [ ! -f "$ROOT/tests/vectors/node_modules/snarkjs/build/cli.cjs" ]; then
      echo "ERROR: snarkjs is not installed (npm ci --prefix tests/vectors): cannot run the oracle"
      exit 1
    fi ;;
esac

case "$MODE" in
  verify)
    for d in $VECTORS; do
      name=$(basename "$d")
      if out=$("$ZKPIPE" verify "$d/vkey.json" "$d/public.json" "$d/proof.json" 2>&1); then
        ok "$name: snarkjs's proof verifies"
      else bad "$name: snarkjs's proof rejected: $out"; fi
      for field in pi_a pi_b pi_c; do
        flip_byte "$d/proof.json" $field "$TMP/flipped.json"
        expect_reject "$name: $field with one byte changed" "$d/vkey.json" "$d/public.json" "$TMP/flipped.json"
      done
      python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); p[0]=str(int(p[0])+1); json.dump(p,open(sys.argv[2],"w"))' \
        "$d/public.json" "$TMP/public_wrong.json"
      expect_reject "$name: wrong public input" "$d/vkey.json" "$TMP/public_wrong.json" "$d/proof.json"
      python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); p.append("1"); json.dump(p,open(sys.argv[2],"w"))' \
        "$d/public.json" "$TMP/public_extra.json"
      expect_reject "$name: one public input too many" "$d/vkey.json" "$TMP/public_extra.json" "$d/proof.json"
      other=$(other_curve "$d")
      if [ -n "$other" ] && [ -d "$other" ]; then
        expect_reject "$name: the other curve's key" "$other/vkey.json" "$d/public.json" "$d/proof.json"
      fi
    done ;;
  prove)
    for d in $VECTORS; do
      name=$(basename "$d")
      if ! out=$("$ZKPIPE" prove --backend cpu "$d/circuit.zkey" "$d/witness.wtns" "$TMP/proof.json" "$TMP/public.json" 2>&1); then
        bad "$name: zkpipe prove failed: $out"; continue
      fi
      if $SNARKJS groth16 verify "$d/vkey.json" "$TMP/public.json" "$TMP/proof.json" 2>&1 | grep -q "OK!"; then
        ok "$name: snarkjs verifies zkpipe's proof"
      else bad "$name: snarkjs rejects zkpipe's proof"; fi
      if out=$("$ZKPIPE" verify "$d/vkey.json" "$TMP/public.json" "$TMP/proof.json" 2>&1); then
        ok "$name: zkpipe verifies its own proof"
      else bad "$name: zkpipe verify rejects its own proof: $out"; fi
      if cmp -s "$TMP/public.json" "$d/public.json"; then ok "$name: public.json identical to snarkjs's"
      else bad "$name: public.json differs from snarkjs's"; fi
      rm -f "$TMP/proof.json" "$TMP/public.json"
    done ;;
  fresh)
    for curve in bn128 bls12381; do
      d=$TMP/chain_$curve
      if ! out=$(bash "$ROOT/tests/vectors/make_vectors.sh" chain $curve "$d" 2>&1); then
        bad "chain $curve: regenerating the vector failed: $out"; continue
      fi
      if ! out=$("$ZKPIPE" prove "$d/circuit.zkey" "$d/witness.wtns" "$TMP/proof.json" "$TMP/public.json" 2>&1); then
        bad "fresh chain_$curve: zkpipe prove failed: $out"; continue
      fi
      if $SNARKJS groth16 verify "$d/vkey.json" "$TMP/public.json" "$TMP/proof.json" 2>&1 | grep -q "OK!"; then
        ok "fresh chain_$curve: snarkjs verifies zkpipe's proof"
      else bad "fresh chain_$curve: snarkjs rejects zkpipe's proof"; fi
      if out=$("$ZKPIPE" verify "$d/vkey.json" "$d/public.json" "$d/proof.json" 2>&1); then
        ok "fresh chain_$curve: zkpipe verifies snarkjs's proof"
      else bad "fresh chain_$curve: zkpipe rejects snarkjs's proof: $out"; fi
    done ;;
  exit-codes)
    # expect_exit NAME CODE ARGS...: zkpipe ARGS exits CODE with something said.
    expect_exit() {
      local name=$1 want=$2 out rc
      shift 2
      out=$("$ZKPIPE" "$@" 2>&1); rc=$?
      if [ $rc -eq "$want" ] && [ -n "$out" ]; then ok "$name: exit $rc: $(echo "$out" | head -n 1)"
      else bad "$name: expected exit $want, got $rc: $out"; fi
    }
    # rapidsnark's layout of a snarkjs proof.json: nlohmann::json's compact dump (sorted keys).
    # SRC DST [FIELD]: FIELD's first number gets one bit flipped (a tampered proof).
    to_rapidsnark() {
      python3 - "$@" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
del p["curve"]
if len(sys.argv) > 3:
    p[sys.argv[3]][0] = str(int(p[sys.argv[3]][0]) ^ (1 << 8))
open(sys.argv[2], "w").write(json.dumps(p, sort_keys=True, separators=(",", ":")))
PY
    }
    for d in $VECTORS; do
      d=${d%/}; name=$(basename "$d")
      expect_exit "$name: snarkjs's proof" 0 verify "$d/vkey.json" "$d/public.json" "$d/proof.json"
      to_rapidsnark "$d/proof.json" "$TMP/rs.json"
      expect_exit "$name: rapidsnark's layout" 0 verify "$d/vkey.json" "$d/public.json" "$TMP/rs.json"
      to_rapidsnark "$d/proof.json" "$TMP/rs_tampered.json" pi_a
      expect_exit "$name: rapidsnark's layout, tampered" 1 verify "$d/vkey.json" "$d/public.json" "$TMP/rs_tampered.json"
      head -c 50 "$TMP/rs.json" > "$TMP/truncated.json"
      expect_exit "$name: truncated JSON" 3 verify "$d/vkey.json" "$d/public.json" "$TMP/truncated.json"
      python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); del p["pi_b"]; json.dump(p,open(sys.argv[2],"w"))' "$d/proof.json" "$TMP/no_b.json"
      expect_exit "$name: no pi_b" 3 verify "$d/vkey.json" "$d/public.json" "$TMP/no_b.json"
      python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); p[0]="9"*100; json.dump(p,open(sys.argv[2],"w"))' "$d/public.json" "$TMP/huge.json"
      expect_exit "$name: a public input above r" 3 verify "$d/vkey.json" "$TMP/huge.json" "$d/proof.json"
    done
    d=$ROOT/tests/vectors/data/chain_bn128
    expect_exit "a missing proof file" 3 verify "$d/vkey.json" "$d/public.json" "$TMP/nonexistent.json"
    expect_exit "two files instead of three" 2 verify "$d/vkey.json" "$d/public.json"
    if "$ZKPIPE" verify --help | grep -q "0 the proof is valid, 1 the proof is invalid, 2 a bad command line"; then
      ok "zkpipe verify --help states the exit codes"
    else bad "zkpipe verify --help does not state the exit codes"; fi ;;
  bad-input)
    d=$ROOT/tests/vectors/data/chain_bn128
    # The last wire of a circom witness is an intermediate signal: changing it breaks a constraint.
    python3 -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); b[-32]^=1; open(sys.argv[2],"wb").write(b)' \
      "$d/witness.wtns" "$TMP/unsatisfied.wtns"
    head -c 1000 "$d/circuit.zkey" > "$TMP/truncated.zkey"
    check_fails() {  # NAME EXPECTED_TEXT ZKEY WTNS
      local out rc
      out=$(timeout 60 "$ZKPIPE" prove --backend cpu "$3" "$4" "$TMP/p.json" "$TMP/pub.json" 2>&1); rc=$?
      if [ $rc -ne 1 ]; then bad "$1: exit $rc, expected 1: $out"
      elif ! echo "$out" | grep -qi -- "$2"; then bad "$1: message does not mention '$2': $out"
      elif [ -e "$TMP/p.json" ] || [ -e "$TMP/pub.json" ]; then bad "$1: an output file was written"
      else ok "$1: $(echo "$out" | grep -i -- "$2" | head -n 1)"; fi
      rm -f "$TMP/p.json" "$TMP/pub.json"
    }
    check_fails "unsatisfied witness" "unsatisfied witness" "$d/circuit.zkey" "$TMP/unsatisfied.wtns"
    check_fails "the other curve's witness" "BLS12-381" "$d/circuit.zkey" "$ROOT/tests/vectors/data/chain_bls12381/witness.wtns"
    check_fails "truncated zkey" "truncated.zkey" "$TMP/truncated.zkey" "$d/witness.wtns"
    check_fails "missing witness" "nonexistent.wtns" "$d/circuit.zkey" "$TMP/nonexistent.wtns"
    # Not regular files: refused at once (a FIFO with no writer used to block for ever, /dev/zero
    # to be read until memory ran out); `timeout` turns a hang into a failure.
    mkfifo "$TMP/fifo.wtns" "$TMP/fifo.zkey" "$TMP/fifo.ini"
    check_fails "a FIFO as the witness" "fifo.wtns: is a FIFO, not a regular file" "$d/circuit.zkey" "$TMP/fifo.wtns"
    check_fails "a FIFO as the key" "fifo.zkey: is a FIFO, not a regular file" "$TMP/fifo.zkey" "$d/witness.wtns"
    check_fails "/dev/zero as the witness" "/dev/zero: is a character device" "$d/circuit.zkey" /dev/zero
    check_fails "/dev/urandom as the key" "/dev/urandom: is a character device" /dev/urandom "$d/witness.wtns"
    out=$(timeout 60 "$ZKPIPE" prove --config "$TMP/fifo.ini" "$d/circuit.zkey" "$d/witness.wtns" "$TMP/p.json" "$TMP/pub.json" 2>&1); rc=$?
    # (a config the host refuses is the command line's fault: exit 2, as for a bad config value)
    if [ $rc -eq 2 ] && echo "$out" | grep -q "fifo.ini' is not a regular file"; then ok "a FIFO as the config file: $(echo "$out" | head -n 1)"
    else bad "a FIFO as the config file: exit $rc: $out"; fi
    # A corrupted but well-formed key: two H points swapped (both on the curve, so the key reads),
    # and the proof no longer verifies. The message cannot blame the witness alone.
    python3 - "$d/circuit.zkey" "$TMP/swapped.zkey" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
n8q = None
at = 12
for _ in range(struct.unpack_from("<I", b, 8)[0]):
    sid, length = struct.unpack_from("<IQ", b, at)
    if sid == 2: n8q = struct.unpack_from("<I", b, at + 12)[0]
    if sid == 9: h = at + 12
    at += 12 + length
p = 2 * n8q  # one affine G1 point
b[h:h + p], b[h + p:h + 2 * p] = b[h + p:h + 2 * p], b[h:h + p]
open(sys.argv[2], "wb").write(b)
PY
    check_fails "a corrupted, well-formed key" "the key or the witness is wrong" "$TMP/swapped.zkey" "$d/witness.wtns"
    # With both checks off an unsatisfied witness gives a proof nobody checked: prove says so, loudly.
    # Under ASan, LeakSanitizer's exit-time scan of this one run aborts with "LeakSanitizer has
    # encountered a fatal error" (its stop-the-world fails; every other prove here is scanned
    # fine; issue 17 has it open), so the scan is off for it alone: this checks the warning.
    out=$(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
      "$ZKPIPE" prove --backend cpu "$d/circuit.zkey" "$TMP/unsatisfied.wtns" "$TMP/p.json" "$TMP/pub.json" \
      prover.verify=false self_check=false 2>&1); rc=$?
    if [ $rc -eq 0 ] && echo "$out" | grep -q "WARNING: the proof in $TMP/p.json was NOT CHECKED"; then
      ok "both checks off: $(echo "$out" | grep WARNING | head -n 1)"
    else bad "both checks off: exit $rc, no warning: $out"; fi
    if "$ZKPIPE" verify "$d/vkey.json" "$TMP/pub.json" "$TMP/p.json" >/dev/null 2>&1; then
      bad "the unchecked proof of an unsatisfied witness verifies"
    else ok "the unchecked proof of an unsatisfied witness does not verify (as warned)"; fi
    rm -f "$TMP/p.json" "$TMP/pub.json"
    # The output is written through a new temporary file: a symlink planted at the old fixed
    # name (OUT.tmp) pointing at a file the user can write must leave that file alone.
    echo "precious" > "$TMP/victim.txt"
    ln -s "$TMP/victim.txt" "$TMP/p.json.tmp"
    ln -s "$TMP/victim.txt" "$TMP/pub.json.tmp"
    if out=$("$ZKPIPE" prove --backend cpu "$d/circuit.zkey" "$d/witness.wtns" "$TMP/p.json" "$TMP/pub.json" 2>&1) &&
       [ "$(cat "$TMP/victim.txt")" = precious ] && [ -L "$TMP/p.json.tmp" ] &&
       "$ZKPIPE" verify "$d/vkey.json" "$TMP/pub.json" "$TMP/p.json" >/dev/null 2>&1; then
      ok "a symlink at OUT.tmp: the file it points to is unchanged, the proof written and valid"
    else bad "a symlink at OUT.tmp: victim now '$(cat "$TMP/victim.txt")': $out"; fi
    if ls -A "$TMP" | grep -q '^\.p\.json\..*\.tmp$'; then bad "a temporary file was left behind: $(ls -A "$TMP")"
    else ok "no temporary file left behind"; fi
    # proof.json and public.json together or not at all (issue 36): public.json cannot be written
    # (its folder does not exist), so the old proof.json must stay, no temporary left, and the
    # error says why in strerror's words, not "[invalid argument]".
    mkdir -p "$TMP/pair" && echo "old proof" > "$TMP/pair/proof.json"
    out=$("$ZKPIPE" prove --backend cpu "$d/circuit.zkey" "$d/witness.wtns" "$TMP/pair/proof.json" "$TMP/pair/none/public.json" 2>&1); rc=$?
    if [ $rc -eq 1 ] && [ "$(cat "$TMP/pair/proof.json")" = "old proof" ] && [ "$(ls -A "$TMP/pair")" = proof.json ] &&
       grep -q "public.json: No such file or directory" <<< "$out" && ! grep -q "invalid argument" <<< "$out"; then
      ok "public.json cannot be written: exit 1, proof.json unchanged, $(tail -n 1 <<< "$out")"
    else bad "public.json cannot be written: exit $rc, proof.json '$(cat "$TMP/pair/proof.json")', $(ls -A "$TMP/pair"): $out"; fi ;;
  *) echo "usage: $0 verify|prove|fresh|exit-codes|bad-input ZKPIPE"; exit 2 ;;
esac
summary
