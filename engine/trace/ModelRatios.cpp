#include "trace/ModelRatios.h"

#include "common/Error.h"
#include "model/ExactBudget.h"
#include "model/Model.h"
#include "model/NestLayout.h"
#include "model/SpatialCategory.h"
#include "model/StageAnalysis.h"

#include <string>

namespace nestor::trace::detail {

std::vector<double> modelMulticastRatios(const Workload& w, const Mapping& m, const NestOdometer& nest, int stage,
                                         int tensor)
{
    const model::NestLayout layout = model::buildNestLayout(w, m);
    const std::vector<model::Vec> steps = model::projectSteps(w, layout, tensor);
    const ModelOptions options;  // the trace follows the model's defaults
    const model::StageSpec spec = model::stageSpecFor(w, m, layout, steps, options, stage, tensor, true);
    model::StageResult result;
    try {
        model::analyzeStage(spec, result);
    } catch (const model::ExactBudgetExceeded& e) {  // as evaluate() would stop on this mapping
        throw NestorError("mapping", std::string("the multicast ratio of ") + w.tensors[tensor].name + ": " + e.what());
    }

    // The model tells instances apart by the category of their index in every spatial loop
    // above them (its layout drops unit loops, which the odometer keeps).
    std::vector<double> ratios(static_cast<std::size_t>(nest.instances(stage)), 1.0);
    std::vector<i64> idx;
    for (i64 p = 0; p < nest.instances(stage); ++p) {
        if (!nest.fillSpatial(stage, p, idx)) continue;  // outside the fanout the mapping uses: never reads
        model::Signature sig;
        for (int q = 0; q < nest.yBegin(stage); ++q) {
            const FlatLoop& l = nest.loops()[q];
            if (l.kind == LoopKind::Temporal || l.bound == 1) continue;
            const bool imperfect = layout.dimImperfect(l.dim);
            sig.push_back(static_cast<std::uint8_t>(imperfect ? model::walker::categorize(idx[q], l.bound, l.residual)
                                                              : model::walker::Cat::Any));
        }
        for (const model::StageInstanceResult& inst : result.instances)
            if (inst.signature == sig) ratios[static_cast<std::size_t>(p)] = inst.multicastRatio();
    }
    return ratios;
}

} // namespace nestor::trace::detail
