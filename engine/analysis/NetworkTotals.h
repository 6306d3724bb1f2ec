#pragma once
// The totals of a network evaluated layer by layer (layers run one after the other): energy,
// cycles and MACs are sums over layers x repeats; the network's EDP is total energy x total
// delay, and the sum of the layers' own EDPs x repeats is kept beside it. A layer without a
// valid evaluation adds nothing and is counted as missing. One implementation for the CLI's
// `search --network`, the network search and the GUI's Network tab.
#include "model/Evaluation.h"

#include <cstdint>
#include <vector>

namespace nestor {

struct RepeatedEvaluation {
    const Evaluation* evaluation = nullptr;  // null: the layer has none (no mapping, not searched)
    std::int64_t repeat = 1;
};

struct NetworkTotals {
    int layers = 0;                    // layers with a valid evaluation
    int missing = 0;                   // layers without one
    std::int64_t macs = 0;             // sum of MACs x repeat
    double energy_pJ = 0.0;            // sum of energy x repeat
    std::int64_t cycles = 0;           // sum of cycles x repeat
    double delay_s = 0.0;              // cycles x cycle time
    double edp_J_s = 0.0;              // energy [J] x delay [s] of the whole network
    double sumLayerEdp_J_s = 0.0;      // sum of layer EDP x repeat

    bool complete() const { return layers > 0 && missing == 0; }
};

// Throws NestorError when a repeat is not positive or a sum of counts reaches 2^62.
NetworkTotals networkTotals(const std::vector<RepeatedEvaluation>& layers, double cycle_seconds);

} // namespace nestor
