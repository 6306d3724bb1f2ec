#pragma once
// An animated GIF (GIF89a) written frame by frame: the NETSCAPE2.0 extension for looping, a
// graphic control extension per frame (its delay; frames stay in place), and each frame's own
// colour table. A frame is stored as the rectangle that changed since the previous one.
//
// Colours: a frame (or the changed rectangle) with at most 256 colours is stored exactly. With
// more (anti-aliased edges and text add in-between shades), the 256 most frequent colours become
// the table and every other colour is drawn as its nearest entry (squared RGB distance) - the
// "popularity" quantization, which suits flat pictures like the teaching views: their few large
// areas keep their exact colours and only edge shades move. Transparency is not written: pixels
// are composited over white.
#include <QImage>
#include <QRgb>
#include <QString>

#include <cstdint>
#include <vector>

class QIODevice;

namespace nestor::widgets {

class GifWriter {
public:
    static constexpr int kMaxColors = 256;

    // Writes to `out` (open for writing; not owned).
    explicit GifWriter(QIODevice* out);

    // The header; every frame must be `size`. loops = 0: the animation repeats forever.
    bool begin(QSize size, int loops = 0);
    // delay in hundredths of a second (what GIF stores; 0..65535).
    bool addFrame(const QImage& frame, int delayCentiseconds);
    bool finish();   // the trailer; needs at least one frame

    int frameCount() const { return frames_; }
    const QString& errorString() const { return error_; }

    // One frame as a colour table and an index per pixel (row-major), by the rule above.
    struct Indexed {
        std::vector<QRgb> palette;
        std::vector<std::uint8_t> indices;
    };
    static Indexed index(const QImage& rgb32);

private:
    bool write(const QByteArray& bytes);
    bool fail(const QString& error);

    QIODevice* out_;
    QSize size_;
    QImage previous_;
    int frames_ = 0;
    bool started_ = false;
    QString error_;
};

} // namespace nestor::widgets
