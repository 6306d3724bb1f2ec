#include "analysis/DataflowNotation.h"

#include <algorithm>
#include <cctype>

namespace nestor {

namespace {

struct LetterPair {
    const char* paper;
    const char* nestor;
};
constexpr LetterPair kLetters[] = {{"B", "N"}, {"K", "M"}, {"C", "C"}, {"X", "P"}, {"Y", "Q"}, {"FX", "R"}, {"FY", "S"}};

std::string upper(std::string s)
{
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

} // namespace

std::string paperDimName(const std::string& nestorDim)
{
    for (const auto& l : kLetters)
        if (nestorDim == l.nestor) return l.paper;
    return nestorDim;
}

std::string nestorDimName(const std::string& letter)
{
    const std::string u = upper(letter);
    for (const auto& l : kLetters)
        if (u == l.paper || u == l.nestor) return l.nestor;
    return {};
}

Dataflow parseDataflow(const std::string& text, const std::string& field)
{
    auto fail = [&](std::size_t pos, const std::string& what) -> NestorError {
        return NestorError(field, "'" + text + "' at position " + std::to_string(pos + 1) + ": " + what);
    };
    Dataflow d;
    std::vector<std::string>* side = &d.x;
    std::size_t bar = std::string::npos;
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == ',') {
            ++i;
            continue;
        }
        if (c == '|') {
            if (bar != std::string::npos) throw fail(i, "a second '|' (one '|' separates the X loops from the Y loops)");
            bar = i;
            side = &d.y;
            ++i;
            continue;
        }
        std::size_t len = 1;
        if ((c == 'F' || c == 'f') && i + 1 < text.size()) {
            const char n = static_cast<char>(std::toupper(static_cast<unsigned char>(text[i + 1])));
            if (n == 'X' || n == 'Y') len = 2;
        }
        const std::string token = text.substr(i, len);
        const std::string dim = nestorDimName(token);
        if (dim.empty())
            throw fail(i, "'" + token + "' names no conv loop (paper: B K C X Y FX FY; Nestor: N M C P Q R S)");
        if (std::find(side->begin(), side->end(), dim) != side->end())
            throw fail(i, "loop " + paperDimName(dim) + " is already on this axis");
        side->push_back(dim);
        i += len;
    }
    if (bar == std::string::npos) throw fail(text.size(), "no '|' (expected X-loops|Y-loops, e.g. C|K)");
    if (d.x.empty() && d.y.empty()) throw fail(bar, "no loop on either side of '|'");
    return d;
}

std::string dataflowText(const Dataflow& d, bool paperLetters)
{
    bool plain = true;
    for (const auto* side : {&d.x, &d.y})
        for (const auto& n : *side) plain = plain && !nestorDimName(n).empty() && nestorDimName(n) == n;
    auto join = [&](const std::vector<std::string>& names) {
        std::string s;
        for (const auto& n : names) {
            if (!plain && !s.empty()) s += ' ';
            s += paperLetters ? paperDimName(n) : n;
        }
        return s;
    };
    return join(d.x) + "|" + join(d.y);
}

bool hasConvLoops(const Workload& w)
{
    for (const auto& n : w.dimNames)
        if (n != "G" && nestorDimName(n) != n) return false;
    return true;
}

std::string dataflowText(const Workload& w, const Dataflow& d) { return dataflowText(d, hasConvLoops(w)); }

namespace {

// Adds the loops of one level's axis list (outermost first) to an innermost-first list.
void addAxisLoops(const Workload& w, const std::vector<Loop>& loops, std::vector<std::string>& names,
                  std::vector<std::int64_t>& factors)
{
    for (const Loop& l : loops) {  // outermost first: each one goes in front of what is inside it
        if (l.bound <= 1) continue;
        const std::string& n = w.dimNames[static_cast<std::size_t>(l.dim)];
        std::int64_t f = l.bound;
        const auto it = std::find(names.begin(), names.end(), n);
        if (it != names.end()) {  // an outer occurrence: merged into this, its innermost place
            const auto k = it - names.begin();
            f *= factors[static_cast<std::size_t>(k)];
            names.erase(it);
            factors.erase(factors.begin() + k);
        }
        names.insert(names.begin(), n);
        factors.insert(factors.begin(), f);
    }
}

bool onAxis(const std::vector<std::string>& axis, const std::string& n)
{
    return std::find(axis.begin(), axis.end(), n) != axis.end();
}

std::string stationaryName(const Workload& w, int t)
{
    const Tensor& tensor = w.tensors[static_cast<std::size_t>(t)];
    if (tensor.readWrite) return "output-stationary";
    if (tensor.name == "Weights") return "weight-stationary";
    if (tensor.name == "Inputs") return "input-stationary";
    std::string s;
    for (char c : tensor.name) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s + "-stationary";
}

} // namespace

