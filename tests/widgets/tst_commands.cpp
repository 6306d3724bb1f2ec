// Every edit command (ProjectCommands.h): set, undo, redo, the change each reports
// (ProjectChange.h) and, for the edits of one field, merge. The project is built here by hand, so every expected value is counted off it:
// GEMM M=8 N=4 K=2 on DRAM -> Buffer (64 words) -> 1 MAC; mapping "tiled":
//   DRAM   temporal [M 4] [N 2]
//   Buffer temporal [M 2] [N 2] [K 2]
#include "ChangeValueCommand.h"
#include "ListElementCommand.h"
#include "ProjectCommands.h"
#include "ProjectDocument.h"
#include "support/TestProjects.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <memory>

using nestor::LoopKind;
using nestor::test::gemmSpec;
using nestor::test::handBuiltProject;
using nestor::app::ChangeValueCommand;
using nestor::app::ProjectChange;
using Subject = nestor::app::ProjectChange::Subject;
using Kind = nestor::app::ProjectChange::Kind;
using nestor::app::ProjectDocument;
namespace commands = nestor::app::commands;

namespace {

const QString kMapping = QStringLiteral("tiled");
constexpr int kDram = 0;
constexpr int kBuffer = 1;
constexpr int kM = 0, kN = 1;

const nestor::Mapping& mapping(const ProjectDocument& doc)
{
    return doc.project().findMapping(kMapping.toStdString())->mapping;
}

int bound(const ProjectDocument& doc, int level, int index)
{
    return int(mapping(doc).levels[std::size_t(level)].temporal[std::size_t(index)].bound);
}

commands::LoopRef bufferLoop(int index)
{
    return {kMapping, kBuffer, LoopKind::Temporal, index};
}

ProjectChange changeAt(const QSignalSpy& spy, int i)
{
    return spy.at(i).at(0).value<ProjectChange>();
}

void verifyChange(const ProjectChange& c, Subject subject, Kind kind, const QString& name, int level = -1,
                  const QString& field = {})
{
    QCOMPARE(int(c.subject), int(subject));
    QCOMPARE(int(c.kind), int(kind));
    QCOMPARE(c.name, name);
    QCOMPARE(c.level, level);
    QCOMPARE(c.field, field);
}

} // namespace

