#include "io/ReferenceCase.h"

#include "io/RankText.h"
#include "io/YamlUtil.h"

#include <map>

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
        const YamlRef size = ds.get("tensor_size");
        rc.tensorSizes.push_back(size.isNull() ? std::nullopt : std::optional<std::int64_t>(size.asPositiveInt()));
        where.add(yamlio::indexPath("workload.tensors", i), ds.location());
        w.tensors.push_back(std::move(t));
    }
    const YamlRef macs = node.get("total_macs");
    if (!macs.isNull()) rc.totalMacs = macs.asPositiveInt();
    where.add("workload", node.location());
    return w;
}

// ---------------------------------------------------------------- architecture

// Timeloop's action-name priority lists (semantics.md section 5).
const std::vector<std::string> kReadNames = {"random_read", "read"};
const std::vector<std::string> kFillNames = {"random_fill", "random_write", "fill", "write"};
const std::vector<std::string> kUpdateNames = {"random_update", "random_write", "update", "write"};
const std::vector<std::string> kComputeNames = {"mac_random", "mult_random", "mac", "mult", "compute"};

std::string joinNames(const std::vector<std::string>& names)
{
    std::string s;
    for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
    return s;
}

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
                      "no ERT entry for '" + action + "' (looked for " + joinNames(names) +
                          "); Timeloop would fall back to a built-in PAT estimate, which Nestor does not model",
                      ert.location());
}

// Returns meshX, or 0 when the level gives no mesh.
std::int64_t readMesh(const YamlRef& lvl, std::int64_t instances)
{
    const YamlRef mesh = lvl.get("mesh");
    if (mesh.isNull()) return 0;
    if (mesh.size() != 2) mesh.fail("mesh must be [X, Y]");
    const std::int64_t x = mesh[0].asPositiveInt(), y = mesh[1].asPositiveInt();
    if (x * y != instances)
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
            s.word_bits = static_cast<int>(lvl.require("word_bits").asPositiveInt());
            s.block_size = static_cast<int>(lvl.require("block_size").asPositiveInt());
            const YamlRef cluster = lvl.get("cluster_size");
            s.cluster_size = cluster.isNull() ? 1 : static_cast<int>(cluster.asPositiveInt());
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

    // Mesh: given [X, Y], else X = instances when the next inner level's X is a multiple of it, else 1.
    a.compute.meshX = computeMeshX ? computeMeshX : a.compute.instances;
    std::int64_t innerX = a.compute.meshX;
    for (int i = a.numLevels() - 1; i >= 0; --i) {
        auto& l = a.levels[i];
        l.meshX = givenMeshX[i] ? givenMeshX[i] : (innerX % l.instances == 0 ? l.instances : 1);
        innerX = l.meshX;
    }
    where.add("architecture", node.location());
    return a;
}

// ---------------------------------------------------------------- mapping

std::vector<Loop> readLoops(const YamlRef& list, const Workload& w)
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
        loops.push_back(makeLoop(d, bound, residual));
    }
    return loops;
}

Mapping readMapping(const YamlRef& node, const ReferenceCase& rc)
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
        lm.temporal = readLoops(lv.get("temporal"), w);
        lm.spatialX = readLoops(lv.get("spatial_x"), w);
        lm.spatialY = readLoops(lv.get("spatial_y"), w);
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
    rc.mapping = readMapping(root.require("mapping"), rc);
    rc.expected = readFigures(root.require("expected"), rc, false);
    const YamlRef exact = root.get("exact_counts");
    if (exact.defined() && !exact.isNull()) {
        rc.exact = readFigures(exact, rc, true);
        const YamlRef changed = exact.get("changed_vs_expected");
        if (!changed.isNull()) rc.changedVsExpected = changed.asStringList();
    }
    return rc;
}

ReferenceCase readReferenceCase(const std::string& path)
{
    return parseReferenceCase(yamlio::readTextFile(path), path);
}

} // namespace nestor
