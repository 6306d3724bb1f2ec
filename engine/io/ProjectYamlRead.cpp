// Reading Nestor project files (docs/project-format.md).
#include "io/ProjectYaml.h"

#include "arch/EnergyModels.h"
#include "arch/MeshInference.h"
#include "common/TextFile.h"
#include "io/RankText.h"
#include "io/YamlUtil.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <map>

namespace nestor {

using yamlio::YamlRef;

namespace {

const char* const kTechnologies[] = {"DRAM", "SRAM", "regfile", "dummy"};

struct Doc {
    std::string path;
    YamlRef root;
};

class ProjectReader {
public:
    Project run(const std::string& text, const std::string& path);

private:
    void load(const std::string& text, const std::string& path, bool isMain);
    void loadIncludes(const YamlRef& list, const std::string& fromPath);

    void readWorkload(const YamlRef& n);
    void readCustomWorkload(const YamlRef& n, Workload& w, const std::string& prefix);
    void readNetwork(const YamlRef& n);
    void readArchitecture(const YamlRef& n);
    StorageLevel readLevel(const YamlRef& n, const std::string& prefix, std::int64_t& givenMeshX);
    void readMapping(const YamlRef& n);
    std::vector<Loop> readLoops(const YamlRef& list, const Workload& w, const std::string& prefix);
    void readJob(const YamlRef& n);
    void readConstraint(const YamlRef& n);
    std::vector<std::string> readDimensionNames(const YamlRef& v, const std::string& workload);
    void checkTensor(const YamlRef& v, const std::string& tensor, const std::string& workload);
    void validate();

    // Registers a name; a second definition is an error at `ref`.
    void unique(std::map<std::string, SourceLocation>& seen, const std::string& what, const std::string& name,
                const YamlRef& ref);
    void remember(const std::string& path, const YamlRef& ref) { where_.add(path, ref.location()); }

