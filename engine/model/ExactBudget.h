#pragma once
// The exact analysis is bounded (ModelOptions::exactMemoryBudgetMB, exactWorkBudget, and fixed
// bounds on per-child partitions): past a bound it throws ExactBudgetExceeded, and evaluate()
// turns that into an evaluation without figures that says which bound was exceeded.
#include <stdexcept>

namespace nestor::model {

class ExactBudgetExceeded : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace nestor::model
