#!/bin/bash
# bad_tokens.sh ZKPIPE — bearer tokens no call can carry (issue 36): gRPC aborts the process
# (SIGABRT, exit 134) on a newline, a control byte or a non-ASCII byte in a call's metadata, so
# both ends refuse such a token with a message first. `zkpipe serve` with serve.token_file
# holding one does not start (exit 1, naming the file and the byte); `zkpipe client
# --token-file` with one exits 2 naming the file, before it connects. A token file with only a
# trailing newline is fine (checked by every other serve test).
set -uo pipefail
ZKPIPE=$1
source "$(dirname "$0")/../support/script_checks.sh"

printf 'ab\ncd\n' > "$TMP/newline"
printf 'ab\001cd' > "$TMP/control"
printf 't\303\266ken' > "$TMP/utf8"
chmod 600 "$TMP/newline" "$TMP/control" "$TMP/utf8"
for bad in "newline:byte 3 of 5 is a newline" "control:byte 3 of 5 is the control byte 0x01" "utf8:byte 2 of 6 is 0xc3, not ASCII"; do
  file=${bad%%:*}
  says=${bad#*:}
  printf 'prover = cpu\n[serve]\nsocket = %s\ntcp = 127.0.0.1:0\ntoken_file = %s\n' "$TMP/serve.sock" "$TMP/$file" > "$TMP/serve.ini"
  # A server that did start would serve until killed: 60 s bounds the check, it is not a timing.
  out=$(timeout 60 "$ZKPIPE" serve --config "$TMP/serve.ini" 2>&1); rc=$?
  if [ $rc -eq 1 ] && grep -qF "serve.token_file '$TMP/$file' holds no usable token: $says" <<< "$out"; then
    ok "serve with a token file holding a $file: exit 1, naming the file: $says"
  else
    bad "serve with a token file holding a $file: exit $rc, $out"
  fi
  out=$(timeout 60 "$ZKPIPE" client --address 127.0.0.1:1 --connect-timeout 1 --token-file "$TMP/$file" health 2>&1); rc=$?
  if [ $rc -eq 2 ] && grep -qF -- "--token-file '$TMP/$file' holds no usable token: $says" <<< "$out"; then
    ok "client --token-file holding a $file: exit 2, naming the file"
  else
    bad "client --token-file holding a $file: exit $rc, $out"
  fi
done
summary
