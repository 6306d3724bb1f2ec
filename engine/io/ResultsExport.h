#pragma once
// Evaluation results as JSON or CSV text (no dependency beyond the standard library).
#include "model/Evaluation.h"

#include <string>

namespace nestor {

// Optional names written next to the figures.
struct ResultsMeta {
    std::string project;
    std::string workload;
    std::string mapping;
    std::string architecture;
};

// One JSON object: meta, validity and errors, summary figures, and per level the
// level figures plus one object per tensor.
std::string evaluationToJson(const Evaluation& ev, const ResultsMeta& meta = {});

// CSV: a header and one row per level x tensor, then a blank line and a "key,value"
// summary section.
std::string evaluationToCsv(const Evaluation& ev, const ResultsMeta& meta = {});

} // namespace nestor
