// Architecture editing as a designer does it in the Architecture tab (ArchitectureEditor's bar,
// ArchitectureCommands.h): the Eyeriss-like 14 x 12 array resized to 16 x 16 and back, a per-PE
// buffer added and removed, levels reordered, all undoable; every mapping keeps one level per
// storage level and still evaluates; with a size-aware energy model, energies and areas follow
// sizes by the model's formula (Thistle Eq. 4: eps_S = sigma_S * sqrt(S), register files and
// areas linear in size). Expected values are counted off the example file.
#include "ArchitectureCommands.h"
#include "ArchitectureDiagram.h"
#include "ArchitectureEditor.h"
#include "MainWindow.h"
#include "ProjectDocument.h"
#include "model/Model.h"
#include "search/ArchitectureSweep.h"

#include <QPushButton>
#include <QSpinBox>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

#include <cmath>

using namespace nestor;
using namespace nestor::app;

namespace {

const QString kEyeriss = QStringLiteral(NESTOR_EXAMPLES_DIR "/eyeriss-like.yaml");
constexpr int kGlb = 1, kIfmapSpad = 4, kLevels = 7;  // DRAM GLB column row ifmap weights psum

const Architecture& arch(const MainWindow& w)
{
    return w.document()->project().architecture;
}

// Every mapping of the project has one level per storage level and is valid on the architecture.
void verifyMappingsFollow(const MainWindow& w)
{
    const Project& p = w.document()->project();
    for (const ProjectMapping& pm : p.mappings) {
        QCOMPARE(int(pm.mapping.levels.size()), p.architecture.numLevels());
        const Diagnostics d = pm.mapping.validate(p.findWorkload(pm.workload)->workload, p.architecture);
        QVERIFY2(d.empty(), d.empty() ? "" : d.front().toString().c_str());
    }
}

} // namespace

class TestArchitectureEditing : public QObject {
    Q_OBJECT
private slots:
    void resizeTheArrayAndBackWithTheBar()
    {
        MainWindow w;
        QVERIFY(w.openProject(kEyeriss));
        ArchitectureEditor* editor = w.architectureEditor();
        auto* columns = editor->findChild<QSpinBox*>(QStringLiteral("peColumns"));
        auto* rows = editor->findChild<QSpinBox*>(QStringLiteral("peRows"));
        auto* resize = editor->findChild<QPushButton*>(QStringLiteral("resizePeArray"));
        QVERIFY(columns && rows && resize);
        QCOMPARE(columns->value(), 14);
        QCOMPARE(rows->value(), 12);
        columns->setValue(16);
        rows->setValue(16);
        QTest::mouseClick(resize, Qt::LeftButton);
        QCOMPARE(editor->message(), QString());
        QCOMPARE(arch(w).compute.instances, std::int64_t(256));
        QCOMPARE(arch(w).compute.meshX, std::int64_t(16));
        QCOMPARE(arch(w).levels[kIfmapSpad].instances, std::int64_t(256));
        QCOMPARE(arch(w).levels[3].instances, std::int64_t(16));  // one row of the array
        QCOMPARE(arch(w).name, std::string("eyeriss-like"));
        // The diagram is redrawn from it.
        QCOMPARE(editor->diagram()->architecture().levels, arch(w).levels);
        QCOMPARE(editor->diagram()->architecture().compute, arch(w).compute);
        QCOMPARE(w.document()->undoStack()->count(), 1);
        w.document()->undoStack()->undo();
        QCOMPARE(arch(w).compute.instances, std::int64_t(168));
        QCOMPARE(editor->diagram()->architecture().compute.instances, std::int64_t(168));
        QCOMPARE(columns->value(), 14);
        w.document()->undoStack()->redo();
        QCOMPARE(arch(w).levels[kIfmapSpad].instances, std::int64_t(256));
        QCOMPARE(editor->resizePeArray(14, 12), QString());  // and back by hand
        QCOMPARE(arch(w).compute.instances, std::int64_t(168));
        verifyMappingsFollow(w);
    }

