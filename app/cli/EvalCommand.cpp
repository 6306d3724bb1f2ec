#include "EvalCommand.h"

#include "ExitCodes.h"
#include "arch/EnergyModels.h"
#include "io/LoopNestText.h"
#include "io/ProjectYaml.h"
#include "io/ResultsExport.h"
#include "io/TextFormat.h"
#include "model/Model.h"

#include <cstdio>
#include <sstream>

namespace nestor::cli {

namespace {

using text::fixed;
using text::grouped;

std::string sci(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3e", v);
    return buf;
}

std::string energyText(double pJ)
{
    if (pJ >= 1e6) return fixed(pJ / 1e6, 3) + " uJ (" + fixed(pJ, 2) + " pJ)";
    return fixed(pJ, 3) + " pJ";
}

void printSummary(std::ostream& out, const Project& p, const ProjectMapping& pm, const Workload& w, const Evaluation& ev)
{
    out << "Project       " << (p.name.empty() ? p.path : p.name) << "\n";
    out << "Workload      " << w.name << " (" << grouped(w.macs()) << " MACs)\n";
    out << "Mapping       " << pm.mapping.name << "\n";
    out << "Architecture  " << (p.architecture.name.empty() ? "(unnamed)" : p.architecture.name) << "\n\n";
    if (ev.exactBudgetExceeded) {
        out << "No figures: the exact evaluation stopped at its budget (raise --exact-memory-mb or --exact-steps):\n";
        for (const auto& d : ev.errors) out << "  " << d.toString() << "\n";
        return;
    }
    if (!ev.valid) {
        out << "The mapping is INVALID:\n";
        for (const auto& d : ev.errors) out << "  " << d.toString() << "\n";
        return;
    }
    const std::int64_t macUnits = p.architecture.compute.instances;
    out << "Cycles        " << grouped(ev.cycles) << " (compute " << grouped(ev.compute_cycles) << ")\n";
    out << "Utilization   " << fixed(100.0 * ev.utilization, 2) << " % (" << ev.utilized_macs << " of " << macUnits
        << " MACs used)\n";
    out << "Energy        " << energyText(ev.energy_pJ) << " (compute " << fixed(ev.compute_energy_pJ, 2) << " pJ)\n";
    out << "pJ/MAC        " << fixed(ev.pJ_per_mac, 4) << "\n";
    out << "EDP           " << sci(ev.edp_J_s) << " J*s\n";
    out << "Area          " << fixed(ev.area_um2, 1) << " um^2 (" << fixed(ev.area_um2 / 1e6, 4) << " mm^2)\n\n";

    std::vector<std::vector<std::string>> rows;
    rows.push_back({"Level", "Tensor", "Capacity", "Instances", "Reads", "Fills", "Updates", "Energy pJ"});
    for (const auto& l : ev.levels) {
        for (std::size_t t = 0; t < l.tensors.size(); ++t) {
            const TensorLevelStats& s = l.tensors[t];
            if (!s.kept) continue;
            rows.push_back({l.name, t < ev.tensorNames.size() ? ev.tensorNames[t] : "?", grouped(s.utilized_capacity),
                            grouped(s.utilized_instances), grouped(s.reads), grouped(s.fills), grouped(s.updates),
                            fixed(s.energy_pJ, 2)});
        }
        rows.push_back({l.name, "(level)", grouped(l.capacity_used_words), grouped(l.utilized_instances),
                        "cycles " + grouped(l.cycles), "leak " + fixed(l.leakage_energy_pJ, 2) + " pJ",
                        l.slowdown < 1.0 ? "throttle " + fixed(l.slowdown, 3) : "", fixed(l.energy_pJ, 2)});
    }
    std::vector<std::size_t> width(rows[0].size(), 0);
    for (const auto& r : rows)
        for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        std::string line;
        for (std::size_t c = 0; c < rows[i].size(); ++c) {
            const std::string pad(width[c] - rows[i][c].size(), ' ');
            line += c < 2 ? rows[i][c] + pad : pad + rows[i][c];
            line += "  ";
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out << line << "\n";
    }
    out << "(counts are totals over all instances)\n\n";
}

} // namespace

int runEval(const EvalOptions& opt, std::ostream& out, std::ostream& err)
{
    Project p;
    try {
        p = readProject(opt.project);
    } catch (const NestorError& e) {
        err << e.what() << "\n";
        return kExitInput;
    }
    if (p.mappings.empty()) {
        err << Diagnostic{"project.mappings", "the project has no mappings to evaluate (write one under `mappings:`, or find one with `nestor-cli search`)",
                          SourceLocation{opt.project, 0, 0}}
                   .toString()
            << "\n";
        return kExitInput;
    }
    const ProjectMapping* pm = p.selectMapping(opt.mapping);
    if (!pm) {
        std::string names;
        for (const auto& m : p.mappings) names += (names.empty() ? "" : ", ") + m.mapping.name;
        err << "nestor-cli: no mapping named '" << (opt.mapping.empty() ? p.jobMapping : opt.mapping)
            << "' in " << opt.project << " (mappings: " << names << ")\n";
        return kExitUsage;
    }
    const ProjectWorkload* pw = p.findWorkload(pm->workload);
    if (!pw) {
        err << opt.project << ": mapping '" << pm->mapping.name << "' names unknown workload '" << pm->workload << "'\n";
        return kExitInput;
    }
    Architecture arch = p.architecture;
    try {
        applyEnergyModel(arch, p.energyModel);  // "table" keeps the energies of the file
    } catch (const NestorError& e) {
        err << opt.project << ": " << e.what() << "\n";
        return kExitInput;
    }

    ModelOptions mo;
    opt.exact.applyTo(mo);
    const Evaluation ev = evaluate(pw->workload, arch, pm->mapping, mo);
    const ResultsMeta meta{p.name, pw->workload.name, pm->mapping.name, p.architecture.name};
    if (opt.format == "json") {
        out << evaluationToJson(ev, meta);
    } else if (opt.format == "csv") {
        out << evaluationToCsv(ev, meta);
    } else {
        printSummary(out, p, *pm, pw->workload, ev);
        if (ev.valid) out << "Loop nest\n\n" << loopNestText(pm->mapping, pw->workload, arch, &ev);
    }
    if (!ev.valid) {
        if (opt.format != "text") {  // keep machine-readable output clean; reasons also go to stderr
            err << "mapping '" << pm->mapping.name << "' is invalid:\n";
            for (const auto& d : ev.errors) err << "  " << d.toString() << "\n";
        }
        return kExitCheckFailed;
    }
    return kExitOk;
}

} // namespace nestor::cli
