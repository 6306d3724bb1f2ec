#include "io/JsonWriter.h"

#include "io/TextFormat.h"

#include <cmath>

namespace nestor {

void JsonWriter::newline()
{
    out_ += "\n";
    out_.append(2 * stack_.size(), ' ');
}

void JsonWriter::beforeValue()
{
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (!stack_.empty()) {
        if (stack_.back().count++ > 0) out_ += ",";
        newline();
    }
}

JsonWriter& JsonWriter::beginObject()
{
    beforeValue();
    out_ += "{";
    stack_.push_back({false, 0});
    return *this;
}

JsonWriter& JsonWriter::endObject()
{
    const bool empty = stack_.back().count == 0;
    stack_.pop_back();
    if (!empty) newline();
    out_ += "}";
    return *this;
}

JsonWriter& JsonWriter::beginArray()
{
    beforeValue();
    out_ += "[";
    stack_.push_back({true, 0});
    return *this;
}

JsonWriter& JsonWriter::endArray()
{
    const bool empty = stack_.back().count == 0;
    stack_.pop_back();
    if (!empty) newline();
    out_ += "]";
    return *this;
}

JsonWriter& JsonWriter::key(const std::string& k)
{
    if (stack_.back().count++ > 0) out_ += ",";
    newline();
    out_ += text::jsonString(k) + ": ";
    afterKey_ = true;
    return *this;
}

JsonWriter& JsonWriter::value(const std::string& s)
{
    beforeValue();
    out_ += text::jsonString(s);
    return *this;
}

JsonWriter& JsonWriter::value(double v)
{
    beforeValue();
    out_ += std::isfinite(v) ? text::shortest(v) : "null";
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t v)
{
    beforeValue();
    out_ += std::to_string(v);
    return *this;
}

JsonWriter& JsonWriter::value(bool b)
{
    beforeValue();
    out_ += b ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::null()
{
    beforeValue();
    out_ += "null";
    return *this;
}

} // namespace nestor
