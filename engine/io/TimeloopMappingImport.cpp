// Timeloop mapping directives -> Mapping, following mapping::ParseAndConstruct of NVlabs/timeloop
// (src/mapping/parser.cpp): factors missing at a level are 1 and factor 0 means the whole
// dimension; permutations list dimensions innermost first and missing ones are appended (outer)
// in declaration order; a spatial directive's first `split` permutation entries go to X (all of
// them without a split); tensors not bypassed are kept. Unlike Timeloop, which prints a warning
// and carries on or exits, every problem here is an error located at its value.
#include "io/TimeloopImportParts.h"

#include "common/CheckedMath.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

namespace nestor::timeloopimport {

using yamlio::YamlRef;

namespace {

struct Factor {
    std::int64_t bound = 1;
    std::int64_t residual = 1;
};

// "C=3 M=1 P=16,5", "C1 M4", "R=1,P=16,K=16": NAME [=] N [,RESIDUAL] separated by spaces or
// commas; text after '#' is a comment.
std::map<int, Factor> parseFactors(const YamlRef& ref, const Workload& w)
{
    std::string s = ref.asString();
    s = s.substr(0, s.find('#'));
    std::map<int, Factor> out;
    std::size_t i = 0;
    auto skipSeparators = [&] { while (i < s.size() && (std::isspace(static_cast<unsigned char>(s[i])) || s[i] == ',')) ++i; };
    auto skipSpaces = [&] { while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i; };
    auto number = [&](const std::string& dim) {
        const std::size_t start = i;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        if (start == i) ref.fail("factors: expected a number after '" + dim + "' in \"" + s + "\"");
        const std::string digits = s.substr(start, i - start);
        if (digits.size() > 18) ref.fail("factors: " + dim + "=" + digits + " is too large");
        return std::stoll(digits);
    };
    for (skipSeparators(); i < s.size(); skipSeparators()) {
        const std::size_t start = i;
        while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
        const std::string dim = s.substr(start, i - start);
        if (dim.empty()) ref.fail("factors: unexpected '" + std::string(1, s[i]) + "' in \"" + s + "\" (write D=n)");
        const int d = w.dimIndex(dim);
        if (d < 0) ref.fail("factors: unknown dimension '" + dim + "'");
        if (out.count(d)) ref.fail("factors: dimension " + dim + " is given twice");
        skipSpaces();
        while (i < s.size() && s[i] == '=') ++i;
        skipSpaces();
        Factor f;
        f.bound = number(dim);
        if (f.bound == 0) f.bound = w.bounds[static_cast<std::size_t>(d)];  // Timeloop: 0 = the whole dimension
        f.residual = f.bound;
        if (i + 1 < s.size() && s[i] == ',' && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
            ++i;
            f.residual = number(dim);
            if (f.residual < 1 || f.residual > f.bound)
                ref.fail("factors: the residual of " + dim + " must be between 1 and its factor " + std::to_string(f.bound));
        }
        out[d] = f;
    }
    return out;
}

// One character per dimension (Timeloop's ParseUserPermutations), innermost first; missing
// dimensions appended in declaration order.
std::vector<int> parsePermutation(const YamlRef& ref, const Workload& w)
{
    std::vector<int> perm;
    if (ref.defined() && !ref.isNull()) {
        for (char ch : ref.asString()) {
            if (std::isspace(static_cast<unsigned char>(ch))) continue;
            const int d = w.dimIndex(std::string(1, ch));
            if (d < 0) ref.fail("permutation: unknown dimension '" + std::string(1, ch) + "'");
            for (int e : perm)
                if (e == d) ref.fail("permutation: dimension " + w.dimNames[static_cast<std::size_t>(d)] + " is listed twice");
            perm.push_back(d);
        }
    }
    for (int d = 0; d < w.numDims(); ++d)
        if (std::find(perm.begin(), perm.end(), d) == perm.end()) perm.push_back(d);
    return perm;
}

// Loops of `perm[first, last)` (innermost first) as Nestor loops, outermost first, unit loops dropped.
std::vector<Loop> loopsOf(const std::vector<int>& perm, std::size_t first, std::size_t last,
                          const std::map<int, Factor>& factors)
{
    std::vector<Loop> loops;
    for (std::size_t k = last; k-- > first;) {
        const auto it = factors.find(perm[k]);
        if (it == factors.end() || it->second.bound <= 1) continue;
        loops.push_back(makeLoop(perm[k], it->second.bound, it->second.residual));
    }
    return loops;
}

int targetLevel(const YamlRef& d, const Architecture& a)
{
    const YamlRef t = d.require("target");
    t.requireScalar();
    const std::string name = t.asString();
    const int li = a.levelIndex(name);
    if (li >= 0) return li;
    if (!name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
        const std::int64_t id = t.asInt();  // Timeloop's storage level id: 0 = innermost
        if (id < a.numLevels()) return a.numLevels() - 1 - static_cast<int>(id);
        t.fail("storage level id " + name + " is out of range (0.." + std::to_string(a.numLevels() - 1) + ")");
    }
    if (name == a.compute.name) t.fail("'" + name + "' is the compute level; mapping directives target storage levels");
    std::string names;
    for (const auto& l : a.levels) names += (names.empty() ? "" : ", ") + l.name;
    t.fail("unknown level '" + name + "' (levels: " + names + ")");
}

struct LevelDirectives {
    std::optional<YamlRef> temporal, spatial;
};

} // namespace

Mapping readTimeloopMapping(const YamlRef& mapping, const Workload& w, const Architecture& a, Warnings& warnings)
{
    if (mapping.isMap() && mapping.has("mapping"))
        mapping.fail("Timeloop reads `mapping` as a list of directives (the nested `mapping: {mapping: ...}` is not its format)");
    mapping.requireSequence();
    const auto nl = static_cast<std::size_t>(a.numLevels());
    std::vector<LevelDirectives> dirs(nl);
    Mapping m;
    m.name = "timeloop";
    m.levels.resize(nl);
    // Timeloop keeps what is not bypassed; spatial-only levels have nothing to keep.
    for (std::size_t i = 0; i < nl; ++i) m.levels[i].keep.assign(w.tensors.size(), a.levels[i].technology != "dummy");

    for (std::size_t k = 0; k < mapping.size(); ++k) {
        const YamlRef d = mapping[k];
        d.requireMap();
        const std::string type = d.require("type").asString();
        const int li = targetLevel(d, a);
        const auto level = static_cast<std::size_t>(li);
        const std::string& lname = a.levels[level].name;
        for (const char* unsupported : {"no_link_transfer", "no_multicast_no_reduction", "no_temporal_reuse",
                                        "rmw_on_first_writeback", "passthrough"})
            if (d.has(unsupported))
                d.get(unsupported).fail(std::string(unsupported) + " changes Timeloop's counting and is not supported");
        if (type == "temporal" || type == "spatial") {
            auto& slot = type == "temporal" ? dirs[level].temporal : dirs[level].spatial;
            if (slot)
                d.require("type").fail("a second " + type + " directive for level " + lname + " (the first is at " +
                                       slot->location().toString() + ")");
            if (type == "spatial" && a.fanout(li) <= 1)
                d.require("target").fail("level " + lname + " has no spatial fanout (its children have as many instances)");
            slot = d;
            d.checkKeys({"target", "type", "factors", "permutation", "split"});
            if (type == "temporal" && d.has("split")) d.get("split").fail("split belongs to spatial directives");
        } else if (type == "bypass" || type == "datatype") {
            d.checkKeys({"target", "type", "keep", "bypass"});
            for (const char* key : {"keep", "bypass"}) {
                const YamlRef list = d.get(key);
                if (list.isNull()) continue;
                list.requireSequence();
                for (std::size_t t = 0; t < list.size(); ++t) {
                    const std::string tn = list[t].asString();
                    const int ti = w.tensorIndex(tn);
                    if (ti < 0) list[t].fail("unknown data space '" + tn + "'");
                    m.levels[level].keep[static_cast<std::size_t>(ti)] = std::string(key) == "keep";
                }
            }
        } else if (type == "skew") {
            d.require("type").fail("skew directives are not supported by the importer");
        } else {
            d.require("type").fail("unknown directive type '" + type + "' (temporal, spatial, bypass or datatype)");
        }
    }

    for (std::size_t i = 0; i < nl; ++i) {
        LevelMapping& lm = m.levels[i];
        if (dirs[i].temporal) {
            const YamlRef& d = *dirs[i].temporal;
            const auto perm = parsePermutation(d.get("permutation"), w);
            lm.temporal = loopsOf(perm, 0, perm.size(), d.has("factors") ? parseFactors(d.get("factors"), w) : std::map<int, Factor>{});
        }
        if (dirs[i].spatial) {
            const YamlRef& d = *dirs[i].spatial;
            const auto perm = parsePermutation(d.get("permutation"), w);
            const auto factors = d.has("factors") ? parseFactors(d.get("factors"), w) : std::map<int, Factor>{};
            std::size_t split = perm.size();
            if (d.has("split")) split = static_cast<std::size_t>(std::min<std::int64_t>(d.get("split").asNonNegativeInt(), static_cast<std::int64_t>(perm.size())));
            lm.spatialX = loopsOf(perm, 0, split, factors);
            lm.spatialY = loopsOf(perm, split, perm.size(), factors);
        }
    }

    // The factors of each dimension must cover its bound exactly (parser.cpp's check).
    Diagnostics diags;
    for (int d = 0; d < w.numDims(); ++d) {
        std::vector<Loop> loops;
        for (const auto& lm : m.levels)
            for (const auto* list : {&lm.temporal, &lm.spatialY, &lm.spatialX})
                for (const Loop& l : *list)
                    if (l.dim == d) loops.push_back(l);
        const std::int64_t covered = coveredSize(loops);
        if (covered != w.bounds[static_cast<std::size_t>(d)])
            diags.push_back({mapping.path(),
                             "the factors of dimension " + w.dimNames[static_cast<std::size_t>(d)] + " cover " +
                                 std::to_string(covered) + ", not its bound " +
                                 std::to_string(w.bounds[static_cast<std::size_t>(d)]),
                             mapping.location()});
    }
    if (!diags.empty()) throw NestorError(std::move(diags));
    for (std::size_t i = 0; i < nl; ++i)
        if (!dirs[i].temporal && !(a.levels[i].technology == "dummy"))
            warnings.push_back(locatedWarning(mapping, "no temporal directive for level " + a.levels[i].name +
                                                           ": its factors are 1 (as in Timeloop)"));
    Diagnostics v = m.validate(w, a, "mapping");
    if (!v.empty()) {
        for (auto& x : v)
            if (x.location.file.empty()) x.location = mapping.location();
        throw NestorError(std::move(v));
    }
    return m;
}

} // namespace nestor::timeloopimport
