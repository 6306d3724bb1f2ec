// The reachable-state sweep (model/ReachableSweep.h), which the residual-context and
// temporal-remainder forms count their words with, against plain iteration: a loop's repetitions
// (cycle detection, the cycle's words multiplied out) against applying the step that many times,
// and a whole nest under predicate contexts against an odometer that visits every iteration and
// applies each carry's step in order. The machines are random tables, so nothing here depends on
// the reuse rule.
#include "model/ReachableSweep.h"

#include <QtTest/QtTest>

#include <random>
#include <vector>

using namespace nestor::model;

namespace {

// A random machine on n states: per state its successor and the words of the move.
struct Machine {
    std::vector<int> next;
    std::vector<std::int64_t> cost;
    Machine(int n, std::mt19937_64& rng)
    {
        std::uniform_int_distribution<int> state(0, n - 1);
        std::uniform_int_distribution<std::int64_t> words(0, 1000);
        for (int s = 0; s < n; ++s) {
            next.push_back(state(rng));
            cost.push_back(words(rng));
        }
    }
};

// A random step table over k loops, 2^sets contexts and n states.
struct StepTable {
    int contexts, n;
    std::vector<StateStep> steps;  // [j][before][after][state]
    StepTable(int k, int contexts, int n, std::mt19937_64& rng) : contexts(contexts), n(n)
    {
        std::uniform_int_distribution<int> state(0, n - 1);
        std::uniform_int_distribution<std::int64_t> words(0, 100);
        steps.resize(static_cast<std::size_t>(k * contexts * contexts * n));
        for (auto& s : steps) s = {state(rng), words(rng)};
    }
    StateStep at(int j, int before, int after, int s) const
    {
        return steps[static_cast<std::size_t>(((j * contexts + before) * contexts + after) * n + s)];
    }
};

// Every iteration of the nest in order, outermost loop first: each carry of loop j (j advances,
// the loops inside restart) applies the step with the contexts of loops 0..j before and after
// it (a set's bit: all its loops among 0..j at their last iteration).
std::int64_t odometerWords(int k, const std::vector<std::int64_t>& trips, const std::vector<int>& setOf, int sets,
                             const StepTable& table, int start)
{
    std::vector<std::int64_t> index(static_cast<std::size_t>(k), 0);
    auto contextUpTo = [&](int j) {
        int c = (1 << sets) - 1;
        for (int q = 0; q <= j; ++q)
            if (setOf[static_cast<std::size_t>(q)] >= 0 && index[static_cast<std::size_t>(q)] != trips[static_cast<std::size_t>(q)] - 1)
                c &= ~(1 << setOf[static_cast<std::size_t>(q)]);
        return c;
    };
    int state = start;
    std::int64_t words = 0;
    while (true) {
        int j = k - 1;
        while (j >= 0 && index[static_cast<std::size_t>(j)] == trips[static_cast<std::size_t>(j)] - 1) --j;
        if (j < 0) return words;
        const int before = contextUpTo(j);
        ++index[static_cast<std::size_t>(j)];
        for (int q = j + 1; q < k; ++q) index[static_cast<std::size_t>(q)] = 0;
        const StateStep s = table.at(j, before, contextUpTo(j), state);
        state = s.first;
        words += s.second;
    }
}

} // namespace

class TestReachableSweep : public QObject {
    Q_OBJECT
private slots:
    // Repetitions: tails and cycles of every length up to a few hundred states, counts from none
    // to far past the cycle, against stepping one by one.
    void repeatMatchesStepping()
    {
        std::mt19937_64 rng(11);
        ReachableStates states;
        for (int round = 0; round < 400; ++round) {
            const int n = 1 + static_cast<int>(rng() % 300);
            const Machine m(n, rng);
            const int start = static_cast<int>(rng() % static_cast<std::uint64_t>(n));
            const std::int64_t times = static_cast<std::int64_t>(rng() % 2000);
            int x = start;
            std::int64_t cost = 7;  // words before the repetitions are kept
            states.begin();
            QVERIFY(states.repeat(0, times, x, cost, [&](int& y, std::int64_t& w) {
                w += m.cost[static_cast<std::size_t>(y)];
                y = m.next[static_cast<std::size_t>(y)];
                return true;
            }));
            int expectX = start;
            std::int64_t expectCost = 7;
            for (std::int64_t i = 0; i < times; ++i) {
                expectCost += m.cost[static_cast<std::size_t>(expectX)];
                expectX = m.next[static_cast<std::size_t>(expectX)];
            }
            QCOMPARE(x, expectX);
            QCOMPARE(cost, expectCost);
        }
    }

