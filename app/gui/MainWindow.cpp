#include "MainWindow.h"

#include "ArchitectureEditor.h"
#include "AutosaveController.h"
#include "CompareView.h"
#include "EnergyBreakdownChart.h"
#include "EvaluationPanel.h"
#include "EvaluationRunner.h"
#include "LayerEditor.h"
#include "LogDock.h"
#include "LoopNestView.h"
#include "MappingSession.h"
#include "NetworkView.h"
#include "OnnxImportAction.h"
#include "NumberFormat.h"
#include "ProjectCommands.h"
#include "ProjectDocument.h"
#include "ProjectTreeDock.h"
#include "RecentFilesMenu.h"
#include "PropertiesDock.h"
#include "RooflineChart.h"
#include "jobs/JobsDock.h"
#include "search/SearchPanel.h"
#include "simulator/SimulatorView.h"
#include "solver/DataflowStudyPanel.h"
#include "solver/SolverView.h"
#include "teaching/DataflowTab.h"
#include "io/AtomicFile.h"
#include "io/ProjectYaml.h"
#include "io/ResultsExport.h"
#include "io/TimeloopImport.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>

#include <algorithm>
#include <exception>

namespace nestor::app {

namespace {
const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
const QString kPanelKey = QStringLiteral("mainWindow/evaluationPanel");
const QString kTabKey = QStringLiteral("mainWindow/tab");
const QString kLastDirKey = QStringLiteral("mainWindow/lastDirectory");
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      document_(new ProjectDocument(this)),
      tabs_(new QTabWidget(this)),
      panel_(new EvaluationPanel(this)),
      layerEditor_(new LayerEditor(document_, this)),
      archEditor_(new ArchitectureEditor(document_, this)),
      compareView_(new CompareView(document_, this)),
      networkView_(new NetworkView(document_, this)),
      projectDock_(new ProjectTreeDock(this)),
      logDock_(new LogDock(this)),
      searchPanel_(new SearchPanel(document_, this)),
      simulatorView_(new SimulatorView(this)),
      solverView_(new SolverView(document_, this)),
      dataflowStudy_(new DataflowStudyPanel(document_, this)),
      jobsDock_(new JobsDock(this)),
      propertiesDock_(new PropertiesDock(this)),
      session_(new MappingSession(document_, this)),
      dataflowTab_(new DataflowTab(session_, this)),
      statusLabel_(new QLabel(this)),
      busyIndicator_(new QProgressBar(this))
{
    tabs_->setObjectName(QStringLiteral("centralTabs"));
    tabs_->addTab(panel_, tr("Mapping"));
    tabs_->addTab(dataflowTab_, tr("Dataflow"));
    tabs_->addTab(layerEditor_, tr("Layers"));
    tabs_->addTab(archEditor_, tr("Architecture"));
    tabs_->addTab(compareView_, tr("Compare"));
    tabs_->addTab(networkView_, tr("Network"));
    tabs_->addTab(searchPanel_, tr("Search"));
    tabs_->addTab(simulatorView_, tr("Simulator"));
    auto* solvers = new QTabWidget;
    solvers->addTab(solverView_, tr("Thistle co-design"));
    solvers->addTab(dataflowStudy_, tr("Dataflows (Interstellar)"));
    tabs_->addTab(solvers, tr("Solver"));
    tabs_->setDocumentMode(true);
    setCentralWidget(tabs_);
    addDockWidget(Qt::LeftDockWidgetArea, projectDock_);
    addDockWidget(Qt::BottomDockWidgetArea, logDock_);
    splitDockWidget(projectDock_, propertiesDock_, Qt::Vertical);
    splitDockWidget(logDock_, jobsDock_, Qt::Horizontal);
    resizeDocks({projectDock_}, {190}, Qt::Horizontal);
    resizeDocks({logDock_}, {120}, Qt::Vertical);
    resizeDocks({logDock_, jobsDock_}, {700, 360}, Qt::Horizontal);
    searchPanel_->setJobsDock(jobsDock_);
    simulatorView_->setJobsDock(jobsDock_);
    solverView_->setJobsDock(jobsDock_);
    solverView_->setCompareView(compareView_);
    dataflowStudy_->setJobsDock(jobsDock_);
    dataflowStudy_->setCompareView(compareView_);

    busyIndicator_->setRange(0, 0);
    busyIndicator_->setMaximumWidth(160);
    busyIndicator_->setVisible(false);
    statusBar()->addWidget(statusLabel_, 1);
    statusBar()->addPermanentWidget(busyIndicator_);

    createMenus();
    connectEditing();
    connect(projectDock_, &ProjectTreeDock::mappingActivated, this, &MainWindow::evaluateMapping);
    connectSession();
    connect(document_, &ProjectDocument::contentReset, this, &MainWindow::onDocumentReset);
    connect(document_, &ProjectDocument::changed, this, &MainWindow::onDocumentChanged);
    connect(document_, &ProjectDocument::commandFailed, this, &MainWindow::reportEditError);
    connect(document_, &ProjectDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(document_, &ProjectDocument::pathChanged, this, &MainWindow::updateTitle);
    connect(compareView_, &CompareView::message, logDock_, &LogDock::info);
    connect(networkView_, &NetworkView::message, logDock_, &LogDock::info);
    networkView_->setJobsDock(jobsDock_);
    connect(searchPanel_, &SearchPanel::message, logDock_, &LogDock::info);
    connect(simulatorView_, &SimulatorView::message, logDock_, &LogDock::info);
    connect(solverView_, &SolverView::message, logDock_, &LogDock::info);
    connect(dataflowStudy_, &DataflowStudyPanel::message, logDock_, &LogDock::info);
    connect(dataflowTab_, &DataflowTab::message, logDock_, &LogDock::info);
    connect(searchPanel_, &SearchPanel::mappingAdded, this, [this](const QString& name) {
        if (selectMapping(name)) showTab(Tab::Mapping);
    });
    connect(solverView_, &SolverView::mappingOpened, this, [this](const QString& name) {
        if (selectMapping(name)) showTab(Tab::Mapping);
    });
    connect(searchPanel_, &SearchPanel::compareRequested, this,
            [this](const QString& label, const Workload& w, const Architecture& a, const Mapping& m) {
                compareView_->pinValue({label, w, a, m});
            });
    connect(projectDock_, &ProjectTreeDock::objectSelected, this, &MainWindow::showProperties);

    // 90 % of the screen, within 1280 x 800 .. 1800 x 1100 but never larger than the screen
    // (a 1366 x 768 laptop gets all of it); saved geometry overrides it.
    const QSize available = screen() ? screen()->availableSize() : QSize(1600, 1000);
    resize(std::min(available.width(), std::clamp(available.width() * 9 / 10, 1280, 1800)),
           std::min(available.height(), std::clamp(available.height() * 9 / 10, 800, 1100)));
    updateTitle();
    statusLabel_->setText(tr("Open a project (File > Open) to start."));
}

MainWindow::~MainWindow()
{
    if (autosave_) autosave_->flush();  // the latest edits, before the lock goes
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (docksSized_) return;
    docksSized_ = true;
    // The project and properties docks: on a small screen narrow, to give the Mapping tab's tables
    // room. Queued: the dock layout takes its first geometry after the show event on some
    // platforms (offscreen).
    QMetaObject::invokeMethod(this, [this] {
        resizeDocks({projectDock_}, {width() < 1600 ? std::clamp(width() / 8, 180, 260) : 300}, Qt::Horizontal);
    }, Qt::QueuedConnection);
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QToolBar* toolBar = addToolBar(tr("Main"));
    toolBar->setObjectName(QStringLiteral("mainToolBar"));

    QAction* newAction = file->addAction(style()->standardIcon(QStyle::SP_FileIcon), tr("&New Project"), this, [this] {
        if (maybeSave()) newProject();
    });
    newAction->setShortcut(QKeySequence::New);
    QAction* open = file->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open Project…"), this,
                                    &MainWindow::openWithDialog);
    open->setShortcut(QKeySequence::Open);
    toolBar->addAction(open);
    file->addAction(tr("&Import Timeloop Files…"), this, &MainWindow::importTimeloopWithDialog);
    file->addAction(tr("Import &ONNX Network…"), this, [this] {
        importOnnxWithDialog(this, *document_, *logDock_, [this](const QString& network) {
            // Its layers have no mappings yet: the Network tab offers Find Mappings.
            networkView_->selectNetwork(network);
            showTab(Tab::Network);
        });
    });

    recentMenu_ = new RecentFilesMenu(this);
    file->addMenu(recentMenu_);
    connect(recentMenu_, &RecentFilesMenu::fileTriggered, this, [this](const QString& path) {
        if (maybeSave()) openAndShowDefault(path);
    });

    reloadAction_ = file->addAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("&Reload Project"), this,
                                    [this] {
                                        if (confirmReload()) reloadProject();
                                    });
    reloadAction_->setShortcut(QKeySequence::Refresh);
    reloadAction_->setEnabled(false);

