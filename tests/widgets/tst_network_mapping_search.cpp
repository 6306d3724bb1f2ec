// Network tab, Find Mappings (app/gui/views/NetworkMappingSearch.h): after an ONNX import no
// layer has a mapping; the search adds one per distinct layer, valid for the engine's model and
// within the project's constraints, as one undo step in network order, and the network then
// evaluates to the model's MACs derived by hand (tests/data/onnx/README.md). The mapspace picked
// beside the button is the one searched: PFM gives perfect factors (each dimension's bounds
// multiply to its size, no remainder), checked on the mappings themselves. The algorithm, budget
// and seed of the Options reach the engine: the mappings are those of the engine's network search
// under the same options (and another seed finds others, so an ignored seed would show). Where
// the architecture has no energies, the report says that ranking by EDP decided nothing.
#include "FindMappingsOptions.h"
#include "NetworkMappingSearch.h"
#include "NetworkView.h"
#include "OnnxImportCommand.h"
#include "ProjectDocument.h"
#include "core/MapspaceConstraints.h"
#include "io/OnnxImport.h"
#include "io/ProjectYaml.h"
#include "mapspace/MapspaceKind.h"
#include "model/Model.h"
#include "search/NetworkSearch.h"
#include "search/SearchMetric.h"

#include <QComboBox>
#include <QSpinBox>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

using namespace nestor;

class TestNetworkMappingSearch : public QObject {
    Q_OBJECT
private slots:
    void findsMappingsForAnImportedNetwork();
    void searchesThePickedMapspaceByThePickedMetric();
    void searchesWithTheOptionsAlgorithmBudgetAndSeed();
    void saysWhenEnergyRankedNothing();
};

namespace {

// The Eyeriss-like example with tiny-cnn.onnx imported as network "tiny"; the import's error, if any.
QString importTinyNetwork(app::ProjectDocument& doc)
{
    doc.reset(readProject(NESTOR_EXAMPLES_DIR "/eyeriss-like.yaml"), {});
    OnnxImportOptions options;
    options.networkName = "tiny";
    return app::commands::addImportedNetwork(doc, importOnnx(NESTOR_TEST_DATA_DIR "/onnx/tiny-cnn.onnx", options));
}

bool selectData(QComboBox* box, int value)
{
    const int i = box->findData(value);
    if (i < 0) return false;
    box->setCurrentIndex(i);
    return true;
}

} // namespace

void TestNetworkMappingSearch::findsMappingsForAnImportedNetwork()
{
    app::ProjectDocument doc;
    QCOMPARE(importTinyNetwork(doc), QString());
    const std::size_t mappingsBefore = doc.project().mappings.size();
    const int stepsBefore = doc.undoStack()->count();

    app::NetworkView view(&doc);
    QCOMPARE(view.findMapspaceBox()->currentText(), QStringLiteral("ruby-s"));  // nestor-cli's defaults
    QCOMPARE(view.findMetricBox()->currentText(), QStringLiteral("edp"));
    QVERIFY(view.selectNetwork(QStringLiteral("tiny")));
    QSignalSpy messages(&view, &app::NetworkView::message);
    QSignalSpy evaluated(&view, &app::NetworkView::finished);
    QVERIFY(view.findMappings());
    QVERIFY(view.isRunning());
    QVERIFY(evaluated.wait(120000));
    QCOMPARE(evaluated.first().first().toBool(), true);

    // stem, body (used twice, searched once), classifier: in network order, one undo step.
    const Project& p = doc.project();
    QCOMPARE(p.mappings.size(), mappingsBefore + 3);
    const char* layers[] = {"stem", "body", "classifier"};
    for (int i = 0; i < 3; ++i) {
        const ProjectMapping& m = p.mappings[mappingsBefore + std::size_t(i)];
        QCOMPARE(m.workload, std::string(layers[i]));
        QCOMPARE(m.mapping.name, std::string(layers[i]) + "-ruby-s");
        const Workload& w = p.findWorkload(m.workload)->workload;
        QVERIFY2(evaluate(w, p.architecture, m.mapping).valid, layers[i]);
        QVERIFY(checkConstraints(p.constraintsFor(w), m.mapping, w, p.architecture).empty());
    }
    QCOMPARE(doc.undoStack()->count(), stepsBefore + 1);
    QVERIFY(messages.size() >= 1);
    QVERIFY2(messages.first().first().toString().startsWith(QStringLiteral("3 of 3 layers got a mapping")),
             qPrintable(messages.first().first().toString()));

    // The network evaluated with them: every layer valid, MACs as derived by hand for batch 1:
    // 16·3·32·32·9 + 2·(16·16·32·32·9) + 10·16.
    QCOMPARE(view.results().size(), std::size_t(3));
    for (const auto& r : view.results()) QVERIFY(r.evaluation.valid);
    QCOMPARE(view.totals().macs, std::int64_t(5161120));
    QCOMPARE(view.totals().missing, 0);

    // Nothing left to search; undo takes the three mappings away at once.
    messages.clear();
    QVERIFY(!view.findMappings());
    QCOMPARE(messages.first().first().toString(), QStringLiteral("Every layer already has a mapping."));
    doc.undoStack()->undo();
    QCOMPARE(doc.project().mappings.size(), mappingsBefore);

    // Another project while a search runs: its results are dropped, the tab is usable again.
    QVERIFY(view.findMappings());
    doc.reset(readProject(NESTOR_EXAMPLES_DIR "/eyeriss-like.yaml"), {});
    QVERIFY(!view.isRunning());
    QTest::qWait(200);
    QCOMPARE(doc.project().mappings.size(), mappingsBefore);
    QVERIFY(view.table()->rowCount() == 0);
}

