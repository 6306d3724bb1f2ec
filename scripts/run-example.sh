#!/usr/bin/env bash
# Sets up, builds and opens the bundled Eyeriss-like example: the GUI where a display is
# available, otherwise the CLI evaluation of the same project.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default
cmake --build --preset default
EXAMPLE=examples/eyeriss-like.yaml
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ "${1:-}" != "--headless" ]; then
  exec build/default/app/gui/nestor "$EXAMPLE"
else
  exec build/default/app/cli/nestor-cli eval "$EXAMPLE"
fi