    Project p_;
    std::vector<Doc> docs_;
    std::vector<std::string> stack_;  // canonical paths being loaded (include cycle detection)
    std::vector<std::string> loaded_;
    yamlio::PathLocations where_;
    std::map<std::string, SourceLocation> workloadNames_, networkNames_, mappingNames_;
    std::optional<SourceLocation> archLocation_;
    bool tableEnergies_ = true;
};

std::string canonical(const std::string& path)
{
    std::error_code ec;
    auto c = std::filesystem::weakly_canonical(std::filesystem::path(path), ec);
    return ec ? path : c.string();
}

void ProjectReader::unique(std::map<std::string, SourceLocation>& seen, const std::string& what,
                           const std::string& name, const YamlRef& ref)
{
    if (name.empty()) ref.fail(what + " name must not be empty");
    auto it = seen.find(name);
    if (it != seen.end()) {
        const std::string first = it->second.toString();
        ref.fail("duplicate " + what + " name '" + name + "'" + (first.empty() ? "" : " (first defined at " + first + ")"));
    }
    seen.emplace(name, ref.location());
}

void ProjectReader::load(const std::string& text, const std::string& path, bool isMain)
{
    const YamlRef root(yamlio::parseText(text, path), "", path);
    if (!isMain && root.isNull()) return;  // an empty included file adds nothing
    if (!root.isMap()) {
        if (isMain) root.fail("a project file must be a map starting with 'nestor: 1'");
        root.fail("an included file must be a map (workloads, networks, architecture, mappings)");
    }
    if (isMain)
        root.checkKeys({"nestor", "name", "include", "workloads", "networks", "architecture", "mappings", "constraints", "job"});
    else
        root.checkKeys({"nestor", "include", "workloads", "networks", "architecture", "mappings", "constraints"});
    const YamlRef version = isMain ? root.require("nestor") : root.get("nestor");
    if (version.defined() && version.asInt() != 1)
        version.fail("unsupported schema version " + version.asString() + " (this Nestor reads version 1)");
    const YamlRef inc = root.get("include");
    if (inc.defined() && !inc.isNull()) loadIncludes(inc, path);
    docs_.push_back(Doc{path, root});
}

void ProjectReader::loadIncludes(const YamlRef& list, const std::string& fromPath)
{
    const auto base = std::filesystem::path(fromPath).parent_path();
    const std::size_t n = list.isScalar() ? 1 : list.size();
    for (std::size_t i = 0; i < n; ++i) {
        const YamlRef entry = list.isScalar() ? list : list[i];
        const std::string rel = entry.asString();
        if (rel.empty()) entry.fail("empty include path");
        const std::filesystem::path relPath(rel);
        const std::string resolved = (relPath.is_absolute() || base.empty() ? relPath : base / relPath).string();
        const std::string key = canonical(resolved);
        for (std::size_t s = 0; s < stack_.size(); ++s)
            if (stack_[s] == key) {
                std::string chain;
                for (std::size_t t = s; t < stack_.size(); ++t) chain += stack_[t] + " -> ";
                entry.fail("include cycle: " + chain + key);
            }
        for (const auto& l : loaded_)
            if (l == key) entry.fail("'" + rel + "' is included more than once");
        std::string text;
        try {
            text = readTextFile(resolved);
        } catch (const NestorError& e) {  // (the reader's reason: missing, unreadable, a directory)
            const std::string why = e.diagnostics().empty() ? std::string() : ": " + e.diagnostics().front().message;
            entry.fail("cannot open included file '" + rel + "' (resolved to " + resolved + ")" + why);
        }
        stack_.push_back(key);
        loaded_.push_back(key);
        load(text, resolved, false);
        stack_.pop_back();
    }
}

// ---------------------------------------------------------------- workloads

void ProjectReader::readWorkload(const YamlRef& n)
{
    const std::string prefix = yamlio::indexPath("workloads", p_.workloads.size());
    n.requireMap();
    const YamlRef nameRef = n.require("name");
    const std::string name = nameRef.asString();
    unique(workloadNames_, "workload", name, nameRef);
    const YamlRef typeRef = n.require("type");
    const std::string type = typeRef.asString();
    remember(prefix, n);

    ProjectWorkload pw;
    pw.spec.type = type;
    auto dim = [&](const char* key) -> std::int64_t {
        const YamlRef v = n.get(key);
        return v.defined() ? v.asPositiveInt() : 1;
    };
    auto pair = [&](const char* key, std::int64_t& a, std::int64_t& b) {
        const YamlRef v = n.get(key);
        if (!v.defined()) return;
        if (v.isScalar()) {
            a = b = v.asPositiveInt();
            return;
        }
        if (v.size() != 2) v.fail(std::string(key) + " is [vertical, horizontal]");
        a = v[0].asPositiveInt();
        b = v[1].asPositiveInt();
    };
    try {
        if (type == "conv" || type == "grouped" || type == "depthwise") {
            if (type == "depthwise")
                n.checkKeys({"name", "type", "N", "C", "P", "Q", "R", "S", "stride", "dilation"});
            else
                n.checkKeys({"name", "type", "N", "M", "C", "P", "Q", "R", "S", "stride", "dilation", "groups"});
            ConvParams& c = pw.spec.conv;
            c.name = name;
            c.N = dim("N");
            c.M = dim("M");
            c.C = dim("C");
            c.P = dim("P");
            c.Q = dim("Q");
            c.R = dim("R");
            c.S = dim("S");
            pair("stride", c.strideH, c.strideW);
            pair("dilation", c.dilationH, c.dilationW);
            c.groups = dim("groups");
            pw.workload = type == "depthwise" ? makeDepthwise(c) : makeConv2d(c);
        } else if (type == "gemm") {
            n.checkKeys({"name", "type", "M", "N", "K"});
            pw.spec.gemmM = n.require("M").asPositiveInt();
            pw.spec.gemmN = n.require("N").asPositiveInt();
            pw.spec.gemmK = n.require("K").asPositiveInt();
            pw.workload = makeGemm(name, pw.spec.gemmM, pw.spec.gemmN, pw.spec.gemmK);
        } else if (type == "fc") {
            n.checkKeys({"name", "type", "batch", "out_features", "in_features"});
            const YamlRef batch = n.get("batch");
            pw.spec.fcBatch = batch.defined() ? batch.asPositiveInt() : 1;
            pw.spec.fcOut = n.require("out_features").asPositiveInt();
            pw.spec.fcIn = n.require("in_features").asPositiveInt();
            pw.workload = makeFullyConnected(name, pw.spec.fcBatch, pw.spec.fcOut, pw.spec.fcIn);
        } else if (type == "custom") {
            n.checkKeys({"name", "type", "dimensions", "tensors"});
            readCustomWorkload(n, pw.workload, prefix);
        } else {
            typeRef.fail("unknown workload type '" + type + "' (conv, depthwise, grouped, gemm, fc, custom)");
        }
    } catch (const NestorError& e) {
        // Errors of the layer builders carry no position: place them at the workload, keeping
        // the part of the field below the layer's name ("conv1.dimensions" -> "workloads[0].dimensions").
        Diagnostics d = e.diagnostics();
        for (auto& x : d)
            if (x.location.line == 0) {
                x.location = n.location();
                const bool underName = x.field.size() > name.size() && x.field.compare(0, name.size() + 1, name + ".") == 0;
                x.field = underName ? prefix + x.field.substr(name.size()) : prefix;
            }
        throw NestorError(std::move(d));
    }
    pw.workload.name = name;
    p_.workloads.push_back(std::move(pw));
}

void ProjectReader::readCustomWorkload(const YamlRef& n, Workload& w, const std::string& prefix)
{
    const YamlRef dims = n.require("dimensions");
    for (const auto& e : dims.entries()) {
        w.dimNames.push_back(e.key);
        w.bounds.push_back(e.value.asPositiveInt());
        remember(prefix + ".dimensions." + e.key, e.value);
    }
    if (w.dimNames.empty()) dims.fail("a workload needs at least one dimension");
    const YamlRef tensors = n.require("tensors");
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        const YamlRef t = tensors[i];
        t.requireMap();
        t.checkKeys({"name", "ranks", "read_write"});
        Tensor ts;
        const YamlRef nameRef = t.require("name");
        ts.name = nameRef.asString();
        if (ts.name.empty()) nameRef.fail("tensor name must not be empty");
        if (w.tensorIndex(ts.name) >= 0) nameRef.fail("duplicate tensor name '" + ts.name + "'");
        const YamlRef rw = t.get("read_write");
        ts.readWrite = rw.defined() ? rw.asBool() : false;
        const YamlRef ranks = t.require("ranks");
        for (std::size_t r = 0; r < ranks.size(); ++r) {
            std::string err;
            auto expr = parseRankExpression(ranks[r].asString(), w.dimNames, &err);
            if (!expr) ranks[r].fail(err);
            ts.ranks.push_back(*expr);
            remember(yamlio::indexPath(prefix + ".tensors[" + std::to_string(i) + "].ranks", r), ranks[r]);
        }
        remember(yamlio::indexPath(prefix + ".tensors", i), t);
        w.tensors.push_back(std::move(ts));
    }
    remember(prefix + ".dimensions", dims);
    remember(prefix + ".tensors", tensors);
}

// ---------------------------------------------------------------- networks

void ProjectReader::readNetwork(const YamlRef& n)
{
    n.requireMap();
    n.checkKeys({"name", "layers"});
    ProjectNetwork net;
    const YamlRef nameRef = n.require("name");
    net.name = nameRef.asString();
    unique(networkNames_, "network", net.name, nameRef);
    const YamlRef layers = n.require("layers");
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const YamlRef l = layers[i];
        std::string wl;
        std::int64_t repeat = 1;
        YamlRef wlRef = l;
        if (l.isMap()) {
            l.checkKeys({"workload", "repeat"});
            wlRef = l.require("workload");
            wl = wlRef.asString();
            const YamlRef r = l.get("repeat");
            if (r.defined()) repeat = r.asPositiveInt();
        } else {
            wl = l.asString();
        }
        if (!workloadNames_.count(wl)) wlRef.fail("unknown workload '" + wl + "'");
        net.layers.emplace_back(wl, repeat);
    }
    remember(yamlio::indexPath("networks", p_.networks.size()), n);
    p_.networks.push_back(std::move(net));
}

