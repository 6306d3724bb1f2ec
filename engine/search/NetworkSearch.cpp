#include "search/NetworkSearch.h"

#include "analysis/NetworkTotals.h"
#include "core/Project.h"
#include "search/SearchAlgorithm.h"

#include <algorithm>
#include <chrono>

namespace nestor {

std::vector<NetworkSearchLayer> projectNetworkLayers(const Project& p, const std::string& network, bool withConstraints)
{
    for (const auto& n : p.networks) {
        if (n.name != network) continue;
        std::vector<NetworkSearchLayer> out;
        for (const auto& [name, repeat] : n.layers) {
            const ProjectWorkload* pw = p.findWorkload(name);
            if (!pw) throw NestorError("networks[" + network + "]", "unknown workload '" + name + "'");
            NetworkSearchLayer l;
            l.name = name;
            l.workload = pw->workload;
            l.repeat = repeat;
            if (withConstraints) l.constraints = p.constraintsFor(pw->workload);
            out.push_back(std::move(l));
        }
        return out;
    }
    std::string names;
    for (const auto& n : p.networks) names += (names.empty() ? "" : ", ") + n.name;
    throw NestorError("network", "no network named '" + network + "'" + (names.empty() ? " (the project has none)" : " (networks: " + names + ")"));
}

NetworkSearchResult runNetworkSearch(const Architecture& a, const std::vector<NetworkSearchLayer>& layers,
                                     const NetworkSearchOptions& opt, NetworkSearchObserver* observer, JobContext* job)
{
    NullJobContext noJob;
    if (!job) job = &noJob;
    const std::atomic<bool>* cancel = job->cancelFlag();
    if (!opt.search.algorithmFactory && !findSearchAlgorithm(opt.search.algorithm))
        throw NestorError("search.algorithm", "unknown algorithm '" + opt.search.algorithm + "'");
    if (opt.search.threads < 1 || opt.search.threads > kMaxSearchThreads)
        throw NestorError("search.threads", "the thread count (" + std::to_string(opt.search.threads) +
                                                ") must be between 1 and " + std::to_string(kMaxSearchThreads));
    const auto t0 = std::chrono::steady_clock::now();
    NetworkSearchResult out;
    // Layers searched so far (by index): a layer of the same name, or of the same shape and
    // constraints under another name (ResNet's projections and 1x1 convolutions), takes its result.
    std::vector<std::size_t> done;
    auto sameSearch = [&](std::size_t j, const NetworkSearchLayer& l) {
        const NetworkSearchLayer& o = layers[j];
        return o.name == l.name || (o.workload.sameShape(l.workload) && o.constraints == l.constraints);
    };
    const int count = static_cast<int>(layers.size());
    for (int i = 0; i < count; ++i) {
        const NetworkSearchLayer& l = layers[i];
        NetworkLayerResult r;
        r.name = l.name;
        r.repeat = l.repeat;
        job->reportProgress({double(i) / count, "layer " + std::to_string(i + 1) + "/" + std::to_string(count) + " " + l.name});
        if (cancel->load()) {
            out.cancelled = true;
        } else if (auto it = std::find_if(done.begin(), done.end(), [&](std::size_t j) { return sameSearch(j, l); });
                   it != done.end()) {
            const NetworkLayerResult& first = out.layers[*it];
            if (first.name != l.name) r.sameAs = first.name;
            r.searched = first.searched;
            r.error = first.error;
            r.mapspaceSize = first.mapspaceSize;
            r.result = first.result;
            r.result.evaluated = 0;  // not searched again
            r.result.valid = 0;
            r.result.curve.clear();
        } else {
            if (observer) observer->onLayerStarted(i, count, l.name);
            try {
                const Mapspace space(l.workload, a, opt.kind, l.constraints, opt.mapspace, cancel);
                r.mapspaceSize = space.size().total;
                r.result = runSearch(space, opt.search, observer, cancel);
                r.searched = true;
                if (r.result.cancelled) out.cancelled = true;
            } catch (const MapspaceCancelled&) {
                out.cancelled = true;  // this layer is not searched
            } catch (const NestorError& e) {  // the mapspace, or a search thread that failed
                r.error = e.what();
            }
            if (r.searched || !r.error.empty()) done.push_back(out.layers.size());
            if (observer) observer->onLayerFinished(i, r);
        }
        out.layers.push_back(std::move(r));
    }
    if (!out.cancelled) job->reportProgress({1.0, std::to_string(count) + " layers searched"});
    std::vector<RepeatedEvaluation> best;
    for (const auto& r : out.layers) {
        out.evaluated += r.result.evaluated;
        best.push_back({r.result.found ? &r.result.bestEvaluation : nullptr, r.repeat});
    }
    const NetworkTotals totals = networkTotals(best, a.cycle_seconds);
    out.complete = totals.complete();
    out.energy_pJ = totals.energy_pJ;
    out.cycles = totals.cycles;
    out.seconds_delay = totals.delay_s;
    out.edp_J_s = totals.edp_J_s;
    out.sumLayerEdp_J_s = totals.sumLayerEdp_J_s;
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

} // namespace nestor
