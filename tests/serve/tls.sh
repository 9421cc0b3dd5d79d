#!/bin/bash
# tls.sh ZKPIPE — the TCP listener with TLS (serve.tls_cert, serve.tls_key) and the bearer token,
# with the cpu prover: a self-signed certificate for 127.0.0.1 made with openssl now; then
#   `zkpipe client --tls-ca CERT --token-file T` proves, and `zkpipe verify` accepts the proof;
#   over TLS without the token: UNAUTHENTICATED, logged; a plaintext client (no --tls-ca) is
#   refused: it never connects; a client trusting another certificate is refused too;
#   --tls-server-name with a name the certificate does not hold: refused; the unix socket still
#   serves without TLS; serve.tls_cert without serve.tls_key, TLS without serve.tcp, a
#   certificate file that is no PEM, a key file that is missing and /dev/zero as the
#   certificate, and a key that is not the certificate's, are refused at start, naming the key;
#   SIGHUP with a renewed pair: an Await stream opened over TLS before it runs to its end, new
#   connections get the new certificate (not the old); SIGHUP with a mismatched pair changes
#   nothing and says why; SIGTERM: exit 0.
set -uo pipefail
ZKPIPE=$1
source "$(dirname "$0")/../support/script_checks.sh"
source "$(dirname "$0")/serve_fixture.sh"

# P-256 keys: made in milliseconds, where RSA takes a noticeable fraction of a second.
selfsigned() {  # selfsigned NAME: $TMP/NAME.pem and $TMP/NAME.key, for 127.0.0.1 and localhost, 1 day
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj "/CN=zkpipe test $1" \
    -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" -keyout "$TMP/$1.key" -out "$TMP/$1.pem" 2>> "$TMP/openssl.log"
}
if selfsigned server && selfsigned other; then
  ok "openssl: two self-signed certificates for 127.0.0.1 ($(openssl version | cut -d' ' -f1-2))"
else
  bad "openssl could not make a certificate:"; cat "$TMP/openssl.log"; summary; exit 1
fi
head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$TMP/token" && chmod 600 "$TMP/token"

cat > "$TMP/serve.ini" <<INI
prover = cpu
[serve]
socket = $TMP/serve.sock
tcp = 127.0.0.1:0
token_file = $TMP/token
key_dirs = $ROOT/tests/vectors/data
tls_cert = $TMP/server.pem
tls_key = $TMP/server.key
INI
start_serve "$TMP/serve.ini"
addr=$(grep -o 'tcp:127.0.0.1:[0-9]*' "$TMP/server.log" | head -n 1 | cut -d: -f2-)
if [ -n "$addr" ] && grep -q "tcp:$addr (TLS, bearer token)" "$TMP/server.log"; then
  ok "zkpipe serve listens on tcp:$addr with TLS"
else
  bad "zkpipe serve did not start with TLS:"; cat "$TMP/server.log"; summary; exit 1
fi

client() { "$ZKPIPE" client --connect-timeout 2 "$@"; }
mkdir -p "$TMP/out"
if out=$(client --address "$addr" --tls-ca "$TMP/server.pem" --token-file "$TMP/token" \
           prove "$V/circuit.zkey" "$V/witness.wtns" --out "$TMP/out" 2>&1) &&
   "$ZKPIPE" verify "$V/vkey.json" "$TMP/out/public.json" "$TMP/out/proof.json" > /dev/null; then
  ok "TLS with the token: Prove, and zkpipe verify accepts the proof"
else
  bad "TLS with the token: Prove: $out"
