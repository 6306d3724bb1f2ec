#include "SearchCommand.h"

#include "ExitCodes.h"
#include "arch/EnergyModels.h"
#include "io/AtomicFile.h"
#include "io/JsonWriter.h"
#include "io/LoopNestText.h"
#include "io/ProjectYaml.h"
#include "io/ResultsExport.h"
#include "io/TimeloopMappingExport.h"
#include "mapspace/Mapspace.h"
#include "search/EnergyRanking.h"
#include "search/NetworkSearch.h"
#include "search/SearchAlgorithm.h"

#include <algorithm>
#include <map>
#include <memory>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <unistd.h>

namespace nestor::cli {

namespace {

// A search that stopped before its budget says which rule stopped it and how to lift it, so a
// budget is never silently cut short (Timeloop's victory and timeout rules apply per thread).
void explainEarlyStop(const SearchResult& r, const SearchOptions& so, std::ostream& out)
{
    if (r.cancelled || so.evaluationBudget <= 0 || r.evaluated >= so.evaluationBudget) return;
    auto stoppedBy = [&](const char* reason) {
        return std::find(r.stopReasons.begin(), r.stopReasons.end(), reason) != r.stopReasons.end();
    };
    if (stoppedBy("victory"))
        out << "  victory: " << so.victoryCondition << " consecutive valid mappings without improvement on a thread ended it "
            << "before the budget of " << so.evaluationBudget << " evaluations; --victory 0 spends the whole budget\n";
    if (stoppedBy("timeout"))
        out << "  timeout: " << so.timeout << " consecutive invalid mappings on a thread ended it before the budget of "
            << so.evaluationBudget << " evaluations; a larger --timeout keeps it going\n";
}

void warnIfEnergyRankedNothing(const std::vector<SearchMetric>& metrics, double bestEnergy_pJ, std::ostream& err)
{
    if (!energyRankedNothing(metrics, bestEnergy_pJ)) return;
    err << "nestor-cli: warning: the best mapping costs 0 pJ: the architecture has no energies (energy model `table` "
           "with every energy 0), so EDP and energy ranked nothing; give it energies (import-timeloop --ert or "
           "--energy-model, or the project's energy_model) or search with --metric delay\n";
}

// Why no candidate was valid, where one cause took them all (or nearly).
void explainNothingFound(const SearchResult& r, MapspaceKind kind, const std::string& algorithm, std::ostream& out)
{
    if (r.evaluated == 0) return;
    if (r.overCapacity * 10 >= r.evaluated * 9) {
        out << "  the tiles of " << r.overCapacity << " of the " << r.evaluated
            << " candidates outgrew a level's capacity: larger buffers or fewer tensors kept";
        if (kind == MapspaceKind::Ruby || kind == MapspaceKind::RubyT)
            out << ", or (imperfect temporal factors make most uniform draws overflow on large layers) "
                << (algorithm != "annealing" ? "--algorithm annealing (it also starts from perfect factorizations), " : "")
                << "--mapspace ruby-s or pfm, or a larger --budget and --timeout";
        out << "\n";
    } else if (r.belowUtilization * 10 >= r.evaluated * 9) {
        out << "  " << r.belowUtilization << " of the " << r.evaluated
            << " candidates fit but were below the constraints' minimum utilization\n";
    }
}

std::atomic<bool> gInterrupted{false};

extern "C" void onInterrupt(int)
{
    if (gInterrupted.exchange(true)) _exit(130);
    const char msg[] = "\nnestor-cli: stopping; reporting the best mapping so far (Ctrl-C again to quit)\n";
    (void)!write(2, msg, sizeof msg - 1);
}

std::string sci(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4e", v);
    return buf;
}

bool writeText(const std::string& path, const std::string& text, std::ostream& err)
{
    try {
        writeFileAtomically(path, text);
        return true;
    } catch (const std::exception& e) {
        err << "nestor-cli: cannot write " << path << ": " << e.what() << "\n";
        return false;
    }
}

} // namespace

const std::atomic<bool>* installInterruptHandler()
{
    std::signal(SIGINT, onInterrupt);
    return &gInterrupted;
}

ProgressLine::ProgressLine(std::ostream& err, std::string label, std::string metric, bool enabled)
    : err_(err), label_(std::move(label)), metric_(std::move(metric)), enabled_(enabled)
{
}

void ProgressLine::onProgress(const SearchProgress& p)
{
    if (!enabled_ || (drawn_ && p.seconds - lastDrawn_ < 0.2)) return;
    lastDrawn_ = p.seconds;
    drawn_ = true;
    char buf[256];
    std::snprintf(buf, sizeof buf, "\r%s: %lld evaluated, %lld valid, best %s %s, %.1f s, %.0f/s   ", label_.c_str(),
                  static_cast<long long>(p.evaluated), static_cast<long long>(p.valid), metric_.c_str(),
                  p.hasBest ? sci(p.best).c_str() : "-", p.seconds, p.seconds > 0 ? p.evaluated / p.seconds : 0.0);
    err_ << buf << std::flush;
}

void ProgressLine::finish()
{
    if (enabled_ && drawn_) err_ << "\n";
    drawn_ = false;
}

bool loadSearchInput(const SearchCliOptions& opt, Project& p, Architecture& arch, const ProjectWorkload*& layer,
                     int& code, std::ostream& err)
{
    try {
        p = readProject(opt.project);
        arch = p.architecture;
        applyEnergyModel(arch, p.energyModel);
    } catch (const NestorError& e) {
        err << e.what() << "\n";
        code = kExitInput;
        return false;
    }
    if (!opt.network.empty()) {
        bool known = false;
        std::string names;
        for (const auto& n : p.networks) {
            known = known || n.name == opt.network;
            names += (names.empty() ? "" : ", ") + n.name;
        }
        if (!known) {
            err << "nestor-cli: no network named '" << opt.network << "' in " << opt.project << " (networks: "
                << (names.empty() ? "none" : names) << ")\n";
            code = kExitUsage;
            return false;
        }
        layer = nullptr;
        return true;
    }
    const std::string name = !opt.layer.empty() ? opt.layer : p.jobWorkload;
    layer = name.empty() ? (p.workloads.empty() ? nullptr : &p.workloads.front()) : p.findWorkload(name);
    if (!layer) {
        std::string names;
        for (const auto& w : p.workloads) names += (names.empty() ? "" : ", ") + w.workload.name;
        err << "nestor-cli: no workload named '" << name << "' in " << opt.project << " (workloads: " << names << ")\n";
        code = p.workloads.empty() ? kExitInput : kExitUsage;
        return false;
    }
    return true;
}

SearchOptions engineSearchOptions(const SearchCliOptions& opt)
{
    if (opt.threads < 1 || opt.threads > kMaxSearchThreads)
        throw NestorError("--threads", std::to_string(opt.threads) + " is not a thread count from 1 to " +
                                           std::to_string(kMaxSearchThreads));
    SearchOptions o;
    o.algorithm = opt.algorithm;
    o.threads = opt.threads;
    o.seed = opt.seed;
    o.metrics = parseSearchMetrics(opt.metrics);
    o.evaluationBudget = opt.budget;
    o.searchSize = opt.searchSize;
    o.timeout = opt.timeout;
    o.victoryCondition = opt.victory;
    opt.exact.applyTo(o.model);
    return o;
}

namespace {

// Prints "network: layer i/n NAME" before each layer's progress line.
class NetworkProgress : public NetworkSearchObserver {
public:
    NetworkProgress(std::ostream& err, std::string metric, bool enabled) : err_(err), metric_(std::move(metric)), enabled_(enabled) {}
    void onLayerStarted(int index, int count, const std::string& name) override
    {
        line_ = std::make_unique<ProgressLine>(err_, std::to_string(index + 1) + "/" + std::to_string(count) + " " + name, metric_,
                                               enabled_);
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
    std::string metric_;
    bool enabled_;
    std::unique_ptr<ProgressLine> line_;
};

} // namespace

int runNetworkSearchCommand(const SearchCliOptions& opt, const Project& p, const Architecture& arch, std::ostream& out,
                            std::ostream& err)
{
    const auto kind = parseMapspaceKind(opt.mapspaces.front());
    if (!kind) {
        err << "nestor-cli: unknown mapspace '" << opt.mapspaces.front() << "' (pfm, ruby, ruby-s, ruby-t)\n";
        return kExitUsage;
    }
    if (!findSearchAlgorithm(opt.algorithm)) {
        err << "nestor-cli: unknown algorithm '" << opt.algorithm << "'\n";
        return kExitUsage;
    }
    NetworkSearchOptions no;
    no.kind = *kind;
    std::vector<NetworkSearchLayer> layers;
    try {
        no.search = engineSearchOptions(opt);
        layers = projectNetworkLayers(p, opt.network, !opt.noConstraints);
    } catch (const NestorError& e) {
        err << "nestor-cli: " << e.what() << "\n";
        return kExitUsage;
    }
    FlagJobContext job(installInterruptHandler());
    NetworkProgress progress(err, searchMetricName(no.search.metrics.front()), !opt.quiet);
    const NetworkSearchResult r = runNetworkSearch(arch, layers, no, &progress, &job);

    out << "Network " << opt.network << " (" << layers.size() << " layers), mapspace " << mapspaceKindName(*kind)
        << ", algorithm " << opt.algorithm << ", seed " << opt.seed << (r.cancelled ? " (interrupted)" : "") << "\n";
    char line[512];
    std::snprintf(line, sizeof line, "%-20s %6s %12s %12s %12s %7s %10s\n", "layer", "repeat", "EDP J*s", "energy pJ", "cycles",
                  "util %", "evaluated");
    out << line;
    for (const auto& l : r.layers) {
        if (l.result.found) {
            const Evaluation& ev = l.result.bestEvaluation;
            std::snprintf(line, sizeof line, "%-20s %6lld %12s %12s %12lld %7.2f %10lld\n", l.name.c_str(),
                          static_cast<long long>(l.repeat), sci(ev.edp_J_s).c_str(), sci(ev.energy_pJ).c_str(),
                          static_cast<long long>(ev.cycles), 100.0 * ev.utilization, static_cast<long long>(l.result.evaluated));
            if (!l.sameAs.empty()) line[std::strlen(line) - 1] = '\0';  // then the note ends the row
        } else {
            const std::string why = !l.error.empty() ? "error: " + l.error : l.searched ? "no valid mapping" : "not searched";
            std::snprintf(line, sizeof line, "%-20s %6lld %s\n", l.name.c_str(), static_cast<long long>(l.repeat), why.c_str());
        }
        out << line;
        if (!l.sameAs.empty() && l.result.found) out << "  (same shape as " << l.sameAs << ")\n";
    }
    std::snprintf(line, sizeof line, "%-20s %6s %12s %12s %12lld %7s %10lld\n", "total", "", sci(r.edp_J_s).c_str(),
                  sci(r.energy_pJ).c_str(), static_cast<long long>(r.cycles), "", static_cast<long long>(r.evaluated));
    out << line;
    if (r.complete) warnIfEnergyRankedNothing(no.search.metrics, r.energy_pJ, err);
    out << "Network EDP = total energy x total delay; sum of layer EDPs " << sci(r.sumLayerEdp_J_s) << " J*s; " << r.seconds
        << " s" << (r.complete ? "" : "; INCOMPLETE: some layers have no mapping") << "\n";

    bool ok = true;
    std::vector<std::string> mappingNames(r.layers.size());
    if (!opt.out.empty()) {
        Project withBest = p;
        std::map<std::string, std::string> added;  // workload -> mapping name
        for (std::size_t i = 0; i < r.layers.size(); ++i) {
            const auto& l = r.layers[i];
            if (!l.result.found) continue;
            if (auto it = added.find(l.name); it != added.end()) {
                mappingNames[i] = it->second;
                continue;
            }
            std::string base = l.name + "-" + mapspaceKindName(*kind) + "-" + opt.algorithm;
            std::string name = base;
            for (int k = 2; withBest.findMapping(name); ++k) name = base + "-" + std::to_string(k);
            Mapping m = l.result.best;
            m.name = name;
            withBest.mappings.push_back({l.name, m, {}});
            added[l.name] = name;
            mappingNames[i] = name;
        }
        ok = writeText(opt.out, writeProject(withBest), err) && ok;
    }
    if (!opt.json.empty()) {
        JsonWriter j;
        j.beginObject()
            .field("network", opt.network)
            .field("mapspace", mapspaceKindName(*kind))
            .field("algorithm", opt.algorithm)
            .field("threads", opt.threads)
            .field("seed", static_cast<std::int64_t>(opt.seed))
            .field("complete", r.complete)
            .field("interrupted", r.cancelled);
        j.key("layers").beginArray();
        for (std::size_t i = 0; i < r.layers.size(); ++i) {
            const auto& l = r.layers[i];
            j.beginObject().field("layer", l.name).field("repeat", l.repeat).field("found", l.result.found);
            if (!l.error.empty()) j.field("error", l.error);
            if (!l.sameAs.empty()) j.field("same_as", l.sameAs);
            if (l.result.found) {
                const Evaluation& ev = l.result.bestEvaluation;
                j.field("edp_J_s", ev.edp_J_s).field("energy_pJ", ev.energy_pJ).field("cycles", ev.cycles)
                    .field("utilization", ev.utilization);
            }
            j.field("evaluated", l.result.evaluated).field("valid", l.result.valid).field("over_budget", l.result.overBudget)
                .field("over_capacity", l.result.overCapacity).field("below_utilization", l.result.belowUtilization);
            if (!mappingNames[i].empty()) j.field("mapping", mappingNames[i]);
            j.endObject();
        }
        j.endArray();
        j.key("total").beginObject().field("edp_J_s", r.edp_J_s).field("energy_pJ", r.energy_pJ).field("cycles", r.cycles)
            .field("delay_s", r.seconds_delay).field("sum_layer_edp_J_s", r.sumLayerEdp_J_s).field("evaluated", r.evaluated)
            .field("seconds", r.seconds).endObject();
        j.endObject();
        ok = writeText(opt.json, j.str(), err) && ok;
    }
    if (!opt.csv.empty()) {
        std::string csv = "layer,repeat,found,edp_J_s,energy_pJ,cycles,utilization,evaluated\n";
        for (const auto& l : r.layers) {
            const Evaluation& ev = l.result.bestEvaluation;
            csv += l.name + "," + std::to_string(l.repeat) + "," + (l.result.found ? "1" : "0") + "," +
                   (l.result.found ? sci(ev.edp_J_s) + "," + sci(ev.energy_pJ) + "," + std::to_string(ev.cycles) + "," +
                                         std::to_string(ev.utilization)
                                   : std::string(",,,")) +
                   "," + std::to_string(l.result.evaluated) + "\n";
        }
        csv += "total," + std::string(",") + (r.complete ? "1" : "0") + "," + sci(r.edp_J_s) + "," + sci(r.energy_pJ) + "," +
               std::to_string(r.cycles) + ",," + std::to_string(r.evaluated) + "\n";
        ok = writeText(opt.csv, csv, err) && ok;
    }
    if (!ok) return kExitInput;
    return r.complete ? kExitOk : kExitCheckFailed;
}

int runSearchCommand(const SearchCliOptions& opt, std::ostream& out, std::ostream& err)
{
    Project p;
    Architecture arch;
    const ProjectWorkload* layer = nullptr;
    int code = kExitOk;
    if (!loadSearchInput(opt, p, arch, layer, code, err)) return code;
    if (!opt.network.empty()) return runNetworkSearchCommand(opt, p, arch, out, err);
    const auto kind = parseMapspaceKind(opt.mapspaces.front());
    if (!kind) {
        err << "nestor-cli: unknown mapspace '" << opt.mapspaces.front() << "' (pfm, ruby, ruby-s, ruby-t)\n";
        return kExitUsage;
    }
    if (!findSearchAlgorithm(opt.algorithm)) {
        std::string names;
        for (const auto& a : searchAlgorithms()) names += (names.empty() ? "" : ", ") + a.name;
        err << "nestor-cli: unknown algorithm '" << opt.algorithm << "' (" << names << ")\n";
        return kExitUsage;
    }
    SearchOptions so;
    try {
        so = engineSearchOptions(opt);
    } catch (const NestorError& e) {
        err << "nestor-cli: " << e.what() << "\n";
        return kExitUsage;
    }
    // Ctrl-C is handled from here on: while the mapspace is built it stops construction.
    const std::atomic<bool>* cancel = installInterruptHandler();
    std::unique_ptr<Mapspace> space;
    try {
        space = std::make_unique<Mapspace>(layer->workload, arch, *kind,
                                           opt.noConstraints ? MapspaceConstraints{} : p.constraintsFor(layer->workload),
                                           MapspaceOptions{}, cancel);
    } catch (const MapspaceCancelled&) {
        out << "Searched 0 mappings (interrupted while building the mapspace).\nNo valid mapping found.\n";
        return kExitCheckFailed;
    } catch (const NestorError& e) {
        err << opt.project << ": " << e.what() << "\n";
        return kExitInput;
    }
    const MapspaceSize z = space->size();
    if (!opt.quiet)
        err << "Mapspace " << mapspaceKindName(*kind) << " of " << layer->workload.name << ": "
            << sci(static_cast<double>(z.factorizations)) << " factorizations, " << (z.exact ? "" : "at most ")
            << sci(static_cast<double>(z.total)) << " mappings\n";
    ProgressLine progress(err, opt.algorithm, searchMetricName(so.metrics.front()), !opt.quiet);
    SearchResult r;
    try {
        r = runSearch(*space, so, &progress, cancel);
    } catch (const NestorError& e) {  // a search thread failed (out of memory, ...); all threads have stopped
        progress.finish();
        err << "nestor-cli: the search failed: " << e.what() << "\n";
        return kExitCheckFailed;
    }
    progress.finish();

    out << "Searched " << r.evaluated << " mappings (" << r.valid << " valid";
    if (r.overCapacity > 0) out << ", " << r.overCapacity << " over a level's capacity";
    if (r.belowUtilization > 0) out << ", " << r.belowUtilization << " below the minimum utilization";
    if (r.overBudget > 0) out << ", " << r.overBudget << " skipped: exact evaluation over budget";
    out << ") in " << r.seconds << " s" << (r.cancelled ? " (interrupted)" : "") << "; stopped by: " << stopReasonsText(r) << "\n";
    explainEarlyStop(r, so, out);
    if (!r.found) {
        out << "No valid mapping found.\n";
        explainNothingFound(r, *kind, opt.algorithm, out);
        return kExitCheckFailed;
    }
    const Evaluation& ev = r.bestEvaluation;
    warnIfEnergyRankedNothing(so.metrics, ev.energy_pJ, err);
    out << "Best: EDP " << sci(ev.edp_J_s) << " J*s, energy " << sci(ev.energy_pJ) << " pJ, cycles " << ev.cycles
        << ", utilization " << 100.0 * ev.utilization << " %\n";
    out << "Energy-delay Pareto front of the valid mappings evaluated: " << r.energyDelayFront.size() << " mapping"
        << (r.energyDelayFront.size() == 1 ? "" : "s") << " (cycles " << static_cast<std::int64_t>(r.energyDelayFront.front().cycles)
        << " to " << static_cast<std::int64_t>(r.energyDelayFront.back().cycles) << ")\n";

    Mapping best = r.best;
    std::string name = "search-" + mapspaceKindName(*kind) + "-" + opt.algorithm;
    for (int k = 2; p.findMapping(name); ++k) name = "search-" + mapspaceKindName(*kind) + "-" + opt.algorithm + "-" + std::to_string(k);
    best.name = name;
    bool ok = true;
    if (!opt.out.empty()) {
        Project withBest = p;
        withBest.mappings.push_back({layer->workload.name, best, {}});
        ok = writeText(opt.out, writeProject(withBest), err) && ok;
    }
    if (!opt.timeloopOut.empty()) {
        try {
            ok = writeText(opt.timeloopOut, timeloopMappingYaml(best, layer->workload, arch), err) && ok;
        } catch (const NestorError& e) {
            err << "nestor-cli: " << e.what() << "\n";
            ok = false;
        }
    }
    const ResultsMeta meta{p.name, layer->workload.name, best.name, arch.name};
    if (!opt.json.empty()) {
        JsonWriter j;
        j.beginObject()
            .field("mapspace", mapspaceKindName(*kind))
            .field("algorithm", opt.algorithm)
            .field("threads", opt.threads)
            .field("seed", static_cast<std::int64_t>(opt.seed))
            .field("evaluated", r.evaluated)
            .field("valid", r.valid)
            .field("over_budget", r.overBudget)
            .field("over_capacity", r.overCapacity)
            .field("below_utilization", r.belowUtilization)
            .field("seconds", r.seconds)
            .field("interrupted", r.cancelled);
        j.key("curve").beginArray();
        for (const auto& c : r.curve) j.beginObject().field("evaluated", c.evaluated).field("value", c.value).endObject();
        j.endArray();
        // Every valid mapping evaluated that no other beats in both energy and cycles.
        j.key("energy_delay_front").beginArray();
        for (const auto& e : r.energyDelayFront)
            j.beginObject()
                .field("energy_pJ", e.energy_pJ)
                .field("cycles", static_cast<std::int64_t>(e.cycles))
                .field("edp_J_s", e.edp_J_s)
                .field("utilization", e.utilization)
                .field("loop_nest", loopNestText(space->toMapping(e.point), layer->workload, arch))
                .endObject();
        j.endArray().endObject();
        std::string text = j.str();
        // {"search": {...}, "best": <evaluation>}
        ok = writeText(opt.json, "{\n\"search\": " + text + ",\n\"best\": " + evaluationToJson(ev, meta) + "}\n", err) && ok;
    }
    if (!opt.csv.empty()) ok = writeText(opt.csv, evaluationToCsv(ev, meta), err) && ok;
    return ok ? kExitOk : kExitInput;
}

} // namespace nestor::cli
