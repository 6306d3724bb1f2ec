// The main window end to end, offscreen: open a project, evaluate a mapping in the
// background, check what the views show, survive a malformed file, export the chart.
//
// The project is a 1-D convolution (P=16 outputs, R=3 taps, so 48 MACs) on DRAM -> Buffer
// -> 4 MACs in a row. Mapping: DRAM `for P in [0:4)`; Buffer `for R in [0:3)`, then
// `par-for P in [0:4) (X)`. A second mapping, one-mac, runs all 48 MACs on one PE (48
// cycles). Figures derived by hand:
//   - cycles = temporal steps = 4 * 3 = 12, utilization = 48 / (4 * 12) = 100 %;
//   - Buffer tiles: Weights R = 3, Inputs P + R - 1 = 4 + 3 - 1 = 6, Outputs P = 4;
//     Buffer capacity use 3 + 6 + 4 = 13 of 64 words;
//   - DRAM tiles are the whole tensors: Weights 3, Inputs 16 + 3 - 1 = 18, Outputs 16;
//   - Weights do not depend on P, so DRAM reads each weight once: 3 reads;
//   - consecutive Input windows overlap by R - 1 = 2 words, so DRAM reads 6 + 3 * 4 = 18.
#include "CommandLineOptions.h"
#include "EnergyBreakdownChart.h"
#include "EvaluationPanel.h"
#include "EvaluationSummaryView.h"
#include "LogDock.h"
#include "LoopNestView.h"
#include "MainWindow.h"
#include "NumberFormat.h"
#include "ProjectTreeDock.h"
#include "models/AccessCountModel.h"
#include "models/LoopNestModel.h"

#include <QFile>
#include <QImage>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTreeWidget>

using nestor::app::MainWindow;
using nestor::widgets::AccessCountModel;
using nestor::widgets::EvaluationSummaryView;
using nestor::widgets::LoopNestModel;

