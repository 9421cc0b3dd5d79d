#!/usr/bin/env bash
# with_serve.sh ZKPIPE PROGRAM [ARGS...] — a client program against a real `zkpipe serve`, the
# program starting nothing itself: the cpu prover on a temporary unix socket and on 127.0.0.1
# (any free port) with a bearer token; PROGRAM runs with these in its environment:
#   ZKPIPE_CLIENT_SOCKET      unix:PATH of the server's socket
#   ZKPIPE_CLIENT_TCP         127.0.0.1:PORT of its TCP listener
#   ZKPIPE_CLIENT_TOKEN_FILE  the file holding the token TCP calls need
#   ZKPIPE_CLIENT_KEY, ZKPIPE_CLIENT_WITNESS   a committed vector (many_public_bn128)
#   ZKPIPE_CLIENT_OUT         a folder: a program that proves writes proof.json and public.json there
# Checks: PROGRAM exits 0; when it wrote a proof, `zkpipe verify` accepts it and refuses it with
# a public signal changed; the server then stops on SIGTERM with exit 0.
ZKPIPE=$1
shift
source "$(dirname "$0")/../support/script_checks.sh"
source "$(dirname "$0")/../serve/serve_fixture.sh"

head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$TMP/token" && chmod 600 "$TMP/token"
cat > "$TMP/serve.ini" <<INI
prover = cpu
[serve]
socket = $TMP/serve.sock
tcp = 127.0.0.1:0
token_file = $TMP/token
key_dirs = $ROOT/tests/vectors/data
INI
start_serve "$TMP/serve.ini"
port=$(grep -o 'tcp:127.0.0.1:[0-9]*' "$TMP/server.log" | head -n 1 | cut -d: -f3)
if [ -z "$port" ]; then
  bad "zkpipe serve did not start:"; cat "$TMP/server.log"; summary; exit 1
fi

mkdir -p "$TMP/out"
ZKPIPE_CLIENT_SOCKET="unix:$TMP/serve.sock" ZKPIPE_CLIENT_TCP="127.0.0.1:$port" ZKPIPE_CLIENT_TOKEN_FILE="$TMP/token" \
  ZKPIPE_CLIENT_KEY="$V/circuit.zkey" ZKPIPE_CLIENT_WITNESS="$V/witness.wtns" ZKPIPE_CLIENT_OUT="$TMP/out" \
  timeout 120 "$@"
rc=$?
[ $rc -eq 0 ] && ok "$(basename "$1") against zkpipe serve: exit 0" || { bad "$(basename "$1"): exit $rc"; tail -n 20 "$TMP/server.log"; }

if [ -f "$TMP/out/proof.json" ]; then
  "$ZKPIPE" verify "$V/vkey.json" "$TMP/out/public.json" "$TMP/out/proof.json" > /dev/null 2>&1 &&
    ok "zkpipe verify accepts the proof it received" || bad "zkpipe verify refuses the proof it received"
  # The first public signal's last digit changed: the same proof must not verify.
  awk '!done && match($0, /"[0-9]+"/) { d = substr($0, RSTART + RLENGTH - 2, 1); $0 = substr($0, 1, RSTART + RLENGTH - 3) ((d + 1) % 10) substr($0, RSTART + RLENGTH - 1); done = 1 } { print }' \
    "$TMP/out/public.json" > "$TMP/tampered.json"
  if "$ZKPIPE" verify "$V/vkey.json" "$TMP/tampered.json" "$TMP/out/proof.json" > /dev/null 2>&1; then
    bad "zkpipe verify accepts the proof with a public signal changed"
  else
    ok "zkpipe verify refuses the proof with a public signal changed"
  fi
elif [ "${ZKPIPE_CLIENT_EXPECT_PROOF:-1}" = 1 ]; then
  bad "$(basename "$1") wrote no proof into ZKPIPE_CLIENT_OUT"
fi
stop_serve
