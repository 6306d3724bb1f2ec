#include "sim/vta/lowering/Tiling.h"

#include <limits>
#include <vector>

namespace nestor::vta {

namespace {

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

std::vector<int> divisors(int n)
{
    std::vector<int> out;
    for (int d = 1; d <= n; ++d)
        if (n % d == 0) out.push_back(d);
    return out;
}

// Distinct tile sizes of a dimension: one per possible tile count (tile = ceil(n / count)).
std::vector<int> tileSizes(int n)
{
    std::vector<int> out;
    int last = 0;
    for (int count = n; count >= 1; --count) {
        const int size = static_cast<int>(ceilDiv(n, count));
        if (size != last) out.push_back(size);
        last = size;
    }
    return out;
}

bool isAluLayer(const LayerSpec& l) { return l.kind == LayerKind::MaxPool || l.kind == LayerKind::Add; }

} // namespace

std::string Tiling::describe() const
{
    return "th " + std::to_string(th) + " tw " + std::to_string(tw) + " tk " + std::to_string(tk) + " tc " +
           std::to_string(tc) + (ocThreads ? " vthread oc" : " vthread step");
}

TileShape tileShape(const LayerSpec& l, const VtaConfig&, const Tiling& t)
{
    TileShape s;
    s.ih = (t.th - 1) * l.stride + l.r;
    s.iw = (t.tw - 1) * l.stride + l.s;
    const std::int64_t rs = std::int64_t(l.r) * l.s;
    const std::int64_t outElems = std::int64_t(t.tk) * t.th * t.tw;
    switch (l.kind) {
    case LayerKind::Conv:
    case LayerKind::Dense:
        s.inpElems = std::int64_t(t.tc) * s.ih * s.iw;
        s.wgtElems = std::int64_t(t.tk) * t.tc * rs;
        s.accElems = outElems;
        s.uopsPerSet = std::int64_t(t.tk) * t.tc * rs;
        break;
    case LayerKind::Depthwise:
        s.inpElems = std::int64_t(t.tc) * s.ih * s.iw;
        s.wgtElems = std::int64_t(t.tk) * rs;
        s.accElems = outElems;
        s.uopsPerSet = std::int64_t(t.tk) * rs;
        break;
    case LayerKind::MaxPool:
        s.accElems = std::int64_t(t.tc) * s.ih * s.iw + outElems;  // the input window rows and the result
        s.uopsPerSet = std::int64_t(t.tc) * rs;
        break;
    case LayerKind::Add:
        s.accElems = 2 * outElems;  // both operands; the sum overwrites the first
        s.uopsPerSet = t.tc;
        break;
    }
    return s;
}

std::optional<Tiling> searchTiling(const LayerSpec& l, const VtaConfig& config, std::string* why)
{
    const int nb = static_cast<int>(ceilDiv(l.n, config.batch()));
    const int cb = static_cast<int>(ceilDiv(l.c, config.blockIn()));
    const int kb = static_cast<int>(ceilDiv(l.outC(), config.blockOut()));
    const bool alu = isAluLayer(l);
    const bool depthwiseLike = l.kind == LayerKind::Depthwise || alu;
    if (depthwiseLike && config.blockIn() != config.blockOut()) {
        if (why) *why = std::string(layerKindName(l.kind)) + " needs BLOCK_IN = BLOCK_OUT (channels map lane to lane)";
        return std::nullopt;
    }
    // Each context (virtual thread) gets half of every buffer; the uop buffer holds the two ALU
    // uops and at least two micro-op sets.
    const std::int64_t inpHalf = config.depth(MemType::Inp) / 2;
    const std::int64_t wgtHalf = config.depth(MemType::Wgt) / 2;
    const std::int64_t accHalf = config.depth(MemType::Acc) / 2;
    const std::int64_t uopRoom = (config.depth(MemType::Uop) - 2) / 2;
    const std::int64_t srcFactorLimit = config.depth(alu ? MemType::Acc : MemType::Inp);
    const std::int64_t inpBytes = config.elemBytes(MemType::Inp), wgtBytes = config.elemBytes(MemType::Wgt);
    const std::int64_t accBytes = config.elemBytes(MemType::Acc), outBytes = config.elemBytes(MemType::Out);
    const int oh = l.outH(), ow = l.outW();

    std::optional<Tiling> best;
    std::uint64_t bestCost = std::numeric_limits<std::uint64_t>::max();
    std::int64_t bestSteps = std::numeric_limits<std::int64_t>::max();
    const std::vector<int> kDivs = divisors(kb), cDivs = divisors(cb);
    for (const int th : tileSizes(oh))
        for (const int tw : tileSizes(ow))
            for (const int tk : kDivs)
                for (const int tcCandidate : (depthwiseLike ? std::vector<int>{tk} : cDivs))
                    for (const bool oc : {false, true}) {
                        if (oc && (depthwiseLike || kb / tk < 2)) continue;
                        Tiling t{th, tw, tk, tcCandidate, oc, 0};
                        const TileShape s = tileShape(l, config, t);
                        if (s.inpElems > inpHalf || s.wgtElems > wgtHalf || s.accElems > accHalf ||
                            s.uopsPerSet > uopRoom)
                            continue;
                        if (std::int64_t(s.iw) * l.stride >= srcFactorLimit || std::int64_t(t.th) * t.tw >= (1 << 14))
                            continue;
                        const std::int64_t spatial = std::int64_t(nb) * ceilDiv(oh, th) * ceilDiv(ow, tw);
                        const std::int64_t kTiles = kb / tk, cTiles = cb / t.tc;
                        std::int64_t cost = std::int64_t(nb) * kb * oh * ow * outBytes;  // stores
                        if (alu) {
                            const std::int64_t loadElems = l.kind == LayerKind::Add ? 2 * std::int64_t(t.tc) * th * tw
                                                                                   : std::int64_t(t.tc) * s.ih * s.iw;
                            cost += spatial * kTiles * loadElems * accBytes;
                        } else {
                            // Inputs: once per (k tile, c tile) step, once per pair of k tiles with
                            // output-channel threads (the paper's redundant-load fix).
                            const std::int64_t inputLoads = oc ? ceilDiv(kTiles, 2) : kTiles;
                            cost += spatial * inputLoads * cTiles * s.inpElems * inpBytes;
                            // Weights: once per step, or once for the layer when they are one chunk.
                            const std::int64_t chunks = kTiles * cTiles;
                            cost += (chunks == 1 ? 1 : spatial * chunks) * s.wgtElems * wgtBytes;
                        }
                        // Ties (ALU layers move the same bytes under any tiling): fewer steps, i.e.
                        // fewer instructions and longer GEMM/ALU loops.
                        const std::int64_t steps = spatial * kTiles * cTiles;
                        if (static_cast<std::uint64_t>(cost) < bestCost ||
                            (static_cast<std::uint64_t>(cost) == bestCost && steps < bestSteps)) {
                            bestCost = static_cast<std::uint64_t>(cost);
                            bestSteps = steps;
                            t.predictedDramBytes = bestCost;
                            best = t;
                        }
                    }
    if (!best && why)
        *why = "no tiling of " + l.name + " fits half of the INP/WGT/ACC/uop buffers of " + config.summary();
    return best;
}

} // namespace nestor::vta
