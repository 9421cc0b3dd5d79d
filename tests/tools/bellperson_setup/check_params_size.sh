#!/usr/bin/env bash
# check_params_size.sh SETUP_EXE CIRCUIT.r1cs OUT.params
# Runs the setup and checks that it exits 0 and that the file is exactly as long as its six u32
# big-endian counts say (vk: 3 G1 + 3 G2 points; then ic, h, l, a, b_g1 in G1, b_g2 in G2), and
# that b_g1 and b_g2 have the same count.
set -euo pipefail
exe=$1 r1cs=$2 out=$3
rm -f "$out"
"$exe" "$r1cs" "$out" --seed 7
g1=96 g2=192
u32be() { od -An -tu1 -j "$1" -N4 "$out" | awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }'; }
off=$((3 * g1 + 3 * g2))
counts=()
for size in $g1 $g1 $g1 $g1 $g1 $g2; do  # ic h l a b_g1 b_g2
  n=$(u32be "$off")
  counts+=("$n")
  off=$((off + 4 + n * size))
done
actual=$(stat -c %s "$out")
echo "counts ic h l a b_g1 b_g2: ${counts[*]}; expected $off bytes, file has $actual"
[[ "${counts[4]}" == "${counts[5]}" ]] || { echo "b_g1 and b_g2 counts differ"; exit 1; }
[[ "$actual" == "$off" ]] || { echo "size mismatch"; exit 1; }
