// The SVG paint device (widgets/SvgPaintDevice): known primitives drawn with QPainter come out as
// SVG 1.1 elements, read back with QXmlStreamReader, with the coordinates, colours, pen and text
// they were drawn with (the expected values are the arguments of the calls, and Qt's documented
// dash pattern and hatch shape); and a real Dataflow frame (VGG-16 conv3_1, row-stationary, on
// examples/eyeriss-like.yaml) exports as well-formed SVG with one rectangle per PE: the traced
// level ifmap_spad has 14 x 12 instances in the YAML, so 168 cells on 14 columns and 12 rows.
#include "DataflowContext.h"
#include "DataflowView.h"
#include "SvgPaintDevice.h"
#include "support/RowStationaryDataflow.h"
#include "io/ProjectYaml.h"
#include "teaching/DataflowExport.h"
#include "trace/StepTrace.h"

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <map>
#include <set>

using nestor::widgets::SvgPaintDevice;

namespace {

const QString kSvgNs = QStringLiteral("http://www.w3.org/2000/svg");
const QString kXlinkNs = QStringLiteral("http://www.w3.org/1999/xlink");

struct Element {
    QString name;
    std::map<QString, QString> attributes;   // "xlink:href" for the xlink namespace
    QString text;
    int clipDepth = 0;                        // enclosing <g clip-path> groups
    QString get(const QString& a) const
    {
        const auto it = attributes.find(a);
        return it == attributes.end() ? QString() : it->second;
    }
    double num(const QString& a) const { return get(a).toDouble(); }
};

// Every element of the document in order; fails the test when the XML is not well formed.
std::vector<Element> parse(const QByteArray& svg, QString* error)
{
    std::vector<Element> out;
    QXmlStreamReader xml(svg);
    std::vector<bool> clipGroups;
    std::vector<std::size_t> open;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            Element e;
            e.name = xml.name().toString();
            if (xml.namespaceUri() != kSvgNs) e.name.prepend(QStringLiteral("?"));
            for (const QXmlStreamAttribute& a : xml.attributes()) {
                const QString key = a.namespaceUri() == kXlinkNs ? QStringLiteral("xlink:") + a.name().toString() : a.qualifiedName().toString();
                e.attributes[key] = a.value().toString();
            }
            e.clipDepth = int(std::count(clipGroups.begin(), clipGroups.end(), true));
            clipGroups.push_back(e.name == QLatin1String("g") && !e.get(QStringLiteral("clip-path")).isEmpty());
            open.push_back(out.size());
            out.push_back(e);
        } else if (xml.isCharacters() && !open.empty()) {
            out[open.back()].text += xml.text().toString();
        } else if (xml.isEndElement()) {
            clipGroups.pop_back();
            open.pop_back();
        }
    }
    if (xml.hasError() && error) *error = xml.errorString();
    return out;
}

std::vector<Element> ofKind(const std::vector<Element>& all, const QString& name)
{
    std::vector<Element> out;
    for (const Element& e : all)
        if (e.name == name) out.push_back(e);
    return out;
}

QByteArray paintOn(QSize size, const std::function<void(QPainter&)>& draw)
{
    SvgPaintDevice device(size, QStringLiteral("test <drawing>"));
    QPainter p(&device);
    draw(p);
    p.end();
    return device.document();
}

} // namespace

