// Autosave recovery per document and per instance. A second instance is a real second
// process (this executable run with --hold-recovery): it opens the Eyeriss-like example, sets the
// GLB loop [P, 8] of row-stationary to 4 (so DRAM [P, 7] becomes [P, 14]: P = 56), autosaves,
// reports its entry and the orphans it sees, then waits; the parent quits it or kills it (SIGKILL,
// a crash). Recovery files live in a test location (QStandardPaths test mode), emptied per test.
#include "AutosaveController.h"
#include "CommandLineOptions.h"
#include "GuiLauncher.h"
#include "MainWindow.h"
#include "ProjectCommands.h"
#include "ProjectDocument.h"
#include "RecoveryOffer.h"
#include "RecoveryStore.h"
#include "io/ProjectYaml.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QMessageBox>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QTimer>

#include <iostream>
#include <string>

using nestor::app::AutosaveController;
using nestor::app::CommandLineOptions;
using nestor::app::MainWindow;
using nestor::app::ProjectDocument;
using nestor::app::RecoveryChoice;
using nestor::app::RecoveryInfo;
using nestor::app::RecoveryStore;
namespace commands = nestor::app::commands;

namespace {

const QString kExample = QStringLiteral(NESTOR_EXAMPLES_DIR "/eyeriss-like.yaml");
const QString kMapping = QStringLiteral("row-stationary");
constexpr int kDram = 0;
constexpr int kGlb = 1;
constexpr int kNever = 3600 * 1000;  // autosave interval: tests write explicitly

void useTestLocations()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("NestorTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_recovery"));
}

QString example()
{
    return QFileInfo(kExample).absoluteFilePath();
}

// GLB [P, 8] -> [P, 4]; the DRAM loop of P absorbs it: [P, 7] -> [P, 14].
QString editGlbP(ProjectDocument& doc)
{
    return commands::setLoopFactor(doc, {kMapping, kGlb, nestor::LoopKind::Temporal, 2}, 4, 4);
}

// The example with that edit, built by reading the file and setting the two loops by hand.
std::string exampleWithEdit()
{
    nestor::Project p = nestor::readProject(kExample.toStdString());
    for (nestor::ProjectMapping& pm : p.mappings) {
        if (pm.mapping.name != kMapping.toStdString()) continue;
        pm.mapping.levels[kGlb].temporal[2].bound = pm.mapping.levels[kGlb].temporal[2].residual = 4;
        pm.mapping.levels[kDram].temporal[2].bound = pm.mapping.levels[kDram].temporal[2].residual = 14;
    }
    return nestor::writeProject(p);
}

// The second instance (see the top of the file). Exit codes: 0 quit, 2 cannot open, 3 cannot autosave.
int holdRecovery(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    useTestLocations();
    ProjectDocument doc;
    QString error;
    if (!doc.load(kExample, &error) || !(error = editGlbP(doc)).isEmpty()) {
        std::cerr << error.toStdString() << "\n";
        return 2;
    }
    AutosaveController autosave(&doc, kNever);
    if (!autosave.writeNow()) {
        std::cerr << autosave.lastError().toStdString() << "\n";
        return 3;
    }
    QString seen;
    for (const nestor::app::RecoveryClaim& c : RecoveryStore().claimOrphans()) seen += QLatin1Char(' ') + c.info().id;
    std::cout << autosave.id().toStdString() << "\nsees" << seen.toStdString() << std::endl;
    std::string line;
    std::getline(std::cin, line);  // "quit" or end of input
    return 0;                      // the controller goes with its unsaved changes: the entry stays
}

