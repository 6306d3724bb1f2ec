#pragma once
// The Layers tab: the project's workloads as an editable table (LayerTableModel) with
// inline validation (spin boxes for sizes, a list of types, red message for rejected
// edits), Add / Remove / Duplicate, and presets: any layer of the bundled examples.
#include <QWidget>

class QLabel;
class QTableView;
class QToolButton;

namespace nestor::widgets {
class LayerTableModel;
}

namespace nestor::app {

class ProjectDocument;

class LayerEditor : public QWidget {
    Q_OBJECT
public:
    LayerEditor(ProjectDocument* document, QWidget* parent = nullptr);

    widgets::LayerTableModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    QString message() const;
    static QString examplesDirectory();

signals:
    void editRejected(const QString& reason);

private:
    void refresh();
    void report(const QString& error);
    int currentRow() const;
    void fillPresetMenu();

    ProjectDocument* document_;
    widgets::LayerTableModel* model_;
    QTableView* table_;
    QLabel* message_;
    QToolButton* presets_;
};

} // namespace nestor::app
