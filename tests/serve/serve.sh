#!/bin/bash
# serve.sh MODE ZKPIPE CLIENT — `zkpipe serve` end to end with the cpu prover:
#   api:    the server on a temporary unix socket and on 127.0.0.1 (any free port) with a bearer
#           token; `CLIENT selftest` over the socket (LoadKey twice: one id, warm; Prove, every
#           completion field; 8 clients at once; Submit + Await; Cancel of a queued job; UnloadKey
#           refused while a job uses the key, then done, then Prove with the old id NOT_FOUND; a
#           malformed and a truncated witness fail their call only; Status), every proof it got
#           accepted by `zkpipe verify`; over TCP a call without the token, or with a wrong one,
#           is refused and logged, one with it served; SIGHUP: reloads, the server goes on; SIGTERM: exit 0, the socket
#           removed.
#   readme: README.md's serve block, verbatim, from a folder that looks like the repository root.
set -uo pipefail
MODE=$1
ZKPIPE=$2
CLIENT=$3
source "$(dirname "$0")/../support/script_checks.sh"
source "$(dirname "$0")/serve_fixture.sh"

if [ "$MODE" = readme ]; then
  if ! readme_block serve "$(cd "$(dirname "$ZKPIPE")/.." && pwd)"; then
    bad "README.md has no serve-example block"
  elif run_readme_block 60 && grep -q "OK" "$TMP/readme/block.log"; then
    ok "README.md's serve block ran ($(wc -l < "$TMP/readme/block.sh") lines): zkpipe verify OK, the server stopped with exit 0"
  else
    bad "README.md's serve block failed:"; tail -n 20 "$TMP/readme/block.log"
  fi
  summary
  exit
fi

# A key folder of the test's own, holding a symlink out of it (serve.key_dirs: the vectors and it).
mkdir -p "$TMP/keys" && ln -s /etc/passwd "$TMP/keys/passwd" && ln -s /etc "$TMP/keys/etc"
# The token file, readable by its owner only; and one with a wrong token.
head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$TMP/token" && chmod 600 "$TMP/token"
echo "not-the-token" > "$TMP/wrong" && chmod 600 "$TMP/wrong"
cat > "$TMP/serve.ini" <<INI
prover = cpu
log_level = info
[serve]
socket = $TMP/serve.sock
tcp = 127.0.0.1:0
token_file = $TMP/token
key_dirs = $ROOT/tests/vectors/data:$TMP/keys
INI
start_serve "$TMP/serve.ini"
port=$(grep -o 'tcp:127.0.0.1:[0-9]*' "$TMP/server.log" | head -n 1 | cut -d: -f3)
if [ -S "$TMP/serve.sock" ] && [ -n "$port" ]; then
  ok "zkpipe serve listens on unix:$TMP/serve.sock (mode $(stat -c %a "$TMP/serve.sock")) and tcp:127.0.0.1:$port"
else
  bad "zkpipe serve did not start:"; cat "$TMP/server.log"; echo "$pass passed, $fail failed"; exit 1
fi
[ "$(stat -c %a "$TMP/serve.sock")" = 600 ] && ok "the socket is its owner's only (600)" || bad "socket mode $(stat -c %a "$TMP/serve.sock")"

mkdir -p "$TMP/out"
if "$CLIENT" "unix:$TMP/serve.sock" selftest "$V" "$TMP/out" > "$TMP/selftest.log" 2>&1; then
  ok "selftest over the unix socket: $(tail -n 1 "$TMP/selftest.log")"
else
  bad "selftest over the unix socket:"; cat "$TMP/selftest.log"
fi
sed 's/^/      /' "$TMP/selftest.log"

verified=0; proofs=0
for p in "$TMP"/out/proof*.json; do
  [ -e "$p" ] || continue
  proofs=$((proofs + 1))
  pub=${p/proof/public}
  if "$ZKPIPE" verify "$V/vkey.json" "$pub" "$p" > /dev/null 2>&1; then verified=$((verified + 1)); fi
done
[ $proofs -eq 9 ] && [ $verified -eq $proofs ] && ok "zkpipe verify accepts all $proofs proofs the service returned" ||
  bad "zkpipe verify accepted $verified of $proofs proofs (9 expected)"

