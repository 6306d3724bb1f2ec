// Timeloop's architecture and mapspace constraints (mapping::Constraints::Parse in NVlabs/timeloop
// src/mapping/constraints.cpp; semantics.md section 7) -> the project's constraints. What Nestor's
// constraints cannot say is dropped with a warning, so the imported mapspace is never smaller
// than Timeloop's; the project reader checks the result (TimeloopImport.cpp).
#include "io/TimeloopImportParts.h"

#include "core/MapspaceConstraints.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace nestor::timeloopimport {

using yamlio::YamlRef;

namespace {

// A string, or (v0.4) a list of strings: ["C=1", "M=2"] or ["P", "C"].
std::string joinedText(const YamlRef& ref)
{
    if (!ref.isSequence()) return ref.asString();
    std::string s;
    for (std::size_t i = 0; i < ref.size(); ++i) s += (s.empty() ? "" : " ") + ref[i].asString();
    return s;
}

// An exact factor as Timeloop reads it (Constraints::ParseUserFactors): 0 means the whole
// dimension, and one above the dimension's bound is set to the bound; both with a warning.
std::string clampedFactor(const std::string& dim, const std::string& digits, const YamlRef& ref, const Workload& w,
                          Warnings& warnings)
{
    const std::int64_t bound = w.bounds[static_cast<std::size_t>(w.dimIndex(dim))];
    const std::string significant = digits.substr(std::min(digits.find_first_not_of('0'), digits.size() - 1));
    const bool huge = significant.size() > 18;  // (past int64: surely above the bound)
    const std::int64_t value = huge ? 0 : std::stoll(significant);
    if (!huge && value == 0) {
        warnings.push_back(locatedWarning(ref, "factors: " + dim + "=0 means the whole dimension (" + dim + "=" +
                                                   std::to_string(bound) + "), as Timeloop reads it"));
        return std::to_string(bound);
    }
    if (huge || value > bound) {
        warnings.push_back(locatedWarning(ref, "factors: " + dim + "=" + digits + " exceeds the dimension's bound; set to " +
                                                   dim + "=" + std::to_string(bound) + ", as Timeloop does"));
        return std::to_string(bound);
    }
    return digits;
}

// "N=1,C=1 P<=4 C4" -> "N=1 C=1 P<=4 C=4" (Timeloop accepts commas and a missing '=').
std::string normalizeFactors(const YamlRef& ref, const Workload& w, Warnings& warnings)
{
    std::string s = joinedText(ref);
    s = s.substr(0, s.find('#'));
    std::replace(s.begin(), s.end(), ',', ' ');
    std::istringstream in(s);
    std::string tok, out;
    while (in >> tok) {
        std::size_t i = 0;
        while (i < tok.size() && std::isalpha(static_cast<unsigned char>(tok[i]))) ++i;
        const std::string dim = tok.substr(0, i);
        if (w.dimIndex(dim) < 0) ref.fail("factors: unknown dimension '" + dim + "' in '" + tok + "'");
        if (i < tok.size() && std::isdigit(static_cast<unsigned char>(tok[i]))) tok = dim + "=" + tok.substr(i);
        const std::string value = tok.substr(std::min(tok.size(), i + 1));
        const bool exact = i < tok.size() && tok[i] == '=' && !value.empty() &&
                           std::all_of(value.begin(), value.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
        if (exact) tok = dim + "=" + clampedFactor(dim, value, ref, w, warnings);
        out += (out.empty() ? "" : " ") + tok;
    }
    return out;
}

std::vector<std::string> permutationDims(const std::string& text, const YamlRef& ref, const Workload& w)
{
    std::vector<std::string> dims;
    for (char ch : text) {
        if (std::isspace(static_cast<unsigned char>(ch))) continue;
        const std::string d(1, ch);
        if (w.dimIndex(d) < 0) ref.fail("permutation: unknown dimension '" + d + "'");
        if (std::find(dims.begin(), dims.end(), d) != dims.end()) ref.fail("permutation: dimension " + d + " is listed twice");
        dims.push_back(d);
    }
    return dims;
}

// What one constraint says: `e` holds its keys (factors, permutation, keep, ...); its type and
// target come from `typeRef` / `targetRef` (its own keys in a list entry, a v0.4 node's key and
// name otherwise).
void readEntry(const YamlRef& e, const std::string& type, const YamlRef& typeRef, const std::string& target,
               const YamlRef& targetRef, const Workload& w, const Architecture& a, std::vector<ProjectConstraint>& out,
               std::vector<YamlRef>& sources, Warnings& warnings)
{
    e.requireMap();
    ProjectConstraint c;
    if (type == "temporal") c.type = ProjectConstraint::Type::Temporal;
    else if (type == "spatial") c.type = ProjectConstraint::Type::Spatial;
    else if (type == "bypass" || type == "datatype" || type == "dataspace") c.type = ProjectConstraint::Type::Bypass;
    else if (type == "utilization") c.type = ProjectConstraint::Type::Utilization;
    else if (type == "max_overbooked_proportion") {
        warnings.push_back(locatedWarning(e, "ignored: max_overbooked_proportion (Nestor does not overbook)"));
        return;
    } else {
        typeRef.fail("unknown constraint type '" + type + "' (temporal, spatial, bypass, utilization)");
    }
    int level = -1;
    if (c.type != ProjectConstraint::Type::Utilization || !target.empty()) {
        c.target = target;
        level = a.levelIndex(c.target);
        if (level < 0) targetRef.fail("unknown level '" + c.target + "'");
    }
    const bool dummy = level >= 0 && a.levels[static_cast<std::size_t>(level)].technology == "dummy";
    for (const auto& kv : e.entries()) {
        static const char* known[] = {"target", "type", "factors", "permutation", "split", "keep", "bypass", "min"};
        if (std::find_if(std::begin(known), std::end(known), [&](const char* k) { return kv.key == k; }) == std::end(known))
            warnings.push_back(locatedWarning(kv.keyRef, "ignored constraint key `" + kv.key + "`"));
    }
    if (c.type == ProjectConstraint::Type::Temporal || c.type == ProjectConstraint::Type::Spatial) {
        if (const YamlRef f = e.get("factors"); !f.isNull()) {
            MapspaceConstraints parsed;
            try {
                parsed.addFactors(c.target, c.type == ProjectConstraint::Type::Spatial, normalizeFactors(f, w, warnings));
            } catch (const NestorError& err) {
                f.fail(err.diagnostics().empty() ? err.what() : err.diagnostics().front().message);
            }
            c.factors = parsed.factors;
        }
        const YamlRef perm = e.get("permutation");
        if (!perm.isNull()) {
            const std::string text = joinedText(perm);
            const auto bar = text.find('_');
            auto dims = permutationDims(text.substr(0, bar), perm, w);
            if (c.type == ProjectConstraint::Type::Temporal) {
                if (bar != std::string::npos && !permutationDims(text.substr(bar + 1), perm, w).empty())
                    warnings.push_back(locatedWarning(perm, "the fixed outermost part after '_' is dropped (Nestor "
                                                            "constrains the innermost prefix only)"));
                if (!dummy) c.permutation = std::move(dims);  // a spatial-only level has no temporal loops
            } else if (const YamlRef split = e.get("split"); !split.isNull()) {
                const auto s = static_cast<std::size_t>(split.asNonNegativeInt());
                if (dims.size() == static_cast<std::size_t>(w.numDims())) {
                    c.hasAxes = true;
                    c.axisX.assign(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(std::min(s, dims.size())));
                    c.axisY.assign(dims.begin() + static_cast<std::ptrdiff_t>(std::min(s, dims.size())), dims.end());
                } else {
                    warnings.push_back(locatedWarning(split, "ignored: a split over a permutation that does not list "
                                                             "every dimension"));
                }
            }
        }
        if (c.factors.empty() && c.permutation.empty() && !c.hasAxes) return;  // nothing Nestor can constrain
    } else if (c.type == ProjectConstraint::Type::Bypass) {
        for (const char* key : {"keep", "bypass"}) {
            const YamlRef list = e.get(key);
            if (list.isNull()) continue;
            auto& names = std::string(key) == "keep" ? c.keep : c.bypass;
            names = list.asStringList();
            for (const auto& n : names)
                if (w.tensorIndex(n) < 0) list.fail("unknown data space '" + n + "'");
        }
        if (dummy && c.keep.empty()) return;  // the front-end's "bypass everything" on spatial-only levels
        if (c.keep.empty() && c.bypass.empty()) return;
    } else {
        c.minUtilization = e.require("min").asDouble();
    }
    out.push_back(std::move(c));
    sources.push_back(e);
}

void readOne(const YamlRef& e, const Workload& w, const Architecture& a, std::vector<ProjectConstraint>& out,
             std::vector<YamlRef>& sources, Warnings& warnings)
{
    e.requireMap();
    const YamlRef type = e.require("type");
    const bool needsTarget = type.asString() != "utilization" || e.has("target");
    const YamlRef target = needsTarget ? e.require("target") : YamlRef();
    readEntry(e, type.asString(), type, needsTarget ? target.asString() : std::string(), target, w, a, out, sources,
              warnings);
}

} // namespace

void readTimeloopConstraints(const YamlRef& node, const Workload& w, const Architecture& a,
                             std::vector<ProjectConstraint>& out, std::vector<YamlRef>& sources, Warnings& warnings)
{
    YamlRef list = node;
    if (node.isMap()) {  // {targets: [...]} or {constraints: [...]}; anything else holds no constraints
        if (node.has("targets")) {
            list = node.get("targets");
        } else if (node.has("constraints")) {
            list = node.get("constraints");
            if (list.isScalar()) {  // the legacy `constraints: NAME` picks the list `constraints_NAME` beside it
                const std::string chosen = "constraints_" + list.asString();
                if (!node.has(chosen)) list.fail("names `" + chosen + "`, which is not given beside it");
                list = node.get(chosen);
            }
        } else {
            // (a mapper's `mapspace: {template: ruby}` picks Timeloop's mapspace, not a constraint)
            if (node.has("template") && node.get("template").isScalar()) {
                const std::string t = node.get("template").asString();
                const std::string kind = t == "ruby" ? "ruby" : t == "uniform" ? "pfm" : "";
                warnings.push_back(locatedWarning(
                    node.get("template"), "not imported: the mapper's mapspace template `" + t + "`" +
                                              (kind.empty() ? std::string() : " (search the project with nestor-cli search --mapspace " + kind + ")")));
            }
            return;
        }
    }
    if (list.isNull()) return;
    list.requireSequence();
    for (std::size_t i = 0; i < list.size(); ++i) readOne(list[i], w, a, out, sources, warnings);
}

void readTimeloopNodeConstraints(const NodeConstraints& node, const Workload& w, const Architecture& a,
                                 std::vector<ProjectConstraint>& out, std::vector<YamlRef>& sources, Warnings& warnings)
{
    const YamlRef& map = node.constraints;
    map.requireMap();
    // The level is the node's own: an error about it points at the whole block.
    for (const auto& kv : map.entries()) {
        if (kv.key == "dataspace" || kv.key == "temporal" || kv.key == "spatial")
            readEntry(kv.value, kv.key == "dataspace" ? "bypass" : kv.key, kv.keyRef, node.target, map, w, a, out,
                      sources, warnings);
        else
            warnings.push_back(locatedWarning(kv.keyRef, "ignored constraint key `" + kv.key + "`"));
    }
}

} // namespace nestor::timeloopimport
