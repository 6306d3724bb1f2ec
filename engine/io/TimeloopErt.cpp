// Accelergy energy reference tables (ERT) -> per-action energies, the way Timeloop reads them
// (Topology::Specs::ParseAccelergyERT in NVlabs/timeloop src/model/topology.cpp): a table
// belongs to the level named by the last component of its dotted name (range stripped), an
// action's energy is the largest over its argument variants, and the action-name priority lists
// of io/TimeloopActions.h pick the read, fill, update and MAC energies.
#include "io/TimeloopActions.h"
#include "io/TimeloopImportParts.h"

#include <algorithm>
#include <map>

namespace nestor::timeloopimport {

using yamlio::YamlRef;

namespace {

struct ActionEntry {
    double energy_pJ = 0.0;
    YamlRef at;
};
struct Table {
    YamlRef at;
    std::map<std::string, ActionEntry> actions;
};

// "system.eyeriss.PE[0..167].ifmap_spad" -> "ifmap_spad"; "top.MainMemory[1..1]" -> "MainMemory".
std::string componentName(std::string key)
{
    if (!key.empty() && key.back() == ']') {
        const auto open = key.rfind('[');
        if (open != std::string::npos) key.erase(open);
    }
    const auto dot = key.rfind('.');
    return dot == std::string::npos ? key : key.substr(dot + 1);
}

// Largest energy over the argument variants of one action (a list), or the action's own energy.
double actionEnergy(const YamlRef& variants)
{
    double best = 0.0;
    auto one = [&](const YamlRef& v) {
        v.requireMap();
        const YamlRef e = v.require("energy");
        const double x = e.asDouble();
        if (x < 0) e.fail("energy must not be negative");
        best = std::max(best, x);
    };
    if (variants.isSequence())
        for (std::size_t i = 0; i < variants.size(); ++i) one(variants[i]);
    else
        one(variants);
    return best;
}

void addAction(Table& t, const std::string& action, double e, const YamlRef& at)
{
    auto it = t.actions.find(action);
    if (it == t.actions.end()) t.actions[action] = ActionEntry{e, at};
    else it->second.energy_pJ = std::max(it->second.energy_pJ, e);
}

std::map<std::string, Table> readTables(const YamlRef& ert)
{
    ert.requireMap();
    const YamlRef tables = ert.require("tables");
    std::map<std::string, Table> out;
    auto tableFor = [&](const std::string& key, const YamlRef& at) -> Table& {
        Table& t = out[componentName(key)];
        if (!t.at.defined()) t.at = at;
        return t;
    };
    if (tables.isSequence()) {  // ERT v0.3 / v0.4: [{name, actions: [{name, arguments, energy}]}]
        for (std::size_t i = 0; i < tables.size(); ++i) {
            const YamlRef tb = tables[i];
            tb.requireMap();
            Table& t = tableFor(tb.require("name").asString(), tb);
            const YamlRef actions = tb.require("actions");
            actions.requireSequence();
            for (std::size_t k = 0; k < actions.size(); ++k) {
                const YamlRef a = actions[k];
                a.requireMap();
                addAction(t, a.require("name").asString(), actionEnergy(a), a);
            }
        }
    } else {  // ERT v0.2: {component: {action: [{arguments, energy}] or {energy}}}
        for (const auto& e : tables.entries()) {
            Table& t = tableFor(e.key, e.value);
            e.value.requireMap();
            for (const auto& a : e.value.entries()) addAction(t, a.key, actionEnergy(a.value), a.value);
        }
    }
    return out;
}

double pick(const Table& t, const std::string& level, const std::string& what, const std::vector<std::string>& names)
{
    for (const auto& n : names) {
        const auto it = t.actions.find(n);
        if (it != t.actions.end()) return it->second.energy_pJ;
    }
    // Timeloop would fall back to its built-in PAT estimate, which Nestor does not model.
    t.at.fail("the ERT table of '" + level + "' has no " + what + " action (looked for " +
              timeloop::joinActionNames(names) + ")");
}

} // namespace

void applyTimeloopErt(const YamlRef& ert, Architecture& arch, Warnings& warnings)
{
    const std::map<std::string, Table> tables = readTables(ert);
    std::vector<std::string> used;
    for (StorageLevel& l : arch.levels) {
        if (l.technology == "dummy") continue;  // spatial-only: no storage, no energy
        const auto it = tables.find(l.name);
        if (it == tables.end())
            throw NestorError(yamlio::joinPath(ert.path(), "tables"), "no ERT table for level '" + l.name + "'",
                              ert.require("tables").location());
        const Table& t = it->second;
        l.energy.read_pJ = pick(t, l.name, "read", timeloop::readActionNames());
        l.energy.fill_pJ = pick(t, l.name, "fill", timeloop::fillActionNames());
        l.energy.update_pJ = pick(t, l.name, "update", timeloop::updateActionNames());
        const auto leak = t.actions.find("leak");
        l.energy.leak_pJ = leak == t.actions.end() ? 0.0 : leak->second.energy_pJ;
        used.push_back(l.name);
    }
    const auto ct = tables.find(arch.compute.name);
    if (ct == tables.end())
        throw NestorError(yamlio::joinPath(ert.path(), "tables"),
                          "no ERT table for the compute level '" + arch.compute.name + "'",
                          ert.require("tables").location());
    arch.compute.mac_energy_pJ = pick(ct->second, arch.compute.name, "MAC", timeloop::computeActionNames());
    used.push_back(arch.compute.name);
    for (const auto& [name, t] : tables)
        if (std::find(used.begin(), used.end(), name) == used.end())
            warnings.push_back(locatedWarning(t.at, "ERT table '" + name + "' matches no level; ignored"));
}

} // namespace nestor::timeloopimport
