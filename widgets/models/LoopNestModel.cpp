#include "models/LoopNestModel.h"

#include "ItemRoles.h"
#include "NumberFormat.h"
#include "common/FieldPath.h"

#include <QApplication>
#include <QColor>
#include <QFont>
#include <QFontDatabase>
#include <QRegularExpression>
#include <QSet>
#include <QStringList>
#include <QStyle>

namespace nestor::widgets {

namespace {

// Diagnostics name a level by name or index in their field path (common/FieldPath.h). A
// malformed path names no level; the diagnostic is still listed in the errors row.
bool diagnosticNamesLevel(const Diagnostic& d, int level, const std::string& name)
{
    try {
        return locateField(d.field).namesLevel(level, name);
    } catch (const NestorError&) {
        return false;
    }
}

constexpr quintptr kTopLevel = 0;  // internalId of top-level rows; children store parent row + 1

QString dimName(const Workload& w, int dim)
{
    if (dim >= 0 && dim < w.numDims()) return QString::fromStdString(w.dimNames[std::size_t(dim)]);
    return QStringLiteral("dim#%1").arg(dim);
}

QString loopText(const Workload& w, const Loop& loop, const QString& axis)
{
    QString s = QStringLiteral("%1 %2 in [0:%3)")
                    .arg(axis.isEmpty() ? QStringLiteral("for") : QStringLiteral("par-for"), dimName(w, loop.dim))
                    .arg(loop.bound);
    if (!axis.isEmpty()) s += QStringLiteral(" (%1)").arg(axis);
    if (loop.isImperfect()) s += QStringLiteral(" (residual %1)").arg(loop.residual);
    return s;
}

QString loopToolTip(const Workload& w, const Loop& loop, const QString& axis)
{
    QString s = axis.isEmpty() ? QObject::tr("Temporal loop over %1, %2 iterations").arg(dimName(w, loop.dim)).arg(loop.bound)
                               : QObject::tr("Spatial loop over %1 across %2 instances along %3")
                                     .arg(dimName(w, loop.dim)).arg(loop.bound).arg(axis);
    if (loop.isImperfect())
        s += QObject::tr("\nImperfect factor: %1 iterations on the last pass of the outer loops").arg(loop.residual);
    return s;
}

bool keepsTensor(const Mapping& m, int level, int tensor)
{
    if (level < 0 || std::size_t(level) >= m.levels.size()) return true;  // missing level = keep all
    const std::vector<bool>& keep = m.levels[std::size_t(level)].keep;
    return keep.empty() || std::size_t(tensor) >= keep.size() || keep[std::size_t(tensor)];
}

// Tensor initials (W, I, O) when they tell the tensors apart, else the full names.
QStringList tensorLabels(const Workload& w)
{
    QStringList names;
    QStringList initials;
    for (const Tensor& t : w.tensors) {
        names << QString::fromStdString(t.name);
        initials << names.last().left(1);
    }
    const QSet<QString> distinct(initials.begin(), initials.end());
    return distinct.size() == initials.size() ? initials : names;
}

QString sizeText(const std::optional<std::int64_t>& words)
{
    return words ? QObject::tr("%1 words").arg(NumberFormat::count(*words)) : QObject::tr("unbounded");
}

} // namespace

LoopNestModel::LoopNestModel(QObject* parent) : QAbstractItemModel(parent) {}

void LoopNestModel::setMapping(const Workload& w, const Architecture& a, const Mapping& m)
{
    workload_ = w;
    architecture_ = a;
    mapping_ = m;
    evaluation_.reset();
    rebuild();
}

void LoopNestModel::setEvaluation(const Evaluation& e)
{
    evaluation_ = e;
    rebuild();
}

void LoopNestModel::clear()
{
    workload_.reset();
    architecture_.reset();
    mapping_.reset();
    evaluation_.reset();
    rebuild();
}

void LoopNestModel::rebuild()
{
    beginResetModel();
    rows_.clear();
    if (evaluation_ && !evaluation_->valid) rows_.push_back(errorsRow());
    if (workload_ && architecture_ && mapping_) {
        int depth = 0;
        for (int l = 0; l < architecture_->numLevels(); ++l) rows_.push_back(levelRow(l, depth));
        rows_.push_back(computeRow());
    }
    endResetModel();
}

LoopNestModel::Row LoopNestModel::errorsRow() const
{
    Row row;
    row.kind = RowKind::Errors;
    row.alarming = true;
    const std::size_t n = evaluation_->errors.size();
    row.text[NestColumn] = n == 0 ? tr("Invalid mapping") : tr("Invalid mapping: %n problem(s)", nullptr, int(n));
    for (const Diagnostic& d : evaluation_->errors) {
        Row child;
        child.kind = RowKind::Diagnostic;
        child.alarming = true;
        child.text[NestColumn] = QString::fromStdString(d.toString());
        child.toolTip = child.text[NestColumn];
        row.children.push_back(std::move(child));
    }
    return row;
}

LoopNestModel::Row LoopNestModel::levelRow(int level, int& depth) const
{
    const Workload& w = *workload_;
    const StorageLevel& arch = architecture_->levels[std::size_t(level)];
    const bool haveStats = evaluation_ && evaluation_->valid && std::size_t(level) < evaluation_->levels.size();

    Row row;
    row.kind = RowKind::Level;
    row.level = level;
    row.text[NestColumn] = QString::fromStdString(arch.name);
    if (arch.instances > 1) row.text[NestColumn] += QStringLiteral(" ×%1").arg(arch.instances);

    const std::vector<TensorLevelStats>* stats = haveStats ? &evaluation_->levels[std::size_t(level)].tensors : nullptr;
    const QStringList labels = tensorLabels(w);
    QStringList tiles;      // "W 3, I 18"
    QStringList compactTiles;  // "W 295 k, I 431 k"
    QStringList tileLines;  // "Weights: 3 words" for the tooltip
    QStringList bypassed;
    for (int t = 0; t < w.numTensors(); ++t) {
        const QString name = QString::fromStdString(w.tensors[std::size_t(t)].name);
        if (!keepsTensor(*mapping_, level, t)) {
            bypassed << name;
            continue;
        }
        if (stats && std::size_t(t) < stats->size()) {
            const QString words = NumberFormat::count((*stats)[std::size_t(t)].utilized_capacity);
            tiles << QStringLiteral("%1 %2").arg(labels[t], words);
            compactTiles << QStringLiteral("%1 %2").arg(labels[t], NumberFormat::compactCount((*stats)[std::size_t(t)].utilized_capacity, 3));
            tileLines << tr("%1: %2 words").arg(name, words);
        } else {
            tiles << labels[t];
        }
    }
    row.text[TilesColumn] = tiles.isEmpty() ? tr("(bypasses all)") : tiles.join(QStringLiteral(", "));
    if (!compactTiles.isEmpty()) row.compact[TilesColumn] = compactTiles.join(QStringLiteral(", "));

    const std::optional<std::int64_t> size = arch.effectiveSizeWords();
    if (arch.isSpatialOnly()) {
        row.text[CapacityColumn] = tr("spatial only");
    } else if (haveStats) {
        const std::int64_t used = evaluation_->levels[std::size_t(level)].capacity_used_words;
        if (!size) {
            row.text[CapacityColumn] = tr("%1 / unbounded").arg(NumberFormat::count(used));
            row.compact[CapacityColumn] = tr("%1 / unbounded").arg(NumberFormat::compactCount(used));
        } else {
            const double share = *size > 0 ? double(used) / double(*size) : 0.0;
            row.text[CapacityColumn] = tr("%1 / %2 (%3)")
                                           .arg(NumberFormat::count(used), NumberFormat::count(*size), NumberFormat::percent(share));
            row.compact[CapacityColumn] = tr("%1 / %2 (%3)")
                                              .arg(NumberFormat::compactCount(used), NumberFormat::compactCount(*size),
                                                   NumberFormat::percent(share));
            row.alarming = used > *size;
        }
    } else {
        row.text[CapacityColumn] = size ? NumberFormat::count(*size) : tr("unbounded");
    }

    row.toolTip = tr("%1: %2, %3 per instance, %4 instance(s), %5-bit words")
                      .arg(QString::fromStdString(arch.name), QString::fromStdString(arch.technology),
                           sizeText(arch.size_words))
                      .arg(arch.instances)
                      .arg(arch.word_bits);
    if (arch.multiple_buffering != 1.0)
        row.toolTip += tr("\nMultiple buffering %1: usable %2").arg(arch.multiple_buffering).arg(sizeText(size));
    if (!tileLines.isEmpty()) row.toolTip += tr("\nTiles per instance:\n  ") + tileLines.join(QStringLiteral("\n  "));
    if (!bypassed.isEmpty()) row.toolTip += tr("\nBypasses %1").arg(bypassed.join(QStringLiteral(", ")));
    if (row.alarming) row.toolTip += tr("\nThe tiles do not fit in this level.");
    if (evaluation_ && !evaluation_->valid) {
        for (const Diagnostic& d : evaluation_->errors) {
            if (!diagnosticNamesLevel(d, level, arch.name)) continue;
            row.alarming = true;
            row.toolTip += QLatin1Char('\n') + QString::fromStdString(d.message);
        }
    }

    if (std::size_t(level) < mapping_->levels.size()) {
        const LevelMapping& lm = mapping_->levels[std::size_t(level)];
        auto addLoops = [&](LoopKind kind) {
            const QString axis = kind == LoopKind::SpatialX   ? QStringLiteral("X")
                                 : kind == LoopKind::SpatialY ? QStringLiteral("Y")
                                                              : QString();
            int i = 0;
            for (const Loop& loop : lm.loops(kind)) {
                Row child;
                child.kind = RowKind::Loop;
                child.level = level;
                child.loopKind = kind;
                child.loopIndex = i++;
                child.bound = loop.bound;
                child.residual = loop.residual;
                child.text[NestColumn] = QString(2 * depth, QLatin1Char(' ')) + loopText(w, loop, axis);
                child.toolTip = loopToolTip(w, loop, axis);
                child.muted = loop.bound == 1 && loop.residual == 1;
                row.children.push_back(std::move(child));
                ++depth;
            }
        };
        addLoops(LoopKind::Temporal);
        addLoops(LoopKind::SpatialX);
        addLoops(LoopKind::SpatialY);
    }
    return row;
}

LoopNestModel::Row LoopNestModel::computeRow() const
{
    const ComputeLevel& c = architecture_->compute;
    Row row;
    row.kind = RowKind::Compute;
    row.text[NestColumn] = QString::fromStdString(c.name);
    if (c.instances > 1) row.text[NestColumn] += QStringLiteral(" ×%1").arg(c.instances);
    if (evaluation_ && evaluation_->valid)
        row.text[CapacityColumn] = tr("%1 / %2 used")
                                       .arg(NumberFormat::count(evaluation_->utilized_macs), NumberFormat::count(c.instances));
    if (evaluation_ && evaluation_->valid)
        row.compact[CapacityColumn] = tr("%1 / %2 used")
                                          .arg(NumberFormat::compactCount(evaluation_->utilized_macs),
                                               NumberFormat::compactCount(c.instances));
    row.toolTip = tr("Compute: %1 instance(s), %2 pJ per MAC").arg(c.instances).arg(c.mac_energy_pJ);
    return row;
}

const LoopNestModel::Row* LoopNestModel::rowAt(const QModelIndex& index) const
{
    if (!index.isValid()) return nullptr;
    if (index.internalId() == kTopLevel) return &rows_[std::size_t(index.row())];
    return &rows_[std::size_t(index.internalId() - 1)].children[std::size_t(index.row())];
}

QModelIndex LoopNestModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount || row >= rowCount(parent)) return {};
    if (!parent.isValid()) return createIndex(row, column, kTopLevel);
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex LoopNestModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kTopLevel) return {};
    return createIndex(int(child.internalId() - 1), 0, kTopLevel);
}

int LoopNestModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid()) return int(rows_.size());
    if (parent.column() != 0 || parent.internalId() != kTopLevel) return 0;  // loops have no children
    return int(rows_[std::size_t(parent.row())].children.size());
}

int LoopNestModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant LoopNestModel::data(const QModelIndex& index, int role) const
{
    const Row* row = rowAt(index);
    if (!row) return {};
    switch (role) {
    case Qt::DisplayRole:
        return row->text[index.column()];
    case Qt::ToolTipRole: {
        // A cell with a compact form may show it: its exact text leads the tooltip.
        const QString& exact = row->text[index.column()];
        QString tip = row->toolTip;
        if (!row->compact[index.column()].isEmpty())
            tip = QStringLiteral("%1: %2%3").arg(headerData(index.column(), Qt::Horizontal).toString(), exact,
                                                 tip.isEmpty() ? QString() : QLatin1Char('\n') + tip);
        return tip.isEmpty() ? QVariant() : QVariant(tip);
    }
    case CompactTextRole:
        return row->compact[index.column()].isEmpty() || row->compact[index.column()] == row->text[index.column()]
                   ? QVariant()
                   : QVariant(row->compact[index.column()]);
    case Qt::FontRole:
        if (row->kind == RowKind::Loop && index.column() == NestColumn)
            return QFontDatabase::systemFont(QFontDatabase::FixedFont);
        if (row->kind == RowKind::Level || row->kind == RowKind::Compute || row->kind == RowKind::Errors) {
            QFont f;
            f.setBold(index.column() == NestColumn || row->kind == RowKind::Errors);
            return f;
        }
        return {};
    case Qt::ForegroundRole:
        if (row->alarming) return QColor(0xB0, 0x00, 0x20);
        if (row->muted) return QColor(Qt::gray);
        return {};
    case Qt::DecorationRole:
        if (row->kind == RowKind::Errors && index.column() == NestColumn && qApp)
            return QApplication::style()->standardIcon(QStyle::SP_MessageBoxCritical);
        return {};
    case RowKindRole:
        return int(row->kind);
    case LevelRole:
        return row->level;
    case LoopKindRole:
        return row->kind == RowKind::Loop ? QVariant(int(row->loopKind)) : QVariant();
    case LoopIndexRole:
        return row->loopIndex;
    case Qt::EditRole:
        if (row->kind == RowKind::Loop)
            return row->bound == row->residual ? QString::number(row->bound)
                                               : QStringLiteral("%1/%2").arg(row->bound).arg(row->residual);
        return row->text[index.column()];
    default:
        return {};
    }
}

