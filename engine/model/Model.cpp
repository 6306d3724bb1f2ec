#include "model/Model.h"

#include "model/EnergyAndTiming.h"
#include "model/NestLayout.h"
#include "model/PassThroughStage.h"
#include "model/StageAnalysis.h"
#include "model/StageMemo.h"
#include "model/ExactBudget.h"
#include "model/TileGeometry.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace nestor {
namespace {

using model::StageResult;

Diagnostics structuralChecks(const Workload& w, const Architecture& a, const Mapping& m, bool inputsValidated)
{
    if (inputsValidated) return m.validate(w, a);
    Diagnostics d = w.validate();
    for (auto& x : a.validate()) d.push_back(x);
    if (!d.empty()) return d;
    for (auto& x : m.validate(w, a)) d.push_back(x);
    if (w.numDims() > 32) d.push_back({"workload.dimensions", "at most 32 dimensions are supported", {}});
    if (a.numLevels() > 64) d.push_back({"architecture.levels", "at most 64 storage levels are supported", {}});
    for (const auto& t : w.tensors)
        if (t.ranks.size() > static_cast<std::size_t>(model::kMaxRanks))
            d.push_back({"workload.tensors." + t.name, "at most 8 ranks per tensor are supported", {}});
    if (!a.levels.empty() && a.levels[0].instances != 1)
        d.push_back({"architecture.levels[0].instances", "the outermost level must have exactly one instance", {}});
    return d;
}

// Stage results of (level, tensor), computed on demand.
class Stages {
public:
    Stages(const Workload& w, const Architecture& a, const Mapping& m, const model::NestLayout& n, const ModelOptions& o)
        : w_(w), a_(a), m_(m), n_(n), o_(o), cache_(pool()), done_(scratch().done), steps_(scratch().steps),
          stepsReady_(scratch().stepsReady)
    {
        done_.assign(static_cast<std::size_t>(a.numLevels() * w.numTensors()), 0);
        if (cache_.size() < done_.size()) cache_.resize(done_.size());
        if (steps_.size() < static_cast<std::size_t>(w.numTensors())) steps_.resize(static_cast<std::size_t>(w.numTensors()));
        stepsReady_.assign(static_cast<std::size_t>(w.numTensors()), 0);
    }
    // ratioOnly: the caller needs only the multicast ratio of this stage.
    const StageResult& get(int level, int tensor, bool ratioOnly = false)
    {
        const std::size_t key = static_cast<std::size_t>(level * w_.numTensors() + tensor);
        if (done_[key] == 2 || (ratioOnly && done_[key] == 1)) return cache_[key];
        // Stages that follow from the stage above (PassThroughStage.h); that one first: cache_
        // keeps its size, so the reference stays valid. A derived ratio-only result is incomplete.
        const bool passThrough = model::isPassThroughStage(n_, level);
        if (passThrough || (ratioOnly && model::isSingleChildStage(n_, level))) {
            const StageResult& above = get(level - 1, tensor, ratioOnly);
            if (passThrough) model::passThroughStage(above, cache_[key]);
            else model::singleChildRatioStage(above, cache_[key]);
            if (model::StageStatistics* stats = model::stageStatistics()) stats->fromStageAbove.fetch_add(1, std::memory_order_relaxed);
            done_[key] = cache_[key].complete ? 2 : 1;
            return cache_[key];
        }
        // The step vectors are projected only for a stage the search's memo does not recall.
        model::StageSpec s = model::stageSpecFor(w_, m_, n_, steps_[tensor], o_, level, tensor, ratioOnly);
        s.walkWork = &walkWork_;
        try {
            if (!model::recallStage(s, cache_[key])) {
                if (!stepsReady_[tensor]) {
                    model::projectSteps(w_, n_, tensor, steps_[tensor]);
                    stepsReady_[tensor] = 1;
                }
                model::analyzeNewStage(s, cache_[key]);
            }
        } catch (const model::ExactBudgetExceeded& e) {
            throw model::ExactBudgetExceeded(std::string(e.what()) + " for " + w_.tensors[tensor].name + " from " +
                                             a_.levels[level].name + " to the level below");
        }
        if (ratioOnly && w_.tensors[tensor].readWrite) cache_[key].complete = false;  // partitions missing
        // A ratio-only result is marked incomplete; a later full request computes it again.
        done_[key] = cache_[key].complete ? 2 : 1;
        return cache_[key];
    }

private:
    const Workload& w_;
    const Architecture& a_;
    const Mapping& m_;
    const model::NestLayout& n_;
    const ModelOptions& o_;
    // Stage results live in a per-thread pool so that their vectors keep their storage
    // from one evaluation to the next (a search evaluates millions of mappings).
    static std::vector<StageResult>& pool()
    {
        thread_local std::vector<StageResult> p;
        return p;
    }
    // The bookkeeping too: one evaluation runs at a time per thread, and allocating it afresh
    // for every candidate showed in the search's profile.
    struct Scratch {
        std::vector<std::uint8_t> done;
        std::vector<std::vector<model::Vec>> steps;
        std::vector<std::uint8_t> stepsReady;
    };
    static Scratch& scratch()
    {
        thread_local Scratch s;
        return s;
    }
    std::vector<StageResult>& cache_;
    std::vector<std::uint8_t>& done_;
    std::vector<std::vector<model::Vec>>& steps_;
    std::vector<std::uint8_t>& stepsReady_;
    std::uint64_t walkWork_ = 0;  // shared by the stages' walks: the work budget is per evaluation
};

using model::CountHistogram;
using model::TensorCounts;

// Per-instance values of one action, by instance signature (empty signature = spread evenly).
struct SigValue {
    model::Signature signature;
    std::int64_t count = 0;
    std::int64_t value = 0;
};

// Accesses of each instance of K for the traffic that reaches C through bypassing levels:
// the stage right above C, then, level by level up to K, each instance sums what its
// children requested and divides by its own multicast ratio (Timeloop's masking, made exact).
// Into `out` (per-thread scratch of the caller).
void accessesThroughBypass(Stages& stages, int K, int C, int t, std::vector<SigValue>& out)
{
    // Few distinct signatures per level: plain vectors beat maps here; per-thread, as every
    // candidate of a search comes through here.
    using Values = std::vector<std::pair<model::Signature, double>>;
    auto find = [](const Values& v, const model::Signature& s) -> const double* {
        for (const auto& [sig, x] : v)
            if (sig == s) return &x;
        return nullptr;
    };
    thread_local Values value, next;
    value.clear();
    for (const auto& inst : stages.get(C - 1, t).instances) value.push_back({inst.signature, static_cast<double>(inst.accesses)});
    for (int j = C - 2; j >= K; --j) {
        const StageResult& sj = stages.get(j, t, true);
        next.clear();
        for (const auto& inst : sj.instances) {
            double sum = 0;
            for (const auto& c : sj.children) {
                if (!inst.signature.isPrefixOf(c.signature)) continue;
                if (const double* x = find(value, c.signature)) sum += static_cast<double>(c.perParent) * *x;
            }
            next.push_back({inst.signature, sum / inst.multicastRatio()});
        }
        value.swap(next);
    }
    out.clear();
    for (const auto& inst : stages.get(K, t, true).instances)
        if (const double* x = find(value, inst.signature)) out.push_back({inst.signature, inst.count, std::llround(*x)});
}

void fillTensorCounts(const Workload& w, const Architecture& a, const ModelOptions& opt,
                      Stages& stages, int t, Evaluation& ev, std::vector<std::vector<TensorCounts>>& counts)
{
    const int L = a.numLevels();
    const bool rw = w.tensors[t].readWrite;
    thread_local std::vector<int> keepers;  // per-thread scratch, as below
    keepers.clear();
    for (int i = 0; i < L; ++i)
        if (ev.levels[i].tensors[t].kept) keepers.push_back(i);  // fillCapacities copied m.keeps(i, t)
    if (keepers.empty()) return;

    // Capacity, instances and partitions of each keeping level, from the stage above it.
    for (int k : keepers) {
        auto& ts = ev.levels[k].tensors[t];
        ts.kept = true;
        if (k == 0) {
            ts.partition_size = rw ? ts.utilized_capacity : 0;
            ts.utilized_instances = 1;
            ev.levels[k].average_busy_instances = 1.0;
            continue;
        }
        // Busy (instance, step) pairs over the steps of level k; the all-zero instance is busy
        // at every step, so the busiest child's steps are all of them.
        std::int64_t busy = 0, steps = 0;
        for (const auto& c : stages.get(k - 1, t).children) {
            ts.partition_size = std::max(ts.partition_size, c.distinctWords);
            ts.utilized_instances += c.count;
            busy += c.count * c.activeSteps;
            steps = std::max(steps, c.activeSteps);
        }
        if (steps > 0)
            ev.levels[k].average_busy_instances = static_cast<double>(busy) / static_cast<double>(steps);
    }
    // Words an instance of level k ever holds, by instance signature.
    auto partitionOf = [&](int k, const model::Signature& sig) -> std::int64_t {
        if (k == 0) return w.tensorSize(t);
        for (const auto& c : stages.get(k - 1, t).children)
            if (c.signature == sig) return c.distinctWords;
        return 0;
    };

    thread_local std::vector<std::vector<SigValue>> reads;
    thread_local std::vector<const StageResult*> peerStage;
    reads.resize(static_cast<std::size_t>(L));
    for (auto& r : reads) r.clear();
    peerStage.assign(static_cast<std::size_t>(L), nullptr);
    for (std::size_t ai = 0; ai < keepers.size(); ++ai) {
        const int K = keepers[ai];
        const int C = ai + 1 < keepers.size() ? keepers[ai + 1] : L;  // L = the MACs
        auto& kc = counts[K][t];
        const StageResult& direct = stages.get(C - 1, t);
        thread_local std::vector<SigValue> accesses;
        if (C - 1 == K) {
            accesses.clear();
            for (const auto& inst : direct.instances) accesses.push_back({inst.signature, inst.count, inst.accesses});
        } else {
            accessesThroughBypass(stages, K, C, t, accesses);
        }
        for (const auto& a_ : accesses) {
            if (rw) {
                kc.updates.add(a_.count, a_.value);
                const std::int64_t elided = opt.firstReadElision ? partitionOf(K, a_.signature) : 0;
                reads[K].push_back({a_.signature, a_.count, a_.value - elided});
            } else {
                reads[K].push_back(a_);
            }
        }
        ev.levels[K].tensors[t].multicast_factor = stages.get(K, t, true).multicastRatio();
        ev.levels[C - 1].tensors[t].link_transfers = direct.linkTransfers;
        if (C < L) {
            for (const auto& c : direct.children) counts[C][t].fills.add(c.count, c.received - (rw ? c.distinctWords : 0));
            if (!direct.peers.empty()) peerStage[C] = &direct;
        }
    }
    // Children that forwarded words over links read them from their own copy: add each one's
    // forwarded words to the reads of the instance with the same signature.
    for (int k : keepers) {
        auto& hist = counts[k][t].reads;
        if (!peerStage[k]) {
            for (const auto& r : reads[k]) hist.add(r.count, r.value);
            continue;
        }
        for (const auto& r : reads[k]) {
            std::int64_t covered = 0;
            for (const auto& p : peerStage[k]->peers) {
                if (p.signature != r.signature) continue;
                hist.add(p.count, r.value + p.sent);
                covered += p.count;
            }
            hist.add(r.count - covered, r.value);
        }
    }
    counts[keepers.front()][t].fills.entries.clear();  // the backing store is never filled
    for (int k : keepers) {
        auto& ts = ev.levels[k].tensors[t];
        const auto& c = counts[k][t];
        ts.reads = c.reads.total();
        ts.fills = c.fills.total();
        ts.updates = c.updates.total();
        ts.reads_min = c.reads.min();
        ts.reads_max = c.reads.max();
        ts.fills_min = c.fills.min();
        ts.fills_max = c.fills.max();
        ts.updates_min = c.updates.min();
        ts.updates_max = c.updates.max();
    }
}

// Largest tile of each kept tensor at each level: the box of the loops at and below the level.
// A dimension spans its full extent there unless every loop of it above is pinned to its last
// (residual) iteration, i.e. none of them runs more than one residual trip.
void fillCapacities(const Workload& w, const Architecture& a, const Mapping& m, const model::NestLayout& nest,
                    Evaluation& ev)
{
    const int L = a.numLevels();
    const int D = w.numDims();
    // Per level: may a dimension leave its residual context above the level's loops?
    // Rows and entries are written before they are read (only [0, L) x [0, D) are): zeroing
    // the whole tables showed in the search's profile.
    std::array<std::array<bool, 32>, 64> reachable;  // structuralChecks caps levels at 64
    std::array<bool, 32> seen{};
    for (int i = 0; i < L; ++i) {
        reachable[i] = seen;
        for (int q = nest.levelBegin[i]; q < nest.levelBegin[i + 1]; ++q)
            if (nest.loops[q].residual > 1) seen[nest.loops[q].dim] = true;
    }
    // Extents of the loops at and below each level, full and residual, innermost level first.
    std::array<std::int64_t, 32> full, residual, ext;
    for (int d = 0; d < D; ++d) full[d] = residual[d] = 1;
    for (int i = L - 1; i >= 0; --i) {
        for (int q = nest.levelBegin[i + 1] - 1; q >= nest.levelBegin[i]; --q) {
            const auto& l = nest.loops[q];
            full[l.dim] += (l.bound - 1) * l.stride;
            residual[l.dim] += (l.residual - 1) * l.stride;
        }
        for (int d = 0; d < D; ++d) ext[d] = reachable[i][d] ? full[d] : residual[d];
        auto& ls = ev.levels[i];
        ls.capacity_used_words = 0;
        for (int t = 0; t < w.numTensors(); ++t) {
            if (!m.keeps(i, t)) continue;
            std::int64_t words = 1;
            for (const auto& rank : w.tensors[t].ranks) words *= rankExtent(rank, ext.data());
            ls.tensors[t].kept = true;
            ls.tensors[t].utilized_capacity = words;
            ls.capacity_used_words += words;
        }
    }
}

void checkCapacity(const Workload& w, const Architecture& a, bool brief, Evaluation& ev)
{
    for (int i = 0; i < a.numLevels(); ++i) {
        const auto& ls = ev.levels[i];
        const auto eff = a.levels[i].effectiveSizeWords();
        if (!eff || ls.capacity_used_words <= *eff) continue;
        if (brief) {
            ev.errors.push_back({"mapping", "capacity exceeded", {}});
            return;
        }
        std::string parts;
        for (int t = 0; t < w.numTensors(); ++t) {
            if (!ls.tensors[t].kept) continue;
            if (!parts.empty()) parts += " + ";
            parts += w.tensors[t].name + " " + std::to_string(ls.tensors[t].utilized_capacity);
        }
        ev.errors.push_back({"mapping.levels[" + a.levels[i].name + "]",
                             "capacity exceeded: tiles need " + std::to_string(ls.capacity_used_words) + " words (" +
                                 parts + ") but " + a.levels[i].name + " holds " + std::to_string(*eff),
                             {}});
    }
}

// Every figure back to its initial value; the vectors and strings keep their storage.
void resetEvaluation(const Workload& w, const Architecture& a, Evaluation& ev)
{
    auto levels = std::move(ev.levels);
    auto names = std::move(ev.tensorNames);
    auto errors = std::move(ev.errors);
    errors.clear();
    ev = Evaluation{};
    ev.errors = std::move(errors);
    names.resize(w.tensors.size());
    for (std::size_t t = 0; t < w.tensors.size(); ++t) names[t] = w.tensors[t].name;
    ev.tensorNames = std::move(names);
    levels.resize(a.levels.size());
    for (std::size_t i = 0; i < a.levels.size(); ++i) {
        auto tensors = std::move(levels[i].tensors);
        tensors.assign(w.tensors.size(), TensorLevelStats{});
        auto name = std::move(levels[i].name);
        name = a.levels[i].name;
        levels[i] = LevelStats{};
        levels[i].name = std::move(name);
        levels[i].tensors = std::move(tensors);
    }
    ev.levels = std::move(levels);
}

// Access counts of every (level, tensor), then cycles and energy. Throws
// model::ExactBudgetExceeded when a stage's exact analysis exceeds the options' budgets.
void countAccessesAndTime(const Workload& w, const Architecture& a, const Mapping& m, const model::NestLayout& nest,
                          const ModelOptions& opt, Evaluation& ev)
{
    Stages stages(w, a, m, nest, opt);
    // Per-thread scratch, cleared but not freed between evaluations.
    thread_local std::vector<std::vector<TensorCounts>> counts;
    counts.resize(a.levels.size());
    for (auto& level : counts) {
        level.resize(w.tensors.size());
        for (auto& c : level) {
            c.reads.entries.clear();
            c.fills.entries.clear();
            c.updates.entries.clear();
        }
    }
    for (int t = 0; t < w.numTensors(); ++t) fillTensorCounts(w, a, opt, stages, t, ev, counts);

    const StageResult& macStage = stages.get(a.numLevels() - 1, 0);
    ev.macs = macStage.macs;
    for (const auto& c : macStage.children) {
        ev.compute_cycles = std::max(ev.compute_cycles, c.activeSteps);
        ev.utilized_macs += c.count;
    }
    for (auto& ls : ev.levels)
        for (const auto& ts : ls.tensors) ls.utilized_instances = std::max(ls.utilized_instances, ts.utilized_instances);
    model::applyEnergyAndTiming(a, m, counts, ev);
}

} // namespace

