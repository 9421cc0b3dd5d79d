#!/bin/bash
# net_module.sh ZKPIPE NET_COMMANDS — the commands that need gRPC or libpq live in the net module
# (host/cli/net/module.hpp), which `zkpipe` loads only to run one of them:
#   - a whole `zkpipe prove` (and `zkpipe --help`) loads none of gRPC, protobuf, abseil, OpenSSL,
#     libpq or krb5 (LD_DEBUG=files names every object the dynamic loader maps);
#   - `zkpipe --help` lists every one of NET_COMMANDS (comma-separated: those this build has),
#     and `zkpipe COMMAND --help` of each runs in the module, which does map those libraries;
#   - a missing module, or a library that is not this build's module, fails such a command with
#     exit 1 and the reason, and fails no other command.
set -uo pipefail
ZKPIPE=$(readlink -f "$1")
IFS=, read -r -a NET <<< "$2"
V=$(dirname "$0")/../vectors/data/chain_bn128
export ZKPIPE_LOG_LEVEL=warn
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0; fail=0
ok()  { echo "ok    $*"; pass=$((pass + 1)); }
bad() { echo "FAIL  $*"; fail=$((fail + 1)); }
NETLIBS='lib(grpc|gpr|protobuf|absl|ssl|crypto|pq|krb5|gssapi|re2|cares)'
mapped() { grep -oE 'file=[^ ]+' "$1" | sed 's/^file=//' | sort -u; }

LD_DEBUG=files "$ZKPIPE" prove "$V/circuit.zkey" "$V/witness.wtns" "$TMP/p.json" "$TMP/pub.json" 2> "$TMP/prove.log"
rc=$?
if [ $rc -ne 0 ]; then bad "prove exited $rc: $(grep -v '^ *[0-9]*:' "$TMP/prove.log" | tail -n 3)"
elif net=$(mapped "$TMP/prove.log" | grep -E "$NETLIBS"); then bad "prove mapped $(echo $net)"
elif ! mapped "$TMP/prove.log" | grep -q libzkp_prover_cpu; then bad "LD_DEBUG=files shows no cpu plugin: the check sees nothing"
else ok "prove maps none of gRPC, protobuf, abseil, OpenSSL, libpq, krb5 ($(mapped "$TMP/prove.log" | wc -l) objects)"; fi

LD_DEBUG=files "$ZKPIPE" --help > "$TMP/help.txt" 2> "$TMP/help.log"
if net=$(mapped "$TMP/help.log" | grep -E "$NETLIBS"); then bad "--help mapped $(echo $net)"
else ok "--help maps none of them"; fi

for c in "${NET[@]}"; do
  if grep -qE "^  $c +[a-z]" "$TMP/help.txt"; then ok "--help lists $c"; else bad "--help does not list $c"; fi
  LD_DEBUG=files "$ZKPIPE" "$c" --help > "$TMP/c.txt" 2> "$TMP/c.log"; rc=$?
  if [ $rc -eq 0 ] && grep -q "zkpipe $c" "$TMP/c.txt" && mapped "$TMP/c.log" | grep -q libzkpipe_cli_net &&
     mapped "$TMP/c.log" | grep -qE "$NETLIBS"; then ok "$c --help runs in the module"
  else bad "$c --help: exit $rc, $(head -c 300 "$TMP/c.txt")"; fi
done

# A copy of the program with no module beside it, then with a library that is not the module.
if [ ${#NET[@]} -gt 0 ]; then
  mkdir -p "$TMP/p/bin" "$TMP/p/lib"
  cp "$ZKPIPE" "$TMP/p/bin/zkpipe"
  out=$("$TMP/p/bin/zkpipe" "${NET[0]}" --help 2>&1); rc=$?
  if [ $rc -eq 1 ] && grep -q "cannot load .*libzkpipe_cli_net.so, which this command needs" <<< "$out"; then ok "no module: ${NET[0]} exits 1, saying so"
  else bad "no module: ${NET[0]} exit $rc: $out"; fi
  for f in "$(dirname "$ZKPIPE")"/../lib/libzkp_prover_cpu.so "$(dirname "$ZKPIPE")"/../lib/zkpipe/libzkp_prover_cpu.so; do
    [ -f "$f" ] && cp "$f" "$TMP/p/lib/libzkpipe_cli_net.so"  # a plugin: loads, has no zkp_cli_net_module
  done
  out=$("$TMP/p/bin/zkpipe" "${NET[0]}" --help 2>&1); rc=$?
  if [ $rc -eq 1 ] && grep -q "is not the module of this zkpipe" <<< "$out"; then ok "a foreign library: ${NET[0]} exits 1, saying so"
  else bad "a foreign library: ${NET[0]} exit $rc: $out"; fi
  out=$("$TMP/p/bin/zkpipe" verify --help 2>&1); rc=$?
  if [ $rc -eq 0 ]; then ok "without the module, verify --help still runs"; else bad "verify --help without the module: exit $rc"; fi
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
