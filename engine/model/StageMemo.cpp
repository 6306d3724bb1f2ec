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
    for (int d = 0; d < spec.workload->numDims(); ++d) {
        key_.push_back(nest.innerExtent(boundary, d, false));
        key_.push_back(nest.innerExtent(boundary, d, true));
    }
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

void StageMemo::remember(const StageResult& result, std::uint64_t work)
{
    if (!pending_) return;
    pending_->key = key_;
    pending_->work = work;
    copyResult(result, pending_->result);
    pending_ = nullptr;
}

} // namespace nestor::model
