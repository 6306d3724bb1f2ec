#include "io/ReferenceCase.h"

#include "arch/MeshInference.h"
#include "common/CheckedMath.h"
#include "common/TextFile.h"
#include "io/RankText.h"
#include "io/TimeloopActions.h"
#include "io/YamlUtil.h"

#include <climits>
#include <map>
#include <optional>
#include <vector>

namespace nestor {

using yamlio::YamlRef;

const RefTensorFigures* RefLevelFigures::findTensor(const std::string& n) const
{
    for (const auto& t : tensors)
        if (t.tensor == n) return &t;
    return nullptr;
}

const RefLevelFigures* RefFigures::findLevel(const std::string& n) const
{
    for (const auto& l : levels)
        if (l.level == n) return &l;
    return nullptr;
}

namespace {

// A key whose value a case must give: absent or null is an error at the map that lacks it.
YamlRef requiredFigure(const YamlRef& parent, const std::string& key)
{
    const YamlRef v = parent.get(key);
    if (v.isNull())
        throw NestorError(yamlio::joinPath(parent.path(), key), "missing (every reference case gives it)",
                          parent.location());
    return v;
}

// ---------------------------------------------------------------- workload

Workload readWorkload(const YamlRef& node, ReferenceCase& rc, yamlio::PathLocations& where)
{
    node.requireMap();
    Workload w;
    const YamlRef name = node.get("name");
    w.name = name.isNull() ? std::string() : name.asString();
    if (w.name.empty()) w.name = rc.name;

    const YamlRef dims = node.require("dimensions");
    for (const auto& e : dims.entries()) {
        w.dimNames.push_back(e.key);
        w.bounds.push_back(e.value.asPositiveInt());
        where.add(e.value);
    }
    if (w.dimNames.empty()) dims.fail("a workload needs at least one dimension");
    where.add("workload.dimensions", dims.location());

    const YamlRef spaces = node.require("data_spaces");
    for (std::size_t i = 0; i < spaces.size(); ++i) {
        const YamlRef ds = spaces[i];
        ds.requireMap();
        Tensor t;
        t.name = ds.require("name").asString();
        if (w.tensorIndex(t.name) >= 0) ds.require("name").fail("duplicate data space '" + t.name + "'");
        const YamlRef rw = ds.get("read_write");
        t.readWrite = rw.isNull() ? false : rw.asBool();
        const YamlRef ranks = ds.require("ranks");
        for (std::size_t r = 0; r < ranks.size(); ++r) {
            std::string err;
            auto expr = parseRankExpression(ranks[r].asString(), w.dimNames, &err);
            if (!expr) ranks[r].fail(err);
            t.ranks.push_back(*expr);
        }
        // Printed by every Timeloop run and compared by the check: required, like total_macs.
        rc.tensorSizes.push_back(requiredFigure(ds, "tensor_size").asPositiveInt());
        where.add(yamlio::indexPath("workload.tensors", i), ds.location());
        w.tensors.push_back(std::move(t));
    }
    rc.totalMacs = requiredFigure(node, "total_macs").asPositiveInt();
    where.add("workload", node.location());
    return w;
}

// ---------------------------------------------------------------- architecture

// Timeloop's action-name priority lists (semantics.md section 5), shared with the ERT reader.
const std::vector<std::string>& kReadNames = timeloop::readActionNames();
const std::vector<std::string>& kFillNames = timeloop::fillActionNames();
const std::vector<std::string>& kUpdateNames = timeloop::updateActionNames();
const std::vector<std::string>& kComputeNames = timeloop::computeActionNames();
using timeloop::joinActionNames;

double ertAction(const YamlRef& ert, const std::string& action, const std::vector<std::string>& names)
{
    for (const auto& n : names) {
        const YamlRef v = ert.get(n);
        if (v.defined()) {
            const double e = v.asDouble();
            if (e < 0) v.fail("energy must not be negative");
            return e;
        }
    }
    throw NestorError(yamlio::joinPath(ert.path(), action),
                      "no ERT entry for '" + action + "' (looked for " + joinActionNames(names) +
                          "); Timeloop would fall back to a built-in PAT estimate, which Nestor does not model",
                      ert.location());
}

// A positive integer stored as int: larger values are an error, not a truncation.
int smallPositiveInt(const YamlRef& v)
{
    const std::int64_t x = v.asPositiveInt();
    if (x > INT_MAX) v.fail("must be at most " + std::to_string(INT_MAX));
    return static_cast<int>(x);
}

// Returns meshX, or 0 when the level gives no mesh.
std::int64_t readMesh(const YamlRef& lvl, std::int64_t instances)
{
    const YamlRef mesh = lvl.get("mesh");
    if (mesh.isNull()) return 0;
    if (mesh.size() != 2) mesh.fail("mesh must be [X, Y]");
    const std::int64_t x = mesh[0].asPositiveInt(), y = mesh[1].asPositiveInt();
    std::int64_t xy = 0;
    if (!checkedMul(x, y, &xy) || xy != instances)
        mesh.fail("mesh " + std::to_string(x) + " x " + std::to_string(y) + " does not match instances (" +
                  std::to_string(instances) + ")");
    return x;
}

Architecture readArchitecture(const YamlRef& node, const std::string& caseName, yamlio::PathLocations& where)
{
    node.requireMap();
    Architecture a;
    a.name = caseName;
    const YamlRef cyc = node.get("global_cycle_seconds");
    if (!cyc.isNull()) {
        a.cycle_seconds = cyc.asDouble();
        if (a.cycle_seconds <= 0) cyc.fail("must be positive");
    }
    const YamlRef levels = node.require("levels");
    std::vector<std::int64_t> givenMeshX;  // per storage level, 0 = not given
    std::int64_t computeMeshX = 0;
    bool haveCompute = false;
    for (std::size_t i = 0; i < levels.size(); ++i) {
        const YamlRef lvl = levels[i];
        lvl.requireMap();
        const std::string name = lvl.require("name").asString();
        const std::string kind = lvl.require("kind").asString();
        if (haveCompute) lvl.fail("the compute level must be the last level");
        if (a.levelIndex(name) >= 0) lvl.require("name").fail("duplicate level name '" + name + "'");
        const std::int64_t instances = lvl.require("instances").asPositiveInt();
        if (kind == "compute") {
            haveCompute = true;
            a.compute.name = name;
            a.compute.instances = instances;
            computeMeshX = readMesh(lvl, instances);
            a.compute.mac_energy_pJ = ertAction(lvl.require("ert_pJ"), "compute", kComputeNames);
            where.add("architecture.compute", lvl.location());
            continue;
        }
        StorageLevel s;
        s.name = name;
        s.instances = instances;
        if (kind == "dummy_spatial_level") {
            s.technology = "dummy";
            s.size_words = 0;
        } else if (kind == "storage") {
            const YamlRef tech = lvl.get("technology");
            s.technology = tech.isNull() ? std::string("SRAM") : tech.asString();
            const YamlRef size = lvl.require("size_words");
            if (!size.isNull()) s.size_words = size.asPositiveInt();
            s.word_bits = smallPositiveInt(lvl.require("word_bits"));
            s.block_size = smallPositiveInt(lvl.require("block_size"));
            const YamlRef cluster = lvl.get("cluster_size");
            s.cluster_size = cluster.isNull() ? 1 : smallPositiveInt(cluster);
            s.read_bw_words_per_cycle = optionalBandwidth(lvl, "read_bandwidth");
            s.write_bw_words_per_cycle = optionalBandwidth(lvl, "write_bandwidth");
            s.shared_bw_words_per_cycle = optionalBandwidth(lvl, "shared_bandwidth");
            const YamlRef mb = lvl.get("multiple_buffering");
            if (!mb.isNull()) {
                s.multiple_buffering = mb.asDouble();
                if (s.multiple_buffering < 1.0) mb.fail("must be at least 1");
            }
            const YamlRef ert = lvl.require("ert_pJ");
            ert.requireMap();
            s.energy.read_pJ = ertAction(ert, "read", kReadNames);
            s.energy.fill_pJ = ertAction(ert, "fill", kFillNames);
            s.energy.update_pJ = ertAction(ert, "update", kUpdateNames);
            const YamlRef leak = ert.get("leak");
            s.energy.leak_pJ = leak.defined() ? leak.asDouble() : 0.0;
            if (s.energy.leak_pJ < 0) leak.fail("energy must not be negative");
        } else {
            lvl.require("kind").fail("unknown level kind '" + kind + "' (storage, dummy_spatial_level or compute)");
        }
        givenMeshX.push_back(readMesh(lvl, instances));
        where.add(yamlio::indexPath("architecture.levels", a.levels.size()), lvl.location());
        a.levels.push_back(std::move(s));
    }
    if (!haveCompute) levels.fail("the architecture has no compute level (kind: compute)");
    if (a.levels.empty()) levels.fail("the architecture has no storage level");

    // Mesh: given [X, Y], else inferred from the meshes around it (MeshInference.h).
    inferMeshes(a, givenMeshX, computeMeshX);
    where.add("architecture", node.location());
    return a;
}

// ---------------------------------------------------------------- mapping

std::vector<Loop> readLoops(const YamlRef& list, const Workload& w, const std::string& path, yamlio::PathLocations& where)
{
    std::vector<Loop> loops;
    if (list.isNull()) return loops;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const YamlRef l = list[i];
        if (!l.isSequence() || (l.size() != 2 && l.size() != 3)) l.fail("a loop is [DIM, bound] or [DIM, bound, residual]");
        const std::string dim = l[0].asString();
        const int d = w.dimIndex(dim);
        if (d < 0) l[0].fail("unknown dimension '" + dim + "'");
        const std::int64_t bound = l[1].asPositiveInt();
        std::int64_t residual = bound;
        if (l.size() == 3) {
            residual = l[2].asPositiveInt();
            if (residual > bound) l[2].fail("residual must not exceed the bound (" + std::to_string(bound) + ")");
        }
        where.add(yamlio::indexPath(path, i), l.location());
        loops.push_back(makeLoop(d, bound, residual));
    }
    return loops;
}

Mapping readMapping(const YamlRef& node, const ReferenceCase& rc, yamlio::PathLocations& where)
{
    node.requireMap();
    const Workload& w = rc.workload;
    const Architecture& a = rc.architecture;
    Mapping m;
    m.name = rc.name;
    m.levels.resize(a.levels.size());
    std::vector<bool> listed(a.levels.size(), false);
    for (std::size_t i = 0; i < a.levels.size(); ++i)  // dummy levels bypass every tensor
        if (a.levels[i].technology == "dummy") m.levels[i].keep.assign(w.tensors.size(), false);
    const YamlRef levels = node.require("levels");
    for (std::size_t i = 0; i < levels.size(); ++i) {
        const YamlRef lv = levels[i];
        lv.requireMap();
        const YamlRef nameRef = lv.require("level");
        const std::string name = nameRef.asString();
        const int li = a.levelIndex(name);
        if (li < 0) {
            if (name == a.compute.name) nameRef.fail("'" + name + "' is the compute level; the mapping lists storage levels");
            nameRef.fail("unknown level '" + name + "'");
        }
        if (listed[li]) nameRef.fail("level '" + name + "' is listed twice");
        listed[li] = true;
        LevelMapping& lm = m.levels[li];
        const std::string lp = "mapping.levels[" + name + "]";  // Mapping::validate's field names
        where.add(lp, lv.location());
        lm.temporal = readLoops(lv.get("temporal"), w, lp + ".temporal", where);
        lm.spatialX = readLoops(lv.get("spatial_x"), w, lp + ".spatial_x", where);
        lm.spatialY = readLoops(lv.get("spatial_y"), w, lp + ".spatial_y", where);
        const YamlRef keep = lv.get("keep");
        if (keep.defined() && !keep.isNull()) {
            lm.keep.assign(w.tensors.size(), false);
            for (std::size_t k = 0; k < keep.size(); ++k) {
                const std::string t = keep[k].asString();
                const int ti = w.tensorIndex(t);
                if (ti < 0) keep[k].fail("unknown data space '" + t + "'");
                lm.keep[ti] = true;
            }
        } else if (keep.defined()) {
            lm.keep.assign(w.tensors.size(), false);  // keep: null = keeps nothing
        }
    }
    return m;
}

// ---------------------------------------------------------------- figures

std::optional<std::int64_t> optInt(const YamlRef& parent, const char* key)
{
    const YamlRef v = parent.get(key);
    if (v.isNull()) return std::nullopt;
    return v.asNonNegativeInt();
}

std::optional<double> optDouble(const YamlRef& parent, const char* key)
{
    const YamlRef v = parent.get(key);
    if (v.isNull()) return std::nullopt;
    return v.asDouble();
}

RefCount readCount(const YamlRef& ds, const std::string& what)
{
    RefCount c;
    c.perInstance = optInt(ds, (what + "_per_instance").c_str());
    c.total = optInt(ds, (what + "_total").c_str());
    const YamlRef range = ds.get(what + "_per_instance_range");
    if (!range.isNull()) {
        if (range.size() != 2) range.fail("a range is [min, max]");
        const std::int64_t lo = range[0].asNonNegativeInt(), hi = range[1].asNonNegativeInt();
        if (lo > hi) range.fail("min exceeds max");
        c.perInstanceRange = std::make_pair(lo, hi);
    }
    return c;
}

RefFigures readFigures(const YamlRef& node, const ReferenceCase& rc, bool exact)
{
    node.requireMap();
    RefFigures f;
    const YamlRef sum = node.get("summary");
    if (sum.defined()) {
        sum.requireMap();
        f.summary.cycles = optInt(sum, "cycles");
        f.summary.computes = optInt(sum, "computes");
        f.summary.utilization = optDouble(sum, "utilization_exact");
        if (!f.summary.utilization) f.summary.utilization = optDouble(sum, "utilization");
        f.summary.energy_total_pJ = optDouble(sum, "energy_total_pJ");
    }
    const YamlRef levels = node.get("levels");
    if (!levels.defined()) return f;
    for (const auto& e : levels.entries()) {
        const YamlRef lv = e.value;
        lv.requireMap();
        RefLevelFigures lf;
        lf.level = e.key;
        lf.location = lv.location();
        const bool isStorage = rc.architecture.levelIndex(e.key) >= 0;
        lf.isCompute = e.key == rc.architecture.compute.name;
        if (!isStorage && !lf.isCompute) e.keyRef.fail("unknown level '" + e.key + "'");
        const YamlRef kind = lv.get("kind");
        if (kind.defined()) {
            const std::string k = kind.asString();
            if (k != "compute" && k != "storage") kind.fail("unknown kind '" + k + "'");
            if ((k == "compute") != lf.isCompute)
                kind.fail("level '" + e.key + "' is " + (lf.isCompute ? "the compute level" : "a storage level"));
        }
        lf.cycles = optInt(lv, "cycles");
        if (lf.isCompute) {
            lf.computes_total = optInt(lv, "computes_total");
            lf.utilized_instances = optInt(lv, "utilized_instances");
            lf.energy_total_pJ = optDouble(lv, "energy_total_pJ");
            f.levels.push_back(std::move(lf));
            continue;
        }
        lf.leakage_energy_total_pJ = optDouble(lv, "leakage_energy_total_pJ");
        const YamlRef spaces = lv.get("data_spaces");
        if (spaces.defined() && !spaces.isNull()) {
            for (const auto& t : spaces.entries()) {
                if (rc.workload.tensorIndex(t.key) < 0) t.keyRef.fail("unknown data space '" + t.key + "'");
                t.value.requireMap();
                RefTensorFigures tf;
                tf.tensor = t.key;
                tf.location = t.value.location();
                tf.utilized_capacity = optInt(t.value, "utilized_capacity");
                tf.utilized_instances = optInt(t.value, exact ? "instances_used" : "utilized_instances");
                tf.reads = readCount(t.value, "reads");
                tf.fills = readCount(t.value, "fills");
                tf.updates = readCount(t.value, "updates");
                tf.energy_total_pJ = optDouble(t.value, "energy_total_pJ");
                lf.tensors.push_back(std::move(tf));
            }
        }
        f.levels.push_back(std::move(lf));
    }
    return f;
}

// Every figure the check compares (ReferenceCheck.h) must be in `expected`, so that a case cut
// short (a truncated file, a level or data space left out) is an error rather than a pass on the
// fields that remain. `exact_counts`, where given, holds the true counts of the same figures
// (tests/data/timeloop/README.md) except utilized capacities and the compute level's instances,
// and names the instances of a tensor `instances_used`. One diagnostic per missing figure,
// located at the map that lacks it.
Diagnostics missingFigures(const YamlRef& expected, const ReferenceCase& rc, bool exact)
{
    Diagnostics d;
    auto missing = [&](const YamlRef& parent, const std::string& key, const std::string& what) {
        d.push_back({yamlio::joinPath(parent.path(), key), "missing " + what + " (every reference case gives it)",
                     parent.location()});
    };
    auto needMap = [&](const YamlRef& parent, const std::string& key, const std::string& what) -> std::optional<YamlRef> {
        const YamlRef v = parent.get(key);
        if (v.isNull()) {
            missing(parent, key, what);
            return std::nullopt;
        }
        v.requireMap();
        return v;
    };
    // One of `keys` (alternative forms of one figure) must be given.
    auto needValue = [&](const YamlRef& parent, const std::vector<std::string>& keys, const std::string& what) {
        for (const auto& k : keys)
            if (!parent.get(k).isNull()) return;
        missing(parent, keys.front(), what);
    };
    if (auto s = needMap(expected, "summary", "the summary figures")) {
        needValue(*s, {"cycles"}, "cycles");
        needValue(*s, {"computes"}, "computes");
        needValue(*s, {"utilization", "utilization_exact"}, "utilization");
        needValue(*s, {"energy_total_pJ"}, "total energy");
    }
    const auto levels = needMap(expected, "levels", "the per-level figures");
    if (!levels) return d;
    const Architecture& a = rc.architecture;
    const Workload& w = rc.workload;
    for (int i = 0; i < a.numLevels(); ++i) {
        const std::string& level = a.levels[i].name;
        std::vector<int> kept;
        for (int t = 0; t < w.numTensors(); ++t)
            if (rc.mapping.keeps(i, t)) kept.push_back(t);
        if (kept.empty()) continue;  // Timeloop prints no figures for a level that keeps nothing
        const auto lv = needMap(*levels, level, "the figures of level " + level);
        if (!lv) continue;
        needValue(*lv, {"cycles"}, "cycles");
        needValue(*lv, {"leakage_energy_total_pJ"}, "leakage energy");
        const auto spaces = needMap(*lv, "data_spaces", "the per-data-space figures");
        if (!spaces) continue;
        for (int t : kept) {
            const std::string& tensor = w.tensors[t].name;
            const auto ds = needMap(*spaces, tensor, "the figures of " + tensor + ", which " + level + " keeps");
            if (!ds) continue;
            if (!exact) needValue(*ds, {"utilized_capacity"}, "utilized capacity");
            needValue(*ds, {exact ? "instances_used" : "utilized_instances"}, "utilized instances");
            for (const std::string c : {"reads", "fills", "updates"})
                needValue(*ds, {c + "_per_instance", c + "_per_instance_range", c + "_total"}, c);
            needValue(*ds, {"energy_total_pJ"}, "energy");
        }
    }
    if (const auto cl = needMap(*levels, a.compute.name, "the figures of the compute level " + a.compute.name)) {
        needValue(*cl, {"computes_total"}, "computes");
        if (!exact) needValue(*cl, {"utilized_instances"}, "utilized instances");
        needValue(*cl, {"cycles"}, "cycles");
        needValue(*cl, {"energy_total_pJ"}, "energy");
    }
    return d;
}

// Validation diagnostics of values built here, located at the nodes they came from.
void throwIfAny(Diagnostics d, const yamlio::PathLocations& where, const SourceLocation& fallback)
{
    if (d.empty()) return;
    where.locate(d, fallback);
    throw NestorError(std::move(d));
}

} // namespace

