#include "model/StageAnalysis.h"

#include "model/ClosedStageForms.h"
#include "model/StageMemo.h"
#include "model/StageWalker.h"

#include <string>

namespace nestor::model {

std::vector<Vec> projectSteps(const Workload& w, const NestLayout& nest, int tensor)
{
    std::vector<Vec> out;
    projectSteps(w, nest, tensor, out);
    return out;
}

void projectSteps(const Workload& w, const NestLayout& nest, int tensor, std::vector<Vec>& out)
{
    out.assign(nest.loops.size(), Vec{});
    const auto& ranks = w.tensors[tensor].ranks;
    for (std::size_t p = 0; p < nest.loops.size(); ++p)
        for (std::size_t r = 0; r < ranks.size(); ++r)
            for (const auto& term : ranks[r])
                if (term.dim == nest.loops[p].dim) out[p][r] += term.coef * nest.loops[p].stride;
}

StageSpec stageSpecFor(const Workload& w, const Mapping& m, const NestLayout& nest, const std::vector<Vec>& steps,
                       const ModelOptions& options, int level, int tensor, bool ratioOnly)
{
    StageSpec s;
    s.workload = &w;
    s.nest = &nest;
    s.tensor = tensor;
    s.level = level;
    s.macStage = level == nest.numLevels - 1;
    s.options = &options;
    s.stepVectors = &steps;
    s.needDistinct = w.tensors[tensor].readWrite && !ratioOnly;
    s.ratioOnly = ratioOnly;
    bool keptAbove = false;
    for (int q = 0; q <= level && !keptAbove; ++q) keptAbove = m.keeps(q, tensor);
    s.linkStage = keptAbove && (s.macStage || m.keeps(level + 1, tensor));
    return s;
}

void clearStageResult(StageResult& r)
{
    auto children = std::move(r.children);
    auto instances = std::move(r.instances);
    auto peers = std::move(r.peers);
    children.clear();
    instances.clear();
    peers.clear();
    r = StageResult{};
    r.children = std::move(children);
    r.instances = std::move(instances);
    r.peers = std::move(peers);
}

namespace {

// Closed form i on the stage: true when it took it (counted); else `why` gets its reason for
// declining, unless it merely does not apply.
bool tryForm(std::size_t i, const StageFrame& frame, StageResult& out, StageDecline& why)
{
    const ClosedStageForm& form = closedStageForms()[i];
    StageDecline d = form.accepts(frame);
    if (d == StageDecline::None) d = form.analyze(frame, out);
    if (d == StageDecline::None) {
        if (StageStatistics* stats = stageStatistics()) stats->byForm[i].fetch_add(1, std::memory_order_relaxed);
        return true;
    }
    if (d != StageDecline::NotApplicable) why = d;  // the most specific reason: a later form's
    return false;
}

// The closed forms from `first` on, else the walker (`why`: the reasons so far).
void analyzeFrom(std::size_t first, const StageSpec& spec, const StageFrame& frame, bool framed, StageDecline why,
                 StageResult& out)
{
    if (!framed) why = StageDecline::Capacity;  // the frame's tables are too small
    for (std::size_t i = first; framed && i < closedStageForms().size(); ++i)
        if (tryForm(i, frame, out, why)) return;
    if (StageStatistics* stats = stageStatistics()) stats->walkedBecause[static_cast<int>(why)].fetch_add(1, std::memory_order_relaxed);
    walkStage(spec, out);
}

} // namespace

bool recallStage(const StageSpec& spec, StageResult& out)
{
    // Without remainders the perfect form takes nearly every stage: its recent results first.
    // A result found there is that form's result for this very stage, and is counted as such.
    StageMemo* memo = spec.options->stageMemo;
    if (!memo || spec.nest->imperfectDims != 0 || !memo->findPerfect(spec, out)) return false;
    if (StageStatistics* stats = stageStatistics()) stats->byForm[0].fetch_add(1, std::memory_order_relaxed);
    return true;
}

void analyzeStage(const StageSpec& spec, StageResult& out)
{
    if (!recallStage(spec, out)) analyzeNewStage(spec, out);
}

void analyzeNewStage(const StageSpec& spec, StageResult& out)
{
    StageMemo* memo = spec.options->stageMemo;
    const bool recallPerfect = memo && spec.nest->imperfectDims == 0;  // recallStage missed: remember
    // Where the perfect form would decline, the memo first: its hits need no frame (building
    // frames for them took 12% of Ruby-S's annealing).
    auto recalled = [&] {
        if (!memo->find(spec, out)) return false;
        if (StageStatistics* stats = stageStatistics()) stats->memoHits.fetch_add(1, std::memory_order_relaxed);
        return true;
    };
    const bool memoFirst = memo && stageResidualMatters(spec);
    if (memoFirst && recalled()) return;
    StageFrame frame;
    const bool framed = buildStageFrame(spec, frame);
    StageDecline why = StageDecline::NotApplicable;
    if (!memo) {
        analyzeFrom(0, spec, frame, framed, why, out);
        return;
    }
    // The perfect form (the first) is cheaper than a hashed memo lookup: only the others go through it.
    if (framed && tryForm(0, frame, out, why)) {
        if (recallPerfect) memo->rememberPerfect(spec, out);
        return;
    }
    if (!memoFirst && recalled()) return;
    const std::uint64_t workBefore = spec.walkWork ? *spec.walkWork : 0;
    analyzeFrom(framed ? 1 : 0, spec, frame, framed, why, out);
    memo->remember(out, spec.walkWork ? *spec.walkWork - workBefore : 0);
}

std::string stageStatisticsText()
{
    StageStatistics* stats = stageStatistics();
    if (!stats) return "not counted";
    std::string t;
    const auto forms = closedStageForms();
    for (std::size_t i = 0; i < forms.size(); ++i)
        t += std::string(forms[i].name) + " " + std::to_string(stats->byForm[i].load(std::memory_order_relaxed)) + ", ";
    std::int64_t walked = 0;
    for (const auto& c : stats->walkedBecause) walked += c.load(std::memory_order_relaxed);
    t += "walker " + std::to_string(walked) + ", memo hits " + std::to_string(stats->memoHits.load(std::memory_order_relaxed)) +
         ", from the stage above " + std::to_string(stats->fromStageAbove.load(std::memory_order_relaxed));
    std::string reasons;
    for (int d = 0; d < static_cast<int>(StageDecline::Count); ++d) {
        const std::int64_t n = stats->walkedBecause[d].load(std::memory_order_relaxed);
        if (n > 0) reasons += std::string(reasons.empty() ? " (" : "; ") + stageDeclineName(static_cast<StageDecline>(d)) + " " + std::to_string(n);
    }
    return reasons.empty() ? t : t + reasons + ")";
}

StageResult analyzeStage(const StageSpec& spec)
{
    StageResult r;
    analyzeStage(spec, r);
    return r;
}

} // namespace nestor::model
