// Timeloop architecture files -> Architecture. The tree form follows Topology::ParseTreeSpecs,
// the legacy form Topology::ParseSpecs, both BufferLevel::ParseSpecs of NVlabs/timeloop
// (src/model/topology.cpp, buffer.cpp); the v0.4 `nodes` form follows what the timeloopfe
// front-end turns it into (semantics.md section 0).
#include "io/TimeloopImportParts.h"

#include "arch/MeshInference.h"
#include "common/CheckedMath.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <optional>

namespace nestor::timeloopimport {

using yamlio::YamlRef;

namespace {

// One component of the architecture, outermost first, before it becomes a level.
struct Component {
    std::string name;       // without the [a..b] range
    std::string cls;
    YamlRef node;           // the component (for locations)
    YamlRef attributes;     // may be undefined
    std::int64_t instances = 1;
    std::int64_t meshX = 0; // 0 = not given
    bool dummy = false;     // a spatial-only level (timeloopfe's inter_*_spatial)
};

bool classHas(const std::string& cls, std::initializer_list<const char*> parts)
{
    for (const char* p : parts)
        if (cls.find(p) != std::string::npos) return true;
    return false;
}
// Timeloop matches class names by substring (topology.hpp bufferClasses / computeClasses).
bool isBufferClass(const std::string& c) { return classHas(c, {"DRAM", "SRAM", "regfile", "smartbuffer", "storage"}); }
bool isComputeClass(const std::string& c) { return classHas(c, {"mac", "intmac", "fpmac", "compute"}); }
bool isNetworkClass(const std::string& c)
{
    return classHas(c, {"XY_NoC", "Legacy", "ReductionTree", "SimpleMulticast"});
}

// "PE[0..167]" -> 168 (config::parseElementSize); a name without a range -> 1.
std::int64_t elementCount(const YamlRef& nameRef, std::string* baseName)
{
    const std::string name = nameRef.asString();
    const auto open = name.find('[');
    *baseName = name.substr(0, open);
    if (baseName->empty()) nameRef.fail("empty component name");
    if (open == std::string::npos) return 1;
    const auto dots = name.find("..", open);
    const auto close = name.find(']', open);
    if (dots == std::string::npos || close == std::string::npos || dots > close || close + 1 != name.size())
        nameRef.fail("a range is written NAME[first..last]");
    try {
        std::size_t used1 = 0, used2 = 0;
        const std::string a = name.substr(open + 1, dots - open - 1), b = name.substr(dots + 2, close - dots - 2);
        const long long first = std::stoll(a, &used1), last = std::stoll(b, &used2);
        if (used1 != a.size() || used2 != b.size() || first < 0 || last < first) throw std::invalid_argument("range");
        return last - first + 1;
    } catch (const std::exception&) {
        nameRef.fail("a range is written NAME[first..last] with 0 <= first <= last");
    }
}

std::int64_t mulChecked(std::int64_t a, std::int64_t b, const YamlRef& at)
{
    std::int64_t r = 0;
    if (!checkedMul(a, b, &r) || r >= kCountLimit) at.fail("instance count too large");
    return r;
}

// A size or bandwidth written as infinite (`INF`, `inf`, `.inf`, `infinity`): no limit, as
// Timeloop reads a size or bandwidth it cannot take as a number (the front-end's DRAMs give one,
// since it requires a size of every storage component).
bool writtenInfinite(const YamlRef& v)
{
    if (!v.isScalar()) return false;
    std::string t = v.asString();
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    if (!t.empty() && t[0] == '+') t.erase(0, 1);
    return t == "inf" || t == ".inf" || t == "infinity";
}

// The bandwidth `key` of `attrs`: nullopt (unlimited) when absent, null or infinite.
std::optional<double> optBandwidth(const YamlRef& attrs, const char* key)
{
    if (writtenInfinite(attrs.get(key))) return std::nullopt;
    return yamlio::optionalBandwidth(attrs, key);
}

std::optional<std::int64_t> optPositive(const YamlRef& attrs, std::initializer_list<const char*> keys)
{
    if (!attrs.isMap()) return std::nullopt;
    const YamlRef v = getAny(attrs, keys);
    if (v.isNull()) return std::nullopt;
    return v.asPositiveInt();
}

int smallInt(std::int64_t v, const YamlRef& at)
{
    if (v > INT_MAX) at.fail("must be at most " + std::to_string(INT_MAX));
    return static_cast<int>(v);
}

// instances / meshX / meshY attributes (BufferLevel::ValidateTopology): instances default to
// the count from the tree; meshY alone gives meshX = instances / meshY.
void readTopology(Component& c)
{
    const YamlRef& at = c.attributes;
    if (const auto inst = optPositive(at, {"instances"})) c.instances = *inst;
    const auto mx = optPositive(at, {"meshX"});
    const auto my = optPositive(at, {"meshY"});
    if (mx) {
        if (c.instances % *mx != 0) at.get("meshX").fail("meshX must divide the instances (" + std::to_string(c.instances) + ")");
        if (my && *mx * *my != c.instances)
            at.get("meshY").fail("meshX x meshY must equal the instances (" + std::to_string(c.instances) + ")");
        c.meshX = *mx;
    } else if (my) {
        if (c.instances % *my != 0) at.get("meshY").fail("meshY must divide the instances (" + std::to_string(c.instances) + ")");
        c.meshX = c.instances / *my;
    }
}

std::optional<double> readCycleSeconds(const YamlRef& node)
{
    const YamlRef attrs = node.get("attributes");
    if (!attrs.isMap()) return std::nullopt;
    const YamlRef v = attrs.get("global_cycle_seconds");
    if (v.isNull()) return std::nullopt;
    const double s = v.asDouble();
    if (s <= 0) v.fail("must be positive");
    return s;
}

// ---------------------------------------------------------------- tree form (v0.2 / v0.3)

void readTree(const YamlRef& arch, std::vector<Component>& out, std::optional<double>& cycle, Warnings& warnings)
{
    if (arch.has("local"))
        warnings.push_back(locatedWarning(arch.get("local"), "ignored: Timeloop reads components from `subtree` only"));
    YamlRef cur = arch;
    std::int64_t multiplication = 1;
    while (cur.has("subtree")) {
        const YamlRef subs = cur.get("subtree");
        subs.requireSequence();
        if (subs.size() != 1) subs.fail("Timeloop supports exactly one subtree per level (got " + std::to_string(subs.size()) + ")");
        cur = subs[0];
        cur.requireMap();
        std::string base;
        multiplication = mulChecked(multiplication, elementCount(cur.require("name"), &base), cur.require("name"));
        if (!cycle) cycle = readCycleSeconds(cur);
        const YamlRef locals = cur.get("local");
        if (locals.isNull()) continue;
        locals.requireSequence();
        for (std::size_t i = 0; i < locals.size(); ++i) {
            const YamlRef l = locals[i];
            l.requireMap();
            Component c;
            c.node = l;
            const YamlRef nameRef = l.require("name");
            c.instances = mulChecked(multiplication, elementCount(nameRef, &c.name), nameRef);
            c.cls = l.require("class").asString();
            c.attributes = l.get("attributes");
            if (c.attributes.defined() && !c.attributes.isNull()) c.attributes.requireMap();
            c.dummy = c.cls.find("dummy") != std::string::npos;
            out.push_back(std::move(c));
        }
    }
}

// ---------------------------------------------------------------- legacy form (ISPASS 2019)

// `arithmetic` (the MACs) and `storage` (a list, innermost level first), each a map of the
// attributes themselves (Topology::ParseSpecs). No classes: DRAM by `technology`, else SRAM.
void readLegacy(const YamlRef& arch, std::vector<Component>& out)
{
    const YamlRef storage = arch.require("storage");
    storage.requireSequence();
    if (storage.size() == 0) storage.fail("no storage levels");
    for (std::size_t i = storage.size(); i-- > 0;) {  // outermost first
        const YamlRef l = storage[i];
        l.requireMap();
        Component c;
        c.node = l;
        const YamlRef nameRef = l.require("name");
        if (elementCount(nameRef, &c.name) != 1) nameRef.fail("a legacy level gives its count with `instances`, not a range");
        c.cls = "storage";
        c.attributes = l;
        out.push_back(std::move(c));
    }
    const YamlRef mac = arch.require("arithmetic");
    mac.requireMap();
    Component c;
    c.node = mac;
    c.name = mac.has("name") ? mac.get("name").asString() : std::string("MACs");
    if (c.name.empty()) mac.get("name").fail("empty component name");
    c.cls = "compute";
    c.attributes = mac;
    out.push_back(std::move(c));
}

// ---------------------------------------------------------------- v0.4 front-end form (`nodes`)

// The attributes of the containers met so far, in file order (a later one's value of a key
// replaces an earlier one's), as the front-end gives them to every component after them that does
// not set the key itself (timeloopfe's v4-to-v3 transpiler). meshX and meshY are left out: the
// transpiler writes the mesh of each component from the containers' `spatial`.
struct InheritedAttributes {
    std::vector<YamlRef::Entry> entries;