namespace {

QString tinyProject(int bufferWords)
{
    return QStringLiteral(R"(nestor: 1
name: tiny
workloads:
  - name: conv1d
    type: custom
    dimensions: {R: 3, P: 16}
    tensors:
      - {name: Weights, ranks: [R]}
      - {name: Inputs, ranks: ["R + P"]}
      - {name: Outputs, ranks: [P], read_write: true}
architecture:
  name: tiny-arch
  cycle_seconds: 1.0e-9
  energy_model: table
  levels:
    - name: DRAM
      technology: DRAM
      size_words: null
      word_bits: 16
      block_size: 1
      energy_pJ: {read: 100, fill: 100, update: 100, leak: 0}
    - name: Buffer
      technology: SRAM
      size_words: %1
      word_bits: 16
      block_size: 1
      energy_pJ: {read: 2, fill: 2, update: 2, leak: 0}
  compute:
    name: MAC
    instances: 4
    mesh_x: 4
    energy_pJ: 1
mappings:
  - name: tiny-map
    workload: conv1d
    levels:
      - level: DRAM
        temporal: [[P, 4]]
        keep: [Weights, Inputs, Outputs]
      - level: Buffer
        temporal: [[R, 3]]
        spatial_x: [[P, 4]]
        keep: [Weights, Inputs, Outputs]
  - name: one-mac
    workload: conv1d
    levels:
      - level: DRAM
        temporal: [[P, 16]]
      - level: Buffer
        temporal: [[R, 3]]
job:
  workload: conv1d
  mapping: tiny-map
)")
        .arg(bufferWords);
}

// Text of the loop nest row, leading indentation removed.
QString nestText(const QAbstractItemModel* m, int row, const QModelIndex& parent = {}, int column = 0)
{
    return m->index(row, column, parent).data().toString().trimmed();
}

int rowKind(const QAbstractItemModel* m, int row, const QModelIndex& parent = {})
{
    return m->index(row, 0, parent).data(LoopNestModel::RowKindRole).toInt();
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void opensProjectAndShowsEvaluation();
    void malformedYamlIsReportedAndWindowKeepsWorking();
    void importsTimeloopFiles();
    void overflowingMappingShowsErrors();
    void exportsChartAsPngAndPdf();
    void invalidEvaluationShowsDiagnostics();
    void parsesCommandLine();
    void onlyTheLatestSelectionIsShown();
    void persistsGeometryAndRecentFiles();
    void formatsFigures();

private:
    QString writeFile(const QString& name, const QString& text);
    bool openAndEvaluate(MainWindow& w, const QString& path);

    QTemporaryDir dir_;
};

void TestMainWindow::initTestCase()
{
    QVERIFY(dir_.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("NestorTests"));
}

QString TestMainWindow::writeFile(const QString& name, const QString& text)
{
    const QString path = dir_.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
    f.write(text.toUtf8());
    return path;
}

bool TestMainWindow::openAndEvaluate(MainWindow& w, const QString& path)
{
    QSignalSpy displayed(&w, &MainWindow::evaluationDisplayed);
    if (!w.openProject(path) || !w.selectMapping(QStringLiteral("tiny-map"))) return false;
    if (displayed.isEmpty() && !displayed.wait(20000)) return false;
    return !w.isEvaluating() && displayed.size() == 1;
}

void TestMainWindow::opensProjectAndShowsEvaluation()
{
    const QString path = writeFile(QStringLiteral("tiny.yaml"), tinyProject(64));
    MainWindow w;
    w.show();
    QVERIFY(openAndEvaluate(w, path));
    QCOMPARE(w.currentMapping(), QStringLiteral("tiny-map"));
    QCOMPARE(w.projectDock()->currentMapping(), QStringLiteral("tiny-map"));
    QCOMPARE(w.logDock()->errorCount(), 0);

    // Loop nest: DRAM, Buffer, MAC; loops under their level, innermost last.
    const LoopNestModel* nest = w.evaluationPanel()->loopNestView()->loopNestModel();
    QCOMPARE(nest->rowCount(), 3);
    QCOMPARE(rowKind(nest, 0), int(LoopNestModel::RowKind::Level));
    QCOMPARE(nestText(nest, 0), QStringLiteral("DRAM"));
    QCOMPARE(nestText(nest, 1), QStringLiteral("Buffer"));
    QCOMPARE(rowKind(nest, 2), int(LoopNestModel::RowKind::Compute));
    QCOMPARE(nestText(nest, 2), QStringLiteral("MAC ×4"));

    const QModelIndex dram = nest->index(0, 0);
    const QModelIndex buffer = nest->index(1, 0);
    QCOMPARE(nest->rowCount(dram), 1);
    QCOMPARE(nestText(nest, 0, dram), QStringLiteral("for P in [0:4)"));
    QCOMPARE(nest->rowCount(buffer), 2);
    QCOMPARE(nestText(nest, 0, buffer), QStringLiteral("for R in [0:3)"));
    QCOMPARE(nestText(nest, 1, buffer), QStringLiteral("par-for P in [0:4) (X)"));
    // Indentation grows with the depth in the whole nest.
    QVERIFY(nest->index(1, 0, buffer).data().toString().startsWith(QStringLiteral("    par-for")));

    // Level annotations: tile words per kept tensor and capacity use.
    QCOMPARE(nestText(nest, 0, {}, LoopNestModel::TilesColumn), QStringLiteral("W 3, I 18, O 16"));
    QCOMPARE(nestText(nest, 1, {}, LoopNestModel::TilesColumn), QStringLiteral("W 3, I 6, O 4"));
    QVERIFY2(nestText(nest, 1, {}, LoopNestModel::CapacityColumn).startsWith(QStringLiteral("13 / 64 (")),
             qPrintable(nestText(nest, 1, {}, LoopNestModel::CapacityColumn)));

    // Summary.
    const EvaluationSummaryView* summary = w.evaluationPanel()->summaryView();
    QCOMPARE(summary->metricText(EvaluationSummaryView::Metric::Macs), QStringLiteral("48"));
    QCOMPARE(summary->metricText(EvaluationSummaryView::Metric::Cycles), QStringLiteral("12"));
    QCOMPARE(summary->metricText(EvaluationSummaryView::Metric::Utilization), QLocale().toString(100.0, 'f', 1) + " %");

    // Access table: per level a totals row then its 3 tensors; then the compute row.
    const AccessCountModel* access = summary->accessCountModel();
    QCOMPARE(access->rowCount(), 9);
    auto raw = [access](int row, int column) { return access->index(row, column).data(AccessCountModel::RawValueRole); };
    QCOMPARE(access->index(0, 0).data(AccessCountModel::RowKindRole).toInt(), int(AccessCountModel::RowKind::Level));
    QCOMPARE(raw(0, AccessCountModel::NameColumn).toString(), QStringLiteral("DRAM"));
    QCOMPARE(raw(1, AccessCountModel::NameColumn).toString(), QStringLiteral("Weights"));
    QCOMPARE(raw(1, AccessCountModel::ReadsColumn).toLongLong(), 3);
    QCOMPARE(raw(2, AccessCountModel::NameColumn).toString(), QStringLiteral("Inputs"));
    QCOMPARE(raw(2, AccessCountModel::ReadsColumn).toLongLong(), 18);
    QCOMPARE(raw(4, AccessCountModel::NameColumn).toString(), QStringLiteral("Buffer"));
    QCOMPARE(raw(4, AccessCountModel::CapacityColumn).toLongLong(), 13);
    QCOMPARE(access->index(8, 0).data(AccessCountModel::RowKindRole).toInt(), int(AccessCountModel::RowKind::Compute));

    // Chart: one stack element per tensor plus the MAC bar (no leakage in this project).
    QCOMPARE(w.evaluationPanel()->energyChart()->stackElementCount(), 4);

    // Selecting the mapping in the tree evaluates it again.
    QSignalSpy displayed(&w, &MainWindow::evaluationDisplayed);
    QTreeWidget* tree = w.projectDock()->tree();
    const QList<QTreeWidgetItem*> items = tree->findItems(QStringLiteral("tiny-map"), Qt::MatchExactly | Qt::MatchRecursive);
    QCOMPARE(items.size(), 1);
    tree->setCurrentItem(nullptr);
    tree->setCurrentItem(items.first());
    QVERIFY(displayed.wait(20000));
    QCOMPARE(displayed.first().first().toString(), QStringLiteral("tiny-map"));
}

void TestMainWindow::malformedYamlIsReportedAndWindowKeepsWorking()
{
    const QString good = writeFile(QStringLiteral("tiny.yaml"), tinyProject(64));
    const QString bad = writeFile(QStringLiteral("bad.yaml"),
                                  QStringLiteral("nestor: 1\nworkloads:\n  - name: conv1d\n    type: [custom\n"));
    MainWindow w;
    w.show();
    QVERIFY(openAndEvaluate(w, good));

    QSignalSpy errors(&w, &MainWindow::errorReported);
    QVERIFY(!w.openProject(bad));
    QCOMPARE(errors.size(), 1);
    QVERIFY(w.logDock()->errorCount() >= 1);
    QVERIFY(w.logDock()->plainText().contains(QStringLiteral("bad.yaml")));
    // The message names the place: file:line:column.
    static const QRegularExpression located(QStringLiteral("bad\\.yaml:\\d+:\\d+"));
    QVERIFY2(located.match(w.lastError()).hasMatch(), qPrintable(w.lastError()));

    auto* box = w.findChild<QMessageBox*>(QStringLiteral("errorMessageBox"));
    QVERIFY(box);
    QTRY_VERIFY(box->isVisible());
    QVERIFY(box->text().contains(QStringLiteral("bad.yaml")));
    box->accept();

    // The previous project is still loaded and still evaluates.
    QVERIFY(w.project());
    QCOMPARE(QString::fromStdString(w.project()->name), QStringLiteral("tiny"));
    QVERIFY(openAndEvaluate(w, good));
    QCOMPARE(w.evaluationPanel()->summaryView()->metricText(EvaluationSummaryView::Metric::Macs), QStringLiteral("48"));

    // Unknown mapping names are errors too, not crashes.
    QVERIFY(!w.selectMapping(QStringLiteral("no-such-mapping")));
    QVERIFY(w.lastError().contains(QStringLiteral("no-such-mapping")));
}

// File > Import Timeloop Files: Timeloop's own eyeriss-like inputs (tests/data/timeloop/inputs,
// the ERT among them) become an unsaved project whose mapping shows Timeloop's 5,505,024
// cycles; a file that is not a Timeloop input is reported and the project stays.
void TestMainWindow::importsTimeloopFiles()
{
    const QString in = QStringLiteral(NESTOR_TEST_DATA_DIR "/timeloop/inputs/");
    MainWindow w;
    w.show();
    QSignalSpy displayed(&w, &MainWindow::evaluationDisplayed);
    QVERIFY(w.importTimeloopFiles({in + "eyeriss-like.arch.yaml", in + "cnn-layer-conv3_1.prob.yaml",
                                   in + "eyeriss-like-rs.map.yaml", in + "eyeriss-like.ERT.yaml"}));
    QVERIFY(displayed.wait(20000));
    QCOMPARE(w.currentMapping(), QStringLiteral("timeloop"));
    QCOMPARE(w.evaluationPanel()->summaryView()->metricText(EvaluationSummaryView::Metric::Cycles),
             QLocale().toString(qlonglong{5505024}));
    QVERIFY(w.logDock()->plainText().contains(QStringLiteral("Timeloop import")));
    QVERIFY(w.isWindowModified());

    const QString notTimeloop = writeFile(QStringLiteral("not-timeloop.yaml"), QStringLiteral("problem:\n  shape: 3\n"));
    QSignalSpy errors(&w, &MainWindow::errorReported);
    QVERIFY(!w.importTimeloopFiles({notTimeloop}));
    QCOMPARE(errors.size(), 1);
    QVERIFY2(w.lastError().contains(QStringLiteral("not-timeloop.yaml:")), qPrintable(w.lastError()));
    QCOMPARE(w.currentMapping(), QStringLiteral("timeloop"));
    QCOMPARE(QString::fromStdString(w.project()->workloads.front().workload.name), QStringLiteral("CNN_Layer"));

    // Without the ERT, the energy model chosen in the dialog gives the energies.
    QVERIFY(w.importTimeloopFiles({in + "conv1d-2level.arch.yaml", in + "conv1d.prob.yaml", in + "conv1d-2level-os.map.yaml"},
                                  QStringLiteral("interstellar-28nm")));
    QCOMPARE(QString::fromStdString(w.project()->energyModel), QStringLiteral("interstellar-28nm"));
}

void TestMainWindow::overflowingMappingShowsErrors()
{
    // Same mapping, but the Buffer holds 8 words and the tiles need 13.
    const QString path = writeFile(QStringLiteral("small-buffer.yaml"), tinyProject(8));
    MainWindow w;
    w.show();
    QVERIFY(openAndEvaluate(w, path));
    const LoopNestModel* nest = w.evaluationPanel()->loopNestView()->loopNestModel();
    QCOMPARE(rowKind(nest, 0), int(LoopNestModel::RowKind::Errors));
    QVERIFY(nest->rowCount(nest->index(0, 0)) >= 1);
    QCOMPARE(nest->rowCount(), 4);  // errors + DRAM + Buffer + MAC: the loops stay visible
    QVERIFY(w.evaluationPanel()->summaryView()->statusText().contains(QStringLiteral("invalid")));
}

void TestMainWindow::exportsChartAsPngAndPdf()
{
    const QString path = writeFile(QStringLiteral("tiny.yaml"), tinyProject(64));
    MainWindow w;
    w.show();
    QVERIFY(openAndEvaluate(w, path));
    nestor::widgets::EnergyBreakdownChart* chart = w.evaluationPanel()->energyChart();

    const QString png = dir_.filePath(QStringLiteral("energy.png"));
    const QString pdf = dir_.filePath(QStringLiteral("energy.pdf"));
    QVERIFY(chart->exportPng(png, 640, 400));
    QVERIFY(chart->exportPdf(pdf, 640, 400));

    QVERIFY(QFileInfo(png).size() > 0);
    const QImage image(png);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() >= 640);
    QFile f(pdf);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.size() > 0);
    QVERIFY(f.read(5).startsWith("%PDF"));
}

