#include "SweepCommand.h"

#include "ExitCodes.h"
#include "SearchCommand.h"
#include "analysis/ParetoFront.h"
#include "io/AtomicFile.h"
#include "io/JsonWriter.h"
#include "mapspace/Mapspace.h"
#include "search/ArchitectureSweep.h"
#include "search/SearchAlgorithm.h"

#include <algorithm>
#include <memory>

#include <cstdio>
#include <ostream>

namespace nestor::cli {

namespace {

std::string sci(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4e", v);
    return buf;
}

// A progress line per (array, mapspace) point and layer.
class SweepProgress : public SweepObserver {
public:
    SweepProgress(std::ostream& err, std::string metric, bool enabled) : err_(err), metric_(std::move(metric)), enabled_(enabled) {}
    void onPointStarted(const PeArraySize& s, MapspaceKind k) override { point_ = s.name() + " " + mapspaceKindName(k); }
    void onLayerStarted(int index, int count, const std::string& name) override
    {
        const std::string label = count > 1 ? point_ + " " + std::to_string(index + 1) + "/" + std::to_string(count) + " " + name : point_;
        line_ = std::make_unique<ProgressLine>(err_, label, metric_, enabled_);
    }
    void onLayerFinished(int, const NetworkLayerResult&) override
    {
        if (line_) line_->finish();
    }
    void onProgress(const SearchProgress& p) override
    {
        if (line_) line_->onProgress(p);
    }

private:
    std::ostream& err_;
    std::string metric_, point_;
    bool enabled_;
    std::unique_ptr<ProgressLine> line_;
};

} // namespace

int runSweepCommand(const SearchCliOptions& opt, std::ostream& out, std::ostream& err)
{
    Project p;
    Architecture base;
    const ProjectWorkload* layer = nullptr;
    int code = kExitOk;
    if (!loadSearchInput(opt, p, base, layer, code, err)) return code;
    SweepOptions so;
    so.kinds.clear();
    for (const auto& m : opt.mapspaces) {
        const auto k = parseMapspaceKind(m);
        if (!k) {
            err << "nestor-cli: unknown mapspace '" << m << "'\n";
            return kExitUsage;
        }
        so.kinds.push_back(*k);
    }
    std::vector<NetworkSearchLayer> layers;
    try {
        so.arrays.clear();
        for (const auto& s : opt.arrays) so.arrays.push_back(parsePeArraySize(s));
        so.search = engineSearchOptions(opt);
        if (!findSearchAlgorithm(so.search.algorithm))
            throw NestorError("algorithm", "unknown algorithm '" + so.search.algorithm + "'");
        if (!opt.network.empty()) {
            layers = projectNetworkLayers(p, opt.network, !opt.noConstraints);
        } else {
            NetworkSearchLayer l;
            l.name = layer->workload.name;
            l.workload = layer->workload;
            if (!opt.noConstraints) l.constraints = p.constraintsFor(layer->workload);
            layers.push_back(std::move(l));
        }
    } catch (const NestorError& e) {
        err << "nestor-cli: " << e.what() << "\n";
        return kExitUsage;
    }
    FlagJobContext job(installInterruptHandler());
    SweepProgress progress(err, searchMetricName(so.search.metrics.front()), !opt.quiet);
    const SweepResult r = runArchitectureSweep(base, layers, so, &progress, &job);
    for (const auto& pt : r.points)
        if (!pt.error.empty()) err << "nestor-cli: " << pt.array.name() << " " << mapspaceKindName(pt.kind) << ": " << pt.error << "\n";

    out << (opt.network.empty() ? "Layer " + layers.front().name : "Network " + opt.network) << ", metric " << opt.metrics
        << ", algorithm " << opt.algorithm << ", seed " << opt.seed << (r.cancelled ? " (interrupted)" : "") << "\n";
    char line[256];
    std::snprintf(line, sizeof line, "%-8s %-8s %12s %12s %12s %7s %14s %s\n", "array", "mapspace", "EDP J*s", "energy pJ",
                  "cycles", "util %", "area um^2", "pareto");
    out << line;
    for (const auto& pt : r.points) {
        const std::string ms = mapspaceKindName(pt.kind);
        if (!pt.found) {
            std::snprintf(line, sizeof line, "%-8s %-8s %12s\n", pt.array.name().c_str(), ms.c_str(),
                          pt.error.empty() ? "no valid mapping" : "error");
        } else {
            std::snprintf(line, sizeof line, "%-8s %-8s %12s %12s %12lld %7.2f %14.1f %s\n", pt.array.name().c_str(), ms.c_str(),
                          sci(pt.edp_J_s).c_str(), sci(pt.energy_pJ).c_str(), static_cast<long long>(pt.cycles),
                          100.0 * pt.utilization, pt.area_um2, pt.pareto ? "*" : "");
        }
        out << line;
    }
    for (std::size_t k = 0; k < so.kinds.size() && k < r.fronts.size(); ++k) {
        out << "Pareto front (area vs EDP) of " << mapspaceKindName(so.kinds[k]) << ":";
        auto front = r.fronts[k];
        std::sort(front.begin(), front.end(), [&](std::size_t a, std::size_t b) { return r.points[a].area_um2 < r.points[b].area_um2; });
        for (std::size_t i : front) out << " " << r.points[i].array.name();
        out << (front.empty() ? " (none)\n" : "\n");
    }
    bool ok = true;
    if (!opt.csv.empty()) {
        std::string csv = "array,mapspace,found,edp_J_s,energy_pJ,cycles,utilization,area_um2,pareto,evaluated\n";
        for (const auto& pt : r.points)
            csv += pt.array.name() + "," + mapspaceKindName(pt.kind) + "," + (pt.found ? "1" : "0") + "," + sci(pt.edp_J_s) + "," +
                   sci(pt.energy_pJ) + "," + std::to_string(pt.cycles) + "," + std::to_string(pt.utilization) + "," +
                   std::to_string(pt.area_um2) + "," + (pt.pareto ? "1" : "0") + "," + std::to_string(pt.evaluated) + "\n";
        try {
            writeFileAtomically(opt.csv, csv);
        } catch (const std::exception& e) {
            err << "nestor-cli: " << e.what() << "\n";
            ok = false;
        }
    }
    if (!opt.json.empty()) {
        JsonWriter j;
        j.beginArray();
        for (const auto& pt : r.points)
            j.beginObject().field("array", pt.array.name()).field("mapspace", mapspaceKindName(pt.kind)).field("found", pt.found)
                .field("edp_J_s", pt.edp_J_s).field("energy_pJ", pt.energy_pJ).field("cycles", pt.cycles)
                .field("utilization", pt.utilization).field("area_um2", pt.area_um2).field("pareto", pt.pareto)
                .field("evaluated", pt.evaluated).endObject();
        j.endArray();
        try {
            writeFileAtomically(opt.json, j.str());
        } catch (const std::exception& e) {
            err << "nestor-cli: " << e.what() << "\n";
            ok = false;
        }
    }
    return ok ? kExitOk : kExitInput;
}

} // namespace nestor::cli