Evaluation evaluate(const Workload& w, const Architecture& a, const Mapping& m, const ModelOptions& opt)
{
    Evaluation ev;
    evaluate(w, a, m, opt, ev);
    return ev;
}

void evaluate(const Workload& w, const Architecture& a, const Mapping& m, const ModelOptions& opt, Evaluation& ev)
{
    resetEvaluation(w, a, ev);
    ev.macs = w.macs();
    ev.errors = structuralChecks(w, a, m, opt.inputsValidated);
    ev.area_um2 = a.area_um2();
    if (!ev.errors.empty()) return;

    if (opt.stageMemo) opt.stageMemo->adoptWorkload(w);  // once per evaluation, not per stage
    thread_local model::NestLayout nestScratch;  // storage kept from one evaluation to the next
    model::buildNestLayout(w, m, nestScratch);
    const model::NestLayout& nest = nestScratch;
    // Capacity first: a mapping whose tiles do not fit needs no counting (most of a search).
    fillCapacities(w, a, m, nest, ev);
    checkCapacity(w, a, opt.briefErrors, ev);
    if (!ev.errors.empty()) return;
    // The memo's prints of this nest serve this evaluation only: forgotten on the way out.
    struct NestPrints {
        model::StageMemo* memo;
        ~NestPrints()
        {
            if (memo) memo->forgetNest();
        }
    } prints{opt.stageMemo};
    if (prints.memo) prints.memo->adoptNest(nest, w.numDims());
    try {
        countAccessesAndTime(w, a, m, nest, opt, ev);
    } catch (const model::ExactBudgetExceeded& e) {
        // Figures half-filled by the interrupted analysis would lie: start from a clean evaluation.
        resetEvaluation(w, a, ev);
        ev.macs = w.macs();
        ev.area_um2 = a.area_um2();
        fillCapacities(w, a, m, nest, ev);
        ev.exactBudgetExceeded = true;
        ev.errors.push_back({"mapping", e.what(), {}});
    }
    ev.valid = ev.errors.empty();
}

} // namespace nestor
