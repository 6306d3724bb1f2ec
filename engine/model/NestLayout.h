#pragma once
// The mapping flattened into one loop nest, outermost first: per storage level its temporal
// loops, then its spatial Y loops, then its spatial X loops (X innermost, as in Timeloop's
// split). Each loop knows its stride in its dimension (product of the bounds of the inner
// loops of the same dimension), which places iterations under the residual rule.
#include "mapping/Mapping.h"
#include "workload/Workload.h"

#include <cstdint>
#include <vector>

namespace nestor::model {

struct NestLoop {
    int dim = 0;
    std::int64_t bound = 1;
    std::int64_t residual = 1;
    std::int64_t stride = 1;
    int level = 0;
    LoopKind kind = LoopKind::Temporal;
    bool spatial() const { return kind != LoopKind::Temporal; }
};

struct NestLayout {
    std::vector<NestLoop> loops;
    std::vector<int> levelBegin;    // first loop of level i; levelBegin[L] == loops.size()
    std::vector<int> spatialBegin;  // first spatial loop of level i (== levelBegin[i+1] if none)
    std::uint32_t imperfectDims = 0; // bit d set when dimension d has a loop with a residual
    int numLevels = 0;

    bool dimImperfect(int d) const { return (imperfectDims >> d) & 1u; }
    // Extent in dimension d spanned by the loops at positions >= from, when every loop of d
    // above `from` is (lastGlobal) or is not at its last iteration.
    std::int64_t innerExtent(int from, int d, bool lastGlobal) const;
    // innerExtent of every dimension below `dims`, both ways, in one pass over the loops:
    // full[d] (not last) and last[d] (lastGlobal).
    void innerExtents(int from, int dims, std::int64_t* full, std::int64_t* last) const;
};

NestLayout buildNestLayout(const Workload& w, const Mapping& m);
// Same, into `n`, reusing its storage.
void buildNestLayout(const Workload& w, const Mapping& m, NestLayout& n);

} // namespace nestor::model
