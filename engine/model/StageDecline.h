#pragma once
// Why a closed-form stage analysis declined a stage (so the walker took it), and opt-in
// counters of which analysis took each stage. The counters are for benchmarks and profiling:
// off by default, so that the search's hot path pays one relaxed load per stage.
#include <array>
#include <atomic>
#include <cstdint>

namespace nestor::model {

enum class StageDecline : std::uint8_t {
    None,                 // accepted
    NotApplicable,        // another closed form covers this stage (e.g. the perfect form's residual check)
    TemporalRemainder,    // a remainder on a temporal loop above the children (Ruby, Ruby-T)
    TemporalAndChildRemainders,  // ... together with a remainder on the stage's fanout (Ruby)
    ShapeOnFanout,        // children of different tile shapes (a remainder below shares a dimension with the fanout)
    ChildKindsAndLinks,   // remainders on the fanout where link transfers are possible
    TooManyPredicates,    // one kind with more residual-context predicates than the form handles (3)
    LinksPossible,        // mesh neighbours placed so that link transfers could occur
    ChildKindsShareOffset,  // kinds of child sharing an offset beyond what the form joins
    Capacity,             // a fixed-size table (loops, translations, joint states) is too small
    Count
};

const char* stageDeclineName(StageDecline d);

// Which analysis took a stage: one of the registered closed forms, or the walker.
struct StageStatistics {
    static constexpr int kMaxForms = 8;
    std::array<std::atomic<std::int64_t>, kMaxForms> byForm{};
    // Stages the walker took, by the reason the most specific closed form gave for declining.
    std::array<std::atomic<std::int64_t>, static_cast<int>(StageDecline::Count)> walkedBecause{};
    // Stages a search's stage memo (StageMemo.h) already knew.
    std::atomic<std::int64_t> memoHits{0};
    // Stages that follow from the stage above them (PassThroughStage.h).
    std::atomic<std::int64_t> fromStageAbove{0};
};

// The process-wide counters, or null while counting is off (the default).
StageStatistics* stageStatistics();
// Turns counting on (resetting the counters) or off.
void countStageAnalyses(bool on);

} // namespace nestor::model
