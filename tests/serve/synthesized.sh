#!/bin/bash
# synthesized.sh ZKPIPE CLIENT VECTORS — caller-synthesized partitions over gRPC: `zkpipe serve`
# (the cpu prover, a unix socket) and CLIENT (zkpipe_serve_synthesized_client: what it checks is
# in its header) on VECTORS, the bellperson key and partition bellperson_dump_synthesis wrote
# for many_public_bls12381; then the proof it got is accepted by `zkpipe verify` against the
# key's verification key (zkpipe export-vkey), and the server ends cleanly on SIGTERM.
set -uo pipefail
ZKPIPE=$1
CLIENT=$2
VECTORS=$3
source "$(dirname "$0")/../support/script_checks.sh"
source "$(dirname "$0")/serve_fixture.sh"

cat > "$TMP/serve.ini" <<INI
prover = cpu
log_level = info
[serve]
socket = $TMP/serve.sock
INI
start_serve "$TMP/serve.ini"
[ -S "$TMP/serve.sock" ] && ok "zkpipe serve listens on $TMP/serve.sock" ||
  { bad "zkpipe serve did not start:"; cat "$TMP/server.log"; summary; exit 1; }

mkdir -p "$TMP/out"
"$CLIENT" "$TMP/serve.sock" "$VECTORS" "$TMP/out" > "$TMP/client.log" 2>&1 && ok "the synthesized-partition checks: $(tail -n 1 "$TMP/client.log")" ||
  bad "the synthesized-partition checks:"
sed 's/^/      /' "$TMP/client.log"
if "$ZKPIPE" export-vkey "$VECTORS/circuit.params" "$TMP/vkey.json" 2> "$TMP/export.log" &&
   "$ZKPIPE" verify "$TMP/vkey.json" "$TMP/out/public.json" "$TMP/out/proof.json" > "$TMP/verify.log" 2>&1; then
  ok "zkpipe verify accepts the proof of the synthesized partition"
else
  bad "zkpipe verify: $(cat "$TMP/export.log" "$TMP/verify.log" 2>/dev/null)"
fi
kill -0 "$server" 2>/dev/null && ok "the server is up after the malformed requests" || bad "the server died"
stop_serve