ReferenceCase parseReferenceCase(const std::string& yamlText, const std::string& pathForMessages)
{
    const YamlRef root(yamlio::parseText(yamlText, pathForMessages), "", pathForMessages);
    // An empty document (or only comments) has no position of its own: report it at 1:1.
    if (root.isNull())
        throw NestorError("", "the file holds no case (a map: case, workload, architecture, mapping, expected)",
                          SourceLocation{pathForMessages, 1, 1});
    if (!root.isMap()) root.fail("a reference case must be a map (case, workload, architecture, mapping, expected)");
    ReferenceCase rc;
    rc.path = pathForMessages;
    rc.name = root.require("case").asString();
    const YamlRef title = root.get("title");
    if (!title.isNull()) rc.title = title.asString();
    const YamlRef notes = root.get("notes");
    if (!notes.isNull()) rc.notes = notes.asStringList();

    yamlio::PathLocations where;
    rc.workload = readWorkload(root.require("workload"), rc, where);
    throwIfAny(rc.workload.validate("workload"), where, root.require("workload").location());
    rc.architecture = readArchitecture(root.require("architecture"), rc.name, where);
    throwIfAny(rc.architecture.validate("architecture"), where, root.require("architecture").location());
    rc.mapping = readMapping(root.require("mapping"), rc, where);
    // Factor coverage and the size limits, located at the mapping (file:line:col).
    throwIfAny(rc.mapping.validate(rc.workload, rc.architecture, "mapping"), where, root.require("mapping").location());
    rc.expected = readFigures(root.require("expected"), rc, false);
    if (Diagnostics missing = missingFigures(root.require("expected"), rc, false); !missing.empty())
        throw NestorError(std::move(missing));
    const YamlRef exact = root.get("exact_counts");
    if (exact.defined()) {  // given but empty (a cut file) is an error in readFigures
        rc.exact = readFigures(exact, rc, true);
        if (Diagnostics missing = missingFigures(exact, rc, true); !missing.empty()) throw NestorError(std::move(missing));
        const YamlRef changed = exact.get("changed_vs_expected");
        if (!changed.isNull()) rc.changedVsExpected = changed.asStringList();
    }
    return rc;
}

ReferenceCase readReferenceCase(const std::string& path)
{
    return parseReferenceCase(readTextFile(path), path);
}

} // namespace nestor
