#!/bin/bash
# install_samples.sh BUILD_DIR — zkpipe as a third party gets it: runs README.md's Install block
# verbatim (cmake --install of BUILD_DIR into a fresh prefix, the two out-of-tree samples and
# the README's example pacer built from that prefix alone and installed into it, a proof with
# the sample backend, the C sample linked through pkg-config), then checks what it made:
#   - the CMake package and pkg-config files are installed, and plugindir names the plugins;
#   - each sample plugin exports zkp_plugin_entry and nothing else;
#   - the installed `zkpipe plugins` finds the three by short name, and the example pacer
#     paces the installed host;
#   - the reference backend's proofs (the README's and many_public_bn128's) are
#     accepted by `zkpipe verify` and by snarkjs, and public.json equals snarkjs's; it refuses
#     an unsatisfied witness;
#   - `zkpipe check-plugin` (the installed one) passes both samples;
#   - a caller built with find_package(zkpipe) linking zkpipe::zkpipe runs;
#   - librapidsnark exports rapidsnark's functions alone, a rapidsnark caller built with
#     `pkg-config rapidsnark` runs from the prefix, and the installed prover/verifier work;
#   - C (pkg-config, CMake), Rust and Go programs built from the prefix run with no
#     LD_LIBRARY_PATH (none is set in this script).
# The samples see only the prefix: the source tree's abi/ and plugins/ are not on any path.
set -uo pipefail
BUILD=$(cd "$1" && pwd)
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SNARKJS="node $ROOT/tests/vectors/node_modules/snarkjs/build/cli.cjs"
if [ ! -f "$ROOT/tests/vectors/node_modules/snarkjs/build/cli.cjs" ]; then
  echo "ERROR: snarkjs is not installed (npm ci --prefix tests/vectors): cannot run the oracle"
  exit 1
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export ZKPIPE_LOG_LEVEL=warn
# Programs built from the prefix find its libraries by the rpath pkg-config's Libs give them
# (and CMake's package), never by a path set here.
unset ZKPIPE_PLUGIN_PATH LD_LIBRARY_PATH
pass=0; fail=0
ok()  { echo "ok    $*"; pass=$((pass + 1)); }
bad() { echo "FAIL  $*"; fail=$((fail + 1)); }

