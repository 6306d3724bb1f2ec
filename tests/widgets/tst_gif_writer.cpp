// The animated GIF writer (widgets/GifWriter, widgets/GifLzwEncoder) checked by an independent
// decoder, Qt's GIF reader plugin: frames of up to 256 colours come back with exactly the pixels
// written (random noise that fills and resets the LZW code table, one-colour and two-colour
// frames, a frame equal to the previous one, a frame changing a small area), with their count,
// delays and loop setting. A frame of more than 256 colours keeps its 200 frequent colours
// exactly, 56 rare ones too (256 in all), and draws every other as its nearest table colour, as
// GifWriter.h documents (the nearest found here by brute force). And a Dataflow step range
// exports through DataflowExport::gif with one frame per step at the given delay.
#include "DataflowContext.h"
#include "DataflowView.h"
#include "GifWriter.h"
#include "support/RowStationaryDataflow.h"
#include "io/ProjectYaml.h"
#include "teaching/DataflowExport.h"
#include "trace/StepTrace.h"

#include <QBuffer>
#include <QImageReader>
#include <QTemporaryDir>
#include <QTest>

#include <climits>
#include <random>
#include <set>

using nestor::widgets::GifWriter;

namespace {

QImage randomImage(QSize size, int colors, std::mt19937& rng)
{
    std::vector<QRgb> palette;
    std::uniform_int_distribution<int> byte(0, 255);
    while (int(palette.size()) < colors) {
        const QRgb c = qRgb(byte(rng), byte(rng), byte(rng));
        if (std::find(palette.begin(), palette.end(), c) == palette.end()) palette.push_back(c);
    }
    std::uniform_int_distribution<int> pick(0, colors - 1);
    QImage img(size, QImage::Format_RGB32);
    for (int y = 0; y < size.height(); ++y)
        for (int x = 0; x < size.width(); ++x) img.setPixel(x, y, palette[std::size_t(pick(rng))]);
    return img;
}

struct Decoded {
    std::vector<QImage> frames;
    std::vector<int> delaysMs;
    int count = -1;
    int loops = -2;
};

Decoded decode(const QByteArray& gif)
{
    Decoded d;
    QBuffer buffer;
    buffer.setData(gif);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer, "gif");
    d.count = reader.imageCount();
    QImage img;
    while (reader.read(&img)) {
        d.frames.push_back(img.convertToFormat(QImage::Format_RGB32));
        d.delaysMs.push_back(reader.nextImageDelay());
    }
    d.loops = reader.loopCount();
    return d;
}

} // namespace