// ---------------------------------------------------------------- architecture

double readEnergy(const YamlRef& n, const char* key, bool required)
{
    const YamlRef v = required ? n.require(key) : n.get(key);
    if (!v.defined()) return 0.0;
    const double e = v.asDouble();
    if (e < 0) v.fail("energy must not be negative");
    return e;
}

StorageLevel ProjectReader::readLevel(const YamlRef& n, const std::string& prefix, std::int64_t& givenMeshX)
{
    n.requireMap();
    n.checkKeys({"name", "technology", "size_words", "word_bits", "block_size", "cluster_size", "instances", "mesh_x",
                 "read_bw", "write_bw", "shared_bw", "multiple_buffering", "energy_pJ", "area_um2", "energy_fixed"});
    remember(prefix, n);
    for (const auto& e : n.entries()) remember(prefix + "." + e.key, e.value);
    StorageLevel l;
    l.name = n.require("name").asString();
    if (l.name.empty()) n.require("name").fail("level name must not be empty");
    const YamlRef tech = n.get("technology");
    if (tech.defined()) {
        l.technology = tech.asString();
        bool known = false;
        for (const char* t : kTechnologies) known = known || l.technology == t;
        if (!known) tech.fail("unknown technology '" + l.technology + "' (DRAM, SRAM, regfile, dummy)");
    }
    const bool dummy = l.technology == "dummy";
    const YamlRef size = dummy ? n.get("size_words") : n.require("size_words");
    if (dummy) {
        l.size_words = 0;
        if (size.defined() && (size.isNull() || size.asInt() != 0))
            size.fail("a dummy (spatial-only) level has size_words 0");
    } else if (!size.isNull()) {
        const std::int64_t s = size.asInt();
        if (s <= 0) size.fail("size_words must be positive (null = unbounded; technology: dummy for a spatial-only level)");
        l.size_words = s;
    }
    auto optInt = [&](const char* key, std::int64_t def) {
        const YamlRef v = n.get(key);
        return v.defined() ? v.asPositiveInt() : def;
    };
    auto optSmallInt = [&](const char* key, int def) {  // stored as int: no silent truncation
        const std::int64_t v = optInt(key, def);
        if (v > INT_MAX) n.get(key).fail(std::string(key) + " must be at most " + std::to_string(INT_MAX));
        return static_cast<int>(v);
    };
    l.word_bits = optSmallInt("word_bits", l.word_bits);
    l.block_size = optSmallInt("block_size", l.block_size);
    l.cluster_size = optSmallInt("cluster_size", l.cluster_size);
    l.instances = optInt("instances", 1);
    givenMeshX = optInt("mesh_x", 0);
    if (givenMeshX && l.instances % givenMeshX != 0)
        n.get("mesh_x").fail("mesh_x must divide instances (" + std::to_string(l.instances) + ")");
    l.read_bw_words_per_cycle = yamlio::optionalBandwidth(n, "read_bw");
    l.write_bw_words_per_cycle = yamlio::optionalBandwidth(n, "write_bw");
    l.shared_bw_words_per_cycle = yamlio::optionalBandwidth(n, "shared_bw");
    const YamlRef mb = n.get("multiple_buffering");
    if (mb.defined()) {
        l.multiple_buffering = mb.asDouble();
        if (l.multiple_buffering < 1.0) mb.fail("must be at least 1");
    }
    const YamlRef fixed = n.get("energy_fixed");
    if (fixed.defined()) l.energyFixed = fixed.asBool();
    const YamlRef en = n.get("energy_pJ");
    if (l.energyFixed && !en.defined() && !dummy) fixed.fail("energy_fixed: true needs the level's energy_pJ {read, fill, update, leak}");
    if (en.defined()) {
        en.requireMap();
        en.checkKeys({"read", "fill", "update", "leak"});
        const bool req = !dummy;
        l.energy.read_pJ = readEnergy(en, "read", req);
        l.energy.fill_pJ = readEnergy(en, "fill", req);
        l.energy.update_pJ = readEnergy(en, "update", req);
        l.energy.leak_pJ = readEnergy(en, "leak", false);
    } else if (tableEnergies_ && !dummy) {
        n.fail("energy_pJ {read, fill, update, leak} is required with energy_model: table");
    }
    const YamlRef area = n.get("area_um2");
    if (area.defined()) {
        l.area_um2 = area.asDouble();
        if (l.area_um2 < 0) area.fail("area must not be negative");
    }
    return l;
}

