#pragma once
// Autosave: while the document has unsaved changes, writes it every few seconds
// (atomically) to a recovery file in QStandardPaths::AppDataLocation, with the path of the
// file it came from beside it. A clean document (saved, or closed on purpose) removes the
// recovery file, so one that still exists at the next start means the last session ended
// without saving: the window offers it back (see MainWindow::offerRecovery).
#include <QObject>
#include <QString>

class QTimer;

namespace nestor::app {

class ProjectDocument;

class AutosaveController : public QObject {
    Q_OBJECT
public:
    explicit AutosaveController(ProjectDocument* document, int intervalMs = 10000, QObject* parent = nullptr);

    static QString recoveryFilePath();        // <AppDataLocation>/recovery.yaml
    static QString recoveryOriginPath();      // the original path of the recovered project ("" = untitled)
    static bool recoveryExists();
    static void discardRecovery();

    bool writeNow();                           // false if writing failed (reported by lastError)
    QString lastError() const { return lastError_; }

private:
    void onModifiedChanged(bool modified);

    ProjectDocument* document_;
    QTimer* timer_;
    QString lastError_;
};

} // namespace nestor::app
