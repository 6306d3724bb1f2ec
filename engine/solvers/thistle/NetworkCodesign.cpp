#include "solvers/thistle/NetworkCodesign.h"

#include <algorithm>

namespace nestor::thistle {

namespace {
bool cancelRequested(const OptimizeOptions& o) { return o.cancel && o.cancel->load(); }
} // namespace

const LayerOptimization* dominantDesign(const std::vector<const Workload*>& layers,
                                        const std::vector<LayerOptimization>& layerwise, Objective objective)
{
    auto weight = [&](const LayerOptimization& r) {
        return objective == Objective::Energy ? r.best.eval.energy_pJ : static_cast<double>(r.best.eval.cycles);
    };
    // A design too small for another layer's smallest tiles (4 registers from a 1x1 layer, for a
    // 3x3 one) cannot be the single architecture.
    std::vector<MinimumTiles> minimums;
    for (const Workload* w : layers) minimums.push_back(minimumTiles(*w));
    auto hostsAll = [&](const LayerOptimization& r) {
        return std::all_of(minimums.begin(), minimums.end(), [&](const MinimumTiles& m) {
            return m.registers <= static_cast<double>(r.best.registers) && m.sramWords <= static_cast<double>(r.best.sramWords);
        });
    };
    const LayerOptimization* dominant = nullptr;
    for (const LayerOptimization& r : layerwise)
        if (r.ok && hostsAll(r) && (!dominant || weight(r) > weight(*dominant))) dominant = &r;
    return dominant;
}

NetworkCodesign codesignNetwork(const std::vector<const Workload*>& layers, const Architecture& arch,
                                const NetworkCodesignOptions& options)
{
    checkThistleArchitecture(arch);
    NetworkCodesign out;
    const int runs = static_cast<int>(layers.size()) *
                     ((options.fixedArchitecture ? 1 : 0) + (options.layerwise ? (options.singleArchitecture ? 2 : 1) : 0));
    int done = 0;
    auto runAll = [&](const Architecture& a, bool codesign, std::vector<LayerOptimization>& into) {
        OptimizeOptions o = options.optimize;
        o.codesign = codesign;
        const char* what = codesign ? "co-design" : &a == &arch ? "fixed architecture" : "single architecture";
        for (const Workload* w : layers) {
            if (cancelRequested(o)) {
                out.cancelled = true;
                return;
            }
            if (options.progress) options.progress(runs > 0 ? double(done) / runs : 0.0, std::string(what) + ": " + w->name);
            ++done;
            into.push_back(optimizeLayer(*w, a, o));
            out.cancelled = out.cancelled || into.back().cancelled;
        }
    };
    if (options.fixedArchitecture) runAll(arch, false, out.fixed);
    if (options.layerwise && !out.cancelled) runAll(arch, true, out.layerwise);
    if (options.layerwise && options.singleArchitecture && !out.cancelled) {
        const LayerOptimization* dominant = dominantDesign(layers, out.layerwise, options.optimize.objective);
        if (!dominant) {
            out.singleError = "no layer's design can run every layer";
        } else {
            out.singleFrom = dominant->layer;
            const SolvedCandidate& design = dominant->best;
            runAll(design.arch, false, out.single);
            for (LayerOptimization& s : out.single)
                if (s.ok) {
                    s.best.registers = design.registers;
                    s.best.sramWords = design.sramWords;
                }
            // Where the single architecture serves a layer better than the layer's own design,
            // the layer-wise search missed that design (the rounding and the climb are local):
            // the layer's co-design climbs on from it, so a layer's own design is never worse
            // than the shared one.
            OptimizeOptions o = options.optimize;
            o.codesign = true;
            for (std::size_t i = 0; i < out.single.size() && i < out.layerwise.size() && !cancelRequested(o); ++i) {
                const LayerOptimization& s = out.single[i];
                LayerOptimization& own = out.layerwise[i];
                if (s.ok && own.ok && betterEvaluation(s.best.eval, own.best.eval, o.objective))
                    climbFrom(own, *layers[i], arch, o, s.best, DesignOrigin::SingleArchitectureClimb);
            }
        }
    }
    return out;
}

} // namespace nestor::thistle
