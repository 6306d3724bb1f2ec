#pragma once
// A minimal streaming JSON writer (pretty-printed, two-space indent). Doubles are written
// in their shortest exact form; NaN and infinities become null.
#include <cstdint>
#include <string>
#include <vector>

namespace nestor {

class JsonWriter {
public:
    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(const std::string& k);   // inside an object, before each value
    JsonWriter& value(const std::string& s);
    JsonWriter& value(const char* s) { return value(std::string(s)); }
    JsonWriter& value(double v);
    JsonWriter& value(std::int64_t v);
    JsonWriter& value(int v) { return value(static_cast<std::int64_t>(v)); }
    JsonWriter& value(bool b);
    JsonWriter& null();
    template <typename T>
    JsonWriter& field(const std::string& k, const T& v) { return key(k).value(v); }

    std::string str() const { return out_ + "\n"; }

private:
    void beforeValue();
    void newline();
    std::string out_;
    struct Frame { bool array; int count; };
    std::vector<Frame> stack_;
    bool afterKey_ = false;
};

} // namespace nestor
