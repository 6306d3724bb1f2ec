#pragma once
// The workbench window: File menu (open, recent, reload, quit), the project tree and log
// docks, and the evaluation panel. Choosing a mapping evaluates it in the background.
#include "io/Project.h"

#include <QMainWindow>
#include <QPointer>

#include <optional>

class QLabel;
class QMessageBox;
class QProgressBar;

namespace nestor::app {

class EvaluationPanel;
class EvaluationRunner;
class LogDock;
class ProjectTreeDock;
class RecentFilesMenu;
struct EvaluationResult;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Reads the project; on failure reports the error (log + message box), keeps the
    // current project and returns false.
    bool openProject(const QString& path);
    bool reloadProject();
    // Shows the mapping's loop nest and starts its evaluation; false if there is no such mapping.
    bool selectMapping(const QString& name);
    // The project's job default, or its first mapping; false if it has none.
    bool selectDefaultMapping();

    bool isEvaluating() const;
    const Project* project() const { return project_ ? &*project_ : nullptr; }
    QString currentMapping() const { return currentMapping_; }
    QString lastError() const { return lastError_; }

    // Restores geometry, dock layout and splitters now, and saves them (and the recent
    // files) from then on. Without this call the window leaves QSettings alone.
    void usePersistentSettings();

    EvaluationPanel* evaluationPanel() const { return panel_; }
    ProjectTreeDock* projectDock() const { return projectDock_; }
    LogDock* logDock() const { return logDock_; }

signals:
    void evaluationDisplayed(const QString& mappingName);
    void errorReported(const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();
    void openWithDialog();
    void openAndShowDefault(const QString& path);
    void evaluateMapping(const QString& name);
    void onEvaluationFinished(const EvaluationResult& result);
    void reportError(const QString& summary, const QString& details);
    void setBusy(bool busy, const QString& message = {});
    void saveSettings() const;
    void updateTitle();

    std::optional<Project> project_;
    QString projectPath_;
    QString currentMapping_;
    QString lastError_;
    bool persistent_ = false;

    EvaluationPanel* panel_;
    ProjectTreeDock* projectDock_;
    LogDock* logDock_;
    EvaluationRunner* runner_;
    RecentFilesMenu* recentMenu_ = nullptr;
    QAction* reloadAction_ = nullptr;
    QLabel* statusLabel_;
    QProgressBar* busyIndicator_;
    QPointer<QMessageBox> errorBox_;
};

} // namespace nestor::app
