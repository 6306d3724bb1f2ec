#include "DataflowExport.h"

#include "DataflowView.h"

#include <QDir>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QPixmap>

#include <exception>

namespace nestor::app::DataflowExport {

bool png(widgets::DataflowView* view, const QString& path)
{
    return view->grab().save(path, "PNG");
}

bool pdf(widgets::DataflowView* view, const QString& path, const QString& title)
{
    QPdfWriter writer(path);
    writer.setTitle(title);
    writer.setCreator(QStringLiteral("Nestor"));
    writer.setResolution(96);
    writer.setPageSize(QPageSize(QSizeF(view->size()), QPageSize::Point));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter painter;
    if (!painter.begin(&writer)) return false;
    // Scale the widget (pixels) onto the page; render() replays its paint event as vectors.
    const QRect page = painter.viewport();
    const double s = std::min(double(page.width()) / view->width(), double(page.height()) / view->height());
    painter.scale(s, s);
    view->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    return painter.end();
}

int pngSequence(const widgets::DataflowView* view, const trace::StepTrace& trace, std::int64_t begin, std::int64_t end,
                const QString& directory, QString* error)
{
    begin = std::max<std::int64_t>(0, begin);
    end = std::min(end, trace.numSteps());
    if (end <= begin) {
        if (error) *error = QObject::tr("The step range is empty.");
        return -1;
    }
    if (end - begin > kMaxSequenceFrames) {
        if (error) *error = QObject::tr("At most %1 frames per sequence.").arg(kMaxSequenceFrames);
        return -1;
    }
    if (!QDir().mkpath(directory)) {
        if (error) *error = QObject::tr("Cannot create %1.").arg(QDir::toNativeSeparators(directory));
        return -1;
    }
    widgets::DataflowView copy;
    copy.setAttribute(Qt::WA_DontShowOnScreen);
    copy.setFont(view->font());
    copy.resize(view->size());
    copy.setContext(view->context());
    copy.setTensor(view->tensor());
    int written = 0;
    try {
        std::optional<trace::StepFrame> previous;
        if (begin > 0) previous = trace.frame(begin - 1);
        for (std::int64_t s = begin; s < end; ++s) {
            trace::StepFrame f = trace.frame(s);
            copy.setFrame(f, previous);
            const QString path = QDir(directory).filePath(QStringLiteral("frame_%1.png").arg(written + 1, 5, 10, QLatin1Char('0')));
            if (!copy.grab().save(path, "PNG")) {
                if (error) *error = QObject::tr("Cannot write %1.").arg(QDir::toNativeSeparators(path));
                return -1;
            }
            ++written;
            previous = std::move(f);
        }
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return -1;
    }
    return written;
}

} // namespace nestor::app::DataflowExport
