#!/usr/bin/env bash
# Regenerates the figures of docs/PACING-RESULTS.md: every scenario through pi (shipped
# gains), pi-ref (the reference engine's kp = 0.5), greedy and fixed, as Markdown tables,
# plus the charts docs/pacing-seed.svg and docs/pacing-gpu-bound.svg.
#   scripts/pacing/pacing_results.sh [BUILD_DIR] > tables.md
# BUILD_DIR (default build-pacers) must have zkpipe-pacing-sim and the pacer plugins built.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-pacers}
sim=$build/bin/zkpipe-pacing-sim
scenarios=$root/tests/pacing_sim/scenarios
pacers=pi,pi:pi-ref,greedy,fixed
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in seed gpu_bound two_devices thermal mixed burst_after_idle synthesis_bound eight_devices herding; do
  "$sim" --markdown --pacers "$pacers" --set pi-ref.kp=0.5 "$scenarios/$f.conf"
done
echo "### seed, with the synthesis-throughput cap (test double, PACING.md failure 4)"
echo
"$sim" --markdown --pacers pi,synthesis-cap-double "$scenarios/seed.conf" | tail -n +5

"$sim" --pacers pi,greedy,fixed --timeline-dir "$tmp" "$scenarios/seed.conf" > /dev/null
cp "$tmp/seed.svg" "$root/docs/pacing-seed.svg"
"$sim" --pacers pi,pi:pi-ref,greedy --set pi-ref.kp=0.5 --timeline-dir "$tmp" "$scenarios/gpu_bound.conf" > /dev/null
cp "$tmp/gpu_bound.svg" "$root/docs/pacing-gpu-bound.svg"
