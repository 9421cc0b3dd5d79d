#!/bin/bash
# rapidsnark_cli.sh MODE BIN — librapidsnark's programs and `zkpipe prove --format rapidsnark`,
# as rapidsnark's users run them. BIN is the build's bin/ (zkpipe, prover, verifier, api_test).
#
#   programs  bin/prover and bin/verifier behave as rapidsnark's: argument count (usage, exit 1),
#             a missing file ("Error: open: ...", exit 1), a FIFO, /dev/zero or a directory as
#             an input ("Error: PATH: is a FIFO, not a regular file", exit 1, nothing read), a proof of each curve that verifier
#             accepts ("Result: Valid proof", exit 0) and zkpipe verify too, a tampered proof
#             ("Result: Invalid proof", exit 1), malformed JSON ("Error: ...", exit 1); and
#             `zkpipe prove --format rapidsnark` writes exactly nlohmann::json's dump() of the
#             same values (python's json.dumps with sorted keys and no spaces is that dump for
#             these files): no "curve" key, public signals equal to snarkjs's.
#   snarkjs   `snarkjs groth16 verify` accepts the proofs of api_test (the C API), of bin/prover
#             and of zkpipe prove --format rapidsnark, on every committed vector of both
#             curves; and README.md's rapidsnark block runs verbatim. Needs the pinned snarkjs.
set -uo pipefail
MODE=$1
BIN=$2
source "$(dirname "$0")/../support/script_checks.sh"
export ZKPIPE_LOG_LEVEL=warn

# expect NAME RC PATTERN CMD...: CMD exits RC and its output matches PATTERN.
expect() {
  local name=$1 want=$2 pattern=$3 out rc
  shift 3
  out=$("$@" 2>&1); rc=$?
  if [ $rc -eq "$want" ] && echo "$out" | grep -q -- "$pattern"; then ok "$name: $(echo "$out" | head -n 1)"
  else bad "$name: expected exit $want and '$pattern', got $rc: $out"; fi
}

# is_rapidsnark_layout PROOF PUBLIC SNARKJS_PUBLIC: the bytes are json.dumps(sort_keys, compact).
is_rapidsnark_layout() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
proof_text = open(sys.argv[1]).read()
public_text = open(sys.argv[2]).read()
proof = json.loads(proof_text)
compact = lambda v: json.dumps(v, sort_keys=True, separators=(",", ":"))
ok = (compact(proof) == proof_text and sorted(proof) == ["pi_a", "pi_b", "pi_c", "protocol"]
      and compact(json.loads(public_text)) == public_text
      and json.loads(public_text) == json.load(open(sys.argv[3])))
sys.exit(0 if ok else 1)
PY
}

