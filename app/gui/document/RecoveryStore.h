#pragma once
// The recovery folder, <AppDataLocation>/recovery/: one entry per open document with unsaved
// changes, three files named by a random id:
//   <id>.yaml  the project at its last autosave (written atomically)
//   <id>.json  the sidecar: original path ("" = untitled), pid and id of the writing instance,
//              host, time of the autosave (written atomically, before the project)
//   <id>.lock  a QLockFile held by the instance editing the document for as long as it lives
// An entry whose lock no live process holds is an orphan: its instance crashed, or quit
// leaving unsaved changes. claimOrphans() locks the orphans for this process and hands them
// out to be restored or discarded; a live instance's entry is never handed out (QLockFile
// holds flock() on its file, and a lock left by a dead pid is stale and taken over).
#include "core/Project.h"

#include <QDateTime>
#include <QString>

#include <memory>
#include <string>
#include <vector>

class QLockFile;

namespace nestor::app {

struct RecoveryInfo {
    QString id;
    QString origin;     // the file the document came from; "" = untitled
    qint64 pid = 0;     // of the instance that wrote it
    QString instance;   // that instance's id (RecoveryStore::instanceId())
    QString host;
    QDateTime savedAt;  // the last autosave (UTC); invalid if the sidecar is missing or unreadable
};

class RecoveryStore {
public:
    explicit RecoveryStore(QString directory = defaultDirectory());

    static QString defaultDirectory();  // <AppDataLocation>/recovery
    static QString instanceId();        // random, one per process
    static QString newId();             // random, one per document

    QString directory() const { return directory_; }
    QString projectFile(const QString& id) const;  // <id>.yaml
    QString sidecarFile(const QString& id) const;  // <id>.json
    QString lockFile(const QString& id) const;     // <id>.lock

    // An unlocked QLockFile for the entry; age never makes it stale, only a dead owner does
    // (a window may stay open for days).
    std::unique_ptr<QLockFile> lockFor(const QString& id) const;
    // Writes the sidecar, then the project, each atomically. Throws NestorError naming the file.
    void write(const QString& id, const QString& origin, const std::string& projectYaml) const;
    // Removes the project and the sidecar (the lock is its owner's to release).
    void remove(const QString& id) const;
    RecoveryInfo readInfo(const QString& id) const;
    bool exists(const QString& id) const;

    // Earlier versions kept one recovery.yaml (+ recovery.origin) beside this folder for all
    // instances; if one is there, it becomes an entry (and the old files go), so it is offered too.
    void importLegacy() const;

    class Claim;
    // Every entry whose lock this process could take, newest first. Lock files left without a
    // project (a crash between locking and the first write) are removed on the way.
    std::vector<Claim> claimOrphans() const;

private:
    QString directory_;
};

// One orphaned entry, locked by this process until the claim is dropped: restore it
// (AutosaveController::adopt keeps the lock) or discard it. Dropping it unlocks and leaves the
// files for a later start.
class RecoveryStore::Claim {
public:
    Claim(RecoveryStore store, RecoveryInfo info, std::unique_ptr<QLockFile> lock);
    Claim(Claim&&) noexcept;
    Claim& operator=(Claim&&) noexcept;
    ~Claim();

    const RecoveryInfo& info() const { return info_; }
    const RecoveryStore& store() const { return store_; }
    QString projectFile() const { return store_.projectFile(info_.id); }
    // Reads the recovered project; throws NestorError with the file:line:column on bad content.
    Project readProject() const;
    void discard();                           // removes the files and the lock
    std::unique_ptr<QLockFile> takeLock();    // for adopting the entry

private:
    RecoveryStore store_;
    RecoveryInfo info_;
    std::unique_ptr<QLockFile> lock_;
};

using RecoveryClaim = RecoveryStore::Claim;

} // namespace nestor::app
