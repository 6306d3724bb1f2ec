#include "analysis/NetworkTotals.h"

#include "common/CheckedMath.h"

#include <string>

namespace nestor {

NetworkTotals networkTotals(const std::vector<RepeatedEvaluation>& layers, double cycle_seconds)
{
    NetworkTotals t;
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const RepeatedEvaluation& l = layers[i];
        const std::string field = "network.layers[" + std::to_string(i) + "]";
        if (l.repeat < 1) throw NestorError(field + ".repeat", "must be positive (got " + std::to_string(l.repeat) + ")");
        if (!l.evaluation || !l.evaluation->valid) {
            ++t.missing;
            continue;
        }
        const Evaluation& e = *l.evaluation;
        ++t.layers;
        const double repeat = static_cast<double>(l.repeat);
        // Counts stay below 2^62 (common/CheckedMath.h): a network that reaches it is an error, never a wrap.
        t.macs = limitedAdd(t.macs, limitedMul(e.macs, l.repeat));
        t.cycles = limitedAdd(t.cycles, limitedMul(e.cycles, l.repeat));
        if (!belowCountLimit(t.macs) || !belowCountLimit(t.cycles))
            throw NestorError(field, "the network's MACs or cycles reach 2^62 with this layer x its repeat");
        t.energy_pJ += e.energy_pJ * repeat;
        t.sumLayerEdp_J_s += e.edp_J_s * repeat;
    }
    t.delay_s = static_cast<double>(t.cycles) * cycle_seconds;
    t.edp_J_s = t.energy_pJ * 1e-12 * t.delay_s;
    return t;
}

} // namespace nestor