void TestMainWindow::invalidEvaluationShowsDiagnostics()
{
    // The model alone: an invalid evaluation puts its diagnostics on top.
    nestor::Workload wl;
    wl.name = "w";
    wl.dimNames = {"P"};
    wl.bounds = {4};
    wl.tensors = {nestor::Tensor{"Outputs", true, {{nestor::ProjectionTerm{0, 1}}}}};
    nestor::Architecture arch;
    arch.levels.resize(1);
    arch.levels[0].name = "DRAM";
    nestor::Mapping m;
    m.levels.resize(1);
    m.levels[0].temporal = {nestor::makeLoop(0, 3)};
    nestor::Evaluation e;
    e.valid = false;
    e.errors = {nestor::Diagnostic{"mapping.levels[0].temporal", "factors of P multiply to 3, expected 4", {}}};

    LoopNestModel model;
    model.setMapping(wl, arch, m);
    QCOMPARE(model.rowCount(), 2);  // DRAM + compute
    model.setEvaluation(e);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(rowKind(&model, 0), int(LoopNestModel::RowKind::Errors));
    const QModelIndex errors = model.index(0, 0);
    QCOMPARE(model.rowCount(errors), 1);
    QVERIFY(nestText(&model, 0, errors).contains(QStringLiteral("multiply to 3")));
    QCOMPARE(nestText(&model, 0, model.index(1, 0)), QStringLiteral("for P in [0:3)"));

    // Imperfect loops show their residual.
    m.levels[0].temporal = {nestor::makeLoop(0, 3, 1)};
    model.setMapping(wl, arch, m);
    QCOMPARE(nestText(&model, 0, model.index(0, 0)), QStringLiteral("for P in [0:3) (residual 1)"));
}

