#pragma once
// Rank expressions as text, Timeloop style: terms "coef*DIM" (or "DIM*coef", or "DIM")
// joined by "+", e.g. "R + P", "2*P + R".
#include "workload/Workload.h"

#include <optional>
#include <string>
#include <vector>

namespace nestor {

// nullopt with *error set when the text is not a valid expression over dimNames.
std::optional<RankExpression> parseRankExpression(const std::string& text, const std::vector<std::string>& dimNames,
                                                  std::string* error);
std::string formatRankExpression(const RankExpression& rank, const std::vector<std::string>& dimNames);

} // namespace nestor
