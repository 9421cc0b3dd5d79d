#!/bin/bash
# version_and_json.sh ZKPIPE VERSION [BROKEN_PLUGIN_DIR] — `zkpipe --version` and
# `zkpipe plugins --json` against the plugins this build made (and, given, the broken test
# plugins): the version line names VERSION and the ABI range; --json is valid JSON whose
# plugins are those on disk, each built plugin loaded with its name and version, each broken
# one not loaded with its reason; --version lists the same names and versions.
set -uo pipefail
ZKPIPE=$1
VERSION=$2
BROKEN=${3:-}
export ZKPIPE_LOG_LEVEL=warn
args=()
[ -n "$BROKEN" ] && args=(--plugin-path "$BROKEN")
pass=0; fail=0
ok()  { echo "ok    $*"; pass=$((pass + 1)); }
bad() { echo "FAIL  $*"; fail=$((fail + 1)); }

version=$("$ZKPIPE" --version "${args[@]}" 2>&1) || bad "zkpipe --version exited $?: $version"
echo "$version"
first=$(echo "$version" | head -n 1)
if [ "$first" = "zkpipe $VERSION, C ABI [1, 1]" ]; then ok "version line: $first"
else bad "version line '$first', expected 'zkpipe $VERSION, C ABI [1, 1]'"; fi
echo "$version" | grep -q "^CUDA driver: " && ok "reports the CUDA driver (or its absence)" || bad "no CUDA driver line"

JSON=$(mktemp)
trap 'rm -f "$JSON"' EXIT
"$ZKPIPE" plugins --json "${args[@]}" > "$JSON" || bad "zkpipe plugins --json exited $?"
plugin_dir=$(dirname "$(readlink -f "$ZKPIPE")")/../lib
if out=$(python3 - "$JSON" "$plugin_dir" "$BROKEN" <<'PY' 2>&1
import glob, json, os, sys
doc = json.load(open(sys.argv[1]))
lib, broken = sys.argv[2], sys.argv[3]
by_path = {os.path.realpath(p["path"]): p for p in doc["plugins"]}
assert doc["host_abi"] == [1, 1], doc["host_abi"]
built = glob.glob(os.path.join(lib, "libzkp_*.so"))
assert built, "no plugin built in " + lib
for f in built:
    p = by_path.get(os.path.realpath(f))
    assert p is not None, f + " missing from --json"
    assert p["loaded"] and p["name"] and p["version"] and p["factories"], p
    assert all(x["kind"] in ("prover", "pacer") for x in p["factories"]), p
if broken:
    p = by_path.get(os.path.realpath(os.path.join(broken, "libzkp_prover_noentry.so")))
    assert p is not None and not p["loaded"] and "zkp_plugin_entry" in p["error"], p
for p in doc["plugins"]:
    if p["loaded"]:
        print(p["name"], p["version"])
PY
); then
  ok "plugins --json is valid JSON listing every built plugin (loaded, named, versioned)$( [ -n "$BROKEN" ] && echo ", and a broken one with its reason")"
  while read -r name ver; do
    if echo "$version" | grep -q "^  $name $ver ("; then ok "--version lists $name $ver"
    else bad "--version does not list '$name $ver'"; fi
  done <<< "$out"
else bad "plugins --json: $out"; fi
echo "$pass passed, $fail failed"
[ $pass -gt 0 ] && [ $fail -eq 0 ]
