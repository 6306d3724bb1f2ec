#pragma once
// The words a nest of loops moves from one starting state of a reuse state machine, following
// only the states that start actually reaches. Composing whole transforms (one entry per state,
// ReuseTransform.h) costs the machine's size at every loop and context; from the one state a
// stage starts in, a sweep usually reaches two or three, so this costs that many.
//
// ReachableStates holds what such a recursion over (position, context, state) needs: the memo
// of sweeps already followed and the repetition of a loop's iterations by cycle detection.
// ReachableSweep is the recursion for temporal loops under predicate contexts.
#include "model/ReuseTransform.h"
#include "model/ZeroedTable.h"

#include <array>
#include <cstdint>
#include <optional>
#include <utility>

namespace nestor::model {

// A sweep's effect on one state: the state after it (negative: given up) and what it costs:
// the words moved, or several figures summed alike (a Cost adds, subtracts, and multiplies by
// a count).
template <class Cost>
using StateStepOf = std::pair<int, Cost>;
using StateStep = StateStepOf<std::int64_t>;

// A cost of n figures summed alike over one sweep (one sweep instead of n).
template <std::size_t n>
struct FigureSums {
    std::array<std::int64_t, n> v{};
    FigureSums& operator+=(const FigureSums& o)
    {
        for (std::size_t i = 0; i < n; ++i) v[i] += o.v[i];
        return *this;
    }
    friend FigureSums operator+(FigureSums a, const FigureSums& b) { return a += b; }
    friend FigureSums operator-(FigureSums a, const FigureSums& b)
    {
        for (std::size_t i = 0; i < n; ++i) a.v[i] -= b.v[i];
        return a;
    }
    friend FigureSums operator*(std::int64_t k, FigureSums a)
    {
        for (std::int64_t& x : a.v) x *= k;
        return a;
    }
};

template <class Cost = std::int64_t>
class ReachableStatesOf {
public:
    // Positions below 128, contexts below 256, states below 2048.
    static constexpr int kMaxStates = 2048;

    // A new analysis: forgets every sweep followed.
    void begin()
    {
        if (memo_.empty()) {
            memo_.allocate(kMemoSlots, true);  // (hashed: a thread's analyses fill every page)
            seen_.allocate(static_cast<std::size_t>(kMaxLoops) * kMaxStates);
        }
        if (++run_ == 0) {  // stamps wrapped: forget every entry
            for (auto& e : memo_) e.tag = 0;
            run_ = 1;
        }
    }

    // The sweep at `position` in `context` from `state`, if followed before in this analysis.
    const StateStepOf<Cost>* find(int position, int context, int state) const
    {
        const std::uint64_t tag = tagOf(position, context, state);
        for (std::size_t i = slotOf(tag), probes = 0; probes < kProbes; ++probes, i = (i + 1) % kMemoSlots) {
            if (memo_[i].tag == tag) return &memo_[i].result;
            if ((memo_[i].tag >> 32) != run_) return nullptr;  // a free slot ends the chain
        }
        return nullptr;
    }
    // Remembers it (when its chain is full it is simply followed again next time).
    void store(int position, int context, int state, StateStepOf<Cost> result)
    {
        const std::uint64_t tag = tagOf(position, context, state);
        for (std::size_t i = slotOf(tag), probes = 0; probes < kProbes; ++probes, i = (i + 1) % kMemoSlots)
            if ((memo_[i].tag >> 32) != run_ || memo_[i].tag == tag) {
                memo_[i] = {tag, result};
                return;
            }
    }

