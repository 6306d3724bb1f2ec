#include "MainWindow.h"

#include "EvaluationPanel.h"
#include "EvaluationRunner.h"
#include "LogDock.h"
#include "NumberFormat.h"
#include "ProjectTreeDock.h"
#include "RecentFilesMenu.h"
#include "io/ProjectYaml.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

#include <algorithm>
#include <exception>

namespace nestor::app {

namespace {
const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
const QString kPanelKey = QStringLiteral("mainWindow/evaluationPanel");
const QString kLastDirKey = QStringLiteral("mainWindow/lastDirectory");
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      panel_(new EvaluationPanel(this)),
      projectDock_(new ProjectTreeDock(this)),
      logDock_(new LogDock(this)),
      runner_(new EvaluationRunner(this)),
      statusLabel_(new QLabel(this)),
      busyIndicator_(new QProgressBar(this))
{
    setCentralWidget(panel_);
    addDockWidget(Qt::LeftDockWidgetArea, projectDock_);
    addDockWidget(Qt::BottomDockWidgetArea, logDock_);
    resizeDocks({projectDock_}, {190}, Qt::Horizontal);
    resizeDocks({logDock_}, {140}, Qt::Vertical);

    busyIndicator_->setRange(0, 0);
    busyIndicator_->setMaximumWidth(160);
    busyIndicator_->setVisible(false);
    statusBar()->addWidget(statusLabel_, 1);
    statusBar()->addPermanentWidget(busyIndicator_);

    createMenus();
    connect(projectDock_, &ProjectTreeDock::mappingActivated, this, &MainWindow::evaluateMapping);
    connect(runner_, &EvaluationRunner::finished, this, &MainWindow::onEvaluationFinished);

    // 90 % of the screen, within 1280 x 800 .. 1800 x 1100; saved geometry overrides it.
    const QSize available = screen() ? screen()->availableSize() : QSize(1600, 1000);
    resize(std::clamp(available.width() * 9 / 10, 1280, 1800), std::clamp(available.height() * 9 / 10, 800, 1100));
    updateTitle();
    statusLabel_->setText(tr("Open a project (File > Open) to start."));
}

MainWindow::~MainWindow() = default;

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QToolBar* toolBar = addToolBar(tr("Main"));
    toolBar->setObjectName(QStringLiteral("mainToolBar"));

    QAction* open = file->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open Project…"), this,
                                    &MainWindow::openWithDialog);
    open->setShortcut(QKeySequence::Open);
    toolBar->addAction(open);

    recentMenu_ = new RecentFilesMenu(this);
    file->addMenu(recentMenu_);
    connect(recentMenu_, &RecentFilesMenu::fileTriggered, this, &MainWindow::openAndShowDefault);

