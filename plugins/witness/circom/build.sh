#!/usr/bin/env bash
# Compiles circom's C++ output for one circuit into a zkpipe witness generator plugin
# ("zkp.witness/1"): the circuit's code, circom's runtime and main.cpp (for its .dat loader),
# zkpipe's adaptor (circom_generator.cpp) and the .dat file, embedded. `zkpipe witness build`
# runs it; it needs a C++ compiler and GMP (libgmp-dev), and nlohmann-json (nlohmann-json3-dev).
#
#   build.sh CIRCUIT_cpp/ OUT.so [OPT]      OPT: the optimization level, 2 unless given
#
# CIRCUIT_cpp/ is what `circom CIRCUIT.circom --c --no_asm` writes (circom 2.2.x).
# Environment: CXX (c++), ZKPIPE_WITNESS_INCLUDE (where zkpipe/zkp_witness.h and
# zkpipe/sdk/witness.hpp are; default: the source tree's abi/ and plugins/, or the install's).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${1:?usage: build.sh CIRCUIT_cpp/ OUT.so [OPT]}
out=${2:?usage: build.sh CIRCUIT_cpp/ OUT.so [OPT]}
opt=${3:-2}
fail() { echo "zkpipe witness build: $*" >&2; exit 1; }
[ -d "$src" ] || fail "$src is not a folder (circom --c writes CIRCUIT_cpp/)"
src=$(cd "$src" && pwd)
dats=("$src"/*.dat)
[ -e "${dats[0]}" ] || fail "$src holds no .dat file: is it circom --c output?"
[ "${#dats[@]}" -eq 1 ] || fail "$src holds ${#dats[@]} .dat files; one circuit a folder"
name=$(basename "${dats[0]}" .dat)
for f in "$name.cpp" calcwit.cpp calcwit.hpp circom.hpp main.cpp fr.hpp; do
  [ -e "$src/$f" ] || fail "$src/$f is missing: is this circom 2.2's --c output?"
done
if [ ! -e "$src/fr.cpp" ]; then
  [ -e "$src/fr.asm" ] && fail "$src was compiled for assembly (fr.asm): run circom with --c --no_asm"
  fail "$src/fr.cpp is missing"
fi
case "$name" in *[!A-Za-z0-9_.-]*) fail "circuit name '$name' has characters other than letters, digits, _ . -" ;; esac
if [ -n "${ZKPIPE_WITNESS_INCLUDE:-}" ]; then
  read -r -a includes <<<"$(printf -- '-I%s ' $ZKPIPE_WITNESS_INCLUDE)"
elif [ -e "$here/../../../abi/zkpipe/zkp_witness.h" ]; then
  includes=(-I"$here/../../../abi" -I"$here/../../../plugins")
else
  includes=(-I"$here/../../../include")  # installed: share/zkpipe/witness/circom -> include
fi
cxx=${CXX:-c++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/dat.S" <<ASM
  .section .rodata
  .balign 8
  .globl zkp_circom_dat
  .hidden zkp_circom_dat
zkp_circom_dat:
  .incbin "$src/$name.dat"
  .globl zkp_circom_dat_end
  .hidden zkp_circom_dat_end
zkp_circom_dat_end:
  .section .note.GNU-stack,"",@progbits
ASM
common=(-fPIC -fvisibility=hidden -O"$opt" -I"$here/shim" -I"$src" "${includes[@]}" -include "$here/shim/circom_output.hpp")
# circom's own units: its code, as circom's Makefile builds it, without its warnings.
pids=()
compile() { "$cxx" -std=c++17 -w "${common[@]}" "$@" & pids+=($!); }
compile -c "$src/$name.cpp" -o "$work/circuit.o"
compile -c "$src/calcwit.cpp" -o "$work/calcwit.o"
compile -c "$src/fr.cpp" -o "$work/fr.o"
compile -Dmain=zkp_circom_unused_main -c "$src/main.cpp" -o "$work/main.o"
"$cxx" -std=c++20 -Wall -Wextra "${common[@]}" -DZKP_CIRCOM_CIRCUIT_NAME="\"$name\"" -c "$here/circom_generator.cpp" \
  -o "$work/generator.o" & pids+=($!)
"$cxx" -c "$work/dat.S" -o "$work/dat.o"
for p in "${pids[@]}"; do wait "$p" || fail "compiling $src failed (above)"; done
"$cxx" -shared -Wl,-z,defs -o "$out" "$work"/*.o -lgmp
echo "zkpipe witness build: $out: circuit $name ($(du -k "$out" | cut -f1) KiB)"
