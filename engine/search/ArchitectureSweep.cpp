#include "search/ArchitectureSweep.h"

#include "analysis/ParetoFront.h"
#include "common/CheckedMath.h"

#include <charconv>

namespace nestor {

PeArraySize parsePeArraySize(const std::string& text)
{
    // Digits only, range-checked (sscanf's %lld is undefined beyond 64 bits); X*Y PEs must be
    // a count (below 2^62, common/CheckedMath.h).
    const std::size_t sep = text.find('x');
    const std::string xs = sep == std::string::npos ? std::string() : text.substr(0, sep);
    const std::string ys = sep == std::string::npos ? std::string() : text.substr(sep + 1);
    auto isDigits = [](const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; };
    if (!isDigits(xs) || !isDigits(ys)) throw NestorError("arrays", "array size '" + text + "' is not XxY (e.g. 14x12)");
    std::int64_t x = 0, y = 0, pes = 0;
    const bool fits = std::from_chars(xs.data(), xs.data() + xs.size(), x).ec == std::errc() &&
                      std::from_chars(ys.data(), ys.data() + ys.size(), y).ec == std::errc();
    if (fits && (x < 1 || y < 1)) throw NestorError("arrays", "array size '" + text + "': X and Y must be at least 1");
    if (!fits || !checkedMul(x, y, &pes) || !belowCountLimit(pes))
        throw NestorError("arrays", "array size '" + text + "' is too large (X x Y PEs must stay below 2^62)");
    return {x, y};
}

std::vector<PeArraySize> defaultSweepArrays()
{
    return {{2, 7}, {4, 7}, {7, 7}, {8, 8}, {14, 8}, {14, 12}, {16, 12}, {16, 16}};
}

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

SweepResult runArchitectureSweep(const Architecture& base, const std::vector<NetworkSearchLayer>& layers, const SweepOptions& opt,
                                 SweepObserver* observer, JobContext* job)
{
    NullJobContext noJob;
    if (!job) job = &noJob;
    SweepResult out;
    const std::size_t total = opt.arrays.size() * opt.kinds.size();
    for (const auto& size : opt.arrays) {
        for (MapspaceKind k : opt.kinds) {
            if (job->cancelRequested()) {
                out.cancelled = true;
                break;
            }
            SweepPoint pt;
            pt.array = size;
            pt.kind = k;
            if (observer) observer->onPointStarted(size, k);
            try {
                const Architecture a = resizePeArray(base, size.x, size.y);
                pt.area_um2 = a.area_um2();
                NetworkSearchOptions no;
                no.kind = k;
                no.mapspace = opt.mapspace;
                no.search = opt.search;
                const double share = 1.0 / static_cast<double>(total);
                JobSlice point(*job, static_cast<double>(out.points.size()) * share, share,
                               size.name() + " " + mapspaceKindName(k) + ": ");
                pt.search = runNetworkSearch(a, layers, no, observer, &point);
                if (pt.search.cancelled) out.cancelled = true;
                for (const auto& l : pt.search.layers)
                    if (!l.error.empty() && pt.error.empty()) pt.error = l.name + ": " + l.error;
                pt.found = pt.search.complete;
                pt.evaluated = pt.search.evaluated;
                if (pt.found) {
                    pt.edp_J_s = pt.search.edp_J_s;
                    pt.energy_pJ = pt.search.energy_pJ;
                    pt.cycles = pt.search.cycles;
                    double macs = 0;
                    for (const auto& l : pt.search.layers)
                        macs += static_cast<double>(l.result.bestEvaluation.utilization) *
                                static_cast<double>(l.result.bestEvaluation.cycles) * static_cast<double>(l.repeat);
                    pt.utilization = pt.cycles > 0 ? macs / static_cast<double>(pt.cycles) : 0.0;
                }
            } catch (const NestorError& e) {
                // Options that fail every point are the caller's error, not this point's.
                if (e.diagnostics().size() == 1 &&
                    (e.diagnostics().front().field == "search.algorithm" || e.diagnostics().front().field == "search.threads"))
                    throw;
                pt.error = e.what();
            }
            if (observer) observer->onPointFinished(pt);
            out.points.push_back(std::move(pt));
        }
        if (out.cancelled) break;
    }
    for (MapspaceKind k : opt.kinds) {
        std::vector<std::vector<double>> pts;
        std::vector<std::size_t> idx;
        for (std::size_t i = 0; i < out.points.size(); ++i)
            if (out.points[i].found && out.points[i].kind == k) {
                pts.push_back({out.points[i].area_um2, out.points[i].edp_J_s});
                idx.push_back(i);
            }
        std::vector<std::size_t> front;
        for (std::size_t f : paretoFront(pts)) {
            out.points[idx[f]].pareto = true;
            front.push_back(idx[f]);
        }
        out.fronts.push_back(std::move(front));
    }
    return out;
}

} // namespace nestor