bool LoopNestModel::keeps(int level, int tensor) const
{
    return mapping_ && keepsTensor(*mapping_, level, tensor);
}

std::optional<LoopKind> LoopNestModel::loopKindAt(const QModelIndex& index)
{
    const QVariant kind = index.data(LoopKindRole);
    bool ok = false;
    const int value = kind.toInt(&ok);
    return kind.isValid() && ok ? loopKindFromInt(value) : std::nullopt;
}

QModelIndex LoopNestModel::loopIndex(int level, LoopKind kind, int index) const
{
    for (std::size_t r = 0; r < rows_.size(); ++r) {
        const Row& top = rows_[r];
        if (top.kind != RowKind::Level || top.level != level) continue;
        for (std::size_t c = 0; c < top.children.size(); ++c)
            if (top.children[c].kind == RowKind::Loop && top.children[c].loopKind == kind && top.children[c].loopIndex == index)
                return createIndex(int(c), 0, quintptr(r) + 1);
    }
    return {};
}

Qt::ItemFlags LoopNestModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractItemModel::flags(index);
    const Row* row = rowAt(index);
    if (!editable_ || !row) return f;
    if (row->kind == RowKind::Loop && index.column() == NestColumn) f |= Qt::ItemIsEditable;
    if (row->kind == RowKind::Loop) f |= Qt::ItemIsDragEnabled;
    if (row->kind == RowKind::Loop || row->kind == RowKind::Level) f |= Qt::ItemIsDropEnabled;
    return f;
}

