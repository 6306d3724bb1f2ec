// The hashed translation table (model/ReuseGeometry.h: IndexedTranslationTable) against a plain
// model: a std::map from each move to the class it was given when first met. Random moves over few values (so that most repeat), runs of
// every size up to the table's room, cleared between runs as the analyses clear it, and the
// reuse states the classes get (a new state per new move, none for a zero move).
#include "model/ReuseGeometry.h"

#include <QtTest/QtTest>

#include <map>
#include <random>

using namespace nestor::model;

namespace {

constexpr int kRoom = 2047;  // as the temporal-remainder form's table
using Table = IndexedTranslationTable<kRoom>;

Vec randomMove(std::mt19937_64& rng, int nRanks, int spread)
{
    std::uniform_int_distribution<std::int64_t> value(-spread, spread);
    Vec v{};
    for (int r = 0; r < nRanks; ++r) v[r] = value(rng);
    return v;
}

} // namespace

class TestTranslationTable : public QObject {
    Q_OBJECT

private slots:
    // Every lookup, before and after the index grows, gives the class the move got first.
    void classesAsFirstMet()
    {
        std::mt19937_64 rng(11);
        Table table;  // (one object for every run, as the analyses keep theirs)
        for (int run = 0; run < 200; ++run) {
            table.clear();
            const int nRanks = 1 + run % 4;
            const int spread = 1 + run % 7;  // (up to 15^4 distinct moves: the table fills)
            const int lookups = 50 + static_cast<int>(rng() % 6000);
            std::map<std::vector<std::int64_t>, int> model;
            int states = 1;
            std::map<int, int> stateOfClass;
            for (int i = 0; i < lookups; ++i) {
                const Vec v = randomMove(rng, nRanks, spread);
                const std::vector<std::int64_t> key(v.begin(), v.begin() + nRanks);
                const auto [cls, added] = table.findOrAdd(v, nRanks, false);
                const auto known = model.find(key);
                if (known != model.end()) {
                    QCOMPARE(cls, known->second);
                    QVERIFY(!added);
                    QCOMPARE(table.find(v, nRanks), known->second);
                    continue;
                }
                if (static_cast<int>(model.size()) == kRoom) {  // full: refused, nothing added
                    QCOMPARE(cls, -1);
                    QCOMPARE(table.find(v, nRanks), -1);
                    continue;
                }
                QVERIFY(added);
                QCOMPARE(cls, static_cast<int>(model.size()));
                model.emplace(key, cls);
                const bool zero = std::all_of(key.begin(), key.end(), [](std::int64_t x) { return x == 0; });
                stateOfClass[cls] = zero ? 0 : states++;
                QCOMPARE(table.stateOf[static_cast<std::size_t>(cls)], stateOfClass[cls]);
            }
            QCOMPARE(table.count, static_cast<int>(model.size()));
            QCOMPARE(table.states, states);
            // After the run, every move met is still found as its class.
            for (const auto& [key, cls] : model) {
                Vec v{};
                std::copy(key.begin(), key.end(), v.begin());
                QCOMPARE(table.find(v, nRanks), cls);
            }
        }
    }

    // A cleared table forgets every move, however full it was.
    void clearForgets()
    {
        std::mt19937_64 rng(12);
        Table table;
        std::vector<Vec> met;
        for (int i = 0; i < 1500; ++i) {
            met.push_back(randomMove(rng, 4, 100));
            table.findOrAdd(met.back(), 4, false);
        }
        table.clear();
        for (const Vec& v : met) QCOMPARE(table.find(v, 4), -1);
        const auto [cls, added] = table.findOrAdd(met[7], 4, false);
        QCOMPARE(cls, 0);
        QVERIFY(added);
    }
};

QTEST_GUILESS_MAIN(TestTranslationTable)
#include "tst_translation_table.moc"
