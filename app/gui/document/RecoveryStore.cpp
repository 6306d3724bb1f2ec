#include "RecoveryStore.h"

#include "io/AtomicFile.h"
#include "io/ProjectYaml.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QStandardPaths>
#include <QSysInfo>
#include <QUuid>

#include <algorithm>
#include <exception>

namespace nestor::app {

namespace {
const QString kProjectSuffix = QStringLiteral(".yaml");
const QString kSidecarSuffix = QStringLiteral(".json");
const QString kLockSuffix = QStringLiteral(".lock");
} // namespace

RecoveryStore::RecoveryStore(QString directory) : directory_(std::move(directory)) {}

QString RecoveryStore::defaultDirectory()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("recovery"));
}

QString RecoveryStore::instanceId()
{
    static const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    return id;
}

QString RecoveryStore::newId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

QString RecoveryStore::projectFile(const QString& id) const
{
    return QDir(directory_).filePath(id + kProjectSuffix);
}

QString RecoveryStore::sidecarFile(const QString& id) const
{
    return QDir(directory_).filePath(id + kSidecarSuffix);
}

QString RecoveryStore::lockFile(const QString& id) const
{
    return QDir(directory_).filePath(id + kLockSuffix);
}

std::unique_ptr<QLockFile> RecoveryStore::lockFor(const QString& id) const
{
    auto lock = std::make_unique<QLockFile>(lockFile(id));
    lock->setStaleLockTime(0);
    return lock;
}

void RecoveryStore::write(const QString& id, const QString& origin, const std::string& projectYaml) const
{
    QDir().mkpath(directory_);
    const QJsonObject sidecar{
        {QStringLiteral("origin"), origin},
        {QStringLiteral("pid"), QCoreApplication::applicationPid()},
        {QStringLiteral("instance"), instanceId()},
        {QStringLiteral("host"), QSysInfo::machineHostName()},
        {QStringLiteral("saved"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
    };
    // Sidecar first: a project file never exists without the path it belongs to.
    writeFileAtomically(sidecarFile(id).toStdString(), QJsonDocument(sidecar).toJson().toStdString());
    writeFileAtomically(projectFile(id).toStdString(), projectYaml);
}

void RecoveryStore::remove(const QString& id) const
{
    QFile::remove(projectFile(id));
    QFile::remove(sidecarFile(id));
}

bool RecoveryStore::exists(const QString& id) const
{
    return QFileInfo::exists(projectFile(id));
}

RecoveryInfo RecoveryStore::readInfo(const QString& id) const
{
    RecoveryInfo info;
    info.id = id;
    QFile f(sidecarFile(id));
    if (!f.open(QIODevice::ReadOnly)) return info;
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    info.origin = o.value(QStringLiteral("origin")).toString();
    info.pid = o.value(QStringLiteral("pid")).toInteger();
    info.instance = o.value(QStringLiteral("instance")).toString();
    info.host = o.value(QStringLiteral("host")).toString();
    info.savedAt = QDateTime::fromString(o.value(QStringLiteral("saved")).toString(), Qt::ISODateWithMs);
    return info;
}

void RecoveryStore::importLegacy() const
{
    const QDir parent = QFileInfo(directory_).dir();
    const QString legacy = parent.filePath(QStringLiteral("recovery.yaml"));
    const QString legacyOrigin = parent.filePath(QStringLiteral("recovery.origin"));
    QFile project(legacy);
    if (!project.open(QIODevice::ReadOnly)) return;
    QFile origin(legacyOrigin);
    const QString path = origin.open(QIODevice::ReadOnly) ? QString::fromUtf8(origin.readAll()).trimmed() : QString();
    try {
        write(newId(), path, project.readAll().toStdString());
    } catch (const std::exception&) {
        return;  // the old file stays where it is
    }
    project.remove();
    QFile::remove(legacyOrigin);
}

std::vector<RecoveryStore::Claim> RecoveryStore::claimOrphans() const
{
    std::vector<Claim> claims;
    const QDir dir(directory_);
    for (const QString& name : dir.entryList({QStringLiteral("*") + kLockSuffix}, QDir::Files)) {
        const QString id = name.chopped(kLockSuffix.size());
        if (exists(id)) continue;
        if (auto lock = lockFor(id); lock->tryLock(0)) QFile::remove(sidecarFile(id));  // unlocking removes the lock file
    }
    for (const QString& name : dir.entryList({QStringLiteral("*") + kProjectSuffix}, QDir::Files)) {
        const QString id = name.chopped(kProjectSuffix.size());
        auto lock = lockFor(id);
        if (!lock->tryLock(0)) continue;  // a live instance is editing it (or the folder is read-only)
        claims.emplace_back(*this, readInfo(id), std::move(lock));
    }
    std::sort(claims.begin(), claims.end(),
              [](const Claim& a, const Claim& b) { return a.info().savedAt > b.info().savedAt; });
    return claims;
}

RecoveryStore::Claim::Claim(RecoveryStore store, RecoveryInfo info, std::unique_ptr<QLockFile> lock)
    : store_(std::move(store)), info_(std::move(info)), lock_(std::move(lock))
{
}

RecoveryStore::Claim::Claim(Claim&&) noexcept = default;
RecoveryStore::Claim& RecoveryStore::Claim::operator=(Claim&&) noexcept = default;
RecoveryStore::Claim::~Claim() = default;

Project RecoveryStore::Claim::readProject() const
{
    return nestor::readProject(projectFile().toStdString());
}

void RecoveryStore::Claim::discard()
{
    store_.remove(info_.id);
    lock_.reset();
}

std::unique_ptr<QLockFile> RecoveryStore::Claim::takeLock()
{
    return std::move(lock_);
}

} // namespace nestor::app
