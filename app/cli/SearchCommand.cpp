#include "SearchCommand.h"

#include "ExitCodes.h"
#include "arch/EnergyModels.h"
#include "io/AtomicFile.h"
#include "io/JsonWriter.h"
#include "io/ProjectYaml.h"
#include "io/ResultsExport.h"
#include "io/TimeloopMappingExport.h"
#include "mapspace/Mapspace.h"
#include "search/SearchAlgorithm.h"

#include <memory>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <unistd.h>

namespace nestor::cli {

namespace {

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
    SearchOptions o;
    o.algorithm = opt.algorithm;
    o.threads = opt.threads;
    o.seed = opt.seed;
    o.metrics = parseSearchMetrics(opt.metrics);
    o.evaluationBudget = opt.budget;
    o.searchSize = opt.searchSize;
    o.timeout = opt.timeout;
    o.victoryCondition = opt.victory;
    return o;
}

int runSearchCommand(const SearchCliOptions& opt, std::ostream& out, std::ostream& err)
{
    Project p;
    Architecture arch;
    const ProjectWorkload* layer = nullptr;
    int code = kExitOk;
    if (!loadSearchInput(opt, p, arch, layer, code, err)) return code;
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
    std::unique_ptr<Mapspace> space;
    try {
        space = std::make_unique<Mapspace>(layer->workload, arch, *kind);
    } catch (const NestorError& e) {
        err << opt.project << ": " << e.what() << "\n";
        return kExitInput;
    }
    const MapspaceSize z = space->size();
    if (!opt.quiet)
        err << "Mapspace " << mapspaceKindName(*kind) << " of " << layer->workload.name << ": "
            << sci(static_cast<double>(z.factorizations)) << " factorizations, " << (z.exact ? "" : "at most ")
            << sci(static_cast<double>(z.total)) << " mappings\n";
    const std::atomic<bool>* cancel = installInterruptHandler();
    ProgressLine progress(err, opt.algorithm, searchMetricName(so.metrics.front()), !opt.quiet);
    const SearchResult r = runSearch(*space, so, &progress, cancel);
    progress.finish();

    out << "Searched " << r.evaluated << " mappings (" << r.valid << " valid) in " << r.seconds << " s"
        << (r.cancelled ? " (interrupted)" : "") << "; stopped by:";
    for (const auto& s : r.stopReasons) out << " " << s;
    out << "\n";
    if (!r.found) {
        out << "No valid mapping found.\n";
        return kExitCheckFailed;
    }
    const Evaluation& ev = r.bestEvaluation;
    out << "Best: EDP " << sci(ev.edp_J_s) << " J*s, energy " << sci(ev.energy_pJ) << " pJ, cycles " << ev.cycles
        << ", utilization " << 100.0 * ev.utilization << " %\n";

    Mapping best = r.best;
    std::string name = "search-" + mapspaceKindName(*kind) + "-" + opt.algorithm;
    for (int k = 2; p.findMapping(name); ++k) name = "search-" + mapspaceKindName(*kind) + "-" + opt.algorithm + "-" + std::to_string(k);
    best.name = name;
    bool ok = true;
    if (!opt.out.empty()) {
        Project withBest = p;
        withBest.mappings.push_back({layer->workload.name, best});
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
            .field("seconds", r.seconds)
            .field("interrupted", r.cancelled);
        j.key("curve").beginArray();
        for (const auto& c : r.curve) j.beginObject().field("evaluated", c.evaluated).field("value", c.value).endObject();
        j.endArray().endObject();
        std::string text = j.str();
        // {"search": {...}, "best": <evaluation>}
        ok = writeText(opt.json, "{\n\"search\": " + text + ",\n\"best\": " + evaluationToJson(ev, meta) + "}\n", err) && ok;
    }
    if (!opt.csv.empty()) ok = writeText(opt.csv, evaluationToCsv(ev, meta), err) && ok;
    return ok ? kExitOk : kExitInput;
}

} // namespace nestor::cli