class TestCommands : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        doc_ = std::make_unique<ProjectDocument>();
        doc_->reset(handBuiltProject(), {});
    }

    // --- setLoopFactor: Buffer [M 2] -> 4 makes DRAM [M 4] -> 2 (2 x 4 = 8).
    void loopFactorSetUndoRedo()
    {
        QSignalSpy changed(doc_.get(), &ProjectDocument::changed);
        QCOMPARE(commands::setLoopFactor(*doc_, bufferLoop(0), 4, 4), QString());
        QCOMPARE(bound(*doc_, kBuffer, 0), 4);
        QCOMPARE(bound(*doc_, kDram, 0), 2);
        QCOMPARE(doc_->undoStack()->count(), 1);
        QVERIFY(doc_->isModified());
        doc_->undoStack()->undo();
        QCOMPARE(bound(*doc_, kBuffer, 0), 2);
        QCOMPARE(bound(*doc_, kDram, 0), 4);
        QVERIFY(!doc_->isModified());
        doc_->undoStack()->redo();
        QCOMPARE(bound(*doc_, kBuffer, 0), 4);
        QCOMPARE(bound(*doc_, kDram, 0), 2);
        QCOMPARE(changed.count(), 3);
        for (int i = 0; i < 3; ++i) verifyChange(changeAt(changed, i), Subject::Mapping, Kind::Edited, kMapping, kBuffer, QStringLiteral("loops"));
        QVERIFY(changeAt(changed, 0).touchesEvaluationOf(kMapping, QStringLiteral("gemm")));
        QVERIFY(!changeAt(changed, 0).touchesEvaluationOf(QStringLiteral("other"), QStringLiteral("gemm")));
        QVERIFY(!changeAt(changed, 0).changesStructure());
    }

    void loopFactorRejectsWithoutAStep()
    {
        QVERIFY(!commands::setLoopFactor(*doc_, bufferLoop(0), 0, 0).isEmpty());
        QVERIFY(!commands::setLoopFactor(*doc_, bufferLoop(9), 2, 2).isEmpty());
        QVERIFY(!commands::setLoopFactor(*doc_, {QStringLiteral("nope"), kBuffer, LoopKind::Temporal, 0}, 2, 2).isEmpty());
        QCOMPARE(doc_->undoStack()->count(), 0);
    }

    void loopFactorEditsOfOneLoopMerge()
    {
        // 2 -> 4 -> 8: one step; DRAM M ends at 1 (8 x 1 = 8); one undo goes back to 2 / 4.
        QCOMPARE(commands::setLoopFactor(*doc_, bufferLoop(0), 4, 4), QString());
        QCOMPARE(commands::setLoopFactor(*doc_, bufferLoop(0), 8, 8), QString());
        QCOMPARE(doc_->undoStack()->count(), 1);
        QCOMPARE(bound(*doc_, kBuffer, 0), 8);
        QCOMPARE(bound(*doc_, kDram, 0), 1);
        QCOMPARE(doc_->undoStack()->undoText(), QStringLiteral("Set M at Buffer to 8"));
        doc_->undoStack()->undo();
        QCOMPARE(bound(*doc_, kBuffer, 0), 2);
        QCOMPARE(bound(*doc_, kDram, 0), 4);
        doc_->undoStack()->redo();
        QCOMPARE(bound(*doc_, kBuffer, 0), 8);
        QCOMPARE(bound(*doc_, kDram, 0), 1);
    }

    void loopFactorBurstBackToTheStartLeavesNoStep()
    {
        QCOMPARE(commands::setLoopFactor(*doc_, bufferLoop(0), 4, 4), QString());
        QCOMPARE(commands::setLoopFactor(*doc_, bufferLoop(0), 2, 2), QString());
        QCOMPARE(doc_->undoStack()->count(), 0);
        QCOMPARE(bound(*doc_, kBuffer, 0), 2);
        QCOMPARE(bound(*doc_, kDram, 0), 4);
        QVERIFY(!doc_->isModified());
    }

    void loopFactorEditsOfTwoLoopsDoNotMerge()
    {
        // Buffer [N 2] -> 4 makes DRAM [N 2] -> 1.
        QCOMPARE(commands::setLoopFactor(*doc_, bufferLoop(0), 4, 4), QString());
        QCOMPARE(commands::setLoopFactor(*doc_, bufferLoop(1), 4, 4), QString());
        QCOMPARE(commands::setLoopFactor(*doc_, bufferLoop(0), 8, 8), QString());
        QCOMPARE(doc_->undoStack()->count(), 3);
        doc_->undoStack()->undo();
        QCOMPARE(bound(*doc_, kBuffer, 0), 4);
        doc_->undoStack()->undo();
        QCOMPARE(bound(*doc_, kBuffer, 1), 2);
        QCOMPARE(bound(*doc_, kDram, 1), 2);
    }

    void savingEndsABurst()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QCOMPARE(commands::setLoopFactor(*doc_, bufferLoop(0), 4, 4), QString());
        QString error;
        QVERIFY2(doc_->saveAs(dir.filePath(QStringLiteral("p.yaml")), &error), qPrintable(error));
        QCOMPARE(commands::setLoopFactor(*doc_, bufferLoop(0), 8, 8), QString());
        QCOMPARE(doc_->undoStack()->count(), 2);
        doc_->undoStack()->undo();
        QCOMPARE(bound(*doc_, kBuffer, 0), 4);
        QVERIFY(!doc_->isModified());
    }

    // --- moveLoop: Buffer [M 2] [N 2] [K 2] -> [N 2] [M 2] [K 2].
    void moveLoopSetUndoRedoNoMerge()
    {
        QCOMPARE(commands::moveLoop(*doc_, bufferLoop(0), 1), QString());
        QCOMPARE(mapping(*doc_).levels[kBuffer].temporal[0].dim, kN);
        QCOMPARE(mapping(*doc_).levels[kBuffer].temporal[1].dim, kM);
        QCOMPARE(commands::moveLoop(*doc_, bufferLoop(1), 1), QString());  // M on to the innermost place
        QCOMPARE(mapping(*doc_).levels[kBuffer].temporal[2].dim, kM);
        QCOMPARE(doc_->undoStack()->count(), 2);
        doc_->undoStack()->undo();
        doc_->undoStack()->undo();
        QCOMPARE(mapping(*doc_).levels[kBuffer].temporal[0].dim, kM);
        QCOMPARE(mapping(*doc_).levels[kBuffer].temporal[1].dim, kN);
        doc_->undoStack()->redo();
        QCOMPARE(mapping(*doc_).levels[kBuffer].temporal[0].dim, kN);
        QVERIFY(!commands::moveLoop(*doc_, bufferLoop(0), -1).isEmpty());  // already outermost
    }

    // --- setKeep: an empty keep list keeps all; bypassing B (tensor 1) writes all three.
    void keepSetUndoRedoNoMerge()
    {
        QSignalSpy changed(doc_.get(), &ProjectDocument::changed);
        QCOMPARE(commands::setKeep(*doc_, kMapping, kBuffer, 1, false), QString());
        verifyChange(changeAt(changed, 0), Subject::Mapping, Kind::Edited, kMapping, kBuffer, QStringLiteral("keep"));
        QCOMPARE(mapping(*doc_).levels[kBuffer].keep, (std::vector<bool>{true, false, true}));
        QCOMPARE(commands::setKeep(*doc_, kMapping, kBuffer, 1, true), QString());
        QCOMPARE(doc_->undoStack()->count(), 2);  // toggles are steps of their own
        doc_->undoStack()->undo();
        QCOMPARE(mapping(*doc_).levels[kBuffer].keep, (std::vector<bool>{true, false, true}));
        doc_->undoStack()->undo();
        QVERIFY(mapping(*doc_).levels[kBuffer].keep.empty());
        doc_->undoStack()->redo();
        QVERIFY(!mapping(*doc_).keeps(kBuffer, 1));
    }

    // --- Loop relocation, addition, removal and repair (engine/mapping/MappingLoopEdits.h).
    void relocateAddRemoveRepairUndo()
    {
        QSignalSpy changed(doc_.get(), &ProjectDocument::changed);
        QCOMPARE(commands::relocateLoop(*doc_, {kMapping, kDram, LoopKind::Temporal, 1}, kBuffer, LoopKind::Temporal), QString());
        QCOMPARE(mapping(*doc_).levels[kDram].temporal.size(), std::size_t(1));
        QCOMPARE(mapping(*doc_).levels[kBuffer].temporal.back(), nestor::makeLoop(kN, 2));
        verifyChange(changeAt(changed, 0), Subject::Mapping, Kind::Edited, kMapping, -1, QStringLiteral("loops"));
        QCOMPARE(commands::addLoop(*doc_, kMapping, kDram, LoopKind::Temporal, 2), QString());
        QCOMPARE(mapping(*doc_).levels[kDram].temporal.back(), nestor::makeLoop(2, 1));
        QCOMPARE(commands::removeLoop(*doc_, bufferLoop(0)), QString());  // Buffer M 2: DRAM M 4 -> 8
        QCOMPARE(bound(*doc_, kDram, 0), 8);
        QCOMPARE(doc_->undoStack()->count(), 3);
        QVERIFY(!commands::addLoop(*doc_, kMapping, kDram, LoopKind::Temporal, 9).isEmpty());  // no dimension 9
        QVERIFY(!commands::repairMapping(*doc_, kMapping).isEmpty());  // nothing to repair
        for (int i = 0; i < 3; ++i) doc_->undoStack()->undo();
        QCOMPARE(mapping(*doc_), handBuiltProject().mappings[0].mapping);

        // The layer grows to M 16: the mapping covers 8; repair makes DRAM M 8.
        QCOMPARE(commands::setWorkload(*doc_, 0, QStringLiteral("gemm"), gemmSpec(16, 4, 2)), QString());
        QString repaired;
        QCOMPARE(commands::repairMapping(*doc_, kMapping, &repaired), QString());
        QCOMPARE(repaired, QStringLiteral("M"));
        QCOMPARE(bound(*doc_, kDram, 0), 8);
        doc_->undoStack()->undo();
        QCOMPARE(bound(*doc_, kDram, 0), 4);
    }

    // --- Workloads.
    void setWorkloadRenamesReferencesAndUndoes()
    {
        QSignalSpy changed(doc_.get(), &ProjectDocument::changed);
        // Listeners see the rename whole: the mapping already follows when the layer's change arrives.
        QStringList seenByListener;
        connect(doc_.get(), &ProjectDocument::changed, this,
                [&] { seenByListener << QString::fromStdString(doc_->project().mappings[0].workload); });
        QCOMPARE(commands::setWorkload(*doc_, 0, QStringLiteral("gemm2"), gemmSpec(8, 4, 2)), QString());
        QCOMPARE(changed.count(), 2);  // the layer renamed, the mapping re-targeted
        verifyChange(changeAt(changed, 0), Subject::Workload, Kind::Renamed, QStringLiteral("gemm2"));
        QCOMPARE(changeAt(changed, 0).previousName, QStringLiteral("gemm"));
        verifyChange(changeAt(changed, 1), Subject::Mapping, Kind::Edited, kMapping, -1, QStringLiteral("workload"));
        QCOMPARE(seenByListener, (QStringList{QStringLiteral("gemm2"), QStringLiteral("gemm2")}));
        QCOMPARE(doc_->project().workloads[0].workload.name, std::string("gemm2"));
        QCOMPARE(doc_->project().mappings[0].workload, std::string("gemm2"));
        QCOMPARE(commands::setWorkload(*doc_, 0, QStringLiteral("gemm3"), gemmSpec(8, 4, 2)), QString());
        QCOMPARE(doc_->undoStack()->count(), 2);
        doc_->undoStack()->undo();
        doc_->undoStack()->undo();
        QCOMPARE(doc_->project().workloads[0].workload.name, std::string("gemm"));
        QCOMPARE(doc_->project().mappings[0].workload, std::string("gemm"));
        doc_->undoStack()->redo();
        QCOMPARE(doc_->project().mappings[0].workload, std::string("gemm2"));
        // Undoing the first rename (changes 6 and 7: its parts in reverse) reported the inverse: gemm2 -> gemm.
        QCOMPARE(changed.count(), 10);
        const ProjectChange undone = changeAt(changed, 7);
        verifyChange(undone, Subject::Workload, Kind::Renamed, QStringLiteral("gemm"));
        QCOMPARE(undone.previousName, QStringLiteral("gemm2"));
    }

    void editingALayerWithoutRenameIsOneChange()
    {
        QSignalSpy changed(doc_.get(), &ProjectDocument::changed);
        QCOMPARE(commands::setWorkload(*doc_, 0, QStringLiteral("gemm"), gemmSpec(16, 4, 2)), QString());
        QCOMPARE(changed.count(), 1);
        verifyChange(changeAt(changed, 0), Subject::Workload, Kind::Edited, QStringLiteral("gemm"));
        QCOMPARE(doc_->project().workloads[0].workload.bounds[0], std::int64_t(16));
        doc_->undoStack()->undo();
        QCOMPARE(doc_->project().workloads[0].workload.bounds[0], std::int64_t(8));
    }

    void addRemoveDuplicateWorkload()
    {
        QSignalSpy changed(doc_.get(), &ProjectDocument::changed);
        QCOMPARE(commands::addWorkload(*doc_, QStringLiteral("fc"), gemmSpec(2, 3, 5)), QString());
        verifyChange(changeAt(changed, 0), Subject::Workload, Kind::Added, QStringLiteral("fc"));
        QCOMPARE(doc_->project().workloads.size(), std::size_t(2));
        QCOMPARE(doc_->project().workloads[1].workload.bounds, (std::vector<std::int64_t>{2, 3, 5}));
        QCOMPARE(commands::duplicateWorkload(*doc_, 1), QString());
        QCOMPARE(doc_->project().workloads[2].workload.name, std::string("fc_2"));
        verifyChange(changeAt(changed, 1), Subject::Workload, Kind::Added, QStringLiteral("fc_2"));
        QCOMPARE(commands::removeWorkload(*doc_, 1), QString());
        verifyChange(changeAt(changed, 2), Subject::Workload, Kind::Removed, QStringLiteral("fc"));
        QVERIFY(changeAt(changed, 2).changesStructure());
        QCOMPARE(doc_->project().workloads.size(), std::size_t(2));
        QCOMPARE(doc_->project().workloads[1].workload.name, std::string("fc_2"));
        QVERIFY(!commands::removeWorkload(*doc_, 0).isEmpty());  // "tiled" maps it
        QCOMPARE(doc_->undoStack()->count(), 3);
        doc_->undoStack()->undo();  // remove
        QCOMPARE(doc_->project().workloads[1].workload.name, std::string("fc"));
        QCOMPARE(doc_->project().workloads[1].workload.bounds, (std::vector<std::int64_t>{2, 3, 5}));
        verifyChange(changeAt(changed, changed.count() - 1), Subject::Workload, Kind::Added, QStringLiteral("fc"));
        doc_->undoStack()->undo();  // duplicate
        doc_->undoStack()->undo();  // add
        QCOMPARE(doc_->project().workloads.size(), std::size_t(1));
        doc_->undoStack()->redo();
        QCOMPARE(doc_->project().workloads.size(), std::size_t(2));
    }

    // --- addMapping: a taken name gets "-2".
    void addMappingSetUndoRedo()
    {
        QSignalSpy changed(doc_.get(), &ProjectDocument::changed);
        QString added;
        QCOMPARE(commands::addMapping(*doc_, QStringLiteral("gemm"), mapping(*doc_), kMapping, &added), QString());
        QCOMPARE(added, QStringLiteral("tiled-2"));
        QCOMPARE(doc_->project().mappings.size(), std::size_t(2));
        verifyChange(changeAt(changed, 0), Subject::Mapping, Kind::Added, QStringLiteral("tiled-2"));
        doc_->undoStack()->undo();
        verifyChange(changeAt(changed, 1), Subject::Mapping, Kind::Removed, QStringLiteral("tiled-2"));
        QCOMPARE(doc_->project().mappings.size(), std::size_t(1));
        doc_->undoStack()->redo();
        QVERIFY(doc_->project().findMapping("tiled-2"));
    }

    // --- Architecture: edits of one field of one level merge.
    void storageLevelFieldEditsMerge()
    {
        QSignalSpy changed(doc_.get(), &ProjectDocument::changed);
        nestor::StorageLevel buffer = doc_->project().architecture.levels[kBuffer];
        buffer.size_words = 128;
        QCOMPARE(commands::setStorageLevel(*doc_, kBuffer, buffer, QStringLiteral("size_words")), QString());
        verifyChange(changeAt(changed, 0), Subject::Architecture, Kind::Edited, QString(), kBuffer, QStringLiteral("size_words"));
        QVERIFY(changeAt(changed, 0).touchesEvaluationOf(kMapping, QStringLiteral("gemm")));
        buffer.size_words = 256;
        QCOMPARE(commands::setStorageLevel(*doc_, kBuffer, buffer, QStringLiteral("size_words")), QString());
        QCOMPARE(doc_->undoStack()->count(), 1);
        QCOMPARE(doc_->project().architecture.levels[kBuffer].size_words, std::optional<std::int64_t>(256));
        buffer.word_bits = 8;  // another field: a step of its own
        QCOMPARE(commands::setStorageLevel(*doc_, kBuffer, buffer, QStringLiteral("word_bits")), QString());
        QCOMPARE(doc_->undoStack()->count(), 2);
        doc_->undoStack()->undo();
        QCOMPARE(doc_->project().architecture.levels[kBuffer].word_bits, 16);
        doc_->undoStack()->undo();
        QCOMPARE(doc_->project().architecture.levels[kBuffer].size_words, std::optional<std::int64_t>(64));
        doc_->undoStack()->redo();
        QCOMPARE(doc_->project().architecture.levels[kBuffer].size_words, std::optional<std::int64_t>(256));
    }

    void storageLevelEditsWithoutAFieldOrOnTwoLevelsDoNotMerge()
    {
        nestor::StorageLevel buffer = doc_->project().architecture.levels[kBuffer];
        buffer.size_words = 128;
        QCOMPARE(commands::setStorageLevel(*doc_, kBuffer, buffer), QString());
        buffer.size_words = 256;
        QCOMPARE(commands::setStorageLevel(*doc_, kBuffer, buffer), QString());
        nestor::StorageLevel dram = doc_->project().architecture.levels[kDram];
        dram.area_um2 = 5.0;
        QCOMPARE(commands::setStorageLevel(*doc_, kDram, dram, QStringLiteral("area_um2")), QString());
        buffer.area_um2 = 7.0;
        QCOMPARE(commands::setStorageLevel(*doc_, kBuffer, buffer, QStringLiteral("area_um2")), QString());
        QCOMPARE(doc_->undoStack()->count(), 4);
        buffer.instances = 0;  // invalid: rejected, no step
        QVERIFY(!commands::setStorageLevel(*doc_, kBuffer, buffer, QStringLiteral("instances")).isEmpty());
        QCOMPARE(doc_->undoStack()->count(), 4);
    }

    void computeFieldEditsMergeBackToNothing()
    {
        nestor::ComputeLevel mac = doc_->project().architecture.compute;
        mac.mac_energy_pJ = 2.0;
        QCOMPARE(commands::setCompute(*doc_, mac, QStringLiteral("energy_pJ")), QString());
        QCOMPARE(doc_->project().architecture.compute.mac_energy_pJ, 2.0);
        doc_->undoStack()->undo();
        QCOMPARE(doc_->project().architecture.compute.mac_energy_pJ, 1.0);
        doc_->undoStack()->redo();
        mac.mac_energy_pJ = 3.0;
        QCOMPARE(commands::setCompute(*doc_, mac, QStringLiteral("energy_pJ")), QString());
        QCOMPARE(doc_->undoStack()->count(), 1);
        mac.mac_energy_pJ = 1.0;
        QCOMPARE(commands::setCompute(*doc_, mac, QStringLiteral("energy_pJ")), QString());
        QCOMPARE(doc_->undoStack()->count(), 0);
        QCOMPARE(doc_->project().architecture.compute.mac_energy_pJ, 1.0);
    }

    // --- An accessor that finds nothing is an error and leaves no step behind.
    void accessorFindingNothingOnPushIsAnError()
    {
        QSignalSpy failed(doc_.get(), &ProjectDocument::commandFailed);
        QSignalSpy changed(doc_.get(), &ProjectDocument::changed);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("Could not redo \"Lost edit\"")));
        doc_->undoStack()->push(new ChangeValueCommand<nestor::Mapping>(
            doc_.get(), QStringLiteral("Lost edit"), ProjectChange::whole(),
            [](nestor::Project&) -> nestor::Mapping* { return nullptr; }, {}));
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.front().front().toString().contains(QStringLiteral("Lost edit")));
        QCOMPARE(changed.count(), 0);
        QCOMPARE(doc_->undoStack()->count(), 0);
    }

    void listIndexOutsideTheListIsAnError()
    {
        using Command = nestor::app::ListElementCommand<nestor::ProjectMapping>;
        QSignalSpy failed(doc_.get(), &ProjectDocument::commandFailed);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("Could not redo \"Lost removal\"")));
        doc_->undoStack()->push(new Command(doc_.get(), QStringLiteral("Lost removal"), ProjectChange::whole(),
                                            [](nestor::Project& p) { return &p.mappings; }, Command::Action::Remove, 5));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(doc_->project().mappings.size(), std::size_t(1));
        QCOMPARE(doc_->undoStack()->count(), 0);
    }

    void accessorFindingNothingOnUndoIsAnError()
    {
        QCOMPARE(commands::setLoopFactor(*doc_, bufferLoop(0), 4, 4), QString());
        doc_->editableProject().mappings.clear();  // the mapping vanishes behind the stack's back
        QSignalSpy failed(doc_.get(), &ProjectDocument::commandFailed);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("Could not undo \"Set M at Buffer to 4\"")));
        doc_->undoStack()->undo();
        QCOMPARE(failed.count(), 1);
        QCOMPARE(doc_->undoStack()->count(), 0);
        QVERIFY(!doc_->undoStack()->canRedo());
    }

private:
    std::unique_ptr<ProjectDocument> doc_;
};

QTEST_MAIN(TestCommands)
#include "tst_commands.moc"
