#pragma once
// nestor-cli sweep: search one layer (or every layer of a network) on a range of PE-array sizes and mapspaces; report the
// best EDP, area and the area-vs-EDP Pareto front of each mapspace.
#include "CliOptions.h"
#include "arch/Architecture.h"

#include <iosfwd>

namespace nestor::cli {

int runSweepCommand(const SearchCliOptions& opt, std::ostream& out, std::ostream& err);

// resizePeArray lives in engine/search/ArchitectureSweep.h.

} // namespace nestor::cli