void ProjectReader::readArchitecture(const YamlRef& n)
{
    if (archLocation_) {
        const std::string first = archLocation_->toString();
        n.fail("the project already has an architecture" + (first.empty() ? "" : " (defined at " + first + ")"));
    }
    archLocation_ = n.location();
    n.requireMap();
    n.checkKeys({"name", "cycle_seconds", "energy_model", "levels", "compute"});
    remember("architecture", n);
    Architecture& a = p_.architecture;
    const YamlRef name = n.get("name");
    if (name.defined()) a.name = name.asString();
    const YamlRef cyc = n.get("cycle_seconds");
    if (cyc.defined()) {
        a.cycle_seconds = cyc.asDouble();
        if (a.cycle_seconds <= 0) cyc.fail("must be positive");
        remember("architecture.cycle_seconds", cyc);
    }
    const YamlRef em = n.get("energy_model");
    if (em.defined()) {
        p_.energyModel = em.asString();
        if (!isKnownEnergyModel(p_.energyModel)) {
            std::string names;
            for (const auto& m : energyModelNames()) names += (names.empty() ? "" : ", ") + m;
            em.fail("unknown energy model '" + p_.energyModel + "' (" + names + ")");
        }
        remember("architecture.energy_model", em);
    }
    tableEnergies_ = p_.energyModel == "table" || p_.energyModel == "table-scaled";  // figures given in the file

    const YamlRef levels = n.require("levels");
    remember("architecture.levels", levels);
    std::vector<std::int64_t> meshX;
    for (std::size_t i = 0; i < levels.size(); ++i) {
        std::int64_t mx = 0;
        StorageLevel l = readLevel(levels[i], yamlio::indexPath("architecture.levels", i), mx);
        if (a.levelIndex(l.name) >= 0) levels[i].require("name").fail("duplicate level name '" + l.name + "'");
        a.levels.push_back(std::move(l));
        meshX.push_back(mx);
    }
    if (a.levels.empty()) levels.fail("an architecture needs at least one storage level");

    const YamlRef c = n.require("compute");
    c.requireMap();
    c.checkKeys({"name", "instances", "mesh_x", "energy_pJ", "area_um2"});
    remember("architecture.compute", c);
    for (const auto& e : c.entries()) remember("architecture.compute." + e.key, e.value);
    const YamlRef cname = c.get("name");
    if (cname.defined()) a.compute.name = cname.asString();
    if (a.levelIndex(a.compute.name) >= 0) c.fail("the compute level's name '" + a.compute.name + "' is a storage level's name");
    const YamlRef ci = c.get("instances");
    a.compute.instances = ci.defined() ? ci.asPositiveInt() : 1;
    const YamlRef cmx = c.get("mesh_x");
    a.compute.meshX = cmx.defined() ? cmx.asPositiveInt() : a.compute.instances;
    if (a.compute.instances % a.compute.meshX != 0)
        cmx.fail("mesh_x must divide instances (" + std::to_string(a.compute.instances) + ")");
    const YamlRef ce = tableEnergies_ ? c.require("energy_pJ") : c.get("energy_pJ");
    if (ce.defined()) {
        a.compute.mac_energy_pJ = ce.asDouble();
        if (a.compute.mac_energy_pJ < 0) ce.fail("energy must not be negative");
    }
    const YamlRef carea = c.get("area_um2");
    if (carea.defined()) {
        a.compute.area_um2 = carea.asDouble();
        if (a.compute.area_um2 < 0) carea.fail("area must not be negative");
    }
    // A mesh_x left out is inferred from the meshes around it (MeshInference.h).
    inferMeshes(a, meshX, cmx.defined() ? a.compute.meshX : 0);
}