    file->addSeparator();
    QAction* save = file->addAction(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save"), this,
                                    [this] { saveProject(); });
    save->setShortcut(QKeySequence::Save);
    toolBar->addAction(save);
    QAction* saveAs = file->addAction(tr("Save &As…"), this, [this] { saveWithDialog(); });
    saveAs->setShortcut(QKeySequence::SaveAs);

    file->addSeparator();
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    exportMenu->addAction(tr("Results as CSV or JSON…"), this, &MainWindow::exportResultsWithDialog);
    exportMenu->addAction(tr("Energy chart…"), this, [this] { panel_->energyChart()->exportWithDialog(); });
    exportMenu->addAction(tr("Roofline chart…"), this, [this] { panel_->rooflineChart()->exportWithDialog(); });

    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = document_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    QAction* redo = document_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    redo->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    edit->addAction(undo);
    edit->addAction(redo);
    toolBar->addSeparator();
    toolBar->addAction(undo);
    toolBar->addAction(redo);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(projectDock_->toggleViewAction());
    view->addAction(logDock_->toggleViewAction());
    view->addAction(jobsDock_->toggleViewAction());
    view->addAction(propertiesDock_->toggleViewAction());
    view->addAction(toolBar->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Nestor"), this, [this] {
        QMessageBox::about(this, tr("About Nestor"),
                           tr("<b>Nestor</b> %1<br>A workbench for designing DNN accelerators: loop-nest cost model, "
                              "mapspace search and co-design.")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::connectEditing()
{
    widgets::LoopNestView* nest = panel_->loopNestView();
    nest->setEditable(true);
    connect(nest, &widgets::LoopNestView::factorEditRequested, this,
            [this](int level, LoopKind kind, int index, qint64 bound, qint64 residual) {
                if (bound < 0) {
                    reportEditError(tr("A factor is a positive number, or bound/residual such as 16/5."));
                    return;
                }
                reportEditError(commands::setLoopFactor(*document_, {session_->current(), level, kind, index}, bound, residual));
            });
    connect(nest, &widgets::LoopNestView::loopMoveRequested, this, [this](int level, LoopKind kind, int index, int delta) {
        reportEditError(commands::moveLoop(*document_, {session_->current(), level, kind, index}, delta));
    });
    connect(nest, &widgets::LoopNestView::keepChangeRequested, this, [this](int level, int tensor, bool keep) {
        reportEditError(commands::setKeep(*document_, session_->current(), level, tensor, keep));
    });
    connect(nest, &widgets::LoopNestView::loopRelocateRequested, this,
            [this](int level, LoopKind kind, int index, int toLevel, LoopKind toKind) {
                reportEditError(commands::relocateLoop(*document_, {session_->current(), level, kind, index}, toLevel, toKind));
            });
    connect(nest, &widgets::LoopNestView::loopPlaceRequested, this,
            [this](int level, LoopKind kind, int index, int toLevel, LoopKind toKind, int toIndex) {
                reportEditError(commands::relocateLoop(*document_, {session_->current(), level, kind, index}, toLevel, toKind, toIndex));
            });
    connect(nest, &widgets::LoopNestView::loopAddRequested, this, [this](int level, LoopKind kind, int dim) {
        reportEditError(commands::addLoop(*document_, session_->current(), level, kind, dim));
    });
    connect(nest, &widgets::LoopNestView::loopRemoveRequested, this, [this](int level, LoopKind kind, int index) {
        reportEditError(commands::removeLoop(*document_, {session_->current(), level, kind, index}));
    });
    connect(nest, &widgets::LoopNestView::repairRequested, this, [this] {
        QString repaired;
        const QString error = commands::repairMapping(*document_, session_->current(), &repaired);
        reportEditError(error);
        if (error.isEmpty()) logDock_->info(tr("Repaired the factors of %1 in %2").arg(repaired, session_->current()));
    });
    connect(layerEditor_, &LayerEditor::editRejected, this, &MainWindow::reportEditError);
    connect(archEditor_, &ArchitectureEditor::editRejected, this, &MainWindow::reportEditError);
}

void MainWindow::reportEditError(const QString& error)
{
    if (error.isEmpty()) {
        panel_->clearEditError();
        return;
    }
    panel_->showEditError(error);
    logDock_->warning(tr("Edit rejected: %1").arg(error));
    statusLabel_->setText(tr("Edit rejected: %1").arg(error.section(QLatin1Char('\n'), 0, 0)));
    lastError_ = error;
}

void MainWindow::openWithDialog()
{
    if (!maybeSave()) return;
    const QString dir = persistent_ ? QSettings().value(kLastDirKey).toString() : QString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Nestor project"), dir,
                                                      tr("Nestor projects (*.yaml *.yml);;All files (*)"));
    if (path.isEmpty()) return;
    if (persistent_) QSettings().setValue(kLastDirKey, QFileInfo(path).absolutePath());
    openAndShowDefault(path);
}

// Timeloop's problem / architecture / mapping files (and an ERT, as one of them) become a new,
// unsaved project; the import's warnings go to the log.
void MainWindow::importTimeloopWithDialog()
{
    if (!maybeSave()) return;
    const QString dir = persistent_ ? QSettings().value(kLastDirKey).toString() : QString();
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Import Timeloop files (problem, architecture, mapping, ERT)"), dir,
        tr("Timeloop inputs (*.yaml *.yml *.cfg);;All files (*)"));
    if (paths.isEmpty()) return;
    if (persistent_) QSettings().setValue(kLastDirKey, QFileInfo(paths.first()).absolutePath());
    QString model = QStringLiteral("table");
    if (!timeloopFilesGiveEnergies(paths)) {
        // Without Accelergy's table every energy would be 0: offer Nestor's models instead.
        const QStringList choices = {tr("none (every energy 0)"), QStringLiteral("interstellar-28nm"), QStringLiteral("thistle-45nm")};
        bool ok = false;
        const QString choice = QInputDialog::getItem(this, tr("Import Timeloop Files"),
                                                     tr("No ERT among the files. Energies from:"), choices, 1, false, &ok);
        if (!ok) return;
        if (choice != choices.first()) model = choice;
    }
    importTimeloopFiles(paths, model);
}

// True when the files hold an ERT, or cannot be read (the import then reports why).
bool MainWindow::timeloopFilesGiveEnergies(const QStringList& paths) const
{
    std::vector<std::string> files;
    for (const QString& p : paths) files.push_back(p.toStdString());
    try {
        return importTimeloop(files, TimeloopImportOptions{}).ertGiven;
    } catch (const NestorError&) {
        return true;
    }
}

bool MainWindow::importTimeloopFiles(const QStringList& paths, const QString& energyModel)
{
    std::vector<std::string> files;
    for (const QString& p : paths) files.push_back(p.toStdString());
    TimeloopImportOptions options;
    options.energyModel = energyModel.toStdString();
    TimeloopImport imported;
    try {
        imported = importTimeloop(files, options);
    } catch (const NestorError& e) {
        reportError(tr("Cannot import the Timeloop files"), QString::fromStdString(e.what()));
        return false;
    }
    document_->reset(std::move(imported.project), QString(), true);
    reloadAction_->setEnabled(false);
    logDock_->info(tr("Timeloop import: %1").arg(QString::fromStdString(imported.summary())));
    for (const auto& w : imported.warnings) logDock_->warning(QString::fromStdString(w));
    selectDefaultMapping();
    return true;
}

void MainWindow::openAndShowDefault(const QString& path)
{
    if (openProject(path)) selectDefaultMapping();
}

bool MainWindow::openProject(const QString& path)
{
    QString error;
    if (!document_->load(path, &error)) {
        reportError(tr("Cannot open %1").arg(QDir::toNativeSeparators(path)), error);
        return false;
    }
    reloadAction_->setEnabled(true);
    if (persistent_) recentMenu_->addFile(path);
    const Project& p = document_->project();
    logDock_->info(tr("Opened %1: %n workload(s)", nullptr, int(p.workloads.size())).arg(QDir::toNativeSeparators(path)) +
                   tr(", %n mapping(s)", nullptr, int(p.mappings.size())));
    statusLabel_->setText(p.mappings.empty() ? tr("The project has no mappings.") : tr("Choose a mapping in the project tree."));
    return true;
}

void MainWindow::newProject()
{
    document_->reset(ProjectDocument::emptyProject(), QString());
    reloadAction_->setEnabled(false);
    logDock_->info(tr("New project"));
}

bool MainWindow::reloadProject()
{
    if (document_->path().isEmpty()) return false;
    const QString mapping = session_->current();
    if (!openProject(document_->path())) return false;
    if (!mapping.isEmpty() && document_->project().findMapping(mapping.toStdString())) selectMapping(mapping);
    return true;
}

bool MainWindow::saveProject()
{
    if (document_->path().isEmpty()) return saveWithDialog();
    return saveProjectAs(document_->path());
}

bool MainWindow::saveProjectAs(const QString& path)
{
    QString error;
    if (!document_->saveAs(path, &error)) {
        reportError(tr("Cannot save %1").arg(QDir::toNativeSeparators(path)), error);
        return false;
    }
    if (persistent_) recentMenu_->addFile(path);
    logDock_->info(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    statusLabel_->setText(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool MainWindow::saveWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Nestor project"), document_->path(),
                                                      tr("Nestor projects (*.yaml *.yml)"));
    if (path.isEmpty()) return false;
    return saveProjectAs(path.endsWith(QStringLiteral(".yaml")) || path.endsWith(QStringLiteral(".yml")) ? path : path + ".yaml");
}

bool MainWindow::maybeSave()
{
    if (!document_->isModified()) return true;
    const auto answer = QMessageBox::warning(this, tr("Nestor"), tr("%1 has unsaved changes.").arg(document_->displayName()),
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save) return saveProject();
    if (answer != QMessageBox::Discard) return false;
    if (autosave_) autosave_->discard();  // thrown away on purpose: nothing to recover
    return true;
}

bool MainWindow::confirmReload()
{
    if (!document_->isModified()) return true;
    const auto answer = QMessageBox::warning(this, tr("Nestor"),
                                             tr("Reloading discards the unsaved changes to %1.").arg(document_->displayName()),
                                             QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Discard) return false;
    if (autosave_) autosave_->discard();
    return true;
}

bool MainWindow::exportResults(const QString& path)
{
    const Evaluation* e = panel_->lastValidEvaluation();
    if (!e) {
        reportError(tr("Nothing to export"), tr("No valid evaluation is shown."));
        return false;
    }
    const Project& p = document_->project();
    const ProjectMapping* pm = p.findMapping(session_->current().toStdString());
    const ResultsMeta meta{p.name, pm ? pm->workload : std::string(), session_->current().toStdString(), p.architecture.name};
    try {
        const bool json = path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive);
        writeFileAtomically(path.toStdString(), json ? evaluationToJson(*e, meta) : evaluationToCsv(*e, meta));
    } catch (const std::exception& ex) {
        reportError(tr("Cannot export to %1").arg(QDir::toNativeSeparators(path)), QString::fromStdString(ex.what()));
        return false;
    }
    logDock_->info(tr("Exported results to %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

void MainWindow::exportResultsWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export results"), QString(),
                                                      tr("CSV (*.csv);;JSON (*.json)"));
    if (!path.isEmpty()) exportResults(path);
}

void MainWindow::enableAutosave(int intervalMs)
{
    if (autosave_) return;
    autosave_ = new AutosaveController(document_, intervalMs, this);
    connect(autosave_, &AutosaveController::writeFailed, this,
            [this](const QString& error) { logDock_->warning(tr("Autosave failed: %1").arg(error)); });
}

bool MainWindow::restoreRecovery(RecoveryClaim claim, Project project)
{
    if (document_->isModified()) {
        lastError_ = tr("%1 has unsaved changes; the recovery goes to another window.").arg(document_->displayName());
        return false;
    }
    const QString origin = claim.info().origin;
    project.path = origin.toStdString();
    if (autosave_) autosave_->adopt(std::move(claim));  // else the claim unlocks here and its files stay
    document_->reset(std::move(project), origin, true);
    if (autosave_) autosave_->writeNow();  // the entry now names this instance
    reloadAction_->setEnabled(!origin.isEmpty());
    logDock_->warning(tr("Restored unsaved changes to %1 from a session that ended without saving.")
                          .arg(origin.isEmpty() ? document_->displayName() : QDir::toNativeSeparators(origin)));
    selectDefaultMapping();
    return true;
}

const Project* MainWindow::project() const
{
    return &document_->project();
}

bool MainWindow::selectMapping(const QString& name)
{
    if (!document_->project().findMapping(name.toStdString())) {
        reportError(tr("No mapping named \"%1\"").arg(name), tr("The project does not define it."));
        return false;
    }
    projectDock_->setCurrentMapping(name);
    evaluateMapping(name);
    return true;
}

bool MainWindow::selectDefaultMapping()
{
    const ProjectMapping* pm = document_->project().selectMapping();
    return pm && selectMapping(QString::fromStdString(pm->mapping.name));
}

bool MainWindow::isEvaluating() const
{
    return session_->isEvaluating();
}

QString MainWindow::currentMapping() const
{
    return session_->current();
}

void MainWindow::evaluateMapping(const QString& name)
{
    session_->select(name);
}

void MainWindow::connectSession()
{
    connect(session_, &MappingSession::selected, this,
            [this](const QString& name, const QString& title, const Workload& w, const Architecture& a, const Mapping& m) {
                panel_->clearEditError();
                panel_->showPending(title, w, a, m);
                compareView_->setCurrentMapping(name);
                projectDock_->setCurrentMapping(name);
                propertiesDock_->showObject(document_->project(), QStringLiteral("mapping"), name);  // its figures follow when evaluated
                setBusy(true, tr("Evaluating %1…").arg(name));
            });
    connect(session_, &MappingSession::edited, this, [this](const Workload& w, const Architecture& a, const Mapping& m) {
        panel_->showEdited(w, a, m);
    });
    connect(session_, &MappingSession::evaluationStarted, this, [this] { setBusy(true); });
    connect(session_, &MappingSession::evaluated, this, &MainWindow::onEvaluationFinished);
    connect(session_, &MappingSession::cleared, this, [this] {
        setBusy(false);
        panel_->clear();
    });
    connect(session_, &MappingSession::failed, this, &MainWindow::reportError);
}

void MainWindow::onDocumentReset()
{
    setBusy(false);
    panel_->clearEditError();
    jobsDock_->clearFinished();  // the views discard their running jobs themselves
    projectDock_->setProject(document_->project());
    propertiesDock_->clear();
    panel_->clear();
    updateTitle();
}

void MainWindow::onDocumentChanged(const ProjectChange& change)
{
    panel_->clearEditError();  // an accepted edit, an undo or a redo: the last rejection is history
    if (change.changesStructure()) {
        projectDock_->setProject(document_->project());
        projectDock_->setCurrentMapping(session_->current());
    }
    // A mapping's figures follow its re-evaluation.
    if (const QString kind = propertiesDock_->currentKind(), name = propertiesDock_->currentName();
        !kind.isEmpty() && change.touchesObject(kind, name))
        propertiesDock_->showObject(document_->project(), kind, name);
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
            statusLabel_->setText(panel_->isShowingStale()
                                      ? tr("%1 is not a valid mapping; the last valid figures stay (marked *).").arg(result.mappingName)
                                      : tr("%1 is not a valid mapping.").arg(result.mappingName));
        }
    }
    if (propertiesDock_->currentKind() == QLatin1String("mapping") && propertiesDock_->currentName() == session_->current())
        propertiesDock_->showObject(document_->project(), QStringLiteral("mapping"), session_->current(),
                                    result.failure.isEmpty() && result.evaluation.valid ? &result.evaluation : nullptr);
    emit evaluationDisplayed(result.mappingName);
}

void MainWindow::showProperties(const QString& kind, const QString& name)
{
    const bool current = kind == QLatin1String("mapping") && name == session_->current() && !isEvaluating();
    const Evaluation* e = current && !panel_->isShowingStale() ? panel_->lastValidEvaluation() : nullptr;
    propertiesDock_->showObject(document_->project(), kind, name, e);
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
    setWindowModified(document_->isModified());
    if (document_->path().isEmpty() && document_->project().mappings.empty() && document_->project().workloads.empty()) {
        setWindowTitle(tr("Nestor[*]"));
        return;
    }
    setWindowTitle(tr("%1[*] — Nestor").arg(document_->displayName()));
}

void MainWindow::showTab(Tab tab)
{
    tabs_->setCurrentIndex(int(tab));
}

void MainWindow::usePersistentSettings()
{
    persistent_ = true;
    const QSettings settings;
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    docksSized_ = restoreState(settings.value(kStateKey).toByteArray());
    panel_->restoreState(settings.value(kPanelKey).toByteArray());
    tabs_->setCurrentIndex(settings.value(kTabKey, 0).toInt());
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
    settings.setValue(kPanelKey, panel_->saveState());
    settings.setValue(kTabKey, tabs_->currentIndex());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (persistent_ && !maybeSave()) {
        event->ignore();
        return;
    }
    if (persistent_) saveSettings();
    // Unsaved changes still here (a window without the prompt, or a session ending) stay in the
    // recovery entry, up to date, for the next start.
    if (autosave_) autosave_->flush();
    QMainWindow::closeEvent(event);
}

} // namespace nestor::app