    void addFrom(const YamlRef& container)
    {
        const YamlRef attrs = container.get("attributes");
        if (!attrs.isMap()) return;
        for (YamlRef::Entry& e : attrs.entries()) {
            if (e.key == "meshX" || e.key == "meshY") continue;
            const auto same = std::find_if(entries.begin(), entries.end(), [&](const YamlRef::Entry& x) { return x.key == e.key; });
            if (same != entries.end()) *same = std::move(e);
            else entries.push_back(std::move(e));
        }
    }
    // `own` (a component's attributes, may be undefined) with the inherited keys it lacks; the
    // values keep their places in the file, so an error in an inherited one points at its container.
    YamlRef applyTo(const YamlRef& own, const YamlRef& component) const
    {
        if (entries.empty()) return own;
        YAML::Node merged(YAML::NodeType::Map);
        for (const YamlRef::Entry& e : entries)
            if (!own.isMap() || !own.has(e.key)) merged[e.key] = e.value.node();
        if (own.isMap())
            for (const YamlRef::Entry& e : own.entries()) merged[e.key] = e.value.node();
        return YamlRef(merged, component.path() + ".attributes", component.file());
    }
};

// `inParallel`: the nodes of a !Parallel (at any depth), which timeloopfe hands to Timeloop as
// consecutive levels in their order; a fanout among them would have no order to follow.
void readNodes(const YamlRef& nodes, std::int64_t& prodX, std::int64_t& prodY, std::vector<Component>& out,
               std::optional<double>& cycle, InheritedAttributes& inherited, Warnings& warnings, bool inParallel = false)
{
    nodes.requireSequence();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const YamlRef n = nodes[i];
        n.requireMap();
        std::string tag = n.node().Tag();
        if (!tag.empty() && tag[0] == '!') tag.erase(0, 1);
        if (tag.empty() || tag == "?") tag = n.has("class") ? "Component" : "Container";
        if (tag == "Hierarchical" || tag == "Parallel") {
            if (tag == "Parallel" && !inParallel)
                warnings.push_back(locatedWarning(n, "!Parallel: its components are read as consecutive levels in their "
                                                     "order, as Timeloop's front-end passes them to Timeloop"));
            readNodes(n.require("nodes"), prodX, prodY, out, cycle, inherited, warnings, inParallel || tag == "Parallel");
            continue;
        }
        if (tag != "Container" && tag != "Component")
            n.fail("unknown node type '!" + tag + "' (!Container, !Component, !Hierarchical or !Parallel)");
        if (tag == "Container" && inParallel && n.has("spatial"))
            n.get("spatial").fail("a !Container with `spatial` inside a !Parallel is not supported by the importer (its fanout "
                                  "would reach only some of the parallel components)");
        std::string base;
        const YamlRef nameRef = n.require("name");
        if (elementCount(nameRef, &base) != 1) nameRef.fail("a v0.4 node gives its fanout with `spatial`, not a range");
        if (tag == "Container") {
            if (!cycle) cycle = readCycleSeconds(n);
            if (n.has("attributes") && !n.get("attributes").isNull()) n.get("attributes").requireMap();
            inherited.addFrom(n);
            const YamlRef sp = n.get("spatial");
            if (sp.isNull()) {
                if (n.has("constraints"))
                    warnings.push_back(locatedWarning(n.get("constraints"), "ignored: constraints on a !Container "
                                                                            "without `spatial` (no level to constrain)"));
                continue;
            }
            sp.requireMap();
            const std::int64_t mx = optPositive(sp, {"meshX"}).value_or(1);
            const std::int64_t my = optPositive(sp, {"meshY"}).value_or(1);
            // timeloopfe carries a container's fanout on a zero-size level named after it.
            Component d;
            d.name = "inter_" + base + "_spatial";
            d.cls = "dummy_storage";
            d.node = n;
            d.instances = mulChecked(prodX, prodY, nameRef);
            d.meshX = prodX;
            d.dummy = true;
            out.push_back(std::move(d));
            prodX = mulChecked(prodX, mx, sp);
            prodY = mulChecked(prodY, my, sp);
            continue;
        }
        if (n.has("spatial")) n.get("spatial").fail("`spatial` on a !Component is not supported by the importer (put the fanout on a !Container)");
        Component c;
        c.node = n;
        c.name = base;
        c.cls = n.require("class").asString();
        c.attributes = n.get("attributes");
        if (c.attributes.defined() && !c.attributes.isNull()) c.attributes.requireMap();
        c.attributes = inherited.applyTo(c.attributes, n);
        c.instances = mulChecked(prodX, prodY, nameRef);
        c.meshX = prodX;
        c.dummy = c.cls.find("dummy") != std::string::npos;
        out.push_back(std::move(c));
    }
}

// ---------------------------------------------------------------- one storage level

StorageLevel makeStorage(const Component& c)
{
    StorageLevel s;
    s.name = c.name;
    s.instances = c.instances;
    const YamlRef& a = c.attributes;
    // A level of no entries holds nothing: Timeloop's way to write a spatial-only level.
    const bool noEntries = a.isMap() && a.has("entries") && !a.get("entries").isNull() && !writtenInfinite(a.get("entries")) &&
                           a.get("entries").asNonNegativeInt() == 0;
    if (c.dummy || noEntries) {
        s.technology = "dummy";
        s.size_words = 0;
        return s;
    }
    const bool dram = c.cls.find("DRAM") != std::string::npos ||
                      (a.isMap() && a.has("technology") && a.get("technology").isScalar() &&
                       a.get("technology").asString() == "DRAM");
    s.technology = dram ? "DRAM" : (classHas(c.cls, {"regfile", "RF"}) ? "regfile" : "SRAM");

    // BufferLevel::ParseSpecs: word bits, then block and cluster size (from the width when one
    // of them is missing), then the size in words.
    const YamlRef wbRef = a.isMap() ? getAny(a, {"word_bits", "word-bits", "word_width", "datawidth"}) : YamlRef();
    const std::int64_t wordBits = optPositive(a, {"word_bits", "word-bits", "word_width", "datawidth"}).value_or(16);
    s.word_bits = smallInt(wordBits, wbRef);
    const auto block = optPositive(a, {"block_size", "block-size", "n_words"});
    const auto cluster = optPositive(a, {"cluster_size", "cluster-size"});
    std::int64_t blockSize = block.value_or(1), clusterSize = cluster.value_or(1);
    if (const auto width = optPositive(a, {"width", "memory_width", "data_storage_width"})) {
        const YamlRef wRef = getAny(a, {"width", "memory_width", "data_storage_width"});
        if (*width % (wordBits * blockSize) != 0)
            wRef.fail("width " + std::to_string(*width) + " is not a multiple of word bits x block size (" +
                      std::to_string(wordBits) + " x " + std::to_string(blockSize) + ")");
        if (block && cluster) {
            if (blockSize * wordBits * clusterSize != *width)
                wRef.fail("block size x word bits x cluster size must equal the width");
        } else if (cluster) {
            if (*width % (clusterSize * wordBits) != 0) wRef.fail("width is not a multiple of cluster size x word bits");
            blockSize = *width / clusterSize / wordBits;
            if (blockSize < 1) wRef.fail("width too small for the cluster size");
        } else if (block) {
            clusterSize = *width / (wordBits * blockSize);
        } else {
            blockSize = *width / wordBits;
        }
    }
    s.block_size = smallInt(blockSize, a);
    s.cluster_size = smallInt(clusterSize, a);
    // The first size given (entries, a depth, sizeKB) sets it; an infinite one, or none (a DRAM),
    // leaves it unbounded.
    YamlRef sizeRef;
    std::string sizeKey;
    for (const char* k : {"entries", "depth", "memory_depth", "data_storage_depth", "sizeKB"})
        if (a.isMap() && !a.get(k).isNull()) {
            sizeRef = a.get(k);
            sizeKey = k;
            break;
        }
    if (sizeRef.defined() && !writtenInfinite(sizeRef)) {
        const std::int64_t given = sizeRef.asPositiveInt();
        std::int64_t size = 0;
        if (sizeKey == "entries") {
            s.size_words = given;
        } else if (sizeKey == "sizeKB") {
            if (!checkedMul(given, std::int64_t{8192}, &size) || size >= kCountLimit) sizeRef.fail("size too large");
            s.size_words = size / wordBits;
            if (*s.size_words == 0) sizeRef.fail("smaller than one word");
        } else {  // a depth, in blocks
            if (!checkedMul(given, blockSize, &size) || size >= kCountLimit) sizeRef.fail("size too large");
            s.size_words = size;
        }
    }

    if (a.isMap()) {
        if (const YamlRef bw = a.get("bandwidth"); !bw.isNull() && !writtenInfinite(bw)) {  // deprecated in Timeloop: half each way
            const double b = bw.asDouble();
            if (b <= 0) bw.fail("must be positive");
            s.read_bw_words_per_cycle = b / 2;
            s.write_bw_words_per_cycle = b / 2;
        }
        if (a.has("read_bandwidth")) s.read_bw_words_per_cycle = optBandwidth(a, "read_bandwidth");
        if (a.has("write_bandwidth")) s.write_bw_words_per_cycle = optBandwidth(a, "write_bandwidth");
        if (a.has("shared_bandwidth")) s.shared_bw_words_per_cycle = optBandwidth(a, "shared_bandwidth");
        const YamlRef mb = getAny(a, {"multiple_buffering", "multiple-buffering"});
        if (!mb.isNull()) {
            s.multiple_buffering = mb.asDouble();
            if (s.multiple_buffering < 1.0) mb.fail("must be at least 1");
        }
    }
    return s;
}

} // namespace

