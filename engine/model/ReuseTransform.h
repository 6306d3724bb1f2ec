#pragma once
// The reuse rule's effect over a stretch of steps, as a small state machine: per starting state,
// the state after the stretch and the words moved. Sweeps of loops compose (then) and repeat
// (power); the closed-form stage analyses are built from them.
#include <algorithm>
#include <array>
#include <cstdint>

namespace nestor::model {

constexpr int kMaxLoops = 23;

// Effect of a stretch of steps on a small state machine (the reuse state, possibly joined with
// the kind of the previous delta): next state and words moved, per starting state.
template <int Capacity>
struct TransformOf {
    using Transform = TransformOf<Capacity>;
    int n = 0;
    std::array<std::uint16_t, Capacity> next;  // only [0, n) is meaningful
    std::array<std::int64_t, Capacity> cost;

    // Copies move only the n meaningful entries: the capacity is sized for the largest machines
    // (kilobytes) while most have a handful of states, and the closed forms copy transforms a lot.
    TransformOf() = default;
    TransformOf(const TransformOf& o) : n(o.n) { copyFrom(o); }
    TransformOf& operator=(const TransformOf& o)
    {
        n = o.n;
        copyFrom(o);
        return *this;
    }

    static Transform identity(int n)
    {
        Transform t;
        t.n = n;
        for (int s = 0; s < n; ++s) {
            t.next[s] = static_cast<std::uint16_t>(s);
            t.cost[s] = 0;
        }
        return t;
    }
    // this, then b
    Transform then(const Transform& b) const
    {
        Transform r;
        r.n = n;
        for (int s = 0; s < n; ++s) {
            r.next[s] = b.next[next[s]];
            r.cost[s] = cost[s] + b.cost[next[s]];
        }
        return r;
    }
    // this applied e times. Each state's trajectory enters a cycle (almost always a fixed
    // point) within n steps, so follow it and skip whole cycles.
    Transform power(std::int64_t e) const
    {
        Transform r;
        r.n = n;
        if (e <= 0) return identity(n);
        // Usual case: one step lands every state on a fixed point; then the rest is arithmetic.
        bool settlesInOne = true;
        for (int s = 0; s < n && settlesInOne; ++s) settlesInOne = next[next[s]] == next[s];
        if (settlesInOne) {
            for (int s = 0; s < n; ++s) {
                r.next[s] = next[s];
                r.cost[s] = cost[s] + (e - 1) * cost[next[s]];
            }
            return r;
        }
        std::array<std::int64_t, Capacity> seenAt;
        std::array<std::int64_t, Capacity> costAt;
        for (int s0 = 0; s0 < n; ++s0) {
            for (int s = 0; s < n; ++s) seenAt[s] = -1;
            int s = s0;
            std::int64_t c = 0, i = 0;
            while (i < e) {
                if (seenAt[s] >= 0) {  // cycle: skip as many whole turns as fit
                    const std::int64_t len = i - seenAt[s], turnCost = c - costAt[s];
                    const std::int64_t turns = (e - i) / len;
                    c += turns * turnCost;
                    i += turns * len;
                    for (int x = 0; x < n; ++x) seenAt[x] = -1;
                    if (i >= e) break;
                }
                seenAt[s] = i;
                costAt[s] = c;
                c += cost[s];
                s = next[s];
                ++i;
            }
            r.next[s0] = static_cast<std::uint16_t>(s);
            r.cost[s0] = c;
        }
        return r;
    }

private:
    void copyFrom(const TransformOf& o)
    {
        std::copy_n(o.next.begin(), n, next.begin());
        std::copy_n(o.cost.begin(), n, cost.begin());
    }
};
} // namespace nestor::model
