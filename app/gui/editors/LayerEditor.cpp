#include "LayerEditor.h"

#include "ProjectCommands.h"
#include "ProjectDocument.h"
#include "io/ProjectYaml.h"
#include "models/LayerTableModel.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSpinBox>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <climits>
#include <exception>

namespace nestor::app {

namespace {

using widgets::LayerTableModel;

// Editors that only accept valid values: a list of types, positive integers.
class LayerDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        if (index.column() == LayerTableModel::Type) {
            auto* box = new QComboBox(parent);
            box->addItems(LayerTableModel::types());
            return box;
        }
        if (index.column() > LayerTableModel::Type) {
            auto* spin = new QSpinBox(parent);
            spin->setRange(1, INT_MAX);
            return spin;
        }
        return QStyledItemDelegate::createEditor(parent, option, index);
    }
    void setEditorData(QWidget* editor, const QModelIndex& index) const override
    {
        if (auto* box = qobject_cast<QComboBox*>(editor)) box->setCurrentText(index.data(Qt::EditRole).toString());
        else if (auto* spin = qobject_cast<QSpinBox*>(editor)) spin->setValue(int(index.data(Qt::EditRole).toLongLong()));
        else QStyledItemDelegate::setEditorData(editor, index);
    }
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override
    {
        if (auto* box = qobject_cast<QComboBox*>(editor)) model->setData(index, box->currentText());
        else if (auto* spin = qobject_cast<QSpinBox*>(editor)) model->setData(index, qlonglong(spin->value()));
        else QStyledItemDelegate::setModelData(editor, model, index);
    }
};

} // namespace

QString LayerEditor::examplesDirectory()
{
    const QStringList candidates{QStringLiteral(NESTOR_EXAMPLES_DIR),
                                 QCoreApplication::applicationDirPath() + QStringLiteral("/../share/nestor/examples")};
    for (const QString& c : candidates)
        if (QDir(c).exists()) return QDir(c).absolutePath();
    return {};
}

LayerEditor::LayerEditor(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), model_(new LayerTableModel(this)), table_(new QTableView(this)),
      message_(new QLabel(this)), presets_(new QToolButton(this))
{
    auto* bar = new QToolBar(this);
    bar->addAction(tr("Add layer"), this, [this] {
        LayerSpec spec;
        spec.type = "conv";
        spec.conv.M = spec.conv.C = 16;
        spec.conv.P = spec.conv.Q = 14;
        spec.conv.R = spec.conv.S = 3;
        QString name;
        for (int n = int(document_->project().workloads.size()) + 1;; ++n) {
            name = QStringLiteral("layer%1").arg(n);
            if (!document_->project().findWorkload(name.toStdString())) break;
        }
        report(commands::addWorkload(*document_, name, spec));
    });
    bar->addAction(tr("Remove"), this, [this] { report(commands::removeWorkload(*document_, currentRow())); });
    bar->addAction(tr("Duplicate"), this, [this] { report(commands::duplicateWorkload(*document_, currentRow())); });
    presets_->setText(tr("Add preset"));
    presets_->setPopupMode(QToolButton::InstantPopup);
    presets_->setMenu(new QMenu(presets_));
    connect(presets_->menu(), &QMenu::aboutToShow, this, &LayerEditor::fillPresetMenu);
    bar->addWidget(presets_);

    table_->setModel(model_);
    table_->setItemDelegate(new LayerDelegate(table_));
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed | QAbstractItemView::AnyKeyPressed);

    message_->setWordWrap(true);
    message_->setStyleSheet(QStringLiteral("color: #b00020;"));
    message_->setObjectName(QStringLiteral("layerEditorMessage"));

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(bar);
    layout->addWidget(table_, 1);
    layout->addWidget(message_);

    connect(model_, &LayerTableModel::editRequested, this, [this](int row, const QString& name, const LayerSpec& spec) {
        report(commands::setWorkload(*document_, row, name, spec));
    });
    connect(model_, &LayerTableModel::editRejected, this, &LayerEditor::report);
    connect(document_, &ProjectDocument::changed, this, [this](const ProjectChange& change) {
        if (change.touchesWorkloads()) refresh();
    });
    connect(document_, &ProjectDocument::contentReset, this, &LayerEditor::refresh);
    refresh();
}

QString LayerEditor::message() const
{
    return message_->text();
}

void LayerEditor::refresh()
{
    const int row = currentRow();
    model_->setLayers(document_->project().workloads);
    if (row >= 0 && row < model_->rowCount()) table_->selectRow(row);
}

void LayerEditor::report(const QString& error)
{
    message_->setText(error);
    if (!error.isEmpty()) emit editRejected(error);
}

int LayerEditor::currentRow() const
{
    const QModelIndex i = table_->currentIndex();
    return i.isValid() ? i.row() : -1;
}

void LayerEditor::fillPresetMenu()
{
    QMenu* menu = presets_->menu();
    menu->clear();
    const QString dir = examplesDirectory();
    if (dir.isEmpty()) {
        menu->addAction(tr("(no examples folder found)"))->setEnabled(false);
        return;
    }
    for (const QString& file : QDir(dir).entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name)) {
        Project p;
        try {
            p = readProject(QDir(dir).filePath(file).toStdString());
        } catch (const std::exception&) {
            continue;
        }
        QMenu* sub = menu->addMenu(file);
        for (const ProjectWorkload& pw : p.workloads) {
            if (pw.spec.type == "custom") continue;
            const QString name = QString::fromStdString(pw.workload.name);
            const LayerSpec spec = pw.spec;
            sub->addAction(name, this, [this, name, spec] {
                QString unique = name;
                for (int n = 2; document_->project().findWorkload(unique.toStdString()); ++n) unique = QStringLiteral("%1_%2").arg(name).arg(n);
                report(commands::addWorkload(*document_, unique, spec));
            });
        }
    }
}

} // namespace nestor::app
