#pragma once
// Field-by-field comparison of an Evaluation with a Timeloop reference case.
//
// Pass rules: cycles equal; per level and tensor reads, fills, updates (per instance),
// utilized capacity and utilized instances equal; every energy within 0.01 pJ or 1e-6
// relative (the looser); utilization within 1e-4 of utilization_exact. Where the case has
// exact_counts, the fields given there are compared instead of the printed `expected` ones.
#include "io/ReferenceCase.h"
#include "model/Evaluation.h"

#include <string>
#include <vector>

namespace nestor {

struct CheckRow {
    std::string field;     // e.g. "GlobalBuffer/Inputs/reads_per_instance", "summary/cycles"
    std::string expected;
    std::string got;
    bool pass = false;
    std::string source;    // "expected", "exact_counts", "workload" or "mapping"
};

struct CheckResult {
    std::string caseName;
    bool mappingValid = false;
    bool pass = false;
    std::vector<CheckRow> rows;
    int failures() const;
};

CheckResult checkReference(const ReferenceCase& rc, const Evaluation& ev);

// Tolerances, exposed for tests and reports.
bool energyMatches(double expected, double got);       // |d| <= max(0.01, 1e-6 |expected|)
bool utilizationMatches(double expected, double got);  // |d| <= 1e-4

} // namespace nestor
