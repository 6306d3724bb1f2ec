// Timeloop problem files -> Workload (src/workload/shape-models/problem-shape.cpp and
// workload.cpp of NVlabs/timeloop describe the format read here).
#include "io/TimeloopImportParts.h"

#include <map>

namespace nestor::timeloopimport {

using yamlio::YamlRef;

YamlRef getAny(const YamlRef& map, std::initializer_list<const char*> keys)
{
    for (const char* k : keys)
        if (map.has(k)) return map.get(k);
    return map.get(*keys.begin());
}

std::string locatedWarning(const YamlRef& at, const std::string& text)
{
    Diagnostic d{at.path(), text, at.location()};
    return d.toString();
}

namespace {

struct Coefficient {
    std::int64_t value = 1;
};

// One projection term: [DIM] or [DIM, COEFFICIENT_NAME].
ProjectionTerm readTerm(const YamlRef& term, const Workload& w, const std::map<std::string, Coefficient>& coefs)
{
    if (!term.isSequence() || term.size() < 1 || term.size() > 2)
        term.fail("a projection term is [DIM] or [DIM, COEFFICIENT]");
    const std::string dim = term[0].asString();
    const int d = w.dimIndex(dim);
    if (d < 0) term[0].fail("unknown dimension '" + dim + "' (not in shape.dimensions)");
    ProjectionTerm t{d, 1};
    if (term.size() == 2) {
        const std::string c = term[1].asString();
        const auto it = coefs.find(c);
        if (it == coefs.end()) term[1].fail("unknown coefficient '" + c + "' (not in shape.coefficients)");
        t.coef = it->second.value;
    }
    return t;
}

Tensor readDataSpace(const YamlRef& ds, const Workload& w, const std::map<std::string, Coefficient>& coefs)
{
    ds.requireMap();
    Tensor t;
    t.name = ds.require("name").asString();
    const YamlRef rw = getAny(ds, {"read_write", "read-write"});
    t.readWrite = rw.isNull() ? false : rw.asBool();
    const YamlRef proj = ds.require("projection");
    proj.requireSequence();
    for (std::size_t r = 0; r < proj.size(); ++r) {
        const YamlRef rank = proj[r];
        if (rank.isScalar()) {  // the flat form [C, M]: one dimension per rank
            const std::string dim = rank.asString();
            const int d = w.dimIndex(dim);
            if (d < 0) rank.fail("unknown dimension '" + dim + "' (not in shape.dimensions)");
            t.ranks.push_back({ProjectionTerm{d, 1}});
            continue;
        }
        rank.requireSequence();
        if (rank.size() == 0) rank.fail("a rank needs at least one term");
        RankExpression e;
        for (std::size_t k = 0; k < rank.size(); ++k) e.push_back(readTerm(rank[k], w, coefs));
        t.ranks.push_back(std::move(e));
    }
    return t;
}

} // namespace

Workload readTimeloopProblem(const YamlRef& problem, Warnings& warnings)
{
    problem.requireMap();
    YamlRef shape = problem.get("shape");
    if (shape.isNull() || shape.isScalar()) {
        // A named shape is a file of Timeloop's installation; without one Timeloop assumes cnn-layer.
        const std::string named = shape.isNull() ? std::string("cnn-layer") : shape.asString();
        const std::optional<std::string> text = bundledTimeloopShape(named);
        if (!text)
            shape.fail("unknown named shape '" + named + "': Timeloop ships " + bundledTimeloopShapeNames() +
                       "; give any other shape inline");
        if (shape.isNull())
            warnings.push_back(locatedWarning(problem, "no `shape:`: Timeloop's cnn-layer shape assumed, as Timeloop does"));
        const std::string file = "Timeloop's problem-shapes/" + named;
        shape = YamlRef(yamlio::parseText(*text, file), yamlio::joinPath(problem.path(), "shape"), file);
    }
    shape.requireMap();
    Workload w;
    const YamlRef name = shape.get("name");
    w.name = name.isNull() ? std::string("timeloop") : name.asString();
    if (w.name.empty()) w.name = "timeloop";

    const YamlRef dims = shape.require("dimensions");
    dims.requireSequence();
    for (std::size_t i = 0; i < dims.size(); ++i) {
        const std::string d = dims[i].asString();
        // Timeloop reads permutations one character per dimension and rejects longer names.
        if (d.size() != 1) dims[i].fail("Timeloop dimension names are one character (got '" + d + "')");
        if (w.dimIndex(d) >= 0) dims[i].fail("duplicate dimension '" + d + "'");
        w.dimNames.push_back(d);
    }
    if (w.dimNames.empty()) dims.fail("a problem needs at least one dimension");
    if (shape.has("flatten")) shape.get("flatten").fail("flattened dimensions are not supported by the importer");

    // Bounds and coefficient values sit under `instance` (or, in old files, beside `shape`).
    const YamlRef instance = problem.has("instance") ? problem.get("instance") : problem;
    instance.requireMap();
    std::map<std::string, Coefficient> coefs;
    const YamlRef cl = shape.get("coefficients");
    if (!cl.isNull()) {
        cl.requireSequence();
        for (std::size_t i = 0; i < cl.size(); ++i) {
            const YamlRef c = cl[i];
            c.requireMap();
            const std::string cname = c.require("name").asString();
            if (w.dimIndex(cname) >= 0) c.require("name").fail("coefficient '" + cname + "' has a dimension's name");
            Coefficient value{c.require("default").asPositiveInt()};
            if (instance.has(cname)) value.value = instance.get(cname).asPositiveInt();
            coefs[cname] = value;
        }
    }
    for (const auto& d : w.dimNames) {
        const YamlRef b = instance.get(d);
        if (b.isNull())
            throw NestorError(yamlio::joinPath(instance.path(), d), "missing the bound of dimension " + d,
                              instance.location());
        w.bounds.push_back(b.asPositiveInt());
    }
    for (const auto& e : instance.entries()) {
        if (w.dimIndex(e.key) >= 0 || coefs.count(e.key) || e.key == "shape" || e.key == "instance" ||
            e.key == "version")
            continue;
        if (e.key == "densities" || e.key == "commonDensity") {
            if (!e.value.isNull() && !(e.value.isMap() && e.value.entries().empty()))
                warnings.push_back(locatedWarning(e.value, "densities ignored: Nestor models dense tensors"));
            continue;
        }
        // e.g. Hpadding / Wpadding of newer shapes: Timeloop's counts do not use them (semantics.md section 0).
        warnings.push_back(locatedWarning(e.keyRef, "ignored: `" + e.key + "` is not a dimension or coefficient of the shape"));
    }

    const YamlRef spaces = getAny(shape, {"data_spaces", "data-spaces"});
    if (spaces.isNull())
        throw NestorError(yamlio::joinPath(shape.path(), "data_spaces"), "missing", shape.location());
    spaces.requireSequence();
    for (std::size_t i = 0; i < spaces.size(); ++i) {
        Tensor t = readDataSpace(spaces[i], w, coefs);
        if (w.tensorIndex(t.name) >= 0) spaces[i].require("name").fail("duplicate data space '" + t.name + "'");
        w.tensors.push_back(std::move(t));
    }
    Diagnostics diags = w.validate(problem.path());
    if (!diags.empty()) {
        for (auto& d : diags)
            if (d.location.file.empty()) d.location = problem.location();
        throw NestorError(std::move(diags));
    }
    return w;
}

} // namespace nestor::timeloopimport