class TestGifWriter : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(QImageReader::supportedImageFormats().contains("gif")); }

    void framesComeBackExactly()
    {
        std::mt19937 rng(7);
        const QSize size(160, 120);   // 19,200 random pixels of 200 colours: several code table resets
        std::vector<QImage> frames;
        frames.push_back(randomImage(size, 200, rng));
        QImage changed = frames.back();
        for (int y = 40; y < 47; ++y)
            for (int x = 100; x < 113; ++x) changed.setPixel(x, y, qRgb(1, 2, 3));
        frames.push_back(changed);
        frames.push_back(changed);   // unchanged
        QImage one(size, QImage::Format_RGB32);
        one.fill(qRgb(200, 100, 50));
        frames.push_back(one);
        QImage two = one;
        for (int y = 0; y < size.height(); ++y)
            for (int x = 0; x < size.width(); ++x)
                if ((x / 3 + y / 5) % 2) two.setPixel(x, y, qRgb(0, 0, 0));
        frames.push_back(two);
        frames.push_back(randomImage(size, 3, rng));
        frames.push_back(randomImage(size, 256, rng));
        const std::vector<int> delays = {5, 7, 10, 250, 2, 100, 65535};

        QByteArray bytes;
        QBuffer out(&bytes);
        out.open(QIODevice::WriteOnly);
        GifWriter writer(&out);
        QVERIFY(writer.begin(size));
        for (std::size_t i = 0; i < frames.size(); ++i) QVERIFY2(writer.addFrame(frames[i], delays[i]), qPrintable(writer.errorString()));
        QVERIFY(writer.finish());
        QVERIFY(bytes.startsWith("GIF89a"));
        QVERIFY(bytes.contains("NETSCAPE2.0"));
        QCOMPARE(bytes.back(), char(0x3b));

        const Decoded d = decode(bytes);
        QCOMPARE(d.count, int(frames.size()));
        QCOMPARE(d.frames.size(), frames.size());
        for (std::size_t i = 0; i < frames.size(); ++i) {
            QCOMPARE(d.frames[i].size(), size);
            QVERIFY2(d.frames[i] == frames[i], qPrintable(QStringLiteral("frame %1 differs").arg(i)));
            QCOMPARE(d.delaysMs[i], delays[i] * 10);
        }
        QCOMPARE(d.loops, -1);   // Qt's reader: -1 = loops forever (NETSCAPE2.0 count 0)
    }

    void loopCountIsWritten()
    {
        QByteArray bytes;
        QBuffer out(&bytes);
        out.open(QIODevice::WriteOnly);
        GifWriter writer(&out);
        QVERIFY(writer.begin(QSize(3, 2), 3));
        QImage img(3, 2, QImage::Format_RGB32);
        img.fill(Qt::red);
        QVERIFY(writer.addFrame(img, 4));
        QVERIFY(writer.finish());
        const Decoded d = decode(bytes);
        QCOMPARE(d.frames.size(), std::size_t(1));
        QCOMPARE(d.frames[0], img);
        QCOMPARE(d.loops, 3);
    }

    void moreThan256ColoursKeepTheFrequentOnes()
    {
        // 200 colours on 8 x 8 blocks (far apart: components multiples of 40), and 1,000 rare
        // colours, each one pixel, within 3 of a block colour on every component.
        std::mt19937 rng(3);
        std::vector<QRgb> frequent;
        for (int r = 0; r < 6 && frequent.size() < 200; ++r)
            for (int g = 0; g < 6 && frequent.size() < 200; ++g)
                for (int b = 0; b < 6 && frequent.size() < 200; ++b) frequent.push_back(qRgb(20 + 40 * r, 20 + 40 * g, 20 + 40 * b));
        const QSize size(160, 80);   // 20 x 10 blocks
        QImage img(size, QImage::Format_RGB32);
        for (int y = 0; y < size.height(); ++y)
            for (int x = 0; x < size.width(); ++x) img.setPixel(x, y, frequent[std::size_t((y / 8) * 20 + x / 8)]);
        std::uniform_int_distribution<int> offset(-3, 3), px(0, size.width() - 1), py(0, size.height() - 1);
        std::set<QRgb> rare;
        std::set<std::pair<int, int>> used;
        while (rare.size() < 1000) {
            const int x = px(rng), y = py(rng);
            if (!used.insert({x, y}).second) continue;
            const QRgb base = img.pixel(x, y);
            const QRgb c = qRgb(qRed(base) + offset(rng), qGreen(base) + offset(rng), qBlue(base) + offset(rng));
            if (c == base || std::find(frequent.begin(), frequent.end(), c) != frequent.end() || !rare.insert(c).second) {
                used.erase({x, y});
                continue;
            }
            img.setPixel(x, y, c);
        }
        QByteArray bytes;
        QBuffer out(&bytes);
        out.open(QIODevice::WriteOnly);
        GifWriter writer(&out);
        QVERIFY(writer.begin(size));
        QVERIFY(writer.addFrame(img, 10));
        QVERIFY(writer.finish());
        const Decoded d = decode(bytes);
        QCOMPARE(d.frames.size(), std::size_t(1));
        // The table: the 200 frequent colours and 56 of the rare ones (all equally rare, so any
        // 56: those read back as written); every other rare colour becomes its nearest entry.
        std::set<QRgb> rareKept;
        for (int y = 0; y < size.height(); ++y)
            for (int x = 0; x < size.width(); ++x)
                if (rare.count(img.pixel(x, y)) && d.frames[0].pixel(x, y) == img.pixel(x, y)) rareKept.insert(img.pixel(x, y));
        std::vector<QRgb> table = frequent;
        table.insert(table.end(), rareKept.begin(), rareKept.end());
        for (int y = 0; y < size.height(); ++y)
            for (int x = 0; x < size.width(); ++x) {
                const QRgb c = img.pixel(x, y);
                QRgb expected = c;
                if (rare.count(c) && !rareKept.count(c)) {
                    int best = INT_MAX;
                    for (QRgb f : table) {
                        const int dr = qRed(c) - qRed(f), dg = qGreen(c) - qGreen(f), db = qBlue(c) - qBlue(f);
                        if (dr * dr + dg * dg + db * db < best) {
                            best = dr * dr + dg * dg + db * db;
                            expected = f;
                        }
                    }
                }
                if (d.frames[0].pixel(x, y) != expected)
                    QFAIL(qPrintable(QStringLiteral("pixel (%1, %2): %3 written, %4 read, %5 expected").arg(x).arg(y).arg(c, 0, 16).arg(d.frames[0].pixel(x, y), 0, 16).arg(expected, 0, 16)));
            }
        QCOMPARE(rareKept.size(), std::size_t(256 - 200));
    }

    void badInputIsAnError()
    {
        QByteArray bytes;
        QBuffer out(&bytes);
        out.open(QIODevice::WriteOnly);
        GifWriter writer(&out);
        QImage img(4, 4, QImage::Format_RGB32);
        img.fill(Qt::blue);
        QVERIFY(!writer.addFrame(img, 10));   // not started
        QVERIFY(!writer.begin(QSize(0, 4)));
        QVERIFY(!writer.errorString().isEmpty());
        QVERIFY(writer.begin(QSize(4, 4)));
        QVERIFY(!writer.finish());            // no frame
        QVERIFY(!writer.addFrame(QImage(5, 4, QImage::Format_RGB32), 10));
        QVERIFY(writer.errorString().contains(QStringLiteral("5 x 4")));
        QVERIFY(!writer.addFrame(img, -1));
        QVERIFY(writer.addFrame(img, 10));
        QVERIFY(writer.finish());
    }

    void dataflowStepsExportAsGif()
    {
        using namespace nestor;
        const test::RowStationaryDataflow rs;
        QVERIFY(rs.ok());
        const trace::StepTrace& tr = *rs.trace;
        widgets::DataflowView view;
        rs.showIn(view, QSize(683, 384));
        view.setFrame(tr.frame(0));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("steps.gif"));
        QString error;
        QCOMPARE(app::DataflowExport::gifDelayForSpeed(4), 25);
        QCOMPARE(app::DataflowExport::gifDelayForSpeed(1000), 2);
        std::vector<int> reported;
        const int n = app::DataflowExport::gif(&view, tr, 94, 99, 25, path, &error, [&](int done, int total) {
            reported.push_back(done);
            return total == 5;
        });
        QVERIFY2(n == 5, qPrintable(error));
        QCOMPARE(reported, (std::vector<int>{1, 2, 3, 4, 5}));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const Decoded d = decode(f.readAll());
        QCOMPARE(d.count, 5);
        QCOMPARE(d.frames.size(), std::size_t(5));
        for (const QImage& frame : d.frames) QCOMPARE(frame.size(), QSize(683, 384));
        for (int ms : d.delaysMs) QCOMPARE(ms, 250);
        QVERIFY(d.frames[1] != d.frames[2]);   // step 96 brings new Inputs tiles (see tst_dataflow_tab)

        // Cancelling after two frames leaves no file; a range beyond the limit is refused.
        const QString cancelled = dir.filePath(QStringLiteral("cancelled.gif"));
        QCOMPARE(app::DataflowExport::gif(&view, tr, 0, 10, 25, cancelled, &error, [](int done, int) { return done < 2; }), -1);
        QVERIFY(!QFile::exists(cancelled));
        QCOMPARE(app::DataflowExport::gif(&view, tr, 0, app::DataflowExport::kMaxSequenceFrames + 1, 25, cancelled, &error), -1);
        QVERIFY(error.contains(QString::number(app::DataflowExport::kMaxSequenceFrames)));
    }
};

QTEST_MAIN(TestGifWriter)
#include "tst_gif_writer.moc"
