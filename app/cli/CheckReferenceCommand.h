#pragma once
// `nestor-cli check-reference`: evaluate Timeloop reference cases, compare field by field.
#include "CliOptions.h"

#include <ostream>

namespace nestor::cli {

int runCheckReference(const CheckReferenceOptions& opt, std::ostream& out, std::ostream& err);

} // namespace nestor::cli
