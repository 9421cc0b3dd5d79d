#!/usr/bin/env bash
# Installs what zkpipe needs to build and test on Debian 12: the C++ toolchain (with Ninja,
# which .ci/run's sanitizer builds use; clang-14 and its libFuzzer runtime for the fuzzing phase,
# scripts/fuzz.sh) and libraries (apt; gRPC and protobuf for `zkpipe serve`; libpq for `zkpipe worker`,
# and the PostgreSQL server its tests start; openssl and headless chromium for the serve TLS and
# dashboard tests), Go for the cgo sample, and the pinned snarkjs/circom oracle (npm).
# Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  libboost-dev libboost-program-options-dev libboost-filesystem-dev
  libspdlog-dev libfmt-dev libgtest-dev libgmock-dev libbenchmark-dev
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libpq-dev postgresql
  golang-go
  clang-14 libclang-rt-14-dev
  openssl chromium
  libgmp-dev nlohmann-json3-dev
)
# Node.js and npm from Debian only when the machine has none (an image may ship its own
# Node with a bundled npm, which Debian's npm package conflicts with).
command -v npm >/dev/null 2>&1 || APT_PACKAGES+=(nodejs npm)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: apt-get install ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Rust's cargo for the FFI sample: the machine's rustup toolchain if present, else Debian's.
if ! command -v cargo >/dev/null 2>&1 && [ ! -x "$HOME/.cargo/bin/cargo" ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends cargo
fi

# The external oracle (snarkjs, circom2, circomlib), pinned in tests/vectors/package-lock.json.
if [ -f tests/vectors/package-lock.json ] && [ ! -d tests/vectors/node_modules/snarkjs ]; then
  echo "install-deps: npm ci in tests/vectors"
  npm ci --prefix tests/vectors --no-audit --no-fund --loglevel=error
fi
