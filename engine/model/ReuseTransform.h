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
        t.setIdentity(n);
        return t;
    }
    void setIdentity(int states)
    {
        n = states;
        for (int s = 0; s < n; ++s) {
            next[s] = static_cast<std::uint16_t>(s);
            cost[s] = 0;
        }
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
    // this applied e times. Usually one step lands every state on a fixed point and the rest is
    // arithmetic; otherwise binary powering: O(n log e), where following each state's trajectory
    // to its cycle costs O(n^2).
    Transform power(std::int64_t e) const
    {
        if (e <= 0) return identity(n);
        bool settlesInOne = true;
        for (int s = 0; s < n && settlesInOne; ++s) settlesInOne = next[next[s]] == next[s];
        if (settlesInOne) {
            Transform r;
            r.n = n;
            for (int s = 0; s < n; ++s) {
                r.next[s] = next[s];
                r.cost[s] = cost[s] + (e - 1) * cost[next[s]];
            }
            return r;
        }
        // result = this^(1 + bits of e-1 consumed so far); square = this^(2^i)
        Transform result = *this, square = *this;
        for (std::int64_t rest = e - 1; rest > 0; rest >>= 1) {
            if (rest & 1) result.composeWith(square);
            if (rest > 1) square.composeWith(Transform(square));
        }
        return result;
    }

    // this = this, then b (in place)
    void composeWith(const Transform& b)
    {
        for (int s = 0; s < n; ++s) {
            cost[s] += b.cost[next[s]];
            next[s] = b.next[next[s]];
        }
    }

private:
    void copyFrom(const TransformOf& o)
    {
        std::copy_n(o.next.begin(), n, next.begin());
        std::copy_n(o.cost.begin(), n, cost.begin());
    }
};
} // namespace nestor::model
