#!/bin/bash
# usage: snarkjs_sbs.sh ROUNDS KEYDIR... ; interleaved side by side of whole proofs of zkpipe's CLI
# (this build: build/bin/zkpipe prove, cpu plugin) and `snarkjs groth16 prove` (tests/vectors's
# pinned snarkjs) on the same zkey and witness, one line per run:
#   keydir prover wall_s user_s sys_s maxrss_kB load1 exit_status
# Keys: bench_synthetic_key_files CURVE:LOG2 DIR (synthetic squaring chains, known toxic waste,
# INSECURE), outside the repository.
R=$1; shift
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
ZK=$ROOT/build/bin/zkpipe
SJ=$ROOT/tests/vectors/node_modules/.bin/snarkjs
T=$(mktemp -d)
for ((i = 0; i < R; i++)); do
  for K in "$@"; do
    n=$(basename "$K")
    L=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f "$n snarkjs %e %U %S %M $L %x" -o $T/t.txt $SJ groth16 prove $K/circuit.zkey $K/witness.wtns $T/p_sj.json $T/pub_sj.json > /dev/null 2>&1
    cat $T/t.txt
    L=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f "$n zkpipe %e %U %S %M $L %x" -o $T/t.txt $ZK prove $K/circuit.zkey $K/witness.wtns $T/p_zk.json $T/pub_zk.json > /dev/null 2>&1
    cat $T/t.txt
  done
done
rm -rf "$T"
