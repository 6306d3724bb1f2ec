#pragma once
// Autosave of one document: while it has unsaved changes, writes it every few seconds to its own
// entry of the recovery folder (see RecoveryStore.h: <id>.yaml, sidecar <id>.json, both atomic)
// and holds the entry's lock (<id>.lock) as long as the controller lives, so no other instance
// offers it while this one runs. The entry is removed only when the document becomes clean
// (saved, or undone back to its saved state) or on an explicit discard(); destroying the
// controller with unsaved changes (quit, crash) leaves it to be offered at the next start.
#include "RecoveryStore.h"

#include <QObject>
#include <QString>

#include <memory>

class QLockFile;
class QTimer;

namespace nestor::app {

class ProjectDocument;

class AutosaveController : public QObject {
    Q_OBJECT
public:
    explicit AutosaveController(ProjectDocument* document, int intervalMs = 10000, QObject* parent = nullptr,
                                RecoveryStore store = RecoveryStore());
    ~AutosaveController() override;

    int intervalMs() const;
    const RecoveryStore& store() const { return store_; }
    QString id() const { return id_; }
    QString recoveryFile() const { return store_.projectFile(id_); }
    bool hasRecovery() const { return store_.exists(id_); }

    // Writes the document now if it has unsaved changes; false if that failed (see lastError).
    bool writeNow();
    // writeNow() if there are edits not written yet (an explicit discard counts as written).
    bool flush();
    // The user threw the changes away: removes the entry and its lock.
    void discard();
    // A restored entry becomes this document's: its id and its lock (held by the claim) are
    // taken over, so further autosaves replace it. Any entry of this controller is discarded.
    void adopt(RecoveryClaim claim);
    QString lastError() const { return lastError_; }

signals:
    void writeFailed(const QString& error);

private:
    void onModifiedChanged(bool modified);

    ProjectDocument* document_;
    QTimer* timer_;
    RecoveryStore store_;
    QString id_;
    std::unique_ptr<QLockFile> lock_;  // taken at the first write
    bool dirty_ = false;               // changed since the last write
    QString lastError_;
};

} // namespace nestor::app