    void addAndRemoveAPerPeBuffer()
    {
        MainWindow w;
        QVERIFY(w.openProject(kEyeriss));
        ArchitectureEditor* editor = w.architectureEditor();
        editor->tree()->setCurrentItem(editor->tree()->topLevelItem(kIfmapSpad));
        QCOMPARE(editor->selectedLevel(), kIfmapSpad);
        QTest::mouseClick(editor->findChild<QPushButton*>(QStringLiteral("addLevel")), Qt::LeftButton);
        QCOMPARE(editor->message(), QString());
        QCOMPARE(arch(w).numLevels(), kLevels + 1);
        const StorageLevel& added = arch(w).levels[kIfmapSpad + 1];
        QCOMPARE(added.instances, std::int64_t(168));   // one per PE
        QCOMPARE(added.meshX, std::int64_t(14));
        QCOMPARE(editor->tree()->topLevelItemCount(), kLevels + 2);  // levels + compute
        verifyMappingsFollow(w);

        // The mapping still evaluates: the new level bypasses every tensor until told otherwise.
        for (const ProjectMapping& m : w.document()->project().mappings)
            QCOMPARE(m.mapping.levels[kIfmapSpad + 1].keep, (std::vector<bool>{false, false, false}));
        QVERIFY(w.selectDefaultMapping());
        QVERIFY(QTest::qWaitFor([&] { return !w.isEvaluating(); }, 20000));
        const ProjectMapping* pm = w.document()->project().findMapping(w.currentMapping().toStdString());
        const Evaluation e = evaluate(w.document()->project().findWorkload(pm->workload)->workload, arch(w), pm->mapping);
        QVERIFY(e.valid);

        QCOMPARE(editor->removeLevel(kIfmapSpad + 1), QString());
        QCOMPARE(arch(w).numLevels(), kLevels);
        verifyMappingsFollow(w);
        w.document()->undoStack()->undo();  // the removal
        QCOMPARE(arch(w).numLevels(), kLevels + 1);
        w.document()->undoStack()->undo();  // the addition
        QCOMPARE(arch(w).numLevels(), kLevels);
        QCOMPARE(arch(w).levels[kIfmapSpad].name, std::string("ifmap_spad"));
        verifyMappingsFollow(w);
    }

    void removingALevelHandsItsLoopsOutward()
    {
        MainWindow w;
        QVERIFY(w.openProject(kEyeriss));
        const Project before = w.document()->project();
        QCOMPARE(w.architectureEditor()->removeLevel(kGlb), QString());
        for (std::size_t i = 0; i < before.mappings.size(); ++i) {
            const Mapping& was = before.mappings[i].mapping;
            const Mapping& now = w.document()->project().mappings[i].mapping;
            // DRAM's temporal loops, then the GLB's, in nest order.
            std::vector<Loop> expected = was.levels[0].temporal;
            expected.insert(expected.end(), was.levels[kGlb].temporal.begin(), was.levels[kGlb].temporal.end());
            QCOMPARE(now.levels[0].temporal.size(), expected.size());
            for (std::size_t k = 0; k < expected.size(); ++k) {
                QCOMPARE(now.levels[0].temporal[k].dim, expected[k].dim);
                QCOMPARE(now.levels[0].temporal[k].bound, expected[k].bound);
            }
            QCOMPARE(now.levels.size(), was.levels.size() - 1);
        }
        w.document()->undoStack()->undo();
        QCOMPARE(w.document()->project().mappings[0].mapping, before.mappings[0].mapping);
    }

    void rejectedEditsChangeNothing()
    {
        MainWindow w;
        QVERIFY(w.openProject(kEyeriss));
        ArchitectureEditor* editor = w.architectureEditor();
        QVERIFY(!editor->resizePeArray(14, 12).isEmpty());   // already that size
        QVERIFY(!editor->moveLevel(0, -1).isEmpty());        // already outermost
        QVERIFY(!editor->removeLevel(kLevels).isEmpty());    // no such level
        QVERIFY(!editor->message().isEmpty());
        QCOMPARE(w.document()->undoStack()->count(), 0);
    }

