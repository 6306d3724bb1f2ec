#!/usr/bin/env bash
# Sets up, builds and runs every test (benchmarks excluded: `ctest -L bench` runs them).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default
cmake --build --preset default
ctest --preset default
