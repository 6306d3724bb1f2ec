#pragma once
// Thistle over the layers of a network, as the paper's Fig. 6 and 8 compare them: the fixed
// architecture with the best dataflow per layer (Eq. 3), the layer-wise co-design (Eq. 5, one
// architecture per layer), and one architecture for all layers, taken from the layer-wise design
// of the dominant layer (most energy or most cycles) and re-optimized for every layer.
#include "solvers/thistle/ThistleOptimizer.h"
#include "workload/Workload.h"

#include <functional>
#include <string>
#include <vector>

namespace nestor::thistle {

struct NetworkCodesignOptions {
    OptimizeOptions optimize;         // objective, area budget, rounding, progress, cancel
    bool fixedArchitecture = true;    // run Eq. 3 on the given architecture (the baseline bars)
    bool layerwise = true;            // run Eq. 5 per layer (needs optimize.area_um2 > 0)
    bool singleArchitecture = true;   // then the dominant layer's design for every layer
    // Before each layer's optimization: the fraction of layer runs done and what starts.
    std::function<void(double fraction, const std::string& what)> progress;
};

struct NetworkCodesign {
    std::vector<LayerOptimization> fixed;      // per layer, on the given architecture (empty if not asked)
    std::vector<LayerOptimization> layerwise;  // per layer, co-designed (empty if not asked)
    std::vector<LayerOptimization> single;     // per layer, on the single architecture (empty if none)
    std::string singleFrom;                    // the layer whose design is the single architecture
    std::string singleError;                   // why there is no single architecture (when asked)
    bool cancelled = false;
};

// `arch` has its energies applied (applyEnergyModel) and the Thistle shape
// (checkThistleArchitecture). Throws NestorError on an unusable architecture.
NetworkCodesign codesignNetwork(const std::vector<const Workload*>& layers, const Architecture& arch,
                                const NetworkCodesignOptions& options);

// The dominant layer's design that can run every layer (its registers and SRAM hold every
// layer's smallest tiles), most energy (or most cycles, for the delay objective) first; null
// when no layer-wise design can run them all.
const LayerOptimization* dominantDesign(const std::vector<const Workload*>& layers,
                                        const std::vector<LayerOptimization>& layerwise, Objective objective);

} // namespace nestor::thistle