class SecondInstance {
public:
    bool start()
    {
        process_.setProgram(QCoreApplication::applicationFilePath());
        process_.setArguments({QStringLiteral("--hold-recovery")});
        process_.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        process_.start();
        if (!process_.waitForStarted(10000)) return false;
        QStringList lines;
        while (lines.size() < 2) {
            if (!process_.canReadLine() && !process_.waitForReadyRead(20000)) return false;
            while (process_.canReadLine()) lines << QString::fromUtf8(process_.readLine()).trimmed();
        }
        id = lines[0];
        seen = lines[1].split(QLatin1Char(' '), Qt::SkipEmptyParts).mid(1);
        return !id.isEmpty();
    }
    bool quit()
    {
        process_.write("quit\n");
        process_.closeWriteChannel();
        return process_.waitForFinished(20000) && process_.exitStatus() == QProcess::NormalExit && process_.exitCode() == 0;
    }
    bool crash()
    {
        process_.kill();  // SIGKILL: no destructor runs, the lock file stays with a dead pid
        return process_.waitForFinished(20000) && process_.exitStatus() == QProcess::CrashExit;
    }
    qint64 pid() const { return process_.processId(); }
    ~SecondInstance()
    {
        if (process_.state() != QProcess::NotRunning) crash();
    }

    QString id;
    QStringList seen;  // the orphans it could claim while it ran

private:
    QProcess process_;
};

QStringList orphanIds()
{
    QStringList ids;
    for (const nestor::app::RecoveryClaim& c : RecoveryStore().claimOrphans()) ids << c.info().id;
    return ids;
}

// Leaves an orphan as a window that quit with unsaved changes does: written, lock released.
QString leaveOrphan(ProjectDocument& doc)
{
    AutosaveController autosave(&doc, kNever);
    return autosave.writeNow() ? autosave.id() : QString();
}

// Clicks `button` of the next modal message box (the close prompt).
void answerNextMessageBox(QMessageBox::StandardButton button)
{
    auto* poll = new QTimer;
    poll->setInterval(10);
    QObject::connect(poll, &QTimer::timeout, [poll, button] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box || !box->button(button)) return;
        poll->deleteLater();
        poll->stop();
        box->button(button)->click();
    });
    poll->start();
}

} // namespace

class TestRecovery : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void liveInstancesDoNotSeeEachOther();
    void crashedInstanceIsOfferedAndRestoresTheEdit();
    void fileArgumentOffersRecovery();
    void keepAndDiscardAreHonoured();
    void quitWithUnsavedChangesKeepsRecovery();
    void closePromptCancelKeepsAndDiscardRemoves();
    void savingDeletesRecovery();
    void unreadableRecoveryIsReportedAndKept();
    void legacyRecoveryIsImported();
    void recoverOption();
};

void TestRecovery::initTestCase()
{
    useTestLocations();
    QVERIFY2(QFileInfo::exists(kExample), qPrintable(kExample));
}

void TestRecovery::init()
{
    QDir(RecoveryStore::defaultDirectory()).removeRecursively();
}

void TestRecovery::liveInstancesDoNotSeeEachOther()
{
    ProjectDocument doc;
    QVERIFY(doc.load(kExample));
    QVERIFY(commands::setLoopFactor(doc, {kMapping, kGlb, nestor::LoopKind::Temporal, 0}, 1, 1).isEmpty());  // M 2 -> 1
    AutosaveController mine(&doc, kNever);
    QVERIFY(mine.writeNow());

    SecondInstance other;
    QVERIFY(other.start());
    QVERIFY(other.id != mine.id());
    QVERIFY(QFileInfo::exists(RecoveryStore().projectFile(other.id)));
    QCOMPARE(other.seen, QStringList());  // ours is live
    QCOMPARE(orphanIds(), QStringList()); // its is live, and so is ours

    // It quits with unsaved changes: its entry stays, unlocked, and is offered; ours still is not.
    QVERIFY(other.quit());
    QCOMPARE(orphanIds(), QStringList{other.id});
    QVERIFY(mine.hasRecovery());
}