// ---------------------------------------------------------------- mappings

std::vector<Loop> ProjectReader::readLoops(const YamlRef& list, const Workload& w, const std::string& prefix)
{
    std::vector<Loop> loops;
    if (list.isNull()) return loops;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const YamlRef l = list[i];
        if (!l.isSequence() || (l.size() != 2 && l.size() != 3)) l.fail("a loop is [DIM, bound] or [DIM, bound, residual]");
        const std::string dim = l[0].asString();
        const int d = w.dimIndex(dim);
        if (d < 0) {
            std::string known;
            for (const auto& x : w.dimNames) known += (known.empty() ? "" : ", ") + x;
            l[0].fail("unknown dimension '" + dim + "' (workload '" + w.name + "' has " + known + ")");
        }
        const std::int64_t bound = l[1].asPositiveInt();
        std::int64_t residual = bound;
        if (l.size() == 3) {
            residual = l[2].asPositiveInt();
            if (residual > bound) l[2].fail("residual must not exceed the bound (" + std::to_string(bound) + ")");
        }
        remember(yamlio::indexPath(prefix, i), l);
        loops.push_back(makeLoop(d, bound, residual));
    }
    return loops;
}

void ProjectReader::readMapping(const YamlRef& n)
{
    const std::string prefix = yamlio::indexPath("mappings", p_.mappings.size());
    n.requireMap();
    n.checkKeys({"name", "workload", "description", "levels"});
    remember(prefix, n);
    ProjectMapping pm;
    if (const YamlRef d = n.get("description"); d.defined() && !d.isNull()) pm.description = d.asString();
    const YamlRef nameRef = n.require("name");
    pm.mapping.name = nameRef.asString();
    unique(mappingNames_, "mapping", pm.mapping.name, nameRef);
    const YamlRef wref = n.require("workload");
    pm.workload = wref.asString();
    const ProjectWorkload* pw = p_.findWorkload(pm.workload);
    if (!pw) wref.fail("unknown workload '" + pm.workload + "'");
    const Workload& w = pw->workload;
    const Architecture& a = p_.architecture;
    if (a.levels.empty()) n.fail("mappings need an architecture");
    pm.mapping.levels.resize(a.levels.size());
    std::vector<bool> listed(a.levels.size(), false);
    const YamlRef levels = n.get("levels");
    if (levels.defined() && !levels.isNull()) {
        for (std::size_t i = 0; i < levels.size(); ++i) {
            const YamlRef lv = levels[i];
            lv.requireMap();
            lv.checkKeys({"level", "temporal", "spatial_x", "spatial_y", "keep", "bypass"});
            const YamlRef lname = lv.require("level");
            const std::string name = lname.asString();
            const int li = a.levelIndex(name);
            if (li < 0) {
                std::string known;
                for (const auto& l : a.levels) known += (known.empty() ? "" : ", ") + l.name;
                lname.fail("unknown level '" + name + "' (storage levels: " + known + ")");
            }
            if (listed[li]) lname.fail("level '" + name + "' is listed twice");
            listed[li] = true;
            // Mapping::validate names levels by name ("levels[GLB]"); also remember the index form.
            const std::string lp = prefix + ".levels[" + name + "]";
            remember(lp, lv);
            remember(prefix + ".levels[" + std::to_string(li) + "]", lv);
            LevelMapping& lm = pm.mapping.levels[li];
            lm.temporal = readLoops(lv.get("temporal"), w, lp + ".temporal");
            lm.spatialX = readLoops(lv.get("spatial_x"), w, lp + ".spatial_x");
            lm.spatialY = readLoops(lv.get("spatial_y"), w, lp + ".spatial_y");
            for (const char* alias : {"temporal", "spatial_x", "spatial_y"}) {
                const YamlRef r = lv.get(alias);
                if (r.defined()) remember(lp + "." + alias, r);
            }
            if (const YamlRef sx = lv.get("spatial_x"); sx.defined()) remember(lp + ".spatialX", sx);
            if (const YamlRef sy = lv.get("spatial_y"); sy.defined()) remember(lp + ".spatialY", sy);
            const YamlRef keep = lv.get("keep"), bypass = lv.get("bypass");
            if (keep.defined() && bypass.defined()) bypass.fail("give either keep or bypass, not both");
            const YamlRef& list = keep.defined() ? keep : bypass;
            if (list.defined()) {
                remember(lp + ".keep", list);
                lm.keep.assign(w.tensors.size(), !keep.defined());
                if (!list.isNull())
                    for (std::size_t k = 0; k < list.size(); ++k) {
                        const std::string t = list[k].asString();
                        const int ti = w.tensorIndex(t);
                        if (ti < 0) {
                            std::string known;
                            for (const auto& x : w.tensors) known += (known.empty() ? "" : ", ") + x.name;
                            list[k].fail("unknown tensor '" + t + "' (workload '" + w.name + "' has " + known + ")");
                        }
                        lm.keep[ti] = keep.defined();
                    }
            }
        }
    }
    p_.mappings.push_back(std::move(pm));
}

