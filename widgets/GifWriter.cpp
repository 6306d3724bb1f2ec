#include "GifWriter.h"

#include "GifLzwEncoder.h"

#include <QHash>
#include <QIODevice>
#include <QObject>
#include <QPainter>

#include <algorithm>

namespace nestor::widgets {

namespace {

void put16(QByteArray& b, int v)
{
    b.append(char(v & 0xff));
    b.append(char((v >> 8) & 0xff));
}

int distance2(QRgb a, QRgb b)
{
    const int dr = qRed(a) - qRed(b), dg = qGreen(a) - qGreen(b), db = qBlue(a) - qBlue(b);
    return dr * dr + dg * dg + db * db;
}

QImage opaqueRgb32(const QImage& frame)
{
    if (frame.format() == QImage::Format_RGB32) return frame;
    if (!frame.hasAlphaChannel()) return frame.convertToFormat(QImage::Format_RGB32);
    QImage out(frame.size(), QImage::Format_RGB32);
    out.fill(Qt::white);
    QPainter p(&out);
    p.drawImage(0, 0, frame);
    return out;
}

// The smallest rectangle holding every pixel that differs between a and b (same size); empty if none.
QRect changedRect(const QImage& a, const QImage& b)
{
    int top = -1, bottom = -1, left = a.width(), right = -1;
    for (int y = 0; y < a.height(); ++y) {
        const auto* ra = reinterpret_cast<const QRgb*>(a.constScanLine(y));
        const auto* rb = reinterpret_cast<const QRgb*>(b.constScanLine(y));
        int x0 = 0;
        while (x0 < a.width() && ra[x0] == rb[x0]) ++x0;
        if (x0 == a.width()) continue;
        int x1 = a.width() - 1;
        while (ra[x1] == rb[x1]) --x1;
        if (top < 0) top = y;
        bottom = y;
        left = std::min(left, x0);
        right = std::max(right, x1);
    }
    if (top < 0) return {};
    return QRect(QPoint(left, top), QPoint(right, bottom));
}

} // namespace

GifWriter::GifWriter(QIODevice* out) : out_(out) {}

bool GifWriter::fail(const QString& error)
{
    error_ = error;
    return false;
}

bool GifWriter::write(const QByteArray& bytes)
{
    if (!out_ || out_->write(bytes) != bytes.size())
        return fail(QObject::tr("Cannot write the GIF: %1").arg(out_ ? out_->errorString() : QObject::tr("no output")));
    return true;
}

bool GifWriter::begin(QSize size, int loops)
{
    if (started_) return fail(QObject::tr("The GIF is already started."));
    if (size.width() < 1 || size.height() < 1 || size.width() > 65535 || size.height() > 65535)
        return fail(QObject::tr("A GIF frame must be 1 to 65535 pixels wide and high, not %1 x %2.").arg(size.width()).arg(size.height()));
    if (loops < 0 || loops > 65535) return fail(QObject::tr("The loop count must be 0 (forever) to 65535."));
    size_ = size;
    QByteArray b("GIF89a");
    put16(b, size.width());
    put16(b, size.height());
    b.append(char(0x70));   // no global colour table; 8 bits per primary in the source
    b.append(char(0));      // background colour index
    b.append(char(0));      // pixel aspect ratio: not given
    // NETSCAPE2.0 application extension: sub-block 1 holds the loop count.
    b.append(char(0x21));
    b.append(char(0xff));
    b.append(char(11));
    b.append("NETSCAPE2.0");
    b.append(char(3));
    b.append(char(1));
    put16(b, loops);
    b.append(char(0));
    started_ = write(b);
    return started_;
}

GifWriter::Indexed GifWriter::index(const QImage& rgb32)
{
    Indexed out;
    QHash<QRgb, int> counts;
    for (int y = 0; y < rgb32.height(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(rgb32.constScanLine(y));
        for (int x = 0; x < rgb32.width(); ++x) ++counts[row[x] | 0xff000000u];
    }
    std::vector<std::pair<QRgb, int>> colors(counts.keyValueBegin(), counts.keyValueEnd());
    // Most frequent first; equal counts by colour, so that the table does not depend on hashing.
    std::sort(colors.begin(), colors.end(), [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
    const std::size_t kept = std::min<std::size_t>(colors.size(), kMaxColors);
    QHash<QRgb, int> indexOf;
    indexOf.reserve(int(colors.size()));
    for (std::size_t i = 0; i < kept; ++i) {
        out.palette.push_back(colors[i].first);
        indexOf.insert(colors[i].first, int(i));
    }
    for (std::size_t i = kept; i < colors.size(); ++i) {
        int best = 0, bestDistance = distance2(colors[i].first, out.palette[0]);
        for (int k = 1; k < int(kept); ++k)
            if (const int d = distance2(colors[i].first, out.palette[std::size_t(k)]); d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        indexOf.insert(colors[i].first, best);
    }
    out.indices.reserve(std::size_t(rgb32.width()) * std::size_t(rgb32.height()));
    for (int y = 0; y < rgb32.height(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(rgb32.constScanLine(y));
        QRgb last = 0;
        int lastIndex = -1;
        for (int x = 0; x < rgb32.width(); ++x) {
            const QRgb c = row[x] | 0xff000000u;
            if (lastIndex < 0 || c != last) {
                last = c;
                lastIndex = indexOf.value(c);
            }
            out.indices.push_back(std::uint8_t(lastIndex));
        }
    }
    return out;
}

bool GifWriter::addFrame(const QImage& frame, int delayCentiseconds)
{
    if (!started_) return fail(QObject::tr("The GIF is not started."));
    if (frame.size() != size_)
        return fail(QObject::tr("A frame is %1 x %2, the GIF %3 x %4.").arg(frame.width()).arg(frame.height()).arg(size_.width()).arg(size_.height()));
    if (delayCentiseconds < 0 || delayCentiseconds > 65535) return fail(QObject::tr("A frame delay must be 0 to 65535 hundredths of a second."));
    const QImage image = opaqueRgb32(frame);
    // Only what changed; a frame like the previous one still takes its place as a 1 x 1 frame.
    QRect area = previous_.isNull() ? image.rect() : changedRect(previous_, image);
    if (area.isEmpty()) area = QRect(0, 0, 1, 1);
    const Indexed indexed = index(area == image.rect() ? image : image.copy(area));
    previous_ = image;

    int bits = 1;   // the colour table holds 2^bits entries
    while ((1 << bits) < int(indexed.palette.size())) ++bits;
    QByteArray b;
    // Graphic control extension: disposal 1 (leave the frame in place), no transparency.
    b.append(char(0x21));
    b.append(char(0xf9));
    b.append(char(4));
    b.append(char(1 << 2));
    put16(b, delayCentiseconds);
    b.append(char(0));
    b.append(char(0));
    // Image descriptor with a local colour table, not interlaced.
    b.append(char(0x2c));
    put16(b, area.x());
    put16(b, area.y());
    put16(b, area.width());
    put16(b, area.height());
    b.append(char(0x80 | (bits - 1)));
    for (int i = 0; i < (1 << bits); ++i) {
        const QRgb c = i < int(indexed.palette.size()) ? indexed.palette[std::size_t(i)] : 0;
        b.append(char(qRed(c)));
        b.append(char(qGreen(c)));
        b.append(char(qBlue(c)));
    }
    const int minCodeSize = std::max(2, bits);
    b.append(char(minCodeSize));
    const QByteArray data = gifLzwEncode(indexed.indices.data(), indexed.indices.size(), minCodeSize);
    for (qsizetype at = 0; at < data.size(); at += 255) {
        const qsizetype n = std::min<qsizetype>(255, data.size() - at);
        b.append(char(n));
        b.append(data.constData() + at, n);
    }
    b.append(char(0));
    if (!write(b)) return false;
    ++frames_;
    return true;
}

bool GifWriter::finish()
{
    if (!started_) return fail(QObject::tr("The GIF is not started."));
    if (frames_ == 0) return fail(QObject::tr("A GIF needs at least one frame."));
    started_ = false;
    return write(QByteArray(1, char(0x3b)));
}

} // namespace nestor::widgets
