#include "DataflowExport.h"

#include "DataflowView.h"
#include "GifWriter.h"
#include "SvgPaintDevice.h"

#include <QDir>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QPixmap>
#include <QSaveFile>

#include <exception>

namespace nestor::app::DataflowExport {

namespace {

// Checks [begin, end) against the trace and the frame limit; clamps it to the trace.
bool checkRange(const trace::StepTrace& trace, std::int64_t& begin, std::int64_t& end, QString* error)
{
    begin = std::max<std::int64_t>(0, begin);
    end = std::min(end, trace.numSteps());
    if (end <= begin) {
        if (error) *error = QObject::tr("The step range is empty.");
        return false;
    }
    if (end - begin > kMaxSequenceFrames) {
        if (error) *error = QObject::tr("At most %1 frames per sequence.").arg(kMaxSequenceFrames);
        return false;
    }
    return true;
}

// Shows steps [begin, end) one after the other on an offscreen copy of `view` and calls
// `each(copy)` after each; stops when it returns false. Trace errors go to `error`.
bool forEachStep(const widgets::DataflowView* view, const trace::StepTrace& trace, std::int64_t begin, std::int64_t end,
                 QString* error, const std::function<bool(widgets::DataflowView&)>& each)
{
    widgets::DataflowView copy;
    copy.setAttribute(Qt::WA_DontShowOnScreen);
    copy.setFont(view->font());
    copy.setPalette(view->palette());
    copy.resize(view->size());
    copy.setContext(view->context());
    copy.setTensor(view->tensor());
    try {
        std::optional<trace::StepFrame> previous;
        if (begin > 0) previous = trace.frame(begin - 1);
        for (std::int64_t s = begin; s < end; ++s) {
            trace::StepFrame f = trace.frame(s);
            copy.setFrame(f, previous);
            if (!each(copy)) return false;
            previous = std::move(f);
        }
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

} // namespace

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

bool svg(const widgets::DataflowView* view, const QString& path, const QString& title, QString* error)
{
    widgets::SvgPaintDevice device(view->size(), title);
    QPainter painter;
    if (!painter.begin(&device)) {
        if (error) *error = QObject::tr("Cannot paint the SVG.");
        return false;
    }
    view->paint(painter);
    painter.end();
    return device.save(path, error);
}

int pngSequence(const widgets::DataflowView* view, const trace::StepTrace& trace, std::int64_t begin, std::int64_t end,
                const QString& directory, QString* error)
{
    if (!checkRange(trace, begin, end, error)) return -1;
    if (!QDir().mkpath(directory)) {
        if (error) *error = QObject::tr("Cannot create %1.").arg(QDir::toNativeSeparators(directory));
        return -1;
    }
    int written = 0;
    const bool ok = forEachStep(view, trace, begin, end, error, [&](widgets::DataflowView& copy) {
        const QString path = QDir(directory).filePath(QStringLiteral("frame_%1.png").arg(written + 1, 5, 10, QLatin1Char('0')));
        if (!copy.grab().save(path, "PNG")) {
            if (error) *error = QObject::tr("Cannot write %1.").arg(QDir::toNativeSeparators(path));
            return false;
        }
        ++written;
        return true;
    });
    return ok ? written : -1;
}

int gifDelayForSpeed(int stepsPerSecond)
{
    return std::clamp(int(std::lround(100.0 / std::max(1, stepsPerSecond))), 2, 65535);
}

int gif(const widgets::DataflowView* view, const trace::StepTrace& trace, std::int64_t begin, std::int64_t end,
        int delayCentiseconds, const QString& path, QString* error, const std::function<bool(int, int)>& progress)
{
    if (!checkRange(trace, begin, end, error)) return -1;
    QSaveFile file(path);   // a cancelled or failed export leaves no partial file
    if (!file.open(QIODevice::WriteOnly)) {
        if (error) *error = QObject::tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return -1;
    }
    widgets::GifWriter writer(&file);
    if (!writer.begin(view->size())) {
        if (error) *error = writer.errorString();
        return -1;
    }
    const int total = int(end - begin);
    QImage image(view->size(), QImage::Format_RGB32);
    const bool ok = forEachStep(view, trace, begin, end, error, [&](widgets::DataflowView& copy) {
        QPainter p(&image);
        copy.paint(p);
        p.end();
        if (!writer.addFrame(image, delayCentiseconds)) {
            if (error) *error = writer.errorString();
            return false;
        }
        if (progress && !progress(writer.frameCount(), total)) {
            if (error) *error = QObject::tr("Cancelled.");
            return false;
        }
        return true;
    });
    if (!ok) {
        file.cancelWriting();
        return -1;
    }
    if (!writer.finish() || !file.commit()) {
        if (error) *error = writer.errorString().isEmpty() ? QObject::tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString())
                                                           : writer.errorString();
        return -1;
    }
    return writer.frameCount();
}

} // namespace nestor::app::DataflowExport
