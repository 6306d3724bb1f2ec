#include "sim/vta/JsonValue.h"

#include "common/TextFile.h"

#include <charconv>
#include <sstream>

namespace nestor::vta {

const char* JsonValue::kindName(Kind k)
{
    switch (k) {
    case Kind::Null: return "null";
    case Kind::Bool: return "a boolean";
    case Kind::Integer: return "an integer";
    case Kind::Real: return "a number with a fraction or exponent";
    case Kind::String: return "a string";
    case Kind::Array: return "an array";
    case Kind::Object: return "an object";
    }
    return "?";
}

void JsonValue::fail(const std::string& field, const std::string& message) const
{
    throw NestorError(field, message, location_);
}

const std::string& JsonValue::asString(const std::string& field) const
{
    if (kind_ != Kind::String) fail(field, std::string("expected a string, found ") + kindName(kind_));
    return string_;
}

std::int64_t JsonValue::asInteger(const std::string& field) const
{
    if (kind_ != Kind::Integer) fail(field, std::string("expected an integer, found ") + kindName(kind_));
    return integer_;
}

bool JsonValue::asBool(const std::string& field) const
{
    if (kind_ != Kind::Bool) fail(field, std::string("expected true or false, found ") + kindName(kind_));
    return boolean_;
}

const std::vector<JsonValue>& JsonValue::asArray(const std::string& field) const
{
    if (kind_ != Kind::Array) fail(field, std::string("expected an array, found ") + kindName(kind_));
    return array_;
}

const std::vector<std::pair<std::string, JsonValue>>& JsonValue::members(const std::string& field) const
{
    if (kind_ != Kind::Object) fail(field, std::string("expected an object, found ") + kindName(kind_));
    return object_;
}

const JsonValue* JsonValue::find(const std::string& key) const
{
    for (const auto& [k, v] : object_)
        if (k == key) return &v;
    return nullptr;
}

const JsonValue& JsonValue::at(const std::string& key, const std::string& field) const
{
    members(field);
    const JsonValue* v = find(key);
    if (!v) fail(field, "missing key '" + key + "'");
    return *v;
}

class JsonParser {
public:
    JsonParser(const std::string& text, const std::string& file) : text_(text), file_(file) {}

    JsonValue document()
    {
        skipSpace();
        JsonValue v = value(0);
        skipSpace();
        if (pos_ != text_.size()) error("unexpected text after the JSON value");
        return v;
    }

private:
    static constexpr int kMaxDepth = 200;

    SourceLocation here() const { return SourceLocation{file_, line_, column_}; }

    [[noreturn]] void error(const std::string& message) const { throw NestorError("", message, here()); }

    bool atEnd() const { return pos_ >= text_.size(); }
    char peek() const { return atEnd() ? '\0' : text_[pos_]; }

    void advance()
    {
        if (text_[pos_] == '\n') {
            ++line_;
            column_ = 1;
        } else {
            ++column_;
        }
        ++pos_;
    }

    void skipSpace()
    {
        while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) advance();
    }

    void expect(char c, const char* what)
    {
        if (peek() != c) error(std::string("expected ") + what + describeNext());
        advance();
    }

    std::string describeNext() const
    {
        if (atEnd()) return ", found the end of the file";
        const unsigned char c = static_cast<unsigned char>(peek());
        if (c < 0x20 || c >= 0x7f) return ", found byte 0x" + hex2(c);
        return std::string(", found '") + static_cast<char>(c) + "'";
    }

    static std::string hex2(unsigned c)
    {
        const char* digits = "0123456789abcdef";
        return {digits[(c >> 4) & 15], digits[c & 15]};
    }

    JsonValue value(int depth)
    {
        if (depth > kMaxDepth) error("JSON nested deeper than 200 levels");
        JsonValue v;
        v.location_ = here();
        const char c = peek();
        if (c == '{') {
            v.kind_ = JsonValue::Kind::Object;
            object(v, depth);
        } else if (c == '[') {
            v.kind_ = JsonValue::Kind::Array;
            array(v, depth);
        } else if (c == '"') {
            v.kind_ = JsonValue::Kind::String;
            v.string_ = string();
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            number(v);
        } else if (literal("true")) {
            v.kind_ = JsonValue::Kind::Bool;
            v.boolean_ = true;
        } else if (literal("false")) {
            v.kind_ = JsonValue::Kind::Bool;
        } else if (literal("null")) {
            v.kind_ = JsonValue::Kind::Null;
        } else {
            error("expected a JSON value" + describeNext());
        }
        return v;
    }

    bool literal(const char* word)
    {
        const std::string w(word);
        if (text_.compare(pos_, w.size(), w) != 0) return false;
        for (std::size_t i = 0; i < w.size(); ++i) advance();
        return true;
    }

