#include "OptimizeCommand.h"

#include "ExitCodes.h"
#include "io/TextFormat.h"
#include "SearchCommand.h"
#include "arch/EnergyModels.h"
#include "io/AtomicFile.h"
#include "io/JsonWriter.h"
#include "io/ProjectYaml.h"
#include "solvers/thistle/CodesignCsv.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <stdexcept>

namespace nestor::cli {

using namespace nestor::thistle;

std::string optimizeUsage()
{
    return "Usage: nestor-cli optimize PROJECT (--layer L | --network N) [options]\n"
           "Thistle dataflow optimization (Eq. 3) on the project's architecture, which must be\n"
           "DRAM -> SRAM -> one register file per PE -> MAC (e.g. examples/thistle/*.yaml).\n"
           "Every pruned loop permutation is a geometric program solved with Ipopt; the best are\n"
           "rounded to integer tile sizes and every candidate is re-scored by Nestor's cost model.\n"
           "Options:\n"
           "  --layer L              workload to optimize (default: job workload or the first)\n"
           "  --network N            every layer of project network N, one after the other\n"
           "  --objective O          energy (default) or delay\n"
           "  --json FILE            per layer: architecture, mapping, pJ_per_mac, cycles, area\n"
           "  --csv FILE             one row per layer (and design): the figures of the table\n"
           "  --top N                relaxed programs rounded (default 32)\n"
           "  --candidates N         rounded candidates re-scored per program (default 8, and ties)\n"
           "  --divisors N           divisors tried per tile level when rounding (the paper's n, default 3)\n"
           "  --climb N              best rounded designs the cost-model hill climb starts from\n"
           "                         (default 4; 0 = the paper's rounding alone)\n"
           "  --climb-evaluations N  cost-model evaluations the climb may spend per layer (default 20000)\n"
           "  --verbose-solver       show Ipopt's own output (silent by default)\n"
           "  --quiet                no progress on stderr\n";
}

std::string codesignUsage()
{
    return "Usage: nestor-cli codesign PROJECT (--network N | --layer L) --area-um2 A [options]\n"
           "Thistle architecture-dataflow co-design (Eq. 5): registers per PE, SRAM words and PE\n"
           "count free under an area budget (Table III 45 nm areas and energies), per layer.\n"
           "Options:\n"
           "  --network N | --layer L  the layers to design for\n"
           "  --area-um2 A             area budget in um^2\n"
           "  --per-layer              one architecture per layer (default)\n"
           "  --single-arch            also: the architecture of the layer-wise design of the\n"
           "                           dominant layer (most energy, or most cycles for delay),\n"
           "                           with the dataflow of every layer optimized for it\n"
           "  --objective O            energy (default) or delay\n"
           "  --json FILE, --csv FILE, --top N, --candidates N, --divisors N, --climb N,\n"
           "  --climb-evaluations N, --verbose-solver, --quiet\n"
           "                           as for optimize\n";
}

namespace {

struct Args {
    std::string project, layer, network, json, csv, objective = "energy";
    double area = 0;
    bool singleArch = false, verbose = false, quiet = false, help = false;
    int top = OptimizeOptions{}.topPermutations, candidates = OptimizeOptions{}.candidatesPerPermutation,
        divisors = RoundingOptions{}.divisorsPerLevel, climbStarts = OptimizeOptions{}.polishStarts,
        climbEvaluations = OptimizeOptions{}.polishEvaluations;
};

Args parse(const std::vector<std::string>& a, bool codesign)
{
    const std::string usage = codesign ? codesignUsage() : optimizeUsage();
    Args r;
    auto need = [&](std::size_t& i) -> const std::string& {
        if (i + 1 >= a.size()) throw UsageError(a[i] + " needs a value", usage);
        return a[++i];
    };
    auto number = [&](const std::string& opt, const std::string& v) {
        try {
            std::size_t pos = 0;
            const double d = std::stod(v, &pos);
            if (pos != v.size() || !(d > 0)) throw std::invalid_argument(v);
            return d;
        } catch (const std::exception&) {
            throw UsageError(opt + ": expected a positive number, got '" + v + "'", usage);
        }
    };
    auto count = [&](const std::string& opt, const std::string& v) {
        std::size_t pos = 0;
        long long n = -1;
        try {
            n = std::stoll(v, &pos);
        } catch (const std::exception&) {
        }
        if (n < 0 || pos != v.size()) throw UsageError(opt + ": expected a whole number >= 0, got '" + v + "'", usage);
        return static_cast<int>(std::min<long long>(n, 100000000));
    };
    for (std::size_t i = 0; i < a.size(); ++i) {
        const std::string& s = a[i];
        if (s == "-h" || s == "--help") r.help = true;
        else if (s == "--layer") r.layer = need(i);
        else if (s == "--network") r.network = need(i);
        else if (s == "--objective") r.objective = need(i);
        else if (s == "--json") r.json = need(i);
        else if (s == "--csv") r.csv = need(i);
        else if (s == "--area-um2" && codesign) r.area = number(s, need(i));
        else if (s == "--per-layer" && codesign) r.singleArch = false;
        else if (s == "--single-arch" && codesign) r.singleArch = true;
        else if (s == "--top") r.top = static_cast<int>(std::min(1e6, number(s, need(i))));
        else if (s == "--candidates") r.candidates = static_cast<int>(std::min(1e6, number(s, need(i))));
        else if (s == "--divisors") r.divisors = static_cast<int>(std::min(64.0, number(s, need(i))));
        else if (s == "--climb") r.climbStarts = count(s, need(i));
        else if (s == "--climb-evaluations") r.climbEvaluations = count(s, need(i));
        else if (s == "--verbose-solver") r.verbose = true;
        else if (s == "--quiet") r.quiet = true;
        else if (!s.empty() && s[0] == '-') throw UsageError("unknown option '" + s + "'", usage);
        else if (r.project.empty()) r.project = s;
        else throw UsageError("unexpected argument '" + s + "'", usage);
    }
    if (r.help) return r;
    if (r.project.empty()) throw UsageError("no PROJECT given", usage);
    if (r.objective != "energy" && r.objective != "delay")
        throw UsageError("--objective: expected energy or delay, got '" + r.objective + "'", usage);
    if (codesign && !(r.area > 0)) throw UsageError("--area-um2 is required", usage);
    if (!r.network.empty() && !r.layer.empty()) throw UsageError("give --network or --layer, not both", usage);
    return r;
}

using text::padded;

std::string tilesText(const Workload& w, const SolvedCandidate& c)
{
    // Per level: the loops of the mapping, outer to inner.
    static const char* names[] = {"D", "S", "R"};
    std::string s;
    for (std::size_t l = 0; l < c.mapping.levels.size(); ++l) {
        const auto& lm = c.mapping.levels[l];
        s += (l ? " " : "") + std::string(names[std::min<std::size_t>(l, 2)]) + ":";
        for (const auto& lp : lm.temporal) s += w.dimNames[static_cast<std::size_t>(lp.dim)] + std::to_string(lp.bound) + ",";
        for (const auto& lp : lm.spatialX) s += w.dimNames[static_cast<std::size_t>(lp.dim)] + std::to_string(lp.bound) + "x,";
        if (s.back() == ',') s.pop_back();
    }
    return s;
}

void printTable(std::ostream& out, const std::string& title, const std::vector<std::pair<const Workload*, LayerOptimization>>& rows)
{
    out << title << "\n";
    out << "layer    permutation                      loops (D: DRAM, S: SRAM, x = across PEs, R: registers)   R     S       PEs  area_um2     solver_pJ/MAC model_pJ/MAC gap%   cycles\n";
    for (const auto& [w, r] : rows) {
        char line[1024];
        if (!r.ok) {
            std::snprintf(line, sizeof line, "%-8s %s\n", r.layer.c_str(), ("no result: " + r.error).c_str());
            out << line;
            continue;
        }
        const auto& b = r.best;
        const double macs = static_cast<double>(b.eval.macs);
        const double solver = b.solverEnergy_pJ / macs, model = b.eval.pJ_per_mac;
        std::snprintf(line, sizeof line, "%-8s %-32s %-58s %-5lld %-7lld %-4lld %-12s %-13s %-12s %-6s %lld\n", r.layer.c_str(),
                      b.perm.text(*w).c_str(), tilesText(*w, b).c_str(), static_cast<long long>(b.registers),
                      static_cast<long long>(b.sramWords), static_cast<long long>(b.pes), padded(b.area_um2, 0).c_str(),
                      padded(solver, 3).c_str(), padded(model, 3).c_str(), padded(100.0 * (solver - model) / model, 1).c_str(),
                      static_cast<long long>(b.eval.cycles));
        out << line;
    }
}

void jsonLayer(JsonWriter& j, const Workload& w, const LayerOptimization& r)
{
    j.beginObject().field("layer", r.layer).field("ok", r.ok);
    if (!r.ok) {
        j.field("error", r.error).endObject();
        return;
    }
    const auto& b = r.best;
    j.field("permutation", b.perm.text(w));
    j.field("permutations_before_pruning", static_cast<std::int64_t>(r.permutationsBefore));
    j.field("permutations", r.permutations).field("programs_solved", r.programsSolved);
    j.field("candidates_evaluated", r.candidatesEvaluated);
    j.field("polish_evaluations", r.polishEvaluations).field("polish_steps", r.polishSteps).field("design_from", designOriginName(r.origin));
    j.field("seconds", r.seconds);
    j.key("architecture").beginObject().field("name", b.arch.name).field("registers_per_pe", b.registers);
    j.field("sram_words", b.sramWords).field("pes", b.pes).field("area_um2", b.arch.area_um2());
    j.key("levels").beginArray();
    for (const auto& l : b.arch.levels) {
        j.beginObject().field("name", l.name).field("technology", l.technology).key("size_words");
        if (l.size_words) j.value(*l.size_words);
        else j.null();
        j.field("instances", l.instances).field("energy_pJ_per_access", l.energy.read_pJ).field("area_um2", l.area_um2).endObject();
    }
    j.endArray();
    j.key("compute").beginObject().field("instances", b.arch.compute.instances).field("mac_energy_pJ", b.arch.compute.mac_energy_pJ);
    j.field("area_um2", b.arch.compute.area_um2).endObject();
    j.endObject();
    j.key("mapping").beginArray();
    for (std::size_t l = 0; l < b.mapping.levels.size(); ++l) {
        const auto& lm = b.mapping.levels[l];
        j.beginObject().field("level", b.arch.levels[l].name).key("temporal").beginArray();
        for (const auto& lp : lm.temporal) j.beginArray().value(w.dimNames[static_cast<std::size_t>(lp.dim)]).value(lp.bound).endArray();
        j.endArray().key("spatial_x").beginArray();
        for (const auto& lp : lm.spatialX) j.beginArray().value(w.dimNames[static_cast<std::size_t>(lp.dim)]).value(lp.bound).endArray();
        j.endArray().endObject();
    }
    j.endArray();
    const double macs = static_cast<double>(b.eval.macs);
    j.field("macs", b.eval.macs).field("pJ_per_mac", b.eval.pJ_per_mac).field("cycles", b.eval.cycles).field("area_um2", b.eval.area_um2);
    j.field("utilization", b.eval.utilization);
    j.field("solver_pJ_per_mac", b.solverEnergy_pJ / macs).field("solver_cycles", b.solverCycles);
    j.field("relaxed_objective", b.relaxedObjective);
    j.endObject();
}

} // namespace

int runOptimizeCommand(const std::vector<std::string>& argv, bool codesign, std::ostream& out, std::ostream& err)
{
    Args a;
    try {
        a = parse(argv, codesign);
    } catch (const UsageError& e) {
        err << "nestor-cli: " << e.what() << "\n\n" << e.usage();
        return kExitUsage;
    }
    if (a.help) {
        out << (codesign ? codesignUsage() : optimizeUsage());
        return kExitOk;
    }
    Project p;
    Architecture arch;
    try {
        p = readProject(a.project);
        arch = p.architecture;
        applyEnergyModel(arch, p.energyModel);
        checkThistleArchitecture(arch);
    } catch (const NestorError& e) {
        err << a.project << ": " << e.what() << "\n";
        return kExitInput;
    }
    std::vector<const ProjectWorkload*> layers;
    if (!a.network.empty()) {
        const ProjectNetwork* net = p.findNetwork(a.network);
        if (!net) {
            err << a.project << ": no network '" << a.network << "'\n";
            return kExitInput;
        }
        layers = p.distinctLayers(*net);
    } else {
        const std::string name = !a.layer.empty() ? a.layer : p.jobWorkload;
        const ProjectWorkload* pw = name.empty() ? (p.workloads.empty() ? nullptr : &p.workloads.front()) : p.findWorkload(name);
        if (!pw) {
            err << a.project << ": no workload '" << name << "'\n";
            return kExitInput;
        }
        layers.push_back(pw);
    }

    const std::atomic<bool>* cancel = installInterruptHandler();
    OptimizeOptions o;
    o.objective = a.objective == "delay" ? Objective::Delay : Objective::Energy;
    o.codesign = codesign;
    o.area_um2 = a.area;
    o.topPermutations = a.top;
    o.candidatesPerPermutation = a.candidates;
    o.rounding.divisorsPerLevel = std::max(1, a.divisors);
    o.polishStarts = a.climbStarts;
    o.polishEvaluations = a.climbEvaluations;
    o.gp.verbose = a.verbose;
    o.cancel = cancel;
    if (!a.quiet) o.progress = [&err](const std::string& s) { err << "  " << s << "\n" << std::flush; };

    NetworkCodesignOptions no;
    no.optimize = o;
    no.fixedArchitecture = !codesign;
    no.layerwise = codesign;
    no.singleArchitecture = codesign && a.singleArch;
    std::vector<const Workload*> workloads;
    for (const ProjectWorkload* pw : layers) workloads.push_back(&pw->workload);
    NetworkCodesign solved;
    try {
        solved = codesignNetwork(workloads, arch, no);
    } catch (const NestorError& e) {
        err << a.project << ": " << e.what() << "\n";
        return kExitInput;
    }
    const bool cancelled = solved.cancelled;
    auto withLayers = [&](const std::vector<LayerOptimization>& rs) {
        std::vector<std::pair<const Workload*, LayerOptimization>> rows;
        for (std::size_t i = 0; i < rs.size(); ++i) rows.emplace_back(workloads[i], rs[i]);
        return rows;
    };
    const std::vector<std::pair<const Workload*, LayerOptimization>> results = withLayers(codesign ? solved.layerwise : solved.fixed);
    const std::vector<std::pair<const Workload*, LayerOptimization>> single = withLayers(solved.single);
    const std::string& singleFrom = solved.singleFrom;
    const std::string what = codesign ? "layer-wise co-design, area budget " + padded(a.area, 0) + " um^2" : "dataflow optimization on " + arch.name;
    printTable(out, what + " (objective " + a.objective + ")", results);
    if (!solved.singleError.empty()) err << "nestor-cli: " << solved.singleError << "; no single architecture\n";
    if (!single.empty()) {
        out << "\n";
        printTable(out, "single architecture: the design of " + singleFrom + " (objective " + a.objective + ")", single);
    }
    if (!a.csv.empty()) {
        try {
            writeFileAtomically(a.csv, codesignCsv(workloads, solved));
        } catch (const std::exception& e) {
            err << "nestor-cli: cannot write " << a.csv << ": " << e.what() << "\n";
            return kExitInput;
        }
    }

    bool allOk = !results.empty();
    for (const auto& [w, r] : results) allOk = allOk && r.ok;
    for (const auto& [w, r] : results)
        if (!r.ok) err << "nestor-cli: " << r.layer << ": " << r.error << "\n";

    if (!a.json.empty()) {
        JsonWriter j;
        j.beginObject().field("project", a.project).field("command", std::string(codesign ? "codesign" : "optimize"));
        j.field("objective", a.objective).field("interrupted", cancelled);
        if (codesign) j.field("area_budget_um2", a.area);
        j.key("layers").beginArray();
        for (const auto& [w, r] : results) jsonLayer(j, *w, r);
        j.endArray();
        if (!single.empty()) {
            j.field("single_architecture_from", singleFrom).key("single_architecture").beginArray();
            for (const auto& [w, r] : single) jsonLayer(j, *w, r);
            j.endArray();
        }
        j.endObject();
        try {
            writeFileAtomically(a.json, j.str());
        } catch (const std::exception& e) {
            err << "nestor-cli: cannot write " << a.json << ": " << e.what() << "\n";
            return kExitInput;
        }
    }
    if (cancelled) return 130;
    return allOk ? kExitOk : kExitCheckFailed;
}

} // namespace nestor::cli
