#include "io/YamlUtil.h"

#include "io/YamlMerge.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace nestor::yamlio {

namespace {

std::string describe(const YAML::Node& n)
{
    switch (n.Type()) {
    case YAML::NodeType::Null: return "null";
    case YAML::NodeType::Scalar: return "'" + n.Scalar() + "'";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a map";
    default: return "nothing";
    }
}

bool parseInt(const std::string& s, std::int64_t& out)
{
    const char* b = s.data();
    const char* e = b + s.size();
    if (b != e && *b == '+') ++b;
    auto r = std::from_chars(b, e, out);
    return r.ec == std::errc() && r.ptr == e && b != e;
}

bool parseDouble(const std::string& s, double& out)
{
    const char* b = s.data();
    const char* e = b + s.size();
    if (b != e && *b == '+') ++b;
    auto r = std::from_chars(b, e, out, std::chars_format::general);
    return r.ec == std::errc() && r.ptr == e && b != e && std::isfinite(out);
}

} // namespace

SourceLocation locationOf(const YAML::Mark& mark, const std::string& file)
{
    SourceLocation loc;
    loc.file = file;
    if (!mark.is_null() && mark.line >= 0) {
        loc.line = mark.line + 1;
        loc.column = mark.column + 1;
    }
    return loc;
}

YAML::Node parseText(const std::string& text, const std::string& file)
{
    // A binary file (an ONNX model, a Timeloop run's output, an image) is not YAML: say so at its
    // first NUL byte rather than report whichever byte the YAML parser trips on.
    if (const std::size_t nul = text.find('\0'); nul != std::string::npos) {
        const std::size_t lineStart = text.rfind('\n', nul) == std::string::npos ? 0 : text.rfind('\n', nul) + 1;
        SourceLocation at;
        at.file = file;
        at.line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n')) + 1;
        at.column = static_cast<int>(nul - lineStart) + 1;
        throw NestorError("", "not a text file (a NUL byte here): Nestor reads YAML project files and Timeloop YAML; "
                              "a binary model such as an ONNX file is not read (write its layers as workloads and "
                              "networks, docs/project-format.md)",
                          at);
    }
    try {
        // yaml-cpp ends the first document silently where a line is indented less than the
        // first key and reads on as a second one: loading only the first would drop the rest.
        std::vector<YAML::Node> docs = YAML::LoadAll(text);
        if (docs.size() > 1)
            throw NestorError("", "malformed YAML: a second document starts here (is the first key indented "
                                  "differently from the keys after it?); a file holds one document",
                              locationOf(docs[1].Mark(), file));
        if (docs.empty()) return YAML::Node();
        resolveMergeKeys(docs.front(), file);
        return docs.front();
    } catch (const YAML::ParserException& e) {
        throw NestorError("", "malformed YAML: " + e.msg, locationOf(e.mark, file));
    } catch (const YAML::Exception& e) {
        throw NestorError("", std::string("malformed YAML: ") + e.what(), locationOf(e.mark, file));
    }
}

std::string joinPath(const std::string& base, const std::string& key)
{
    return base.empty() ? key : base + "." + key;
}

std::string indexPath(const std::string& base, std::size_t i)
{
    return base + "[" + std::to_string(i) + "]";
}

YamlRef::YamlRef(YAML::Node node, std::string path, std::string file)
    : node_(std::move(node)), path_(std::move(path)), file_(std::move(file))
{
    defined_ = node_.IsDefined();
    mark_ = defined_ ? node_.Mark() : YAML::Mark::null_mark();
}

YamlRef& YamlRef::operator=(const YamlRef& other)
{
    if (this != &other) {
        node_.reset(other.node_);
        path_ = other.path_;
        file_ = other.file_;
        mark_ = other.mark_;
        defined_ = other.defined_;
    }
    return *this;
}

YamlRef::YamlRef(std::string path, std::string file, YAML::Mark mark)
    : path_(std::move(path)), file_(std::move(file)), mark_(mark), defined_(false)
{
}

Diagnostic YamlRef::diagnostic(const std::string& message) const
{
    return Diagnostic{path_, message, location()};
}

void YamlRef::fail(const std::string& message) const
{
    throw NestorError(Diagnostics{diagnostic(message)});
}

void YamlRef::requireMap() const
{
    if (!defined_) fail("missing (expected a map)");
    if (!node_.IsMap()) fail("expected a map, got " + describe(node_));
}

void YamlRef::requireSequence() const
{
    if (!defined_) fail("missing (expected a list)");
    if (!node_.IsSequence()) fail("expected a list, got " + describe(node_));
}

void YamlRef::requireScalar() const
{
    if (!defined_) fail("missing value");
    if (!node_.IsScalar()) fail("expected a single value, got " + describe(node_));
}

