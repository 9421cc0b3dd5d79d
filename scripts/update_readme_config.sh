#!/bin/sh
# Rewrites README.md's option tables from the code:
#   - the configuration table of "## Configuration": the rows `zkpipe --help --markdown` prints
#     (host/src/config_table.cpp);
#   - each block between "<!-- NAME-options" and "<!-- end NAME-options -->": the rows `zkpipe NAME
#     --help --markdown` prints, for serve (host/serve/serve_options.cpp) and worker
#     (host/queue/worker_flags.cpp). A build without that command leaves its block as it is.
#   scripts/update_readme_config.sh [path/to/zkpipe]     (default: build/bin/zkpipe)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
zkpipe=${1:-$root/build/bin/zkpipe}
readme=$root/README.md
table=$(mktemp)
out=$(mktemp)
trap 'rm -f "$table" "$out"' EXIT
"$zkpipe" --help --markdown > "$table"
# Inside "## Configuration", the table is the run of lines that start with '|'.
awk -v table="$table" '
  /^## / { in_section = ($0 == "## Configuration") }
  in_section && /^\|/ { if (!done) { while ((getline line < table) > 0) print line; done = 1 } next }
  { print }
' "$readme" > "$out"
cp "$out" "$readme"
echo "README.md: configuration table rewritten from $zkpipe"

for name in serve worker; do
  if ! "$zkpipe" "$name" --help --markdown > "$table" 2> /dev/null; then
    echo "README.md: $name's table left as it is ($zkpipe $name --help --markdown failed: not in this build?)"
    continue
  fi
  # Between the markers, every line is the table's; the markers stay.
  awk -v table="$table" -v begin="<!-- $name-options" -v end="<!-- end $name-options -->" '
    index($0, begin) == 1 { print; while ((getline line < table) > 0) print line; skipping = 1; found = 1; next }
    $0 == end { skipping = 0 }
    !skipping { print }
    END { if (!found) { print "no " begin " marker in README.md" > "/dev/stderr"; exit 1 } }
  ' "$readme" > "$out"
  cp "$out" "$readme"
  echo "README.md: $name's table rewritten from $zkpipe $name --help --markdown"
done
