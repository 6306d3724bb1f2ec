#pragma once
// The project's layers as a table: name, type, N M C P Q R S, strides, dilations, groups.
// GEMM layers show M, N and K in the M, N and C columns; fc layers batch, out and in
// features in N, M and C. Cells a type does not use are empty and read-only; custom
// layers are read-only. An edit does not change the model: it emits editRequested with
// the whole new layer, and the owner applies it (or reports why not) and sets the layers again.
#include "core/Project.h"

#include <QAbstractTableModel>

#include <vector>

namespace nestor::widgets {

class LayerTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Type, N, M, C, P, Q, R, S, StrideH, StrideW, DilationH, DilationW, Groups, ColumnCount };

    explicit LayerTableModel(QObject* parent = nullptr);

    void setLayers(const std::vector<ProjectWorkload>& layers);
    static QStringList types();   // editable types
    // Value of a column in a spec; false when the type does not use the column.
    static bool value(const LayerSpec& spec, int column, std::int64_t* out);
    static bool setValue(LayerSpec& spec, int column, std::int64_t v);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

signals:
    void editRequested(int row, const QString& name, const nestor::LayerSpec& spec);
    void editRejected(const QString& reason);

private:
    std::vector<ProjectWorkload> layers_;
};

} // namespace nestor::widgets
