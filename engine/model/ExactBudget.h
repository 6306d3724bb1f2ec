#pragma once
// The exact analysis is bounded (ModelOptions::exactMemoryBudgetMB, exactWorkBudget, and fixed
// bounds on per-child partitions): past a bound it throws ExactBudgetExceeded, and evaluate()
// turns that into an evaluation without figures that says which bound was exceeded.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace nestor::model {

class ExactBudgetExceeded : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Thrown by a walk when ModelOptions::cancel is raised: the evaluation is abandoned half done,
// and evaluate() lets it through (its caller was asked to stop; no figures to give).
class AnalysisCancelled : public std::runtime_error {
public:
    AnalysisCancelled() : std::runtime_error("evaluation cancelled") {}
};

// Adds `units` of walker work to an evaluation's count; throws past `limit` (0 = no limit).
inline void chargeWalkWork(std::uint64_t& work, std::uint64_t units, std::uint64_t limit)
{
    work += units;
    if (limit > 0 && work > limit)
        throw ExactBudgetExceeded("exact evaluation exceeds " + std::to_string(limit) + " analysis steps");
}

} // namespace nestor::model