// ---------------------------------------------------------------- constraints

// Dimension names of a constraint: a string ("C K", "C,K" or "CK" for one-letter names) or a
// list. Every name must be a dimension of the constrained workload, or of some workload of the
// project when the entry applies to every layer.
std::vector<std::string> ProjectReader::readDimensionNames(const YamlRef& v, const std::string& workload)
{
    std::vector<std::string> names = v.isSequence() ? v.asStringList() : splitDimensionList(v.asString());
    for (const auto& n : names) {
        bool known = false;
        std::string all;
        for (const auto& pw : p_.workloads) {
            if (!workload.empty() && pw.workload.name != workload) continue;
            known = known || pw.workload.dimIndex(n) >= 0;
            for (const auto& d : pw.workload.dimNames)
                if (all.find(" " + d + ",") == std::string::npos) all += " " + d + ",";
        }
        if (!known)
            v.fail("unknown dimension '" + n + "'" + (workload.empty() ? " (no workload has it;" : " (workload '" + workload + "' has") +
                   (all.empty() ? " none" : all.substr(0, all.size() - 1)) + ")");
    }
    return names;
}

void ProjectReader::checkTensor(const YamlRef& v, const std::string& tensor, const std::string& workload)
{
    for (const auto& pw : p_.workloads) {
        if (!workload.empty() && pw.workload.name != workload) continue;
        if (pw.workload.tensorIndex(tensor) >= 0) return;
    }
    v.fail("unknown tensor '" + tensor + "'" + (workload.empty() ? " (no workload has it)" : " (not in workload '" + workload + "')"));
}