void TestMainWindow::parsesCommandLine()
{
    using nestor::app::CommandLineOptions;
    const auto o = CommandLineOptions::parse({QStringLiteral("nestor"), QStringLiteral("p.yaml"), QStringLiteral("--mapping"),
                                              QStringLiteral("m1"), QStringLiteral("--screenshot"), QStringLiteral("out.png")});
    QCOMPARE(o.action, CommandLineOptions::Action::Run);
    QCOMPARE(o.projectPath, QStringLiteral("p.yaml"));
    QCOMPARE(o.mapping, QStringLiteral("m1"));
    QCOMPARE(o.screenshotPath, QStringLiteral("out.png"));

    const auto bogus = CommandLineOptions::parse({QStringLiteral("nestor"), QStringLiteral("--bogus")});
    QCOMPARE(bogus.action, CommandLineOptions::Action::UsageError);
    QVERIFY(bogus.message.contains(QStringLiteral("bogus")));
    const auto noProject = CommandLineOptions::parse({QStringLiteral("nestor"), QStringLiteral("--mapping"), QStringLiteral("m")});
    QCOMPARE(noProject.action, CommandLineOptions::Action::UsageError);
    const auto help = CommandLineOptions::parse({QStringLiteral("nestor"), QStringLiteral("--help")});
    QCOMPARE(help.action, CommandLineOptions::Action::ShowHelp);
    QVERIFY(help.message.contains(QStringLiteral("--screenshot")));
    const auto sized = CommandLineOptions::parse({QStringLiteral("nestor"), QStringLiteral("--size"), QStringLiteral("1366x768")});
    QCOMPARE(sized.action, CommandLineOptions::Action::Run);
    QCOMPARE(sized.windowSize, QSize(1366, 768));
    for (const char* bad : {"1366", "0x768", "1366x", "axb", "100000x768"}) {
        const auto o2 = CommandLineOptions::parse({QStringLiteral("nestor"), QStringLiteral("--size"), QString::fromLatin1(bad)});
        QCOMPARE(o2.action, CommandLineOptions::Action::UsageError);
        QVERIFY(o2.message.contains(QStringLiteral("--size")));
    }
}

