#pragma once
// Results of stages already analysed, for a search's thread. Neighbouring candidates of a
// search (annealing moves one factor between two levels) share most of their stages: a stage
// reads only the loops above its children and, of the loops below, the children's tile extents
// (with and without their remainders). The memo keys a stage on exactly that, so a hit is the
// result the analysis would compute again, bit for bit; the walker's work is charged again on
// a hit, so the per-evaluation work budget stops the same evaluations with or without the memo.
// analyzeStage consults it only for stages the perfect closed form does not take (for those a
// lookup costs more than the analysis).
//
// The stage also reads the workload's bounds and tensors, which are not in the key: the memo
// forgets everything when evaluate() brings another workload (adoptWorkload). A search thread
// owns one per run; not thread-safe.
#include "model/StageAnalysis.h"

#include <cstdint>
#include <vector>

namespace nestor::model {

class StageMemo {
public:
    StageMemo();

    // Forgets every entry unless `w` is the workload of the entries (compared by content: the
    // same object may have been edited). evaluate() calls it once per evaluation.
    void adoptWorkload(const Workload& w);

    // True when the stage was analysed before: then `out` holds its result and its walker work
    // was charged to spec.walkWork (which may throw ExactBudgetExceeded, as the walk would).
    bool find(const StageSpec& spec, StageResult& out);
    // Stores the result of the stage last passed to find() (that missed), which took `work` walker steps.
    void remember(const StageResult& result, std::uint64_t work);

    std::int64_t hits() const { return hits_; }
    std::int64_t misses() const { return misses_; }

private:
    struct Entry {
        std::vector<std::int64_t> key;  // empty: unused
        StageResult result;
        std::uint64_t work = 0;  // walker steps the analysis spent
    };
    void buildKey(const StageSpec& spec);

    // Direct-mapped: a newer stage replaces the one in its slot (bounded memory, no eviction policy).
    static constexpr std::size_t kSlots = 4096;
    std::vector<Entry> slots_;
    std::vector<std::int64_t> key_;  // the key of the stage last passed to find()
    Entry* pending_ = nullptr;      // its slot, after a miss
    const Workload* workload_ = nullptr;
    std::vector<std::int64_t> workloadPrint_;  // its bounds and tensors, flattened
    std::vector<std::int64_t> printScratch_;
    std::int64_t hits_ = 0, misses_ = 0;
};

} // namespace nestor::model