void TestRecovery::crashedInstanceIsOfferedAndRestoresTheEdit()
{
    SecondInstance other;
    QVERIFY(other.start());
    const qint64 pid = other.pid();
    QVERIFY(other.crash());
    const RecoveryStore store;
    QVERIFY(QFileInfo::exists(store.lockFile(other.id)));  // left behind by a dead pid

    MainWindow w;
    w.enableAutosave(kNever);
    w.show();
    QList<RecoveryInfo> offered;
    const auto restored = nestor::app::offerRecoveries(w, [&](const RecoveryInfo& info) {
        offered << info;
        return RecoveryChoice::Restore;
    });
    QCOMPARE(offered.size(), 1);
    QCOMPARE(offered[0].id, other.id);
    QCOMPARE(offered[0].origin, example());
    QCOMPARE(offered[0].pid, pid);
    QCOMPARE(restored, QList<MainWindow*>{&w});

    QVERIFY(w.document()->isModified());
    QCOMPARE(w.document()->path(), example());
    const nestor::Mapping& m = w.project()->findMapping(kMapping.toStdString())->mapping;
    QCOMPARE(m.levels[kGlb].temporal[2].bound, 4);
    QCOMPARE(m.levels[kDram].temporal[2].bound, 14);
    QCOMPARE(nestor::writeProject(*w.project()), exampleWithEdit());

    // The entry is this window's now: it is not offered elsewhere, and saving removes it.
    QCOMPARE(w.autosave()->id(), other.id);
    QCOMPARE(orphanIds(), QStringList());
    QTemporaryDir dir;
    QVERIFY(w.saveProjectAs(dir.filePath(QStringLiteral("recovered.yaml"))));
    QVERIFY(!QFileInfo::exists(store.projectFile(other.id)));
    QVERIFY(!QFileInfo::exists(store.sidecarFile(other.id)));
    QVERIFY(!QFileInfo::exists(store.lockFile(other.id)));
}

void TestRecovery::fileArgumentOffersRecovery()
{
    // Two sessions ended without saving: one on the example, one on an untitled project.
    ProjectDocument onExample;
    QVERIFY(onExample.load(kExample));
    QVERIFY(editGlbP(onExample).isEmpty());
    const QString exampleId = leaveOrphan(onExample);
    ProjectDocument untitled;
    untitled.reset(ProjectDocument::emptyProject(), QString(), true);
    const QString untitledId = leaveOrphan(untitled);
    QVERIFY(!exampleId.isEmpty() && !untitledId.isEmpty());

    // `nestor examples/eyeriss-like.yaml`, as the desktop entry starts it.
    const CommandLineOptions options = CommandLineOptions::parse({QStringLiteral("nestor"), kExample});
    QCOMPARE(options.action, CommandLineOptions::Action::Run);
    MainWindow w;
    w.enableAutosave(kNever);
    w.show();
    QStringList offered;
    QVERIFY(nestor::app::startWorkbench(w, options, [&](const RecoveryInfo& info) {
        offered << info.id;
        return RecoveryChoice::Restore;
    }));
    QCOMPARE(offered, (QStringList{exampleId, untitledId}));  // the file's own recovery first

    // The file's recovery replaces the clean file in this window; the other gets a window of its own.
    QVERIFY(w.document()->isModified());
    QCOMPARE(w.document()->path(), example());
    QCOMPARE(nestor::writeProject(*w.project()), exampleWithEdit());
    QPointer<MainWindow> other;
    for (QWidget* top : QApplication::topLevelWidgets())
        if (auto* mw = qobject_cast<MainWindow*>(top); mw && mw != &w) other = mw;
    QVERIFY(other);
    QVERIFY(other->document()->isModified());
    QCOMPARE(other->document()->path(), QString());
    QCOMPARE(other->autosave()->id(), untitledId);
    other->close();  // no prompt without persistent settings: its entry stays
    QTRY_VERIFY(!other);
    QCOMPARE(orphanIds(), QStringList{untitledId});
}

