#!/usr/bin/env bash
# Regenerates the "Acceptance against greedy" section of docs/PACING-RESULTS.md (issue
# 11): the acceptance table of every committed scenario (zkpipe-pacing-sim --acceptance,
# criteria in tests/pacing_sim/sim/acceptance.hpp), then pi's and greedy's figures side by
# side per scenario, as Markdown on stdout; and the charts docs/pacing-circom-ms.svg and
# docs/pacing-four-devices-start.svg.
#   scripts/pacing/acceptance_table.sh [BUILD_DIR] > section.md
# BUILD_DIR (default build) must have zkpipe-pacing-sim and the pacer plugins built.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
sim=$build/bin/zkpipe-pacing-sim
scenarios=$root/tests/pacing_sim/scenarios
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$sim" --plugin-dir "$build/lib" --markdown --acceptance --pacers pi,greedy "$scenarios"/*.conf
echo
echo
echo "### Per scenario, pi and greedy"
echo
echo "The figures of figures.hpp for each committed scenario."
echo
for f in "$scenarios"/*.conf; do
  "$sim" --plugin-dir "$build/lib" --markdown --pacers pi,greedy "$f" | sed 's/^### /#### /'
done

"$sim" --plugin-dir "$build/lib" --pacers pi,greedy --timeline-dir "$tmp" "$scenarios/circom_ms.conf" > /dev/null
cp "$tmp/circom_ms.svg" "$root/docs/pacing-circom-ms.svg"
"$sim" --plugin-dir "$build/lib" --pacers pi,greedy --timeline-dir "$tmp" "$scenarios/four_devices_gpu_bound.conf" > /dev/null
cp "$tmp/four_devices_gpu_bound.svg" "$root/docs/pacing-four-devices-start.svg"
