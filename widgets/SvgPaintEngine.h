#pragma once
// The paint engine behind SvgPaintDevice: writes each QPainter primitive as an SVG 1.1 element
// with its pen, brush, opacity, transform and clip (see SvgPaintDevice.h). It claims every
// feature but gradients and perspective, which QPainter then emulates (as images and transformed
// paths) through the primitives below.
#include <QByteArray>
#include <QHash>
#include <QPaintEngine>
#include <QPainterPath>
#include <QPen>
#include <QXmlStreamWriter>

namespace nestor::widgets {

class SvgPaintDevice;

class SvgPaintEngine : public QPaintEngine {
public:
    explicit SvgPaintEngine(const SvgPaintDevice* device);

    bool begin(QPaintDevice* device) override;
    bool end() override;
    void updateState(const QPaintEngineState& state) override;

    using QPaintEngine::drawEllipse;
    using QPaintEngine::drawLines;
    using QPaintEngine::drawPolygon;
    using QPaintEngine::drawRects;
    void drawRects(const QRectF* rects, int count) override;
    void drawLines(const QLineF* lines, int count) override;
    void drawEllipse(const QRectF& rect) override;
    void drawPath(const QPainterPath& path) override;
    void drawPolygon(const QPointF* points, int count, PolygonDrawMode mode) override;
    void drawTextItem(const QPointF& position, const QTextItem& item) override;
    void drawPixmap(const QRectF& target, const QPixmap& pixmap, const QRectF& source) override;
    void drawImage(const QRectF& target, const QImage& image, const QRectF& source, Qt::ImageConversionFlags flags) override;

    Type type() const override { return QPaintEngine::User; }

    // The finished document; empty while painting.
    const QByteArray& document() const { return document_; }

private:
    enum class Fill { None, Brush };
    void startShape(const QString& element, Fill fill);
    void writePen();
    void writeBrush();
    void writeTransform(const QTransform& t);
    void syncClip();
    QString patternFor(const QBrush& brush);
    QString imageData(const QImage& image) const;
    QString pathData(const QPainterPath& path) const;

    const SvgPaintDevice* device_;
    QByteArray document_;
    QByteArray buffer_;
    QXmlStreamWriter xml_;

    QPen pen_;
    QBrush brush_;
    QPointF brushOrigin_;
    QFont font_;
    QTransform transform_;
    double opacity_ = 1;
    bool antialiased_ = false;

    bool clipDirty_ = false;
    bool clipOpen_ = false;           // a <g clip-path> group is open
    QPainterPath clip_;               // in device coordinates; empty = no clip
    QHash<QString, QString> patterns_;   // brush key -> pattern id
    int nextId_ = 0;
};

} // namespace nestor::widgets
