#include "solvers/interstellar/DataflowStudy.h"

#include "mapspace/Mapspace.h"
#include "mapspace/MapspaceBuild.h"
#include "search/SearchAlgorithm.h"
#include "search/SearchDriver.h"
#include "solvers/interstellar/DataflowConstraints.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace nestor::interstellar {

std::vector<Dataflow> enumerateDataflows(const Workload& w)
{
    std::vector<std::string> loops;
    for (int d = 0; d < w.numDims(); ++d)
        if (w.bounds[static_cast<std::size_t>(d)] > 1) loops.push_back(w.dimNames[static_cast<std::size_t>(d)]);
    std::vector<Dataflow> r;
    for (const auto& u : loops)
        for (const auto& v : loops)
            if (u != v) r.push_back({{u}, {v}});
    return r;
}

DataflowResult searchDataflow(const Workload& w, const Architecture& a, const Dataflow& d, const StudyOptions& o)
{
    if (o.budget < 1) throw NestorError("budget", "the search budget must be at least 1 evaluation per dataflow");
    DataflowResult r;
    r.dataflow = d;
    r.text = dataflowText(w, d);
    SearchOptions so;
    so.algorithm = o.algorithm;
    so.threads = o.threads;
    so.seed = o.seed;
    so.metrics = o.metrics;
    so.evaluationBudget = o.budget;
    // The budget alone ends a search: a tight dataflow has long runs of mappings that do not fit.
    so.victoryCondition = 0;
    so.timeout = std::max<std::int64_t>(o.budget, 1);
    so.model = o.model;
    try {
        const Mapspace space(w, a, o.kind, dataflowConstraints(d, w, a, o.replication, o.base), {}, o.cancel);
        const SearchResult s = runSearch(space, so, nullptr, o.cancel);
        r.evaluated = s.evaluated;
        r.valid = s.valid;
        r.found = s.found;
        if (s.found) {
            r.best = s.best;
            r.best.name = "dataflow " + r.text;
            r.eval = s.bestEvaluation;
            r.realized = classifyDataflow(w, a, r.best);
        } else {
            r.error = "no valid mapping in " + std::to_string(s.evaluated) + " candidates";
        }
    } catch (const MapspaceCancelled&) {
        r.error = "cancelled";
    } catch (const NestorError& e) {
        r.error = e.what();
    }
    return r;
}

std::string StudySummary::text() const
{
    if (found == 0) return "no dataflow has a valid mapping (" + std::to_string(searched) + " searched)";
    char buf[512];
    std::string parts;
    for (const auto& [t, n] : within) {
        std::snprintf(buf, sizeof buf, "%s%d within %.0f%%", parts.empty() ? "" : ", ", n, 100.0 * t);
        parts += buf;
    }
    std::snprintf(buf, sizeof buf, "%d of %d dataflows found a valid mapping; best %s at %.4g pJ; %s of the best; worst/best %.2f",
                  found, searched, bestText.c_str(), bestEnergy_pJ, parts.c_str(), worstOverBest);
    return buf;
}

StudySummary summarize(const std::vector<DataflowResult>& rows)
{
    StudySummary s;
    s.searched = static_cast<int>(rows.size());
    double worst = 0.0;
    for (const auto& r : rows) {
        if (!r.found) continue;
        if (s.found == 0 || r.eval.energy_pJ < s.bestEnergy_pJ) {
            s.bestEnergy_pJ = r.eval.energy_pJ;
            s.bestText = r.text;
        }
        worst = std::max(worst, r.eval.energy_pJ);
        ++s.found;
    }
    for (double t : {0.05, 0.10, 0.25, 0.50}) {
        int n = 0;
        for (const auto& r : rows)
            if (r.found && r.eval.energy_pJ <= s.bestEnergy_pJ * (1.0 + t)) ++n;
        s.within.emplace_back(t, n);
    }
    s.worstOverBest = s.found > 0 && s.bestEnergy_pJ > 0 ? worst / s.bestEnergy_pJ : 0.0;
    return s;
}

DataflowStudy studyDataflows(const Workload& w, const Architecture& a, const std::vector<Dataflow>& dataflows,
                             const StudyOptions& o)
{
    Diagnostics d = w.validate();
    const Diagnostics da = a.validate();
    d.insert(d.end(), da.begin(), da.end());
    if (!d.empty()) throw NestorError(d);
    if (!findSearchAlgorithm(o.algorithm)) throw NestorError("search.algorithm", "unknown algorithm '" + o.algorithm + "'");
    if (o.budget < 1) throw NestorError("budget", "the search budget must be at least 1 evaluation per dataflow");
    const auto t0 = std::chrono::steady_clock::now();
    DataflowStudy study;
    const int n = static_cast<int>(dataflows.size());
    for (int i = 0; i < n; ++i) {
        if (o.cancel && o.cancel->load()) {
            study.cancelled = true;
            break;
        }
        if (o.progress) o.progress(i, n, dataflowText(w, dataflows[static_cast<std::size_t>(i)]));
        study.rows.push_back(searchDataflow(w, a, dataflows[static_cast<std::size_t>(i)], o));
        if (o.cancel && o.cancel->load()) study.cancelled = true;
    }
    std::stable_sort(study.rows.begin(), study.rows.end(), [](const DataflowResult& x, const DataflowResult& y) {
        if (x.found != y.found) return x.found;
        if (!x.found) return false;
        if (x.eval.energy_pJ != y.eval.energy_pJ) return x.eval.energy_pJ < y.eval.energy_pJ;
        if (x.eval.cycles != y.eval.cycles) return x.eval.cycles < y.eval.cycles;
        return x.text < y.text;
    });
    study.summary = summarize(study.rows);
    study.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return study;
}

} // namespace nestor::interstellar
