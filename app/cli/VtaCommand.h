#pragma once
// `nestor-cli vta ...`: the VTA simulator. `vta run VECTOR.json...` runs program vectors
// (tests/data/vta/FORMAT.md) and compares them with fsim's recorded results; `vta disasm`
// prints the decoded instruction stream. Parses its own options (args exclude "vta").
#include <ostream>
#include <string>
#include <vector>

namespace nestor::cli {

std::string vtaUsage();
int runVtaCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace nestor::cli
