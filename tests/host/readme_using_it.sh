#!/bin/bash
# readme_using_it.sh ZKPIPE: README.md's "Using it" block (after its using-example marker) runs
# as the README shows it, from a folder where build/ is this build, and exits 0; each command's
# output is there (an example in the README is code).
set -uo pipefail
ZKPIPE=$1
source "$(dirname "$0")/../support/script_checks.sh"
if ! readme_block using "$(cd "$(dirname "$ZKPIPE")/.." && pwd)"; then
  bad "README.md has no using-example block"
elif run_readme_block 300; then
  log=$TMP/readme/block.log
  grep -q "10 succeeded, 0 failed" "$log" && ok "zkpipe run: 10 partitions succeeded" || bad "zkpipe run: $(grep -m1 succeeded "$log")"
  grep -q "^zkpipe " "$log" && ok "zkpipe --version answered" || bad "no version line"
  grep -Eq '^\|[[:space:]]+1 \|.*\|[[:space:]]+4 \|[[:space:]]+0 \|[[:space:]]+4 \|' "$log" &&
    ok "zkpipe bench: 4 proofs, 0 failed, 4 verified" || bad "zkpipe bench's table: $(grep -m2 '^|' "$log" | tail -n 1)"
  ok "the block ran ($(grep -c . "$TMP/readme/block.sh") lines, exit 0)"
else
  bad "the block failed:"; tail -n 20 "$TMP/readme/block.log"
fi
summary
