#include "io/LoopNestText.h"

#include <sstream>

namespace nestor {

namespace {

std::string dimName(const Workload& w, int d)
{
    return d >= 0 && d < w.numDims() ? w.dimNames[d] : "?";
}

std::string header(const Workload& w, const Architecture& a, const Mapping& m, int li, const Evaluation* ev)
{
    std::string s = a.levels[li].name + " [";
    const LevelStats* ls = ev && li < static_cast<int>(ev->levels.size()) ? &ev->levels[li] : nullptr;
    for (int t = 0; t < w.numTensors(); ++t) {
        if (!m.keeps(li, t)) continue;
        s += " " + w.tensors[t].name;
        if (ls && t < static_cast<int>(ls->tensors.size())) s += ":" + std::to_string(ls->tensors[t].utilized_capacity);
    }
    return s + " ]";
}

} // namespace

std::string loopNestText(const Mapping& m, const Workload& w, const Architecture& a, const Evaluation* ev)
{
    std::ostringstream o;
    int depth = 0;
    auto line = [&](const std::string& text) { o << "| " << std::string(2 * depth, ' ') << text << "\n"; };
    auto loop = [&](const Loop& l, const char* kind, const char* suffix) {
        if (l.bound == 1 && l.residual == 1) return;
        std::string s = std::string(kind) + " " + dimName(w, l.dim) + " in [0:" + std::to_string(l.bound) + ")";
        if (l.isImperfect()) s += " (residual " + std::to_string(l.residual) + ")";
        s += suffix;
        line(s);
        ++depth;
    };
    for (int li = 0; li < a.numLevels(); ++li) {
        if (li > 0) o << "\n";
        const std::string h = header(w, a, m, li, ev);
        o << h << "\n" << std::string(h.size(), '-') << "\n";
        if (li >= static_cast<int>(m.levels.size())) continue;
        const LevelMapping& lm = m.levels[li];
        for (const auto& l : lm.temporal) loop(l, "for", "");
        for (const auto& l : lm.spatialY) loop(l, "par-for", " (Y)");  // Y sits outside X in the nest
        for (const auto& l : lm.spatialX) loop(l, "par-for", " (X)");
    }
    o << "\n";
    line("<< Compute >>");
    return o.str();
}

} // namespace nestor
