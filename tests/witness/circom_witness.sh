#!/usr/bin/env bash
# zkpipe's circom witness generator (issue 41): every committed vector's circuit compiled by
# circom (circom2 0.2.23 = circom 2.2.3, --c --no_asm, the vector's prime) and built with
# `zkpipe witness build`; its witness of the vector's input.json must be the committed
# witness.wtns, which `snarkjs wtns calculate` wrote, byte for byte. Then bad inputs, each
# refused with its status (exit 1) and a message naming the signal or the template's line,
# while the generator stays usable.
#
#   circom_witness.sh ZKPIPE_BINARY WORK_DIR [INPUT_JOB_BINARY]
set -euo pipefail
zkpipe=${1:?usage: circom_witness.sh ZKPIPE WORK_DIR [INPUT_JOB]}
work=${2:?usage: circom_witness.sh ZKPIPE WORK_DIR [INPUT_JOB]}
input_job=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
vectors=$here/../vectors
circom="node $vectors/node_modules/circom2/cli.js"
# As vectors_snarkjs_verify: without the pinned toolchain the test fails and says so (CI and
# scripts/install-deps.sh install it).
[ -e "$vectors/node_modules/circom2/cli.js" ] || { echo "FAIL: circom2 is not installed (npm ci --prefix tests/vectors)"; exit 1; }
rm -rf "$work" && mkdir -p "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# compile NAME CIRCOM_FILE PRIME: NAME.witness.so in $work (built at -O0: CI time).
compile() {
  local name=$1 src=$2 prime=$3 out="$work/$1"
  mkdir -p "$out"
  # circom2 runs under WASI with its working directory's ancestors preopened (make_vectors.sh).
  (cd "$vectors" && $circom "$src" --c --no_asm --prime "$prime" -l node_modules -o "$out") >"$out/circom.log" 2>&1 ||
    { cat "$out/circom.log"; return 1; }
  "$zkpipe" witness build "$out/$(basename "$src" .circom)_cpp" -o "$work/$name.witness.so" --opt 0
}

for circuit in chain many_public poseidon; do
  for curve in bn128 bls12381; do
    v=${circuit}_$curve
    compile "$v" "$vectors/circuits/$circuit.circom" "$curve" || { fail "$v: the generator did not build"; continue; }
    if "$zkpipe" witness calculate "$work/$v.witness.so" "$vectors/data/$v/input.json" -o "$work/$v.wtns"; then
      if cmp -s "$work/$v.wtns" "$vectors/data/$v/witness.wtns"; then
        echo "ok: $v: the witness is snarkjs's, byte for byte ($(stat -c %s "$work/$v.wtns") bytes)"
      else
        fail "$v: the witness differs from snarkjs's (cmp: $(cmp "$work/$v.wtns" "$vectors/data/$v/witness.wtns" 2>&1 || true))"
      fi
    else
      fail "$v: calculate failed"
    fi
  done
done
# From input to proof (zkpipe prove --witness-generator --input, the cpu prover, a key=value
# override after the three files): every vector's
# proof verifies, with zkpipe and with snarkjs, and its public signals are snarkjs's.
snarkjs="node $vectors/node_modules/snarkjs/cli.js"
for v in chain_bn128 many_public_bn128 poseidon_bn128 chain_bls12381 many_public_bls12381 poseidon_bls12381; do
  [ -e "$work/$v.witness.so" ] || continue
  if "$zkpipe" prove --witness-generator "$work/$v.witness.so" --input "$vectors/data/$v/input.json" \
      "$vectors/data/$v/circuit.zkey" "$work/$v.proof.json" "$work/$v.public.json" self_check=true 2>"$work/$v.prove.log"; then
    cmp -s "$work/$v.public.json" "$vectors/data/$v/public.json" || fail "$v: public.json differs from snarkjs's"
    "$zkpipe" verify "$vectors/data/$v/vkey.json" "$work/$v.public.json" "$work/$v.proof.json" >/dev/null 2>&1 ||
      fail "$v: zkpipe verify rejects the proof made from input.json"
    $snarkjs groth16 verify "$vectors/data/$v/vkey.json" "$work/$v.public.json" "$work/$v.proof.json" 2>&1 | grep -q "OK!" ||
      fail "$v: snarkjs rejects the proof made from input.json"
    echo "ok: $v: input.json -> proof, verified by zkpipe and snarkjs"
  else
    fail "$v: zkpipe prove --input failed: $(tail -n 1 "$work/$v.prove.log")"
  fi
