#include "EnergyBreakdownChart.h"

#include "NumberFormat.h"
#include "ViridisPalette.h"

#include <qcustomplot.h>

#include <QContextMenuEvent>
#include <QFileDialog>
#include <QFontMetrics>
#include <QMenu>
#include <QMessageBox>
#include <QVBoxLayout>

#include <algorithm>
#include <vector>

namespace nestor::widgets {

namespace {

QCPBars* addBars(QCustomPlot* plot, const QString& name, const QColor& color)
{
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(name);
    bars->setWidth(0.6);
    bars->setStackingGap(0);
    bars->setPen(QPen(color.darker(130)));
    bars->setBrush(color);
    return bars;
}

constexpr int kValueAxisWidth = 64;  // the energy axis' tick labels and title, left of the bars
constexpr int kLabelGap = 4;         // between two level names on one line
constexpr int kLegendItemExtra = 24; // a legend entry's margins and the spacing to the next
constexpr int kMaxLegendColumns = 6;

} // namespace

EnergyBreakdownChart::EnergyBreakdownChart(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), title_(new QCPTextElement(plot_)), legendRow_(new QCPLayoutGrid)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);

    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, title_);
    QFont titleFont = font();
    titleFont.setBold(true);
    title_->setFont(titleFont);

    // Legend in its own row below the axis rect so it never covers a bar.
    plot_->plotLayout()->addElement(2, 0, legendRow_);
    legendRow_->setMargins(QMargins(6, 0, 6, 2));
    legendRow_->addElement(0, 0, plot_->legend);
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot_->legend->setWrap(6);
    plot_->legend->setBorderPen(Qt::NoPen);
    // Small icons and tight margins: when the legend needs two rows the plot keeps the height.
    plot_->legend->setIconSize(20, 12);
    plot_->legend->setMargins(QMargins(4, 0, 4, 0));
    plot_->plotLayout()->setRowStretchFactor(2, 0.001);
    plot_->xAxis->grid()->setVisible(false);
    plot_->xAxis->setTickLength(0, 4);
    plot_->yAxis->setPadding(6);
    plot_->setContextMenuPolicy(Qt::NoContextMenu);  // the chart widget shows its own menu
    setMinimumSize(240, 180);
    clear();
}

void EnergyBreakdownChart::showLegend(bool show)
{
    // An empty legend reports a maximum width of its margins, which would cap the width of
    // the whole plot column; so its row leaves the layout while there is nothing to list.
    QCPLayoutGrid* layout = plot_->plotLayout();
    const bool shown = legendRow_->layout() == layout;
    if (show && !shown) layout->addElement(2, 0, legendRow_);
    if (!show && shown) layout->take(legendRow_);
    plot_->legend->setVisible(show);
}

void EnergyBreakdownChart::resetPlot(const QString& title)
{
    showLegend(false);
    plot_->clearPlottables();
    baseTitle_ = title;
    title_->setText(note_.isEmpty() ? title : QStringLiteral("%1 (%2)").arg(title, note_));
    categoryNames_.clear();
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot_->xAxis->setTickLabelRotation(0);
    plot_->xAxis->setRange(-0.5, 0.5);
    plot_->yAxis->setRange(0, 1);
    plot_->yAxis->setLabel(tr("Energy"));
}

