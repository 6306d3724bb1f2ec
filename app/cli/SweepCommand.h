#pragma once
// nestor-cli sweep: search one layer on a range of PE-array sizes and mapspaces; report the
// best EDP, area and the area-vs-EDP Pareto front of each mapspace.
#include "CliOptions.h"
#include "arch/Architecture.h"

#include <iosfwd>

namespace nestor::cli {

int runSweepCommand(const SearchCliOptions& opt, std::ostream& out, std::ostream& err);

// The architecture with an X x Y PE array: the compute level and every level with as many
// instances as it get X*Y instances (mesh X); levels with one instance per column of the old
// array get X. Throws NestorError when the array cannot be identified.
Architecture resizePeArray(const Architecture& a, std::int64_t x, std::int64_t y);

} // namespace nestor::cli
