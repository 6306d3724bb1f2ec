#include "SvgPaintEngine.h"

#include "SvgPaintDevice.h"

#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QPixmap>
#include <QTextItem>

#include <cmath>

namespace nestor::widgets {

namespace {

// Gradients are left to QPainter (it rasterizes them and hands over an image); perspective
// transforms too (it maps the points itself).
const QPaintEngine::PaintEngineFeatures kFeatures =
    QPaintEngine::PaintEngineFeatures(QPaintEngine::AllFeatures) & ~QPaintEngine::PaintEngineFeatures(
        QPaintEngine::LinearGradientFill | QPaintEngine::RadialGradientFill | QPaintEngine::ConicalGradientFill |
        QPaintEngine::PerspectiveTransform | QPaintEngine::PorterDuff | QPaintEngine::ObjectBoundingModeGradients);

// Coordinates to 1/1000 px, without trailing zeros: compact and exact enough for any viewer.
QString num(double v)
{
    if (!std::isfinite(v)) return QStringLiteral("0");
    QString s = QString::number(std::round(v * 1000) / 1000, 'f', 3);
    while (s.endsWith(QLatin1Char('0'))) s.chop(1);
    if (s.endsWith(QLatin1Char('.'))) s.chop(1);
    if (s == QLatin1String("-0")) s = QStringLiteral("0");
    return s;
}

QString colorText(const QColor& c)
{
    return c.name(QColor::HexRgb);
}

QString matrixText(const QTransform& t)
{
    return QStringLiteral("matrix(%1 %2 %3 %4 %5 %6)")
        .arg(num(t.m11()), num(t.m12()), num(t.m21()), num(t.m22()), num(t.dx()), num(t.dy()));
}

bool isHatch(Qt::BrushStyle s)
{
    return s >= Qt::Dense1Pattern && s <= Qt::DiagCrossPattern;
}

} // namespace

SvgPaintEngine::SvgPaintEngine(const SvgPaintDevice* device) : QPaintEngine(kFeatures), device_(device) {}

bool SvgPaintEngine::begin(QPaintDevice*)
{
    document_.clear();
    buffer_.clear();
    xml_.setDevice(nullptr);
    patterns_.clear();
    nextId_ = 0;
    pen_ = QPen();
    brush_ = QBrush();
    brushOrigin_ = {};
    font_ = QFont();
    transform_ = {};
    opacity_ = 1;
    antialiased_ = false;
    clip_ = {};
    clipDirty_ = false;
    clipOpen_ = false;

    auto* out = new QBuffer(&buffer_);
    out->open(QIODevice::WriteOnly);
    xml_.setDevice(out);
    xml_.setAutoFormatting(true);
    xml_.setAutoFormattingIndent(1);
    xml_.writeStartDocument();
    xml_.writeStartElement(QStringLiteral("svg"));
    xml_.writeDefaultNamespace(QStringLiteral("http://www.w3.org/2000/svg"));
    xml_.writeNamespace(QStringLiteral("http://www.w3.org/1999/xlink"), QStringLiteral("xlink"));
    const QSize size = device_->size();
    xml_.writeAttribute(QStringLiteral("version"), QStringLiteral("1.1"));
    xml_.writeAttribute(QStringLiteral("width"), QString::number(size.width()));
    xml_.writeAttribute(QStringLiteral("height"), QString::number(size.height()));
    xml_.writeAttribute(QStringLiteral("viewBox"), QStringLiteral("0 0 %1 %2").arg(size.width()).arg(size.height()));
    if (!device_->title().isEmpty()) xml_.writeTextElement(QStringLiteral("title"), device_->title());
    return true;
}

bool SvgPaintEngine::end()
{
    if (clipOpen_) xml_.writeEndElement();
    clipOpen_ = false;
    xml_.writeEndElement();   // svg
    xml_.writeEndDocument();
    QIODevice* out = xml_.device();
    xml_.setDevice(nullptr);
    delete out;
    document_ = buffer_;
    buffer_.clear();
    return true;
}

void SvgPaintEngine::updateState(const QPaintEngineState& state)
{
    const DirtyFlags f = state.state();
    if (f & DirtyPen) pen_ = state.pen();
    if (f & DirtyBrush) brush_ = state.brush();
    if (f & DirtyBrushOrigin) brushOrigin_ = state.brushOrigin();
    if (f & DirtyFont) font_ = state.font();
    if (f & DirtyTransform) transform_ = state.transform();
    if (f & DirtyOpacity) opacity_ = state.opacity();
    if (f & DirtyHints) antialiased_ = state.renderHints().testFlag(QPainter::Antialiasing);
    if (f & (DirtyClipPath | DirtyClipRegion | DirtyClipEnabled)) clipDirty_ = true;
}

void SvgPaintEngine::syncClip()
{
    if (!clipDirty_) return;
    clipDirty_ = false;
    // QPainter keeps the clip in logical coordinates; the group holding the clip is untransformed.
    QPainterPath clip;
    const bool clipped = painter() && painter()->hasClipping();
    if (clipped) clip = transform_.map(painter()->clipPath());
    if (clipped == clipOpen_ && (!clipped || clip == clip_)) return;
    if (clipOpen_) xml_.writeEndElement();
    clipOpen_ = false;
    clip_ = clip;
    if (!clipped) return;
    const QString id = QStringLiteral("clip%1").arg(++nextId_);
    xml_.writeStartElement(QStringLiteral("defs"));
    xml_.writeStartElement(QStringLiteral("clipPath"));
    xml_.writeAttribute(QStringLiteral("id"), id);
    xml_.writeStartElement(QStringLiteral("path"));
    xml_.writeAttribute(QStringLiteral("d"), clip.isEmpty() ? QStringLiteral("M0 0Z") : pathData(clip));   // empty: clips everything
    xml_.writeAttribute(QStringLiteral("clip-rule"), clip.fillRule() == Qt::OddEvenFill ? QStringLiteral("evenodd") : QStringLiteral("nonzero"));
    xml_.writeEndElement();
    xml_.writeEndElement();
    xml_.writeEndElement();
    xml_.writeStartElement(QStringLiteral("g"));
    xml_.writeAttribute(QStringLiteral("clip-path"), QStringLiteral("url(#%1)").arg(id));
    clipOpen_ = true;
}

QString SvgPaintEngine::patternFor(const QBrush& brush)
{
    const QTransform placement = brush.transform() * QTransform::fromTranslate(brushOrigin_.x(), brushOrigin_.y());
    const bool texture = brush.style() == Qt::TexturePattern;
    const QImage textureImage = texture ? brush.textureImage() : QImage();
    const QString key = QStringLiteral("%1/%2/%3/%4/%5")
                            .arg(int(brush.style()))
                            .arg(brush.color().rgba())
                            .arg(opacity_)
                            .arg(matrixText(placement))
                            .arg(texture ? textureImage.cacheKey() : 0);
    if (const auto it = patterns_.constFind(key); it != patterns_.constEnd()) return *it;
    const QString id = QStringLiteral("pattern%1").arg(++nextId_);
    patterns_.insert(key, id);

    // A hatch is Qt's 8 x 8 bit pattern: rasterize one tile and write its set pixels as runs.
    QImage tile = textureImage;
    if (!texture) {
        tile = QImage(8, 8, QImage::Format_ARGB32_Premultiplied);
        tile.fill(Qt::transparent);
        QPainter p(&tile);
        p.fillRect(tile.rect(), QBrush(Qt::black, brush.style()));
    }
    xml_.writeStartElement(QStringLiteral("defs"));
    xml_.writeStartElement(QStringLiteral("pattern"));
    xml_.writeAttribute(QStringLiteral("id"), id);
    xml_.writeAttribute(QStringLiteral("patternUnits"), QStringLiteral("userSpaceOnUse"));
    xml_.writeAttribute(QStringLiteral("width"), QString::number(std::max(1, tile.width())));
    xml_.writeAttribute(QStringLiteral("height"), QString::number(std::max(1, tile.height())));
    if (!placement.isIdentity()) xml_.writeAttribute(QStringLiteral("patternTransform"), matrixText(placement));
    if (texture) {
        xml_.writeStartElement(QStringLiteral("image"));
        xml_.writeAttribute(QStringLiteral("width"), QString::number(tile.width()));
        xml_.writeAttribute(QStringLiteral("height"), QString::number(tile.height()));
        if (opacity_ < 1) xml_.writeAttribute(QStringLiteral("opacity"), num(opacity_));
        xml_.writeAttribute(QStringLiteral("xlink:href"), imageData(tile));
        xml_.writeEndElement();
    } else {
        const QColor c = brush.color();
        for (int y = 0; y < tile.height(); ++y) {
            for (int x = 0; x < tile.width();) {
                if (qAlpha(tile.pixel(x, y)) == 0) {
                    ++x;
                    continue;
                }
                int run = 1;
                while (x + run < tile.width() && qAlpha(tile.pixel(x + run, y)) != 0) ++run;
                xml_.writeStartElement(QStringLiteral("rect"));
                xml_.writeAttribute(QStringLiteral("x"), QString::number(x));
                xml_.writeAttribute(QStringLiteral("y"), QString::number(y));
                xml_.writeAttribute(QStringLiteral("width"), QString::number(run));
                xml_.writeAttribute(QStringLiteral("height"), QStringLiteral("1"));
                xml_.writeAttribute(QStringLiteral("fill"), colorText(c));
                if (c.alphaF() * opacity_ < 1) xml_.writeAttribute(QStringLiteral("fill-opacity"), num(c.alphaF() * opacity_));
                xml_.writeEndElement();
                x += run;
            }
        }
    }
    xml_.writeEndElement();
    xml_.writeEndElement();
    return id;
}

void SvgPaintEngine::writeTransform(const QTransform& t)
{
    if (!t.isIdentity()) xml_.writeAttribute(QStringLiteral("transform"), matrixText(t));
}

void SvgPaintEngine::writeBrush()
{
    const Qt::BrushStyle s = brush_.style();
    if (s == Qt::NoBrush) {
        xml_.writeAttribute(QStringLiteral("fill"), QStringLiteral("none"));
        return;
    }
    if (isHatch(s) || s == Qt::TexturePattern) return;   // written by startShape (needs its <defs> first)
    // Solid; a gradient only reaches here in a path QPainter did not emulate: its first stop's colour.
    QColor c = brush_.color();
    if (const QGradient* g = brush_.gradient(); g && !g->stops().isEmpty()) c = g->stops().front().second;
    xml_.writeAttribute(QStringLiteral("fill"), colorText(c));
    if (c.alphaF() * opacity_ < 1) xml_.writeAttribute(QStringLiteral("fill-opacity"), num(c.alphaF() * opacity_));
}

void SvgPaintEngine::writePen()
{
    if (pen_.style() == Qt::NoPen) {
        xml_.writeAttribute(QStringLiteral("stroke"), QStringLiteral("none"));
        return;
    }
    const QColor c = pen_.color();
    xml_.writeAttribute(QStringLiteral("stroke"), colorText(c));
    if (c.alphaF() * opacity_ < 1) xml_.writeAttribute(QStringLiteral("stroke-opacity"), num(c.alphaF() * opacity_));
    // A cosmetic pen is as wide on the device whatever the transform: undo the transform's scale.
    double width = pen_.widthF() > 0 ? pen_.widthF() : 1.0;
    if (pen_.isCosmetic()) {
        const double scale = std::sqrt(std::abs(transform_.determinant()));
        if (scale > 1e-9) width /= scale;
    }
    xml_.writeAttribute(QStringLiteral("stroke-width"), num(width));
    switch (pen_.capStyle()) {
    case Qt::RoundCap: xml_.writeAttribute(QStringLiteral("stroke-linecap"), QStringLiteral("round")); break;
    case Qt::SquareCap: xml_.writeAttribute(QStringLiteral("stroke-linecap"), QStringLiteral("square")); break;
    default: break;   // flat = SVG's default butt
    }
    switch (pen_.joinStyle()) {
    case Qt::RoundJoin: xml_.writeAttribute(QStringLiteral("stroke-linejoin"), QStringLiteral("round")); break;
    case Qt::BevelJoin: xml_.writeAttribute(QStringLiteral("stroke-linejoin"), QStringLiteral("bevel")); break;
    default:
        xml_.writeAttribute(QStringLiteral("stroke-linejoin"), QStringLiteral("miter"));
        xml_.writeAttribute(QStringLiteral("stroke-miterlimit"), num(pen_.miterLimit()));
        break;
    }
    if (pen_.style() != Qt::SolidLine) {
        // Qt's dashes are in pen widths.
        QStringList dashes;
        for (double d : pen_.dashPattern()) dashes << num(d * width);
        if (!dashes.isEmpty()) xml_.writeAttribute(QStringLiteral("stroke-dasharray"), dashes.join(QLatin1Char(' ')));
        if (pen_.dashOffset() != 0) xml_.writeAttribute(QStringLiteral("stroke-dashoffset"), num(pen_.dashOffset() * width));
    }
}

void SvgPaintEngine::startShape(const QString& element, Fill fill)
{
    syncClip();
    const bool patterned = fill == Fill::Brush && (isHatch(brush_.style()) || brush_.style() == Qt::TexturePattern);
    const QString pattern = patterned ? patternFor(brush_) : QString();
    xml_.writeStartElement(element);
    writeTransform(transform_);
    if (fill == Fill::None) xml_.writeAttribute(QStringLiteral("fill"), QStringLiteral("none"));
    else if (patterned) xml_.writeAttribute(QStringLiteral("fill"), QStringLiteral("url(#%1)").arg(pattern));
    else writeBrush();
    writePen();
    if (!antialiased_) xml_.writeAttribute(QStringLiteral("shape-rendering"), QStringLiteral("crispEdges"));
}

void SvgPaintEngine::drawRects(const QRectF* rects, int count)
{
    for (int i = 0; i < count; ++i) {
        const QRectF r = rects[i].normalized();
        startShape(QStringLiteral("rect"), Fill::Brush);
        xml_.writeAttribute(QStringLiteral("x"), num(r.x()));
        xml_.writeAttribute(QStringLiteral("y"), num(r.y()));
        xml_.writeAttribute(QStringLiteral("width"), num(r.width()));
        xml_.writeAttribute(QStringLiteral("height"), num(r.height()));
        xml_.writeEndElement();
    }
}

void SvgPaintEngine::drawLines(const QLineF* lines, int count)
{
    if (pen_.style() == Qt::NoPen) return;
    for (int i = 0; i < count; ++i) {
        startShape(QStringLiteral("line"), Fill::None);
        xml_.writeAttribute(QStringLiteral("x1"), num(lines[i].x1()));
        xml_.writeAttribute(QStringLiteral("y1"), num(lines[i].y1()));
        xml_.writeAttribute(QStringLiteral("x2"), num(lines[i].x2()));
        xml_.writeAttribute(QStringLiteral("y2"), num(lines[i].y2()));
        xml_.writeEndElement();
    }
}

void SvgPaintEngine::drawEllipse(const QRectF& rect)
{
    const QRectF r = rect.normalized();
    startShape(QStringLiteral("ellipse"), Fill::Brush);
    xml_.writeAttribute(QStringLiteral("cx"), num(r.center().x()));
    xml_.writeAttribute(QStringLiteral("cy"), num(r.center().y()));
    xml_.writeAttribute(QStringLiteral("rx"), num(r.width() / 2));
    xml_.writeAttribute(QStringLiteral("ry"), num(r.height() / 2));
    xml_.writeEndElement();
}

QString SvgPaintEngine::pathData(const QPainterPath& path) const
{
    QString d;
    d.reserve(path.elementCount() * 16);
    for (int i = 0; i < path.elementCount(); ++i) {
        const QPainterPath::Element e = path.elementAt(i);
        switch (e.type) {
        case QPainterPath::MoveToElement: d += QLatin1Char('M'); break;
        case QPainterPath::LineToElement: d += QLatin1Char('L'); break;
        case QPainterPath::CurveToElement: d += QLatin1Char('C'); break;
        case QPainterPath::CurveToDataElement: break;   // the control points follow "C"
        }
        d += num(e.x) + QLatin1Char(' ') + num(e.y);
        if (i + 1 < path.elementCount()) d += QLatin1Char(' ');
    }
    return d;
}

void SvgPaintEngine::drawPath(const QPainterPath& path)
{
    if (path.isEmpty()) return;
    startShape(QStringLiteral("path"), Fill::Brush);
    xml_.writeAttribute(QStringLiteral("fill-rule"), path.fillRule() == Qt::OddEvenFill ? QStringLiteral("evenodd") : QStringLiteral("nonzero"));
    xml_.writeAttribute(QStringLiteral("d"), pathData(path));
    xml_.writeEndElement();
}

void SvgPaintEngine::drawPolygon(const QPointF* points, int count, PolygonDrawMode mode)
{
    if (count <= 0) return;
    const bool polyline = mode == PolylineMode;
    startShape(polyline ? QStringLiteral("polyline") : QStringLiteral("polygon"), polyline ? Fill::None : Fill::Brush);
    if (!polyline) xml_.writeAttribute(QStringLiteral("fill-rule"), mode == OddEvenMode ? QStringLiteral("evenodd") : QStringLiteral("nonzero"));
    QString pts;
    pts.reserve(count * 14);
    for (int i = 0; i < count; ++i) {
        if (i) pts += QLatin1Char(' ');
        pts += num(points[i].x()) + QLatin1Char(',') + num(points[i].y());
    }
    xml_.writeAttribute(QStringLiteral("points"), pts);
    xml_.writeEndElement();
}

void SvgPaintEngine::drawTextItem(const QPointF& position, const QTextItem& item)
{
    const QString text = item.text();
    if (text.isEmpty()) return;
    syncClip();
    const QFont f = item.font();
    const double px = f.pixelSize() > 0 ? double(f.pixelSize()) : f.pointSizeF() * SvgPaintDevice::kDpi / 72.0;
    xml_.writeStartElement(QStringLiteral("text"));
    writeTransform(transform_);
    xml_.writeAttribute(QStringLiteral("xml:space"), QStringLiteral("preserve"));
    xml_.writeAttribute(QStringLiteral("x"), num(position.x()));
    xml_.writeAttribute(QStringLiteral("y"), num(position.y()));   // the baseline, as in Qt
    xml_.writeAttribute(QStringLiteral("font-family"), QStringLiteral("'%1', sans-serif").arg(f.family()));
    xml_.writeAttribute(QStringLiteral("font-size"), num(px));
    if (f.weight() != QFont::Normal) xml_.writeAttribute(QStringLiteral("font-weight"), QString::number(int(f.weight())));
    if (f.style() != QFont::StyleNormal) xml_.writeAttribute(QStringLiteral("font-style"), f.style() == QFont::StyleItalic ? QStringLiteral("italic") : QStringLiteral("oblique"));
    QStringList decoration;
    if (f.underline() || item.renderFlags().testFlag(QTextItem::Underline)) decoration << QStringLiteral("underline");
    if (f.overline() || item.renderFlags().testFlag(QTextItem::Overline)) decoration << QStringLiteral("overline");
    if (f.strikeOut() || item.renderFlags().testFlag(QTextItem::StrikeOut)) decoration << QStringLiteral("line-through");
    if (!decoration.isEmpty()) xml_.writeAttribute(QStringLiteral("text-decoration"), decoration.join(QLatin1Char(' ')));
    if (item.renderFlags().testFlag(QTextItem::RightToLeft)) xml_.writeAttribute(QStringLiteral("direction"), QStringLiteral("rtl"));
    // The width Qt laid the text out with: a viewer with other font metrics still fits the box.
    if (item.width() > 0) {
        xml_.writeAttribute(QStringLiteral("textLength"), num(item.width()));
        xml_.writeAttribute(QStringLiteral("lengthAdjust"), QStringLiteral("spacingAndGlyphs"));
    }
    const QColor c = pen_.color();
    xml_.writeAttribute(QStringLiteral("fill"), colorText(c));
    if (c.alphaF() * opacity_ < 1) xml_.writeAttribute(QStringLiteral("fill-opacity"), num(c.alphaF() * opacity_));
    xml_.writeCharacters(text);
    xml_.writeEndElement();
}

QString SvgPaintEngine::imageData(const QImage& image) const
{
    QByteArray png;
    QBuffer out(&png);
    out.open(QIODevice::WriteOnly);
    image.save(&out, "PNG");
    return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
}

void SvgPaintEngine::drawImage(const QRectF& target, const QImage& image, const QRectF& source, Qt::ImageConversionFlags)
{
    if (image.isNull() || target.isEmpty()) return;
    const QRect src = source.toAlignedRect().intersected(image.rect());
    syncClip();
    xml_.writeStartElement(QStringLiteral("image"));
    writeTransform(transform_);
    xml_.writeAttribute(QStringLiteral("x"), num(target.x()));
    xml_.writeAttribute(QStringLiteral("y"), num(target.y()));
    xml_.writeAttribute(QStringLiteral("width"), num(target.width()));
    xml_.writeAttribute(QStringLiteral("height"), num(target.height()));
    xml_.writeAttribute(QStringLiteral("preserveAspectRatio"), QStringLiteral("none"));
    if (opacity_ < 1) xml_.writeAttribute(QStringLiteral("opacity"), num(opacity_));
    xml_.writeAttribute(QStringLiteral("xlink:href"), imageData(src == image.rect() ? image : image.copy(src)));
    xml_.writeEndElement();
}

void SvgPaintEngine::drawPixmap(const QRectF& target, const QPixmap& pixmap, const QRectF& source)
{
    drawImage(target, pixmap.toImage(), source, Qt::AutoColor);
}

} // namespace nestor::widgets
