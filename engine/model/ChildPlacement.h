#pragma once
// Where the children of one instance of a stage sit and of which kind each is, for the closed
// forms that count children of several kinds. A child's kind is its index in the list
// enumerateKinds(nest, leafPos, boundary, false) makes: the places of its categories in
// categoriesOf's lists read as a mixed-radix number (the enumeration varies the last loop
// fastest), found from its fanout indices directly. (Comparing category vectors against every
// kind showed in unconstrained Ruby-S's profile: up to 168 children of up to 64 kinds a stage.)
#include "model/StageFrame.h"

#include <utility>
#include <vector>

namespace nestor::model {

struct ChildPlacement {
    std::vector<int> kindOf;  // per child, in forEachChild's order
    // The distinct (offset, kind) pairs, sorted; offsets numbered in the order first met
    // (filled where asked: the link geometry needs only the kinds).
    std::vector<std::pair<int, int>> placed;

    void build(const StageFrame& f, bool withOffsets);
};

} // namespace nestor::model
