#include "model/StageFrame.h"

#include <algorithm>

namespace nestor::model {
namespace {

// Per rank the children's offsets are a Minkowski sum of the spatial progressions touching it;
// a loop touching several ranks couples them, and then the offsets are enumerated.
std::int64_t countDistinctOffsets(const StageFrame& f)
{
    const NestLayout& nest = *f.nest;
    const auto& steps = *f.spec->stepVectors;
    bool coupled = false;
    for (int p = f.leafPos; p < f.boundary; ++p) {
        int touched = 0;
        for (int r = 0; r < f.nRanks; ++r) touched += steps[p][r] != 0;
        coupled = coupled || touched > 1;
    }
    // The per-rank bitmaps span the offsets' range, which a large coefficient makes far wider
    // than the children (up to 2^62): then enumerating the children is the smaller job.
    for (int r = 0; r < f.nRanks && !coupled; ++r) {
        std::int64_t span = 1;
        for (int p = f.leafPos; p < f.boundary; ++p) span += (nest.loops[p].bound - 1) * steps[p][r];
        coupled = span / 64 > f.children + 64;
    }
    if (coupled) {
        thread_local std::vector<Vec> offsets;
        offsets.clear();
        f.forEachChild([&](std::int64_t, const Vec& off, std::int64_t, std::int64_t, const auto&) { offsets.push_back(off); });
        std::sort(offsets.begin(), offsets.end());
        return std::unique(offsets.begin(), offsets.end()) - offsets.begin();
    }
    std::int64_t distinct = 1;
    thread_local std::vector<std::uint8_t> values, next;
    for (int r = 0; r < f.nRanks; ++r) {
        // One progression (or none) on the rank: its bound values, no bitmap needed.
        int moving = 0;
        std::int64_t onlyBound = 1;
        for (int p = f.leafPos; p < f.boundary; ++p)
            if (steps[p][r] != 0) {
                ++moving;
                onlyBound = nest.loops[p].bound;
            }
        if (moving <= 1) {
            distinct *= onlyBound;
            continue;
        }
        values.assign(1, 1);
        for (int p = f.leafPos; p < f.boundary; ++p) {
            const std::int64_t step = steps[p][r];
            if (step == 0) continue;
            const std::int64_t n = nest.loops[p].bound;
            next.assign(values.size() + static_cast<std::size_t>((n - 1) * step), 0);
            for (std::size_t v = 0; v < values.size(); ++v)
                if (values[v])
                    for (std::int64_t i = 0; i < n; ++i) next[v + static_cast<std::size_t>(i * step)] = 1;
            values.swap(next);
        }
        std::int64_t count = 0;
        for (auto v : values) count += v;
        distinct *= count;
    }
    return distinct;
}

} // namespace

std::int64_t StageFrame::groups() const
{
    if (groups_ < 0) groups_ = countDistinctOffsets(*this);
    return groups_;
}

Vec StageFrame::extents(std::uint32_t small) const
{
    Vec ext{};
    const auto& ranks = workload->tensors[spec->tensor].ranks;
    for (int r = 0; r < nRanks; ++r) {
        ext[r] = 1;
        for (const auto& term : ranks[r])
            ext[r] += term.coef * ((spec->macStage ? 1 : ((small >> term.dim) & 1u ? innerLast : innerFull)[term.dim]) - 1);
    }
    return ext;
}

bool StageFrame::isZero(const Vec& v) const
{
    for (int r = 0; r < nRanks; ++r)
        if (v[r] != 0) return false;
    return true;
}

namespace {

// The perfect form ignores a residual only below the children on a dimension the tensor does
// not depend on.
bool residualMattersAt(const StageSpec& spec, int boundary, int p, const NestLoop& l)
{
    return p < boundary || spec.workload->dependsOn(spec.tensor, l.dim);
}

} // namespace

bool stageResidualMatters(const StageSpec& spec)
{
    const NestLayout& nest = *spec.nest;
    if (nest.imperfectDims == 0) return false;
    const int boundary = nest.levelBegin[spec.level + 1];
    for (int p = 0; p < static_cast<int>(nest.loops.size()); ++p)
        if (nest.loops[p].residual != nest.loops[p].bound && residualMattersAt(spec, boundary, p, nest.loops[p])) return true;
    return false;
}

bool buildStageFrame(const StageSpec& spec, StageFrame& f)
{
    const NestLayout& nest = *spec.nest;
    const Workload& w = *spec.workload;
    // Field by field: the fixed tables are only read up to k, and clearing them whole would cost
    // more than the rest of the frame.
    f.groups_ = -1;
    f.k = 0;
    f.allSteps = 1;
    f.instances = 1;
    f.fanX = f.fanY = 1;
    f.temporalRemainderAbove = f.childRemainders = f.residualMatters = f.shapeOnFanout = false;
    f.shapeDims = 0;
    f.spec = &spec;
    f.nest = &nest;
    f.workload = &w;
    f.leafPos = nest.spatialBegin[spec.level];
    f.boundary = nest.levelBegin[spec.level + 1];
    f.nRanks = static_cast<int>(w.tensors[spec.tensor].ranks.size());
    if (w.numDims() > static_cast<int>(f.innerFull.size())) return false;
    // (read by the forms for remainders only)
    if (nest.imperfectDims != 0) nest.innerExtents(f.boundary, w.numDims(), f.innerFull.data(), f.innerLast.data());
    if (f.leafPos > static_cast<int>(f.temporalIndex.size()) || f.boundary - f.leafPos > kMaxLoops) return false;

    // Counts in locals, written to the frame at the end: the frame's fields, read back through
    // `f` after every store to its tables, cost as much as the rest of this function.
    int k = 0;
    std::int64_t instances = 1, allSteps = 1, fanX = 1, fanY = 1;
    for (int p = 0; p < f.leafPos; ++p) {
        const NestLoop& l = nest.loops[p];
        if (l.spatial()) {
            instances *= l.bound;
            continue;
        }
        if (k == kMaxLoops) return false;
        f.temporalIndex[p] = k;
        f.temporal[k++] = p;
        allSteps *= l.bound;
    }
    for (int p = f.leafPos; p < f.boundary; ++p)
        (nest.loops[p].kind == LoopKind::SpatialX ? fanX : fanY) *= nest.loops[p].bound;
    f.k = k;
    f.instances = instances;
    f.allSteps = allSteps;
    f.fanX = fanX;
    f.fanY = fanY;
    f.children = fanX * fanY;

    const auto& steps = *spec.stepVectors;
    const int nRanks = f.nRanks;
    Vec innerSpan{};
    for (int j = k - 1; j >= 0; --j) {
        const Vec& v = steps[static_cast<std::size_t>(f.temporal[j])];
        const std::int64_t trips = nest.loops[static_cast<std::size_t>(f.temporal[j])].bound - 1;
        Vec c{};
        for (int r = 0; r < nRanks; ++r) {
            c[r] = v[r] - innerSpan[r];
            innerSpan[r] += trips * v[r];
        }
        f.carry[j] = c;
    }

    // Remainders: none to find when no dimension has one (every stage of a PFM search).
    const int nLoops = nest.imperfectDims == 0 ? 0 : static_cast<int>(nest.loops.size());
    for (int p = 0; p < nLoops; ++p) {
        const NestLoop& l = nest.loops[p];
        if (l.residual == l.bound) continue;
        const bool tensorDim = w.dependsOn(spec.tensor, l.dim);
        if (residualMattersAt(spec, f.boundary, p, l)) f.residualMatters = true;
        if (p < f.leafPos && !l.spatial()) f.temporalRemainderAbove = true;
        if (p >= f.leafPos && p < f.boundary) f.childRemainders = true;
        if (p >= f.boundary && !spec.macStage && tensorDim) f.shapeDims |= 1u << l.dim;
    }
    for (int p = f.leafPos; p < f.boundary; ++p)
        f.shapeOnFanout = f.shapeOnFanout || ((f.shapeDims >> nest.loops[p].dim) & 1u);
    f.linkCandidate = spec.options->linkTransfers && spec.linkStage && f.children > 1;
    return true;
}

Signature instanceSignature(const StageFrame& f, const std::vector<walker::Cat>& cats)
{
    Signature sig;
    for (int p = 0; p < f.leafPos; ++p)
        if (f.nest->loops[p].spatial()) sig.push_back(static_cast<std::uint8_t>(cats[static_cast<std::size_t>(p)]));
    return sig;
}

Signature childSignature(const Signature& isig, const std::vector<walker::Cat>& childCats)
{
    Signature sig = isig;
    for (walker::Cat c : childCats) sig.push_back(static_cast<std::uint8_t>(c));
    return sig;
}

void appendChild(StageResult& out, const Signature& sig, std::int64_t count, std::int64_t perParent,
                 const ChildFigures& figures, std::int64_t distinctWords)
{
    StageChildResult c;
    c.signature = sig;
    c.count = count;
    c.perParent = perParent;
    c.received = figures.moved;
    c.activeSteps = figures.active;
    c.maxTile = figures.maxTile;
    c.distinctWords = distinctWords;
    c.everActive = true;
    out.children.push_back(c);
}

} // namespace nestor::model