bool LoopNestModel::parseFactor(const QString& text, qint64* bound, qint64* residual)
{
    const QStringList parts = text.trimmed().split(QRegularExpression(QStringLiteral("\\s*[/,]\\s*")));
    if (parts.isEmpty() || parts.size() > 2) return false;
    bool ok1 = false, ok2 = true;
    *bound = parts[0].toLongLong(&ok1);
    *residual = parts.size() == 2 ? parts[1].toLongLong(&ok2) : *bound;
    return ok1 && ok2;
}

bool LoopNestModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    const Row* row = rowAt(index);
    if (role != Qt::EditRole || !row || row->kind != RowKind::Loop || !editable_) return false;
    qint64 bound = 0, residual = 0;
    if (!parseFactor(value.toString(), &bound, &residual)) {
        emit factorEditRequested(row->level, row->loopKind, row->loopIndex, -1, -1);  // owner reports the bad text
        return false;
    }
    if (bound == row->bound && residual == row->residual) return false;
    emit factorEditRequested(row->level, row->loopKind, row->loopIndex, bound, residual);
    return false;  // the owner changes the mapping and sets it again
}

QVariant LoopNestModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole && section == TilesColumn)
        return tr("Largest tile of each kept tensor held by one instance (hover a level for the full names)");
    if (role == Qt::ToolTipRole && section == CapacityColumn)
        return tr("Words used by the kept tiles of one instance against its usable size");
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case NestColumn: return tr("Loop nest");
    case TilesColumn: return tr("Tiles (words)");
    case CapacityColumn: return tr("Capacity use (words)");
    default: return {};
    }
}

} // namespace nestor::widgets
