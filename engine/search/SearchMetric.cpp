#include "search/SearchMetric.h"

#include "common/Error.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace nestor {

std::string searchMetricName(SearchMetric m)
{
    switch (m) {
    case SearchMetric::Edp: return "edp";
    case SearchMetric::Energy: return "energy";
    case SearchMetric::Delay: return "delay";
    case SearchMetric::LastLevelAccesses: return "last-level-accesses";
    }
    return "edp";
}

std::optional<SearchMetric> parseSearchMetric(const std::string& name)
{
    std::string n = name;
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::replace(n.begin(), n.end(), '_', '-');
    if (n == "edp") return SearchMetric::Edp;
    if (n == "energy") return SearchMetric::Energy;
    if (n == "delay" || n == "cycles") return SearchMetric::Delay;
    if (n == "last-level-accesses" || n == "lla") return SearchMetric::LastLevelAccesses;
    return std::nullopt;
}

std::vector<SearchMetric> parseSearchMetrics(const std::string& s)
{
    std::vector<SearchMetric> out;
    std::string cur;
    auto flush = [&] {
        if (cur.empty()) return;
        const auto m = parseSearchMetric(cur);
        if (!m) throw NestorError("metric", "unknown metric '" + cur + "' (edp, energy, delay, last-level-accesses)");
        out.push_back(*m);
        cur.clear();
    };
    for (char c : s) {
        if (c == ',' || c == ' ') flush();
        else cur += c;
    }
    flush();
    if (out.empty()) throw NestorError("metric", "no metric given");
    return out;
}

double metricValue(SearchMetric m, const Evaluation& ev)
{
    switch (m) {
    case SearchMetric::Edp: return ev.edp_J_s;
    case SearchMetric::Energy: return ev.energy_pJ;
    case SearchMetric::Delay: return static_cast<double>(ev.cycles);
    case SearchMetric::LastLevelAccesses: {
        double sum = 0;
        if (!ev.levels.empty())
            for (const auto& t : ev.levels.front().tensors)
                sum += static_cast<double>(t.reads + t.fills + t.updates);
        return sum;
    }
    }
    return 0.0;
}

std::vector<double> metricValues(const std::vector<SearchMetric>& ms, const Evaluation& ev)
{
    std::vector<double> v;
    metricValues(ms, ev, v);
    return v;
}

void metricValues(const std::vector<SearchMetric>& ms, const Evaluation& ev, std::vector<double>& out)
{
    out.resize(ms.size());
    for (std::size_t i = 0; i < ms.size(); ++i) out[i] = metricValue(ms[i], ev);
}

bool isBetter(const std::vector<double>& c, const std::vector<double>& inc, double tol)
{
    const std::size_t n = std::min(c.size(), inc.size());
    for (std::size_t i = 0; i < n; ++i) {
        const double scale = std::max(std::fabs(inc[i]), 1e-300);
        if (std::fabs(c[i] - inc[i]) / scale > tol) return c[i] < inc[i];
    }
    return n > 0 && c[0] < inc[0];
}

} // namespace nestor