class TestSvgPaintDevice : public QObject {
    Q_OBJECT
private slots:
    void documentHeader()
    {
        const QByteArray svg = paintOn(QSize(320, 200), [](QPainter&) {});
        QString error;
        const auto all = parse(svg, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(svg.startsWith("<?xml"));
        QCOMPARE(all.front().name, QStringLiteral("svg"));
        QCOMPARE(all.front().get(QStringLiteral("version")), QStringLiteral("1.1"));
        QCOMPARE(all.front().get(QStringLiteral("width")), QStringLiteral("320"));
        QCOMPARE(all.front().get(QStringLiteral("height")), QStringLiteral("200"));
        QCOMPARE(all.front().get(QStringLiteral("viewBox")), QStringLiteral("0 0 320 200"));
        QCOMPARE(ofKind(all, QStringLiteral("title")).front().text, QStringLiteral("test <drawing>"));
    }

    void shapesWithPenAndBrush()
    {
        const QByteArray svg = paintOn(QSize(300, 300), [](QPainter& p) {
            p.setRenderHint(QPainter::Antialiasing);
            p.setPen(QPen(QColor(0x12, 0x34, 0x56), 2));
            p.setBrush(QColor(0xab, 0xcd, 0xef));
            p.drawRect(QRectF(10, 20, 30, 40));
            p.setPen(QPen(Qt::red, 3, Qt::SolidLine, Qt::RoundCap));
            p.drawLine(QPointF(1, 2), QPointF(50, 60.5));
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(0, 128, 0));
            p.drawEllipse(QPointF(100, 110), 5, 7);
            p.setPen(QPen(Qt::black, 1));
            p.setBrush(Qt::yellow);
            p.drawPolygon(QPolygonF({QPointF(0, 0), QPointF(10, 0), QPointF(5, 8)}));
            p.drawPolyline(QPolygonF({QPointF(20, 20), QPointF(30, 25), QPointF(40, 20)}));
        });
        QString error;
        const auto all = parse(svg, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));

        const auto rects = ofKind(all, QStringLiteral("rect"));
        QCOMPARE(rects.size(), std::size_t(1));
        QCOMPARE(rects[0].num(QStringLiteral("x")), 10.0);
        QCOMPARE(rects[0].num(QStringLiteral("y")), 20.0);
        QCOMPARE(rects[0].num(QStringLiteral("width")), 30.0);
        QCOMPARE(rects[0].num(QStringLiteral("height")), 40.0);
        QCOMPARE(rects[0].get(QStringLiteral("fill")), QStringLiteral("#abcdef"));
        QCOMPARE(rects[0].get(QStringLiteral("stroke")), QStringLiteral("#123456"));
        QCOMPARE(rects[0].num(QStringLiteral("stroke-width")), 2.0);

        const auto lines = ofKind(all, QStringLiteral("line"));
        QCOMPARE(lines.size(), std::size_t(1));
        QCOMPARE(lines[0].num(QStringLiteral("x1")), 1.0);
        QCOMPARE(lines[0].num(QStringLiteral("y1")), 2.0);
        QCOMPARE(lines[0].num(QStringLiteral("x2")), 50.0);
        QCOMPARE(lines[0].num(QStringLiteral("y2")), 60.5);
        QCOMPARE(lines[0].get(QStringLiteral("stroke")), QStringLiteral("#ff0000"));
        QCOMPARE(lines[0].get(QStringLiteral("stroke-linecap")), QStringLiteral("round"));
        QCOMPARE(lines[0].num(QStringLiteral("stroke-width")), 3.0);

        const auto ellipses = ofKind(all, QStringLiteral("ellipse"));
        QCOMPARE(ellipses.size(), std::size_t(1));
        QCOMPARE(ellipses[0].num(QStringLiteral("cx")), 100.0);
        QCOMPARE(ellipses[0].num(QStringLiteral("cy")), 110.0);
        QCOMPARE(ellipses[0].num(QStringLiteral("rx")), 5.0);
        QCOMPARE(ellipses[0].num(QStringLiteral("ry")), 7.0);
        QCOMPARE(ellipses[0].get(QStringLiteral("fill")), QStringLiteral("#008000"));
        QCOMPARE(ellipses[0].get(QStringLiteral("stroke")), QStringLiteral("none"));