void TestMainWindow::onlyTheLatestSelectionIsShown()
{
    const QString path = writeFile(QStringLiteral("tiny.yaml"), tinyProject(64));
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(path));
    QSignalSpy displayed(&w, &MainWindow::evaluationDisplayed);
    // Both evaluations start before either result can be delivered (that needs the event loop).
    QVERIFY(w.selectMapping(QStringLiteral("tiny-map")));
    QVERIFY(w.selectMapping(QStringLiteral("one-mac")));
    QVERIFY(w.isEvaluating());
    QVERIFY(displayed.wait(20000));
    QThreadPool::globalInstance()->waitForDone();
    QCoreApplication::processEvents();  // deliver whatever the first evaluation reported
    QCOMPARE(displayed.size(), 1);
    QCOMPARE(displayed.first().first().toString(), QStringLiteral("one-mac"));
    QCOMPARE(w.evaluationPanel()->summaryView()->metricText(EvaluationSummaryView::Metric::Cycles), QStringLiteral("48"));
    const LoopNestModel* nest = w.evaluationPanel()->loopNestView()->loopNestModel();
    QCOMPARE(nestText(nest, 0, nest->index(0, 0)), QStringLiteral("for P in [0:16)"));
}

void TestMainWindow::persistsGeometryAndRecentFiles()
{
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir_.filePath(QStringLiteral("settings")));
    const QString path = writeFile(QStringLiteral("tiny.yaml"), tinyProject(64));
    {
        MainWindow w;
        w.usePersistentSettings();
        w.show();
        w.resize(1300, 820);
        QVERIFY(w.openProject(path));
        w.close();
    }
    MainWindow again;
    again.usePersistentSettings();
    QCOMPARE(again.size(), QSize(1300, 820));
    QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList().value(0), QFileInfo(path).absoluteFilePath());
}

void TestMainWindow::formatsFigures()
{
    namespace fmt = nestor::widgets::NumberFormat;
    const QLocale previous;
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QCOMPARE(fmt::count(924844032), QStringLiteral("924,844,032"));
    QCOMPARE(fmt::energy(6.719e9), QStringLiteral("6.719 mJ"));
    QCOMPARE(fmt::energy(291.3), QStringLiteral("291.3 pJ"));
    QCOMPARE(fmt::energy(0.0), QStringLiteral("0 pJ"));
    QCOMPARE(fmt::area(45678.0), QStringLiteral("45,678 µm²"));
    QCOMPARE(fmt::area(1.389e6), QStringLiteral("1.389 mm²"));
    QCOMPARE(fmt::percent(1.0), QStringLiteral("100.0 %"));
    QCOMPARE(fmt::decimal(7.0), QStringLiteral("7.000"));
    QCOMPARE(fmt::decimal(2.5e-5).toLower(), QStringLiteral("2.500e-05"));
    QLocale::setDefault(previous);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
