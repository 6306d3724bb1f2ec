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

// A loop's dimension, kind and level in one key value.
std::int64_t packedLoop(const NestLoop& l)
{
    return l.dim | static_cast<std::int64_t>(l.kind) << 8 | static_cast<std::int64_t>(l.level) << 16;
}

std::uint64_t mixPrint(std::uint64_t h, std::int64_t v)
{
    h = (h ^ static_cast<std::uint64_t>(v)) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
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

void StageMemo::keyHeader(const StageSpec& spec, std::array<std::int64_t, 7>& header) const
{
    const NestLayout& nest = *spec.nest;
    const ModelOptions& o = *spec.options;
    header = {spec.tensor,
              spec.level,
              static_cast<std::int64_t>(spec.macStage) | std::int64_t{spec.needDistinct} << 1 | std::int64_t{spec.ratioOnly} << 2 |
                  std::int64_t{spec.linkStage} << 3 | std::int64_t{o.legacyZeroTranslationRule} << 4 |
                  std::int64_t{o.linkTransfers} << 5 | std::int64_t{o.firstReadElision} << 6,
              static_cast<std::int64_t>(o.exactMemoryBudgetMB),  // the walker's memo bound decides success
              nest.imperfectDims,                                // which loops have residual categories
              nest.spatialBegin[spec.level],
              nest.levelBegin[spec.level + 1]};
}

void StageMemo::buildKey(const StageSpec& spec)
{
    const NestLayout& nest = *spec.nest;
    const int boundary = nest.levelBegin[spec.level + 1];
    std::array<std::int64_t, 7> header;
    keyHeader(spec, header);
    key_.assign(header.begin(), header.end());
    // The loops above the children, whole (the step vectors follow from dim and stride).
    for (int p = 0; p < boundary; ++p) {
        const NestLoop& l = nest.loops[p];
        key_.push_back(packedLoop(l));
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
    pending_ = nullptr;
    if (!sampling_.admit()) return false;  // (not remembered either)
    // A printed nest: the print picks the slot and rules out most others at once; the key is
    // compared in place, and built only to be stored after a miss.
    const bool byPrint = printed(spec);
    const std::uint64_t print = byPrint ? stagePrint(spec) : 0;
    if (!byPrint) buildKey(spec);
    Entry& slot = slots_[(byPrint ? print : hashOf(key_)) % kSlots];
    const bool hit = !slot.key.empty() && slot.print == print && (byPrint ? keyMatches(slot.key, spec) : slot.key == key_);
    if (!hit) {
        ++misses_;
        if (byPrint) buildKey(spec);
        pending_ = &slot;
        pendingPrint_ = print;
        return false;
    }
    ++hits_;
    sampling_.hit();
    if (slot.work > 0 && spec.walkWork) chargeWalkWork(*spec.walkWork, slot.work, spec.options->exactWorkBudget);
    copyResult(slot.result, out);
    return true;
}

bool StageMemo::printed(const StageSpec& spec) const
{
    return printedImperfect_ && spec.nest == printedNest_ &&
           static_cast<std::size_t>(spec.level) < extentsPrint_.size();
}

std::uint64_t StageMemo::stagePrint(const StageSpec& spec) const
{
    const auto boundary = static_cast<std::size_t>(spec.nest->levelBegin[static_cast<std::size_t>(spec.level) + 1]);
    std::array<std::int64_t, 7> header;
    keyHeader(spec, header);
    std::uint64_t h = mixPrint(loopsPrint_[boundary], static_cast<std::int64_t>(extentsPrint_[static_cast<std::size_t>(spec.level)]));
    for (std::int64_t v : header) h = mixPrint(h, v);
    return h | 1;  // never 0, the print of entries stored without one
}

// Whether `key` is the stage's buildKey(), compared with the printed nest in place.
bool StageMemo::keyMatches(const std::vector<std::int64_t>& key, const StageSpec& spec) const
{
    const int boundary = spec.nest->levelBegin[static_cast<std::size_t>(spec.level) + 1];
    const auto dims = static_cast<std::size_t>(spec.workload->numDims());
    const std::size_t loopValues = 4 * static_cast<std::size_t>(boundary);
    if (key.size() != 7 + loopValues + 2 * dims) return false;
    std::array<std::int64_t, 7> header;
    keyHeader(spec, header);
    const std::int64_t* k = key.data();
    return std::equal(header.begin(), header.end(), k) && std::equal(k + 7, k + 7 + loopValues, loopsKey_.data()) &&
           std::equal(k + 7 + loopValues, k + key.size(), extentsKey_.data() + static_cast<std::size_t>(spec.level) * 2 * dims);
}

// adoptNest for a nest with remainders: buildKey's loop and extent values, and their prints.
void StageMemo::adoptImperfectNest(const NestLayout& nest, int dims)
{
    // (beyond the frame's tables, or while the memo is sampled: such stages go without prints)
    if (dims > 32 || !sampling_.useful()) return;
    const std::size_t n = nest.loops.size();
    loopsKey_.resize(4 * n);
    loopsPrint_.resize(n + 1);
    loopsPrint_[0] = 0x27d4eb2fu;
    for (std::size_t p = 0; p < n; ++p) {
        const NestLoop& l = nest.loops[p];
        std::int64_t* k = loopsKey_.data() + 4 * p;
        k[0] = packedLoop(l);
        k[1] = l.bound;
        k[2] = l.residual;
        k[3] = l.stride;
        loopsPrint_[p + 1] = mixPrint(mixPrint(mixPrint(mixPrint(loopsPrint_[p], k[0]), k[1]), k[2]), k[3]);
    }
    const auto levels = static_cast<std::size_t>(nest.numLevels);
    const auto D = static_cast<std::size_t>(dims);
    extentsKey_.resize(levels * 2 * D);
    extentsPrint_.resize(levels);
    std::array<std::int64_t, 32> full, last;
    for (std::size_t i = 0; i < levels; ++i) {
        nest.innerExtents(nest.levelBegin[i + 1], dims, full.data(), last.data());
        std::int64_t* e = extentsKey_.data() + i * 2 * D;
        std::uint64_t h = 0x165667b1u;
        for (std::size_t d = 0; d < D; ++d) {
            e[2 * d] = full[d];
            e[2 * d + 1] = last[d];
            h = mixPrint(mixPrint(h, full[d]), last[d]);
        }
        extentsPrint_[i] = h;
    }
    printedNest_ = &nest;
    printedImperfect_ = true;
}

namespace {

std::int64_t perfectFlags(const StageSpec& spec)
{
    const ModelOptions& o = *spec.options;
    return static_cast<std::int64_t>(spec.macStage) | std::int64_t{spec.needDistinct} << 1 |
           std::int64_t{spec.ratioOnly} << 2 | std::int64_t{spec.linkStage} << 3 |
           std::int64_t{o.legacyZeroTranslationRule} << 4 | std::int64_t{o.linkTransfers} << 5;
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
    printedImperfect_ = false;
    if (nest.imperfectDims != 0) {
        adoptImperfectNest(nest, dims);
        return;
    }
    if (!perfectSampling_.useful()) return;  // the few sampled lookups do without prints
    printedNest_ = &nest;
    const std::size_t n = nest.loops.size();
    prefixPrint_.resize(n + 1);
    nestKey_.resize(2 * n);
    prefixPrint_[0] = 0x5bd1e995u;
    for (std::size_t p = 0; p < n; ++p) {
        nestKey_[2 * p] = packedLoop(nest.loops[p]);
        nestKey_[2 * p + 1] = nest.loops[p].bound;
        prefixPrint_[p + 1] = mixPrint(mixPrint(prefixPrint_[p], nestKey_[2 * p]), nestKey_[2 * p + 1]);
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
        for (std::size_t d = 0; d < D; ++d) h = mixPrint(h, extent[d]);
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
    return mixPrint(mixPrint(prefixPrint_[boundary], static_cast<std::int64_t>(belowPrint_[static_cast<std::size_t>(spec.level)])),
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
    if (!perfectSampling_.admit()) return false;
    PerfectSlot& s = perfectSlot(spec);
    const std::uint64_t print = perfectPrint(spec);
    for (std::size_t i = 0; i < kPerfectWays; ++i) {
        if (print != 0 && s.prints[i] != print) continue;
        Entry& e = s.ways[i];
        if (e.key.empty() || !perfectKeyMatches(e.key, spec)) continue;
        s.used[i] = ++s.clock;
        perfectSampling_.hit();
        copyResult(e.result, out);
        return true;
    }
    return false;
}

void StageMemo::rememberPerfect(const StageSpec& spec, const StageResult& result)
{
    if (!perfectSampling_.active()) return;  // not looked up (sampling): not remembered either
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
    pending_->print = pendingPrint_;
    pending_->work = work;
    copyResult(result, pending_->result);
    pending_ = nullptr;
}

} // namespace nestor::model
