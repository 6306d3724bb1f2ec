#include "PlotExport.h"

#include <qcustomplot.h>

#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>

namespace nestor::widgets::PlotExport {

namespace {
QSize sizeFor(QCustomPlot* plot, int width, int height)
{
    if (width > 0 && height > 0) return {width, height};
    if (plot->isVisible() && plot->width() >= 200 && plot->height() >= 150) return plot->size();
    return {800, 500};
}
} // namespace

bool png(QCustomPlot* plot, const QString& path, int width, int height)
{
    const QSize s = sizeFor(plot, width, height);
    return plot->savePng(path, s.width(), s.height(), 2.0);
}

bool pdf(QCustomPlot* plot, const QString& path, const QString& title, int width, int height)
{
    const QSize s = sizeFor(plot, width, height);
    return plot->savePdf(path, s.width(), s.height(), QCP::epNoCosmetic, QStringLiteral("Nestor"), title);
}

void withDialog(QCustomPlot* plot, const QString& title)
{
    QString path = QFileDialog::getSaveFileName(plot, QObject::tr("Export chart"), QString(),
                                                QObject::tr("PNG images (*.png);;PDF documents (*.pdf)"));
    if (path.isEmpty()) return;
    const bool asPdf = path.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive);
    if (!asPdf && !path.endsWith(QStringLiteral(".png"), Qt::CaseInsensitive)) path += QStringLiteral(".png");
    if (!(asPdf ? pdf(plot, path, title) : png(plot, path)))
        QMessageBox::warning(plot, QObject::tr("Export failed"), QObject::tr("Could not write %1.").arg(path));
}

void contextMenu(QCustomPlot* plot, const QString& title, const QPoint& globalPos)
{
    QMenu menu(plot);
    menu.addAction(QObject::tr("Export as PNG or PDF…"), plot, [plot, title] { withDialog(plot, title); });
    menu.exec(globalPos);
}

} // namespace nestor::widgets::PlotExport
