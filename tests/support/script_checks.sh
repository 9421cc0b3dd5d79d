# Sourced by the test scripts that drive the CLI, the programs and README.md's example blocks
# (tests/cli, tests/bellperson_prover, tests/rapidsnark, tests/serve): the repository root, the
# pinned snarkjs, a temporary folder removed on exit (a script with more to clean sets its own
# trap and removes $TMP there), one line per check and the summary.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SNARKJS="node $ROOT/tests/vectors/node_modules/snarkjs/build/cli.cjs"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0; fail=0
ok()  { echo "ok    $*"; pass=$((pass + 1)); }
bad() { echo "FAIL  $*"; fail=$((fail + 1)); }
# The last line of a script, and its status: passed only if something was checked and nothing failed.
summary() {
  echo "$pass passed, $fail failed"
  [ $pass -gt 0 ] && [ $fail -eq 0 ]
}

# readme_block NAME BUILD [DIR...]: README.md's sh block after the line <!-- NAME-example ...
# into $TMP/readme/block.sh, in a folder that looks like the repository root to it (build is
# BUILD; tests and each DIR are the repository's), so the block runs as the README shows it.
# Fails when the README has no such block.
readme_block() {
  local name=$1 build=$2 dir
  shift 2
  mkdir -p "$TMP/readme" && ln -s "$build" "$TMP/readme/build"
  for dir in tests "$@"; do ln -s "$ROOT/$dir" "$TMP/readme/$dir"; done
  awk -v marker="<!-- $name-example" 'index($0, marker) { want = 1; next } want && /^```sh/ { inside = 1; next }
       inside && /^```/ { exit } inside { print }' "$ROOT/README.md" > "$TMP/readme/block.sh"
  [ -s "$TMP/readme/block.sh" ]
}

# run_readme_block [TIMEOUT_S]: runs that block there under bash -e, its output in
# $TMP/readme/block.log; the block's status.
run_readme_block() {
  (cd "$TMP/readme" && timeout "${1:-600}" bash -e block.sh > block.log 2>&1)
}
