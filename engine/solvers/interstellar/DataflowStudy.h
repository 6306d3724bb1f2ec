#pragma once
// Interstellar's dataflow study (ASPLOS'20, Section 6.1, Fig. 8 and Observation 1): every
// single-loop 2-D dataflow U|V of a layer, each with its loop blocking optimized by Nestor's
// search inside that dataflow (DataflowConstraints.h), ranked by energy; and how many of them
// come within a few percent of the best.
//
// Enumeration: the loops of bound > 1 (the paper's "excluding those with loop bounds as 1"),
// every ordered pair (U, V) of two distinct ones, U on X and V on Y: n (n - 1) dataflows for
// n such loops (42 for a conv layer with all seven loops > 1). The paper counts unordered pairs
// (C(7,2) = 21) on a square array; on an X x Y array that is not square, or with different
// fanout levels per axis, U|V and V|U differ, so both are searched. Replication (the paper's
// Fig. 8 and 9b setting) is an option of the search, not more enumerated names: with it, other
// loops may fill either axis (C|K may become C|KX), and the realized U|V of each best mapping
// is reported beside the requested one.
#include "analysis/DataflowNotation.h"
#include "core/MapspaceConstraints.h"
#include "mapspace/MapspaceKind.h"
#include "model/Evaluation.h"
#include "model/Model.h"
#include "search/SearchMetric.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace nestor::interstellar {

// Ordered pairs of distinct loops of bound > 1, in the workload's dimension order (U outer).
std::vector<Dataflow> enumerateDataflows(const Workload& w);

struct StudyOptions {
    std::int64_t budget = 2000;          // evaluated candidates per dataflow (the search's budget)
    std::uint64_t seed = 1;
    int threads = 1;
    std::string algorithm = "annealing";
    MapspaceKind kind = MapspaceKind::Pfm;  // perfect factors: closed-form evaluation, ~100x faster than with remainders
    bool replication = true;
    std::vector<SearchMetric> metrics{SearchMetric::Energy, SearchMetric::Delay};
    MapspaceConstraints base;            // kept under every dataflow (e.g. a project's keep/bypass)
    ModelOptions model;
    // Called before each search: index, count, the dataflow's text (may be empty).
    std::function<void(int, int, const std::string&)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

struct DataflowResult {
    Dataflow dataflow;        // as requested
    std::string text;         // paper letters
    bool found = false;
    std::string error;        // why nothing was found (a constraint that cannot hold, no valid mapping)
    Mapping best;
    Evaluation eval;
    DataflowClass realized;   // classifyDataflow of the best mapping
    std::int64_t evaluated = 0, valid = 0;
};

struct StudySummary {
    int searched = 0, found = 0;
    double bestEnergy_pJ = 0.0;
    std::string bestText;
    // Found dataflows whose energy is within (1 + t) of the best, for t = 5%, 10%, 25%, 50%.
    std::vector<std::pair<double, int>> within;
    double worstOverBest = 0.0;  // energy spread among found dataflows
    std::string text() const;    // "12 of 42 dataflows within 10% of the best (C|K, ...)"
};

struct DataflowStudy {
    std::vector<DataflowResult> rows;  // found ones by energy (then cycles, then text), then the others
    StudySummary summary;
    bool cancelled = false;
    double seconds = 0.0;
};

// `a` has its energies applied (applyEnergyModel). Per-dataflow failures are rows with an error;
// throws NestorError only for an invalid workload or architecture, an unknown algorithm or a
// budget below 1 (a search without a budget would not end).
DataflowStudy studyDataflows(const Workload& w, const Architecture& a, const std::vector<Dataflow>& dataflows,
                             const StudyOptions& o);

// The search of one dataflow (used by the study and the memory sweep); throws only for a budget
// below 1, other failures are in the result's error.
DataflowResult searchDataflow(const Workload& w, const Architecture& a, const Dataflow& d, const StudyOptions& o);

StudySummary summarize(const std::vector<DataflowResult>& sortedRows);

} // namespace nestor::interstellar
