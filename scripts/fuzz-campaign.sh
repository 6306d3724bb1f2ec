#!/usr/bin/env bash
# Runs a long fuzz campaign of nestor-cli by hand and prints its summary (counts of crashes,
# timeouts, memory, unlocated errors and exit codes; one reproducer per distinct failure).
#   bash scripts/fuzz-campaign.sh [N [SEED [JOBS]]]     defaults: 5000 inputs, seed 1, 2 jobs
# Failing inputs are saved with their command under tests/fuzz/findings/ (ignored by git);
# NESTOR_BUILD_DIR selects the build (default build/default). Exit status 1 when any input fails.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5000}
seed=${2:-1}
jobs=${3:-2}
build=${NESTOR_BUILD_DIR:-build/default}
for exe in "$build/app/cli/nestor-cli" "$build/tests/fuzz/nestor-fuzz"; do
  if [[ ! -x $exe ]]; then
    echo "fuzz-campaign: $exe is missing; build it first: cmake --build $build --target nestor-cli nestor-fuzz" >&2
    exit 2
  fi
done
limits=(--timeout 10 --max-rss-mb 1024 --rlimit-as-mb 1024)
# Sanitized builds reserve terabytes of address space: RLIMIT_AS would break them.
if grep -q '^NESTOR_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then limits=(--timeout 10 --max-rss-mb 1024 --rlimit-as-mb 0); fi
exec "$build/tests/fuzz/nestor-fuzz" campaign --cli "$build/app/cli/nestor-cli" --source . \
  --inputs "$n" --seed "$seed" --jobs "$jobs" "${limits[@]}" \
  --findings tests/fuzz/findings
