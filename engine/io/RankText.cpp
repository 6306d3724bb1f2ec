#include "io/RankText.h"

#include <cctype>
#include <charconv>

namespace nestor {

namespace {

std::string trim(const std::string& s)
{
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

bool isNumber(const std::string& s, std::int64_t& v)
{
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool isDigits(const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; }

int findDim(const std::vector<std::string>& dims, const std::string& n)
{
    for (std::size_t i = 0; i < dims.size(); ++i)
        if (dims[i] == n) return static_cast<int>(i);
    return -1;
}

} // namespace

std::optional<RankExpression> parseRankExpression(const std::string& text, const std::vector<std::string>& dimNames,
                                                  std::string* error)
{
    auto bad = [&](const std::string& m) -> std::optional<RankExpression> {
        if (error) *error = m;
        return std::nullopt;
    };
    RankExpression out;
    std::size_t start = 0;
    while (true) {
        const std::size_t plus = text.find('+', start);
        const std::string term = trim(text.substr(start, plus == std::string::npos ? std::string::npos : plus - start));
        if (term.empty()) return bad("empty term in rank expression '" + text + "'");
        std::string dimName = term;
        std::int64_t coef = 1;
        const std::size_t star = term.find('*');
        if (star != std::string::npos) {
            const std::string a = trim(term.substr(0, star)), b = trim(term.substr(star + 1));
            if (isNumber(a, coef)) dimName = b;
            else if (isNumber(b, coef)) dimName = a;
            else if (isDigits(a) || isDigits(b))  // digits that do not fit in 64 bits
                return bad("coefficient in '" + term + "' exceeds 2^63 - 1");
            else return bad("term '" + term + "' must be coef*DIM");
            if (coef <= 0) return bad("coefficient in '" + term + "' must be positive");
        }
        const int d = findDim(dimNames, dimName);
        if (d < 0) return bad("unknown dimension '" + dimName + "' in rank expression '" + text + "'");
        out.push_back(ProjectionTerm{d, coef});
        if (plus == std::string::npos) break;
        start = plus + 1;
    }
    return out;
}

std::string formatRankExpression(const RankExpression& rank, const std::vector<std::string>& dimNames)
{
    std::string s;
    for (const auto& t : rank) {
        if (!s.empty()) s += " + ";
        const std::string name = t.dim >= 0 && t.dim < static_cast<int>(dimNames.size()) ? dimNames[t.dim] : "?";
        s += t.coef == 1 ? name : std::to_string(t.coef) + "*" + name;
    }
    return s;
}

} // namespace nestor
