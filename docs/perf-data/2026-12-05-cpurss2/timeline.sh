#!/bin/bash
# usage: timeline.sh LOG2 VARIANT [STEP_MS]: VmRSS and VmHWM of one whole `zkpipe prove`, sampled
# every STEP_MS (default 20) from /proc/PID/status; variants as in sbs.sh (/tmp/rss2/VARIANT).
# Prints: ms_since_start rss_kB hwm_kB. Where the HWM stops rising is where the peak is.
K=/work/anchors/keys/bn254_$1
mkdir -p /tmp/rss2/run && cd /tmp/rss2/run || exit 1
ZKPIPE_PLUGIN_PATH=/tmp/rss2/$2 /tmp/rss2/$2/zkpipe prove $K/circuit.zkey $K/witness.wtns p_tl.json pub_tl.json > /dev/null 2>&1 &
P=$!
t0=$(date +%s%N)
while kill -0 $P 2>/dev/null; do
  read -r h r < <(awk '/VmHWM/{h=$2} /VmRSS/{r=$2} END{print h, r}' /proc/$P/status 2>/dev/null)
  [ -n "$r" ] && echo "$(( ($(date +%s%N) - t0) / 1000000 )) $r $h"
  sleep "$(awk "BEGIN{print ${3:-20}/1000}")"
done
