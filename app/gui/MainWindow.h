#pragma once
// The workbench window: the project document (undo stack, save, autosave), File / Edit /
// View / Help menus, the project tree and log docks, and the central tabs: the mapping
// (loop nest, figures, roofline), layers, architecture, compare and network. The mapping being
// looked at and its live evaluation are a MappingSession (session/MappingSession.h); the
// window wires it to the panels.
#include "RecoveryStore.h"
#include "core/Project.h"

#include <QMainWindow>
#include <QPointer>

class QLabel;
class QMessageBox;
class QProgressBar;
class QTabWidget;
class QTimer;

namespace nestor::app {

class ArchitectureEditor;
class AutosaveController;
class CompareView;
class EvaluationPanel;
class MappingSession;
class JobsDock;
class PropertiesDock;
class SearchPanel;
class SimulatorView;
class SolverView;
class DataflowStudyPanel;
class DataflowTab;
class LayerEditor;
class LogDock;
class NetworkView;
class ProjectDocument;
class ProjectTreeDock;
class RecentFilesMenu;
struct EvaluationResult;
struct ProjectChange;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum class Tab { Mapping, Dataflow, Layers, Architecture, Compare, Network, Search, Simulator, Solver };

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Reads the project; on failure reports the error (log + message box), keeps the
    // current project and returns false.
    bool openProject(const QString& path);
    bool reloadProject();
    void newProject();
    bool saveProject();                          // asks for a name when the project has none
    bool saveProjectAs(const QString& path);
    // Timeloop's problem / architecture / mapping / ERT files become a new, unsaved project (the
    // caller offers to save the current one first); on failure reports the error located in the
    // files, keeps the current project and returns false.
    // `energyModel` as nestor-cli import-timeloop --energy-model takes it (with an ERT: table).
    bool importTimeloopFiles(const QStringList& paths, const QString& energyModel = QStringLiteral("table"));
    // Shows the mapping's loop nest and starts its evaluation; false if there is no such mapping.
    bool selectMapping(const QString& name);
    // The project's job default, or its first mapping; false if it has none.
    bool selectDefaultMapping();
    // Writes the current evaluation as CSV or JSON (by the file's suffix).
    bool exportResults(const QString& path);

    // Autosave every `intervalMs` while modified, to this window's own recovery entry (see
    // AutosaveController.h); RecoveryOffer.h offers the entries of ended sessions back.
    void enableAutosave(int intervalMs = 10000);
    AutosaveController* autosave() const { return autosave_; }
    // Shows a recovered project (read from `claim`) as an unsaved document with its original
    // path; with autosave the entry becomes this window's. False (nothing changes) if this
    // window has unsaved changes of its own.
    bool restoreRecovery(RecoveryClaim claim, Project project);

    bool isEvaluating() const;
    const Project* project() const;
    ProjectDocument* document() const { return document_; }
    QString currentMapping() const;
    MappingSession* session() const { return session_; }
    QString lastError() const { return lastError_; }

    // Restores geometry, dock layout and splitters now, and saves them (and the recent
    // files) from then on. Without this call the window leaves QSettings alone.
    void usePersistentSettings();
    bool hasPersistentSettings() const { return persistent_; }

    // Logs the error, shows it in the status bar and a (window-modal) message box.
    void reportError(const QString& summary, const QString& details);

    void showTab(Tab tab);
    QTabWidget* tabs() const { return tabs_; }
    EvaluationPanel* evaluationPanel() const { return panel_; }
    LayerEditor* layerEditor() const { return layerEditor_; }
    ArchitectureEditor* architectureEditor() const { return archEditor_; }
    CompareView* compareView() const { return compareView_; }
    NetworkView* networkView() const { return networkView_; }
    ProjectTreeDock* projectDock() const { return projectDock_; }
    LogDock* logDock() const { return logDock_; }
    SearchPanel* searchPanel() const { return searchPanel_; }
    SimulatorView* simulatorView() const { return simulatorView_; }
    SolverView* solverView() const { return solverView_; }
    DataflowStudyPanel* dataflowStudyPanel() const { return dataflowStudy_; }
    DataflowTab* dataflowTab() const { return dataflowTab_; }
    JobsDock* jobsDock() const { return jobsDock_; }
    PropertiesDock* propertiesDock() const { return propertiesDock_; }

signals:
    void evaluationDisplayed(const QString& mappingName);
    void errorReported(const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void createMenus();
    void connectEditing();
    void openWithDialog();
    void importTimeloopWithDialog();
    bool timeloopFilesGiveEnergies(const QStringList& paths) const;
    bool saveWithDialog();
    void exportResultsWithDialog();
    bool maybeSave();
    bool confirmReload();
    void openAndShowDefault(const QString& path);
    void evaluateMapping(const QString& name);
    void connectSession();
    void onDocumentReset();
    void onDocumentChanged(const ProjectChange& change);
    void onEvaluationFinished(const EvaluationResult& result);
    void showProperties(const QString& kind, const QString& name);
    void reportEditError(const QString& error);
    void setBusy(bool busy, const QString& message = {});
    void saveSettings() const;
    void updateTitle();

    ProjectDocument* document_;
    AutosaveController* autosave_ = nullptr;
    QString lastError_;
    bool persistent_ = false;
    bool docksSized_ = false;  // narrowed for a small window on first show, or restored

    QTabWidget* tabs_;
    EvaluationPanel* panel_;
    LayerEditor* layerEditor_;
    ArchitectureEditor* archEditor_;
    CompareView* compareView_;
    NetworkView* networkView_;
    ProjectTreeDock* projectDock_;
    LogDock* logDock_;
    SearchPanel* searchPanel_;
    SimulatorView* simulatorView_;
    SolverView* solverView_;
    DataflowStudyPanel* dataflowStudy_;
    JobsDock* jobsDock_;
    PropertiesDock* propertiesDock_;
    MappingSession* session_;
    DataflowTab* dataflowTab_;
    RecentFilesMenu* recentMenu_ = nullptr;
    QAction* reloadAction_ = nullptr;
    QLabel* statusLabel_;
    QProgressBar* busyIndicator_;
    QPointer<QMessageBox> errorBox_;
};

} // namespace nestor::app