DataflowClass classifyDataflow(const Workload& w, const Architecture& a, const Mapping& m)
{
    const Diagnostics d = m.validate(w, a);
    if (!d.empty()) throw NestorError(d);
    DataflowClass r;
    r.paperLetters = hasConvLoops(w);
    // A level's spatial loops are outer to those of the levels below it, so the innermost-first
    // lists are built by walking the levels outermost first and putting each loop in front.
    for (const LevelMapping& lm : m.levels) {
        addAxisLoops(w, lm.spatialX, r.spatial.x, r.xFactors);
        addAxisLoops(w, lm.spatialY, r.spatial.y, r.yFactors);
    }

    std::vector<int> peLevels;
    for (int i = 0; i < a.numLevels(); ++i) {
        const StorageLevel& l = a.levels[static_cast<std::size_t>(i)];
        if (l.instances == a.compute.instances && !l.isSpatialOnly()) peLevels.push_back(i);
    }
    auto keptInPe = [&](int t) {
        for (int i : peLevels)
            if (m.keeps(i, t)) return true;
        return false;
    };
    bool anyKept = false;
    for (int t = 0; t < w.numTensors(); ++t) anyKept = anyKept || keptInPe(t);
    if (!anyKept) {
        r.name = "no local reuse";
        r.reason = peLevels.empty() ? "no storage level is private to a MAC"
                                    : "the levels private to a MAC keep no tensor";
        return r;
    }

    const int weights = w.tensorIndex("Weights");
    const Dataflow& s = r.spatial;
    for (const auto& [filter, output] : {std::pair<const char*, const char*>{"S", "Q"}, {"R", "P"}}) {
        const bool split = (onAxis(s.x, filter) && onAxis(s.y, output)) || (onAxis(s.y, filter) && onAxis(s.x, output));
        if (split && weights >= 0 && keptInPe(weights) && w.dimIndex(filter) >= 0 && w.dimIndex(output) >= 0) {
            r.name = "row-stationary";
            r.reason = "filter loop " + paperDimName(filter) + " and output loop " + paperDimName(output) +
                       " on different axes, weights kept in the PEs (Interstellar Table 1: FY|Y)";
            return r;
        }
    }

    const Loop* innermost = nullptr;
    for (const LevelMapping& lm : m.levels)
        for (const Loop& l : lm.temporal)
            if (l.bound > 1) innermost = &l;
    if (!innermost) {
        r.reason = "no temporal loop: nothing stays in place while the MACs step";
        return r;
    }
    const std::string& dim = w.dimNames[static_cast<std::size_t>(innermost->dim)];
    std::string unindexed;
    for (int t = 0; t < w.numTensors(); ++t) {
        if (w.dependsOn(t, innermost->dim)) continue;
        unindexed += (unindexed.empty() ? "" : ", ") + w.tensors[static_cast<std::size_t>(t)].name;
        if (keptInPe(t)) {
            r.name = stationaryName(w, t);
            r.reason = "the innermost temporal loop " + paperDimName(dim) + " does not index " +
                       w.tensors[static_cast<std::size_t>(t)].name + ", which a level private to each MAC keeps";
            return r;
        }
    }
    r.reason = "the innermost temporal loop " + paperDimName(dim) +
               (unindexed.empty() ? " indexes every tensor" : " leaves " + unindexed + " in place, but no PE-level level keeps it");
    return r;
}

} // namespace nestor