    // Applies `again` (x, cost) -> bool (false: given up) `times` times to the state x and the
    // words so far. The states met repeat within the machine's size: once one comes back, the
    // cycle's words are multiplied out. `level` (below kMaxLoops) tells apart the repetitions
    // nested in one another. False when given up.
    template <class Again>
    bool repeat(int level, std::int64_t times, int& x, Cost& cost, Again&& again)
    {
        if (times <= 0) return true;
        // The first states met are kept at hand (a trajectory usually cycles within a few); past
        // those, in the level's table.
        constexpr int kAtHand = 8;
        std::array<Seen, kAtHand> recent;
        std::uint32_t id = 0;
        Seen* seen = nullptr;
        for (std::int64_t i = 0; i < times;) {
            const Seen* before = nullptr;
            if (i < kAtHand) {
                for (std::int64_t u = 0; u < i && !before; ++u)
                    if (recent[static_cast<std::size_t>(u)].state == x) before = &recent[static_cast<std::size_t>(u)];
            } else {
                if (!seen) {  // the states at hand into the table
                    id = nextSeenId();
                    seen = &seen_[static_cast<std::size_t>(level) * kMaxStates];
                    for (const Seen& r : recent) seen[r.state] = {id, r.state, r.at, r.cost};
                }
                if (seen[x].stamp == id) before = &seen[x];
            }
            if (before) {
                const std::int64_t period = i - before->at;
                const Cost perCycle = cost - before->cost;
                const std::int64_t cycles = (times - i) / period;
                cost += cycles * perCycle;
                for (i += cycles * period; i < times; ++i)
                    if (!again(x, cost)) return false;
                return true;
            }
            if (i < kAtHand) recent[static_cast<std::size_t>(i)] = {0, x, i, cost};
            else seen[x] = {id, x, i, cost};
            if (!again(x, cost)) return false;
            ++i;
        }
        return true;
    }

private:
    static constexpr std::size_t kMemoSlots = 8192, kProbes = 16;
    struct Entry {
        std::uint64_t tag = 0;  // run << 32 | position, context and state
        StateStepOf<Cost> result;
    };
    // (no initialisers: the table starts zeroed, and repeat() writes an entry at hand before it
    // reads it; initialising those showed in Ruby's profile)
    struct Seen {
        std::uint32_t stamp;
        int state;
        std::int64_t at;    // repetition at which the state was first met
        Cost cost;          // words moved by then
    };
    std::uint64_t tagOf(int position, int context, int state) const
    {
        return std::uint64_t{run_} << 32 | static_cast<std::uint64_t>(position) << 19 | static_cast<std::uint64_t>(context) << 11 |
               static_cast<std::uint64_t>(state);
    }
    static std::size_t slotOf(std::uint64_t tag)
    {
        return static_cast<std::size_t>(((tag & 0xffffffffu) * 0x9e3779b97f4a7c15ull) >> 51) % kMemoSlots;
    }
    std::uint32_t nextSeenId()
    {
        if (++seenId_ == 0) {
            for (auto& s : seen_) s.stamp = 0;
            seenId_ = 1;
        }
        return seenId_;
    }

    ZeroedTable<Entry> memo_;
    ZeroedTable<Seen> seen_;  // [level][state]: states met by a loop's repetitions
    std::uint32_t run_ = 0, seenId_ = 0;
};
using ReachableStates = ReachableStatesOf<>;

// Temporal loops 0 (outermost) to k-1, each with its trips (at least two: the nest layout drops
// unit loops) and the predicate set it belongs to (-1: none). A context has one bit per set: every loop of the set above the current one is at
// its last iteration (vacuously true above the outermost loop). step(j, before, after, s) gives
// the state after a carry of loop j from an iteration in context `before` into one in context
// `after`, from state s, and the words it moves (a StateStep; a negative state gives up).
// Sub-nest from loop j in context c: its first iteration in c without j's bit; then, without a
// set, trips - 1 times a carry and the inner sweep again; with one, trips - 2 times that and a
// carry into the last iteration, where j's bit holds. Returns the words the whole nest, in the
// context of every bit, moves from `start` (its first step's own words excluded); nullopt when
// given up.
class ReachableSweep {
public:
    template <class Step>
    std::optional<std::int64_t> run(int k, const std::int64_t* trips, const int* setOf, int contexts, int start, Step&& step)
    {
        k_ = k;
        trips_ = trips;
        setOf_ = setOf;
        states_.begin();
        const auto [end, cost] = sweep(0, contexts - 1, start, step);
        if (end < 0) return std::nullopt;
        return cost;
    }

private:
    template <class Step>
    StateStep sweep(int j, int c, int s, Step& step)
    {
        if (j == k_) return {s, 0};
        if (const StateStep* known = states_.find(j, c, s)) return *known;
        return sweepNew(j, c, s, step);
    }
    // (sweep's check inlined at each call: most sub-nests swept were swept before)
    template <class Step>
    StateStep sweepNew(int j, int c, int s, Step& step)
    {
        const int set = setOf_[j];
        const int c0 = set < 0 ? c : c & ~(1 << set);
        auto [x, cost] = sweep(j + 1, c0, s, step);
        // An iteration after a carry from context c0 into `into`; false when given up.
        auto iteration = [&](int into, int& state, std::int64_t& words) {
            const auto [y, carried] = step(j, c0, into, state);
            if (y < 0) return false;
            const auto [z, inner] = sweep(j + 1, into, y, step);
            state = z;
            words += carried + inner;
            return z >= 0;
        };
        const std::int64_t repeats = set < 0 ? trips_[j] - 1 : trips_[j] - 2;
        if (x < 0 || !states_.repeat(j, repeats, x, cost, [&](int& y, std::int64_t& w) { return iteration(c0, y, w); }))
            return {-1, 0};
        if (set >= 0 && !iteration(c, x, cost)) return {-1, 0};  // into the last iteration, where the set's bit holds
        states_.store(j, c, s, {x, cost});
        return {x, cost};
    }

    int k_ = 0;
    const std::int64_t* trips_ = nullptr;
    const int* setOf_ = nullptr;
    ReachableStatesOf<> states_;
};

} // namespace nestor::model
