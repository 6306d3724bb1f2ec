#pragma once
// Text mutations that matter for YAML (and JSON) inputs: numbers replaced by boundary values,
// tokens, lines and blocks deleted/duplicated/swapped, keys renamed, indentation broken, lists
// truncated, strings where numbers go, factor strings ("Q=14,13", "C4 M8") and loop entries
// mutated. Purely textual: the mutator knows no schema, so it also produces what a schema-aware
// generator would never think of.
#include "Random.h"

#include <string>
#include <vector>

namespace nestor::fuzz {

struct MutationResult {
    std::string text;
    std::vector<std::string> applied;  // names of the mutations, in order, e.g. "number-special(2^70)"
};

// Applies 1 to 3 mutations to `text`. `donors` are other seed texts; one mutation splices a line
// from one of them. Deterministic in `r`.
MutationResult mutate(const std::string& text, const std::vector<std::string>& donors, Random& r);

// Names of all mutation operators (for the summary and the README).
std::vector<std::string> mutationNames();

} // namespace nestor::fuzz