void TestNetworkMappingSearch::searchesThePickedMapspaceByThePickedMetric()
{
    app::ProjectDocument doc;
    QCOMPARE(importTinyNetwork(doc), QString());
    const std::size_t mappingsBefore = doc.project().mappings.size();

    app::NetworkView view(&doc);
    QVERIFY(view.selectNetwork(QStringLiteral("tiny")));
    QVERIFY(selectData(view.findMapspaceBox(), int(MapspaceKind::Pfm)));
    QVERIFY(selectData(view.findMetricBox(), int(SearchMetric::Energy)));
    QSignalSpy messages(&view, &app::NetworkView::message);
    QSignalSpy evaluated(&view, &app::NetworkView::finished);
    QVERIFY(view.findMappings());
    QVERIFY(!view.findMapspaceBox()->isEnabled());  // the running search's settings stay shown
    QVERIFY(evaluated.wait(120000));
    QVERIFY(view.findMapspaceBox()->isEnabled());
    QVERIFY2(messages.first().first().toString().startsWith(
                 QStringLiteral("3 of 3 layers got a mapping (pfm mapspace, annealing, seed 1, default stop, ranked by energy)")),
             qPrintable(messages.first().first().toString()));

    const Project& p = doc.project();
    QCOMPARE(p.mappings.size(), mappingsBefore + 3);
    for (std::size_t i = mappingsBefore; i < p.mappings.size(); ++i) {
        const ProjectMapping& m = p.mappings[i];
        QCOMPARE(m.mapping.name, m.workload + "-pfm");
        const Workload& w = p.findWorkload(m.workload)->workload;
        std::vector<std::int64_t> product(std::size_t(w.numDims()), 1);
        for (const LevelMapping& level : m.mapping.levels)
            for (LoopKind kind : {LoopKind::Temporal, LoopKind::SpatialX, LoopKind::SpatialY})
                for (const Loop& loop : level.loops(kind)) {
                    QVERIFY2(!loop.isImperfect(), m.mapping.name.c_str());
                    product[std::size_t(loop.dim)] *= loop.bound;
                }
        for (int d = 0; d < w.numDims(); ++d) QCOMPARE(product[std::size_t(d)], w.bounds[std::size_t(d)]);
        QVERIFY(evaluate(w, p.architecture, m.mapping).valid);
    }
}

