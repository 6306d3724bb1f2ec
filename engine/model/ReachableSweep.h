#pragma once
// The words a nest of temporal loops moves from one starting state of a reuse state machine,
// following only the states that start actually reaches. Composing whole transforms (one entry
// per state, ReuseTransform.h) costs the machine's size at every loop and context; from the one
// state a stage starts in, a sweep usually reaches two or three, so this costs that many.
#include "model/ReuseTransform.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace nestor::model {

// Loops 0 (outermost) to k-1, each with its trips and the predicate set it belongs to (-1:
// none). A context has one bit per set: every loop of the set above the current one is at its
// last iteration (vacuously true above the outermost loop). step(j, before, after, s) gives the
// state after a carry of loop j from an iteration in context `before` into one in context
// `after`, from state s, and the words it moves: std::pair<int, std::int64_t>.
// Sub-nest from loop j in context c: its first iteration in c without j's bit; then, without a
// set, trips - 1 times a carry and the inner sweep again; with one, trips - 2 times that and a
// carry into the last iteration, where j's bit holds. Returns the words the whole nest, in the
// context of every bit, moves from `start` (its first step's own words excluded).
template <int MaxStates, int MaxContexts>
class ReachableSweep {
public:
    template <class Step>
    std::int64_t run(int k, const std::int64_t* trips, const int* setOf, int contexts, int start, Step&& step)
    {
        k_ = k;
        trips_ = trips;
        setOf_ = setOf;
        if (memo_.empty()) {
            memo_.resize(static_cast<std::size_t>(kMaxLoops + 1) * MaxContexts * MaxStates);
            seen_.resize(static_cast<std::size_t>(kMaxLoops) * MaxStates);
        }
        if (++run_ == 0) {  // stamps wrapped: forget every entry
            for (auto& e : memo_) e.stamp = 0;
            run_ = 1;
        }
        return sweep(0, contexts - 1, start, step).second;
    }

private:
    struct Entry {
        std::uint32_t stamp = 0;
        std::uint16_t next = 0;
        std::int64_t cost = 0;
    };
    struct Seen {
        std::uint32_t stamp = 0;
        std::int64_t at = 0;     // repetition index at which the state was first met
        std::int64_t cost = 0;   // words moved by then
    };

    template <class Step>
    std::pair<int, std::int64_t> sweep(int j, int c, int s, Step& step)
    {
        if (j == k_) return {s, 0};
        Entry& e = memo_[(static_cast<std::size_t>(j) * MaxContexts + static_cast<std::size_t>(c)) * MaxStates + static_cast<std::size_t>(s)];
        if (e.stamp == run_) return {e.next, e.cost};
        const int set = setOf_[j];
        const int c0 = set < 0 ? c : c & ~(1 << set);
        auto [x, cost] = sweep(j + 1, c0, s, step);
        // One more iteration in c0: a carry, then the inner sweep.
        auto again = [&] {
            const auto [y, carried] = step(j, c0, c0, x);
            const auto [z, inner] = sweep(j + 1, c0, y, step);
            x = z;
            cost += carried + inner;
        };
        const std::int64_t repeats = set < 0 ? trips_[j] - 1 : trips_[j] - 2;
        // The states met repeat within the machine's size: one cycle, then arithmetic.
        const std::uint32_t id = nextSeenId();
        Seen* seen = &seen_[static_cast<std::size_t>(j) * MaxStates];
        for (std::int64_t i = 0; i < repeats;) {
            Seen& at = seen[x];
            if (at.stamp == id) {
                const std::int64_t period = i - at.at, perCycle = cost - at.cost;
                const std::int64_t cycles = (repeats - i) / period;
                cost += cycles * perCycle;
                for (i += cycles * period; i < repeats; ++i) again();
                break;
            }
            at = {id, i, cost};
            again();
            ++i;
        }
        if (set >= 0) {  // into the last iteration, where the set's bit holds
            const auto [y, carried] = step(j, c0, c, x);
            const auto [z, inner] = sweep(j + 1, c, y, step);
            x = z;
            cost += carried + inner;
        }
        // (the inner sweeps above never touch level j's entries: `e` is still valid)
        e = {run_, static_cast<std::uint16_t>(x), cost};
        return {x, cost};
    }

    std::uint32_t nextSeenId()
    {
        if (++seenId_ == 0) {
            for (auto& s : seen_) s.stamp = 0;
            seenId_ = 1;
        }
        return seenId_;
    }

    int k_ = 0;
    const std::int64_t* trips_ = nullptr;
    const int* setOf_ = nullptr;
    std::vector<Entry> memo_;  // [loop][context][state], valid where stamp == run_
    std::vector<Seen> seen_;   // [loop][state]: states met by the loop's repetitions
    std::uint32_t run_ = 0, seenId_ = 0;
};

} // namespace nestor::model