    reloadAction_ = file->addAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("&Reload Project"), this,
                                    [this] { reloadProject(); });
    reloadAction_->setShortcut(QKeySequence::Refresh);
    reloadAction_->setEnabled(false);
    toolBar->addAction(reloadAction_);

    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(projectDock_->toggleViewAction());
    view->addAction(logDock_->toggleViewAction());
    view->addAction(toolBar->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Nestor"), this, [this] {
        QMessageBox::about(this, tr("About Nestor"),
                           tr("<b>Nestor</b> %1<br>A workbench for designing DNN accelerators: loop-nest cost model, "
                              "mapspace search and co-design.")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::openWithDialog()
{
    const QString dir = persistent_ ? QSettings().value(kLastDirKey).toString() : QString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Nestor project"), dir,
                                                      tr("Nestor projects (*.yaml *.yml);;All files (*)"));
    if (path.isEmpty()) return;
    if (persistent_) QSettings().setValue(kLastDirKey, QFileInfo(path).absolutePath());
    openAndShowDefault(path);
}

void MainWindow::openAndShowDefault(const QString& path)
{
    if (openProject(path)) selectDefaultMapping();
}

bool MainWindow::openProject(const QString& path)
{
    Project loaded;
    try {
        loaded = readProject(path.toStdString());
    } catch (const std::exception& e) {
        reportError(tr("Cannot open %1").arg(QDir::toNativeSeparators(path)), QString::fromStdString(e.what()));
        return false;
    }
    runner_->discardPending();
    setBusy(false);
    project_ = std::move(loaded);
    projectPath_ = path;
    currentMapping_.clear();
    projectDock_->setProject(*project_);
    panel_->clear();
    reloadAction_->setEnabled(true);
    if (persistent_) recentMenu_->addFile(path);
    updateTitle();
    logDock_->info(tr("Opened %1: %n workload(s)", nullptr, int(project_->workloads.size()))
                       .arg(QDir::toNativeSeparators(path)) +
                   tr(", %n mapping(s)", nullptr, int(project_->mappings.size())));
    statusLabel_->setText(project_->mappings.empty() ? tr("The project has no mappings.")
                                                     : tr("Choose a mapping in the project tree."));
    return true;
}

bool MainWindow::reloadProject()
{
    if (projectPath_.isEmpty()) return false;
    const QString mapping = currentMapping_;
    if (!openProject(projectPath_)) return false;
    if (!mapping.isEmpty() && project_->findMapping(mapping.toStdString())) selectMapping(mapping);
    return true;
}

bool MainWindow::selectMapping(const QString& name)
{
    if (!project_ || !project_->findMapping(name.toStdString())) {
        reportError(tr("No mapping named \"%1\"").arg(name),
                    project_ ? tr("The project does not define it.") : tr("No project is open."));
        return false;
    }
    projectDock_->setCurrentMapping(name);
    evaluateMapping(name);
    return true;
}

bool MainWindow::selectDefaultMapping()
{
    const ProjectMapping* pm = project_ ? project_->selectMapping() : nullptr;
    return pm && selectMapping(QString::fromStdString(pm->mapping.name));
}

bool MainWindow::isEvaluating() const
{
    return runner_->hasPendingResult();
}

void MainWindow::evaluateMapping(const QString& name)
{
    const ProjectMapping* pm = project_ ? project_->findMapping(name.toStdString()) : nullptr;
    if (!pm) return;
    const ProjectWorkload* pw = project_->findWorkload(pm->workload);
    if (!pw) {
        reportError(tr("Mapping \"%1\" maps an unknown workload").arg(name),
                    tr("No workload named \"%1\".").arg(QString::fromStdString(pm->workload)));
        return;
    }
    currentMapping_ = name;
    const QString title = QStringLiteral("%1 → %2").arg(name, QString::fromStdString(pw->workload.name));
    panel_->showPending(title, pw->workload, project_->architecture, pm->mapping);
    setBusy(true, tr("Evaluating %1…").arg(name));
    runner_->start({name, pw->workload, project_->architecture, pm->mapping});
}

void MainWindow::onEvaluationFinished(const EvaluationResult& result)
{
    setBusy(false);
    if (!result.failure.isEmpty()) {
        panel_->showFailure(result.failure);
        reportError(tr("Evaluating %1 failed").arg(result.mappingName), result.failure);
    } else {
        const Evaluation& e = result.evaluation;
        panel_->showEvaluation(e);
        if (e.valid) {
            const QString line = tr("%1: %2 cycles, %3, %4 utilization (evaluated in %5 ms)")
                                     .arg(result.mappingName, widgets::NumberFormat::count(e.cycles),
                                          widgets::NumberFormat::energy(e.energy_pJ),
                                          widgets::NumberFormat::percent(e.utilization))
                                     .arg(result.elapsed_ms);
            logDock_->info(line);
            statusLabel_->setText(line);
        } else {
            logDock_->warning(tr("%1 is not a valid mapping:").arg(result.mappingName));
            for (const Diagnostic& d : e.errors) logDock_->warning(QString::fromStdString(d.toString()));
            statusLabel_->setText(tr("%1 is not a valid mapping.").arg(result.mappingName));
        }
    }
    emit evaluationDisplayed(result.mappingName);
}

void MainWindow::reportError(const QString& summary, const QString& details)
{
    lastError_ = details.isEmpty() ? summary : summary + QLatin1Char('\n') + details;
    logDock_->error(lastError_);
    statusLabel_->setText(summary);
    if (errorBox_) errorBox_->close();
    errorBox_ = new QMessageBox(QMessageBox::Critical, tr("Nestor"), summary, QMessageBox::Ok, this);
    errorBox_->setObjectName(QStringLiteral("errorMessageBox"));
    errorBox_->setInformativeText(details);
    errorBox_->setAttribute(Qt::WA_DeleteOnClose);
    errorBox_->open();  // window-modal, does not block the event loop
    emit errorReported(lastError_);
}

void MainWindow::setBusy(bool busy, const QString& message)
{
    busyIndicator_->setVisible(busy);
    if (!message.isEmpty()) statusLabel_->setText(message);
}

void MainWindow::updateTitle()
{
    if (!project_) {
        setWindowTitle(tr("Nestor"));
        return;
    }
    const QString name = project_->name.empty() ? QFileInfo(projectPath_).completeBaseName()
                                                : QString::fromStdString(project_->name);
    setWindowTitle(tr("%1 — Nestor").arg(name));
}

void MainWindow::usePersistentSettings()
{
    persistent_ = true;
    const QSettings settings;
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    restoreState(settings.value(kStateKey).toByteArray());
    panel_->restoreState(settings.value(kPanelKey).toByteArray());
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
    settings.setValue(kPanelKey, panel_->saveState());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (persistent_) saveSettings();
    QMainWindow::closeEvent(event);
}

} // namespace nestor::app
