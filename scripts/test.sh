#!/usr/bin/env bash
# Builds netsched with warnings as errors, AddressSanitizer and UBSan (in
# build-test/) and runs the whole test suite with ctest. Installs what is
# missing first. This is what CI runs (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh --test
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DNETSCHED_WERROR=ON -DNETSCHED_SANITIZE=ON >/dev/null
cmake --build build-test -j"$(nproc)"
cd build-test
ctest --output-on-failure -j"$(nproc)" --timeout 1200