out=$("$CLIENT" "127.0.0.1:$port" health 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "\[16\]" && grep -q "refused Health from ipv4:127.0.0.1:[0-9]*: no authorization metadata" "$TMP/server.log" &&
  ok "TCP without the token: UNAUTHENTICATED, and logged" || bad "TCP without the token: exit $rc, $out"
out=$("$CLIENT" "127.0.0.1:$port" --token-file "$TMP/wrong" health 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "\[16\]" && grep -q "wrong bearer token" "$TMP/server.log" &&
  ok "TCP with a wrong token: UNAUTHENTICATED, and logged" || bad "TCP with a wrong token: exit $rc, $out"
out=$("$CLIENT" "127.0.0.1:$port" --token-file "$TMP/token" health 2>&1) && ok "TCP with the token: Health: $out" ||
  bad "TCP with the token: Health: $out"
if "$CLIENT" "127.0.0.1:$port" --token-file "$TMP/token" prove "$V/circuit.zkey" "$V/witness.wtns" \
     "$TMP/tcp_proof.json" "$TMP/tcp_public.json" 2> "$TMP/tcp.log" &&
   grep -q "(warm)" "$TMP/tcp.log" && "$ZKPIPE" verify "$V/vkey.json" "$TMP/tcp_public.json" "$TMP/tcp_proof.json" > /dev/null; then
  ok "TCP with the token: Prove on the warm key, zkpipe verify accepts it"
else
  bad "TCP with the token: Prove: $(cat "$TMP/tcp.log")"
fi
# serve.key_dirs (issue 36, item 1): outside the folders, every path gets the same refusal, on
# TCP and on the socket alike, whether it exists, is a directory, or is a symlink out of a key
# folder; the reply quotes nothing of the file. Inside, a missing file is reported as missing.
refusals=""
for path in /etc/passwd /nonexistent/k.zkey /etc "$TMP/keys/passwd" "$TMP/keys/etc/passwd" "$TMP/keys/../serve.ini" \
            "$ROOT/tests/vectors/data/../../../README.md"; do
  for via in tcp socket; do
    if [ $via = tcp ]; then
      out=$("$ZKPIPE" client --address "127.0.0.1:$port" --token-file "$TMP/token" load "$path" 2>&1)
    else
      out=$("$ZKPIPE" client --socket "$TMP/serve.sock" load "$path" 2>&1)
    fi
    [ $? -ne 0 ] || bad "LoadKey of $path over $via succeeded"
    # The client's line alone: a sanitizer build's client may add its own lines at exit.
    out=$(grep "zkpipe client:" <<< "$out")
    refusals+="${out//"$path"/PATH}"$'\n'
  done
done
if [ "$(sort -u <<< "${refusals%$'\n'}" | wc -l)" = 1 ] && grep -q "is not inside serve.key_dirs" <<< "$refusals"; then
  ok "7 paths outside serve.key_dirs, each over TCP and the socket: one refusal, word for word ($(head -n 1 <<< "$refusals"))"
else
  bad "refusals of paths outside serve.key_dirs differ:"; sort -u <<< "$refusals"
fi
# A 64 GiB sparse file that is no zkey (issue 36, item 3): refused by its first bytes, not read
# whole first (which would ask for 64 GiB of memory before looking at them).
printf 'root' > "$TMP/keys/big.zkey" && truncate -s 64G "$TMP/keys/big.zkey"
out=$("$ZKPIPE" client --socket "$TMP/serve.sock" load "$TMP/keys/big.zkey" 2>&1)
[ $? -ne 0 ] && grep -q "wrong magic at offset 0" <<< "$out" && ok "a 64 GiB file that is no zkey: refused by its header ($out)" ||
  bad "LoadKey of a 64 GiB file that is no zkey: $out"
out=$("$ZKPIPE" client --address "127.0.0.1:$port" --token-file "$TMP/token" load "$TMP/keys/missing.zkey" 2>&1)
[ $? -ne 0 ] && ! grep -q "not inside" <<< "$out" && ok "a missing file inside serve.key_dirs: $out" ||
  bad "LoadKey of a missing key inside serve.key_dirs: $out"

kill -0 "$server" 2>/dev/null && ok "the server is still up after every failure above" || bad "the server died"
kill -HUP "$server"
for _ in $(seq 100); do grep -q "SIGHUP" "$TMP/server.log" && break; sleep 0.05; done
kill -0 "$server" 2>/dev/null && grep -q "SIGHUP: reloaded" "$TMP/server.log" &&
  ok "SIGHUP: logged, the server goes on" || bad "SIGHUP ended the server or was not logged"
kill -TERM "$server"
for _ in $(seq 300); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done  # 30 s at most
if kill -0 "$server" 2>/dev/null; then bad "SIGTERM: still running after 30 s"; kill -KILL "$server"; fi
wait "$server"; rc=$?
server=""
[ $rc -eq 0 ] && ok "SIGTERM: exit 0" || { bad "SIGTERM: exit $rc"; tail -n 20 "$TMP/server.log"; }
[ ! -e "$TMP/serve.sock" ] && ok "the socket file is removed" || bad "the socket file is left behind"
grep -q "serve: stopped" "$TMP/server.log" && ok "the log says it stopped" || bad "no 'serve: stopped' in the log"

summary
