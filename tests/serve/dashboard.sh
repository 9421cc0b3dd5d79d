#!/bin/bash
# dashboard.sh ZKPIPE HTTP_CHECK SCREENSHOT — the dashboard (GET / on serve.http) in a real
# browser, Debian's chromium, headless: `zkpipe serve` with the cpu prover, three proofs and one
# partition that fails (a witness with one value changed: its message is what the page must
# show); GET / answers 200; chromium loads the page and runs its script (--virtual-time-budget:
# a few of its 2 s reads of /status), and the DOM it leaves is checked against /status read
# right after (HTTP_CHECK dashboard: the page is live, every figure on it matches, and the
# figures the operator needs are there; the same DOM with a figure and a message changed is
# refused, so the comparison can fail); a screenshot is saved to SCREENSHOT, a CI artifact.
# Without chromium the test is SKIPPED (exit 77, which CTest reports as skipped, not passed).
# chromium runs with --no-sandbox: CI runs as root, where its sandbox refuses to start; the
# page is this repository's own, served on loopback.
set -uo pipefail
ZKPIPE=$1
CHECK=$2
SHOT=$3
source "$(dirname "$0")/../support/script_checks.sh"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
  echo "SKIP: chromium is not installed (scripts/install-deps.sh installs it); the dashboard was NOT tested in a browser"
  exit 77
fi
source "$(dirname "$0")/serve_fixture.sh"
browser() {  # browser ARGS... URL: chromium headless, its own profile, at most 60 s
  timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --user-data-dir="$TMP/profile" --virtual-time-budget=5000 "$@" 2>> "$TMP/chromium.log"
}

start_http_serve

for i in 1 2 3; do
  mkdir -p "$TMP/out$i"
  "$ZKPIPE" client --socket "$TMP/serve.sock" prove "$V/circuit.zkey" "$V/witness.wtns" --out "$TMP/out$i" \
    >> "$TMP/client.log" 2>&1 || bad "prove $i: $(tail -n 3 "$TMP/client.log")"
done
# The witness with the low byte of its last value changed: still a field element, no longer a
# solution, so its partition fails (and is no malformed request, which the call would refuse).
cp "$V/witness.wtns" "$TMP/bad.wtns"
at=$(($(stat -c %s "$TMP/bad.wtns") - 32))
byte=$(od -An -tu1 -j "$at" -N1 "$TMP/bad.wtns" | tr -d ' ')
printf "$(printf '\\%03o' $((byte ^ 1)))" | dd of="$TMP/bad.wtns" bs=1 seek="$at" conv=notrunc status=none
out=$("$ZKPIPE" client --socket "$TMP/serve.sock" prove "$V/circuit.zkey" "$TMP/bad.wtns" --out "$TMP" 2>&1); rc=$?
[ $rc -eq 1 ] && ok "the changed witness: its partition failed ($(echo "$out" | tail -n 1))" || bad "the changed witness: exit $rc, $out"
"$CHECK" "$http" status 'recent.proofs=3' 'recent.failed=1' 'recent_failures#=1' 'keys#=1' 'jobs.open=0' \
  'recent.series#=30' 'keys.0.recent.proofs=3' 'keys.0.recent.failed=1' > "$TMP/status.log" &&
  ok "/status: 3 proofs and 1 failure in the last 60 s, all of the one key's" ||
  { bad "/status before the browser:"; grep -v '^ok' "$TMP/status.log"; }
"$CHECK" "$http" raw $'GET / HTTP/1.1\n\n' 200 > "$TMP/raw.log" && ok "GET /: 200" || bad "GET /: $(cat "$TMP/raw.log")"

if browser --dump-dom "http://$http/" > "$TMP/dom.html"; then
  ok "chromium ($("$CHROMIUM" --version 2>/dev/null | head -n 1)) rendered the page ($(wc -c < "$TMP/dom.html") bytes of DOM)"
else
  bad "chromium --dump-dom failed:"; tail -n 20 "$TMP/chromium.log"
fi
if "$CHECK" "$http" dashboard "$TMP/dom.html" recent.proofs_per_second recent.latency_p50_seconds recent.latency_p99_seconds \
     recent.last_10s.proofs_per_second devices.0.busy_share_10s keys.0.recent.latency_p50_seconds \
     keys.0.recent.latency_p99_seconds keys.0.recent.proofs keys.0.recent.failed \
     recent.failed queue.waiting queue.proving pacer.interval_seconds pacer.status devices.0.busy_share \
     devices.0.gpu_duration.mean_seconds devices.0.gpu_duration.count keys.0.path keys.0.key_id recent_failures.0.message \
     recent_failures.0.status recent_completions.3.status > "$TMP/dashboard.log"; then
  ok "the page's figures match /status: $(grep -o '[0-9]* figures on the page match /status' "$TMP/dashboard.log")"
else
  bad "the page against /status:"; grep -v '^ok' "$TMP/dashboard.log"
fi
# The comparison can fail: the same DOM with one number and one text changed is refused, naming both.
sed -e 's|data-k="recent.proofs_per_second">[^<]*<|data-k="recent.proofs_per_second">9.999 /s<|' \
    -e 's|data-k="recent_failures.0.message">[^<]*<|data-k="recent_failures.0.message">all is well<|' "$TMP/dom.html" > "$TMP/changed.html"
if ! "$CHECK" "$http" dashboard "$TMP/changed.html" > "$TMP/changed.log" &&
   grep -q "FAIL the page's recent.proofs_per_second '9.999 /s'" "$TMP/changed.log" &&
   grep -q "FAIL the page's recent_failures.0.message 'all is well'" "$TMP/changed.log"; then
  ok "a page with a figure and a message changed does not match /status"
else
  bad "the changed page was not caught:"; cat "$TMP/changed.log"
fi
mkdir -p "$(dirname "$SHOT")"
rm -f "$SHOT"
if browser --screenshot="$SHOT" --window-size=1280,1600 --hide-scrollbars "http://$http/" > /dev/null && [ -s "$SHOT" ]; then
  ok "screenshot (CI artifact): $SHOT ($(wc -c < "$SHOT") bytes)"
else
  bad "chromium --screenshot made no $SHOT:"; tail -n 20 "$TMP/chromium.log"
fi

stop_serve
