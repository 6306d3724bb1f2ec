#pragma once
// One "stage" of the analysis: storage level i delivering one tensor to its children (the
// instances of level i+1, or the MACs below the last level). Walks the temporal loops above
// the children analytically (memoized per loop, context and reuse state, with cycle
// skipping), applies Timeloop's delta rule per child, groups identical deltas across the
// children of each instance (multicast / spatial reduction) and finds link transfers.
#include "model/Model.h"
#include "model/NestLayout.h"
#include "model/StageDecline.h"
#include "model/TileGeometry.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace nestor::model {

// Instances are told apart by the category of their index in every spatial loop above them
// (whether it is below, at, or beyond the residual): all instances of one signature behave alike.
struct Signature {
    static constexpr int kMax = 48;  // spatial loops above a level
    std::array<std::uint8_t, kMax> cat{};
    std::uint8_t size = 0;

    Signature() = default;
    explicit Signature(std::size_t n) : size(static_cast<std::uint8_t>(n)) {}
    void push_back(std::uint8_t c) { cat[size++] = c; }
    // Plain loops rather than std::equal: signatures are a few bytes, and the library's memcmp
    // call for each comparison showed in the search's profile.
    bool operator==(const Signature& o) const { return size == o.size && samePrefix(o, size); }
    bool operator<(const Signature& o) const
    {
        return std::lexicographical_compare(cat.begin(), cat.begin() + size, o.cat.begin(), o.cat.begin() + o.size);
    }
    // This signature is the start of `longer` (an instance and one of its children).
    bool isPrefixOf(const Signature& longer) const { return size <= longer.size && samePrefix(longer, size); }

private:
    bool samePrefix(const Signature& o, int n) const
    {
        for (int i = 0; i < n; ++i)
            if (cat[i] != o.cat[i]) return false;
        return true;
    }
};

struct StageChildResult {
    Signature signature;           // over the spatial loops of levels <= i
    std::int64_t count = 0;        // children (over all instances of level i) of this kind
    std::int64_t perParent = 0;    // children of this kind in one instance of level i
    std::int64_t received = 0;     // words delivered to each such child
    std::int64_t activeSteps = 0;  // temporal steps in which each such child is busy
    std::int64_t maxTile = 0;      // largest tile it holds
    std::int64_t distinctWords = 0;  // distinct words it ever holds (its partition); 0 = not computed
    bool everActive = false;
};

struct StageInstanceResult {
    Signature signature;           // over the spatial loops of levels < i
    std::int64_t count = 0;        // instances of level i of this kind
    std::int64_t accesses = 0;     // accesses of each such instance
    std::int64_t weighted = 0;     // accesses x group size of each such instance
    double multicastRatio() const { return accesses > 0 ? double(weighted) / double(accesses) : 1.0; }
};

// Words one child forwarded to its neighbours over links (it reads them from its own copy).
struct StagePeerResult {
    Signature signature;           // the child's signature (as in StageChildResult)
    std::int64_t count = 0;        // children with this signature and this amount
    std::int64_t sent = 0;
};

struct StageResult {
    std::int64_t parentAccesses = 0;  // total over instances of level i, after multicast/links
    std::int64_t weighted = 0;        // sum of accesses x group size (for the masking chain)
    std::int64_t linkTransfers = 0;   // words children got from a neighbour
    std::int64_t macs = 0;            // MAC stage: operations performed
    std::vector<StageChildResult> children;  // one entry per kind of busy child
    std::vector<StageInstanceResult> instances;  // one entry per kind of used instance of level i
    std::vector<StagePeerResult> peers;          // only when links were used
    bool complete = true;                        // false: only the multicast ratio was computed

    double multicastRatio() const { return parentAccesses > 0 ? double(weighted) / double(parentAccesses) : 1.0; }
};

struct StageSpec {
    const Workload* workload = nullptr;
    const NestLayout* nest = nullptr;
    int tensor = 0;
    int level = 0;              // storage level i (outermost = 0)
    bool macStage = false;      // children are MACs: every step reads every operand
    const ModelOptions* options = nullptr;
    const std::vector<Vec>* stepVectors = nullptr;  // per nest loop: its stride projected on the tensor's ranks
    bool needDistinct = true;
    bool ratioOnly = false;     // only the multicast ratio is needed (a bypassing level's stage)
    // Work units spent by the walks of the evaluation so far (the work budget is per evaluation);
    // null = count per stage.
    std::uint64_t* walkWork = nullptr;
    bool linkStage = false;     // children can forward to neighbours: they keep the tensor (or are MACs)   // compute the words each child ever holds (needed for read-write tensors)
};

// The spec of stage (level, tensor) of mapping m as the model analyses it; `steps` are the
// tensor's projected step vectors (projectSteps). Only read-write tensors need partitions, and
// a ratio-only request none. Links only where the children hold the tensor (or are the MACs)
// and some level above holds it.
StageSpec stageSpecFor(const Workload& w, const Mapping& m, const NestLayout& nest, const std::vector<Vec>& steps,
                       const ModelOptions& options, int level, int tensor, bool ratioOnly = false);

// Resets every figure, keeping the vectors' storage.
void clearStageResult(StageResult& r);

// Per nest loop, the move of one iteration projected onto the ranks of tensor t.
std::vector<Vec> projectSteps(const Workload& w, const NestLayout& nest, int tensor);
void projectSteps(const Workload& w, const NestLayout& nest, int tensor, std::vector<Vec>& out);  // into out

StageResult analyzeStage(const StageSpec& spec);

// Which analysis took the stages since countStageAnalyses(true), in one line; "not counted" while off.
std::string stageStatisticsText();
// Same, into `out` (reusing its storage).
void analyzeStage(const StageSpec& spec, StageResult& out);
// analyzeStage in two halves, for a caller that projects the step vectors only when they are
// needed: recallStage serves a result the search's stage memo holds (perfect stages of nests
// without remainders; spec.stepVectors is not read), else analyzeNewStage analyses the stage.
bool recallStage(const StageSpec& spec, StageResult& out);
void analyzeNewStage(const StageSpec& spec, StageResult& out);

} // namespace nestor::model
