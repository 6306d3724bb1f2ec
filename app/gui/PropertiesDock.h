#pragma once
// The Properties dock: the properties of the object chosen in the project tree (a layer, a
// mapping or an architecture level), read-only, as a two-column table. A mapping shows its
// loops per level and, when it is the one on display, its evaluated figures.
#include "core/Project.h"
#include "model/Evaluation.h"

#include <QDockWidget>

class QLabel;
class QTableWidget;

namespace nestor::app {

class PropertiesDock : public QDockWidget {
    Q_OBJECT
public:
    explicit PropertiesDock(QWidget* parent = nullptr);

    // kind: "workload", "mapping" or "level"; false (and cleared) when it is not in the project.
    bool showObject(const Project& project, const QString& kind, const QString& name, const Evaluation* evaluation = nullptr);
    void clear();
    QString currentKind() const { return kind_; }
    QString currentName() const { return name_; }
    QString value(const QString& property) const;   // "" when absent
    QTableWidget* table() const { return table_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void add(const QString& property, const QString& value);
    // The Property column at its contents' width, but at most 45% of the table: in a narrow dock
    // (1366x768) the values stay readable; a longer name is cut, whole in its tooltip.
    void fitPropertyColumn();
    void addDataflow(const Workload& w, const Architecture& a, const Mapping& m);

    QLabel* title_;
    QTableWidget* table_;
    QString kind_, name_;
};

} // namespace nestor::app
