// The session of the mapping being looked at (app/gui/session/MappingSession): an edit that
// touches the current mapping (its loops, its layer, the architecture) re-evaluates it once per
// burst; one that does not (another mapping, a new layer) leaves it alone; removing what it
// evaluates ends it. The project is tests/support/TestProjects.h: GEMM 8x4x2, mapping "tiled".
#include "MappingSession.h"
#include "ProjectCommands.h"
#include "ProjectDocument.h"
#include "support/TestProjects.h"

#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

#include <memory>

using namespace nestor;
using namespace nestor::app;

namespace {

constexpr int kHangGuardMs = 20000;
const QString kMapping = QStringLiteral("tiled");

} // namespace

class TestMappingSession : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        doc_ = std::make_unique<ProjectDocument>();
        doc_->reset(test::handBuiltProject(), {});
        session_ = std::make_unique<MappingSession>(doc_.get());
    }

    void cleanup()
    {
        session_.reset();
        doc_.reset();
    }

    void selectEvaluatesTheMapping()
    {
        QSignalSpy evaluated(session_.get(), &MappingSession::evaluated);
        QVERIFY(session_->select(kMapping));
        QCOMPARE(session_->current(), kMapping);
        QVERIFY(evaluated.wait(kHangGuardMs));
        const auto result = evaluated.front().front().value<EvaluationResult>();
        QCOMPARE(result.mappingName, kMapping);
        QVERIFY(result.failure.isEmpty());
        QVERIFY(result.evaluation.valid);
        QCOMPARE(result.evaluation.macs, std::int64_t(8 * 4 * 2));
        QVERIFY(!session_->select(QStringLiteral("no such mapping")));
        QCOMPARE(session_->current(), kMapping);
    }

    void aBurstOfEditsToTheMappingEvaluatesOnce()
    {
        selectAndWait();
        QSignalSpy edited(session_.get(), &MappingSession::edited);
        QSignalSpy started(session_.get(), &MappingSession::evaluationStarted);
        QSignalSpy evaluated(session_.get(), &MappingSession::evaluated);
        const commands::LoopRef bufferM{kMapping, 1, LoopKind::Temporal, 0};
        QCOMPARE(commands::setLoopFactor(*doc_, bufferM, 4, 4), QString());
        QCOMPARE(commands::setLoopFactor(*doc_, bufferM, 8, 8), QString());
        QCOMPARE(edited.count(), 2);
        QVERIFY(session_->isEvaluating());
        QVERIFY(evaluated.wait(kHangGuardMs));
        QCOMPARE(started.count(), 1);
    }

    void architectureEditsReevaluate()
    {
        selectAndWait();
        QSignalSpy edited(session_.get(), &MappingSession::edited);
        StorageLevel buffer = doc_->project().architecture.levels[1];
        buffer.size_words = 128;
        QCOMPARE(commands::setStorageLevel(*doc_, 1, buffer, QStringLiteral("size_words")), QString());
        QCOMPARE(edited.count(), 1);
        QVERIFY(session_->isEvaluating());
    }

    void editsElsewhereLeaveTheSessionAlone()
    {
        selectAndWait();
        QSignalSpy edited(session_.get(), &MappingSession::edited);
        QString added;
        QCOMPARE(commands::addMapping(*doc_, QStringLiteral("gemm"), doc_->project().mappings[0].mapping, kMapping, &added), QString());
        QCOMPARE(commands::setLoopFactor(*doc_, {added, 1, LoopKind::Temporal, 0}, 4, 4), QString());
        QCOMPARE(commands::addWorkload(*doc_, QStringLiteral("other"), test::gemmSpec(2, 2, 2)), QString());
        QCOMPARE(edited.count(), 0);
        QVERIFY(!session_->isEvaluating());
        QCOMPARE(session_->current(), kMapping);
    }

    void renamingTheLayerKeepsTheSession()
    {
        selectAndWait();
        QSignalSpy edited(session_.get(), &MappingSession::edited);
        QSignalSpy cleared(session_.get(), &MappingSession::cleared);
        QCOMPARE(commands::setWorkload(*doc_, 0, QStringLiteral("renamed"), test::gemmSpec(8, 4, 2)), QString());
        QCOMPARE(cleared.count(), 0);
        QVERIFY(edited.count() >= 1);
        QCOMPARE(session_->current(), kMapping);
    }

    void removingTheMappingEndsTheSession()
    {
        QString added;
        QCOMPARE(commands::addMapping(*doc_, QStringLiteral("gemm"), doc_->project().mappings[0].mapping, QStringLiteral("extra"), &added), QString());
        QVERIFY(session_->select(added));
        QSignalSpy cleared(session_.get(), &MappingSession::cleared);
        QSignalSpy evaluated(session_.get(), &MappingSession::evaluated);
        doc_->undoStack()->undo();  // the mapping goes
        QCOMPARE(cleared.count(), 1);
        QVERIFY(session_->current().isEmpty());
        QVERIFY(!session_->isEvaluating());
        QTest::qWait(200);  // its evaluation, still running, is not delivered
        QCOMPARE(evaluated.count(), 0);
    }

    void newContentEndsTheSession()
    {
        selectAndWait();
        QSignalSpy cleared(session_.get(), &MappingSession::cleared);
        doc_->reset(test::handBuiltProject(), {});
        QCOMPARE(cleared.count(), 1);
        QVERIFY(session_->current().isEmpty());
    }

private:
    void selectAndWait()
    {
        QSignalSpy evaluated(session_.get(), &MappingSession::evaluated);
        QVERIFY(session_->select(kMapping));
        QVERIFY(evaluated.wait(kHangGuardMs));
    }

    std::unique_ptr<ProjectDocument> doc_;
    std::unique_ptr<MappingSession> session_;
};

QTEST_MAIN(TestMappingSession)
#include "tst_mapping_session.moc"
