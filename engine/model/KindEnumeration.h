#pragma once
// The kinds of instance (or child) of a stage: every combination of categories over its spatial
// loops, as the walker forms them (SpatialCategory.h). The closed forms enumerate them for
// every stage they analyse, so the kinds and their category vectors keep their storage.
#include "model/NestLayout.h"
#include "model/SpatialCategory.h"

#include <cstddef>
#include <utility>
#include <vector>

namespace nestor::model {

// `kinds` resized to n, the elements cut off kept in `spare` with their storage (a kind's
// category vector allocates when made afresh, and kinds are enumerated for every stage).
template <class Kind>
void resizeKeeping(std::vector<Kind>& kinds, std::size_t n, std::vector<Kind>& spare)
{
    for (; kinds.size() > n; kinds.pop_back()) spare.push_back(std::move(kinds.back()));
    for (; kinds.size() < n && !spare.empty(); spare.pop_back()) kinds.push_back(std::move(spare.back()));
    kinds.resize(n);
}

// Every combination of categories over the spatial loops in [from, to), as the walker forms them,
// into `kinds` (its elements and their category vectors are reused between stages).
template <class Kind>
void enumerateKinds(const NestLayout& nest, int from, int to, bool perPosition, std::vector<Kind>& kinds)
{
    thread_local std::vector<Kind> next, spare;
    resizeKeeping(kinds, 1, spare);
    std::vector<walker::Cat> cats = std::move(kinds[0].cats);  // (a fresh kind, with the old one's storage)
    kinds[0] = Kind{};
    kinds[0].cats = std::move(cats);
    if (perPosition) kinds[0].cats.assign(nest.loops.size(), walker::Cat::Any);
    else kinds[0].cats.clear();
    for (int p = from; p < to; ++p) {
        const NestLoop& l = nest.loops[p];
        if (!l.spatial()) continue;
        const walker::Categories categories = walker::categoriesOf(l, nest.dimImperfect(l.dim));
        resizeKeeping(next, kinds.size() * categories.size(), spare);
        std::size_t n = 0;
        for (const Kind& k : kinds)
            for (const auto& [cat, count] : categories) {
                Kind& x = next[n++];
                x = k;
                if (perPosition) x.cats[static_cast<std::size_t>(p)] = cat;
                else x.cats.push_back(cat);
                x.count *= count;
            }
        kinds.swap(next);
    }
}

} // namespace nestor::model
