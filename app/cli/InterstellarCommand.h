#pragma once
// nestor-cli dataflows / memsweep: Interstellar's dataflow and memory studies
// (engine/solvers/interstellar, docs/solvers.md).
//   dataflows PROJECT --layer L [--budget N] [--seed S] [--dataflow U|V ...] [--csv FILE] [--json FILE]
//   memsweep  PROJECT --layer L [--rf 16,32,...] [--sram 32K,...] [--array XxY] [--csv FILE]
#include <iosfwd>
#include <string>
#include <vector>

namespace nestor::cli {

// args: the arguments after the command name. Returns the exit code.
int runDataflowsCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runMemsweepCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

std::string dataflowsUsage();
std::string memsweepUsage();

} // namespace nestor::cli
