#include "Mutator.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <string_view>

namespace nestor::fuzz {

namespace {

// Boundary values: the int32/int64/uint64 edges, 2^62 (the engine's overflow guard), 2^70 and a
// 29-digit number (beyond every integer type), primes (no divisors for factorizations), and the
// floating-point specials YAML knows.
const std::vector<std::string> kSpecialNumbers = {
    "0", "-1", "1", "2", "-0", "0.5", "3.7", "1e-9",
    "7", "13", "97", "997", "65521", "1000003",             // primes
    "1000", "100000", "1000000", "1073741824",              // 2^30
    "2147483647", "2147483648", "4294967297",                // 2^31-1 (prime), 2^31, 2^32+1
    "4611686018427387903", "4611686018427387904",            // 2^62-1, 2^62
    "9223372036854775807", "9223372036854775808",            // 2^63-1, 2^63
    "-9223372036854775808", "18446744073709551617",          // INT64_MIN, 2^64+1
    "1180591620717411303424",                                // 2^70
    "12345678901234567890123456789",                          // 29 digits
    "1e308", "1e400", "-1e400", ".nan", ".inf", "-.inf", "0x1F", "1_000"};

const std::vector<std::string> kNotNumbers = {"abc", "\"12\"", "'7'", "1,2", "true", "null", "~", "''", "1x",
                                              "[1, 2]", "{a: 1}", "- 3", "12 34", "Q=4"};

const std::vector<std::string> kFactorInsertions = {
    " Q=14,13", " C4 M8", " Z=3", " M=0", " M=-1", " P=2147483647", " C=12345678901234567890123456789", " Q=1 Q=2",
    " R=3,", " =4", " S=", "||", " |", " M|C", " P=7,8", " K=2", " N=1,1", " C=1180591620717411303424"};

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::vector<std::string> splitLines(const std::string& text)
{
    std::vector<std::string> lines;
    std::string cur;
    for (char c : text) {
        if (c == '\n') {
            lines.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) lines.push_back(cur);
    return lines;
}

std::string joinLines(const std::vector<std::string>& lines)
{
    std::string s;
    for (const auto& l : lines) s += l + "\n";
    return s;
}

struct Span {
    std::size_t pos, len;
};

// Numeric literals not inside identifiers ("conv3_1" has none; "Q=14" and "[P, 16]" have one).
std::vector<Span> findNumbers(const std::string& t)
{
    std::vector<Span> spans;
    for (std::size_t i = 0; i < t.size();) {
        const bool neg = t[i] == '-' && i + 1 < t.size() && std::isdigit(static_cast<unsigned char>(t[i + 1]));
        if ((std::isdigit(static_cast<unsigned char>(t[i])) || neg) && (i == 0 || !isIdentChar(t[i - 1]))) {
            std::size_t j = i + 1;
            while (j < t.size() && (std::isdigit(static_cast<unsigned char>(t[j])) || t[j] == '.' || t[j] == 'e' ||
                                    t[j] == 'E' || ((t[j] == '-' || t[j] == '+') && (t[j - 1] == 'e' || t[j - 1] == 'E'))))
                ++j;
            if (j == t.size() || !isIdentChar(t[j]) || t[j - 1] == 'e') spans.push_back({i, j - i});
            i = j;
        } else {
            ++i;
        }
    }
    return spans;
}

// Whitespace-separated tokens, excluding those in comments.
std::vector<Span> findTokens(const std::string& t)
{
    std::vector<Span> spans;
    bool comment = false;
    for (std::size_t i = 0; i < t.size();) {
        if (t[i] == '\n') comment = false;
        if (t[i] == '#' && (i == 0 || std::isspace(static_cast<unsigned char>(t[i - 1])))) comment = true;
        if (std::isspace(static_cast<unsigned char>(t[i]))) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < t.size() && !std::isspace(static_cast<unsigned char>(t[j]))) ++j;
        if (!comment) spans.push_back({i, j - i});
        i = j;
    }
    return spans;
}

// Identifier-like words (keys, names, dimension letters), outside comments.
std::vector<Span> findWords(const std::string& t)
{
    std::vector<Span> spans;
    bool comment = false;
    for (std::size_t i = 0; i < t.size();) {
        if (t[i] == '\n') comment = false;
        if (t[i] == '#') comment = true;
        if (!comment && std::isalpha(static_cast<unsigned char>(t[i])) && (i == 0 || !isIdentChar(t[i - 1]))) {
            std::size_t j = i;
            while (j < t.size() && (isIdentChar(t[j]) || t[j] == '-')) ++j;
            spans.push_back({i, j - i});
            i = j;
        } else {
            ++i;
        }
    }
    return spans;
}

// Keys: a word directly followed by ':' and a space or end of line.
std::vector<Span> findKeys(const std::string& t)
{
    std::vector<Span> keys;
    for (const auto& w : findWords(t)) {
        const std::size_t e = w.pos + w.len;
        if (e < t.size() && t[e] == ':' && (e + 1 == t.size() || t[e + 1] == ' ' || t[e + 1] == '\n')) keys.push_back(w);
    }
    return keys;
}

// The bodies of double-quoted strings that `wanted` accepts.
std::vector<Span> findQuoted(const std::string& t, const std::function<bool(std::string_view)>& wanted)
{
    std::vector<Span> spans;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i] != '"') continue;
        const std::size_t e = t.find('"', i + 1);
        if (e == std::string::npos) break;
        if (wanted(std::string_view(t.data() + i + 1, e - i - 1))) spans.push_back({i + 1, e - i - 1});
        i = e;
    }
    return spans;
}