void TestNetworkMappingSearch::searchesWithTheOptionsAlgorithmBudgetAndSeed()
{
    app::ProjectDocument doc;
    QCOMPARE(importTinyNetwork(doc), QString());
    const std::size_t mappingsBefore = doc.project().mappings.size();
    const std::vector<NetworkSearchLayer> layers = projectNetworkLayers(doc.project(), "tiny");

    app::NetworkView view(&doc);
    QVERIFY(view.selectNetwork(QStringLiteral("tiny")));
    QVERIFY(selectData(view.findMapspaceBox(), int(MapspaceKind::Pfm)));
    app::FindMappingsOptions* options = view.findOptions();
    QCOMPARE(options->algorithmBox()->currentText(), QStringLiteral("annealing"));  // nestor-cli's defaults
    QCOMPARE(options->budgetBox()->value(), 0);
    QCOMPARE(options->seedBox()->value(), 1);
    options->algorithmBox()->setCurrentText(QStringLiteral("random"));
    options->budgetBox()->setValue(60);
    options->seedBox()->setValue(7);
    QSignalSpy messages(&view, &app::NetworkView::message);
    QSignalSpy evaluated(&view, &app::NetworkView::finished);
    QVERIFY(view.findMappings());
    QVERIFY(!options->isEnabled());
    QVERIFY(evaluated.wait(120000));
    QVERIFY(options->isEnabled());
    QVERIFY2(messages.first().first().toString().startsWith(
                 QStringLiteral("3 of 3 layers got a mapping (pfm mapspace, random, seed 7, budget 60 per layer, ranked by edp)")),
             qPrintable(messages.first().first().toString()));

    // The engine's network search with the same options finds the same mappings; seed 8 others.
    auto engineBest = [&](std::uint64_t seed) {
        app::FindMappingsSettings s;
        s.mapspace = MapspaceKind::Pfm;
        s.algorithm = "random";
        s.budget = 60;
        s.seed = seed;
        NetworkSearchOptions o;
        o.kind = s.mapspace;
        o.search = app::findMappingsSearchOptions(s);
        std::vector<NetworkSearchLayer> distinct;
        for (const NetworkSearchLayer& l : layers)
            if (std::none_of(distinct.begin(), distinct.end(), [&](const NetworkSearchLayer& d) { return d.name == l.name; }))
                distinct.push_back(l);
        return runNetworkSearch(doc.project().architecture, distinct, o);
    };
    app::FindMappingsSettings budgeted;
    budgeted.budget = 60;
    QCOMPARE(app::findMappingsSearchOptions(budgeted).victoryCondition, std::int64_t(0));  // a budget is spent whole
    QCOMPARE(app::findMappingsSearchOptions(app::FindMappingsSettings{}).victoryCondition, SearchOptions{}.victoryCondition);
    const NetworkSearchResult same = engineBest(7), other = engineBest(8);
    const Project& p = doc.project();
    QCOMPARE(p.mappings.size(), mappingsBefore + 3);
    bool otherDiffers = false;
    for (std::size_t i = 0; i < 3; ++i) {
        const ProjectMapping& m = p.mappings[mappingsBefore + i];
        QCOMPARE(same.layers[i].name, m.workload);
        QVERIFY(same.layers[i].result.found);
        QVERIFY2(same.layers[i].result.best.levels == m.mapping.levels, m.workload.c_str());
        otherDiffers = otherDiffers || !(other.layers[i].result.best.levels == m.mapping.levels);
    }
    QVERIFY(otherDiffers);
}

void TestNetworkMappingSearch::saysWhenEnergyRankedNothing()
{
    app::ProjectDocument doc;
    QCOMPARE(importTinyNetwork(doc), QString());
    Project p = doc.project();
    for (StorageLevel& l : p.architecture.levels) l.energy = ActionEnergies{};
    p.architecture.compute.mac_energy_pJ = 0.0;
    doc.reset(p, {});

    app::NetworkView view(&doc);
    QVERIFY(view.selectNetwork(QStringLiteral("tiny")));
    QVERIFY(selectData(view.findMapspaceBox(), int(MapspaceKind::Pfm)));
    view.findOptions()->budgetBox()->setValue(30);
    QSignalSpy messages(&view, &app::NetworkView::message);
    QSignalSpy evaluated(&view, &app::NetworkView::finished);
    QVERIFY(view.findMappings());
    QVERIFY(evaluated.wait(120000));
    const QString report = messages.first().first().toString();
    QVERIFY2(report.contains(QStringLiteral("every mapping costs 0 pJ (the architecture has no energies), so edp ranked nothing")),
             qPrintable(report));
    QCOMPARE(view.totals().energy_pJ, 0.0);  // the network evaluated with them: no energy anywhere
}

QTEST_MAIN(TestNetworkMappingSearch)
#include "tst_network_mapping_search.moc"