void TestRecovery::keepAndDiscardAreHonoured()
{
    ProjectDocument a, b;
    QVERIFY(a.load(kExample) && b.load(kExample));
    QVERIFY(editGlbP(a).isEmpty() && editGlbP(b).isEmpty());
    const QString keep = leaveOrphan(a), discard = leaveOrphan(b);

    MainWindow w;
    w.show();
    nestor::app::offerRecoveries(w, [&](const RecoveryInfo& info) {
        return info.id == keep ? RecoveryChoice::Keep : RecoveryChoice::Discard;
    });
    QVERIFY(!w.document()->isModified());
    const RecoveryStore store;
    QVERIFY(QFileInfo::exists(store.projectFile(keep)));
    QVERIFY(!QFileInfo::exists(store.projectFile(discard)));
    QVERIFY(!QFileInfo::exists(store.sidecarFile(discard)));
    QCOMPARE(orphanIds(), QStringList{keep});  // offered again next time
}

void TestRecovery::quitWithUnsavedChangesKeepsRecovery()
{
    QString id;
    std::string unsaved;
    {
        MainWindow w;
        w.enableAutosave(kNever);
        w.show();
        QVERIFY(w.openProject(kExample));
        QVERIFY(editGlbP(*w.document()).isEmpty());
        QVERIFY(w.autosave()->writeNow());
        // One more edit after the last autosave: quitting writes it too.
        QVERIFY(commands::setLoopFactor(*w.document(), {kMapping, kGlb, nestor::LoopKind::Temporal, 0}, 1, 1).isEmpty());
        id = w.autosave()->id();
        unsaved = nestor::writeProject(*w.project());
        QVERIFY(w.close());
    }
    QCOMPARE(orphanIds(), QStringList{id});
    QCOMPARE(nestor::writeProject(nestor::readProject(RecoveryStore().projectFile(id).toStdString())), unsaved);
}

void TestRecovery::closePromptCancelKeepsAndDiscardRemoves()
{
    MainWindow w;
    w.usePersistentSettings();  // as launched: closing with unsaved changes asks Save / Discard / Cancel
    w.enableAutosave(kNever);
    w.show();
    QVERIFY(w.openProject(kExample));
    QVERIFY(editGlbP(*w.document()).isEmpty());
    QVERIFY(w.autosave()->writeNow());
    const QString file = w.autosave()->recoveryFile();

    answerNextMessageBox(QMessageBox::Cancel);
    QVERIFY(!w.close());
    QVERIFY(w.isVisible());
    QVERIFY(QFileInfo::exists(file));

    answerNextMessageBox(QMessageBox::Discard);
    QVERIFY(w.close());
    QVERIFY(!QFileInfo::exists(file));
    QCOMPARE(orphanIds(), QStringList());
}

void TestRecovery::savingDeletesRecovery()
{
    MainWindow w;
    w.enableAutosave(kNever);
    w.show();
    QVERIFY(w.openProject(kExample));
    QVERIFY(editGlbP(*w.document()).isEmpty());
    QVERIFY(w.autosave()->writeNow());
    const RecoveryStore store;
    const QString id = w.autosave()->id();
    QVERIFY(QFileInfo::exists(store.projectFile(id)));
    QVERIFY(QFileInfo::exists(store.lockFile(id)));
    QCOMPARE(nestor::writeProject(nestor::readProject(store.projectFile(id).toStdString())), exampleWithEdit());
    QTemporaryDir dir;
    QVERIFY(w.saveProjectAs(dir.filePath(QStringLiteral("saved.yaml"))));
    QVERIFY(!QFileInfo::exists(store.projectFile(id)));
    QVERIFY(!QFileInfo::exists(store.sidecarFile(id)));
    QVERIFY(!QFileInfo::exists(store.lockFile(id)));
    QVERIFY(QDir(store.directory()).entryList(QDir::Files | QDir::Hidden).isEmpty());
}

