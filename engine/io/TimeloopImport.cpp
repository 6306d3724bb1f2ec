#include "io/TimeloopImport.h"

#include "arch/EnergyModels.h"
#include "common/TextFile.h"
#include "io/LibconfigText.h"
#include "io/ProjectYaml.h"
#include "io/TimeloopImportParts.h"
#include "io/YamlUtil.h"

#include <map>
#include <optional>

namespace nestor {

using yamlio::YamlRef;
using timeloopimport::locatedWarning;

namespace {

// Nothing there: null, or an empty list or map (a mapper's inputs hold `mapping: []`).
bool emptyValue(const YamlRef& v)
{
    return v.isNull() || (v.isSequence() && v.size() == 0) || (v.isMap() && v.entries().empty());
}

// The inputs' top-level keys, merged as Timeloop merges its input files. A key given twice is an
// error, unless one of the two is empty: the other is taken (a mapper's inputs with `mapping: []`
// and the mapping it wrote, imported together), with a warning.
class MergedInputs {
public:
    void add(const YamlRef& root)
    {
        for (const auto& e : root.entries()) {
            const auto it = keys_.find(e.key);
            if (it == keys_.end()) {
                keys_.emplace(e.key, e);
                order_.push_back(e.key);
                continue;
            }
            const YamlRef::Entry& before = it->second;
            if (!emptyValue(e.value) && !emptyValue(before.value))
                e.keyRef.fail("'" + e.key + "' is also given at " + before.keyRef.location().toString() +
                              " (Timeloop merges the top-level keys of its inputs: give each once)");
            const YamlRef::Entry& empty = emptyValue(e.value) ? e : before;
            const YamlRef::Entry& taken = emptyValue(e.value) ? before : e;
            warnings_.push_back(locatedWarning(empty.keyRef, "ignored: empty, and '" + e.key + "' is also given at " +
                                                                 taken.keyRef.location().toString()));
            if (&taken == &e) it->second = e;
        }
    }
    const std::vector<std::string>& warnings() const { return warnings_; }
    std::optional<YamlRef> get(const std::string& key) const
    {
        const auto it = keys_.find(key);
        if (it == keys_.end()) return std::nullopt;
        return it->second.value;
    }
    const YamlRef& keyRef(const std::string& key) const { return keys_.at(key).keyRef; }
    const std::vector<std::string>& order() const { return order_; }

private:
    std::map<std::string, YamlRef::Entry> keys_;
    std::vector<std::string> order_;
    std::vector<std::string> warnings_;
};

YamlRef parseRoot(const TimeloopSource& s)
{
    // (.cfg: Timeloop's libconfig syntax, read as the same tree)
    const YamlRef root(yamlio::parseText(isLibconfigPath(s.path) ? libconfigToYaml(s.text, s.path) : s.text, s.path), "", s.path);
    if (root.isNull())
        throw NestorError("", "the file holds nothing (Timeloop inputs are maps: problem, architecture, mapping, ERT)",
                          SourceLocation{s.path, 1, 1});
    if (!root.isMap()) root.fail("a Timeloop input is a map (problem, architecture, mapping, ERT, ...)");
    return root;
}

// Keys that would change what Timeloop computes: refused rather than silently dropped.
bool changesSemantics(const std::string& key) { return key == "sparse_optimizations" || key == "layout"; }

// Where Timeloop looks for constraints (the model and mapper applications).
const char* const kConstraintKeys[] = {"architecture_constraints", "arch_constraints", "mapspace_constraints", "mapspace"};
bool isConstraintKey(const std::string& key)
{
    for (const char* k : kConstraintKeys)
        if (key == k) return true;
    return false;
}

// The project reader checks the converted constraints (fanouts, contradictions, backing store
// bypass, ...); its findings are located at the Timeloop entries they came from.
void checkConstraints(const Project& p, const std::vector<YamlRef>& sources)
{
    try {
        parseProject(writeProject(p), "");
    } catch (const NestorError& e) {
        Diagnostics out;
        for (Diagnostic d : e.diagnostics()) {
            const std::string prefix = "constraints[";
            if (d.field.rfind(prefix, 0) == 0) {
                const std::size_t i = std::stoul(d.field.substr(prefix.size()));
                if (i < sources.size()) {
                    d.location = sources[i].location();
                    d.field = sources[i].path();
                }
            }
            out.push_back(std::move(d));
        }
        throw NestorError(std::move(out));
    }
}

// The energies belong to the architecture: a warning about them points there. True when they
// come from an ERT.
bool energies(const MergedInputs& in, const YamlRef& arch, const TimeloopImportOptions& opt, Project& p,
              std::vector<std::string>& warnings)
{
    if (const auto ert = in.get("ERT")) {
        if (opt.energyModel != "table")
            throw NestorError("energy_model", "an ERT gives the energies; energy model '" + opt.energyModel +
                                                  "' cannot be combined with it (use table)");
        timeloopimport::applyTimeloopErt(*ert, p.architecture, warnings);
        p.energyModel = "table";
        return true;
    }
    if (!isKnownEnergyModel(opt.energyModel) || opt.energyModel == "table-scaled") {
        std::string names;
        for (const auto& m : energyModelNames())
            if (m != "table-scaled") names += (names.empty() ? "" : ", ") + m;
        throw NestorError("energy_model", "unknown energy model '" + opt.energyModel + "' (" + names + ")");
    }
    p.energyModel = opt.energyModel;
    if (opt.energyModel == "table") {
        warnings.push_back(locatedWarning(arch, "no ERT given: every energy is 0 (energy model 'table'); give the "
                                                "Accelergy ERT (timeloop-model.ERT.yaml) or choose an energy model"));
        return false;
    }
    applyEnergyModel(p.architecture, opt.energyModel);
    warnings.push_back(locatedWarning(arch, "no ERT given: energies come from the " + opt.energyModel +
                                            " energy model, not from Accelergy (Timeloop's figures will differ)"));
    return false;
}

} // namespace

std::string TimeloopImport::summary() const
{
    const Project& p = project;
    std::string s = "imported";
    if (!p.workloads.empty()) {
        const Workload& w = p.workloads.front().workload;
        s += " workload " + w.name + " (" + std::to_string(w.macs()) + " MACs)";
    }
    const Architecture& a = p.architecture;
    s += ", " + std::to_string(a.levels.size()) + " storage levels + " + a.compute.name + " x" +
         std::to_string(a.compute.instances);
    s += p.mappings.empty() ? ", no mapping" : ", mapping " + p.mappings.front().mapping.name;
    if (!p.constraints.empty()) s += ", " + std::to_string(p.constraints.size()) + " constraints";
    s += ", energies: " + p.energyModel;
    s += ", " + std::to_string(warnings.size()) + " warning" + (warnings.size() == 1 ? "" : "s");
    return s;
}

TimeloopImport importTimeloopSources(const std::vector<TimeloopSource>& sources, const TimeloopImportOptions& opt)
{
    if (sources.empty()) throw NestorError("", "no Timeloop input given");
    MergedInputs in;
    std::vector<std::string> names;
    for (const auto& s : sources) {
        in.add(parseRoot(s));
        names.push_back(s.path);
    }
    TimeloopImport r;
    r.warnings = in.warnings();
    Project& p = r.project;

    const auto problem = in.get("problem");
    if (!problem) throw NestorError("problem", "no `problem:` in the inputs", SourceLocation{sources.front().path, 1, 1});
    std::optional<YamlRef> arch = in.get("architecture");
    if (!arch) arch = in.get("arch");
    if (!arch)
        throw NestorError("architecture", "no `architecture:` in the inputs", SourceLocation{sources.front().path, 1, 1});
    if (in.get("architecture") && in.get("arch"))
        in.keyRef("arch").fail("both `arch` and `architecture` are given");

    for (const auto& key : in.order()) {
        if (key == "problem" || key == "architecture" || key == "arch" || key == "mapping" || key == "ERT" ||
            isConstraintKey(key))
            continue;
        if (changesSemantics(key)) in.keyRef(key).fail("`" + key + "` is not supported by the importer");
        r.warnings.push_back(locatedWarning(in.keyRef(key), "ignored: `" + key + "` is not imported"));
    }

    ProjectWorkload pw;
    pw.workload = timeloopimport::readTimeloopProblem(*problem, r.warnings);
    pw.spec.type = "custom";
    std::vector<timeloopimport::NodeConstraints> nodeConstraints;
    p.architecture = timeloopimport::readTimeloopArchitecture(*arch, r.warnings, nodeConstraints);
    // A mapper's inputs hold `mapping: []` (the mapper searches for one): no mapping either.
    const auto mapping = in.get("mapping");
    const bool noDirectives = mapping && emptyValue(*mapping);
    if (mapping && !noDirectives) {
        ProjectMapping pm;
        pm.workload = pw.workload.name;
        pm.mapping = timeloopimport::readTimeloopMapping(*mapping, pw.workload, p.architecture, r.warnings);
        std::string from;
        for (const auto& n : names) from += (from.empty() ? "" : ", ") + n;
        pm.description = "Imported from Timeloop inputs: " + from;
        p.jobMapping = pm.mapping.name;
        p.mappings.push_back(std::move(pm));
    } else if (noDirectives) {
        r.warnings.push_back(locatedWarning(*mapping, "the mapping is empty (as a mapper's inputs give it): the project has no mapping"));
    } else {
        r.warnings.push_back(locatedWarning(*problem, "no `mapping:` in the inputs: the project has no mapping"));
    }
    r.ertGiven = energies(in, *arch, opt, p, r.warnings);
    std::vector<YamlRef> constraintSources;
    if (arch->isMap() && arch->has("constraints"))
        timeloopimport::readTimeloopConstraints(arch->get("constraints"), pw.workload, p.architecture, p.constraints,
                                                constraintSources, r.warnings);
    for (const auto& nc : nodeConstraints)
        timeloopimport::readTimeloopNodeConstraints(nc, pw.workload, p.architecture, p.constraints, constraintSources,
                                                    r.warnings);
    for (const char* key : kConstraintKeys)
        if (const auto c = in.get(key))
            timeloopimport::readTimeloopConstraints(*c, pw.workload, p.architecture, p.constraints, constraintSources,
                                                    r.warnings);
    p.name = opt.projectName.empty() ? pw.workload.name : opt.projectName;
    p.architecture.name = p.name;
    p.jobWorkload = pw.workload.name;
    p.workloads.push_back(std::move(pw));
    if (!p.constraints.empty()) checkConstraints(p, constraintSources);
    return r;
}

TimeloopImport importTimeloop(const std::vector<std::string>& files, const TimeloopImportOptions& opt)
{
    std::vector<TimeloopSource> sources;
    for (const auto& f : files) sources.push_back({f, readTextFile(f)});
    if (!opt.ertFile.empty()) {
        TimeloopSource ert{opt.ertFile, readTextFile(opt.ertFile)};
        const YamlRef root = parseRoot(ert);
        if (!root.has("ERT")) root.fail("an ERT file holds `ERT: {version, tables}`");
        for (const auto& e : root.entries())
            if (e.key != "ERT") e.keyRef.fail("an ERT file holds only `ERT:` (found `" + e.key + "`)");
        sources.push_back(std::move(ert));
    }
    return importTimeloopSources(sources, opt);
}

} // namespace nestor