// Double-quoted strings that look like factor or split specifications ("R=1 S=1", "Q M|", "|S C").
std::vector<Span> findFactorStrings(const std::string& t)
{
    return findQuoted(t, [](std::string_view body) {
        return body.find('=') != std::string_view::npos || body.find('|') != std::string_view::npos;
    });
}

// Double-quoted runs of hex digits (8 or more): VTA's instructions, micro-ops and memory images
// (tests/data/vta/FORMAT.md), where a field's bits sit in the digits.
std::vector<Span> findHexStrings(const std::string& t)
{
    return findQuoted(t, [](std::string_view body) {
        return body.size() >= 8 &&
               std::all_of(body.begin(), body.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
    });
}

// Innermost flow lists "[...]" (no nested bracket inside).
std::vector<Span> findFlowLists(const std::string& t)
{
    std::vector<Span> spans;
    std::size_t open = std::string::npos;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i] == '[') open = i;
        else if (t[i] == ']' && open != std::string::npos) {
            spans.push_back({open, i - open + 1});
            open = std::string::npos;
        } else if (t[i] == '\n') {
            open = std::string::npos;
        }
    }
    return spans;
}

std::string replaceSpan(const std::string& t, Span s, const std::string& with)
{
    return t.substr(0, s.pos) + with + t.substr(s.pos + s.len);
}

std::size_t indentOf(const std::string& line)
{
    std::size_t n = 0;
    while (n < line.size() && line[n] == ' ') ++n;
    return n;
}

struct Op {
    const char* name;
    unsigned weight;
    // Returns false when the operator does not apply to this text (nothing to mutate).
    std::function<bool(std::string&, const std::vector<std::string>&, Random&, std::string&)> apply;
};