    // A cost of several figures (the temporal-remainder form sums three at once, or the words
    // served under several moves): each summed as if it were the only one, stepping one by one.
    void repeatSumsSeveralFiguresAtOnce()
    {
        std::mt19937_64 rng(12);
        ReachableStatesOf<FigureSums<2>> states;
        for (int round = 0; round < 200; ++round) {
            const int n = 1 + static_cast<int>(rng() % 200);
            const Machine first(n, rng), second(n, rng);  // second.cost: the other figure (its successors unused)
            const int start = static_cast<int>(rng() % static_cast<std::uint64_t>(n));
            const std::int64_t times = static_cast<std::int64_t>(rng() % 100'000);
            int x = start;
            FigureSums<2> cost{{3, 5}};
            states.begin();
            QVERIFY(states.repeat(1, times, x, cost, [&](int& y, FigureSums<2>& w) {
                w += FigureSums<2>{{first.cost[static_cast<std::size_t>(y)], second.cost[static_cast<std::size_t>(y)]}};
                y = first.next[static_cast<std::size_t>(y)];
                return true;
            }));
            int expectX = start;
            std::int64_t expectA = 3, expectB = 5;
            for (std::int64_t i = 0; i < times; ++i) {
                expectA += first.cost[static_cast<std::size_t>(expectX)];
                expectB += second.cost[static_cast<std::size_t>(expectX)];
                expectX = first.next[static_cast<std::size_t>(expectX)];
            }
            QCOMPARE(x, expectX);
            QCOMPARE(cost.v[0], expectA);
            QCOMPARE(cost.v[1], expectB);
        }
    }

    // Counts too large to step through: a machine of one cycle of length L after a tail of
    // length T, whose words are known in closed form.
    void repeatMultipliesOutLongRuns()
    {
        ReachableStates states;
        for (int tail : {0, 1, 5, 9, 40})
            for (int cycle : {1, 2, 7, 8, 9, 100}) {
                const int n = tail + cycle;
                auto next = [&](int s) { return s + 1 < n ? s + 1 : tail; };
                auto words = [](int s) { return std::int64_t{s} + 1; };
                const std::int64_t times = 1'000'000'000'003;
                int x = 0;
                std::int64_t cost = 0;
                states.begin();
                QVERIFY(states.repeat(3, times, x, cost, [&](int& y, std::int64_t& w) {
                    w += words(y);
                    y = next(y);
                    return true;
                }));
                std::int64_t expect = 0, perCycle = 0;
                for (int s = 0; s < tail; ++s) expect += words(s);
                for (int s = tail; s < n; ++s) perCycle += words(s);
                const std::int64_t rest = times - tail;
                expect += rest / cycle * perCycle;
                for (int s = 0; s < rest % cycle; ++s) expect += words(tail + s);
                QCOMPARE(cost, expect);
                QCOMPARE(x, static_cast<int>(tail + rest % cycle));
            }
    }

    // A step that gives up stops the repetitions.
    void repeatStopsWhenGivenUp()
    {
        ReachableStates states;
        states.begin();
        int x = 0, calls = 0;
        std::int64_t cost = 0;
        QVERIFY(!states.repeat(0, 100, x, cost, [&](int& y, std::int64_t&) {
            ++y;
            return ++calls < 5;
        }));
        QCOMPARE(calls, 5);
    }

    // Whole nests: up to six loops of two to five trips, up to three predicate sets, random
    // machines of up to twelve states, against the odometer.
    void nestsMatchTheOdometer()
    {
        std::mt19937_64 rng(5);
        ReachableSweep sweep;
        for (int round = 0; round < 3000; ++round) {
            const int k = static_cast<int>(rng() % 7);
            const int sets = static_cast<int>(rng() % 4);
            std::vector<std::int64_t> trips(static_cast<std::size_t>(k));
            std::vector<int> setOf(static_cast<std::size_t>(k));
            for (int j = 0; j < k; ++j) {
                trips[static_cast<std::size_t>(j)] = 2 + static_cast<std::int64_t>(rng() % 4);
                setOf[static_cast<std::size_t>(j)] = sets > 0 ? static_cast<int>(rng() % static_cast<std::uint64_t>(sets + 1)) - 1 : -1;
            }
            const int n = 1 + static_cast<int>(rng() % 12);
            const StepTable table(k, 1 << sets, n, rng);
            const int start = static_cast<int>(rng() % static_cast<std::uint64_t>(n));
            const std::optional<std::int64_t> words = sweep.run(k, trips.data(), setOf.data(), 1 << sets, start,
                                                                [&](int j, int before, int after, int s) { return table.at(j, before, after, s); });
            QVERIFY(words.has_value());
            QCOMPARE(*words, odometerWords(k, trips, setOf, sets, table, start));
        }
    }

    // A step that gives up anywhere makes the whole run give up.
    void nestGivesUp()
    {
        ReachableSweep sweep;
        const std::int64_t trips[] = {3, 4};
        const int setOf[] = {-1, 0};
        for (int givingUp = 0; givingUp < 2; ++givingUp) {  // the outer loop's carries, or the inner's
            const auto words = sweep.run(2, trips, setOf, 2, 0, [&](int j, int, int, int s) -> StateStep {
                return j == givingUp ? StateStep{-1, 0} : StateStep{s, 1};
            });
            QVERIFY(!words.has_value());
        }
        const auto words = sweep.run(2, trips, setOf, 2, 0, [&](int, int, int, int s) { return StateStep{s, 1}; });
        QCOMPARE(*words, std::int64_t{3 * 4 - 1});  // one word per step after the first
    }
};

QTEST_APPLESS_MAIN(TestReachableSweep)
#include "tst_reachable_sweep.moc"
