#!/bin/bash
# queue_urls.sh ZKPIPE — job store URLs that are wrong (issue 36), before any database is
# reached: a URL that does not parse is printed with its password masked ("***"), in the
# message libpq writes too; an option libpq refuses before trying a server (sslmode=bogus, a
# port that is no number) is a configuration error, exit 2 [usage], not 75 [database
# unavailable, retry later]. The URLs name no server that could answer (port 1).
set -uo pipefail
ZKPIPE=$1
unset ZKPIPE_QUEUE
source "$(dirname "$0")/../support/script_checks.sh"

# refused NAME PATTERN URL: `zkpipe jobs --queue URL` exits 2 saying PATTERN, with no "s3cret".
refused() {
  local name=$1 pattern=$2 url=$3 out rc
  out=$(timeout 30 "$ZKPIPE" jobs --queue "$url" 2>&1); rc=$?
  if [ $rc -eq 2 ] && grep -qF -- "$pattern" <<< "$out" && ! grep -q "s3cret" <<< "$out"; then
    ok "$name: exit 2, $(head -n 1 <<< "$out")"
  else
    bad "$name: exit $rc, $out"
  fi
}
refused "an unparsable URI" "the queue URL 'postgresql://u:***@[::1/db' does not parse" 'postgresql://u:s3cret@[::1/db'
refused "a bad percent-escape in the password (libpq quotes it)" "invalid percent-encoded token: \"***\"" \
  'postgresql://u:s3%zzcret@127.0.0.1:1/db'
refused "a password query parameter and an unknown one" "'postgresql://u@127.0.0.1:1/db?password=***&foo=bar' does not parse" \
  'postgresql://u@127.0.0.1:1/db?password=s3cret&foo=bar'
refused "sslmode=bogus" "the queue URL 'postgresql://u:***@127.0.0.1:1/db?sslmode=bogus' is not valid: invalid sslmode value: \"bogus\"" \
  'postgresql://u:s3cret@127.0.0.1:1/db?sslmode=bogus'
refused "a keyword/value URL with a port that is no number" "'host=127.0.0.1 password=*** port=abc' is not valid" \
  'host=127.0.0.1 password=s3cret port=abc'
# The same exit from the worker and from enqueue (every queue command maps the store's errors alike).
out=$(timeout 30 "$ZKPIPE" worker --queue 'postgresql://u:s3cret@127.0.0.1:1/db?sslmode=bogus' 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "invalid sslmode value" <<< "$out" && ! grep -q s3cret <<< "$out" &&
  ok "worker with sslmode=bogus: exit 2" || bad "worker with sslmode=bogus: exit $rc, $out"
# A URL that is fine but names no server: still 75, try again later.
out=$(timeout 30 "$ZKPIPE" jobs --queue 'postgresql://u:s3cret@127.0.0.1:1/db' 2>&1); rc=$?
[ $rc -eq 75 ] && grep -q "\[database unavailable\]" <<< "$out" && ! grep -q s3cret <<< "$out" &&
  ok "no server: exit 75 [database unavailable]" || bad "no server: exit $rc, $out"
summary
