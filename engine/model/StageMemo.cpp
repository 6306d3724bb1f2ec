#include "model/StageMemo.h"

#include "model/ExactBudget.h"

#include <algorithm>

namespace nestor::model {
namespace {

void copyResult(const StageResult& from, StageResult& to)
{
    to.parentAccesses = from.parentAccesses;
    to.weighted = from.weighted;
    to.linkTransfers = from.linkTransfers;
    to.macs = from.macs;
    to.complete = from.complete;
    to.children.assign(from.children.begin(), from.children.end());  // keeps `to`'s storage
    to.instances.assign(from.instances.begin(), from.instances.end());
    to.peers.assign(from.peers.begin(), from.peers.end());
}

std::uint64_t hashOf(const std::vector<std::int64_t>& key)
{
    std::uint64_t h = 0x9e3779b97f4a7c15ull;
    for (std::int64_t v : key) {
        h ^= static_cast<std::uint64_t>(v) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdull;
    }
    return h ^ (h >> 33);
}

} // namespace

StageMemo::StageMemo() : slots_(kSlots) {}

void StageMemo::buildKey(const StageSpec& spec)
{
    const NestLayout& nest = *spec.nest;
    const ModelOptions& o = *spec.options;
    const int boundary = nest.levelBegin[spec.level + 1];
    key_.clear();
    key_.push_back(spec.tensor);
    key_.push_back(spec.level);
    key_.push_back(static_cast<std::int64_t>(spec.macStage) | std::int64_t{spec.needDistinct} << 1 |
                   std::int64_t{spec.ratioOnly} << 2 | std::int64_t{spec.linkStage} << 3 |
                   std::int64_t{o.legacyZeroTranslationRule} << 4 | std::int64_t{o.linkTransfers} << 5 |
                   std::int64_t{o.firstReadElision} << 6);
    key_.push_back(static_cast<std::int64_t>(o.exactMemoryBudgetMB));  // the walker's memo bound decides success
    key_.push_back(nest.imperfectDims);  // which loops have residual categories
    key_.push_back(nest.spatialBegin[spec.level]);
    key_.push_back(boundary);
    // The loops above the children, whole (the step vectors follow from dim and stride).
    for (int p = 0; p < boundary; ++p) {
        const NestLoop& l = nest.loops[p];
        key_.push_back(l.dim | static_cast<std::int64_t>(l.kind) << 8 | static_cast<std::int64_t>(l.level) << 16);
        key_.push_back(l.bound);
        key_.push_back(l.residual);
        key_.push_back(l.stride);
    }
    // Of the loops below, what the analyses read: the children's extents in each dimension, in
    // and out of the residual context (they differ exactly when a remainder sits below).
    const int dims = spec.workload->numDims();
    thread_local std::vector<std::int64_t> full, last;
    full.resize(static_cast<std::size_t>(dims));
    last.resize(static_cast<std::size_t>(dims));
    nest.innerExtents(boundary, dims, full.data(), last.data());
    for (std::size_t d = 0; d < full.size(); ++d) key_.insert(key_.end(), {full[d], last[d]});
}

void StageMemo::adoptWorkload(const Workload& w)
{
    printScratch_.assign(1, static_cast<std::int64_t>(w.bounds.size()));  // counts first: unambiguous
    printScratch_.insert(printScratch_.end(), w.bounds.begin(), w.bounds.end());
    for (const Tensor& t : w.tensors) {
        printScratch_.push_back(static_cast<std::int64_t>(t.ranks.size()) << 1 | std::int64_t{t.readWrite});
        for (const RankExpression& rank : t.ranks) {
            printScratch_.push_back(static_cast<std::int64_t>(rank.size()));
            for (const ProjectionTerm& term : rank) {
                printScratch_.push_back(term.dim);
                printScratch_.push_back(term.coef);
            }
        }
    }
    if (workload_ == &w && printScratch_ == workloadPrint_) return;
    for (Entry& e : slots_) e.key.clear();
    for (PerfectSlot& s : perfect_) {
        for (Entry& e : s.ways) e.key.clear();
        s.used.fill(0);
    }
    workload_ = &w;
    workloadPrint_.swap(printScratch_);
}

bool StageMemo::find(const StageSpec& spec, StageResult& out)
{
    buildKey(spec);
    Entry& slot = slots_[hashOf(key_) % kSlots];
    if (slot.key.empty() || slot.key != key_) {
        ++misses_;
        pending_ = &slot;
        return false;
    }
    ++hits_;
    pending_ = nullptr;
    if (slot.work > 0 && spec.walkWork) chargeWalkWork(*spec.walkWork, slot.work, spec.options->exactWorkBudget);
    copyResult(slot.result, out);
    return true;
}

namespace {

std::int64_t perfectFlags(const StageSpec& spec)
{
    const ModelOptions& o = *spec.options;
    return static_cast<std::int64_t>(spec.macStage) | std::int64_t{spec.needDistinct} << 1 |
           std::int64_t{spec.ratioOnly} << 2 | std::int64_t{spec.linkStage} << 3 |
           std::int64_t{o.legacyZeroTranslationRule} << 4 | std::int64_t{o.linkTransfers} << 5;
}

std::int64_t packedLoop(const NestLoop& l)
{
    return l.dim | static_cast<std::int64_t>(l.kind) << 8 | static_cast<std::int64_t>(l.level) << 16;
}

std::uint64_t mix(std::uint64_t h, std::int64_t v)
{
    h = (h ^ static_cast<std::uint64_t>(v)) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

} // namespace

// Per dimension the extent of the loops below the stage's children: without remainders, the
// product of their bounds. From adoptNest() when it printed this nest.
const std::int64_t* StageMemo::extentsBelow(const StageSpec& spec, std::array<std::int64_t, 32>& scratch) const
{
    const NestLayout& nest = *spec.nest;
    const int dims = spec.workload->numDims();
    if (&nest == printedNest_ && (static_cast<std::size_t>(spec.level) + 1) * static_cast<std::size_t>(dims) <= belowExtent_.size())
        return belowExtent_.data() + static_cast<std::size_t>(spec.level) * static_cast<std::size_t>(dims);
    std::fill_n(scratch.begin(), dims, 1);
    for (auto p = static_cast<std::size_t>(nest.levelBegin[static_cast<std::size_t>(spec.level) + 1]); p < nest.loops.size(); ++p)
        scratch[static_cast<std::size_t>(nest.loops[p].dim)] *= nest.loops[p].bound;
    return scratch.data();
}

// buildKey for a nest without remainders: residuals equal bounds, so the loops above are their
// dimension, kind, level and bound; the strides follow from those and the extents below.
void StageMemo::buildPerfectKey(const StageSpec& spec, std::vector<std::int64_t>& key) const
{
    const NestLayout& nest = *spec.nest;
    const int boundary = nest.levelBegin[static_cast<std::size_t>(spec.level) + 1];
    const int dims = spec.workload->numDims();
    key.resize(static_cast<std::size_t>(2 + 2 * boundary + dims));
    std::int64_t* k = key.data();
    *k++ = perfectFlags(spec);
    *k++ = boundary;
    if (&nest == printedNest_ && nestKey_.size() >= static_cast<std::size_t>(2 * boundary)) {
        k = std::copy_n(nestKey_.begin(), 2 * boundary, k);  // as adoptNest() laid the loops out
    } else {
        for (int p = 0; p < boundary; ++p) {
            *k++ = packedLoop(nest.loops[static_cast<std::size_t>(p)]);
            *k++ = nest.loops[static_cast<std::size_t>(p)].bound;
        }
    }
    std::array<std::int64_t, 32> scratch;
    std::copy_n(extentsBelow(spec, scratch), dims, k);
}

// Whether `key` is the stage's buildPerfectKey(), read off the nest without building it.
bool StageMemo::perfectKeyMatches(const std::vector<std::int64_t>& key, const StageSpec& spec) const
{
    const NestLayout& nest = *spec.nest;
    const int boundary = nest.levelBegin[static_cast<std::size_t>(spec.level) + 1];
    const int dims = spec.workload->numDims();
    if (key.size() != static_cast<std::size_t>(2 + 2 * boundary + dims)) return false;
    const std::int64_t* k = key.data();
    if (*k++ != perfectFlags(spec) || *k++ != boundary) return false;
    if (&nest == printedNest_ && nestKey_.size() >= static_cast<std::size_t>(2 * boundary)) {
        // The loops as adoptNest() laid them out: one block comparison.
        if (!std::equal(k, k + 2 * boundary, nestKey_.data())) return false;
        k += 2 * boundary;
    } else {
        for (int p = 0; p < boundary; ++p) {
            if (*k++ != packedLoop(nest.loops[static_cast<std::size_t>(p)])) return false;
            if (*k++ != nest.loops[static_cast<std::size_t>(p)].bound) return false;
        }
    }
    std::array<std::int64_t, 32> scratch;
    return std::equal(k, k + dims, extentsBelow(spec, scratch));
}

void StageMemo::adoptNest(const NestLayout& nest, int dims)
{
    if (!perfectUseful_) return;  // the few sampled lookups do without prints
    printedNest_ = &nest;
    const std::size_t n = nest.loops.size();
    prefixPrint_.resize(n + 1);
    nestKey_.resize(2 * n);
    prefixPrint_[0] = 0x5bd1e995u;
    for (std::size_t p = 0; p < n; ++p) {
        nestKey_[2 * p] = packedLoop(nest.loops[p]);
        nestKey_[2 * p + 1] = nest.loops[p].bound;
        prefixPrint_[p + 1] = mix(mix(prefixPrint_[p], nestKey_[2 * p]), nestKey_[2 * p + 1]);
    }
    // The extents below each level's children, innermost level first.
    const auto levels = static_cast<std::size_t>(nest.numLevels);
    const auto D = static_cast<std::size_t>(dims);
    belowPrint_.resize(levels);
    belowExtent_.resize(levels * D);
    std::array<std::int64_t, 32> extent;
    std::fill_n(extent.begin(), D, 1);
    std::size_t p = n;
    for (std::size_t i = levels; i-- > 0;) {
        for (const auto b = static_cast<std::size_t>(nest.levelBegin[i + 1]); p > b;) {
            --p;
            extent[static_cast<std::size_t>(nest.loops[p].dim)] *= nest.loops[p].bound;
        }
        std::uint64_t h = 0xc2b2ae35u;
        for (std::size_t d = 0; d < D; ++d) h = mix(h, extent[d]);
        belowPrint_[i] = h;
        std::copy_n(extent.begin(), D, belowExtent_.begin() + static_cast<std::ptrdiff_t>(i * D));
    }
}

std::uint64_t StageMemo::perfectPrint(const StageSpec& spec) const
{
    const NestLayout& nest = *spec.nest;
    const auto boundary = static_cast<std::size_t>(nest.levelBegin[static_cast<std::size_t>(spec.level) + 1]);
    if (&nest != printedNest_ || boundary >= prefixPrint_.size() || static_cast<std::size_t>(spec.level) >= belowPrint_.size())
        return 0;  // not printed (a stage analysed outside evaluate()): only the key decides
    return mix(mix(prefixPrint_[boundary], static_cast<std::int64_t>(belowPrint_[static_cast<std::size_t>(spec.level)])),
               perfectFlags(spec));
}

// The key holds neither the level nor the tensor: a slot per (level, tensor) keeps them apart.
StageMemo::PerfectSlot& StageMemo::perfectSlot(const StageSpec& spec)
{
    const auto slot = static_cast<std::size_t>(spec.level * spec.workload->numTensors() + spec.tensor);
    if (perfect_.size() <= slot) perfect_.resize(slot + 1);
    return perfect_[slot];
}

bool StageMemo::findPerfect(const StageSpec& spec, StageResult& out)
{
    perfectActive_ = perfectUseful_ || ++perfectTick_ % kPerfectSampling == 0;
    if (!perfectActive_) return false;
    if (++perfectLookups_ == kPerfectWindow) {  // judged on the window that ends here
        perfectUseful_ = perfectHits_ * kPerfectSampling >= perfectLookups_;
        perfectLookups_ = perfectHits_ = 0;
    }
    PerfectSlot& s = perfectSlot(spec);
    const std::uint64_t print = perfectPrint(spec);
    for (std::size_t i = 0; i < kPerfectWays; ++i) {
        if (print != 0 && s.prints[i] != print) continue;
        Entry& e = s.ways[i];
        if (e.key.empty() || !perfectKeyMatches(e.key, spec)) continue;
        s.used[i] = ++s.clock;
        ++perfectHits_;
        copyResult(e.result, out);
        return true;
    }
    return false;
}

void StageMemo::rememberPerfect(const StageSpec& spec, const StageResult& result)
{
    if (!perfectActive_) return;  // not looked up (sampling): not remembered either
    PerfectSlot& s = perfectSlot(spec);
    const auto way = static_cast<std::size_t>(std::min_element(s.used.begin(), s.used.end()) - s.used.begin());
    Entry& e = s.ways[way];
    s.used[way] = ++s.clock;
    s.prints[way] = perfectPrint(spec);
    buildPerfectKey(spec, e.key);
    copyResult(result, e.result);
}

void StageMemo::remember(const StageResult& result, std::uint64_t work)
{
    if (!pending_) return;
    pending_->key = key_;
    pending_->work = work;
    copyResult(result, pending_->result);
    pending_ = nullptr;
}

} // namespace nestor::model
