// The reuse rule's effect in constant size (model/ReuseRuleEffect.h), which the temporal-remainder
// form composes its per-kind words with, against the rule applied carry by carry
// (TranslationTable::reuse, the table the walker's rule is written in): random sequences of
// carries over random translations (zero moves among them, under the current and the legacy
// zero-translation rule), composed and repeated, from every starting state. Repetitions past
// what stepping can reach are checked against the reachable sweep's cycle detection
// (ReachableStates::repeat, itself checked against stepping in tst_reachable_sweep).
#include "model/ReachableSweep.h"
#include "model/ReuseGeometry.h"
#include "model/ReuseRuleEffect.h"

#include <QtTest/QtTest>

#include <random>
#include <vector>

using namespace nestor::model;

namespace {

constexpr int kTranslations = 12;

// A carry: its move's class in the table, the new words it brings and its tile's whole words.
struct Carry {
    int move;
    std::int64_t words, whole;
};

struct Rule {
    TranslationTable<kTranslations> table;
    bool legacy;
    // Translations 0..n-1: the first is the zero move, the rest distinct.
    Rule(int n, bool legacy) : legacy(legacy)
    {
        table.clear();
        for (int t = 0; t < n; ++t) {
            Vec v{};
            v[0] = t;
            v[1] = t % 3;
            table.add(v, 2, legacy);
        }
    }
    int states() const { return table.states; }
    // The carries applied one by one from `state`: the state after them and the words moved.
    std::pair<int, std::int64_t> step(int state, const std::vector<Carry>& carries) const
    {
        std::int64_t moved = 0;
        for (const Carry& k : carries) {
            const auto [next, words] = table.reuse(state, k.move, k.words, k.whole, legacy);
            state = next;
            moved += words;
        }
        return {state, moved};
    }
    ReuseRuleEffect effect(const std::vector<Carry>& carries) const
    {
        ReuseRuleEffect e;
        for (const Carry& k : carries) e = e.then(ReuseRuleEffect::carry(table.stateOf[k.move], k.words, k.whole));
        return e;
    }
};

std::vector<Carry> randomCarries(std::mt19937_64& rng, int n, int length)
{
    std::uniform_int_distribution<int> move(0, n - 1);
    std::uniform_int_distribution<std::int64_t> words(0, 50);
    std::vector<Carry> out;
    for (int i = 0; i < length; ++i) {
        const std::int64_t w = words(rng);
        out.push_back({move(rng), w, w + words(rng)});
    }
    return out;
}

// The first starting state where `effect` differs from the rule applied to `carries` one by one
// (-1: none).
int firstDisagreement(const Rule& rule, const ReuseRuleEffect& effect, const std::vector<Carry>& carries)
{
    for (int s = 0; s < rule.states(); ++s) {
        const auto expected = rule.step(s, carries);
        const auto got = effect.from(s);
        if (got.next != expected.first || got.words != expected.second) return s;
    }
    return -1;
}

} // namespace

class TestReuseRuleEffect : public QObject {
    Q_OBJECT
private slots:
    void composedSequencesAgreeWithTheRule()
    {
        std::mt19937_64 rng(20261202);
        for (bool legacy : {false, true})
            for (int trial = 0; trial < 3000; ++trial) {
                const int n = 1 + static_cast<int>(rng() % kTranslations);
                const Rule rule(n, legacy);
                const auto carries = randomCarries(rng, n, static_cast<int>(rng() % 24));
                // Composed as one left fold and as two halves joined: the same effect.
                const std::size_t cut = carries.empty() ? 0 : rng() % carries.size();
                const ReuseRuleEffect whole = rule.effect(carries);
                const ReuseRuleEffect joined = rule.effect({carries.begin(), carries.begin() + static_cast<std::ptrdiff_t>(cut)})
                                                   .then(rule.effect({carries.begin() + static_cast<std::ptrdiff_t>(cut), carries.end()}));
                QCOMPARE(firstDisagreement(rule, whole, carries), -1);
                QCOMPARE(firstDisagreement(rule, joined, carries), -1);
            }
    }

    void repetitionsAgreeWithStepping()
    {
        std::mt19937_64 rng(7);
        for (bool legacy : {false, true})
            for (int trial = 0; trial < 1500; ++trial) {
                const int n = 1 + static_cast<int>(rng() % kTranslations);
                const Rule rule(n, legacy);
                const auto body = randomCarries(rng, n, 1 + static_cast<int>(rng() % 6));
                const std::int64_t times = static_cast<std::int64_t>(rng() % 40);
                std::vector<Carry> unrolled;
                for (std::int64_t t = 0; t < times; ++t) unrolled.insert(unrolled.end(), body.begin(), body.end());
                QCOMPARE(firstDisagreement(rule, rule.effect(body).repeated(times), unrolled), -1);
            }
    }

    void longRepetitionsAgreeWithCycleDetection()
    {
        std::mt19937_64 rng(11);
        ReachableStates reachable;
        for (int trial = 0; trial < 500; ++trial) {
            const int n = 1 + static_cast<int>(rng() % kTranslations);
            const Rule rule(n, trial % 2 == 1);
            const auto body = randomCarries(rng, n, 1 + static_cast<int>(rng() % 5));
            const std::int64_t times = 1'000'000'000'000 + static_cast<std::int64_t>(rng() % 1000);
            const ReuseRuleEffect repeated = rule.effect(body).repeated(times);
            for (int s = 0; s < rule.states(); ++s) {
                reachable.begin();
                int x = s;
                std::int64_t words = 0;
                QVERIFY(reachable.repeat(0, times, x, words, [&](int& state, std::int64_t& w) {
                    const auto [next, moved] = rule.step(state, body);
                    state = next;
                    w += moved;
                    return true;
                }));
                QCOMPARE(repeated.from(s).next, x);
                QCOMPARE(repeated.from(s).words, words);
            }
        }
    }

    void anEmptyStretchPassesTheStateThrough()
    {
        const ReuseRuleEffect none;
        QCOMPARE(none.from(5).next, 5);
        QCOMPARE(none.from(5).words, std::int64_t{0});
        QCOMPARE(ReuseRuleEffect::carry(3, 4, 9).repeated(0).from(2).next, 2);
    }
};

QTEST_APPLESS_MAIN(TestReuseRuleEffect)
#include "tst_reuse_rule_effect.moc"
