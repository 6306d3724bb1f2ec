#include "AutosaveController.h"

#include "ProjectDocument.h"
#include "io/ProjectYaml.h"

#include <QDir>
#include <QLockFile>
#include <QTimer>

#include <exception>

namespace nestor::app {

namespace {
QString lockErrorText(QLockFile::LockError e)
{
    switch (e) {
    case QLockFile::LockFailedError: return AutosaveController::tr("held by another process");
    case QLockFile::PermissionError: return AutosaveController::tr("permission denied");
    case QLockFile::UnknownError: break;
    case QLockFile::NoError: break;
    }
    return AutosaveController::tr("unknown error");
}
} // namespace

AutosaveController::AutosaveController(ProjectDocument* document, int intervalMs, QObject* parent, RecoveryStore store)
    : QObject(parent), document_(document), timer_(new QTimer(this)), store_(std::move(store)), id_(RecoveryStore::newId())
{
    timer_->setInterval(intervalMs);
    connect(timer_, &QTimer::timeout, this, &AutosaveController::flush);
    connect(document_, &ProjectDocument::modifiedChanged, this, &AutosaveController::onModifiedChanged);
    connect(document_, &ProjectDocument::changed, this, [this] { dirty_ = true; });
    connect(document_, &ProjectDocument::contentReset, this, [this] { dirty_ = true; });
    if (document_->isModified()) onModifiedChanged(true);
}

// The lock is released (its file removed); the entry's files stay for the next start.
AutosaveController::~AutosaveController() = default;

int AutosaveController::intervalMs() const
{
    return timer_->interval();
}

bool AutosaveController::writeNow()
{
    if (!document_->isModified()) return true;
    if (!lock_) {
        QDir().mkpath(store_.directory());
        auto lock = store_.lockFor(id_);
        if (!lock->tryLock(0)) {
            lastError_ = tr("Cannot lock the recovery file %1: %2")
                             .arg(QDir::toNativeSeparators(store_.lockFile(id_)), lockErrorText(lock->error()));
            emit writeFailed(lastError_);
            return false;
        }
        lock_ = std::move(lock);
    }
    try {
        store_.write(id_, document_->path(), writeProject(document_->project()));
    } catch (const std::exception& e) {
        lastError_ = QString::fromStdString(e.what());
        emit writeFailed(lastError_);
        return false;
    }
    dirty_ = false;
    return true;
}

bool AutosaveController::flush()
{
    return !dirty_ || writeNow();
}

void AutosaveController::discard()
{
    store_.remove(id_);
    lock_.reset();
    dirty_ = false;  // until the next edit; the timer keeps running while the document is modified
}

void AutosaveController::adopt(RecoveryClaim claim)
{
    discard();
    store_ = claim.store();
    id_ = claim.info().id;
    lock_ = claim.takeLock();
    if (document_->isModified()) timer_->start();
}

void AutosaveController::onModifiedChanged(bool modified)
{
    if (modified) {
        dirty_ = true;
        timer_->start();
    } else {
        timer_->stop();
        discard();  // saved, or back at the saved state: the file on disk holds it all
    }
}

} // namespace nestor::app
