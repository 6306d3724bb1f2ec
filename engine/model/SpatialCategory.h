#pragma once
// Under imperfect factors, what matters about a spatial index is where it sits relative to its
// loop's residual and bound: that alone decides whether the instance is busy and whether it is
// at the loop's last index, in the residual context and outside it.
#include "model/NestLayout.h"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace nestor::model::walker {

// Where a spatial index sits relative to its loop's residual r and bound b; this is all that
// decides whether the instance is busy and whether it is the last index, in either mode.
enum class Cat : std::uint8_t { Any, BelowRes, AtRes, Between, AtBound, AtBoth };
constexpr int kCatCount = static_cast<int>(Cat::AtBoth) + 1;  // (AtBoth: the last one)

struct CatEffect {
    bool active;
    bool last;
};

inline CatEffect effectOf(Cat c, bool residualMode)
{
    switch (c) {
    case Cat::Any: return {true, true};
    case Cat::BelowRes: return {true, false};
    case Cat::AtRes: return {true, residualMode};
    case Cat::Between: return {!residualMode, false};
    case Cat::AtBound: return {!residualMode, !residualMode};
    case Cat::AtBoth: return {true, true};
    }
    return {true, true};
}

inline Cat categorize(std::int64_t s, std::int64_t b, std::int64_t r)
{
    if (s == r - 1 && s == b - 1) return Cat::AtBoth;
    if (s < r - 1) return Cat::BelowRes;
    if (s == r - 1) return Cat::AtRes;
    if (s < b - 1) return Cat::Between;
    return Cat::AtBound;
}

// The categories of a spatial loop's indices and how many indices each has: at most four, held
// inline (the closed forms ask for them for every loop of every stage).
struct Categories {
    std::array<std::pair<Cat, std::int64_t>, 4> items{};
    int n = 0;
    void push_back(std::pair<Cat, std::int64_t> c) { items[static_cast<std::size_t>(n++)] = c; }
    std::size_t size() const { return static_cast<std::size_t>(n); }
    const std::pair<Cat, std::int64_t>& operator[](std::size_t i) const { return items[i]; }
    const std::pair<Cat, std::int64_t>* begin() const { return items.data(); }
    const std::pair<Cat, std::int64_t>* end() const { return items.data() + n; }
};

inline Categories categoriesOf(const NestLoop& l, bool imperfectDim)
{
    Categories v;
    if (!imperfectDim) {
        v.push_back({Cat::Any, l.bound});
        return v;
    }
    const std::int64_t b = l.bound, r = l.residual;
    if (r - 1 > 0) v.push_back({Cat::BelowRes, r - 1});
    if (r < b) {
        v.push_back({Cat::AtRes, 1});
        if (b - r - 1 > 0) v.push_back({Cat::Between, b - r - 1});
        v.push_back({Cat::AtBound, 1});
    } else {
        v.push_back({Cat::AtBoth, 1});
    }
    return v;
}

// A spatial index of category c (any one serves: all of them behave alike).
inline std::int64_t representative(Cat c, const NestLoop& l)
{
    switch (c) {
    case Cat::Any:
    case Cat::BelowRes: return 0;
    case Cat::AtRes: return l.residual - 1;
    case Cat::Between: return l.residual;
    case Cat::AtBound:
    case Cat::AtBoth: return l.bound - 1;
    }
    return 0;
}

} // namespace nestor::model::walker