void ProjectReader::readConstraint(const YamlRef& n)
{
    n.requireMap();
    const std::string prefix = yamlio::indexPath("constraints", p_.constraints.size());
    remember(prefix, n);
    ProjectConstraint c;
    const YamlRef typeRef = n.require("type");
    const std::string type = typeRef.asString();
    if (type == "temporal") {
        c.type = ProjectConstraint::Type::Temporal;
        n.checkKeys({"target", "type", "workload", "factors", "permutation"});
    } else if (type == "spatial") {
        c.type = ProjectConstraint::Type::Spatial;
        n.checkKeys({"target", "type", "workload", "factors", "permutation", "split", "spatial_x", "spatial_y"});
    } else if (type == "bypass" || type == "dataspace" || type == "datatype") {
        c.type = ProjectConstraint::Type::Bypass;
        n.checkKeys({"target", "type", "workload", "keep", "bypass"});
    } else if (type == "utilization") {
        c.type = ProjectConstraint::Type::Utilization;
        n.checkKeys({"target", "type", "workload", "min"});
    } else {
        typeRef.fail("unknown constraint type '" + type + "' (temporal, spatial, bypass, utilization)");
    }
    if (const YamlRef wl = n.get("workload"); wl.defined()) {
        c.workload = wl.asString();
        if (!p_.findWorkload(c.workload)) wl.fail("unknown workload '" + c.workload + "'");
    }
    const Architecture& a = p_.architecture;
    int level = -1;
    const YamlRef target = c.type == ProjectConstraint::Type::Utilization ? n.get("target") : n.require("target");
    if (target.defined()) {
        c.target = target.asString();
        if (a.levels.empty()) target.fail("constraints need an architecture");
        level = a.levelIndex(c.target);
        if (level < 0) {
            std::string known;
            for (const auto& l : a.levels) known += (known.empty() ? "" : ", ") + l.name;
            target.fail("unknown level '" + c.target + "' (storage levels: " + known + ")");
        }
    }
    const bool spatialOnly = level >= 0 && a.levels[level].technology == "dummy";

    if (const YamlRef f = n.get("factors"); f.defined()) {
        MapspaceConstraints parsed;
        try {
            parsed.addFactors(c.target, c.type == ProjectConstraint::Type::Spatial, f.asString());
        } catch (const NestorError& e) {
            f.fail(e.diagnostics().empty() ? e.what() : e.diagnostics().front().message);
        }
        if (parsed.factors.empty()) f.fail("no factors given (e.g. \"C=4 M<=8 P>=2\")");
        const std::int64_t fanout = level >= 0 ? a.fanout(level) : 1;
        for (const auto& x : parsed.factors) {
            bool known = false;
            for (const auto& pw : p_.workloads)
                if (c.workload.empty() || pw.workload.name == c.workload) known = known || pw.workload.dimIndex(x.dim) >= 0;
            if (!known) f.fail("unknown dimension '" + x.dim + "'" + (c.workload.empty() ? " (no workload has it)" : " (not in workload '" + c.workload + "')"));
            if (c.type == ProjectConstraint::Type::Spatial && x.op != FactorConstraint::Op::Le && x.value > fanout)
                f.fail(x.dim + " factor " + std::to_string(x.value) + " exceeds the fanout (" + std::to_string(fanout) +
                       ") of level '" + c.target + "'");
            if (c.type == ProjectConstraint::Type::Temporal && spatialOnly && x.op != FactorConstraint::Op::Le && x.value > 1)
                f.fail("level '" + c.target + "' is spatial-only (dummy): it has no temporal loops");
        }
        // Contradictions between factors of the same dimension.
        for (std::size_t i = 0; i < parsed.factors.size(); ++i) {
            std::int64_t lo = 1, hi = INT64_MAX;
            const std::string& d = parsed.factors[i].dim;
            for (const auto& x : parsed.factors) {
                if (x.dim != d) continue;
                if (x.op != FactorConstraint::Op::Le) lo = std::max(lo, x.value);
                if (x.op != FactorConstraint::Op::Ge) hi = std::min(hi, x.value);
                if (x.op == FactorConstraint::Op::Eq)
                    for (const auto& y : parsed.factors)
                        if (y.dim == d && y.op == FactorConstraint::Op::Eq && y.value != x.value)
                            f.fail("contradictory factors for " + d + ": " + d + "=" + std::to_string(x.value) + " and " + d + "=" +
                                   std::to_string(y.value));
            }
            if (lo > hi) f.fail("contradictory factors for " + d + ": no factor is >= " + std::to_string(lo) + " and <= " + std::to_string(hi));
        }
        c.factors = parsed.factors;
        remember(prefix + ".factors", f);
    }
    if (const YamlRef perm = n.get("permutation"); perm.defined()) {
        if (c.type == ProjectConstraint::Type::Spatial)
            perm.fail("a spatial permutation is not supported (the order of spatial loops cannot change any count)");
        if (!perm.isSequence() && perm.asString().find('_') != std::string::npos)
            perm.fail("a fixed outermost suffix ('_') is not supported; give the innermost prefix only");
        if (spatialOnly) perm.fail("level '" + c.target + "' is spatial-only (dummy): it has no temporal loops");
        c.permutation = readDimensionNames(perm, c.workload);
        for (std::size_t i = 0; i < c.permutation.size(); ++i)
            for (std::size_t j = 0; j < i; ++j)
                if (c.permutation[i] == c.permutation[j]) perm.fail("dimension '" + c.permutation[i] + "' appears twice");
    }
    const YamlRef split = n.get("split"), sx = n.get("spatial_x"), sy = n.get("spatial_y");
    if (split.defined() && (sx.defined() || sy.defined()))
        (sx.defined() ? sx : sy).fail("give either split or spatial_x/spatial_y, not both");
    if (split.defined()) {
        const std::string text = split.asString();
        const auto bar = text.find('|');
        if (bar == std::string::npos || text.find('|', bar + 1) != std::string::npos)
            split.fail("'" + text + "' is X-dims|Y-dims (e.g. \"C|K\")");
        const auto x = splitDimensionList(text.substr(0, bar)), y = splitDimensionList(text.substr(bar + 1));
        for (const auto* side : {&x, &y})
            for (const auto& d : *side) {
                bool known = false;
                for (const auto& pw : p_.workloads)
                    if (c.workload.empty() || pw.workload.name == c.workload) known = known || pw.workload.dimIndex(d) >= 0;
                if (!known) split.fail("unknown dimension '" + d + "'");
            }
        c.hasAxes = true;
        c.axisX = x;
        c.axisY = y;
    } else if (sx.defined() || sy.defined()) {
        c.hasAxes = true;
        if (sx.defined() && !sx.isNull()) c.axisX = readDimensionNames(sx, c.workload);
        if (sy.defined() && !sy.isNull()) c.axisY = readDimensionNames(sy, c.workload);
    }
    if (c.hasAxes) {
        const YamlRef at = split.defined() ? split : sx.defined() ? sx : sy;
        if (level >= 0 && a.fanout(level) <= 1) at.fail("level '" + c.target + "' has no spatial fanout");
        for (const auto& d : c.axisX)
            for (const auto& e : c.axisY)
                if (d == e) at.fail("dimension '" + d + "' is on both X and Y");
    }
    if (c.type == ProjectConstraint::Type::Spatial && level >= 0 && a.fanout(level) <= 1)
        n.fail("level '" + c.target + "' has no spatial fanout: a spatial constraint cannot apply");
    const YamlRef keep = n.get("keep"), bypass = n.get("bypass");
    if (c.type == ProjectConstraint::Type::Bypass && !keep.defined() && !bypass.defined())
        n.fail("a bypass constraint needs keep or bypass (a list of tensors)");
    auto tensors = [&](const YamlRef& v, std::vector<std::string>& out) {
        if (!v.defined() || v.isNull()) return;
        out = v.asStringList();
        for (const auto& t : out) checkTensor(v, t, c.workload);
    };
    tensors(keep, c.keep);
    tensors(bypass, c.bypass);
    for (const auto& t : c.keep) {
        for (const auto& u : c.bypass)
            if (t == u) bypass.fail("tensor '" + t + "' is both kept and bypassed");
        if (spatialOnly) keep.fail("level '" + c.target + "' is spatial-only (dummy): it keeps nothing");
    }
    if (level == 0 && !c.bypass.empty()) bypass.fail("the backing store ('" + c.target + "') keeps every tensor");
    if (c.type == ProjectConstraint::Type::Utilization) {
        const YamlRef m = n.require("min");
        c.minUtilization = m.asDouble();
        if (c.minUtilization < 0.0 || c.minUtilization > 1.0) m.fail("minimum utilization must be between 0 and 1");
    }
    if (c.type == ProjectConstraint::Type::Temporal && c.factors.empty() && c.permutation.empty())
        n.fail("a temporal constraint needs factors or a permutation");
    if (c.type == ProjectConstraint::Type::Spatial && c.factors.empty() && !c.hasAxes)
        n.fail("a spatial constraint needs factors, split or spatial_x/spatial_y");
    p_.constraints.push_back(std::move(c));
}

