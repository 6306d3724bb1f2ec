#pragma once
// What a walk over a sub-nest accumulates, and the children a stage walks over.
#include "model/SpatialCategory.h"
#include "model/WalkerState.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace nestor::model::walker {

// What one child of a class saw during a run.
struct ClassAcc {
    std::int64_t received = 0;     // words delivered to it
    std::int64_t activeSteps = 0;  // steps it was busy
    std::int64_t maxTile = 0;
    bool everActive = false;
};

// Accumulated figures of a run (a sub-nest executed once). `subtractSums` undoes `addSums`
// (cycle skipping); maxTile and everActive only grow.
struct Acc {
    std::int64_t parentAccesses = 0, weighted = 0, link = 0, macs = 0;
    SmallVector<ClassAcc, 4> cls;
    std::vector<std::int64_t> sent;  // per child: words forwarded to neighbours (empty when no links)

    explicit Acc(std::size_t classes = 0) : cls(classes) {}

    void addSums(const Acc& o, std::int64_t k)
    {
        parentAccesses += k * o.parentAccesses;
        weighted += k * o.weighted;
        link += k * o.link;
        macs += k * o.macs;
        for (std::size_t c = 0; c < cls.size(); ++c) {
            cls[c].received += k * o.cls[c].received;
            cls[c].activeSteps += k * o.cls[c].activeSteps;
        }
        if (!o.sent.empty()) {
            sent.resize(o.sent.size(), 0);
            for (std::size_t c = 0; c < sent.size(); ++c) sent[c] += k * o.sent[c];
        }
    }
    void subtractSums(const Acc& o)
    {
        parentAccesses -= o.parentAccesses;
        weighted -= o.weighted;
        link -= o.link;
        macs -= o.macs;
        for (std::size_t c = 0; c < cls.size(); ++c) {
            cls[c].received -= o.cls[c].received;
            cls[c].activeSteps -= o.cls[c].activeSteps;
        }
        if (!o.sent.empty()) {
            sent.resize(o.sent.size(), 0);
            for (std::size_t c = 0; c < sent.size(); ++c) sent[c] -= o.sent[c];
        }
    }
    void add(const Acc& o)
    {
        addSums(o, 1);
        for (std::size_t c = 0; c < cls.size(); ++c) {
            if (!o.cls[c].everActive) continue;
            cls[c].everActive = true;
            cls[c].maxTile = std::max(cls[c].maxTile, o.cls[c].maxTile);
        }
    }
};

struct RunResult {
    Acc acc;
    State exit;
    Vec disp{};  // base of the last step minus base of the first step (tensor space)
};

struct Child {
    Vec offset{};
    std::int64_t x = 0, y = 0;
    int cls = 0;
};

struct ChildClass {
    std::vector<Cat> cats;                 // per child spatial loop
    std::vector<int> members;              // child indices
    std::vector<std::int64_t> groupSizes;  // children sharing an offset, when this class is alone
};

} // namespace nestor::model::walker
