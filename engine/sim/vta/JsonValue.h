#pragma once
// A small strict JSON reader (RFC 8259) that keeps the line and column of every value, so that
// a bad field in a VTA vector is reported as file:line:column. No Qt, no third-party parser:
// YAML parsers accept non-JSON input silently, this one does not.
#include "common/Error.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nestor::vta {

class JsonValue {
public:
    enum class Kind { Null, Bool, Integer, Real, String, Array, Object };

    Kind kind() const { return kind_; }
    const SourceLocation& location() const { return location_; }
    static const char* kindName(Kind k);

    bool isObject() const { return kind_ == Kind::Object; }
    bool isArray() const { return kind_ == Kind::Array; }
    bool isString() const { return kind_ == Kind::String; }
    bool isInteger() const { return kind_ == Kind::Integer; }

    // Typed access; each throws a NestorError naming `field` and this value's location when
    // the value has another kind.
    const std::string& asString(const std::string& field) const;
    std::int64_t asInteger(const std::string& field) const;
    bool asBool(const std::string& field) const;
    const std::vector<JsonValue>& asArray(const std::string& field) const;

    // Objects: members in file order; find() returns nullptr when absent, at() throws.
    const std::vector<std::pair<std::string, JsonValue>>& members(const std::string& field) const;
    const JsonValue* find(const std::string& key) const;
    const JsonValue& at(const std::string& key, const std::string& field) const;

    // A located error about this value.
    [[noreturn]] void fail(const std::string& field, const std::string& message) const;

private:
    friend class JsonParser;
    Kind kind_ = Kind::Null;
    SourceLocation location_;
    bool boolean_ = false;
    std::int64_t integer_ = 0;
    double real_ = 0;
    std::string string_;
    std::vector<JsonValue> array_;
    std::vector<std::pair<std::string, JsonValue>> object_;
};

// Parses a whole document; `file` names it in error locations. Throws NestorError with the
// file:line:column of the first syntax error (also: duplicate keys, nesting deeper than 200).
JsonValue parseJson(const std::string& text, const std::string& file);

// Reads and parses a file.
JsonValue readJsonFile(const std::string& path);

} // namespace nestor::vta
