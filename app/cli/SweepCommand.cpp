#include "SweepCommand.h"

#include "ExitCodes.h"
#include "SearchCommand.h"
#include "analysis/ParetoFront.h"
#include "io/AtomicFile.h"
#include "io/JsonWriter.h"
#include "mapspace/Mapspace.h"
#include "search/SearchAlgorithm.h"

#include <cstdio>
#include <ostream>

namespace nestor::cli {

Architecture resizePeArray(const Architecture& a, std::int64_t x, std::int64_t y)
{
    const std::int64_t pes = a.compute.instances, cols = a.compute.meshX;
    if (pes <= 1) throw NestorError("architecture.compute", "no PE array to resize (one MAC)");
    Architecture r = a;
    r.name = a.name + "-" + std::to_string(x) + "x" + std::to_string(y);
    for (auto& l : r.levels) {
        if (l.instances == pes) {
            l.instances = x * y;
            l.meshX = x;
        } else if (l.instances == cols && cols > 1 && l.meshX == cols) {
            l.instances = x;
            l.meshX = x;
        } else if (l.instances > 1) {
            throw NestorError("architecture.levels[" + l.name + "]",
                              "cannot tell how " + std::to_string(l.instances) + " instances scale with the PE array");
        }
    }
    r.compute.instances = x * y;
    r.compute.meshX = x;
    const Diagnostics d = r.validate();
    if (!d.empty()) throw NestorError(d);
    return r;
}

namespace {

struct Row {
    std::string array, mapspace;
    bool found = false;
    double edp = 0, energy = 0, area = 0, utilization = 0;
    std::int64_t cycles = 0, evaluated = 0;
    bool pareto = false;
};

std::string sci(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4e", v);
    return buf;
}

} // namespace

int runSweepCommand(const SearchCliOptions& opt, std::ostream& out, std::ostream& err)
{
    Project p;
    Architecture base;
    const ProjectWorkload* layer = nullptr;
    int code = kExitOk;
    if (!loadSearchInput(opt, p, base, layer, code, err)) return code;
    std::vector<MapspaceKind> kinds;
    for (const auto& m : opt.mapspaces) {
        const auto k = parseMapspaceKind(m);
        if (!k) {
            err << "nestor-cli: unknown mapspace '" << m << "'\n";
            return kExitUsage;
        }
        kinds.push_back(*k);
    }
    std::vector<std::pair<std::int64_t, std::int64_t>> arrays;
    for (const auto& s : opt.arrays) {
        const auto xpos = s.find('x');
        long long x = 0, y = 0;
        if (xpos == std::string::npos || std::sscanf(s.c_str(), "%lldx%lld", &x, &y) != 2 || x < 1 || y < 1) {
            err << "nestor-cli: array size '" << s << "' is not XxY\n";
            return kExitUsage;
        }
        arrays.emplace_back(x, y);
    }
    SearchOptions so;
    try {
        so = engineSearchOptions(opt);
        if (!findSearchAlgorithm(so.algorithm)) throw NestorError("algorithm", "unknown algorithm '" + so.algorithm + "'");
    } catch (const NestorError& e) {
        err << "nestor-cli: " << e.what() << "\n";
        return kExitUsage;
    }
    const std::atomic<bool>* cancel = installInterruptHandler();
    std::vector<Row> rows;
    for (const auto& [x, y] : arrays) {
        for (MapspaceKind k : kinds) {
            if (cancel->load()) break;
            Row row;
            row.array = std::to_string(x) + "x" + std::to_string(y);
            row.mapspace = mapspaceKindName(k);
            try {
                const Architecture a = resizePeArray(base, x, y);
                const Mapspace space(layer->workload, a, k);
                ProgressLine progress(err, row.array + " " + row.mapspace, searchMetricName(so.metrics.front()), !opt.quiet);
                const SearchResult r = runSearch(space, so, &progress, cancel);
                progress.finish();
                row.found = r.found;
                row.evaluated = r.evaluated;
                row.area = a.area_um2();
                if (r.found) {
                    row.edp = r.bestEvaluation.edp_J_s;
                    row.energy = r.bestEvaluation.energy_pJ;
                    row.cycles = r.bestEvaluation.cycles;
                    row.utilization = r.bestEvaluation.utilization;
                    row.area = r.bestEvaluation.area_um2 > 0 ? r.bestEvaluation.area_um2 : row.area;
                }
            } catch (const NestorError& e) {
                err << "nestor-cli: " << row.array << " " << row.mapspace << ": " << e.what() << "\n";
            }
            rows.push_back(row);
        }
    }
    for (MapspaceKind k : kinds) {
        std::vector<std::vector<double>> pts;
        std::vector<std::size_t> idx;
        for (std::size_t i = 0; i < rows.size(); ++i)
            if (rows[i].found && rows[i].mapspace == mapspaceKindName(k)) {
                pts.push_back({rows[i].area, rows[i].edp});
                idx.push_back(i);
            }
        for (std::size_t f : paretoFront(pts)) rows[idx[f]].pareto = true;
    }
    out << "Layer " << layer->workload.name << ", metric " << opt.metrics << ", algorithm " << opt.algorithm << "\n";
    char line[256];
    std::snprintf(line, sizeof line, "%-8s %-8s %12s %12s %12s %7s %14s %s\n", "array", "mapspace", "EDP J*s", "energy pJ",
                  "cycles", "util %", "area um^2", "pareto");
    out << line;
    for (const auto& r : rows) {
        if (!r.found) {
            std::snprintf(line, sizeof line, "%-8s %-8s %12s\n", r.array.c_str(), r.mapspace.c_str(), "no valid mapping");
        } else {
            std::snprintf(line, sizeof line, "%-8s %-8s %12s %12s %12lld %7.2f %14.1f %s\n", r.array.c_str(),
                          r.mapspace.c_str(), sci(r.edp).c_str(), sci(r.energy).c_str(), static_cast<long long>(r.cycles),
                          100.0 * r.utilization, r.area, r.pareto ? "*" : "");
        }
        out << line;
    }
    bool ok = true;
    if (!opt.csv.empty()) {
        std::string csv = "array,mapspace,found,edp_J_s,energy_pJ,cycles,utilization,area_um2,pareto,evaluated\n";
        for (const auto& r : rows)
            csv += r.array + "," + r.mapspace + "," + (r.found ? "1" : "0") + "," + sci(r.edp) + "," + sci(r.energy) + "," +
                   std::to_string(r.cycles) + "," + std::to_string(r.utilization) + "," + std::to_string(r.area) + "," +
                   (r.pareto ? "1" : "0") + "," + std::to_string(r.evaluated) + "\n";
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
        for (const auto& r : rows)
            j.beginObject().field("array", r.array).field("mapspace", r.mapspace).field("found", r.found)
                .field("edp_J_s", r.edp).field("energy_pJ", r.energy).field("cycles", r.cycles)
                .field("utilization", r.utilization).field("area_um2", r.area).field("pareto", r.pareto)
                .field("evaluated", r.evaluated).endObject();
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