Architecture readTimeloopArchitecture(const YamlRef& arch, Warnings& warnings, std::vector<NodeConstraints>& nodeConstraints)
{
    arch.requireMap();
    std::vector<Component> comps;
    std::optional<double> cycle;
    if (arch.has("storage") || arch.has("arithmetic")) {
        readLegacy(arch, comps);
    } else if (arch.has("nodes")) {
        std::int64_t prodX = 1, prodY = 1;
        InheritedAttributes inherited;
        readNodes(arch.get("nodes"), prodX, prodY, comps, cycle, inherited, warnings);
    } else if (arch.has("subtree")) {
        readTree(arch, comps, cycle, warnings);
    } else {
        arch.fail("an architecture needs `subtree` (v0.2/v0.3), `nodes` (v0.4) or the legacy `storage` and `arithmetic`");
    }

    Architecture a;
    a.name = "timeloop";
    if (cycle) a.cycle_seconds = *cycle;
    std::vector<std::int64_t> givenMeshX;
    std::int64_t computeMeshX = 0;
    const Component* compute = nullptr;
    yamlio::PathLocations where;
    for (Component& c : comps) {
        const bool buffer = c.dummy || isBufferClass(c.cls);
        if (!buffer && !isComputeClass(c.cls)) {
            warnings.push_back(locatedWarning(c.node, std::string(isNetworkClass(c.cls) ? "network" : "component") +
                                                          " '" + c.name + "' of class '" + c.cls +
                                                          "' ignored (neither storage nor compute)"));
            continue;
        }
        if (!c.dummy || c.attributes.defined()) readTopology(c);
        const YamlRef constraints = c.node.isMap() ? c.node.get("constraints") : YamlRef();
        if (constraints.defined() && !constraints.isNull()) {
            if (buffer) nodeConstraints.push_back({c.name, constraints});
            else warnings.push_back(locatedWarning(constraints, "ignored: constraints on the compute component"));
        }
        if (!buffer) {
            if (compute)
                c.node.require("name").fail("a second compute component '" + c.name + "' (the first is '" +
                                            compute->name + "')");
            compute = &c;
            a.compute.name = c.name;
            a.compute.instances = c.instances;
            computeMeshX = c.meshX;
            where.add("architecture.compute", c.node.location());
            continue;
        }
        if (a.levelIndex(c.name) >= 0) c.node.require("name").fail("duplicate level name '" + c.name + "'");
        where.add(yamlio::indexPath("architecture.levels", a.levels.size()), c.node.location());
        a.levels.push_back(makeStorage(c));
        givenMeshX.push_back(c.meshX);
    }
    if (!compute) arch.fail("the architecture has no compute component (class mac, intmac, fpmac or compute)");
    if (a.levels.empty()) arch.fail("the architecture has no storage component");
    if (a.levelIndex(a.compute.name) >= 0)
        compute->node.require("name").fail("the compute component has a storage level's name");
    inferMeshes(a, givenMeshX, computeMeshX);
    Diagnostics d = a.validate("architecture");
    if (!d.empty()) {
        where.locate(d, arch.location());
        throw NestorError(std::move(d));
    }
    return a;
}

} // namespace nestor::timeloopimport
