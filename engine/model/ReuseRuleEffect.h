#pragma once
// The reuse rule's effect over a stretch of carries, in constant size. Under the rule
// (TranslationTable::reuse) the state is the translation remembered (0: none); a carry of a
// translation (not a zero move) delivers its new words and remembers its translation when the
// state is none or that translation, and delivers the whole tile and forgets otherwise; a zero
// move delivers its new words and keeps the state. So a stretch treats the states it may start
// from in two ways only, told apart by its first carry of a translation: from none or that
// translation (the same steps follow), or from any other (the whole tile, then the same steps as
// from none after it). Where it has no such carry the state passes through. Stretches compose
// and repeat in constant time, whatever the number of translations: ReuseTransform.h's
// transforms keep an entry per state, the reachable sweeps (ReachableSweep.h) one per state met.
#include <cstdint>

namespace nestor::model {

struct ReuseRuleEffect {
    int first = 0;  // the state of the stretch's first carry of a translation; 0: none (the state passes through)
    int matchNext = 0, otherNext = 0;             // the state after it, from none or `first`, and from any other
    std::int64_t matchWords = 0, otherWords = 0;  // the words it moves from those (matchWords alone where first == 0)

    // One carry of reuse state `state` (0: a zero move), delivering `words` new words of a tile of `whole`.
    static ReuseRuleEffect carry(int state, std::int64_t words, std::int64_t whole)
    {
        if (state == 0) return {0, 0, 0, words, words};
        return {state, state, 0, words, whole};
    }

    struct Outcome {
        int next;
        std::int64_t words;
    };
    // Whether a stretch with a first translation treats `state` as none or that translation.
    bool matches(int state) const { return state == 0 || state == first; }
    Outcome from(int state) const
    {
        if (first == 0) return {state, matchWords};
        if (matches(state)) return {matchNext, matchWords};
        return {otherNext, otherWords};
    }

    // This stretch, then `after`.
    ReuseRuleEffect then(const ReuseRuleEffect& after) const
    {
        if (first == 0) {
            ReuseRuleEffect r = after;
            r.matchWords += matchWords;
            r.otherWords += matchWords;
            return r;
        }
        const Outcome m = after.from(matchNext), o = after.from(otherNext);
        return {first, m.next, o.next, matchWords + m.words, otherWords + o.words};
    }

    // This stretch `times` times in a row (times >= 0), in constant time: each repetition ends in
    // the state of one of the two ways, and which way that state takes next is fixed, so from
    // either way the ways taken settle after one repetition into one way or the two in turn.
    ReuseRuleEffect repeated(std::int64_t times) const
    {
        if (times <= 0) return {};
        if (first == 0) return {0, 0, 0, times * matchWords, times * matchWords};
        const int next[2] = {matchNext, otherNext};
        const std::int64_t words[2] = {matchWords, otherWords};
        const int wayAfter[2] = {matches(matchNext) ? 0 : 1, matches(otherNext) ? 0 : 1};
        auto run = [&](int way) -> Outcome {
            const int second = wayAfter[way];
            if (second == way) return {next[way], times * words[way]};
            if (times == 1) return {next[way], words[way]};
            if (wayAfter[second] == second) return {next[second], words[way] + (times - 1) * words[second]};
            // the two in turn: `way` first
            const std::int64_t pairs = times / 2;
            const bool odd = (times & 1) != 0;
            return {next[odd ? way : second], pairs * (words[way] + words[second]) + (odd ? words[way] : 0)};
        };
        const Outcome m = run(0), o = run(1);
        return {first, m.next, o.next, m.words, o.words};
    }
};

} // namespace nestor::model
