#include "AutosaveController.h"

#include "ProjectDocument.h"
#include "io/AtomicFile.h"
#include "io/ProjectYaml.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTimer>

#include <exception>

namespace nestor::app {

namespace {
QString dataDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}
QString originFile()
{
    return QDir(dataDir()).filePath(QStringLiteral("recovery.origin"));
}
} // namespace

AutosaveController::AutosaveController(ProjectDocument* document, int intervalMs, QObject* parent)
    : QObject(parent), document_(document), timer_(new QTimer(this))
{
    timer_->setInterval(intervalMs);
    connect(timer_, &QTimer::timeout, this, [this] { writeNow(); });
    connect(document_, &ProjectDocument::modifiedChanged, this, &AutosaveController::onModifiedChanged);
}

QString AutosaveController::recoveryFilePath()
{
    return QDir(dataDir()).filePath(QStringLiteral("recovery.yaml"));
}

QString AutosaveController::recoveryOriginPath()
{
    QFile f(originFile());
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll()).trimmed();
}

bool AutosaveController::recoveryExists()
{
    return QFile::exists(recoveryFilePath());
}

void AutosaveController::discardRecovery()
{
    QFile::remove(recoveryFilePath());
    QFile::remove(originFile());
}

bool AutosaveController::writeNow()
{
    if (!document_->isModified()) return true;
    try {
        QDir().mkpath(dataDir());
        writeFileAtomically(originFile().toStdString(), document_->path().toStdString() + "\n");
        writeFileAtomically(recoveryFilePath().toStdString(), writeProject(document_->project()));
    } catch (const std::exception& e) {
        lastError_ = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

void AutosaveController::onModifiedChanged(bool modified)
{
    if (modified) {
        timer_->start();
    } else {
        timer_->stop();
        discardRecovery();
    }
}

} // namespace nestor::app
