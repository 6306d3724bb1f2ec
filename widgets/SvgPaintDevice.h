#pragma once
// A QPaintDevice that records what a QPainter draws on it as an SVG 1.1 document, so that views
// export vector frames without the Qt SVG module (not part of the stack). It keeps the drawing's
// structure: rectangles, lines, polylines/polygons, ellipses and paths become their SVG elements,
// text stays text (font family, size, weight, style and colour), each with its pen (colour, width,
// caps, joins, dashes), brush (solid colour, or a hatch pattern as an SVG <pattern>), opacity,
// transform and clip. Pixmaps and images (and whatever QPainter rasterizes itself, such as
// gradient fills, which the engine leaves to it) are embedded as PNG. Units are pixels at 96 dpi.
//
//   SvgPaintDevice svg(QSize(800, 600), "Frame 12");
//   QPainter p(&svg); ... ; p.end();
//   svg.document();   // the finished document (empty while a painter is active)
#include <QByteArray>
#include <QPaintDevice>
#include <QSize>
#include <QString>

#include <memory>

namespace nestor::widgets {

class SvgPaintEngine;

class SvgPaintDevice : public QPaintDevice {
public:
    static constexpr int kDpi = 96;

    explicit SvgPaintDevice(QSize size, QString title = {});
    ~SvgPaintDevice() override;

    QSize size() const { return size_; }
    const QString& title() const { return title_; }
    QByteArray document() const;
    // Writes document() to `path`; false (with `error` set) when it cannot.
    bool save(const QString& path, QString* error = nullptr) const;

    QPaintEngine* paintEngine() const override;

protected:
    int metric(PaintDeviceMetric metric) const override;

private:
    friend class SvgPaintEngine;
    QSize size_;
    QString title_;
    std::unique_ptr<SvgPaintEngine> engine_;
};

} // namespace nestor::widgets