const std::vector<Op>& operators()
{
    static const std::vector<Op> ops = {
        {"number-special", 14, [](std::string& t, const auto&, Random& r, std::string& note) {
             const auto nums = findNumbers(t);
             if (nums.empty()) return false;
             const std::string v = r.pick(kSpecialNumbers);
             note = v;
             t = replaceSpan(t, r.pick(nums), v);
             return true;
         }},
        {"dimension-number", 10, [](std::string& t, const auto&, Random& r, std::string& note) {
             // Numbers that size a dimension or a loop ("M: 256", "Q=14", "[P, 7]"): where huge and prime
             // values reach the arithmetic, the mapspace tables and the walker rather than only the parser.
             std::vector<Span> nums;
             for (const auto& s : findNumbers(t)) {
                 const std::size_t p = s.pos;
                 // the position of the dimension letter: "M: 256" and "[P, 7]" (3 back), "Q=14" (2 back)
                 std::size_t letter = std::string::npos;
                 if (p >= 3 && (t.compare(p - 2, 2, ": ") == 0 || t.compare(p - 2, 2, ", ") == 0)) letter = p - 3;
                 else if (p >= 2 && t[p - 1] == '=') letter = p - 2;
                 if (letter != std::string::npos && std::isupper(static_cast<unsigned char>(t[letter])) &&
                     (letter == 0 || !isIdentChar(t[letter - 1])))
                     nums.push_back(s);
             }
             if (nums.empty()) return false;
             const std::string v = r.pick(kSpecialNumbers);
             note = v;
             t = replaceSpan(t, r.pick(nums), v);
             return true;
         }},
        {"number-arith", 5, [](std::string& t, const auto&, Random& r, std::string& note) {
             const auto nums = findNumbers(t);
             if (nums.empty()) return false;
             const Span s = r.pick(nums);
             long double v = std::strtold(t.substr(s.pos, s.len).c_str(), nullptr);
             static const char* kinds[] = {"+1", "-1", "*2", "/2", "*1000", "*-1"};
             const std::size_t k = r.below(6);
             note = kinds[k];
             switch (k) {
             case 0: v += 1; break;
             case 1: v -= 1; break;
             case 2: v *= 2; break;
             case 3: v = static_cast<long double>(static_cast<long long>(v / 2)); break;
             case 4: v *= 1000; break;
             default: v = -v; break;
             }
             char buf[64];
             std::snprintf(buf, sizeof buf, "%.0Lf", v);
             t = replaceSpan(t, s, buf);
             return true;
         }},
        {"string-in-number", 4, [](std::string& t, const auto&, Random& r, std::string& note) {
             const auto nums = findNumbers(t);
             if (nums.empty()) return false;
             note = r.pick(kNotNumbers);
             t = replaceSpan(t, r.pick(nums), note);
             return true;
         }},
        {"token-delete", 5, [](std::string& t, const auto&, Random& r, std::string&) {
             const auto toks = findTokens(t);
             if (toks.empty()) return false;
             t = replaceSpan(t, r.pick(toks), "");
             return true;
         }},
        {"token-duplicate", 4, [](std::string& t, const auto&, Random& r, std::string&) {
             const auto toks = findTokens(t);
             if (toks.empty()) return false;
             const Span s = r.pick(toks);
             t.insert(s.pos + s.len, " " + t.substr(s.pos, s.len));
             return true;
         }},
        {"line-delete", 6, [](std::string& t, const auto&, Random& r, std::string&) {
             auto lines = splitLines(t);
             if (lines.empty()) return false;
             lines.erase(lines.begin() + static_cast<long>(r.below(lines.size())));
             t = joinLines(lines);
             return true;
         }},
        {"line-swap", 4, [](std::string& t, const auto&, Random& r, std::string&) {
             auto lines = splitLines(t);
             if (lines.size() < 2) return false;
             const std::size_t a = r.below(lines.size());
             const std::size_t b = r.chance(60) ? (a + 1) % lines.size() : r.below(lines.size());
             std::swap(lines[a], lines[b]);
             t = joinLines(lines);
             return true;
         }},
        {"line-duplicate", 4, [](std::string& t, const auto&, Random& r, std::string&) {
             auto lines = splitLines(t);
             if (lines.empty()) return false;
             const std::size_t a = r.below(lines.size());
             lines.insert(lines.begin() + static_cast<long>(a), lines[a]);
             t = joinLines(lines);
             return true;
         }},
        {"block-delete", 4, [](std::string& t, const auto&, Random& r, std::string&) {
             // A line and everything nested under it: removes whole sections and list items.
             auto lines = splitLines(t);
             if (lines.empty()) return false;
             const std::size_t a = r.below(lines.size());
             const std::size_t ind = indentOf(lines[a]);
             std::size_t e = a + 1;
             while (e < lines.size() && (lines[e].empty() || indentOf(lines[e]) > ind)) ++e;
             lines.erase(lines.begin() + static_cast<long>(a), lines.begin() + static_cast<long>(e));
             t = joinLines(lines);
             return true;
         }},
        {"truncate-file", 2, [](std::string& t, const auto&, Random& r, std::string& note) {
             auto lines = splitLines(t);
             if (lines.size() < 4) return false;
             const std::size_t keep = lines.size() / 5 + r.below(lines.size() * 3 / 4);
             note = std::to_string(keep) + " lines";
             lines.resize(std::min(keep, lines.size() - 1));
             t = joinLines(lines);
             return true;
         }},
        {"key-rename", 6, [](std::string& t, const auto&, Random& r, std::string& note) {
             const auto keys = findKeys(t);
             if (keys.empty()) return false;
             const Span s = r.pick(keys);
             std::string k = t.substr(s.pos, s.len);
             switch (r.below(4)) {
             case 0: { const Span o = r.pick(keys); k = t.substr(o.pos, o.len); break; }  // another key of the file
             case 1: k += "x"; break;
             case 2: std::transform(k.begin(), k.end(), k.begin(), [](unsigned char c) { return std::toupper(c); }); break;
             default: k = k.size() > 1 ? k.substr(1) : "_"; break;
             }
             note = t.substr(s.pos, s.len) + "->" + k;
             t = replaceSpan(t, s, k);
             return true;
         }},
        {"indent-break", 4, [](std::string& t, const auto&, Random& r, std::string& note) {
             auto lines = splitLines(t);
             if (lines.empty()) return false;
             std::string& l = lines[r.below(lines.size())];
             switch (r.below(4)) {
             case 0: l.insert(0, " "); note = "+1"; break;
             case 1: l.insert(0, "  "); note = "+2"; break;
             case 2: l.insert(0, "\t"); note = "tab"; break;
             default: if (!l.empty() && l[0] == ' ') l.erase(0, std::min<std::size_t>(indentOf(l), 1 + r.below(2))); note = "-"; break;
             }
             t = joinLines(lines);
             return true;
         }},
        {"list-truncate", 5, [](std::string& t, const auto&, Random& r, std::string& note) {
             const auto lists = findFlowLists(t);
             if (lists.empty()) return false;
             const Span s = r.pick(lists);
             const std::string body = t.substr(s.pos + 1, s.len - 2);
             std::string out;
             const std::size_t comma = body.rfind(',');
             switch (r.below(3)) {
             case 0: out = "[]"; note = "empty"; break;
             case 1: out = "[" + (comma == std::string::npos ? std::string() : body.substr(0, comma)) + "]"; note = "drop last"; break;
             default: out = "[" + body.substr(0, body.find(',')) + "]"; note = "first only"; break;
             }
             t = replaceSpan(t, s, out);
             return true;
         }},
        {"loop-remainder", 5, [](std::string& t, const auto&, Random& r, std::string& note) {
             // [Q, 14] -> [Q, 14, k]: residual factors (in range, 0, too big, negative, huge) or extra fields.
             auto lists = findFlowLists(t);
             std::erase_if(lists, [&](const Span& s) {
                 const std::string b = t.substr(s.pos + 1, s.len - 2);
                 return std::count(b.begin(), b.end(), ',') != 1 || !std::isalpha(static_cast<unsigned char>(b[0]));
             });
             if (lists.empty()) return false;
             const Span s = r.pick(lists);
             const std::string body = t.substr(s.pos + 1, s.len - 2);
             const long long n = std::atoll(body.substr(body.find(',') + 1).c_str());
             static const std::vector<std::string> extra = {"0", "-1", "1", "2147483647", "12345678901234567890123456789", "x"};
             std::string k;
             switch (r.below(4)) {
             case 0: k = std::to_string(n > 1 ? n - 1 : 1); break;
             case 1: k = std::to_string(n + 1); break;
             case 2: k = r.pick(extra); break;
             default: k = std::to_string(n > 1 ? n - 1 : 1) + ", 3"; break;
             }
             note = "[" + body + ", " + k + "]";
             t = replaceSpan(t, s, note);
             return true;
         }},
        {"factor-string", 8, [](std::string& t, const auto&, Random& r, std::string& note) {
             const auto strs = findFactorStrings(t);
             if (strs.empty()) return false;
             const Span s = r.pick(strs);
             std::string body = t.substr(s.pos, s.len);
             switch (r.below(4)) {
             case 0: body += r.pick(kFactorInsertions); break;
             case 1: body = r.pick(kFactorInsertions).substr(1); break;
             case 2: {
                 const auto nums = findNumbers(body);
                 if (nums.empty()) body += r.pick(kFactorInsertions);
                 else body = replaceSpan(body, r.pick(nums), r.pick(kSpecialNumbers));
                 break;
             }
             default: {
                 std::erase(body, r.chance(50) ? '=' : ' ');
                 break;
             }
             }
             note = "\"" + body + "\"";
             t = replaceSpan(t, s, body);
             return true;
         }},
        {"word-swap", 5, [](std::string& t, const auto&, Random& r, std::string& note) {
             // One name, dimension letter or key replaced by another word of the same file.
             const auto words = findWords(t);
             if (words.size() < 2) return false;
             const Span a = r.pick(words), b = r.pick(words);
             note = t.substr(a.pos, a.len) + "->" + t.substr(b.pos, b.len);
             t = replaceSpan(t, a, t.substr(b.pos, b.len));
             return true;
         }},
        {"splice-donor", 3, [](std::string& t, const std::vector<std::string>& donors, Random& r, std::string&) {
             if (donors.empty()) return false;
             const auto donorLines = splitLines(r.pick(donors));
             if (donorLines.empty()) return false;
             auto lines = splitLines(t);
             lines.insert(lines.begin() + static_cast<long>(r.below(lines.size() + 1)), r.pick(donorLines));
             t = joinLines(lines);
             return true;
         }},
        {"hex-digits", 6, [](std::string& t, const auto&, Random& r, std::string& note) {
             // Instruction fields (opcodes, loop extents, addresses, sizes) reached bit by bit:
             // a digit, or a whole byte set to all ones or all zeros.
             const auto hex = findHexStrings(t);
             if (hex.empty()) return false;
             const Span s = r.pick(hex);
             static const char* kDigits = "0123456789abcdef";
             switch (r.below(3)) {
             case 0: t[s.pos + r.below(s.len)] = kDigits[r.below(16)]; note = "digit"; break;
             case 1: t.replace(s.pos + 2 * r.below(s.len / 2), 2, "ff"); note = "ff"; break;
             default: t.replace(s.pos + 2 * r.below(s.len / 2), 2, "00"); note = "00"; break;
             }
             return true;
         }},
        {"byte-insert", 2, [](std::string& t, const auto&, Random& r, std::string& note) {
             static const std::vector<std::string> bytes = {"\"", "'", "{", "[", "]", "&a", "*a", "!", "%", "\t", std::string(1, '\0'),
                                                            "\xff", "\xc3", ": ", "- ", "#", "\r", "---\n"};
             const std::size_t i = r.below(bytes.size());
             note = std::to_string(i);
             t.insert(r.below(t.size() + 1), bytes[i]);
             return true;
         }},
    };
    return ops;
}

} // namespace

MutationResult mutate(const std::string& text, const std::vector<std::string>& donors, Random& r)
{
    const auto& ops = operators();
    unsigned total = 0;
    for (const auto& o : ops) total += o.weight;
    const std::size_t count = r.chance(60) ? 1 : r.chance(60) ? 2 : 3;
    MutationResult res{text, {}};
    for (std::size_t done = 0, attempts = 0; done < count && attempts < 20; ++attempts) {
        std::size_t w = r.below(total);
        std::size_t k = 0;
        while (w >= ops[k].weight) w -= ops[k++].weight;
        std::string note;
        if (!ops[k].apply(res.text, donors, r, note)) continue;
        res.applied.push_back(note.empty() ? std::string(ops[k].name) : std::string(ops[k].name) + "(" + note + ")");
        ++done;
    }
    return res;
}

std::vector<std::string> mutationNames()
{
    std::vector<std::string> names;
    for (const auto& o : operators()) names.emplace_back(o.name);
    return names;
}

} // namespace nestor::fuzz