        const auto polygons = ofKind(all, QStringLiteral("polygon"));
        QCOMPARE(polygons.size(), std::size_t(1));
        QCOMPARE(polygons[0].get(QStringLiteral("points")), QStringLiteral("0,0 10,0 5,8"));
        QCOMPARE(polygons[0].get(QStringLiteral("fill")), QStringLiteral("#ffff00"));
        const auto polylines = ofKind(all, QStringLiteral("polyline"));
        QCOMPARE(polylines.size(), std::size_t(1));
        QCOMPARE(polylines[0].get(QStringLiteral("points")), QStringLiteral("20,20 30,25 40,20"));
        QCOMPARE(polylines[0].get(QStringLiteral("fill")), QStringLiteral("none"));
        for (const Element& e : all) QVERIFY(e.get(QStringLiteral("shape-rendering")).isEmpty());   // antialiased
    }

    void pathsDashesOpacityAndTransforms()
    {
        const QByteArray svg = paintOn(QSize(300, 300), [](QPainter& p) {
            QPainterPath path;
            path.moveTo(0, 0);
            path.lineTo(10, 0);
            path.cubicTo(20, 0, 20, 10, 10, 10);
            path.closeSubpath();
            p.fillPath(path, QColor(0x20, 0x40, 0x60));
            p.setPen(QPen(Qt::blue, 2, Qt::DashLine, Qt::FlatCap));
            p.drawLine(QPointF(0, 50), QPointF(100, 50));
            p.setPen(Qt::NoPen);
            p.setOpacity(0.5);
            p.setBrush(QColor(255, 0, 0, 128));
            p.drawRect(QRectF(0, 0, 5, 5));
            p.setOpacity(1);
            p.translate(100, 50);
            p.scale(2, 2);
            p.setBrush(Qt::black);
            p.drawRect(QRectF(1, 2, 3, 4));
        });
        QString error;
        const auto all = parse(svg, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const auto paths = ofKind(all, QStringLiteral("path"));
        QCOMPARE(paths.size(), std::size_t(1));
        QCOMPARE(paths[0].get(QStringLiteral("d")), QStringLiteral("M0 0 L10 0 C20 0 20 10 10 10 L0 0"));
        QCOMPARE(paths[0].get(QStringLiteral("fill")), QStringLiteral("#204060"));
        QCOMPARE(paths[0].get(QStringLiteral("stroke")), QStringLiteral("none"));

        const auto lines = ofKind(all, QStringLiteral("line"));
        QCOMPARE(lines.size(), std::size_t(1));
        // Qt's DashLine is 4 widths of dash and 2 of space; the pen is 2 wide.
        QCOMPARE(lines[0].get(QStringLiteral("stroke-dasharray")), QStringLiteral("8 4"));
        QCOMPARE(lines[0].get(QStringLiteral("stroke")), QStringLiteral("#0000ff"));

        const auto rects = ofKind(all, QStringLiteral("rect"));
        QCOMPARE(rects.size(), std::size_t(2));
        QVERIFY(std::abs(rects[0].num(QStringLiteral("fill-opacity")) - 0.5 * 128 / 255.0) < 1e-3);
        QCOMPARE(rects[0].get(QStringLiteral("transform")), QString());
        QCOMPARE(rects[1].get(QStringLiteral("transform")), QStringLiteral("matrix(2 0 0 2 100 50)"));
        QCOMPARE(rects[1].num(QStringLiteral("x")), 1.0);
        QCOMPARE(rects[1].num(QStringLiteral("height")), 4.0);
        QCOMPARE(rects[1].get(QStringLiteral("fill-opacity")), QString());
    }

    void textKeepsFontAndColour()
    {
        const QByteArray svg = paintOn(QSize(300, 300), [](QPainter& p) {
            QFont f(QStringLiteral("DejaVu Sans"));
            f.setPixelSize(20);
            f.setBold(true);
            f.setItalic(true);
            p.setFont(f);
            p.setPen(QColor(0, 0, 255));
            p.drawText(QPointF(30, 200), QStringLiteral("Hello <&> 14 × 12"));
        });
        QString error;
        const auto all = parse(svg, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const auto texts = ofKind(all, QStringLiteral("text"));
        QCOMPARE(texts.size(), std::size_t(1));
        const Element& t = texts[0];
        QCOMPARE(t.text, QStringLiteral("Hello <&> 14 × 12"));
        QCOMPARE(t.num(QStringLiteral("x")), 30.0);
        QCOMPARE(t.num(QStringLiteral("y")), 200.0);
        QCOMPARE(t.num(QStringLiteral("font-size")), 20.0);
        QCOMPARE(t.get(QStringLiteral("font-weight")), QStringLiteral("700"));
        QCOMPARE(t.get(QStringLiteral("font-style")), QStringLiteral("italic"));
        QVERIFY(t.get(QStringLiteral("font-family")).contains(QStringLiteral("DejaVu Sans")));
        QCOMPARE(t.get(QStringLiteral("fill")), QStringLiteral("#0000ff"));
        QCOMPARE(t.get(QStringLiteral("xml:space")), QStringLiteral("preserve"));
    }

    void hatchClipAndImage()
    {
        QImage image(2, 2, QImage::Format_RGB32);
        image.setPixel(0, 0, qRgb(255, 0, 0));
        image.setPixel(1, 0, qRgb(0, 255, 0));
        image.setPixel(0, 1, qRgb(0, 0, 255));
        image.setPixel(1, 1, qRgb(10, 20, 30));
        const QByteArray svg = paintOn(QSize(100, 100), [&](QPainter& p) {
            p.setPen(Qt::NoPen);
            p.setBrush(QBrush(QColor(0x90, 0x90, 0x90), Qt::BDiagPattern));
            p.drawRect(QRectF(0, 0, 40, 40));
            p.setClipRect(QRect(10, 10, 50, 50));
            p.drawImage(QRectF(20, 20, 4, 4), image);
            p.setClipping(false);
            p.setBrush(Qt::red);
            p.drawRect(QRectF(70, 70, 5, 5));
        });
        QString error;
        const auto all = parse(svg, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(ofKind(all, QStringLiteral("rect")).back().get(QStringLiteral("shape-rendering")), QStringLiteral("crispEdges"));   // not antialiased

        // The hatched rectangle refers to an 8 x 8 pattern of single pixels along one "/" diagonal.
        const auto patterns = ofKind(all, QStringLiteral("pattern"));
        QCOMPARE(patterns.size(), std::size_t(1));
        QCOMPARE(patterns[0].get(QStringLiteral("width")), QStringLiteral("8"));
        QCOMPARE(patterns[0].get(QStringLiteral("height")), QStringLiteral("8"));
        const QString id = patterns[0].get(QStringLiteral("id"));
        std::vector<Element> hatched, cells;
        bool inPattern = false;
        for (const Element& e : all) {
            if (e.name == QLatin1String("pattern")) inPattern = true;
            else if (e.name == QLatin1String("rect") && inPattern && e.get(QStringLiteral("fill")) == QLatin1String("#909090")) cells.push_back(e);
            else if (e.name == QLatin1String("rect")) {
                inPattern = false;
                hatched.push_back(e);
            }
        }
        QCOMPARE(hatched.front().get(QStringLiteral("fill")), QStringLiteral("url(#%1)").arg(id));
        QCOMPARE(cells.size(), std::size_t(8));
        std::set<int> sums, rows;
        for (const Element& c : cells) {
            QCOMPARE(c.num(QStringLiteral("width")), 1.0);
            sums.insert(int(c.num(QStringLiteral("x")) + c.num(QStringLiteral("y"))));
            rows.insert(int(c.num(QStringLiteral("y"))));
        }
        QCOMPARE(sums.size(), std::size_t(1));
        QCOMPARE(rows.size(), std::size_t(8));

        // The image sits in a group clipped to the clip rectangle; the last rectangle does not.
        const auto clips = ofKind(all, QStringLiteral("clipPath"));
        QCOMPARE(clips.size(), std::size_t(1));
        const auto images = ofKind(all, QStringLiteral("image"));
        QCOMPARE(images.size(), std::size_t(1));
        QCOMPARE(images[0].clipDepth, 1);
        QCOMPARE(hatched.back().clipDepth, 0);
        QCOMPARE(hatched.back().get(QStringLiteral("fill")), QStringLiteral("#ff0000"));
        QCOMPARE(images[0].num(QStringLiteral("width")), 4.0);
        const QString href = images[0].get(QStringLiteral("xlink:href"));
        QVERIFY(href.startsWith(QStringLiteral("data:image/png;base64,")));
        const QImage back = QImage::fromData(QByteArray::fromBase64(href.mid(22).toLatin1()), "PNG").convertToFormat(QImage::Format_RGB32);
        QCOMPARE(back, image);
        // The clip path: the clip rectangle 10..60 on both axes.
        const Element clipShape = [&] {
            for (std::size_t i = 0; i + 1 < all.size(); ++i)
                if (all[i].name == QLatin1String("clipPath")) return all[i + 1];
            return Element{};
        }();
        const QStringList d = clipShape.get(QStringLiteral("d")).split(QRegularExpression(QStringLiteral("[ML ]+")), Qt::SkipEmptyParts);
        std::set<double> xs, ys;
        for (int i = 0; i + 1 < d.size(); i += 2) {
            xs.insert(d[i].toDouble());
            ys.insert(d[i + 1].toDouble());
        }
        QCOMPARE(xs, (std::set<double>{10, 60}));
        QCOMPARE(ys, (std::set<double>{10, 60}));
    }

    void dataflowFrameHasOneRectanglePerPe()
    {
        using namespace nestor;
        const test::RowStationaryDataflow rs;
        QVERIFY(rs.ok());
        const trace::StepTrace& tr = *rs.trace;
        widgets::DataflowView view;
        rs.showIn(view, QSize(1366, 768));
        view.setFrame(tr.frame(100), tr.frame(99));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("frame.svg"));
        QString error;
        QVERIFY2(app::DataflowExport::svg(&view, path, QStringLiteral("row-stationary, step 100"), &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto all = parse(f.readAll(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(all.front().get(QStringLiteral("width")), QStringLiteral("1366"));

        // The PE cells are the rectangles of the most common size, the largest of those if several
        // sizes are as common (each cell holds a tensor plane and a tile of fixed sizes); idle
        // cells are drawn twice (colour, then hatch): count distinct places.
        std::map<std::pair<long, long>, std::set<std::pair<long, long>>> bySize;
        for (const Element& e : ofKind(all, QStringLiteral("rect"))) {
            if (!e.get(QStringLiteral("transform")).isEmpty()) continue;
            const auto size = std::make_pair(std::lround(e.num(QStringLiteral("width")) * 100), std::lround(e.num(QStringLiteral("height")) * 100));
            bySize[size].insert({std::lround(e.num(QStringLiteral("x")) * 100), std::lround(e.num(QStringLiteral("y")) * 100)});
        }
        const std::set<std::pair<long, long>>* cells = nullptr;
        long cellArea = 0;
        for (const auto& [size, places] : bySize)
            if (!cells || places.size() > cells->size() || (places.size() == cells->size() && size.first * size.second > cellArea)) {
                cells = &places;
                cellArea = size.first * size.second;
            }
        QVERIFY(cells);
        QCOMPARE(cells->size(), std::size_t(14 * 12));
        std::set<long> columns, rows;
        for (const auto& [x, y] : *cells) {
            columns.insert(x);
            rows.insert(y);
        }
        QCOMPARE(columns.size(), std::size_t(14));
        QCOMPARE(rows.size(), std::size_t(12));
        // Text stays text: the title, and each active cell's "x,y" label (every PE is active: the
        // mapping's spatial loops are Q 14 across and M 4 x S 3 down, the whole 14 x 12 array).
        bool title = false;
        std::set<QString> labels;
        for (const Element& e : ofKind(all, QStringLiteral("text"))) {
            title = title || e.text.startsWith(QStringLiteral("Step 100 "));
            if (QRegularExpression(QStringLiteral("^\\d+,\\d+$")).match(e.text).hasMatch()) labels.insert(e.text);
        }
        QVERIFY(title);
        QCOMPARE(labels.size(), std::size_t(14 * 12));
        QVERIFY(labels.count(QStringLiteral("13,11")));
        QCOMPARE(ofKind(all, QStringLiteral("title")).front().text, QStringLiteral("row-stationary, step 100"));
    }

    void badPathIsAnError()
    {
        SvgPaintDevice device(QSize(10, 10));
        QString error;
        QVERIFY(!device.save(QStringLiteral("/nonexistent-dir/x.svg"), &error));   // nothing painted yet
        QVERIFY(!error.isEmpty());
        QPainter p(&device);
        p.drawRect(0, 0, 5, 5);
        p.end();
        error.clear();
        QVERIFY(!device.save(QStringLiteral("/nonexistent-dir/x.svg"), &error));
        QVERIFY(error.contains(QStringLiteral("x.svg")));
    }
};

QTEST_MAIN(TestSvgPaintDevice)
#include "tst_svg_paint_device.moc"
