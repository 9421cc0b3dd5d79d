#!/bin/bash
# readme_tables.sh ZKPIPE README NAME... — README.md's option tables of `zkpipe serve` and
# `zkpipe worker` are the code's: for each NAME, the lines between "<!-- NAME-options" and
# "<!-- end NAME-options -->" are exactly what `zkpipe NAME --help --markdown` prints (made from
# host/serve/serve_options.cpp and host/queue/worker_flags.cpp). The host's own table is
# readme_config_test.cpp's.
set -uo pipefail
ZKPIPE=$1
README=$2
shift 2
source "$(dirname "$0")/../support/script_checks.sh"
HOW="regenerate README.md's tables from the code with: scripts/update_readme_config.sh BUILD/bin/zkpipe"

[ $# -gt 0 ] || bad "no command named: nothing would be checked"
for name in "$@"; do
  awk -v begin="<!-- $name-options" -v end="<!-- end $name-options -->" '
    index($0, begin) == 1 { inside = 1; opened = 1; next }
    $0 == end { if (inside) closed = 1; inside = 0 }
    inside { print }
    END { exit (opened && closed) ? 0 : 1 }
  ' "$README" > "$TMP/readme.md"
  if [ $? -ne 0 ]; then
    bad "$name: README.md has no block between \"<!-- $name-options\" and \"<!-- end $name-options -->\""
    continue
  fi
  if ! "$ZKPIPE" "$name" --help --markdown > "$TMP/code.md" 2> "$TMP/err"; then
    bad "$name --help --markdown failed: $(cat "$TMP/err")"
    continue
  fi
  if ! grep -q '^| .* | default | meaning |$' "$TMP/code.md"; then
    bad "$name --help --markdown printed no table: $(head -c 300 "$TMP/code.md")"
  elif diff -u --label README.md --label "zkpipe $name --help --markdown" "$TMP/readme.md" "$TMP/code.md"; then
    ok "$name: README.md's table is the code's ($(grep -c '^| `' "$TMP/code.md") rows)"
  else
    bad "$name: README.md's table differs from the code's (the diff above); $HOW"
  fi
done
summary
