#include "models/LayerTableModel.h"

#include <QColor>

namespace nestor::widgets {

LayerTableModel::LayerTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void LayerTableModel::setLayers(const std::vector<ProjectWorkload>& layers)
{
    beginResetModel();
    layers_ = layers;
    endResetModel();
}

QStringList LayerTableModel::types()
{
    return {QStringLiteral("conv"), QStringLiteral("depthwise"), QStringLiteral("grouped"), QStringLiteral("gemm"), QStringLiteral("fc")};
}

bool LayerTableModel::value(const LayerSpec& spec, int column, std::int64_t* out)
{
    const ConvParams& c = spec.conv;
    if (spec.type == "gemm") {
        switch (column) {
        case M: *out = spec.gemmM; return true;
        case N: *out = spec.gemmN; return true;
        case C: *out = spec.gemmK; return true;
        default: return false;
        }
    }
    if (spec.type == "fc") {
        switch (column) {
        case N: *out = spec.fcBatch; return true;
        case M: *out = spec.fcOut; return true;
        case C: *out = spec.fcIn; return true;
        default: return false;
        }
    }
    if (spec.type != "conv" && spec.type != "grouped" && spec.type != "depthwise") return false;
    const bool dw = spec.type == "depthwise";
    switch (column) {
    case N: *out = c.N; return true;
    case M: *out = c.M; return !dw;
    case C: *out = c.C; return true;
    case P: *out = c.P; return true;
    case Q: *out = c.Q; return true;
    case R: *out = c.R; return true;
    case S: *out = c.S; return true;
    case StrideH: *out = c.strideH; return true;
    case StrideW: *out = c.strideW; return true;
    case DilationH: *out = c.dilationH; return true;
    case DilationW: *out = c.dilationW; return true;
    case Groups: *out = c.groups; return spec.type == "grouped";
    default: return false;
    }
}

bool LayerTableModel::setValue(LayerSpec& spec, int column, std::int64_t v)
{
    std::int64_t dummy = 0;
    if (!value(spec, column, &dummy)) return false;
    ConvParams& c = spec.conv;
    if (spec.type == "gemm") {
        (column == M ? spec.gemmM : column == N ? spec.gemmN : spec.gemmK) = v;
        return true;
    }
    if (spec.type == "fc") {
        (column == N ? spec.fcBatch : column == M ? spec.fcOut : spec.fcIn) = v;
        return true;
    }
    std::int64_t* fields[] = {nullptr, nullptr, &c.N, &c.M, &c.C, &c.P, &c.Q, &c.R, &c.S,
                              &c.strideH, &c.strideW, &c.dilationH, &c.dilationW, &c.groups};
    *fields[column] = v;
    return true;
}

int LayerTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(layers_.size());
}

int LayerTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LayerTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid()) return {};
    const ProjectWorkload& pw = layers_[std::size_t(index.row())];
    const int col = index.column();
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        if (col == Name) return QString::fromStdString(pw.workload.name);
        if (col == Type) return QString::fromStdString(pw.spec.type);
        std::int64_t v = 0;
        if (value(pw.spec, col, &v)) return role == Qt::EditRole ? QVariant(qlonglong(v)) : QVariant(QString::number(v));
        return {};
    }
    if (role == Qt::ToolTipRole) {
        QString dims;
        for (int d = 0; d < pw.workload.numDims(); ++d)
            dims += QStringLiteral("%1=%2 ").arg(QString::fromStdString(pw.workload.dimNames[std::size_t(d)])).arg(pw.workload.bounds[std::size_t(d)]);
        return tr("%1 (%2): %3\n%4 MACs").arg(QString::fromStdString(pw.workload.name), QString::fromStdString(pw.spec.type), dims.trimmed()).arg(pw.workload.macs());
    }
    if (role == Qt::BackgroundRole && !(flags(index) & Qt::ItemIsEditable)) return QColor(0xF0, 0xF0, 0xF0);
    if (role == Qt::TextAlignmentRole && col > Type) return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant LayerTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o == Qt::Vertical) return role == Qt::DisplayRole ? QVariant(section + 1) : QVariant();
    static const char* names[] = {"Name", "Type", "N", "M", "C", "P", "Q", "R", "S", "Stride H", "Stride W", "Dilation H", "Dilation W", "Groups"};
    if (role == Qt::DisplayRole) return tr(names[section]);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case N: return tr("Batch (fc: batch; gemm: N)");
        case M: return tr("Output channels (fc: out features; gemm: M)");
        case C: return tr("Input channels (fc: in features; gemm: K)");
        case Groups: return tr("Groups of a grouped convolution (C and M are per group)");
        default: return {};
        }
    }
    return {};
}

Qt::ItemFlags LayerTableModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (!index.isValid()) return f;
    const LayerSpec& spec = layers_[std::size_t(index.row())].spec;
    if (spec.type == "custom") return f;
    std::int64_t v = 0;
    if (index.column() <= Type || value(spec, index.column(), &v)) f |= Qt::ItemIsEditable;
    return f;
}

bool LayerTableModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !index.isValid()) return false;
    const ProjectWorkload& pw = layers_[std::size_t(index.row())];
    QString name = QString::fromStdString(pw.workload.name);
    LayerSpec spec = pw.spec;
    const int col = index.column();
    if (col == Name) {
        name = value.toString().trimmed();
    } else if (col == Type) {
        spec.type = value.toString().toStdString();
        if (!types().contains(value.toString())) {
            emit editRejected(tr("Unknown layer type \"%1\".").arg(value.toString()));
            return false;
        }
    } else {
        bool ok = false;
        const qlonglong v = value.toLongLong(&ok);
        if (!ok || v < 1) {
            emit editRejected(tr("%1 must be a positive integer.").arg(headerData(col, Qt::Horizontal).toString()));
            return false;
        }
        setValue(spec, col, v);
    }
    emit editRequested(index.row(), name, spec);
    return false;
}

} // namespace nestor::widgets