# The README block runs from a folder that looks like the repository root to it: `build` is
# the build under test, `samples` the committed samples (read only).
cd "$WORK"
ln -s "$BUILD" build
ln -s "$ROOT/samples" samples
export PREFIX=$WORK/prefix
awk '/<!-- install-example/ { want = 1; next } want && /^```sh/ { inside = 1; next }
     inside && /^```/ { exit } inside { print }' "$ROOT/README.md" > readme_install.sh
if [ ! -s readme_install.sh ]; then
  bad "README.md has no install-example block"
elif bash -e readme_install.sh > readme_install.log 2>&1; then
  ok "README.md's Install block ran ($(wc -l < readme_install.sh) lines)"
else
  bad "README.md's Install block failed:"; tail -n 30 readme_install.log
fi
ZKPIPE=$PREFIX/bin/zkpipe

for f in lib/cmake/zkpipe/zkpipeConfig.cmake lib/cmake/zkpipe/zkpipeConfigVersion.cmake \
         lib/cmake/zkpipe/zkpipeAddPlugin.cmake lib/cmake/zkpipe/plugin.map lib/pkgconfig/zkpipe.pc \
         include/zkpipe/zkpipe.h include/zkpipe/sdk/plugin.hpp; do
  if [ -f "$PREFIX/$f" ]; then ok "installed $f"; else bad "not installed: $f"; fi
done
plugindir=$(PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig pkg-config --variable=plugindir zkpipe)
if [ -f "$plugindir/libzkp_prover_cpu.so" ] && [ -f "$plugindir/libzkp_prover_reference.so" ]; then
  ok "pkg-config plugindir $plugindir holds the built-in and the sample plugins"
else bad "pkg-config plugindir '$plugindir' lacks libzkp_prover_cpu.so or libzkp_prover_reference.so"; fi

for lib in libzkp_prover_reference.so libzkp_pacer_depth.so libzkp_pacer_every_n_ms.so; do
  syms=$(nm -D --defined-only "$PREFIX/lib/zkpipe/$lib" 2>&1 | awk '{ print $NF }' | sort | tr '\n' ' ')
  if [ "$syms" = "zkp_plugin_entry " ]; then ok "$lib exports zkp_plugin_entry alone"
  else bad "$lib exports: $syms"; fi
done

listing=$("$ZKPIPE" plugins 2>&1)
for name in reference depth every_n_ms; do
  if echo "$listing" | grep -q "name $name, version"; then ok "installed zkpipe plugins finds '$name'"
  else bad "installed zkpipe plugins does not list '$name': $listing"; fi
done

# prove_and_check NAME DIR: the reference backend proves DIR's witness; both verifiers accept.
prove_and_check() {
  local name=$1 d=$2 out
  if ! out=$("$ZKPIPE" prove --backend reference "$d/circuit.zkey" "$d/witness.wtns" p.json pub.json 2>&1); then
    bad "$name: reference prove failed: $out"; return
  fi
  if out=$("$ZKPIPE" verify "$d/vkey.json" pub.json p.json 2>&1); then ok "$name: zkpipe verify accepts the reference proof"
  else bad "$name: zkpipe verify rejects the reference proof: $out"; fi
  if $SNARKJS groth16 verify "$d/vkey.json" pub.json p.json 2>&1 | grep -q "OK!"; then
    ok "$name: snarkjs verifies the reference proof"
  else bad "$name: snarkjs rejects the reference proof"; fi
  if cmp -s pub.json "$d/public.json"; then ok "$name: public.json identical to snarkjs's"
  else bad "$name: public.json differs from snarkjs's"; fi
  rm -f p.json pub.json
}
if [ -f proof.json ] && $SNARKJS groth16 verify samples/circuits/multiplier_bn128/vkey.json public.json proof.json 2>&1 | grep -q "OK!"; then
  ok "multiplier_bn128: snarkjs verifies the README's reference proof"
else bad "multiplier_bn128: no README proof, or snarkjs rejects it"; fi
# One committed vector (the one with 32 public inputs) besides the README's: the textbook backend
# takes seconds per proof on a busy CI core, and check-plugin below proves it a dozen times more.
prove_and_check many_public_bn128 "$ROOT/tests/vectors/data/many_public_bn128"

# Its self-check refuses a witness that does not satisfy the circuit (the last wire of a circom
# witness is an intermediate signal: changing it breaks a constraint).
d=$ROOT/tests/vectors/data/many_public_bn128
python3 -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); b[-32]^=1; open(sys.argv[2],"wb").write(b)' \
  "$d/witness.wtns" unsatisfied.wtns
out=$("$ZKPIPE" prove --backend reference "$d/circuit.zkey" unsatisfied.wtns p.json pub.json 2>&1); rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -q "unsatisfied witness" && [ ! -e p.json ]; then
  ok "the reference backend refuses an unsatisfied witness: $(echo "$out" | tail -n 1)"
else bad "unsatisfied witness: exit $rc, p.json $( [ -e p.json ] && echo written || echo absent): $out"; fi

# The conformance suite, from the installed zkpipe (its built-in cpu prover is the reference),
# on both samples; the pacer also beside greedy in the build's pacing simulator.
V=$ROOT/tests/vectors/data/many_public_bn128,$ROOT/tests/vectors/data/chain_bls12381  # the smallest BN254 vector: ~10 textbook proofs
if out=$("$ZKPIPE" check-plugin "$PREFIX/lib/zkpipe/libzkp_prover_reference.so" --vectors "$V" 2>&1); then
  ok "check-plugin passes the reference backend: $(echo "$out" | tail -n 1)"
else bad "check-plugin fails the reference backend:"; echo "$out" | grep -v "^ok"; fi
sim=()
[ -x "$BUILD/bin/zkpipe-pacing-sim" ] && sim=(--pacing-sim "$BUILD/bin/zkpipe-pacing-sim" --scenario "$ROOT/tests/pacing_sim/scenarios/gpu_bound.conf")
if out=$("$ZKPIPE" check-plugin "$PREFIX/lib/zkpipe/libzkp_pacer_depth.so" "${sim[@]}" 2>&1); then
  ok "check-plugin passes the depth pacer: $(echo "$out" | tail -n 1)"
else bad "check-plugin fails the depth pacer:"; echo "$out" | grep -v "^ok"; fi

# The README's example pacer, built from the prefix alone, paces the installed host: 20
# partitions on the sim prover, every one proved, under its own status line.
out=$("$ZKPIPE" run --partitions 20 prover=sim prover.devices=2 prover.gpu_ms=5 pacer=every_n_ms \
      pacer.interval_ms=2 status_every=10 2>&1)
if echo "$out" | grep -q "pacer every_n_ms: every 2 ms" && echo "$out" | grep -q "20 succeeded, 0 failed"; then
  ok "the installed every_n_ms pacer paces the installed host: $(echo "$out" | tail -n 1)"
else bad "every_n_ms through the installed host: $out"; fi

# A caller of the C API through the CMake package (zkpipe::zkpipe), as the pkg-config one above.
mkdir caller
cat > caller/CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(zkpipe_caller LANGUAGES C)
find_package(zkpipe 0.1 REQUIRED)
add_executable(sample_c "${SAMPLE_C}")
target_link_libraries(sample_c PRIVATE zkpipe::zkpipe)
CMAKE
if out=$(cmake -S caller -B caller/build -DCMAKE_PREFIX_PATH="$PREFIX" -DSAMPLE_C="$ROOT/samples/c/sample.c" 2>&1 &&
         cmake --build caller/build 2>&1 && caller/build/sample_c 4 2>&1) && echo "$out" | grep -qx ok; then
  ok "a C caller linked with find_package(zkpipe) and zkpipe::zkpipe runs"
else bad "C caller through zkpipe::zkpipe: $out"; fi

# librapidsnark from the prefix: a C program on rapidsnark's headers, built with
# `pkg-config rapidsnark` alone, proves and verifies through the installed library, which finds
# the installed cpu plugin beside the installed libzkpipe; the installed bin/prover and
# bin/verifier do the same as rapidsnark's programs.
nm_out=$(nm -D --defined-only "$PREFIX/lib/librapidsnark.so" | awk '{print $3}' | grep -v '^groth16_' | grep -v '^$')
if [ -z "$nm_out" ]; then ok "librapidsnark exports groth16_* alone"
else bad "librapidsnark exports more than groth16_*: $nm_out"; fi
d=$ROOT/tests/vectors/data
if out=$(cc "$ROOT/tests/rapidsnark/api_test.c" -o rs_api_test \
           $(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --cflags --libs rapidsnark) -lpthread 2>&1) &&
   mkdir -p rs_out && out=$(./rs_api_test "$d/many_public_bn128" "$d/chain_bn128" rs_out 2>&1); then
  ok "a rapidsnark caller built from the prefix with pkg-config runs: $(echo "$out" | tail -n 1)"
else bad "rapidsnark caller from the prefix: $out"; fi
if "$PREFIX/bin/prover" "$d/chain_bls12381/circuit.zkey" "$d/chain_bls12381/witness.wtns" rs_p.json rs_pub.json &&
   out=$("$PREFIX/bin/verifier" "$d/chain_bls12381/vkey.json" rs_pub.json rs_p.json 2>&1) && [ "$out" = "Result: Valid proof" ]; then
  ok "the installed prover and verifier: $out"
else bad "the installed prover and verifier: $out"; fi

# libzkpipe_client (built where gRPC is): zkp_client_* alone, and a C caller built with
# `pkg-config zkpipe-client` from the prefix links and loads it (run without a server, it stops
# at its first missing ZKPIPE_CLIENT_* variable: tests/client runs it against one).
if [ -f "$PREFIX/lib/libzkpipe_client.so" ]; then
  nm_out=$(nm -D --defined-only "$PREFIX/lib/libzkpipe_client.so" | awk '{print $3}' | grep -v '^zkp_client_' | grep -v '^$')
  if [ -z "$nm_out" ]; then ok "libzkpipe_client exports zkp_client_* alone"
  else bad "libzkpipe_client exports more than zkp_client_*: $nm_out"; fi
  if out=$(cc -std=c99 -pedantic-errors "$ROOT/tests/client/client_capi_test.c" -o client_capi_test \
             $(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --cflags --libs zkpipe-client) -lpthread 2>&1); then
    out=$(env -u ZKPIPE_CLIENT_SOCKET ./client_capi_test 2>&1); rc=$?
    [ $rc -eq 2 ] && echo "$out" | grep -q "ZKPIPE_CLIENT_SOCKET is not set" &&
      ok "a libzkpipe_client caller built from the prefix with pkg-config zkpipe-client loads it" ||
      bad "the libzkpipe_client caller from the prefix: exit $rc, $out"
  else bad "a libzkpipe_client caller with pkg-config zkpipe-client: $out"; fi
fi

# Rust and Go programs built against the prefix (pkg-config zkpipe, as their packages find it)
# from outside the tree: the committed samples/rust and samples/go, copied out with their
# package paths made absolute, built with no ZKPIPE_LIB_DIR and run with no LD_LIBRARY_PATH.
# The Rust program names the installed library by its path (abi/rust/linking/link.rs);
# the Go one gets zkpipe.pc's rpath through cgo.
if command -v cargo >/dev/null 2>&1 || [ -x "$HOME/.cargo/bin/cargo" ]; then
  mkdir rust_out && cp -r "$ROOT/samples/rust/Cargo.toml" "$ROOT/samples/rust/Cargo.lock" "$ROOT/samples/rust/src" \
    "$ROOT/samples/rust/examples" rust_out/
  sed -i "s|path = \"../../abi/rust/|path = \"$ROOT/abi/rust/|" rust_out/Cargo.toml
  if out=$(cd rust_out && env -u ZKPIPE_LIB_DIR PATH="$PATH:$HOME/.cargo/bin" PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" \
             CARGO_TARGET_DIR="$WORK/rust_target" cargo build --offline -q -j2 2>&1) &&
     out=$("$WORK/rust_target/debug/zkpipe-rust-sample" 2>/dev/null) && echo "$out" | grep -q "6 completions on gpu_index 1"; then
    ok "a Rust program on the zkpipe crate, built from the prefix, runs without LD_LIBRARY_PATH: $(echo "$out" | tail -n 1)"
  else bad "the Rust sample built from the prefix: $out"; fi
else echo "not checked: cargo not found (scripts/install-deps.sh installs it): the Rust program from the prefix"; fi
if command -v go >/dev/null 2>&1; then
  mkdir go_out && cp "$ROOT/samples/go/go.mod" "$ROOT/samples/go/main.go" go_out/
  sed -i "s|=> ../../abi/go/zkpipe|=> $ROOT/abi/go/zkpipe|" go_out/go.mod
  if out=$(cd go_out && PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" GOFLAGS=-mod=mod GOPROXY=off GOCACHE="$WORK/gocache" \
             go build -o "$WORK/go_sample" . 2>&1) &&
     out=$("$WORK/go_sample" 2>/dev/null) && echo "$out" | grep -q "6 completions on gpu_index 1"; then
    ok "a Go program on the zkpipe package, built from the prefix with pkg-config, runs without LD_LIBRARY_PATH: $(echo "$out" | tail -n 1)"
  else bad "the Go sample built from the prefix: $out"; fi
else echo "not checked: go not found (scripts/install-deps.sh installs golang-go): the Go program from the prefix"; fi

echo "$pass passed, $fail failed"
[ $pass -gt 0 ] && [ $fail -eq 0 ]
