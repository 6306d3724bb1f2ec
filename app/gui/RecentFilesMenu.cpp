#include "RecentFilesMenu.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace nestor::app {

namespace {
const QString kKey = QStringLiteral("recentFiles");
constexpr int kMaxFiles = 10;
} // namespace

RecentFilesMenu::RecentFilesMenu(QWidget* parent) : QMenu(tr("Open &Recent"), parent)
{
    connect(this, &QMenu::aboutToShow, this, &RecentFilesMenu::rebuild);
    rebuild();
}

QStringList RecentFilesMenu::files() const
{
    return QSettings().value(kKey).toStringList();
}

void RecentFilesMenu::store(const QStringList& files)
{
    QSettings().setValue(kKey, files);
}

void RecentFilesMenu::addFile(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMaxFiles) list.removeLast();
    store(list);
}

void RecentFilesMenu::rebuild()
{
    QMenu::clear();
    const QStringList list = files();
    int n = 0;
    for (const QString& path : list) {
        const QString shown = QDir::toNativeSeparators(path).replace(QLatin1Char('&'), QStringLiteral("&&"));
        const QString label = QStringLiteral("&%1 %2").arg(++n % 10).arg(shown);
        QAction* action = addAction(label, this, [this, path] { emit fileTriggered(path); });
        action->setEnabled(QFileInfo::exists(path));
    }
    if (list.isEmpty()) addAction(tr("(none)"))->setEnabled(false);
    addSeparator();
    QAction* clearAction = addAction(tr("Clear List"), this, [this] { store({}); });
    clearAction->setEnabled(!list.isEmpty());
}

} // namespace nestor::app
