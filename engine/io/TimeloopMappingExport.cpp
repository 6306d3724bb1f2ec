#include "io/TimeloopMappingExport.h"

#include "io/TextFormat.h"

#include <sstream>

namespace nestor {

namespace {

// Loops given innermost first.
void writeBlock(std::ostream& o, const Workload& w, const std::string& target, const char* type,
                const std::vector<Loop>& innermostFirst, const std::string& field, int split)
{
    std::vector<const Loop*> byDim(w.numDims(), nullptr);
    for (const Loop& l : innermostFirst) {
        if (l.dim < 0 || l.dim >= w.numDims()) throw NestorError(field, "loop over an unknown dimension index");
        if (byDim[l.dim])
            throw NestorError(field, "dimension " + w.dimNames[l.dim] +
                                         " appears twice in one block; Timeloop allows one loop per dimension and level");
        byDim[l.dim] = &l;
    }
    std::string factors;
    for (int d = 0; d < w.numDims(); ++d) {
        if (!factors.empty()) factors += " ";
        factors += w.dimNames[d] + "=";
        if (!byDim[d]) factors += "1";
        else {
            factors += std::to_string(byDim[d]->bound);
            if (byDim[d]->isImperfect()) factors += "," + std::to_string(byDim[d]->residual);
        }
    }
    std::vector<std::string> perm;
    for (const Loop& l : innermostFirst) perm.push_back(w.dimNames[l.dim]);
    for (int d = 0; d < w.numDims(); ++d)
        if (!byDim[d]) perm.push_back(w.dimNames[d]);
    bool singleChars = true;
    for (const auto& p : perm) singleChars = singleChars && p.size() == 1;
    std::string permutation;
    for (const auto& p : perm) permutation += (singleChars || permutation.empty() ? "" : " ") + p;

    o << "  - target: " << text::yamlScalar(target) << "\n";
    o << "    type: " << type << "\n";
    o << "    factors: " << text::yamlScalar(factors) << "\n";
    o << "    permutation: " << text::yamlScalar(permutation) << "\n";
    if (split >= 0) o << "    split: " << split << "\n";
}

} // namespace

std::string timeloopMappingYaml(const Mapping& m, const Workload& w, const Architecture& a)
{
    std::ostringstream o;
    o << "mapping:\n";
    for (int li = 0; li < a.numLevels(); ++li) {
        const std::string& target = a.levels[li].name;
        const std::string field = "mapping.levels[" + std::to_string(li) + "]";
        const LevelMapping empty;
        const LevelMapping& lm = li < static_cast<int>(m.levels.size()) ? m.levels[li] : empty;
        writeBlock(o, w, target, "temporal", std::vector<Loop>(lm.temporal.rbegin(), lm.temporal.rend()),
                   field + ".temporal", -1);
        if (!lm.spatialX.empty() || !lm.spatialY.empty()) {
            std::vector<Loop> sp(lm.spatialX.rbegin(), lm.spatialX.rend());
            sp.insert(sp.end(), lm.spatialY.rbegin(), lm.spatialY.rend());
            writeBlock(o, w, target, "spatial", sp, field + ".spatial", static_cast<int>(lm.spatialX.size()));
        }
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
