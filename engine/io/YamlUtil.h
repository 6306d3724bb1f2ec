#pragma once
// Located access to a parsed YAML tree (yaml-cpp). Every value read through a YamlRef
// carries its field path and its position in the file, so every problem can be reported
// as "file:line:column: field: message". Internal helper of the io readers.
#include "common/Error.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nestor::yamlio {

// Parses YAML text; a syntax error becomes a NestorError at the offending position. Merge keys
// (`<<: *anchor`) are applied (YamlMerge.h).
YAML::Node parseText(const std::string& text, const std::string& file);

SourceLocation locationOf(const YAML::Mark& mark, const std::string& file);

class YamlRef {
public:
    YamlRef() = default;
    YamlRef(YAML::Node node, std::string path, std::string file);
    // YAML::Node::operator= writes through to the document; these rebind instead.
    YamlRef(const YamlRef&) = default;
    YamlRef(YamlRef&&) = default;
    YamlRef& operator=(const YamlRef& other);
    YamlRef& operator=(YamlRef&& other) { return *this = static_cast<const YamlRef&>(other); }

    const YAML::Node& node() const { return node_; }
    const std::string& path() const { return path_; }
    const std::string& file() const { return file_; }
    SourceLocation location() const { return locationOf(mark_, file_); }
    const YAML::Mark& mark() const { return mark_; }

    bool defined() const { return defined_; }
    bool isNull() const { return !defined_ || node_.IsNull(); }
    bool isMap() const { return defined_ && node_.IsMap(); }
    bool isSequence() const { return defined_ && node_.IsSequence(); }
    bool isScalar() const { return defined_ && node_.IsScalar(); }

    [[noreturn]] void fail(const std::string& message) const;
    Diagnostic diagnostic(const std::string& message) const;

    // Maps. Keys are kept in file order; a duplicate key is an error.
    struct Entry;
    std::vector<Entry> entries() const;               // requires a map
    YamlRef get(const std::string& key) const;        // undefined (located at this map) when absent
    YamlRef require(const std::string& key) const;    // error when absent
    bool has(const std::string& key) const;
    void checkKeys(std::initializer_list<const char*> allowed) const;  // unknown key -> error at the key
    void checkKeys(const std::vector<std::string>& allowed) const;

    // Sequences.
    std::size_t size() const;                         // requires a sequence
    YamlRef operator[](std::size_t i) const;

    // Scalars. Wrong type -> error "expected ...".
    std::string asString() const;
    std::int64_t asInt() const;          // integral doubles such as 3.0 are accepted
    double asDouble() const;             // finite only
    bool asBool() const;
    std::int64_t asPositiveInt() const;  // > 0
    std::int64_t asNonNegativeInt() const;
    std::vector<std::string> asStringList() const;  // a sequence of scalars (a single scalar = one item)

    void requireMap() const;
    void requireSequence() const;
    void requireScalar() const;

private:
    YamlRef(std::string path, std::string file, YAML::Mark mark);  // undefined child
    YAML::Node node_;
    std::string path_;
    std::string file_;
    YAML::Mark mark_;
    bool defined_ = false;
};

struct YamlRef::Entry {
    std::string key;
    YamlRef keyRef;    // located at the key
    YamlRef value;
};

// Remembers where values came from (field path -> file position) and locates the
// diagnostics of validate() functions at the longest recorded prefix of their field path.
class PathLocations {
public:
    void add(const std::string& path, const SourceLocation& loc);
    void add(const YamlRef& ref) { add(ref.path(), ref.location()); }
    // Sets the location of each diagnostic that has none; `fallback` when nothing matches.
    void locate(Diagnostics& diags, const SourceLocation& fallback = {}) const;
    std::optional<SourceLocation> find(const std::string& path) const;

private:
    std::vector<std::pair<std::string, SourceLocation>> entries_;
};

// Path helpers: "a" + "b" -> "a.b"; "a" + 3 -> "a[3]".
// A bandwidth in words per cycle: absent or null = unlimited, otherwise positive.
std::optional<double> optionalBandwidth(const YamlRef& parent, const char* key);

std::string joinPath(const std::string& base, const std::string& key);
std::string indexPath(const std::string& base, std::size_t i);

} // namespace nestor::yamlio
