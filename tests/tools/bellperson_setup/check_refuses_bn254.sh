#!/usr/bin/env bash
# check_refuses_bn254.sh SETUP_EXE BN254.r1cs OUT.params
# The setup must fail on a BN254 circuit, say why, and leave no output file.
set -uo pipefail
exe=$1 r1cs=$2 out=$3
rm -f "$out"
msg=$("$exe" "$r1cs" "$out" 2>&1)
rc=$?
echo "$msg"
[[ $rc -ne 0 ]] || { echo "exit code 0 for a BN254 circuit"; exit 1; }
grep -q "only for BLS12-381" <<<"$msg" || { echo "no reason given"; exit 1; }
[[ ! -e "$out" ]] || { echo "$out was written"; exit 1; }
