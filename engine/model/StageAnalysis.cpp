#include "model/StageAnalysis.h"

#include "model/ResidualContextStage.h"
#include "model/PerfectStage.h"
#include "model/StageWalker.h"

namespace nestor::model {

std::vector<Vec> projectSteps(const Workload& w, const NestLayout& nest, int tensor)
{
    std::vector<Vec> out(nest.loops.size());
    const auto& ranks = w.tensors[tensor].ranks;
    for (std::size_t p = 0; p < nest.loops.size(); ++p)
        for (std::size_t r = 0; r < ranks.size(); ++r)
            for (const auto& term : ranks[r])
                if (term.dim == nest.loops[p].dim) out[p][r] += term.coef * nest.loops[p].stride;
    return out;
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
    for (int q = 0; q <= level; ++q) keptAbove = keptAbove || m.keeps(q, tensor);
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

void analyzeStage(const StageSpec& spec, StageResult& out)
{
    if (analyzePerfectStage(spec, out)) return;
    if (analyzeResidualContextStage(spec, out)) return;
    walkStage(spec, out);
}

StageResult analyzeStage(const StageSpec& spec)
{
    StageResult r;
    analyzeStage(spec, r);
    return r;
}

} // namespace nestor::model
