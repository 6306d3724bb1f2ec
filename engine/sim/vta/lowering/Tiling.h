#pragma once
// The Tiling Parameter Search of the VTA paper's appendix: enumerate the tilings of a layer's
// output rows, output columns, output-channel blocks and input-channel blocks, with the virtual
// thread (double buffering) on the output channels or on the rows, and keep the one that moves
// the fewest DRAM bytes while each context fits its half of the INP, WGT and ACC scratchpads
// (and its micro-ops fit the uop buffer).
#include "sim/vta/VtaConfig.h"
#include "sim/vta/lowering/LayerSpec.h"

#include <cstdint>
#include <optional>
#include <string>

namespace nestor::vta {

struct Tiling {
    int th = 1, tw = 1;  // output rows and columns per tile (the last tile may be smaller)
    int tk = 1, tc = 1;  // output / input channel blocks per tile (divisors of the block counts)
    bool ocThreads = false;  // virtual threads on output-channel tiles: a pair shares the input tile
    std::uint64_t predictedDramBytes = 0;  // the cost the search minimized
    std::string describe() const;
};

// The tile geometry derived from a tiling (element counts of each scratchpad, per context; the
// counts are in elements, so they do not depend on the configuration's element sizes).
struct TileShape {
    int ih = 1, iw = 1;      // input rows and columns a full tile reads (padding included)
    std::int64_t inpElems = 0, wgtElems = 0, accElems = 0, uopsPerSet = 0;
};
TileShape tileShape(const LayerSpec& layer, const VtaConfig& config, const Tiling& t);

// The cheapest tiling that fits, or nullopt with `why` explaining what does not fit.
std::optional<Tiling> searchTiling(const LayerSpec& layer, const VtaConfig& config, std::string* why = nullptr);

} // namespace nestor::vta
