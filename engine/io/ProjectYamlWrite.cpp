// Writing Nestor project files (docs/project-format.md); the reader reads them back to
// the same values.
#include "io/AtomicFile.h"
#include "io/ProjectYaml.h"
#include "io/RankText.h"
#include "io/TextFormat.h"

#include <sstream>

namespace nestor {

namespace {

using text::shortest;
using text::yamlScalar;

std::string num(double v) { return shortest(v); }
std::string num(std::int64_t v) { return std::to_string(v); }

std::string optNum(const std::optional<double>& v) { return v ? shortest(*v) : "null"; }

std::string nameOf(const std::vector<std::string>& names, int i)
{
    return i >= 0 && i < static_cast<int>(names.size()) ? names[i] : "?";
}

std::string loops(const std::vector<Loop>& ls, const Workload& w)
{
    std::string s = "[";
    for (std::size_t i = 0; i < ls.size(); ++i) {
        const Loop& l = ls[i];
        s += (i ? ", [" : "[") + yamlScalar(nameOf(w.dimNames, l.dim)) + ", " + num(l.bound);
        if (l.residual != l.bound) s += ", " + num(l.residual);
        s += "]";
    }
    return s + "]";
}

void writeWorkload(std::ostream& o, const ProjectWorkload& pw)
{
    const LayerSpec& sp = pw.spec;
    const Workload& w = pw.workload;
    o << "  - name: " << yamlScalar(w.name) << "\n";
    o << "    type: " << yamlScalar(sp.type) << "\n";
    if (sp.type == "conv" || sp.type == "grouped" || sp.type == "depthwise") {
        const ConvParams& c = sp.conv;
        const bool dw = sp.type == "depthwise";
        o << "    N: " << c.N << "\n";
        if (!dw) o << "    M: " << c.M << "\n";
        o << "    C: " << c.C << "\n    P: " << c.P << "\n    Q: " << c.Q << "\n    R: " << c.R << "\n    S: " << c.S << "\n";
        o << "    stride: [" << c.strideH << ", " << c.strideW << "]\n";
        o << "    dilation: [" << c.dilationH << ", " << c.dilationW << "]\n";
        if (!dw) o << "    groups: " << c.groups << "\n";
    } else if (sp.type == "gemm") {
        o << "    M: " << sp.gemmM << "\n    N: " << sp.gemmN << "\n    K: " << sp.gemmK << "\n";
    } else if (sp.type == "fc") {
        o << "    batch: " << sp.fcBatch << "\n    out_features: " << sp.fcOut << "\n    in_features: " << sp.fcIn << "\n";
    } else {
        o << "    dimensions: {";
        for (int d = 0; d < w.numDims(); ++d)
            o << (d ? ", " : "") << yamlScalar(w.dimNames[d]) << ": " << (d < static_cast<int>(w.bounds.size()) ? w.bounds[d] : 0);
        o << "}\n    tensors:\n";
        for (const auto& t : w.tensors) {
            o << "      - {name: " << yamlScalar(t.name) << ", ranks: [";
            for (std::size_t r = 0; r < t.ranks.size(); ++r)
                o << (r ? ", " : "") << yamlScalar(formatRankExpression(t.ranks[r], w.dimNames));
            o << "]";
            if (t.readWrite) o << ", read_write: true";
            o << "}\n";
        }
    }
}

void writeArchitecture(std::ostream& o, const Project& p)
{
    const Architecture& a = p.architecture;
    o << "architecture:\n";
    if (!a.name.empty()) o << "  name: " << yamlScalar(a.name) << "\n";
    o << "  cycle_seconds: " << num(a.cycle_seconds) << "\n";
    o << "  energy_model: " << yamlScalar(p.energyModel) << "\n";
    o << "  levels:                      # outermost (backing store) first\n";
    for (const auto& l : a.levels) {
        o << "    - name: " << yamlScalar(l.name) << "\n";
        o << "      technology: " << yamlScalar(l.technology) << "\n";
        o << "      size_words: " << (l.size_words ? num(*l.size_words) : std::string("null")) << "\n";
        o << "      word_bits: " << l.word_bits << "\n";
        o << "      block_size: " << l.block_size << "\n";
        o << "      cluster_size: " << l.cluster_size << "\n";
        o << "      instances: " << l.instances << "\n";
        o << "      mesh_x: " << l.meshX << "\n";
        o << "      read_bw: " << optNum(l.read_bw_words_per_cycle) << "\n";
        o << "      write_bw: " << optNum(l.write_bw_words_per_cycle) << "\n";
        o << "      shared_bw: " << optNum(l.shared_bw_words_per_cycle) << "\n";
        o << "      multiple_buffering: " << num(l.multiple_buffering) << "\n";
        o << "      energy_pJ: {read: " << num(l.energy.read_pJ) << ", fill: " << num(l.energy.fill_pJ)
          << ", update: " << num(l.energy.update_pJ) << ", leak: " << num(l.energy.leak_pJ) << "}\n";
        o << "      area_um2: " << num(l.area_um2) << "\n";
        if (l.energyFixed) o << "      energy_fixed: true\n";
    }
    const ComputeLevel& c = a.compute;
    o << "  compute:\n";
    o << "    name: " << yamlScalar(c.name) << "\n";
    o << "    instances: " << c.instances << "\n";
    o << "    mesh_x: " << c.meshX << "\n";
    o << "    energy_pJ: " << num(c.mac_energy_pJ) << "\n";
    o << "    area_um2: " << num(c.area_um2) << "\n";
}

void writeMapping(std::ostream& o, const ProjectMapping& pm, const Project& p)
{
    o << "  - name: " << yamlScalar(pm.mapping.name) << "\n";
    o << "    workload: " << yamlScalar(pm.workload) << "\n";
    if (!pm.description.empty()) o << "    description: " << yamlScalar(pm.description) << "\n";
    const ProjectWorkload* pw = p.findWorkload(pm.workload);
    const Workload empty;
    const Workload& w = pw ? pw->workload : empty;
    std::ostringstream lv;
    const auto& levels = pm.mapping.levels;
    for (std::size_t i = 0; i < levels.size() && i < p.architecture.levels.size(); ++i) {
        const LevelMapping& lm = levels[i];
        if (lm.temporal.empty() && lm.spatialX.empty() && lm.spatialY.empty() && lm.keep.empty()) continue;
        lv << "      - level: " << yamlScalar(p.architecture.levels[i].name) << "\n";
        if (!lm.temporal.empty()) lv << "        temporal: " << loops(lm.temporal, w) << "\n";
        if (!lm.spatialX.empty()) lv << "        spatial_x: " << loops(lm.spatialX, w) << "\n";
        if (!lm.spatialY.empty()) lv << "        spatial_y: " << loops(lm.spatialY, w) << "\n";
        if (!lm.keep.empty()) {
            lv << "        keep: [";
            bool first = true;
            for (std::size_t t = 0; t < lm.keep.size() && t < w.tensors.size(); ++t)
                if (lm.keep[t]) {
                    lv << (first ? "" : ", ") << yamlScalar(w.tensors[t].name);
                    first = false;
                }
            lv << "]\n";
        }
    }
    const std::string body = lv.str();
    if (body.empty()) o << "    levels: []\n";
    else o << "    levels:\n" << body;
}

std::string nameList(const std::vector<std::string>& names)
{
    std::string s = "[";
    for (std::size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + yamlScalar(names[i]);
    return s + "]";
}

void writeConstraint(std::ostream& o, const ProjectConstraint& c)
{
    o << "  - {";
    bool first = true;
    auto field = [&](const char* key, const std::string& value) {
        o << (first ? "" : ", ") << key << ": " << value;
        first = false;
    };
    if (!c.target.empty()) field("target", yamlScalar(c.target));
    field("type", projectConstraintTypeName(c.type));
    if (!c.workload.empty()) field("workload", yamlScalar(c.workload));
    if (!c.factors.empty()) {
        std::string f;
        for (const auto& x : c.factors)
            f += (f.empty() ? "" : " ") + x.dim +
                 (x.op == FactorConstraint::Op::Eq ? "=" : x.op == FactorConstraint::Op::Le ? "<=" : ">=") + num(x.value);
        field("factors", yamlScalar(f));
    }
    if (!c.permutation.empty()) field("permutation", nameList(c.permutation));
    if (c.hasAxes) {
        field("spatial_x", nameList(c.axisX));
        field("spatial_y", nameList(c.axisY));
    }
    if (!c.keep.empty()) field("keep", nameList(c.keep));
    if (!c.bypass.empty()) field("bypass", nameList(c.bypass));
    if (c.type == ProjectConstraint::Type::Utilization) field("min", num(c.minUtilization));
    o << "}\n";
}

} // namespace

std::string writeProject(const Project& p)
{
    std::ostringstream o;
    o << "nestor: 1\n";
    if (!p.name.empty()) o << "name: " << yamlScalar(p.name) << "\n";
    if (!p.workloads.empty()) {
        o << "\nworkloads:\n";
        for (const auto& w : p.workloads) writeWorkload(o, w);
    }
    if (!p.networks.empty()) {
        o << "\nnetworks:\n";
        for (const auto& n : p.networks) {
            o << "  - name: " << yamlScalar(n.name) << "\n    layers: [";
            for (std::size_t i = 0; i < n.layers.size(); ++i)
                o << (i ? ", " : "") << "{workload: " << yamlScalar(n.layers[i].first) << ", repeat: " << n.layers[i].second
                  << "}";
            o << "]\n";
        }
    }
    if (!p.architecture.levels.empty()) {
        o << "\n";
        writeArchitecture(o, p);
    }
    if (!p.mappings.empty()) {
        o << "\nmappings:\n";
        for (const auto& m : p.mappings) writeMapping(o, m, p);
    }
    if (!p.constraints.empty()) {
        o << "\nconstraints:\n";
        for (const auto& c : p.constraints) writeConstraint(o, c);
    }
    if (!p.jobWorkload.empty() || !p.jobMapping.empty()) {
        o << "\njob:\n";
        if (!p.jobWorkload.empty()) o << "  workload: " << yamlScalar(p.jobWorkload) << "\n";
        if (!p.jobMapping.empty()) o << "  mapping: " << yamlScalar(p.jobMapping) << "\n";
    }
    return o.str();
}

void saveProject(const Project& project, const std::string& path)
{
    writeFileAtomically(path, writeProject(project));
}

} // namespace nestor
