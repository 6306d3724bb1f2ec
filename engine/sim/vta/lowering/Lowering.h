#pragma once
// Lowering of one int8 layer to a VTA program: the instruction stream, its micro-op sets and
// the DRAM image (packed activations, weights and uops) that the functional simulator and the
// timing model run.
//
// Layouts in DRAM (element = one unit of the memory type): INP [n/BATCH][c/BLOCK_IN][h][w],
// WGT [k/BLOCK_OUT][c/BLOCK_IN][r][s] (depthwise: diagonal blocks [c/BLOCK][r][s]), OUT
// [n/BATCH][k/BLOCK_OUT][oh][ow], and for the ALU layers (max-pool, add) the inputs widened by
// the host to ACC elements (int32 lanes): VTA has no 8-bit ACC load in hardware.
//
// Schedule (docs/vta-simulator.md, "Lowering"): output tiles of the TPS tiling; per tile the
// accumulator region is reset, then one step per input-channel tile loads the input and weight
// chunks into one half of INP/WGT while compute works on the other half (virtual threads,
// synchronised by LD<->CMP tokens), then SHR/MAX/MIN requantize and the store module writes
// the tile while compute starts the next one in the other ACC half (CMP<->ST tokens). With
// output-channel threads two tiles share each input chunk (the paper's redundant-load fix).
#include "sim/vta/Instruction.h"
#include "sim/vta/lowering/LayerSpec.h"
#include "sim/vta/lowering/Tiling.h"
#include "sim/vta/reference/ReferenceOps.h"

#include <cstdint>
#include <vector>

namespace nestor::vta {

class Dram;

// The data of a layer: its input tensors (NCHW, one, or two for Add) and weights (Conv KCRS,
// Dense KC, Depthwise CRS; empty for MaxPool and Add).
struct LayerData {
    std::vector<const reference::Tensor8*> inputs;
    const std::vector<std::int8_t>* weights = nullptr;
};

struct LoweredLayer {
    LayerSpec spec;
    Tiling tiling;
    std::vector<Instruction> insns;
    std::vector<std::uint8_t> dram;   // the DRAM image from address 0
    std::uint64_t outputOffset = 0;   // byte address of the OUT tensor
    std::uint64_t outputBytes = 0;
};

// Lowers `layer` with tiling `t`. `data` null: the image holds only the uops (timing-only runs).
// Throws NestorError naming the layer when the layer is invalid or an instruction field cannot
// hold a value of this tiling.
LoweredLayer lowerLayer(const LayerSpec& layer, const VtaConfig& config, const Tiling& t, const LayerData* data);

// The layer's output read back from DRAM after the run, as NCHW int8.
reference::Tensor8 unpackOutput(const LoweredLayer& lowered, const VtaConfig& config, const Dram& dram);

} // namespace nestor::vta
