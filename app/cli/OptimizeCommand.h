#pragma once
// nestor-cli optimize / codesign: the Thistle solver (engine/solvers/thistle, docs/solvers.md).
//   optimize PROJECT --layer L [--objective energy|delay] [--json FILE]         (fixed architecture, Eq. 3)
//   codesign PROJECT (--network N | --layer L) --area-um2 A [--per-layer|--single-arch]
//            [--objective energy|delay] [--json FILE]                             (co-design, Eq. 5)
#include <iosfwd>
#include <string>
#include <vector>

namespace nestor::cli {

// args: the arguments after the command name. Returns the exit code.
int runOptimizeCommand(const std::vector<std::string>& args, bool codesign, std::ostream& out, std::ostream& err);

std::string optimizeUsage();
std::string codesignUsage();

} // namespace nestor::cli