// ---------------------------------------------------------------- job, validation

void ProjectReader::readJob(const YamlRef& n)
{
    if (n.isNull()) return;
    n.requireMap();
    n.checkKeys({"workload", "mapping"});
    const YamlRef w = n.get("workload");
    if (w.defined()) {
        p_.jobWorkload = w.asString();
        if (!p_.findWorkload(p_.jobWorkload)) w.fail("unknown workload '" + p_.jobWorkload + "'");
    }
    const YamlRef m = n.get("mapping");
    if (m.defined()) {
        p_.jobMapping = m.asString();
        if (!p_.findMapping(p_.jobMapping)) m.fail("unknown mapping '" + p_.jobMapping + "'");
    }
}

void ProjectReader::validate()
{
    Diagnostics all;
    auto take = [&](Diagnostics d, const std::string& fallbackPath) {
        const auto fb = where_.find(fallbackPath);
        where_.locate(d, fb ? *fb : SourceLocation{});
        all.insert(all.end(), d.begin(), d.end());
    };
    for (std::size_t i = 0; i < p_.workloads.size(); ++i) {
        const std::string prefix = yamlio::indexPath("workloads", i);
        take(p_.workloads[i].workload.validate(prefix), prefix);
    }
    if (archLocation_) take(p_.architecture.validate("architecture"), "architecture");
    if (archLocation_ && all.empty() && p_.energyModel != "table") {
        // The model must be applicable (e.g. no unbounded SRAM); the project keeps the given values.
        try {
            Architecture copy = p_.architecture;
            applyEnergyModel(copy, p_.energyModel);
        } catch (const NestorError& e) {
            take(e.diagnostics(), "architecture.energy_model");
        }
    }
    if (!all.empty()) throw NestorError(std::move(all));  // mappings need a sound workload and architecture
    for (std::size_t i = 0; i < p_.mappings.size(); ++i) {
        const std::string prefix = yamlio::indexPath("mappings", i);
        const ProjectMapping& pm = p_.mappings[i];
        take(pm.mapping.validate(p_.findWorkload(pm.workload)->workload, p_.architecture, prefix), prefix);
    }
    if (!all.empty()) throw NestorError(std::move(all));
}

Project ProjectReader::run(const std::string& text, const std::string& path)
{
    p_.path = path;
    if (!path.empty()) stack_.push_back(canonical(path));
    load(text, path, true);
    const Doc& mainDoc = docs_.back();
    if (const YamlRef name = mainDoc.root.get("name"); name.defined()) p_.name = name.asString();

    auto eachList = [&](const char* key, auto fn) {
        for (const auto& d : docs_) {
            const YamlRef list = d.root.get(key);
            if (!list.defined() || list.isNull()) continue;
            for (std::size_t i = 0; i < list.size(); ++i) fn(list[i]);
        }
    };
    eachList("workloads", [&](const YamlRef& n) { readWorkload(n); });
    eachList("networks", [&](const YamlRef& n) { readNetwork(n); });
    for (const auto& d : docs_)
        if (const YamlRef a = d.root.get("architecture"); a.defined()) readArchitecture(a);
    eachList("mappings", [&](const YamlRef& n) { readMapping(n); });
    eachList("constraints", [&](const YamlRef& n) { readConstraint(n); });
    if (const YamlRef job = mainDoc.root.get("job"); job.defined()) readJob(job);
    validate();
    return std::move(p_);
}

} // namespace

Project parseProject(const std::string& yamlText, const std::string& pathForMessages)
{
    return ProjectReader().run(yamlText, pathForMessages);
}

Project readProject(const std::string& path)
{
    return parseProject(readTextFile(path), path);
}

} // namespace nestor
