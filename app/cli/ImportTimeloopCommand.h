#pragma once
// `nestor-cli import-timeloop FILE... [--ert ERT.yaml] [--energy-model M] [-o OUT.yaml]`:
// Timeloop problem / architecture / mapping files (and an Accelergy ERT) -> a Nestor project,
// written to OUT.yaml (atomically) or to stdout; a summary and the warnings go to stderr.
// Parses its own options (args exclude "import-timeloop").
#include <ostream>
#include <string>
#include <vector>

namespace nestor::cli {

std::string importTimeloopUsage();
int runImportTimeloopCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace nestor::cli