done
# A job of 24 input partitions through the C API, witnesses computed on 4 synthesis threads at
# once; two bad inputs fail alone (input_job.c).
if [ -n "$input_job" ]; then
  if out=$("$input_job" "$vectors/data/chain_bn128/circuit.zkey" "$work/chain_bn128.witness.so" 2>&1); then
    echo "ok: $out"
  else
    fail "input_job: $out"
  fi
fi

# A generator of another circuit, and an input the circuit refuses, through prove.
message=$("$zkpipe" prove --witness-generator "$work/chain_bn128.witness.so" --input "$vectors/data/chain_bn128/input.json" \
  "$vectors/data/many_public_bn128/circuit.zkey" "$work/x.json" "$work/y.json" 2>&1) && fail "a foreign generator was taken"
[[ "$message" == *"not its circuit [bad input]"* ]] || fail "a foreign generator: $message"
printf '{"x": "3"}' >"$work/missing.json"
message=$("$zkpipe" prove --witness-generator "$work/chain_bn128.witness.so" --input "$work/missing.json" \
  "$vectors/data/chain_bn128/circuit.zkey" "$work/x.json" "$work/y.json" 2>&1) && fail "an input missing a signal was proved"
[[ "$message" == *"witness generation: the input sets 1 of circuit chain's 2 input values: 1 missing [bad input]"* ]] ||
  fail "prove of an input missing a signal: $message"
[ -e "$work/x.json" ] && fail "a failed prove wrote its proof file"

"$zkpipe" witness info "$work/chain_bn128.witness.so" | grep -q "circuit chain: curve bn128, 2003 signals, 1 outputs, 2 input values" ||
  fail "witness info: $("$zkpipe" witness info "$work/chain_bn128.witness.so" 2>&1)"

# refused INPUT_JSON WORDS...: calculate fails (exit 1) and its message holds each of WORDS.
refused() {
  local generator=$1 input=$2
  shift 2
  printf '%s' "$input" >"$work/input.json"
  local message rc=0
  message=$("$zkpipe" witness calculate "$generator" "$work/input.json" -o "$work/refused.wtns" 2>&1) || rc=$?
  if [ "$rc" -ne 1 ]; then fail "input $input: exit $rc, expected 1 ($message)"; return; fi
  for word in "$@"; do
    if [[ "$message" != *"$word"* ]]; then fail "input $input: the message lacks '$word': $message"; return; fi
  done
  echo "ok: refused $input: ${message##*zkpipe witness: }"
}
chain=$work/chain_bn128.witness.so
p=21888242871839275222246405745257275088548364400416034343698204186575808495617
refused "$chain" '{"x": "3"}' "1 missing" "[bad input]"
refused "$chain" '{"x": "3", "k": "7", "z": "1"}' "'z' is not an input of circuit chain" "[bad input]"
refused "$chain" '{"x": ["3", "4"], "k": "7"}' "'x' takes 1 value(s), the input gives 2"
refused "$chain" "{\"x\": \"$p\", \"k\": \"7\"}" "'x': $p is not below the field prime"
refused "$chain" '{"x": "1.5", "k": "7"}' "'x': '1.5' is not an integer"
refused "$chain" '{"x": true, "k": "7"}' "'x': true is not an integer"
refused "$chain" '{"x": "3", "k": ' "input.json:" "[bad input]"
refused "$chain" '[1, 2]' "not a JSON object"
# The generator is usable after every refusal, and "-4" is p - 4 as snarkjs reads it.
"$zkpipe" witness calculate "$chain" "$vectors/data/chain_bn128/input.json" -o "$work/again.wtns" &&
  cmp -s "$work/again.wtns" "$vectors/data/chain_bn128/witness.wtns" || fail "the witness after the refusals differs"
printf '{"x": "-4", "k": "7"}' >"$work/negative.json"
"$zkpipe" witness calculate "$chain" "$work/negative.json" -o "$work/negative.wtns" || fail "a negative input value was refused"

# A failed assert in the circuit's own code: refused as an unsatisfied witness, naming the
# template and its line; an input it allows goes through.
compile guarded "$here/circuits/guarded.circom" bn128 || fail "guarded: the generator did not build"
refused "$work/guarded.witness.so" '{"x": "100"}' "circuit guarded refused the input" "Guarded" "line 8" "[unsatisfied witness]"
printf '{"x": "99"}' >"$work/guarded.json"
"$zkpipe" witness calculate "$work/guarded.witness.so" "$work/guarded.json" -o "$work/guarded.wtns" || fail "x = 99 was refused"

