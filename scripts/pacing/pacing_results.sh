#!/usr/bin/env bash
# Regenerates the figures of docs/PACING-RESULTS.md: every scenario through pi (shipped
# gains, scheduled), pi-const (the same kp = 0.05 with gain_schedule=false: pi before the
# schedule), pi-ref (the reference engine's constant kp = 0.5), greedy and fixed, as
# Markdown tables, plus the charts docs/pacing-seed.svg, docs/pacing-gpu-bound.svg and
# docs/pacing-eight-devices-gpu-bound.svg.
#   scripts/pacing/pacing_results.sh [BUILD_DIR] > tables.md
# BUILD_DIR (default build-pacers) must have zkpipe-pacing-sim and the pacer plugins built.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-pacers}
sim=$build/bin/zkpipe-pacing-sim
scenarios=$root/tests/pacing_sim/scenarios
pacers=pi,pi:pi-const,pi:pi-ref,greedy,fixed
const=(--set pi-const.gain_schedule=false --set pi-ref.gain_schedule=false --set pi-ref.kp=0.5)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in seed gpu_bound two_devices thermal mixed burst_after_idle synthesis_bound eight_devices herding \
         four_devices_gpu_bound eight_devices_gpu_bound; do
  "$sim" --markdown --pacers "$pacers" "${const[@]}" "$scenarios/$f.conf"
done
echo "### seed, with the synthesis-throughput cap (test double, PACING.md failure 4)"
echo
"$sim" --markdown --pacers pi,synthesis-cap-double "$scenarios/seed.conf" | tail -n +5

"$sim" --pacers pi,greedy,fixed --timeline-dir "$tmp" "$scenarios/seed.conf" > /dev/null
cp "$tmp/seed.svg" "$root/docs/pacing-seed.svg"
"$sim" --pacers pi,pi:pi-ref,greedy --set pi-ref.kp=0.5 --set pi-ref.gain_schedule=false --timeline-dir "$tmp" \
  "$scenarios/gpu_bound.conf" > /dev/null
cp "$tmp/gpu_bound.svg" "$root/docs/pacing-gpu-bound.svg"
"$sim" --pacers pi,pi:pi-const,greedy --set pi-const.gain_schedule=false --timeline-dir "$tmp" \
  "$scenarios/eight_devices_gpu_bound.conf" > /dev/null
cp "$tmp/eight_devices_gpu_bound.svg" "$root/docs/pacing-eight-devices-gpu-bound.svg"
