#include "GuiLauncher.h"


#include "CommandLineOptions.h"
#include "CompareView.h"
#include "EvaluationPanel.h"
#include "MainWindow.h"
#include "NetworkView.h"
#include "ScreenshotController.h"
#include "search/SearchPanel.h"
#include "simulator/SimulatorView.h"
#include "solver/SolverView.h"

#include <QApplication>
#include <QSize>
#include <QStringList>
#include <QTextStream>

#include <memory>

namespace nestor::app {

namespace {
constexpr int kUsageError = 1;
constexpr int kOpenError = 2;
constexpr QSize kScreenshotSize(1760, 1000);
void showView(MainWindow& window, const QString& view)
{
    EvaluationPanel* panel = window.evaluationPanel();
    if (view == QLatin1String("roofline")) panel->showChart(EvaluationPanel::Chart::Roofline);
    if (view == QLatin1String("capacity")) panel->showChart(EvaluationPanel::Chart::Capacity);
    if (view == QLatin1String("dataflow")) window.showTab(MainWindow::Tab::Dataflow);
    if (view == QLatin1String("layers")) window.showTab(MainWindow::Tab::Layers);
    if (view == QLatin1String("architecture")) window.showTab(MainWindow::Tab::Architecture);
    if (view == QLatin1String("compare")) {
        window.showTab(MainWindow::Tab::Compare);
        for (const ProjectMapping& m : window.project()->mappings)
            if (window.compareView()->pinCount() < 3) window.compareView()->pin(QString::fromStdString(m.mapping.name));
    }
    if (view == QLatin1String("network")) {
        window.showTab(MainWindow::Tab::Network);
        window.networkView()->start();
    }
    if (view == QLatin1String("simulator")) {
        window.showTab(MainWindow::Tab::Simulator);
        window.simulatorView()->runVector(QStringLiteral(NESTOR_EXAMPLES_DIR "/vta/double-buffer.json"));
    }
    if (view == QLatin1String("simulator-network")) {
        window.showTab(MainWindow::Tab::Simulator);
        window.simulatorView()->runResNet18(224);
    }
    if (view == QLatin1String("simulator-roofline")) {
        window.showTab(MainWindow::Tab::Simulator);
        SimulatorView* simulator = window.simulatorView();
        // After the run, which shows its layer table.
        QObject::connect(simulator, &SimulatorView::finished, simulator,
                         [simulator] { simulator->showDetail(SimulatorView::Detail::Roofline); });
        simulator->runResNet18(224);
    }
    if (view == QLatin1String("simulator-sweep")) {
        window.showTab(MainWindow::Tab::Simulator);
        window.simulatorView()->runSweep(224);
    }
    if (view == QLatin1String("solver")) {
        // Every design of the job's layer: the fixed architecture, its co-design, the single one.
        window.showTab(MainWindow::Tab::Solver);
        window.solverView()->run();
    }
    if (view == QLatin1String("search")) {
        // Small finished searches of the default layer in the PFM and Ruby-S mapspaces (random
        // sampling and annealing), one curve each, as the Ruby paper's Fig. 7.
        window.showTab(MainWindow::Tab::Search);
        SearchPanel* search = window.searchPanel();
        SearchSettings s = search->settings();
        s.mapspaces = {QStringLiteral("pfm"), QStringLiteral("ruby-s")};
        s.evaluationBudget = 5000;
        s.victoryCondition = 0;
        s.algorithm = QStringLiteral("random");
        search->setSettings(s);
        search->run();
        s.algorithm = QStringLiteral("annealing");
        search->setSettings(s);
        search->run();
    }
}

} // namespace

int launchGui(int& argc, char** argv)
{
    // --help and --version answer before QApplication exists, so they need no display.
    QStringList rawArguments;
    for (int i = 0; i < argc; ++i) rawArguments << QString::fromLocal8Bit(argv[i]);
    const CommandLineOptions early = CommandLineOptions::parse(rawArguments);
    if (early.action == CommandLineOptions::Action::ShowHelp || early.action == CommandLineOptions::Action::ShowVersion) {
        QTextStream(stdout) << early.message;
        return 0;
    }

    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Nestor"));
    QApplication::setApplicationName(QStringLiteral("nestor"));
    // Matches packaging/org.nestor.Nestor.desktop so desktops group the window with its entry.
    QGuiApplication::setDesktopFileName(QStringLiteral("org.nestor.Nestor"));
    QApplication::setApplicationDisplayName(QStringLiteral("Nestor"));
    QApplication::setApplicationVersion(QStringLiteral(NESTOR_VERSION));

    // Parsed again without the Qt options (-platform, -style ...) that QApplication took.
    const CommandLineOptions options = CommandLineOptions::parse(QApplication::arguments());
    if (options.action != CommandLineOptions::Action::Run) {
        QTextStream(stderr) << "nestor: " << options.message << "\nTry 'nestor --help'.\n";
        return kUsageError;
    }
    const bool screenshot = !options.screenshotPath.isEmpty();

    MainWindow window;
    if (screenshot)
        window.resize(options.windowSize.isValid() ? options.windowSize : kScreenshotSize);  // the same picture on any screen
    else {
        window.usePersistentSettings();
        window.enableAutosave();
    }
    std::unique_ptr<ScreenshotController> shooter;
    if (screenshot) shooter = std::make_unique<ScreenshotController>(&window, options.screenshotPath);
    window.show();

    if (!startWorkbench(window, options, recoveryChooserFor(options, window)) && screenshot) {
        QTextStream(stderr) << "nestor: " << window.lastError() << "\n";
        return kOpenError;
    }
    if (shooter) shooter->start();
    return app.exec();
}

bool startWorkbench(MainWindow& window, const CommandLineOptions& options, const RecoveryChooser& choose)
{
    bool opened = true;
    if (!options.projectPath.isEmpty()) {
        opened = window.openProject(options.projectPath);
        if (opened && !options.mapping.isEmpty())
            opened = window.selectMapping(options.mapping);
        else if (opened)
            window.selectDefaultMapping();  // a project without mappings is fine
    }
    const bool screenshot = !options.screenshotPath.isEmpty();
    if (opened || !screenshot) showView(window, options.view);  // interactively the window reports the failure
    // Screenshots show the files as given and leave the recovery folder alone.
    if (!screenshot) offerRecoveries(window, choose);
    return opened;
}

RecoveryChooser recoveryChooserFor(const CommandLineOptions& options, MainWindow& window)
{
    if (options.recover == QLatin1String("restore")) return fixedRecoveryChooser(RecoveryChoice::Restore);
    if (options.recover == QLatin1String("keep")) return fixedRecoveryChooser(RecoveryChoice::Keep);
    if (options.recover == QLatin1String("discard")) return fixedRecoveryChooser(RecoveryChoice::Discard);
    return recoveryDialogChooser(&window);
}

} // namespace nestor::app
