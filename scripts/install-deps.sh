#!/usr/bin/env bash
# Install the Debian packages that building, testing and benchmarking lanes
# need, and nothing when they are already there. Used by `make demo`,
# `make test` and CI; safe to run again.
set -euo pipefail

packages=(
  gcc clang make cmake pkg-config   # compilers (both are tested) and the build
  libclang-rt-14-dev                # clang's sanitizer and libFuzzer runtimes
  libcmocka-dev                     # the unit-test library
  libjson-c-dev                     # JSON reports
  zlib1g-dev libzstd-dev            # compressed fabric and routing files (.gz, .zst)
  libmetis-dev                      # graph partitioning for the nue engine (as OpenSM's nue)
  opensm ibsim-utils infiniband-diags  # the real OpenSM, ibsim and ibroute for interop tests
  libopensm-dev libibumad-dev       # OpenSM's headers for the OpenSM plugin (they include umad.h,
                                    # which libopensm-dev does not pull in)
  time hyperfine                    # benchmarks: peak memory and repeated timing
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