    // commands::adoptDesign (the Solver tab's "Open in workbench") refuses a design whose levels
    // differ, an unknown layer and a mapping the design cannot run, and changes nothing then.
    void adoptingADesignRefusesWhatDoesNotFit()
    {
        MainWindow w;
        QVERIFY(w.openProject(kEyeriss));
        ProjectDocument& doc = *w.document();
        const Project& p = doc.project();
        const ProjectMapping& pm = p.mappings.front();
        const QString layer = QString::fromStdString(pm.workload);

        Architecture fewer = p.architecture;
        fewer.levels.pop_back();
        QVERIFY(commands::adoptDesign(doc, fewer, layer, pm.mapping, QStringLiteral("x")).contains(QStringLiteral("levels differ")));
        QVERIFY(!commands::adoptDesign(doc, p.architecture, QStringLiteral("no-such-layer"), pm.mapping, QStringLiteral("x")).isEmpty());
        const Architecture small = resizePeArray(p.architecture, 2, 2);  // the mapping's 14 x 12 fanout no longer fits
        QVERIFY(!commands::adoptDesign(doc, small, layer, pm.mapping, QStringLiteral("x")).isEmpty());
        QCOMPARE(doc.undoStack()->count(), 0);

        // A fitting one: architecture and mapping in one step, undone in one.
        const std::size_t before = p.mappings.size();
        Architecture bigger = p.architecture;
        bigger.levels[kGlb].size_words = *bigger.levels[kGlb].size_words * 2;
        QString added;
        QCOMPARE(commands::adoptDesign(doc, bigger, layer, pm.mapping, QStringLiteral("adopted"), &added), QString());
        QCOMPARE(added, QStringLiteral("adopted"));
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(*arch(w).levels[kGlb].size_words, *bigger.levels[kGlb].size_words);
        QCOMPARE(doc.project().mappings.size(), before + 1);
        doc.undoStack()->undo();
        QCOMPARE(doc.project().mappings.size(), before);
        QCOMPARE(*arch(w).levels[kGlb].size_words, *bigger.levels[kGlb].size_words / 2);
    }

    void theExampleFollowsSizes()
    {
        // examples/arch/eyeriss-like.arch.yaml: energy_model table-scaled. The GLB (SRAM) grows
        // 4x: 2x per access (sqrt), 4x the area; the ifmap spad (regfile) 2x: 2x and 2x.
        MainWindow w;
        QVERIFY(w.openProject(kEyeriss));
        QCOMPARE(w.document()->project().energyModel, std::string("table-scaled"));
        const StorageLevel glb = arch(w).levels[kGlb];
        const StorageLevel spad = arch(w).levels[kIfmapSpad];
        QCOMPARE(w.architectureEditor()->setProperty(kGlb, QStringLiteral("size_words"), QString::number(4 * *glb.size_words)), QString());
        QCOMPARE(w.architectureEditor()->setProperty(kIfmapSpad, QStringLiteral("size_words"), QString::number(2 * *spad.size_words)), QString());
        QVERIFY(std::abs(arch(w).levels[kGlb].energy.read_pJ / glb.energy.read_pJ - 2.0) < 1e-12);
        QVERIFY(std::abs(arch(w).levels[kGlb].area_um2 / glb.area_um2 - 4.0) < 1e-12);
        QVERIFY(std::abs(arch(w).levels[kIfmapSpad].energy.read_pJ / spad.energy.read_pJ - 2.0) < 1e-12);
        QVERIFY(std::abs(arch(w).levels[kIfmapSpad].area_um2 / spad.area_um2 - 2.0) < 1e-12);
        // Back to the file's size: the file's figures again; an energy edit is taken as given.
        QCOMPARE(w.architectureEditor()->setProperty(kGlb, QStringLiteral("size_words"), QString::number(*glb.size_words)), QString());
        QVERIFY(std::abs(arch(w).levels[kGlb].energy.read_pJ - glb.energy.read_pJ) < 1e-9);
        QCOMPARE(w.architectureEditor()->setProperty(kGlb, QStringLiteral("energy_pJ.read"), QStringLiteral("40")), QString());
        QCOMPARE(arch(w).levels[kGlb].energy.read_pJ, 40.0);
        w.document()->undoStack()->undo();
        w.document()->undoStack()->undo();
        QVERIFY(std::abs(arch(w).levels[kGlb].energy.read_pJ / glb.energy.read_pJ - 2.0) < 1e-12);
    }

