#pragma once
// Runs a program vector and compares everything fsim recorded (FORMAT.md §5): each expected
// OUT region byte for byte, the profiler counters and the token pushes per queue. Non-OUT
// regions must also be unchanged.
#include "sim/vta/FunctionalSim.h"
#include "sim/vta/VectorFile.h"

#include <string>
#include <vector>

namespace nestor::vta {

struct VectorCheckResult {
    RunResult run;
    std::vector<std::string> mismatches;  // one line each; empty when everything matches
    bool passed() const { return run.ok() && mismatches.empty(); }
};

VectorCheckResult checkVector(const ProgramVector& vec, const RunOptions& options = {});

// A readable multi-line report: PASS/FAIL line, failure or mismatches, counters, warnings.
std::string formatReport(const ProgramVector& vec, const VectorCheckResult& result);

} // namespace nestor::vta
