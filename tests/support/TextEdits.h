#pragma once
// Text surgery for tests that build bad input from good input and expect located errors.
#include <QtGlobal>

#include <string>
#include <utility>

namespace nestor::test {

// `text` with the first `from` replaced by `to` (a test bug if `from` is absent).
inline std::string replaced(const std::string& text, const std::string& from, const std::string& to)
{
    const auto pos = text.find(from);
    if (pos == std::string::npos) qFatal("test bug: '%s' not in the text", from.c_str());
    return text.substr(0, pos) + to + text.substr(pos + from.size());
}

// 1-based line and column of the first character of the occurrence-th `needle`.
inline std::pair<int, int> positionOf(const std::string& text, const std::string& needle, int occurrence = 1)
{
    std::size_t pos = std::string::npos, from = 0;
    for (int i = 0; i < occurrence; ++i) {
        pos = text.find(needle, from);
        if (pos == std::string::npos) qFatal("test bug: '%s' not found", needle.c_str());
        from = pos + 1;
    }
    int line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < pos; ++i)
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    return {line, static_cast<int>(pos - lineStart) + 1};
}

} // namespace nestor::test
