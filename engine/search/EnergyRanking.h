#pragma once
// Whether a ranking by energy decided anything: on an architecture without energies (imported
// without an ERT, energy model `table` with every energy 0) every mapping costs 0 pJ, so EDP
// and energy rank nothing. The CLI warns and the GUI's Find Mappings report says so.
#include "search/SearchMetric.h"

#include <algorithm>
#include <vector>

namespace nestor {

inline bool energyRankedNothing(const std::vector<SearchMetric>& metrics, double bestEnergy_pJ)
{
    const bool byEnergy = std::any_of(metrics.begin(), metrics.end(),
                                      [](SearchMetric m) { return m == SearchMetric::Edp || m == SearchMetric::Energy; });
    return byEnergy && bestEnergy_pJ == 0.0;
}

} // namespace nestor