# Not circom's --no_asm output: refused, saying what to do.
mkdir -p "$work/asm_cpp" && cp "$work/chain_bn128/chain_cpp/"* "$work/asm_cpp/" && mv "$work/asm_cpp/fr.cpp" "$work/asm_cpp/fr.asm"
message=$("$zkpipe" witness build "$work/asm_cpp" -o "$work/asm.so" 2>&1) && fail "a build without fr.cpp succeeded"
[[ "$message" == *"--no_asm"* ]] || fail "the asm build's message does not say --no_asm: $message"

# Inputs through `zkpipe serve` (LoadKey with a generator from serve.generator_dirs, a job whose
# witnesses are input.json texts), with `zkpipe client`; a generator from elsewhere is refused
# (it is code the server would run), and so are inputs for a key loaded without one.
if "$zkpipe" serve --help >/dev/null 2>&1; then
  gdir=$work/generators
  mkdir -p "$gdir" "$work/served" && cp "$work/chain_bn128.witness.so" "$gdir/"
  cat >"$work/serve.ini" <<INI
prover = cpu
log_level = warn
[serve]
socket = $work/serve.sock
key_dirs = $vectors/data
generator_dirs = $gdir
INI
  "$zkpipe" serve --config "$work/serve.ini" 2>"$work/serve.log" &
  served=$!
  for _ in $(seq 200); do grep -q "listening on" "$work/serve.log" && break; kill -0 $served 2>/dev/null || break; sleep 0.05; done
  v=$vectors/data/chain_bn128
  client=("$zkpipe" client --socket "$work/serve.sock")
  if "${client[@]}" prove "$v/circuit.zkey" --witness-generator "$gdir/chain_bn128.witness.so" --inputs "$v/input.json" \
      --out "$work/served" >"$work/client.log" 2>&1 &&
     "$zkpipe" verify "$v/vkey.json" "$work/served/public.json" "$work/served/proof.json" >/dev/null 2>&1 &&
     cmp -s "$work/served/public.json" "$v/public.json"; then
    echo "ok: zkpipe serve proved input.json through the key's generator; the proof verifies"
  else
    fail "serve with inputs: $(tail -n 3 "$work/client.log")"
  fi
  message=$("${client[@]}" load "$v/circuit.zkey" --witness-generator "$work/chain_bn128.witness.so" 2>&1) &&
    fail "a generator outside serve.generator_dirs was loaded"
  [[ "$message" == *"is not inside serve.generator_dirs"* ]] || fail "a generator from elsewhere: $message"
  message=$("${client[@]}" prove "$v/circuit.zkey" --inputs "$v/input.json" --out "$work/served" 2>&1) &&
    fail "inputs for a key without a generator were proved"
  [[ "$message" == *"has no witness generator"* ]] || fail "inputs without a generator: $message"
  echo "ok: serve refused a generator outside serve.generator_dirs and inputs for a key without one"
  kill -TERM $served && wait $served || fail "serve did not exit 0 on SIGTERM: $(tail -n 5 "$work/serve.log")"
else
  echo "SKIPPED (loudly): this zkpipe has no serve (ZKPIPE_SERVE=OFF): inputs through serve not checked"
fi

# README.md's witness example, verbatim, from a folder that looks like the repository root.
readme=$work/readme
mkdir -p "$readme" && ln -s "$here/.." "$readme/tests" && ln -s "$(cd "$(dirname "$zkpipe")/.." && pwd)" "$readme/build"
awk 'index($0, "<!-- witness-example") { want = 1; next } want && /^```sh/ { inside = 1; next }
     inside && /^```/ { exit } inside { print }' "$here/../../README.md" >"$readme/block.sh"
if [ ! -s "$readme/block.sh" ]; then
  fail "README.md has no witness-example block"
elif (cd "$readme" && timeout 300 bash -e block.sh >block.log 2>&1); then
  grep -q "zkpipe verify: OK" "$readme/block.log" && echo "ok: README's witness example ran, its proof verified" ||
    fail "README's witness example: no verified proof: $(tail -n 3 "$readme/block.log")"
else
  fail "README's witness example failed: $(tail -n 5 "$readme/block.log")"
fi

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "circom_witness: all passed"
