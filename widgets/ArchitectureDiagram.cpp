#include "ArchitectureDiagram.h"

#include "NumberFormat.h"
#include "ViridisPalette.h"

#include <QPainter>

#include <algorithm>

namespace nestor::widgets {

namespace {

QString sizeText(const StorageLevel& l)
{
    if (!l.size_words) return QObject::tr("unbounded");
    const std::int64_t words = *l.size_words;
    if (words >= 1024 && words % 1024 == 0) return QObject::tr("%1 Ki words").arg(words / 1024);
    return QObject::tr("%1 words").arg(NumberFormat::count(words));
}

QString levelLabel(const StorageLevel& l)
{
    return QStringLiteral("%1  ·  %2 × %3 b").arg(QString::fromStdString(l.name), sizeText(l)).arg(l.word_bits);
}

} // namespace

ArchitectureDiagram::ArchitectureDiagram(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(320, 320);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

void ArchitectureDiagram::setArchitecture(const Architecture& a)
{
    arch_ = a;
    update();
}

int ArchitectureDiagram::firstPeLevel() const
{
    for (int i = 0; i < arch_.numLevels(); ++i) {
        const StorageLevel& l = arch_.levels[std::size_t(i)];
        if (l.instances > 1 && !l.isSpatialOnly()) return i;
    }
    return arch_.numLevels();
}

void ArchitectureDiagram::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    if (arch_.levels.empty()) {
        p.drawText(rect(), Qt::AlignCenter, tr("No architecture"));
        return;
    }
    const int margin = 12;
    const int boxH = 34;
    const int gap = 26;
    const QFontMetrics fm(font());
    const int pe = firstPeLevel();
    int y = margin;
    const int w = width() - 2 * margin;
    QPointF lastBottom(width() / 2.0, y);

    auto arrow = [&](int top, const QString& note) {
        p.setPen(QPen(Qt::darkGray, 1.5));
        p.drawLine(QPointF(width() / 2.0, top - gap + 2), QPointF(width() / 2.0, top - 2));
        if (!note.isEmpty()) p.drawText(QRectF(width() / 2.0 + 8, top - gap, w / 2.0, gap), Qt::AlignVCenter, note);
    };

    // Shared levels, and dummy levels as fanout notes.
    QString pendingNote;
    for (int i = 0; i < pe; ++i) {
        const StorageLevel& l = arch_.levels[std::size_t(i)];
        if (l.isSpatialOnly()) {
            pendingNote += tr("%1: fanout %2 (%3 × %4)  ").arg(QString::fromStdString(l.name)).arg(arch_.fanout(i))
                               .arg(arch_.fanoutX(i)).arg(arch_.fanoutY(i));
            continue;
        }
        if (i > 0) {
            arrow(y, pendingNote);
            pendingNote.clear();
        }
        const QRectF box(margin, y, w, boxH);
        const QColor fill = ViridisPalette::at(0.15 + 0.5 * i / std::max(1, arch_.numLevels())).lighter(180);
        p.setPen(QPen(Qt::black, 1));
        p.setBrush(fill);
        p.drawRoundedRect(box, 5, 5);
        QString label = levelLabel(l);
        if (l.instances > 1) label += tr("  ×%1").arg(l.instances);
        p.drawText(box, Qt::AlignCenter, label);
        y += boxH + gap;
        if (i + 1 < arch_.numLevels() && !arch_.levels[std::size_t(i + 1)].isSpatialOnly() && arch_.fanout(i) > 1)
            pendingNote = tr("fanout %1").arg(arch_.fanout(i));
    }

    // The PE array: a grid of the first level with several instances.
    const std::int64_t peCount = pe < arch_.numLevels() ? arch_.levels[std::size_t(pe)].instances : arch_.compute.instances;
    const std::int64_t meshX = pe < arch_.numLevels() ? arch_.levels[std::size_t(pe)].meshX : arch_.compute.meshX;
    const std::int64_t meshY = meshX > 0 ? peCount / meshX : 1;
    if (pendingNote.isEmpty()) pendingNote = tr("fanout %1 (%2 × %3)").arg(peCount).arg(meshX).arg(meshY);
    arrow(y, pendingNote);
    const int cols = int(std::min<std::int64_t>(meshX, 16));
    const int rows = int(std::min<std::int64_t>(std::max<std::int64_t>(meshY, 1), 16));
    const int titleH = fm.height() + 6;
    const QRectF array(margin, y, w, std::max(120, height() - y - margin));
    p.setPen(QPen(Qt::black, 1, Qt::DashLine));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(array, 6, 6);
    p.setPen(Qt::black);
    QStringList perPe;
    for (int i = pe; i < arch_.numLevels(); ++i) {
        const StorageLevel& l = arch_.levels[std::size_t(i)];
        if (l.isSpatialOnly()) continue;
        const std::int64_t per = peCount > 0 ? l.instances / peCount : 1;
        perPe << (per > 1 ? tr("%1 × %2").arg(per).arg(levelLabel(l)) : levelLabel(l));
    }
    const std::int64_t macsPerPe = peCount > 0 ? arch_.compute.instances / peCount : arch_.compute.instances;
    perPe << tr("%1 × %2").arg(macsPerPe).arg(QString::fromStdString(arch_.compute.name));
    p.drawText(QRectF(array.left() + 8, array.top() + 2, array.width() - 16, titleH), Qt::AlignLeft | Qt::AlignVCenter,
               tr("PE array: %1 PEs (%2 × %3), %4 MACs").arg(peCount).arg(meshX).arg(meshY).arg(arch_.compute.instances));
    const QRectF gridArea = array.adjusted(8, titleH + 4, -8, -(fm.height() * (int(perPe.size()) + 1) + 8));
    const double cw = gridArea.width() / cols;
    const double ch = gridArea.height() / rows;
    const int inner = int(perPe.size());
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const QRectF cell(gridArea.left() + c * cw + 1.5, gridArea.top() + r * ch + 1.5, cw - 3, ch - 3);
            p.setPen(QPen(Qt::darkGray, 0.8));
            p.setBrush(QColor(0xF4, 0xF4, 0xF8));
            p.drawRect(cell);
            // Per-PE storage as stacked strips, the MACs as a dot at the bottom.
            const double sh = (cell.height() - 4) / (inner + 0.5);
            for (int k = 0; k + 1 < inner; ++k) {
                p.setBrush(ViridisPalette::at(0.3 + 0.5 * k / std::max(1, inner)).lighter(150));
                p.drawRect(QRectF(cell.left() + 2, cell.top() + 2 + k * sh, cell.width() - 4, sh - 1));
            }
            p.setBrush(ViridisPalette::at(0.85));
            const double d = std::min(cell.width(), sh) * 0.7;
            p.drawEllipse(QRectF(cell.center().x() - d / 2, cell.bottom() - sh - 1 + (sh - d) / 2, d, d));
        }
    if (meshX > cols || meshY > rows) {
        p.setPen(Qt::black);
        p.drawText(gridArea, Qt::AlignRight | Qt::AlignBottom, tr("(%1 × %2 drawn)").arg(cols).arg(rows));
    }
    p.setPen(Qt::black);
    QRectF legend(array.left() + 8, gridArea.bottom() + 6, array.width() - 16, fm.height());
    p.drawText(legend, Qt::AlignLeft, tr("Each PE (top to bottom):"));
    for (const QString& line : perPe) {
        legend.translate(0, fm.height());
        p.drawText(legend, Qt::AlignLeft, QStringLiteral("  • ") + line);
    }
}

} // namespace nestor::widgets