    void aFixedLevelKeepsItsFigures()
    {
        // energy_fixed: the per-level override of the energy model; a size edit leaves energy and
        // area alone, and clearing it again lets the next edit scale.
        MainWindow w;
        QVERIFY(w.openProject(kEyeriss));
        const StorageLevel glb = arch(w).levels[kGlb];
        QCOMPARE(w.architectureEditor()->setProperty(kGlb, QStringLiteral("energy_fixed"), QStringLiteral("true")), QString());
        QVERIFY(arch(w).levels[kGlb].energyFixed);
        QCOMPARE(w.architectureEditor()->setProperty(kGlb, QStringLiteral("size_words"), QString::number(4 * *glb.size_words)), QString());
        QCOMPARE(arch(w).levels[kGlb].energy.read_pJ, glb.energy.read_pJ);
        QCOMPARE(arch(w).levels[kGlb].area_um2, glb.area_um2);
        QVERIFY(!w.architectureEditor()->setProperty(kGlb, QStringLiteral("energy_fixed"), QStringLiteral("perhaps")).isEmpty());
        QCOMPARE(w.architectureEditor()->setProperty(kGlb, QStringLiteral("energy_fixed"), QStringLiteral("false")), QString());
        QCOMPARE(w.architectureEditor()->setProperty(kGlb, QStringLiteral("size_words"), QString::number(16 * *glb.size_words)), QString());
        QVERIFY(std::abs(arch(w).levels[kGlb].energy.read_pJ / glb.energy.read_pJ - 2.0) < 1e-12);  // 4x the words again
    }

    void energiesAndAreasFollowSizesUnderASizeAwareModel()
    {
        MainWindow w;
        QVERIFY(w.openProject(kEyeriss));
        Project p = w.document()->project();
        p.energyModel = "thistle-45nm";
        w.document()->reset(p, {});
        const StorageLevel glb = arch(w).levels[kGlb];
        const StorageLevel spad = arch(w).levels[kIfmapSpad];
        QCOMPARE(w.architectureEditor()->setProperty(kGlb, QStringLiteral("size_words"), QString::number(4 * *glb.size_words)), QString());
        QCOMPARE(w.architectureEditor()->setProperty(kIfmapSpad, QStringLiteral("size_words"), QString::number(2 * *spad.size_words)), QString());
        const StorageLevel& glb4 = arch(w).levels[kGlb];
        const StorageLevel& spad2 = arch(w).levels[kIfmapSpad];
        // SRAM: energy grows with sqrt(size): 4x the words, 2x the energy; area linear in words.
        QVERIFY(std::abs(glb4.energy.read_pJ / glb.energy.read_pJ - 2.0) < 1e-9);
        QVERIFY(std::abs(glb4.area_um2 / glb.area_um2 - 4.0) < 1e-9);
        // Register file: energy and area linear in registers.
        QVERIFY(std::abs(spad2.energy.read_pJ / spad.energy.read_pJ - 2.0) < 1e-9);
        QVERIFY(std::abs(spad2.area_um2 / spad.area_um2 - 2.0) < 1e-9);
        // The tree shows the new figures.
        QTreeWidgetItem* glbItem = w.architectureEditor()->tree()->topLevelItem(kGlb);
        for (int c = 0; c < glbItem->childCount(); ++c)
            if (glbItem->child(c)->text(0) == QLatin1String("energy_pJ.read"))
                QCOMPARE(glbItem->child(c)->text(1), QString::number(glb4.energy.read_pJ));
        w.document()->undoStack()->undo();
        QCOMPARE(arch(w).levels[kIfmapSpad].energy.read_pJ, spad.energy.read_pJ);
    }
};

QTEST_MAIN(TestArchitectureEditing)
#include "tst_architecture_editing.moc"
