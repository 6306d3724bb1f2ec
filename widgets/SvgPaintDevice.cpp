#include "SvgPaintDevice.h"

#include "SvgPaintEngine.h"

#include <QFile>
#include <QObject>

#include <limits>

namespace nestor::widgets {

SvgPaintDevice::SvgPaintDevice(QSize size, QString title)
    : size_(size.expandedTo(QSize(1, 1))), title_(std::move(title)), engine_(std::make_unique<SvgPaintEngine>(this))
{
}

SvgPaintDevice::~SvgPaintDevice() = default;

QByteArray SvgPaintDevice::document() const
{
    return engine_->document();
}

bool SvgPaintDevice::save(const QString& path, QString* error) const
{
    const QByteArray doc = document();
    if (doc.isEmpty()) {
        if (error) *error = QObject::tr("Nothing was painted.");
        return false;
    }
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(doc) != doc.size() || !f.flush()) {
        if (error) *error = QObject::tr("Cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

QPaintEngine* SvgPaintDevice::paintEngine() const
{
    return engine_.get();
}

int SvgPaintDevice::metric(PaintDeviceMetric metric) const
{
    switch (metric) {
    case PdmWidth: return size_.width();
    case PdmHeight: return size_.height();
    case PdmWidthMM: return qRound(size_.width() * 25.4 / kDpi);
    case PdmHeightMM: return qRound(size_.height() * 25.4 / kDpi);
    case PdmNumColors: return std::numeric_limits<int>::max();
    case PdmDepth: return 32;
    case PdmDpiX:
    case PdmDpiY:
    case PdmPhysicalDpiX:
    case PdmPhysicalDpiY: return kDpi;
    case PdmDevicePixelRatio: return 1;
    case PdmDevicePixelRatioScaled: return int(devicePixelRatioFScale());
    default: return QPaintDevice::metric(metric);
    }
}

} // namespace nestor::widgets
