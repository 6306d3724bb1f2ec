#pragma once
// The LZW compression of GIF image data (GIF89a specification, appendix F): variable-width codes
// from minCodeSize + 1 up to 12 bits, packed least significant bit first, a clear code first and
// whenever the 4096-entry code table is full, and an end-of-information code last. The caller
// splits the result into data sub-blocks.
#include <QByteArray>

#include <cstddef>
#include <cstdint>

namespace nestor::widgets {

// `indices` are colour-table indices, each below 2^minCodeSize; minCodeSize is 2..8.
QByteArray gifLzwEncode(const std::uint8_t* indices, std::size_t count, int minCodeSize);

} // namespace nestor::widgets