void EnergyBreakdownChart::clear()
{
    resetPlot(tr("Energy by level"));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void EnergyBreakdownChart::setEvaluation(const Evaluation& e)
{
    if (!e.valid) {
        resetPlot(tr("Energy by level (no valid evaluation)"));
        plot_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    resetPlot(tr("Energy by level"));

    // Levels that keep no tensor and spend nothing (spatial-only levels) are left out.
    std::vector<const LevelStats*> shown;
    for (const LevelStats& l : e.levels) {
        const bool keepsAny = std::any_of(l.tensors.begin(), l.tensors.end(), [](const TensorLevelStats& s) { return s.kept; });
        if (keepsAny || l.energy_pJ != 0.0) shown.push_back(&l);
    }
    const int numLevels = int(shown.size());
    const int numTensors = int(e.tensorNames.size());
    double leakage_pJ = 0.0;
    double tallest_pJ = e.compute_energy_pJ;
    for (const LevelStats* l : shown) {
        leakage_pJ += l->leakage_energy_pJ;
        tallest_pJ = std::max(tallest_pJ, l->energy_pJ);
    }
    const ScaledUnit unit = NumberFormat::energyUnitFor(tallest_pJ);
    const bool showLeakage = leakage_pJ > 0.0;
    const QList<QColor> colors = ViridisPalette::categorical(numTensors + (showLeakage ? 1 : 0) + 1);

    QVector<double> levelKeys;
    for (int l = 0; l < numLevels; ++l) {
        levelKeys << double(l);
        categoryNames_ << QString::fromStdString(shown[std::size_t(l)]->name);
    }
    categoryNames_ << tr("compute");

    QCPBars* below = nullptr;
    auto stack = [&](const QString& name, const QColor& color, auto valueOf) {
        QVector<double> values;
        for (const LevelStats* l : shown) values << valueOf(*l) / unit.divisor;
        QCPBars* bars = addBars(plot_, name, color);
        bars->setData(levelKeys, values, true);
        if (below) bars->moveAbove(below);
        below = bars;
    };
    for (int t = 0; t < numTensors; ++t) {
        stack(QString::fromStdString(e.tensorNames[std::size_t(t)]), colors[t], [t](const LevelStats& l) {
            return std::size_t(t) < l.tensors.size() ? l.tensors[std::size_t(t)].energy_pJ : 0.0;
        });
    }
    if (showLeakage)
        stack(tr("Leakage"), colors[numTensors], [](const LevelStats& l) { return l.leakage_energy_pJ; });

    QCPBars* compute = addBars(plot_, tr("MACs"), colors.last());
    compute->setData(QVector<double>{double(numLevels)}, QVector<double>{e.compute_energy_pJ / unit.divisor}, true);

    plot_->xAxis->setRange(-0.6, double(numLevels) + 0.6);
    plot_->yAxis->setLabel(tr("Energy (%1)").arg(unit.unit));
    plot_->yAxis->setRange(0, (tallest_pJ > 0.0 ? tallest_pJ / unit.divisor : 1.0) * 1.12);
    showLegend(true);
    fitToWidth(plot_->width());
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void EnergyBreakdownChart::fitToWidth(int width)
{
    int widestLabel = 0;
    const QFontMetrics tickMetrics(plot_->xAxis->tickLabelFont());
    for (const QString& name : std::as_const(categoryNames_)) widestLabel = std::max(widestLabel, tickMetrics.horizontalAdvance(name));
    // The x range spans the categories plus 0.6 on either side.
    const double perCategory = double(width - kValueAxisWidth) / (double(categoryNames_.size()) + 0.2);
    const bool fitsInline = widestLabel + kLabelGap <= perCategory;
    const bool stagger = !fitsInline && widestLabel + kLabelGap <= 2 * perCategory;  // every other one a line lower
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < categoryNames_.size(); ++i)
        ticker->addTick(double(i), stagger && i % 2 == 1 ? QLatin1Char('\n') + categoryNames_[i] : categoryNames_[i]);
    plot_->xAxis->setTicker(ticker);
    // Slanted up to the tick, so that the last name ends at its bar instead of past the widget.
    plot_->xAxis->setTickLabelRotation(fitsInline || stagger ? 0 : -45);

    QCPLegend* legend = plot_->legend;
    const QFontMetrics metrics(legend->font());
    int widestItem = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)))
            widestItem = std::max(widestItem, metrics.horizontalAdvance(item->plottable()->name()));
    const int itemWidth = legend->iconSize().width() + legend->iconTextPadding() + widestItem + kLegendItemExtra;
    const int columns = std::clamp((width - 12) / std::max(1, itemWidth), 1, kMaxLegendColumns);
    if (columns != legend->wrap()) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLegend::foColumnsFirst, true);  // re-flows the entries
    }
}

void EnergyBreakdownChart::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitToWidth(plot_->width());
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void EnergyBreakdownChart::setNote(const QString& note)
{
    note_ = note;
    title_->setText(note_.isEmpty() ? baseTitle_ : QStringLiteral("%1 (%2)").arg(baseTitle_, note_));
    title_->setTextColor(note_.isEmpty() ? QColor(Qt::black) : QColor(0xB0, 0x00, 0x20));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void EnergyBreakdownChart::replotNow()
{
    plot_->replot(QCustomPlot::rpImmediateRefresh);
}

int EnergyBreakdownChart::stackElementCount() const
{
    return plot_->plottableCount();
}

QSize EnergyBreakdownChart::exportSize(int width, int height) const
{
    if (width > 0 && height > 0) return {width, height};
    if (isVisible() && plot_->width() >= 200 && plot_->height() >= 150) return plot_->size();
    return {800, 500};
}

bool EnergyBreakdownChart::exportPng(const QString& path, int width, int height)
{
    const QSize size = exportSize(width, height);
    fitToWidth(size.width());
    const bool saved = plot_->savePng(path, size.width(), size.height(), 2.0);
    fitToWidth(plot_->width());
    return saved;
}

bool EnergyBreakdownChart::exportPdf(const QString& path, int width, int height)
{
    const QSize size = exportSize(width, height);
    fitToWidth(size.width());
    const bool saved = plot_->savePdf(path, size.width(), size.height(), QCP::epNoCosmetic, QStringLiteral("Nestor"), title_->text());
    fitToWidth(plot_->width());
    return saved;
}

void EnergyBreakdownChart::exportWithDialog(bool pdf)
{
    const QString filter = pdf ? tr("PDF documents (*.pdf)") : tr("PNG images (*.png)");
    QString path = QFileDialog::getSaveFileName(this, pdf ? tr("Export chart as PDF") : tr("Export chart as PNG"),
                                                QString(), filter);
    if (path.isEmpty()) return;
    const QString suffix = pdf ? QStringLiteral(".pdf") : QStringLiteral(".png");
    if (!path.endsWith(suffix, Qt::CaseInsensitive)) path += suffix;
    if (!(pdf ? exportPdf(path) : exportPng(path)))
        QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1.").arg(path));
}

void EnergyBreakdownChart::exportWithDialog()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Export chart"), QString(), tr("PNG images (*.png);;PDF documents (*.pdf)"));
    if (path.isEmpty()) return;
    const bool pdf = path.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive);
    if (!pdf && !path.endsWith(QStringLiteral(".png"), Qt::CaseInsensitive)) path += QStringLiteral(".png");
    if (!(pdf ? exportPdf(path) : exportPng(path)))
        QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1.").arg(path));
}

void EnergyBreakdownChart::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    menu.addAction(tr("Export as PNG…"), this, [this] { exportWithDialog(false); });
    menu.addAction(tr("Export as PDF…"), this, [this] { exportWithDialog(true); });
    menu.exec(event->globalPos());
}

} // namespace nestor::widgets