fi
out=$(client --address "$addr" --tls-ca "$TMP/server.pem" health 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "\[16\]" && grep -q "refused Health from ipv4:127.0.0.1:[0-9]*: no authorization metadata" "$TMP/server.log" &&
  ok "TLS without the token: UNAUTHENTICATED, and logged" || bad "TLS without the token: exit $rc, $out"
out=$(client --address "$addr" --token-file "$TMP/token" health 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "no zkpipe serve answers on $addr" &&
  ok "a plaintext client (with the token) is refused: it never connects" || bad "a plaintext client: exit $rc, $out"
out=$(client --address "$addr" --tls-ca "$TMP/other.pem" --token-file "$TMP/token" health 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "no zkpipe serve answers" &&
  ok "a client trusting another certificate is refused" || bad "another CA: exit $rc, $out"
out=$(client --address "$addr" --tls-ca "$TMP/server.pem" --tls-server-name elsewhere.example --token-file "$TMP/token" health 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "no zkpipe serve answers" &&
  ok "--tls-server-name the certificate does not hold: refused" || bad "--tls-server-name elsewhere.example: exit $rc, $out"
out=$(client --address "$addr" --tls-ca "$TMP/server.pem" --tls-server-name localhost --token-file "$TMP/token" health 2>&1) &&
  ok "--tls-server-name localhost (in the certificate): $out" || bad "--tls-server-name localhost: $out"
out=$(client --socket "$TMP/serve.sock" health 2>&1) && ok "the unix socket serves without TLS: $out" || bad "unix socket: $out"
out=$(client --socket "$TMP/serve.sock" --tls-ca "$TMP/server.pem" health 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "are for --address" && ok "--tls-ca with --socket: a usage error" || bad "--tls-ca --socket: exit $rc, $out"

# SIGHUP with a renewed pair (the operator replaces server.pem and server.key with the "other"
# pair): an Await stream opened over TLS before it carries on to the end; a new connection is
# served with the new certificate (trusted by other.pem) and no longer with the old one.
cp "$TMP/server.pem" "$TMP/first.pem" && cp "$TMP/server.key" "$TMP/first.key"
witnesses=$(for _ in $(seq 64); do printf '%s ' "$V/witness.wtns"; done)
job=$(client --socket "$TMP/serve.sock" submit "$V/circuit.zkey" $witnesses 2>/dev/null)
client --address "$addr" --tls-ca "$TMP/first.pem" --token-file "$TMP/token" await "$job" > "$TMP/await.log" 2>&1 &
awaiter=$!
for _ in $(seq 100); do [ -s "$TMP/await.log" ] && break; sleep 0.05; done  # the stream is open: a result came
cp "$TMP/other.pem" "$TMP/server.pem" && cp "$TMP/other.key" "$TMP/server.key"
kill -HUP "$server"
for _ in $(seq 100); do grep -q "SIGHUP: reloaded" "$TMP/server.log" && break; sleep 0.05; done
grep -q "SIGHUP: reloaded .*the TLS certificate and key" "$TMP/server.log" && ok "SIGHUP: the TLS certificate and key reloaded, logged" ||
  bad "SIGHUP did not reload the TLS pair: $(grep SIGHUP "$TMP/server.log")"
sleep 1.5  # gRPC's watcher reads the new pair within a second
out=$(client --address "$addr" --tls-ca "$TMP/other.pem" --token-file "$TMP/token" health 2>&1) &&
  ok "a new connection after SIGHUP gets the new certificate: $out" || bad "the new certificate after SIGHUP: $out"
out=$(client --address "$addr" --tls-ca "$TMP/first.pem" --token-file "$TMP/token" health 2>&1); rc=$?
[ $rc -eq 1 ] && ok "a new connection trusting only the old certificate is refused" || bad "the old certificate after SIGHUP: exit $rc, $out"
wait "$awaiter"; rc=$?
n_ok=$(grep -c ": ok on device" "$TMP/await.log")
[ $rc -eq 0 ] && [ "$n_ok" -eq 64 ] && ok "the Await stream opened before SIGHUP ran to its end: 64 of 64 partitions" ||
  bad "the Await stream across SIGHUP: exit $rc, $n_ok of 64 ok; $(tail -n 2 "$TMP/await.log")"
# A pair that does not belong together: SIGHUP changes nothing, and says why.
cp "$TMP/first.key" "$TMP/server.key"
kill -HUP "$server"
for _ in $(seq 100); do grep -q "not reloaded" "$TMP/server.log" && break; sleep 0.05; done
grep -q "not reloaded, nothing changed: serve.tls_key '$TMP/server.key' is not the private key of serve.tls_cert" "$TMP/server.log" &&
  ok "SIGHUP with a key that is not the certificate's: refused, logged" || bad "SIGHUP with a mismatched pair: $(grep SIGHUP "$TMP/server.log" | tail -n 1)"
sleep 1.5
out=$(client --address "$addr" --tls-ca "$TMP/other.pem" --token-file "$TMP/token" health 2>&1) &&
  ok "after it, the pair before is still served: $out" || bad "after the refused reload: $out"
cp "$TMP/other.key" "$TMP/server.key"

refused() {  # refused WHAT PATTERN ARGS...: `zkpipe serve` with the config and ARGS fails at start, saying PATTERN
  local what=$1 pattern=$2 out rc
  shift 2
  out=$(timeout 20 "$ZKPIPE" serve --config "$TMP/serve.ini" serve.socket="$TMP/other.sock" "$@" 2>&1); rc=$?
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && echo "$out" | grep -q "$pattern" && ok "$what: refused at start (exit $rc)" ||
    bad "$what: exit $rc, $out"
}
refused "serve.tls_cert without serve.tls_key" "serve.tls_cert and serve.tls_key go together" serve.tls_key=
refused "TLS without serve.tcp" "is for the TCP listener, and serve.tcp is not set" serve.tcp= serve.token_file=
echo "not a certificate" > "$TMP/junk.pem"
refused "a serve.tls_cert that is no PEM" "serve.tls_cert '$TMP/junk.pem' holds no PEM block" serve.tls_cert="$TMP/junk.pem"
refused "a serve.tls_key that is missing" "serve.tls_key '$TMP/none.key' cannot be read" serve.tls_key="$TMP/none.key"
refused "/dev/zero as serve.tls_cert" "serve.tls_cert '/dev/zero' is not a regular file" serve.tls_cert=/dev/zero
refused "a serve.tls_key that is not the certificate's" "serve.tls_key '$TMP/first.key' is not the private key of serve.tls_cert" \
  serve.tls_key="$TMP/first.key"

stop_serve
