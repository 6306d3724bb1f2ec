#!/usr/bin/env bash
# Renders the main views of the real GUI into docs/screenshots/*.png (nestor --screenshot) at
# 1760x1000, and each again at the smallest and a common screen size into
# docs/screenshots/1366x768/ and docs/screenshots/1920x1080/, on the offscreen platform (or
# under Xvfb with USE_XVFB=1). Builds the GUI first unless NESTOR_BIN points at an existing
# nestor executable. tests/widgets/tst_layout.cpp checks the same sizes with assertions.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${NESTOR_BUILD_DIR:-$root/build/gui}"
bin="${NESTOR_BIN:-$build/app/gui/nestor}"
out="$root/docs/screenshots"
if [[ -z "${NESTOR_BIN:-}" ]]; then
  cmake -S "$root" -B "$build" -G Ninja >/dev/null
  cmake --build "$build" -j2 --target nestor
fi
mkdir -p "$out"

run() {  # run NAME PROJECT [ARGS...]; SIZE=WxH and DIR=subfolder from the environment
  local name="$1" project="$2"
  shift 2
  local dir="$out${DIR:+/$DIR}"
  mkdir -p "$dir"
  local size=()
  [[ -n "${SIZE:-}" ]] && size=(--size "$SIZE")
  # A throw-away settings/data home, so screenshots never depend on (or touch) the user's.
  local home
  home="$(mktemp -d)"
  if [[ "${USE_XVFB:-0}" == 1 ]]; then
    HOME="$home" XDG_CONFIG_HOME="$home" XDG_DATA_HOME="$home" xvfb-run -a -s "-screen 0 1920x1200x24" \
      "$bin" "$project" --screenshot "$dir/$name.png" "${size[@]}" "$@"
  else
    HOME="$home" XDG_CONFIG_HOME="$home" XDG_DATA_HOME="$home" QT_QPA_PLATFORM=offscreen \
      "$bin" "$project" --screenshot "$dir/$name.png" "${size[@]}" "$@"
  fi
  rm -rf "$home"
}

all_views() {
  run mapping "$root/examples/eyeriss-like.yaml" --mapping row-stationary
  run roofline "$root/examples/eyeriss-like.yaml" --mapping row-stationary --view roofline
  run layers "$root/examples/resnet18-thistle.yaml" --view layers
  run architecture "$root/examples/eyeriss-like.yaml" --view architecture
  run compare "$root/examples/eyeriss-like.yaml" --view compare
  run network "$root/examples/alexnet.yaml" --view network
  run search "$root/examples/eyeriss-like.yaml" --view search
  run simulator "$root/examples/eyeriss-like.yaml" --view simulator
  run simulator-network "$root/examples/eyeriss-like.yaml" --view simulator-network
  run simulator-roofline "$root/examples/eyeriss-like.yaml" --view simulator-roofline
  run simulator-sweep "$root/examples/eyeriss-like.yaml" --view simulator-sweep
  run solver "$root/examples/thistle/resnet18.yaml" --view solver
  run dataflow-weight-stationary "$root/examples/teaching/dataflows.yaml" --mapping weight-stationary --view dataflow
  run dataflow-row-stationary "$root/examples/teaching/dataflows.yaml" --mapping row-stationary --view dataflow
}

all_views
for s in 1366x768 1920x1080; do SIZE=$s DIR=$s all_views; done
echo "screenshots in $out"
