#include "LoopNestProgress.h"

#include "ViridisPalette.h"

#include <QFontDatabase>

#include <algorithm>

namespace nestor::app {

LoopNestProgress::LoopNestProgress(QWidget* parent) : QListWidget(parent)
{
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setSelectionMode(QAbstractItemView::NoSelection);
    setFocusPolicy(Qt::NoFocus);
    setToolTip(tr("The loop nest, outermost first; highlighted: the loops that advanced at this step"));
}

void LoopNestProgress::clearLoops()
{
    loops_.clear();
    advanced_.clear();
    rowOfLoop_.clear();
    clear();
}

void LoopNestProgress::setLoops(const std::vector<trace::NestLoop>& loops, const Workload& w, const Architecture& a)
{
    loops_ = loops;
    dimNames_.clear();
    levelNames_.clear();
    for (const std::string& d : w.dimNames) dimNames_.push_back(QString::fromStdString(d));
    for (const StorageLevel& l : a.levels) levelNames_.push_back(QString::fromStdString(l.name));
    advanced_.clear();
    clear();
    rowOfLoop_.clear();
    int level = -1;
    for (std::size_t i = 0; i < loops_.size(); ++i) {
        if (loops_[i].level != level) {
            level = loops_[i].level;
            auto* header = new QListWidgetItem(level >= 0 && level < int(levelNames_.size()) ? levelNames_[std::size_t(level)] : QString());
            QFont f = font();
            f.setItalic(true);
            header->setFont(f);
            header->setForeground(palette().color(QPalette::PlaceholderText));
            addItem(header);
        }
        rowOfLoop_.push_back(count());
        addItem(lineOf(i, 0));
    }
}

QString LoopNestProgress::lineOf(std::size_t i, std::int64_t index) const
{
    const trace::NestLoop& l = loops_[i];
    const QString dim = l.loop.dim >= 0 && l.loop.dim < int(dimNames_.size()) ? dimNames_[std::size_t(l.loop.dim)] : QStringLiteral("?");
    const QString bound = l.loop.isImperfect() ? QStringLiteral("%1/%2").arg(l.loop.bound).arg(l.loop.residual) : QString::number(l.loop.bound);
    const QString indent(std::min(int(i), 8) + 1, QLatin1Char(' '));   // deep nests stay in a narrow column
    if (l.temporalIndex < 0) {
        const QString axis = l.kind == LoopKind::SpatialX ? QStringLiteral("x") : QStringLiteral("y");
        return QStringLiteral("%1par_for %2 < %3 (%4)").arg(indent, dim, bound, axis);
    }
    return QStringLiteral("%1for %2 < %3 : %4").arg(indent, dim, bound).arg(index);
}

void LoopNestProgress::setIndices(std::int64_t step, const std::vector<std::int64_t>& loopIndex)
{
    // A temporal loop advanced at this step iff every temporal loop inside it is at 0 (it wrapped),
    // except the innermost, which always advances; at step 0 nothing has advanced yet.
    advanced_.clear();
    bool innerAllZero = true;
    bool innermost = true;
    std::vector<bool> advanced(loops_.size(), false);
    for (std::size_t k = loops_.size(); k-- > 0;) {
        const int t = loops_[k].temporalIndex;
        if (t < 0) continue;
        const std::int64_t index = t < int(loopIndex.size()) ? loopIndex[std::size_t(t)] : 0;
        if (step > 0 && (innermost || innerAllZero) && loops_[k].loop.bound > 1) advanced[k] = true;
        innermost = false;
        innerAllZero = innerAllZero && index == 0;
    }
    const QColor highlight = widgets::ViridisPalette::at(0.72);
    const QColor tint((highlight.red() + 2 * 255) / 3, (highlight.green() + 2 * 255) / 3, (highlight.blue() + 2 * 255) / 3);
    for (std::size_t k = 0; k < loops_.size() && k < rowOfLoop_.size(); ++k) {
        const int t = loops_[k].temporalIndex;
        const std::int64_t index = t >= 0 && t < int(loopIndex.size()) ? loopIndex[std::size_t(t)] : 0;
        QListWidgetItem* it = item(rowOfLoop_[k]);
        it->setText(lineOf(k, index));
        QFont f = font();
        f.setBold(advanced[k]);
        it->setFont(f);
        it->setBackground(advanced[k] ? QBrush(tint) : QBrush());
        if (advanced[k]) advanced_.push_back(int(k));
    }
    if (!advanced_.empty()) scrollToItem(item(rowOfLoop_[std::size_t(advanced_.front())]));
}

std::vector<int> LoopNestProgress::advancedRows() const
{
    return advanced_;
}

} // namespace nestor::app