    void object(JsonValue& v, int depth)
    {
        advance();  // '{'
        skipSpace();
        if (peek() == '}') {
            advance();
            return;
        }
        for (;;) {
            skipSpace();
            if (peek() != '"') error("expected a string key" + describeNext());
            const SourceLocation keyAt = here();
            std::string key = string();
            if (v.find(key)) throw NestorError("", "duplicate key '" + key + "'", keyAt);
            skipSpace();
            expect(':', "':' after the key");
            skipSpace();
            JsonValue member = value(depth + 1);
            v.object_.emplace_back(std::move(key), std::move(member));
            skipSpace();
            if (peek() == ',') {
                advance();
                continue;
            }
            expect('}', "',' or '}'");
            return;
        }
    }

    void array(JsonValue& v, int depth)
    {
        advance();  // '['
        skipSpace();
        if (peek() == ']') {
            advance();
            return;
        }
        for (;;) {
            skipSpace();
            v.array_.push_back(value(depth + 1));
            skipSpace();
            if (peek() == ',') {
                advance();
                continue;
            }
            expect(']', "',' or ']'");
            return;
        }
    }

    unsigned hexDigits4()
    {
        unsigned code = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = peek();
            unsigned d = 0;
            if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
            else if (c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
            else error("expected 4 hex digits after \\u" + describeNext());
            code = code * 16 + d;
            advance();
        }
        return code;
    }

    static void appendUtf8(std::string& s, unsigned cp)
    {
        if (cp < 0x80) {
            s += static_cast<char>(cp);
        } else if (cp < 0x800) {
            s += static_cast<char>(0xc0 | (cp >> 6));
            s += static_cast<char>(0x80 | (cp & 0x3f));
        } else if (cp < 0x10000) {
            s += static_cast<char>(0xe0 | (cp >> 12));
            s += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
            s += static_cast<char>(0x80 | (cp & 0x3f));
        } else {
            s += static_cast<char>(0xf0 | (cp >> 18));
            s += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
            s += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
            s += static_cast<char>(0x80 | (cp & 0x3f));
        }
    }

    std::string string()
    {
        advance();  // '"'
        std::string s;
        for (;;) {
            if (atEnd()) error("unterminated string");
            const char c = peek();
            if (c == '"') {
                advance();
                return s;
            }
            if (static_cast<unsigned char>(c) < 0x20) error("control character in a string" + describeNext());
            if (c != '\\') {
                s += c;
                advance();
                continue;
            }
            advance();
            const char e = peek();
            switch (e) {
            case '"': s += '"'; break;
            case '\\': s += '\\'; break;
            case '/': s += '/'; break;
            case 'b': s += '\b'; break;
            case 'f': s += '\f'; break;
            case 'n': s += '\n'; break;
            case 'r': s += '\r'; break;
            case 't': s += '\t'; break;
            case 'u': {
                advance();
                unsigned cp = hexDigits4();
                if (cp >= 0xd800 && cp < 0xdc00) {
                    if (!literal("\\u")) error("a high surrogate must be followed by \\u and a low surrogate");
                    const unsigned low = hexDigits4();
                    if (low < 0xdc00 || low >= 0xe000) error("invalid low surrogate in \\u escape");
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                } else if (cp >= 0xdc00 && cp < 0xe000) {
                    error("lone low surrogate in \\u escape");
                }
                appendUtf8(s, cp);
                continue;  // hexDigits4 consumed the digits
            }
            default: error("invalid escape in a string" + describeNext());
            }
            advance();
        }
    }

    void number(JsonValue& v)
    {
        const std::size_t start = pos_;
        bool real = false;
        if (peek() == '-') advance();
        if (peek() == '0') {
            advance();
        } else if (peek() >= '1' && peek() <= '9') {
            while (peek() >= '0' && peek() <= '9') advance();
        } else {
            error("expected a digit" + describeNext());
        }
        if (peek() == '.') {
            real = true;
            advance();
            if (!(peek() >= '0' && peek() <= '9')) error("expected a digit after '.'" + describeNext());
            while (peek() >= '0' && peek() <= '9') advance();
        }
        if (peek() == 'e' || peek() == 'E') {
            real = true;
            advance();
            if (peek() == '+' || peek() == '-') advance();
            if (!(peek() >= '0' && peek() <= '9')) error("expected a digit in the exponent" + describeNext());
            while (peek() >= '0' && peek() <= '9') advance();
        }
        const char* first = text_.data() + start;
        const char* last = text_.data() + pos_;
        if (!real) {
            const auto r = std::from_chars(first, last, v.integer_);
            if (r.ec == std::errc()) {
                v.kind_ = JsonValue::Kind::Integer;
                return;
            }
            // Beyond 64 bits: keep it as a real so that the consumer reports the range.
        }
        v.kind_ = JsonValue::Kind::Real;
        std::istringstream in(std::string(first, last));
        in.imbue(std::locale::classic());
        in >> v.real_;
    }

    const std::string& text_;
    std::string file_;
    std::size_t pos_ = 0;
    int line_ = 1;
    int column_ = 1;
};

JsonValue parseJson(const std::string& text, const std::string& file)
{
    return JsonParser(text, file).document();
}

JsonValue readJsonFile(const std::string& path)
{
    return parseJson(readTextFile(path), path);
}

} // namespace nestor::vta
