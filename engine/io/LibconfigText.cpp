#include "io/LibconfigText.h"

#include "common/Error.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <limits>

namespace nestor {
namespace {

// Deeper nesting is refused: the translation and the YAML reader both recurse per level.
constexpr int kMaxDepth = 200;

bool isNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '*'; }
bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '*'; }
bool isScalarChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '-'; }

std::string lowered(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// A libconfig number as YAML writes it (hex as decimal, without the L / LL suffix); empty when
// `token` is not a number.
std::string numberText(std::string token)
{
    const std::string low = lowered(token);
    std::size_t end = low.size();
    if (end >= 2 && low.compare(end - 2, 2, "ll") == 0) end -= 2;
    else if (end >= 1 && low[end - 1] == 'l') end -= 1;
    const bool suffixed = end != low.size();
    const std::string body = low.substr(0, end);
    const std::size_t sign = !body.empty() && (body[0] == '-' || body[0] == '+') ? 1 : 0;
    if (body.size() > sign + 2 && body.compare(sign, 2, "0x") == 0) {
        std::uint64_t v = 0;
        for (std::size_t i = sign + 2; i < body.size(); ++i) {
            if (!std::isxdigit(static_cast<unsigned char>(body[i]))) return {};
            const std::uint64_t digit = static_cast<std::uint64_t>(std::isdigit(static_cast<unsigned char>(body[i])) ? body[i] - '0' : body[i] - 'a' + 10);
            if (v > (std::numeric_limits<std::uint64_t>::max() - digit) / 16) return {};  // past 64 bits
            v = v * 16 + digit;
        }
        return (body[0] == '-' ? "-" : "") + std::to_string(v);
    }
    // [sign] digits [. digits] [e [sign] digits], at least one digit before the exponent
    std::size_t i = sign, digits = 0;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i, ++digits;
    bool integer = true;
    if (i < body.size() && body[i] == '.') {
        integer = false;
        for (++i; i < body.size() && std::isdigit(static_cast<unsigned char>(body[i])); ++i) ++digits;
    }
    if (digits == 0) return {};
    if (i < body.size() && body[i] == 'e') {
        integer = false;
        ++i;
        if (i < body.size() && (body[i] == '-' || body[i] == '+')) ++i;
        const std::size_t from = i;
        while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i;
        if (i == from) return {};
    }
    if (i != body.size() || (suffixed && !integer)) return {};
    return token.substr(0, end);
}

class Translator {
public:
    Translator(const std::string& text, const std::string& file) : t_(text), file_(file) {}

    std::string run()
    {
        out_.reserve(t_.size() + t_.size() / 4 + 2);
        out_ += '{';
        settings('\0', 0);
        out_ += '}';
        return out_;
    }

private:
    const std::string& t_;
    const std::string& file_;
    std::size_t i_ = 0;
    int line_ = 1;
    std::size_t lineStart_ = 0;
    std::string out_;

    bool atEnd() const { return i_ >= t_.size(); }
    char peek(std::size_t ahead) const { return i_ + ahead < t_.size() ? t_[i_ + ahead] : '\0'; }
    SourceLocation here() const { return {file_, line_, static_cast<int>(i_ - lineStart_) + 1}; }
    [[noreturn]] void fail(const std::string& message) const { fail(message, here()); }
    [[noreturn]] static void fail(const std::string& message, const SourceLocation& at)
    {
        throw NestorError("", "libconfig: " + message, at);
    }
    void newline()
    {
        out_ += '\n';
        ++line_;
        lineStart_ = i_ + 1;
    }

    // Blanks and comments: newlines are kept (the lines stay where they were), the rest dropped.
    void skipBlanks()
    {
        while (!atEnd()) {
            const char c = t_[i_];
            if (c == '\n') {
                newline();
                ++i_;
            } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
                out_ += ' ';
                ++i_;
            } else if (c == '#' || (c == '/' && peek(1) == '/')) {
                while (!atEnd() && t_[i_] != '\n') ++i_;
            } else if (c == '/' && peek(1) == '*') {
                const SourceLocation start = here();
                for (i_ += 2; !atEnd() && !(t_[i_] == '*' && peek(1) == '/'); ++i_)
                    if (t_[i_] == '\n') newline();
                if (atEnd()) fail("a /* comment is not closed", start);
                i_ += 2;
            } else {
                return;
            }
        }
    }

    // Settings up to `close` ('}', or '\0' for the end of the file), which is left unread.
    void settings(char close, int depth)
    {
        bool first = true, terminated = true;
        for (;;) {
            skipBlanks();
            if (atEnd()) {
                if (close != '\0') fail("a group is not closed: '}' expected before the end of the file");
                return;
            }
            const char c = t_[i_];
            if (c == close) return;
            if (c == '@') fail("@include is not supported: give the included file to the importer as well");
            if (!isNameStart(c)) fail(std::string("a setting's name expected, found '") + c + "'");
            if (!first && !terminated) out_ += ',';
            const std::size_t from = i_;
            while (!atEnd() && isNameChar(t_[i_])) ++i_;
            const std::string name = t_.substr(from, i_ - from);
            out_ += '"' + name + '"';
            skipBlanks();
            if (atEnd() || (t_[i_] != '=' && t_[i_] != ':')) fail("'=' or ':' expected after the name '" + name + "'");
            ++i_;
            out_ += ": ";
            value(depth);
            skipBlanks();
            terminated = !atEnd() && (t_[i_] == ';' || t_[i_] == ',');
            if (terminated) {
                out_ += ',';
                ++i_;
            }
            first = false;
        }
    }

    void value(int depth)
    {
        skipBlanks();
        if (atEnd()) fail("a value expected before the end of the file");
        const char c = t_[i_];
        if (c == '{' || c == '(' || c == '[') {
            if (depth >= kMaxDepth) fail("nested deeper than " + std::to_string(kMaxDepth) + " levels");
            ++i_;
            if (c == '{') {
                out_ += '{';
                settings('}', depth + 1);
                ++i_;
                out_ += '}';
            } else {
                elements(c == '(' ? ')' : ']', depth + 1);
            }
        } else if (c == '"') {
            string();
        } else if (isScalarChar(c)) {
            const SourceLocation at = here();
            const std::size_t from = i_;
            while (!atEnd() && isScalarChar(t_[i_])) ++i_;
            const std::string token = t_.substr(from, i_ - from);
            const std::string low = lowered(token);
            if (low == "true" || low == "false") {
                out_ += low;
                return;
            }
            const std::string number = numberText(token);
            if (number.empty()) fail("'" + token + "' is not a value (strings are double-quoted)", at);
            out_ += number;
        } else {
            fail(std::string("a value expected, found '") + c + "'");
        }
    }

    // A list (...) or an array [...], after its opening bracket, as a YAML sequence.
    void elements(char close, int depth)
    {
        out_ += '[';
        bool first = true;
        for (;;) {
            skipBlanks();
            if (atEnd()) fail(std::string("a list is not closed: '") + close + "' expected before the end of the file");
            if (t_[i_] == close) break;
            if (!first) {
                if (t_[i_] != ',') fail(std::string("',' or '") + close + "' expected between the elements");
                ++i_;
                out_ += ',';
                skipBlanks();
                if (!atEnd() && t_[i_] == close) break;
            }
            value(depth);
            first = false;
        }
        ++i_;
        out_ += ']';
    }

    // A double-quoted string, and the ones right after it (libconfig joins them). The newlines
    // between joined parts go after the joined string: the next lines stay where they were.
    void string()
    {
        int pendingLines = 0;
        out_ += '"';
        for (;;) {
            const SourceLocation start = here();
            for (++i_;; ++i_) {
                if (atEnd() || t_[i_] == '\n') fail("a string is not closed on its line", start);
                const char c = t_[i_];
                if (c == '"') break;
                if (c == '\\') {
                    const char e = peek(1);
                    if (e == 'x' && std::isxdigit(static_cast<unsigned char>(peek(2))) && std::isxdigit(static_cast<unsigned char>(peek(3)))) {
                        out_.append(t_, i_, 4);
                        i_ += 3;
                        continue;
                    }
                    if (e != '\\' && e != '"' && e != 'f' && e != 'n' && e != 'r' && e != 't')
                        fail("unknown escape '\\" + std::string(1, e) + "' in a string");
                    out_.append(t_, i_, 2);
                    ++i_;
                    continue;
                }
                out_ += c;
            }
            ++i_;  // the closing quote
            // Another string after blanks and comments continues this one. What skipBlanks writes
            // for them goes after the joined string.
            const std::size_t mark = out_.size();
            skipBlanks();
            const std::string gap = out_.substr(mark);
            out_.resize(mark);
            if (atEnd() || t_[i_] != '"') {
                out_ += '"';
                out_.append(static_cast<std::size_t>(pendingLines), '\n');
                out_ += gap;
                return;
            }
            pendingLines += static_cast<int>(std::count(gap.begin(), gap.end(), '\n'));
        }
    }
};

} // namespace

bool isLibconfigPath(const std::string& path)
{
    return path.size() >= 4 && lowered(path.substr(path.size() - 4)) == ".cfg";
}

std::string libconfigToYaml(const std::string& text, const std::string& file)
{
    return Translator(text, file).run();
}

} // namespace nestor
