// ChildPlacement (the kind of each child of a stage, read from its fanout indices as a
// mixed-radix number, and the distinct (offset, kind) pairs) against a plain second derivation:
// each child's categories found loop by loop and looked up among the kinds enumerateKinds lists,
// its offset summed from the step vectors, the pairs sorted by offset. Every stage of unconstrained
// Ruby and Ruby-S mappings on a 14x12 array (children of up to a few hundred kinds) and of
// random small grids.
#include "mapspace/Mapspace.h"
#include "model/ChildPlacement.h"
#include "model/KindEnumeration.h"
#include "model/NestLayout.h"
#include "model/StageAnalysis.h"
#include "model/StageFrame.h"
#include "support/StageFrames.h"
#include "support/TestArchitectures.h"
#include "support/TestWorkloads.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <vector>

using namespace nestor;
using namespace nestor::model;

namespace {

struct Kind {
    std::vector<walker::Cat> cats;
    std::int64_t count = 1;
};

// Checks one stage; returns the number of kinds of child it has.
std::size_t checkStage(const StageFrame& f)
{
    const NestLayout& nest = *f.nest;
    std::vector<Kind> kinds;
    enumerateKinds(nest, f.leafPos, f.boundary, false, kinds);
    ChildPlacement placement;
    placement.build(f, true);
    const auto& steps = *f.spec->stepVectors;
    const int nChildLoops = f.boundary - f.leafPos;
    // Per child: its categories, its kind by lookup, and its offset, from its indices alone.
    std::map<std::vector<std::int64_t>, std::set<int>> kindsAt;  // offset -> kinds there
    std::vector<std::int64_t> idx(static_cast<std::size_t>(nChildLoops), 0);
    for (std::int64_t c = 0; c < f.children; ++c) {
        std::vector<walker::Cat> cats;
        std::vector<std::int64_t> offset(static_cast<std::size_t>(f.nRanks), 0);
        for (int q = 0; q < nChildLoops; ++q) {
            const NestLoop& l = nest.loops[static_cast<std::size_t>(f.leafPos + q)];
            cats.push_back(nest.dimImperfect(l.dim) ? walker::categorize(idx[static_cast<std::size_t>(q)], l.bound, l.residual)
                                                    : walker::Cat::Any);
            for (int r = 0; r < f.nRanks; ++r)
                offset[static_cast<std::size_t>(r)] += idx[static_cast<std::size_t>(q)] * steps[static_cast<std::size_t>(f.leafPos + q)][r];
        }
        const auto kind = std::find_if(kinds.begin(), kinds.end(), [&](const Kind& k) { return k.cats == cats; });
        if (kind == kinds.end()) {
            qWarning("child %lld has categories no enumerated kind has", static_cast<long long>(c));
            return 0;
        }
        const int expected = static_cast<int>(kind - kinds.begin());
        if (placement.kindOf[static_cast<std::size_t>(c)] != expected) {
            qWarning("child %lld: kind %d, expected %d", static_cast<long long>(c), placement.kindOf[static_cast<std::size_t>(c)], expected);
            return 0;
        }
        kindsAt[offset].insert(expected);
        for (int q = nChildLoops; q-- > 0;) {  // (the last fanout loop fastest, as forEachChild)
            if (++idx[static_cast<std::size_t>(q)] < nest.loops[static_cast<std::size_t>(f.leafPos + q)].bound) break;
            idx[static_cast<std::size_t>(q)] = 0;
        }
    }
    // The pairs, offset by offset: the same sets of kinds at as many offsets.
    std::multiset<std::set<int>> expectedSets, placedSets;
    for (const auto& [offset, set] : kindsAt) expectedSets.insert(set);
    std::map<int, std::set<int>> byNumber;
    for (const auto& [number, kind] : placement.placed) byNumber[number].insert(kind);
    for (const auto& [number, set] : byNumber) placedSets.insert(set);
    const bool sorted = std::is_sorted(placement.placed.begin(), placement.placed.end()) &&
                        std::adjacent_find(placement.placed.begin(), placement.placed.end()) == placement.placed.end();
    if (!sorted || placedSets != expectedSets) {
        qWarning("the placed pairs differ: %zu offsets placed, %zu expected", byNumber.size(), kindsAt.size());
        return 0;
    }
    return kinds.size();
}

// Checks every stage of `count` random mappings that fit; returns the stages with several kinds
// of child and the most kinds seen.
std::pair<int, std::size_t> checkMappings(const Workload& w, const Architecture& a, MapspaceKind kind, std::uint64_t seed, int count)
{
    const Mapspace s(w, a, kind);
    const ModelOptions options;  // (the stage specs point at it)
    std::mt19937_64 rng(seed);
    int severalKinds = 0;
    std::size_t most = 0;
    for (int kept = 0, tries = 0; kept < count && tries < 100 * count; ++tries) {
        const MapspacePoint point = s.randomPoint(rng);
        if (s.exceedsCapacity(point)) continue;
        ++kept;
        bool agreed = true;
        const bool framed = test::forEachStage(w, a, s.toMapping(point), options, [&](const StageSpec&, const StageFrame& frame) {
            if (!agreed || frame.boundary == frame.leafPos) return;
            const std::size_t kinds = checkStage(frame);
            agreed = kinds > 0;
            severalKinds += kinds > 1 ? 1 : 0;
            most = std::max(most, kinds);
        });
        if (!framed) qWarning("a stage's frame did not build");
        if (!framed || !agreed) return {-1, 0};
    }
    return {severalKinds, most};
}

} // namespace

class TestChildPlacement : public QObject {
    Q_OBJECT
private slots:
    void unconstrainedLargeArray()
    {
        const Workload w = test::vggConv3_1();
        const Architecture a = test::bufferAndPeArray(14, 12, 256);
        for (MapspaceKind kind : {MapspaceKind::Ruby, MapspaceKind::RubyS}) {
            const auto [severalKinds, most] = checkMappings(w, a, kind, 31, 150);
            QVERIFY2(severalKinds >= 0, "a child's kind, the placed pairs or a frame failed (see the warning above)");
            qInfo("%s: %d stages with several kinds of child, at most %zu kinds", mapspaceKindName(kind).c_str(), severalKinds, most);
            QVERIFY(severalKinds >= 100);
            QVERIFY(most >= 24);
        }
    }

    void smallGrids()
    {
        std::mt19937_64 rng(32);
        int severalKinds = 0;
        for (int round = 0; round < 20; ++round) {
            const Workload w = test::randomSmallConv(rng);
            const Architecture a = test::bufferAndPeArray(3 + std::int64_t(rng() % 3), 2 + std::int64_t(rng() % 3), 64);
            const auto [several, most] = checkMappings(w, a, MapspaceKind::Ruby, 100 + static_cast<std::uint64_t>(round), 20);
            QVERIFY2(several >= 0, "a child's kind, the placed pairs or a frame failed (see the warning above)");
            severalKinds += several;
        }
        QVERIFY(severalKinds >= 50);
    }
};

QTEST_GUILESS_MAIN(TestChildPlacement)
#include "tst_child_placement.moc"
