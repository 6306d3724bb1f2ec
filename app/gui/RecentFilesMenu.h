#pragma once
// File > Open Recent: the last opened project files, kept in QSettings.
#include <QMenu>
#include <QStringList>

namespace nestor::app {

class RecentFilesMenu : public QMenu {
    Q_OBJECT
public:
    explicit RecentFilesMenu(QWidget* parent = nullptr);

    void addFile(const QString& path);   // moves it to the top; persists
    QStringList files() const;

signals:
    void fileTriggered(const QString& path);

private:
    void rebuild();
    void store(const QStringList& files);
};

} // namespace nestor::app
