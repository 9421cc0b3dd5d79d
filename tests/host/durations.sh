#!/bin/bash
# durations.sh ZKPIPE — every duration flag refuses what is no duration (issue 36): "inf", "nan"
# and "1e300" went through an unchecked double-to-integer conversion and timed out at once. Each
# is exit 2 with a line naming the flag, before any database or server is reached (the URL and
# address below name none: a value let through would fail otherwise, with another exit).
set -uo pipefail
ZKPIPE=$1
unset ZKPIPE_QUEUE
URL=postgresql://nobody@127.0.0.1:1/none
K=$(cd "$(dirname "$0")/../vectors/data/chain_bn128" && pwd)
source "$(dirname "$0")/../support/script_checks.sh"

refused() {  # refused PATTERN ARGS...: `zkpipe ARGS` exits 2, its message starting with PATTERN
  local pattern=$1 out rc
  shift
  out=$(timeout 30 "$ZKPIPE" "$@" 2>&1); rc=$?
  if [ $rc -eq 2 ] && grep -qF -- "$pattern" <<< "$out"; then
    ok "zkpipe $*: exit 2, $(head -n 1 <<< "$out")"
  else
    bad "zkpipe $*: exit $rc, $out"
  fi
}
for bad in inf nan 1e300 -1; do
  refused "--wait '$bad'" jobs --queue "$URL" 1 --wait "$bad"
  refused "--wait '$bad'" enqueue --queue "$URL" --key "$K/circuit.zkey" --wait "$bad" "$K/witness.wtns"
  refused "--connect-timeout '$bad'" client --address 127.0.0.1:1 --connect-timeout "$bad" health
  refused "--wait '$bad'" client --address 127.0.0.1:1 job-status 1 --wait "$bad"
  refused "--duration '$bad'" bench --key "$K/circuit.zkey" --witness "$K/witness.wtns" --duration "$bad"
  refused "--connect-timeout '$bad'" bench --key "$K/circuit.zkey" --witness "$K/witness.wtns" --socket /nonexistent \
    --connect-timeout "$bad"
done
for flag in lease-ms heartbeat-ms poll-ms reconnect-ms attempt-deadline-ms result-batch-ms key-idle-ms; do
  refused "--$flag 'nan' is not a duration" worker --queue "$URL" "--$flag" nan
  refused "--$flag '99999999999' is more than 30 days" worker --queue "$URL" "--$flag" 99999999999
done
refused "serve.grace = 'inf' is invalid" serve serve.grace=inf
refused "serve.grace = '31d' is invalid" serve serve.grace=31d
summary
