#!/usr/bin/env bash
# Configures and builds zkpipe into BUILD_DIR (default: build) with warnings as errors.
# Arguments (and $ZKPIPE_CONFIGURE_ARGS) go to cmake's configure step, e.g.
# -DZKPIPE_SANITIZE=thread; $ZKPIPE_BUILD_TARGETS limits the build to those targets.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
export PATH="$PATH:$HOME/.cargo/bin"
# A new build folder gets Ninja when it is installed (install-deps.sh installs it): it keeps
# both cores busy to the last unit and starts a target's units before the libraries it links
# are linked, where Makefiles wait. A folder configured before keeps its generator (cmake
# refuses to switch one); CMAKE_GENERATOR chooses otherwise.
if [ -z "${CMAKE_GENERATOR:-}" ] && [ ! -e "$BUILD_DIR/CMakeCache.txt" ] && command -v ninja >/dev/null; then
  export CMAKE_GENERATOR=Ninja
fi
# shellcheck disable=SC2086  # word splitting of the two lists is intended
cmake -S . -B "$BUILD_DIR" -DZKPIPE_WERROR=ON ${ZKPIPE_CONFIGURE_ARGS:-} "$@"
targets=()
for t in ${ZKPIPE_BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$BUILD_DIR" -j"$(nproc)" "${targets[@]}"
