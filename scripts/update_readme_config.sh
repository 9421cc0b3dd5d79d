#!/bin/sh
# Rewrites the configuration table of README.md ("## Configuration") from the code:
# the rows `zkpipe --help --markdown` prints (host/src/config_table.cpp).
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
