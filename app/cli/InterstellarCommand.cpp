#include "InterstellarCommand.h"

#include "CliOptions.h"
#include "ExitCodes.h"
#include "SearchCommand.h"
#include "io/AtomicFile.h"
#include "io/JsonWriter.h"
#include "solvers/interstellar/DataflowConstraints.h"
#include "solvers/interstellar/DataflowStudy.h"
#include "solvers/interstellar/MemorySweep.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <ostream>
#include <tuple>

namespace nestor::cli {

using namespace nestor::interstellar;

std::string dataflowsUsage()
{
    return "Usage: nestor-cli dataflows PROJECT --layer L [options]\n"
           "Interstellar's dataflow study: every single-loop 2-D dataflow U|V of the layer (U across\n"
           "the PE array's X axis, V across Y; every ordered pair of distinct loops of bound > 1),\n"
           "each with its loop blocking optimized by a budgeted search inside that dataflow, ranked\n"
           "by energy; and how many come within 5/10/25/50% of the best (docs/solvers.md).\n"
           "Loops are named as in the paper (B K C X Y FX FY) or as in Nestor (N M C P Q R S).\n"
           "Options:\n"
           "  --layer L              workload to study (default: job workload or the first)\n"
           "  --budget N             evaluated candidates per dataflow (default 2000)\n"
           "  --seed S               search seed (default 1)\n"
           "  --threads T            search threads per dataflow (default 1)\n"
           "  --dataflow U|V         study this dataflow only (repeatable), e.g. --dataflow C|K\n"
           "  --no-replication       only the named loops on each axis (default: other loops may\n"
           "                         fill an axis, the paper's replication)\n"
           "  --mapspace K           pfm (default), ruby, ruby-s or ruby-t\n"
           "  --interstellar-arch    use the paper's hierarchy (DRAM, SRAM, RF per PE, Table 3\n"
           "                         energies) instead of the project's architecture, sized by\n"
           "  --array XxY --rf B --sram B   (defaults 16x16, 512 B, 128K)\n"
           "  --csv FILE, --json FILE  every dataflow: energy, pJ/MAC, cycles, utilization, mapping\n"
           "  --quiet                no progress on stderr\n"
           "The project's keep/bypass constraints apply; its spatial, factor and permutation\n"
           "constraints do not (they describe one dataflow).\n";
}

std::string memsweepUsage()
{
    return "Usage: nestor-cli memsweep PROJECT --layer L [options]\n"
           "Interstellar's memory sizing study: RF per PE and global SRAM sizes (powers of two within\n"
           "the paper's 28 nm Table 3) on DRAM -> SRAM -> PE array of RFs -> MACs; at each point the\n"
           "blocking is re-optimized by a budgeted search inside one dataflow. Reports energy per\n"
           "point and the capacity ratio SRAM / (RF x PEs) (the paper's 4-16x rule).\n"
           "Options:\n"
           "  --layer L              workload (default: job workload or the first)\n"
           "  --rf LIST              RF bytes, e.g. 16,32,64 (default 16,...,512)\n"
           "  --sram LIST            SRAM bytes, K = 1024: 32K,64K (default 32K,...,512K)\n"
           "  --array XxY            PE array (default: the project's MAC mesh)\n"
           "  --dataflow U|V         default C|K (the paper's Fig. 12)\n"
           "  --no-replication, --mapspace K, --budget N (default 1000), --seed S, --threads T\n"
           "  --csv FILE             one row per point\n"
           "  --quiet                no progress on stderr\n";
}

namespace {

struct Args {
    std::string project, layer, csv, json, mapspace = "pfm";
    std::vector<std::string> dataflows;
    long long budget = 0;
    unsigned long long seed = 1;
    int threads = 1;
    bool replication = true, quiet = false, help = false, interstellarArch = false;
    std::string array, rf, sram;
};

long long positive(const std::string& opt, const std::string& v, const std::string& usage)
{
    long long r = 0;
    std::size_t pos = 0;
    try {
        r = std::stoll(v, &pos);
    } catch (const std::exception&) {
        pos = 0;
    }
    if (pos != v.size() || v.empty() || r <= 0) throw UsageError(opt + ": expected a positive integer, got '" + v + "'", usage);
    return r;
}

Args parse(const std::vector<std::string>& a, bool memsweep)
{
    const std::string usage = memsweep ? memsweepUsage() : dataflowsUsage();
    Args r;
    r.budget = memsweep ? 1000 : 2000;
    auto need = [&](std::size_t& i) -> const std::string& {
        if (i + 1 >= a.size()) throw UsageError(a[i] + " needs a value", usage);
        return a[++i];
    };
    for (std::size_t i = 0; i < a.size(); ++i) {
        const std::string& s = a[i];
        if (s == "-h" || s == "--help") r.help = true;
        else if (s == "--layer") r.layer = need(i);
        else if (s == "--budget") r.budget = positive(s, need(i), usage);
        else if (s == "--seed") r.seed = static_cast<unsigned long long>(positive(s, need(i), usage));
        else if (s == "--threads") r.threads = static_cast<int>(std::min(256LL, positive(s, need(i), usage)));
        else if (s == "--dataflow") r.dataflows.push_back(need(i));
        else if (s == "--no-replication") r.replication = false;
        else if (s == "--mapspace") r.mapspace = need(i);
        else if (s == "--csv") r.csv = need(i);
        else if (s == "--json" && !memsweep) r.json = need(i);
        else if (s == "--interstellar-arch" && !memsweep) r.interstellarArch = true;
        else if (s == "--array") r.array = need(i);
        else if (s == "--rf") r.rf = need(i);
        else if (s == "--sram") r.sram = need(i);
        else if (s == "--quiet") r.quiet = true;
        else if (!s.empty() && s[0] == '-') throw UsageError("unknown option '" + s + "'", usage);
        else if (r.project.empty()) r.project = s;
        else throw UsageError("unexpected argument '" + s + "'", usage);
    }
    if (r.help) return r;
    if (r.project.empty()) throw UsageError("no PROJECT given", usage);
    if (memsweep && r.dataflows.size() > 1) throw UsageError("memsweep takes one --dataflow", usage);
    if (!memsweep && !r.interstellarArch && (!r.array.empty() || !r.rf.empty() || !r.sram.empty()))
        throw UsageError("--array, --rf and --sram size the paper's hierarchy: add --interstellar-arch", usage);
    return r;
}

// "16,32,64" or "32K,64K" (K = 1024 bytes) -> bytes.
std::vector<std::int64_t> parseSizes(const std::string& opt, const std::string& text, const std::string& usage)
{
    std::vector<std::int64_t> r;
    std::string cur;
    auto flush = [&]() {
        if (cur.empty()) return;
        std::string v = cur;
        std::int64_t scale = 1;
        if (v.size() > 1 && (v.back() == 'K' || v.back() == 'k')) {
            scale = 1024;
            v.pop_back();
        }
        r.push_back(positive(opt, v, usage) * scale);
        cur.clear();
    };
    for (char c : text) {
        if (c == ',' || c == ' ') flush();
        else cur += c;
    }
    flush();
    if (r.empty()) throw UsageError(opt + ": no size given (e.g. " + opt + " 16,32,64)", usage);
    return r;
}

std::pair<std::int64_t, std::int64_t> parseArray(const std::string& text, const std::string& usage)
{
    const std::size_t x = text.find_first_of("xX");
    if (x == std::string::npos) throw UsageError("--array: expected XxY (e.g. 16x16), got '" + text + "'", usage);
    return {positive("--array", text.substr(0, x), usage), positive("--array", text.substr(x + 1), usage)};
}

std::string fmt(const char* f, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// One line per mapping: LEVEL[temporal loops] x[X loops] y[Y loops], outer to inner.
std::string compactMapping(const Workload& w, const Architecture& a, const Mapping& m)
{
    std::string s;
    auto loops = [&](const std::vector<Loop>& ls) {
        std::string t;
        for (const auto& l : ls)
            if (l.bound > 1) t += (t.empty() ? "" : " ") + w.dimNames[static_cast<std::size_t>(l.dim)] + std::to_string(l.bound);
        return t;
    };
    for (std::size_t i = 0; i < m.levels.size(); ++i) {
        const auto& lm = m.levels[i];
        const std::string t = loops(lm.temporal), x = loops(lm.spatialX), y = loops(lm.spatialY);
        if (t.empty() && x.empty() && y.empty()) continue;
        s += (s.empty() ? "" : " ") + a.levels[i].name + "[" + t + "]";
        if (!y.empty()) s += " y[" + y + "]";
        if (!x.empty()) s += " x[" + x + "]";
    }
    return s;
}

struct Loaded {
    Project project;
    Architecture arch;
    const ProjectWorkload* layer = nullptr;
};

// Reads the project and picks the layer; false after printing why (code set).
bool load(const Args& a, Loaded& l, int& code, std::ostream& err)
{
    SearchCliOptions so;
    so.project = a.project;
    so.layer = a.layer;
    if (!loadSearchInput(so, l.project, l.arch, l.layer, code, err)) {
        if (code == kExitUsage) code = kExitInput;  // an unknown layer is bad input, as for optimize
        return false;
    }
    return true;
}


} // namespace

int runDataflowsCommand(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    Args a;
    std::vector<Dataflow> requested;
    std::optional<MapspaceKind> kind;
    std::pair<std::int64_t, std::int64_t> array{16, 16};
    std::int64_t rf = 512, sram = 128 * 1024;
    try {
        a = parse(argv, false);
        if (a.help) {
            out << dataflowsUsage();
            return kExitOk;
        }
        for (const auto& t : a.dataflows) {
            try {
                requested.push_back(parseDataflow(t, "--dataflow"));
            } catch (const NestorError& e) {
                throw UsageError(e.what(), dataflowsUsage());
            }
        }
        kind = parseMapspaceKind(a.mapspace);
        if (!kind) throw UsageError("--mapspace: unknown mapspace '" + a.mapspace + "'", dataflowsUsage());
        if (!a.array.empty()) array = parseArray(a.array, dataflowsUsage());
        if (!a.rf.empty()) rf = parseSizes("--rf", a.rf, dataflowsUsage()).front();
        if (!a.sram.empty()) sram = parseSizes("--sram", a.sram, dataflowsUsage()).front();
    } catch (const UsageError& e) {
        err << "nestor-cli: " << e.what() << "\n\n" << e.usage();
        return kExitUsage;
    }
    Loaded l;
    int code = kExitOk;
    if (!load(a, l, code, err)) return code;
    const Workload& w = l.layer->workload;
    Architecture arch = l.arch;
    try {
        if (a.interstellarArch) {
            checkSweepSizes({rf}, false, "--rf");
            checkSweepSizes({sram}, true, "--sram");
            arch = interstellarArchitecture(array.first, array.second, rf, sram);
        }
    } catch (const NestorError& e) {
        err << "nestor-cli: " << e.what() << "\n";
        return kExitUsage;
    }
    const std::vector<Dataflow> dataflows = requested.empty() ? enumerateDataflows(w) : requested;
    if (dataflows.empty()) {
        err << "nestor-cli: layer " << w.name << " has fewer than two loops of bound > 1: no 2-D dataflow\n";
        return kExitInput;
    }

    const std::atomic<bool>* cancel = installInterruptHandler();
    StudyOptions o;
    o.budget = a.budget;
    o.seed = a.seed;
    o.threads = a.threads;
    o.kind = *kind;
    o.replication = a.replication;
    o.base = a.interstellarArch ? MapspaceConstraints{} : studyBaseConstraints(l.project.constraintsFor(w));
    o.cancel = cancel;
    if (!a.quiet)
        o.progress = [&err](int i, int n, const std::string& t) { err << "  [" << (i + 1) << "/" << n << "] " << t << "\n" << std::flush; };
    DataflowStudy s;
    try {
        s = studyDataflows(w, arch, dataflows, o);
    } catch (const NestorError& e) {
        err << a.project << ": " << e.what() << "\n";
        return kExitInput;
    }

    out << "Dataflows of " << w.name << " (" << w.macs() << " MACs) on " << arch.name << ", mapspace " << mapspaceKindName(*kind)
        << ", " << (a.replication ? "replication" : "no replication") << ", budget " << a.budget << " per dataflow, seed "
        << a.seed << (s.cancelled ? " (interrupted)" : "") << "\n";
    char line[1024];
    std::snprintf(line, sizeof line, "%-4s %-8s %-10s %-18s %12s %9s %12s %7s %8s  %s\n", "rank", "dataflow", "x best", "realized",
                  "energy_pJ", "pJ/MAC", "cycles", "util%", "valid", "name");
    out << line;
    int rank = 0;
    for (const auto& r : s.rows) {
        if (!r.found) {
            std::snprintf(line, sizeof line, "%-4s %-8s %s\n", "-", r.text.c_str(), ("no result: " + r.error).c_str());
            out << line;
            continue;
        }
        const Evaluation& ev = r.eval;
        std::snprintf(line, sizeof line, "%-4d %-8s %-10s %-18s %12.5g %9.4f %12lld %7.2f %8lld  %s\n", ++rank, r.text.c_str(),
                      fmt("%.3f", ev.energy_pJ / s.summary.bestEnergy_pJ).c_str(), r.realized.text().c_str(), ev.energy_pJ,
                      ev.pJ_per_mac, static_cast<long long>(ev.cycles), 100.0 * ev.utilization, static_cast<long long>(r.valid),
                      r.realized.name.c_str());
        out << line;
    }
    out << s.summary.text() << " (" << fmt("%.1f", s.seconds) << " s)\n";
    bool pfmLimited = false;
    for (const auto& r : s.rows) pfmLimited = pfmLimited || r.error.find("pfm mapspace") != std::string::npos;
    if (pfmLimited)
        out << "  a loop whose bound has no divisor >= 2 that fits its axis cannot be unrolled in the pfm mapspace; "
               "--mapspace ruby-s lets it take part of the axis (slower)\n";

    if (!a.csv.empty()) {
        std::string csv = "rank,dataflow,found,realized,name,energy_pJ,pJ_per_mac,over_best,cycles,utilization,evaluated,valid,mapping,error\n";
        rank = 0;
        for (const auto& r : s.rows) {
            const Evaluation& ev = r.eval;
            csv += (r.found ? std::to_string(++rank) : std::string()) + "," + r.text + "," + (r.found ? "1" : "0") + ",";
            if (r.found)
                csv += r.realized.text() + "," + r.realized.name + "," + fmt("%.6g", ev.energy_pJ) + "," + fmt("%.6g", ev.pJ_per_mac) + "," +
                       fmt("%.6g", ev.energy_pJ / s.summary.bestEnergy_pJ) + "," + std::to_string(ev.cycles) + "," +
                       fmt("%.6g", ev.utilization) + "," + std::to_string(r.evaluated) + "," + std::to_string(r.valid) + "," +
                       compactMapping(w, arch, r.best) + ",\n";
            else {
                std::string e = r.error;
                std::replace(e.begin(), e.end(), ',', ';');
                std::replace(e.begin(), e.end(), '\n', ' ');
                csv += ",,,,,,," + std::to_string(r.evaluated) + "," + std::to_string(r.valid) + ",," + e + "\n";
            }
        }
        try {
            writeFileAtomically(a.csv, csv);
        } catch (const std::exception& e) {
            err << "nestor-cli: cannot write " << a.csv << ": " << e.what() << "\n";
            return kExitInput;
        }
    }
    if (!a.json.empty()) {
        JsonWriter j;
        j.beginObject().field("project", a.project).field("command", "dataflows").field("layer", w.name);
        j.field("architecture", arch.name).field("mapspace", mapspaceKindName(*kind)).field("replication", a.replication);
        j.field("budget", static_cast<std::int64_t>(a.budget)).field("seed", static_cast<std::int64_t>(a.seed));
        j.field("interrupted", s.cancelled).field("seconds", s.seconds);
        j.key("summary").beginObject().field("searched", s.summary.searched).field("found", s.summary.found);
        j.field("best", s.summary.bestText).field("best_energy_pJ", s.summary.bestEnergy_pJ);
        j.field("worst_over_best", s.summary.worstOverBest).key("within").beginArray();
        for (const auto& [t, n] : s.summary.within) j.beginObject().field("fraction", t).field("count", n).endObject();
        j.endArray().field("text", s.summary.text()).endObject();
        j.key("dataflows").beginArray();
        for (const auto& r : s.rows) {
            j.beginObject().field("dataflow", r.text).field("dataflow_nestor", dataflowText(r.dataflow, false)).field("found", r.found);
            j.field("evaluated", r.evaluated).field("valid", r.valid);
            if (r.found) {
                j.field("realized", r.realized.text()).field("name", r.realized.name).field("name_reason", r.realized.reason);
                j.field("energy_pJ", r.eval.energy_pJ).field("pJ_per_mac", r.eval.pJ_per_mac);
                j.field("cycles", r.eval.cycles).field("utilization", r.eval.utilization);
                j.field("mapping", compactMapping(w, arch, r.best));
            } else {
                j.field("error", r.error);
            }
            j.endObject();
        }
        j.endArray().endObject();
        try {
            writeFileAtomically(a.json, j.str());
        } catch (const std::exception& e) {
            err << "nestor-cli: cannot write " << a.json << ": " << e.what() << "\n";
            return kExitInput;
        }
    }
    if (s.cancelled) return 130;
    return s.summary.found > 0 ? kExitOk : kExitCheckFailed;
}

int runMemsweepCommand(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    Args a;
    MemorySweepOptions o;
    std::optional<MapspaceKind> kind;
    try {
        a = parse(argv, true);
        if (a.help) {
            out << memsweepUsage();
            return kExitOk;
        }
        if (!a.rf.empty()) o.rfBytes = parseSizes("--rf", a.rf, memsweepUsage());
        if (!a.sram.empty()) o.sramBytes = parseSizes("--sram", a.sram, memsweepUsage());
        checkSweepSizes(o.rfBytes, false, "--rf");
        checkSweepSizes(o.sramBytes, true, "--sram");
        if (!a.dataflows.empty()) o.dataflow = parseDataflow(a.dataflows.front(), "--dataflow");
        kind = parseMapspaceKind(a.mapspace);
        if (!kind) throw UsageError("--mapspace: unknown mapspace '" + a.mapspace + "'", memsweepUsage());
    } catch (const UsageError& e) {
        err << "nestor-cli: " << e.what() << "\n\n" << e.usage();
        return kExitUsage;
    } catch (const NestorError& e) {
        err << "nestor-cli: " << e.what() << "\n\n" << memsweepUsage();
        return kExitUsage;
    }
    Loaded l;
    int code = kExitOk;
    if (!load(a, l, code, err)) return code;
    const Workload& w = l.layer->workload;
    o.meshX = l.arch.compute.meshX;
    o.meshY = l.arch.compute.meshY();
    if (!a.array.empty()) {
        try {
            std::tie(o.meshX, o.meshY) = parseArray(a.array, memsweepUsage());
        } catch (const UsageError& e) {
            err << "nestor-cli: " << e.what() << "\n\n" << e.usage();
            return kExitUsage;
        }
    }
    const std::atomic<bool>* cancel = installInterruptHandler();
    o.search.budget = a.budget;
    o.search.seed = a.seed;
    o.search.threads = a.threads;
    o.search.kind = *kind;
    o.search.replication = a.replication;
    o.search.cancel = cancel;
    if (!a.quiet)
        o.search.progress = [&err](int i, int n, const std::string& t) {
            err << "  [" << (i + 1) << "/" << n << "] " << t << "\n" << std::flush;
        };
    MemorySweep s;
    try {
        s = sweepMemory(w, o);
    } catch (const NestorError& e) {
        err << a.project << ": " << e.what() << "\n";
        return kExitInput;
    }

    const std::int64_t pes = o.meshX * o.meshY;
    out << "Memory sweep of " << w.name << " (" << w.macs() << " MACs): DRAM -> SRAM -> " << o.meshX << "x" << o.meshY
        << " PEs with an RF each, Interstellar 28 nm Table 3 energies, dataflow " << dataflowText(w, o.dataflow) << ", "
        << (a.replication ? "replication" : "no replication") << ", mapspace " << mapspaceKindName(*kind) << ", budget " << a.budget
        << " per point, seed " << a.seed << (s.cancelled ? " (interrupted)" : "") << "\n";
    char line[1024];
    std::snprintf(line, sizeof line, "%7s %8s %7s %8s %10s %10s %12s %9s %6s %6s %6s %6s %12s %7s  %s\n", "RF_B", "SRAM_KiB",
                  "RF_pJ", "SRAM_pJ", "SRAM/RFxPE", "SRAM/RF", "energy_pJ", "pJ/MAC", "DRAM%", "SRAM%", "RF%", "MAC%", "cycles", "util%",
                  "realized");
    out << line;
    for (std::size_t i = 0; i < s.points.size(); ++i) {
        const MemoryPoint& p = s.points[i];
        if (!p.result.found) {
            std::snprintf(line, sizeof line, "%7lld %8lld %s\n", static_cast<long long>(p.rfBytes),
                          static_cast<long long>(p.sramBytes / 1024), ("no result: " + p.result.error).c_str());
            out << line;
            continue;
        }
        const Evaluation& ev = p.result.eval;
        const double e = ev.energy_pJ;
        std::snprintf(line, sizeof line, "%7lld %8lld %7.3f %8.3f %10.3g %10.0f %12.5g %9.4f %6.1f %6.1f %6.1f %6.1f %12lld %7.2f  %s%s\n",
                      static_cast<long long>(p.rfBytes), static_cast<long long>(p.sramBytes / 1024), p.rfAccess_pJ, p.sramAccess_pJ,
                      p.capacityRatio, p.perInstanceRatio, e, ev.pJ_per_mac, 100 * p.dram_pJ / e, 100 * p.sram_pJ / e,
                      100 * p.rf_pJ / e, 100 * p.mac_pJ / e, static_cast<long long>(ev.cycles), 100.0 * ev.utilization,
                      p.result.realized.text().c_str(), static_cast<int>(i) == s.best ? "  <- best" : "");
        out << line;
    }
    if (s.best >= 0) {
        const MemoryPoint& b = s.points[static_cast<std::size_t>(s.best)];
        out << "best: RF " << b.rfBytes << " B, SRAM " << b.sramBytes / 1024 << " KiB, " << fmt("%.4f", b.result.eval.pJ_per_mac)
            << " pJ/MAC; SRAM / (RF x " << pes << " PEs) = " << fmt("%.3g", b.capacityRatio) << " (the paper's rule: about 4-16)\n";
        // Per RF size, the best SRAM: how the optimum moves with the ratio.
        for (std::int64_t rf : o.rfBytes) {
            const MemoryPoint* bestHere = nullptr;
            for (const auto& p : s.points)
                if (p.rfBytes == rf && p.result.found && (!bestHere || p.result.eval.energy_pJ < bestHere->result.eval.energy_pJ))
                    bestHere = &p;
            if (bestHere)
                out << "  RF " << rf << " B: best SRAM " << bestHere->sramBytes / 1024 << " KiB, ratio "
                    << fmt("%.3g", bestHere->capacityRatio) << ", " << fmt("%.4f", bestHere->result.eval.pJ_per_mac) << " pJ/MAC\n";
        }
    }
    out << "(" << fmt("%.1f", s.seconds) << " s)\n";
    if (!a.csv.empty()) {
        std::string csv = "rf_bytes,sram_bytes,rf_access_pJ,sram_access_pJ,capacity_ratio,per_instance_ratio,found,energy_pJ,pJ_per_mac,"
                          "dram_pJ,sram_pJ,rf_pJ,mac_pJ,cycles,utilization,realized,best,mapping\n";
        for (std::size_t i = 0; i < s.points.size(); ++i) {
            const MemoryPoint& p = s.points[i];
            csv += std::to_string(p.rfBytes) + "," + std::to_string(p.sramBytes) + "," + fmt("%.6g", p.rfAccess_pJ) + "," +
                   fmt("%.6g", p.sramAccess_pJ) + "," + fmt("%.6g", p.capacityRatio) + "," + fmt("%.6g", p.perInstanceRatio) + "," +
                   (p.result.found ? "1" : "0") + ",";
            if (p.result.found) {
                const Evaluation& ev = p.result.eval;
                csv += fmt("%.6g", ev.energy_pJ) + "," + fmt("%.6g", ev.pJ_per_mac) + "," + fmt("%.6g", p.dram_pJ) + "," +
                       fmt("%.6g", p.sram_pJ) + "," + fmt("%.6g", p.rf_pJ) + "," + fmt("%.6g", p.mac_pJ) + "," + std::to_string(ev.cycles) +
                       "," + fmt("%.6g", ev.utilization) + "," + p.result.realized.text() + "," +
                       (static_cast<int>(i) == s.best ? "1" : "0") + "," +
                       compactMapping(w, interstellarArchitecture(o.meshX, o.meshY, p.rfBytes, p.sramBytes), p.result.best) + "\n";
            } else {
                csv += ",,,,,,,,,0,\n";
            }
        }
        try {
            writeFileAtomically(a.csv, csv);
        } catch (const std::exception& e) {
            err << "nestor-cli: cannot write " << a.csv << ": " << e.what() << "\n";
            return kExitInput;
        }
    }
    if (s.cancelled) return 130;
    return s.best >= 0 ? kExitOk : kExitCheckFailed;
}

} // namespace nestor::cli
