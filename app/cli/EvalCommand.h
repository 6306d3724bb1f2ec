#pragma once
// `nestor-cli eval`: evaluate one mapping of a project and print the figures.
#include "CliOptions.h"

#include <ostream>

namespace nestor::cli {

int runEval(const EvalOptions& opt, std::ostream& out, std::ostream& err);

} // namespace nestor::cli