std::vector<YamlRef::Entry> YamlRef::entries() const
{
    requireMap();
    std::vector<Entry> out;
    for (auto it = node_.begin(); it != node_.end(); ++it) {
        const YAML::Node k = it->first;
        YamlRef keyRef(k, path_, file_);
        if (!k.IsScalar()) keyRef.fail("map keys must be plain names");
        const std::string key = k.Scalar();
        for (const auto& e : out)
            if (e.key == key) keyRef.fail("duplicate key '" + key + "'");
        keyRef.path_ = joinPath(path_, key);
        out.push_back(Entry{key, keyRef, YamlRef(it->second, joinPath(path_, key), file_)});
    }
    return out;
}

YamlRef YamlRef::get(const std::string& key) const
{
    requireMap();
    for (auto it = node_.begin(); it != node_.end(); ++it)
        if (it->first.IsScalar() && it->first.Scalar() == key) return YamlRef(it->second, joinPath(path_, key), file_);
    return YamlRef(joinPath(path_, key), file_, mark_);
}

YamlRef YamlRef::require(const std::string& key) const
{
    YamlRef r = get(key);
    if (!r.defined()) throw NestorError(joinPath(path_, key), "required key '" + key + "' is missing", location());
    return r;
}

bool YamlRef::has(const std::string& key) const
{
    return isMap() && get(key).defined();
}

void YamlRef::checkKeys(const std::vector<std::string>& allowed) const
{
    for (const auto& e : entries()) {
        bool ok = false;
        for (const auto& a : allowed) ok = ok || a == e.key;
        if (!ok) {
            std::string list;
            for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
            e.keyRef.fail("unknown key '" + e.key + "' (allowed: " + list + ")");
        }
    }
}

void YamlRef::checkKeys(std::initializer_list<const char*> allowed) const
{
    std::vector<std::string> v;
    for (const char* a : allowed) v.emplace_back(a);
    checkKeys(v);
}

std::size_t YamlRef::size() const
{
    requireSequence();
    return node_.size();
}

YamlRef YamlRef::operator[](std::size_t i) const
{
    requireSequence();
    return YamlRef(node_[i], indexPath(path_, i), file_);
}

std::string YamlRef::asString() const
{
    requireScalar();
    return node_.Scalar();
}

std::int64_t YamlRef::asInt() const
{
    requireScalar();
    const std::string& s = node_.Scalar();
    std::int64_t v = 0;
    if (parseInt(s, v)) return v;
    double d = 0;
    if (parseDouble(s, d) && std::floor(d) == d && std::fabs(d) < 9.2e18) return static_cast<std::int64_t>(d);
    fail("expected an integer, got '" + s + "'");
}

double YamlRef::asDouble() const
{
    requireScalar();
    const std::string& s = node_.Scalar();
    double d = 0;
    if (parseDouble(s, d)) return d;
    fail("expected a number, got '" + s + "'");
}

bool YamlRef::asBool() const
{
    requireScalar();
    bool b = false;
    if (YAML::convert<bool>::decode(node_, b)) return b;
    fail("expected true or false, got '" + node_.Scalar() + "'");
}

std::int64_t YamlRef::asPositiveInt() const
{
    const std::int64_t v = asInt();
    if (v <= 0) fail("must be a positive integer (got " + std::to_string(v) + ")");
    return v;
}

std::int64_t YamlRef::asNonNegativeInt() const
{
    const std::int64_t v = asInt();
    if (v < 0) fail("must not be negative (got " + std::to_string(v) + ")");
    return v;
}

std::vector<std::string> YamlRef::asStringList() const
{
    if (isScalar()) return {asString()};
    std::vector<std::string> out;
    for (std::size_t i = 0; i < size(); ++i) out.push_back((*this)[i].asString());
    return out;
}

void PathLocations::add(const std::string& path, const SourceLocation& loc)
{
    for (auto& e : entries_)
        if (e.first == path) {
            e.second = loc;
            return;
        }
    entries_.emplace_back(path, loc);
}

std::optional<SourceLocation> PathLocations::find(const std::string& path) const
{
    const std::pair<std::string, SourceLocation>* best = nullptr;
    for (const auto& e : entries_) {
        const std::string& p = e.first;
        if (path.compare(0, p.size(), p) != 0) continue;
        if (path.size() > p.size() && path[p.size()] != '.' && path[p.size()] != '[') continue;
        if (!best || p.size() > best->first.size()) best = &e;
    }
    if (!best) return std::nullopt;
    return best->second;
}

void PathLocations::locate(Diagnostics& diags, const SourceLocation& fallback) const
{
    for (auto& d : diags) {
        if (d.location.line > 0 || !d.location.file.empty()) continue;
        auto loc = find(d.field);
        d.location = loc ? *loc : fallback;
    }
}

std::optional<double> optionalBandwidth(const YamlRef& parent, const char* key)
{
    const YamlRef v = parent.get(key);
    if (v.isNull()) return std::nullopt;
    const double bw = v.asDouble();
    if (bw <= 0) v.fail("bandwidth must be positive (null = unlimited)");
    return bw;
}

} // namespace nestor::yamlio
