#include "model/StageDecline.h"

namespace nestor::model {
namespace {

StageStatistics gStatistics;
std::atomic<bool> gCounting{false};

} // namespace

const char* stageDeclineName(StageDecline d)
{
    switch (d) {
    case StageDecline::None: return "accepted";
    case StageDecline::NotApplicable: return "no form applies";
    case StageDecline::TemporalRemainder: return "temporal remainder above";
    case StageDecline::TemporalAndChildRemainders: return "temporal remainder above with child remainders";
    case StageDecline::ShapeOnFanout: return "children of different shapes";
    case StageDecline::ChildKindsAndLinks: return "child remainders with links";
    case StageDecline::TooManyPredicates: return "more than 3 predicates";
    case StageDecline::LinksPossible: return "links possible";
    case StageDecline::ChildKindsShareOffset: return "child kinds sharing offsets";
    case StageDecline::Capacity: return "table capacity";
    case StageDecline::Count: break;
    }
    return "?";
}

StageStatistics* stageStatistics()
{
    return gCounting.load(std::memory_order_relaxed) ? &gStatistics : nullptr;
}

void countStageAnalyses(bool on)
{
    if (on) {
        for (auto& c : gStatistics.byForm) c.store(0, std::memory_order_relaxed);
        for (auto& c : gStatistics.walkedBecause) c.store(0, std::memory_order_relaxed);
        gStatistics.memoHits.store(0, std::memory_order_relaxed);
        gStatistics.fromStageAbove.store(0, std::memory_order_relaxed);
    }
    gCounting.store(on, std::memory_order_relaxed);
}

} // namespace nestor::model
