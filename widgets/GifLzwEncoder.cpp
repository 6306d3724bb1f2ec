#include "GifLzwEncoder.h"

#include <vector>

namespace nestor::widgets {

namespace {

constexpr int kMaxCodeBits = 12;
constexpr int kTableSize = 1 << kMaxCodeBits;

class BitPacker {
public:
    explicit BitPacker(QByteArray& out) : out_(out) {}
    void put(int code, int width)
    {
        bits_ |= std::uint64_t(code) << count_;
        count_ += width;
        while (count_ >= 8) {
            out_.append(char(bits_ & 0xff));
            bits_ >>= 8;
            count_ -= 8;
        }
    }
    void flush()
    {
        if (count_ > 0) out_.append(char(bits_ & 0xff));
        bits_ = 0;
        count_ = 0;
    }

private:
    QByteArray& out_;
    std::uint64_t bits_ = 0;
    int count_ = 0;
};

} // namespace

QByteArray gifLzwEncode(const std::uint8_t* indices, std::size_t count, int minCodeSize)
{
    QByteArray out;
    BitPacker bits(out);
    const int clear = 1 << minCodeSize, end = clear + 1;
    int width = minCodeSize + 1;
    int next = end + 1;
    // The code of "string `prefix` followed by byte b" at prefix * 256 + b; -1 = not in the table.
    // Only the entries set since the last clear are reset, not the whole table.
    std::vector<std::int16_t> table(std::size_t(kTableSize) * 256, -1);
    std::vector<int> used;
    used.reserve(kTableSize);

    bits.put(clear, width);
    if (count > 0) {
        int prefix = indices[0];
        for (std::size_t i = 1; i < count; ++i) {
            const int key = prefix * 256 + indices[i];
            if (table[std::size_t(key)] >= 0) {
                prefix = table[std::size_t(key)];
                continue;
            }
            bits.put(prefix, width);
            const int assigned = next++;
            table[std::size_t(key)] = std::int16_t(assigned);
            used.push_back(key);
            // The decoder widens its codes once its table reaches 2^width entries; it adds each
            // entry one code later than we do, which makes this the same moment for both.
            if (assigned == (1 << width) && width < kMaxCodeBits) ++width;
            if (next == kTableSize) {
                bits.put(clear, width);
                for (int k : used) table[std::size_t(k)] = -1;
                used.clear();
                width = minCodeSize + 1;
                next = end + 1;
            }
            prefix = indices[i];
        }
        bits.put(prefix, width);
    }
    bits.put(end, width);
    bits.flush();
    return out;
}

} // namespace nestor::widgets
