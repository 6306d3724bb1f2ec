#pragma once
// Regression inputs: a folder with the input file(s) and a file `command` holding nestor-cli's
// arguments (paths relative to the folder). Replaying copies the folder to a scratch place, runs
// the command there and applies the campaign's oracle.
#include "Runner.h"

#include <string>
#include <vector>

namespace nestor::fuzz {

// Returns the number of folders whose run fails the oracle; prints one line per folder.
std::size_t replay(const std::string& cli, const std::vector<std::string>& dirs, const std::string& workDir,
                   const Limits& limits);

} // namespace nestor::fuzz