case "$MODE" in
  programs)
    expect "prover with 3 arguments" 1 "Usage: prover <circuit.zkey> <witness.wtns> <proof.json> <public.json>" \
      "$BIN/prover" a b c
    expect "verifier with 2 arguments" 1 "Usage: verifier <verification_key.json> <inputs.json> <proof.json>" \
      "$BIN/verifier" a b
    d=$ROOT/tests/vectors/data/chain_bn128
    expect "prover on a missing zkey" 1 "Error: open: No such file or directory" \
      "$BIN/prover" "$TMP/none.zkey" "$d/witness.wtns" "$TMP/p.json" "$TMP/pub.json"
    expect "verifier on a missing proof" 1 "Error: open: No such file or directory" \
      "$BIN/verifier" "$d/vkey.json" "$d/public.json" "$TMP/none.json"
    # Regular files only (issue 36): a FIFO used to block for ever, /dev/zero to be read until
    # malloc failed. The timeout and the 4 GiB address-space limit only bound a regression.
    mkfifo "$TMP/fifo"
    # (Not the address-space limit under AddressSanitizer, whose shadow memory alone is larger.)
    if grep -qa __asan_init "$BIN/prover"; then  # GCC links libasan.so, clang its static runtime
      bounded() { timeout 60 "$@"; }
    else
      bounded() { (ulimit -v 4194304; timeout 60 "$@"); }
    fi
    expect "prover on a FIFO as the zkey" 1 "Error: $TMP/fifo: is a FIFO, not a regular file" \
      bounded "$BIN/prover" "$TMP/fifo" "$d/witness.wtns" "$TMP/p.json" "$TMP/pub.json"
    expect "prover on /dev/zero as the witness" 1 "Error: /dev/zero: is a character device, not a regular file" \
      bounded "$BIN/prover" "$d/circuit.zkey" /dev/zero "$TMP/p.json" "$TMP/pub.json"
    expect "verifier on a FIFO as the proof" 1 "Error: $TMP/fifo: is a FIFO, not a regular file" \
      bounded "$BIN/verifier" "$d/vkey.json" "$d/public.json" "$TMP/fifo"
    expect "verifier on /dev/zero as the key" 1 "Error: /dev/zero: is a character device, not a regular file" \
      bounded "$BIN/verifier" /dev/zero "$d/public.json" "$d/proof.json"
    expect "verifier on a directory as the inputs" 1 "Error: $d: is a directory, not a regular file" \
      bounded "$BIN/verifier" "$d/vkey.json" "$d" "$d/proof.json"
    for d in "$ROOT/samples/circuits/multiplier_bn128" "$ROOT/tests/vectors/data/many_public_bls12381"; do
      name=$(basename "$d")
      if ! out=$("$BIN/prover" "$d/circuit.zkey" "$d/witness.wtns" "$TMP/proof.json" "$TMP/public.json" 2>&1) ||
         [ -n "$out" ]; then
        bad "$name: prover failed or printed something: $out"; continue
      fi
      if is_rapidsnark_layout "$TMP/proof.json" "$TMP/public.json" "$d/public.json"; then
        ok "$name: prover writes rapidsnark's bytes, public signals are snarkjs's"
      else bad "$name: prover's files are not rapidsnark's layout: $(cat "$TMP/proof.json")"; fi
      expect "$name: verifier accepts prover's proof" 0 "Result: Valid proof" \
        "$BIN/verifier" "$d/vkey.json" "$TMP/public.json" "$TMP/proof.json"
      expect "$name: zkpipe verify accepts it (no curve key)" 0 "OK" \
        "$BIN/zkpipe" verify "$d/vkey.json" "$TMP/public.json" "$TMP/proof.json"
      python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); p["pi_c"][0]=str(int(p["pi_c"][0])^256); open(sys.argv[2],"w").write(json.dumps(p,sort_keys=True,separators=(",",":")))' \
        "$TMP/proof.json" "$TMP/tampered.json"
      expect "$name: verifier rejects a tampered proof" 1 "Result: Invalid proof" \
        "$BIN/verifier" "$d/vkey.json" "$TMP/public.json" "$TMP/tampered.json"
      head -c 40 "$TMP/proof.json" > "$TMP/malformed.json"
      expect "$name: verifier on malformed JSON" 1 "Error: " \
        "$BIN/verifier" "$d/vkey.json" "$TMP/public.json" "$TMP/malformed.json"
      if "$BIN/zkpipe" prove --format rapidsnark "$d/circuit.zkey" "$d/witness.wtns" "$TMP/zp.json" "$TMP/zpub.json" 2>/dev/null &&
         is_rapidsnark_layout "$TMP/zp.json" "$TMP/zpub.json" "$d/public.json" &&
         "$BIN/zkpipe" verify "$d/vkey.json" "$TMP/zpub.json" "$TMP/zp.json" > /dev/null; then
        ok "$name: zkpipe prove --format rapidsnark writes rapidsnark's bytes, and they verify"
      else bad "$name: zkpipe prove --format rapidsnark: $(cat "$TMP/zp.json" 2>&1)"; fi
    done ;;
  snarkjs)
    if [ ! -f "$ROOT/tests/vectors/node_modules/snarkjs/build/cli.cjs" ]; then
      echo "ERROR: snarkjs is not installed (npm ci --prefix tests/vectors): cannot run the oracle"; exit 1
    fi
    snarkjs_accepts() {  # NAME VKEY PUBLIC PROOF
      if $SNARKJS groth16 verify "$2" "$3" "$4" 2>&1 | grep -q "OK!"; then ok "$1: snarkjs verifies it"
      else bad "$1: snarkjs rejects it"; fi
    }
    for d in "$ROOT"/tests/vectors/data/*/; do
      d=${d%/}; name=$(basename "$d")
      curve=${name##*_}  # another circuit of the same curve, for a witness of the wrong length
      case "$name" in chain_*) other=$ROOT/tests/vectors/data/many_public_$curve ;; *) other=$ROOT/tests/vectors/data/chain_$curve ;; esac
      mkdir -p "$TMP/$name"
      if out=$("$BIN/rapidsnark_api_test" "$d" "$other" "$TMP/$name" 2>&1); then
        snarkjs_accepts "$name: api_test's proof" "$d/vkey.json" "$TMP/$name/public.json" "$TMP/$name/proof.json"
      else bad "$name: api_test failed: $(echo "$out" | grep FAIL)"; fi
      if "$BIN/prover" "$d/circuit.zkey" "$d/witness.wtns" "$TMP/$name/p.json" "$TMP/$name/pub.json"; then
        snarkjs_accepts "$name: bin/prover's proof" "$d/vkey.json" "$TMP/$name/pub.json" "$TMP/$name/p.json"
      else bad "$name: bin/prover failed"; fi
      if "$BIN/zkpipe" prove --format rapidsnark "$d/circuit.zkey" "$d/witness.wtns" "$TMP/$name/z.json" "$TMP/$name/zpub.json" 2>/dev/null; then
        snarkjs_accepts "$name: zkpipe prove --format rapidsnark's proof" "$d/vkey.json" "$TMP/$name/zpub.json" "$TMP/$name/z.json"
      else bad "$name: zkpipe prove --format rapidsnark failed"; fi
    done
    # README.md's rapidsnark block, verbatim, from a folder that looks like the repository root.
    if ! readme_block rapidsnark "$(cd "$BIN/.." && pwd)" host; then
      bad "README.md has no rapidsnark-example block"
    elif run_readme_block && grep -q "Result: Valid proof" "$TMP/readme/block.log"; then
      ok "README.md's rapidsnark block ran ($(wc -l < "$TMP/readme/block.sh") lines): Result: Valid proof"
    else
      bad "README.md's rapidsnark block failed:"; tail -n 20 "$TMP/readme/block.log"
    fi ;;
  *) echo "usage: $0 programs|snarkjs BIN"; exit 2 ;;
esac
summary
