#include "io/TimeloopMappingExport.h"

#include "common/CheckedMath.h"
#include "io/TextFormat.h"

#include <climits>
#include <sstream>

namespace nestor {

namespace {

// Timeloop's parser reads a permutation one character per dimension and a factor name with
// [A-Za-z]+, so only single-letter dimension names survive the round trip.
bool isTimeloopDimName(const std::string& n)
{
    return n.size() == 1 && ((n[0] >= 'A' && n[0] <= 'Z') || (n[0] >= 'a' && n[0] <= 'z'));
}

std::string factorText(const Loop& l)
{
    return std::to_string(l.bound) + (l.isImperfect() ? "," + std::to_string(l.residual) : "");
}

// One axis (or a temporal block) in Timeloop's form: unit loops dropped, runs of adjacent loops
// of one dimension merged. Outer (b1, r1) directly around inner (b2, r2) walks the same index
// sequence as one loop of bound b1*b2 and residual (r1-1)*b2 + r2, and "last global iteration"
// (Mapping.h) means the same for the loops inside. Loops of one dimension with another
// dimension between them have no single-factor form: a Diagnostic each. Outermost first.
std::vector<Loop> collapse(const std::vector<Loop>& outerFirst, const Workload& w, const std::string& field,
                           const std::string& where, Diagnostics& problems)
{
    std::vector<Loop> out;
    for (const Loop& l : outerFirst) {
        if (l.bound == 1) continue;
        if (!out.empty() && out.back().dim == l.dim) {
            Loop& m = out.back();
            std::int64_t bound = 0, residual = 0;
            if (!checkedMul(m.bound, l.bound, &bound) || !checkedMul(m.residual - 1, l.bound, &residual) ||
                !checkedAdd(residual, l.residual, &residual)) {
                problems.push_back({field, "the loops of " + w.dimNames[l.dim] + " in " + where +
                                               " multiply beyond 64 bits", {}});
                continue;
            }
            m = makeLoop(l.dim, bound, residual);
            continue;
        }
        for (std::size_t k = 0; k < out.size(); ++k)
            if (out[k].dim == l.dim) {
                problems.push_back({field, "dimension " + w.dimNames[l.dim] + " has two loops in " + where + " (" +
                                               factorText(out[k]) + " and " + factorText(l) + ") with " +
                                               w.dimNames[out[k + 1].dim] +
                                               " between them; Timeloop's mapping gives each dimension "
                                               "one factor per block, so this order has no Timeloop form",
                                    {}});
                break;
            }
        out.push_back(l);
    }
    for (const Loop& l : out)
        if (l.bound > INT_MAX)  // Timeloop reads factors with std::stoi
            problems.push_back({field, "factor " + w.dimNames[l.dim] + "=" + factorText(l) + " in " + where +
                                           " exceeds Timeloop's limit of " + std::to_string(INT_MAX),
                                {}});
    return out;
}

struct Block {
    std::vector<Loop> innermostFirst;
    int split = -1;  // number of X entries; -1 = temporal
};

void writeBlock(std::ostream& o, const Workload& w, const std::string& target, const Block& b)
{
    std::vector<const Loop*> byDim(w.numDims(), nullptr);
    for (const Loop& l : b.innermostFirst) byDim[l.dim] = &l;
    std::string factors;
    for (int d = 0; d < w.numDims(); ++d)
        factors += (factors.empty() ? "" : " ") + w.dimNames[d] + "=" + (byDim[d] ? factorText(*byDim[d]) : "1");
    std::string permutation;
    for (const Loop& l : b.innermostFirst) permutation += w.dimNames[l.dim];
    for (int d = 0; d < w.numDims(); ++d)
        if (!byDim[d]) permutation += w.dimNames[d];  // unit dimensions outermost

    o << "  - target: " << text::yamlScalar(target) << "\n";
    o << "    type: " << (b.split < 0 ? "temporal" : "spatial") << "\n";
    o << "    factors: " << text::yamlScalar(factors) << "\n";
    o << "    permutation: " << text::yamlScalar(permutation) << "\n";
    if (b.split >= 0) o << "    split: " << b.split << "\n";
}

std::vector<Loop> innermostFirst(std::vector<Loop> v) { return std::vector<Loop>(v.rbegin(), v.rend()); }

} // namespace

std::string timeloopMappingYaml(const Mapping& m, const Workload& w, const Architecture& a)
{
    // Everything is checked before any text exists: a refused mapping writes nothing.
    Diagnostics problems = m.validate(w, a, "mapping");
    if (!problems.empty()) throw NestorError(problems);
    for (int d = 0; d < w.numDims(); ++d)
        if (!isTimeloopDimName(w.dimNames[d]))
            problems.push_back({"workload.dimensions[" + std::to_string(d) + "]",
                                "dimension '" + w.dimNames[d] +
                                    "' is not a single letter; Timeloop's mapping parser reads one letter per dimension",
                                {}});
    if (!problems.empty()) throw NestorError(problems);

    std::vector<Block> temporal(a.numLevels()), spatial(a.numLevels());
    for (int li = 0; li < a.numLevels(); ++li) {
        const LevelMapping& lm = m.levels[li];
        const std::string& name = a.levels[li].name;
        const std::string field = "mapping.levels[" + name + "]";  // Mapping::validate's field names
        temporal[li].innermostFirst =
            innermostFirst(collapse(lm.temporal, w, field + ".temporal", name + "'s temporal block", problems));
        const std::vector<Loop> x = collapse(lm.spatialX, w, field + ".spatial_x", name + "'s spatial X axis", problems);
        const std::vector<Loop> y = collapse(lm.spatialY, w, field + ".spatial_y", name + "'s spatial Y axis", problems);
        for (const Loop& lx : x)
            for (const Loop& ly : y)
                if (lx.dim == ly.dim)
                    problems.push_back({field + ".spatial",
                                        "dimension " + w.dimNames[lx.dim] + " is spread over both axes of " + name +
                                            "'s fanout (X " + factorText(lx) + ", Y " + factorText(ly) +
                                            "); Timeloop's mapping gives each dimension one spatial factor on one axis "
                                            "(a spatial constraint with split keeps a search to that form)",
                                        {}});
        // Timeloop's split sends the first `split` (innermost) entries to X; X sits inside Y.
        spatial[li].innermostFirst = innermostFirst(x);
        spatial[li].split = static_cast<int>(x.size());
        for (const Loop& l : innermostFirst(y)) spatial[li].innermostFirst.push_back(l);
    }
    if (!problems.empty()) {
        problems.front().message = "cannot be written as a Timeloop mapping: " + problems.front().message;
        throw NestorError(problems);
    }

    std::ostringstream o;
    o << "mapping:\n";
    for (int li = 0; li < a.numLevels(); ++li) {
        const std::string& target = a.levels[li].name;
        writeBlock(o, w, target, temporal[li]);
        // A spatial block only where Timeloop has a spatial tiling level (a fanout): it rejects
        // one elsewhere.
        if (a.fanout(li) > 1) writeBlock(o, w, target, spatial[li]);
        std::string keep, bypass;
        for (int t = 0; t < w.numTensors(); ++t) {
            std::string& list = m.keeps(li, t) ? keep : bypass;
            list += (list.empty() ? "" : ", ") + text::yamlScalar(w.tensors[t].name);
        }
        o << "  - target: " << text::yamlScalar(target) << "\n";
        o << "    type: bypass\n";
        o << "    keep: [" << keep << "]\n";
        o << "    bypass: [" << bypass << "]\n";
    }
    return o.str();
}

} // namespace nestor
