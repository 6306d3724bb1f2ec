#include "model/ClosedStageForms.h"

#include "model/PerfectStage.h"
#include "model/ResidualContextStage.h"
#include "model/TemporalRemainderStage.h"

#include <array>

namespace nestor::model {

std::span<const ClosedStageForm> closedStageForms()
{
    // Most frequent first: the perfect form takes every stage no residual reaches.
    static constexpr std::array<ClosedStageForm, 3> forms{{
        {"perfect", &acceptsPerfectStage, &analyzePerfectStage},
        {"residual-context", &acceptsResidualContextStage, &analyzeResidualContextStage},
        {"temporal-remainder", &acceptsTemporalRemainderStage, &analyzeTemporalRemainderStage},
    }};
    static_assert(forms.size() <= StageStatistics::kMaxForms);
    return forms;
}

} // namespace nestor::model
