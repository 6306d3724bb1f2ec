#pragma once
// Results of stages already analysed, for a search's thread. Neighbouring candidates of a
// search (annealing moves one factor between two levels) share most of their stages: a stage
// reads only the loops above its children and, of the loops below, the children's tile extents
// (with and without their remainders). The memo keys a stage on exactly that, so a hit is the
// result the analysis would compute again, bit for bit; the walker's work is charged again on
// a hit, so the per-evaluation work budget stops the same evaluations with or without the memo.
// analyzeStage consults it only for stages the perfect closed form does not take (for those a
// hashed lookup costs more than the analysis). For those, in nests without remainders, it
// keeps the form's latest results per (level, tensor) instead: comparing a short key with a
// few of them is cheaper than the analysis, and a search's next candidate often repeats them.
//
// The stage also reads the workload's bounds and tensors, which are not in the key: the memo
// forgets everything when evaluate() brings another workload (adoptWorkload). A search thread
// owns one per run; not thread-safe.
#include "model/SampledUse.h"
#include "model/StageAnalysis.h"

#include <array>
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

    // Once per evaluation, after its nest is built: 64-bit prints of the nest's loop prefixes and
    // of the extents below each level, and those extents. findPerfect and find compare a stage's
    // print before its key: a print that differs rules an entry out at once, an equal one is
    // confirmed on the whole key, compared with the nest in place (a colliding print costs a
    // lookup, never a wrong result). They serve stages of that nest until forgetNest(), which
    // evaluate() calls before it returns.
    void adoptNest(const NestLayout& nest, int dims);
    void forgetNest()
    {
        printedNest_ = nullptr;
        printedImperfect_ = false;
    }
    // The perfect closed form's result for the stage, if one of its latest results for this
    // (level, tensor) had the same inputs. Only for nests without remainders (imperfectDims == 0).
    bool findPerfect(const StageSpec& spec, StageResult& out);
    // Stores the perfect form's result for the stage (after findPerfect missed it), replacing the
    // least recently used of its (level, tensor)'s results.
    void rememberPerfect(const StageSpec& spec, const StageResult& result);

    std::int64_t hits() const { return hits_; }
    std::int64_t misses() const { return misses_; }

private:
    struct Entry {
        std::vector<std::int64_t> key;  // empty: unused
        StageResult result;
        std::uint64_t work = 0;  // walker steps the analysis spent
        std::uint64_t print = 0;  // the stage's print, where its nest was printed (else 0)
    };
    void buildKey(const StageSpec& spec);
    // buildKey's first values, the same for every nest layout
    void keyHeader(const StageSpec& spec, std::array<std::int64_t, 7>& header) const;
    bool printed(const StageSpec& spec) const;
    std::uint64_t stagePrint(const StageSpec& spec) const;
    bool keyMatches(const std::vector<std::int64_t>& key, const StageSpec& spec) const;
    void adoptImperfectNest(const NestLayout& nest, int dims);
    void buildPerfectKey(const StageSpec& spec, std::vector<std::int64_t>& key) const;
    bool perfectKeyMatches(const std::vector<std::int64_t>& key, const StageSpec& spec) const;
    const std::int64_t* extentsBelow(const StageSpec& spec, std::array<std::int64_t, 32>& scratch) const;
    std::uint64_t perfectPrint(const StageSpec& spec) const;

    // Direct-mapped: a newer stage replaces the one in its slot (bounded memory, no eviction policy).
    static constexpr std::size_t kSlots = 4096;
    std::vector<Entry> slots_;
    std::vector<std::int64_t> key_;  // the key of the stage last passed to find()
    Entry* pending_ = nullptr;      // its slot, after a miss
    std::uint64_t pendingPrint_ = 0;
    const Workload* workload_ = nullptr;
    std::vector<std::int64_t> workloadPrint_;  // its bounds and tensors, flattened
    std::vector<std::int64_t> printScratch_;
    // Per (level, tensor): the perfect form's latest results, the least recently used replaced.
    static constexpr std::size_t kPerfectWays = 8;
    struct PerfectSlot {
        std::array<Entry, kPerfectWays> ways;
        std::array<std::uint64_t, kPerfectWays> prints{};  // each one's stage print (adoptNest), side by side
        std::array<std::uint64_t, kPerfectWays> used{};    // when each was last stored or found
        std::uint64_t clock = 0;
    };
    PerfectSlot& perfectSlot(const StageSpec& spec);
    // Both memos' results are worth keeping only while candidates repeat them: a lookup is
    // useful when it hits (annealing's neighbours repeat stages; random candidates seldom do).
    SampledUse sampling_, perfectSampling_;
    std::vector<PerfectSlot> perfect_;
    const NestLayout* printedNest_ = nullptr;  // the nest adoptNest() printed
    std::vector<std::int64_t> nestKey_;        // its loops as in a perfect key: (packed, bound) each
    std::vector<std::uint64_t> prefixPrint_;   // [p]: of its loops [0, p)
    std::vector<std::uint64_t> belowPrint_;    // [level]: of the extents below the level's children
    std::vector<std::int64_t> belowExtent_;    // [level * dims + dim]: those extents
    // A nest with remainders, as buildKey lays it out: per loop (packed, bound, residual,
    // stride), per level the children's extents per dimension (full, last), and their prints.
    bool printedImperfect_ = false;
    std::vector<std::int64_t> loopsKey_, extentsKey_;
    std::vector<std::uint64_t> loopsPrint_, extentsPrint_;
    std::int64_t hits_ = 0, misses_ = 0;
};

} // namespace nestor::model