void TestRecovery::unreadableRecoveryIsReportedAndKept()
{
    const RecoveryStore store;
    const QString id = RecoveryStore::newId();
    store.write(id, example(), "nestor: 1\nworkloads: [\n");  // cut short by a full disk, say
    MainWindow w;
    w.show();
    const auto restored = nestor::app::offerRecoveries(w, nestor::app::fixedRecoveryChooser(RecoveryChoice::Restore));
    QVERIFY(restored.isEmpty());
    QVERIFY(!w.document()->isModified());
    QVERIFY2(w.lastError().contains(QDir::toNativeSeparators(store.projectFile(id))), qPrintable(w.lastError()));
    const QRegularExpression located(QRegularExpression::escape(store.projectFile(id)) + QStringLiteral(":\\d+:\\d+"));
    QVERIFY2(w.lastError().contains(located), qPrintable(w.lastError()));
    QCOMPARE(orphanIds(), QStringList{id});
}

void TestRecovery::legacyRecoveryIsImported()
{
    // The single recovery file of earlier versions, beside the recovery folder.
    const QDir appData = QFileInfo(RecoveryStore::defaultDirectory()).dir();
    QVERIFY(appData.mkpath(QStringLiteral(".")));
    const QString legacy = appData.filePath(QStringLiteral("recovery.yaml"));
    const QString legacyOrigin = appData.filePath(QStringLiteral("recovery.origin"));
    QFile project(legacy), origin(legacyOrigin);
    QVERIFY(project.open(QIODevice::WriteOnly) && origin.open(QIODevice::WriteOnly));
    project.write(QByteArray::fromStdString(exampleWithEdit()));
    origin.write(example().toUtf8() + "\n");
    project.close();
    origin.close();

    MainWindow w;
    w.show();
    QStringList offered;
    nestor::app::offerRecoveries(w, [&](const RecoveryInfo& info) {
        offered << info.origin;
        return RecoveryChoice::Restore;
    });
    QCOMPARE(offered, QStringList{example()});
    QVERIFY(w.document()->isModified());
    QCOMPARE(w.document()->path(), example());
    QCOMPARE(nestor::writeProject(*w.project()), exampleWithEdit());
    QVERIFY(!QFileInfo::exists(legacy));
    QVERIFY(!QFileInfo::exists(legacyOrigin));
    QCOMPARE(orphanIds().size(), 1);  // without autosave the window leaves the entry for the next start
}

void TestRecovery::recoverOption()
{
    QCOMPARE(CommandLineOptions::parse({QStringLiteral("nestor")}).recover, QStringLiteral("ask"));
    const auto discard = CommandLineOptions::parse({QStringLiteral("nestor"), kExample, QStringLiteral("--recover"), QStringLiteral("discard")});
    QCOMPARE(discard.action, CommandLineOptions::Action::Run);
    QCOMPARE(discard.recover, QStringLiteral("discard"));
    const auto bogus = CommandLineOptions::parse({QStringLiteral("nestor"), QStringLiteral("--recover"), QStringLiteral("maybe")});
    QCOMPARE(bogus.action, CommandLineOptions::Action::UsageError);
    QVERIFY2(bogus.message.contains(QStringLiteral("maybe")), qPrintable(bogus.message));

    // `--recover discard` decides without a dialog.
    ProjectDocument doc;
    QVERIFY(doc.load(kExample));
    QVERIFY(editGlbP(doc).isEmpty());
    const QString id = leaveOrphan(doc);
    MainWindow w;
    w.show();
    QVERIFY(nestor::app::startWorkbench(w, discard, nestor::app::recoveryChooserFor(discard, w)));
    QVERIFY(!w.document()->isModified());
    QVERIFY(!QFileInfo::exists(RecoveryStore().projectFile(id)));
}

int main(int argc, char** argv)
{
    if (argc > 1 && qstrcmp(argv[1], "--hold-recovery") == 0) return holdRecovery(argc, argv);
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    TestRecovery test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_recovery.moc"
