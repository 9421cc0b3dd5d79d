#!/bin/bash
# worker_flags.sh ZKPIPE — `zkpipe worker`'s flags (host/queue/worker_flags.cpp) refuse what they
# always refused, each with exit 2 and a line naming the flag, before any database is reached
# (the URL below names no server; a check that let a value through would try to connect and
# fail otherwise, with exit 75).
set -uo pipefail
ZKPIPE=$1
unset ZKPIPE_QUEUE
URL=postgresql://nobody@127.0.0.1:1/none
source "$(dirname "$0")/../support/script_checks.sh"

refused() {  # refused PATTERN ARGS...: `zkpipe worker ARGS` exits 2, saying PATTERN and the usage
  local pattern=$1 out rc
  shift
  out=$(timeout 20 "$ZKPIPE" worker "$@" 2>&1); rc=$?
  if [ $rc -eq 2 ] && grep -qF -- "$pattern" <<< "$out" && grep -q "^Usage: zkpipe worker --queue URL \[--id NAME\]" <<< "$out"; then
    ok "worker $*: exit 2, $pattern"
  else
    bad "worker $*: exit $rc, $out"
  fi
}
refused "no job store: give --queue" --lease-ms 1000
refused "--lease-ms must be positive" --queue "$URL" --lease-ms 0
refused "--heartbeat-ms must be positive" --queue "$URL" --lease-ms 2
refused "--heartbeat-ms must be shorter than --lease-ms" --queue "$URL" --heartbeat-ms 30000
refused "--poll-ms must be positive" --queue "$URL" --poll-ms 0
refused "--reconnect-ms must not be negative" --queue "$URL" --reconnect-ms=-1
refused "--attempt-deadline-ms must not be negative" --queue "$URL" --attempt-deadline-ms=-1
refused "--result-batch must be at least 1" --queue "$URL" --result-batch 0
refused "--result-batch-ms must not be negative" --queue "$URL" --result-batch-ms=-1
refused "--key-idle-ms must not be negative" --queue "$URL" --key-idle-ms=-1
refused "--id must not be empty" --queue "$URL" --id ""
refused "--curves lists bn254 and bls12_381, not 'bn128'" --queue "$URL" --curves bn254,bn128
refused "--markdown goes with --help" --queue "$URL" --markdown
summary
