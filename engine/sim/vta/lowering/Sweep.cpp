#include "sim/vta/lowering/Sweep.h"

#include "sim/vta/lowering/NetworkRun.h"

#include <array>

namespace nestor::vta {

double areaMm2(const VtaConfig& c, const TimingConfig& t)
{
    const double macs = double(c.batch()) * c.blockIn() * c.blockOut() / (t.gemmII >= 4 ? 4.0 : double(t.gemmII));
    double sramBits = 0.0;
    for (const MemType m : {MemType::Uop, MemType::Inp, MemType::Wgt, MemType::Acc})
        sramBits += double(c.depth(m)) * double(c.elemBytes(m)) * 8.0;
    sramBits += double(c.depth(MemType::Out)) * double(c.elemBytes(MemType::Out)) * 8.0;
    return (macs * kMacAreaUm2 + sramBits * kSramBitAreaUm2 + t.busBytes * kBusByteAreaUm2) * 1e-6;
}

std::string SweepPoint::label() const
{
    return std::to_string(config.batch()) + "x" + std::to_string(config.blockIn()) + "x" +
           std::to_string(config.blockOut()) + " bus" + std::to_string(timing.busBytes * 8) + " sp" +
           std::to_string(config.logInpBuffSize) + "/" + std::to_string(config.logWgtBuffSize) + "/" +
           std::to_string(config.logAccBuffSize) + " ii" + std::to_string(timing.gemmII);
}

void markPareto(std::vector<SweepPoint>& points)
{
    for (SweepPoint& p : points) {
        p.pareto = !p.error;
        if (p.error) continue;
        for (const SweepPoint& q : points)
            if (!q.error && q.areaMm2 <= p.areaMm2 && q.cycles <= p.cycles &&
                (q.areaMm2 < p.areaMm2 || q.cycles < p.cycles)) {
                p.pareto = false;
                break;
            }
    }
}

std::vector<SweepPoint> runSweep(const std::vector<LayerSpec>& layers, const SweepSpace& space,
                                 const TimingConfig& base, JobContext* job)
{
    std::vector<SweepPoint> points;
    const std::size_t total = space.gemmShapes.size() * space.busBytes.size() * space.scratchpadScaleLog2.size() *
                              space.gemmII.size();
    NullJobContext none;
    JobContext& ctx = job ? *job : none;
    RunNetworkOptions options;
    options.functional = false;
    options.keepTraces = false;
    for (const auto& shape : space.gemmShapes)
        for (const int bus : space.busBytes)
            for (const int scale : space.scratchpadScaleLog2)
                for (const int ii : space.gemmII) {
                    if (ctx.cancelRequested()) {
                        markPareto(points);
                        return points;
                    }
                    SweepPoint p;
                    p.config.logBatch = shape[0];
                    p.config.logBlockIn = shape[1];
                    p.config.logBlockOut = shape[2];
                    // Buffers scale with the GEMM shape (the default holds 2^11 INP elements of
                    // 1x16 bytes; a 1x32 shape keeps the same element depth), then by `scale`.
                    const int grow = (shape[0] + shape[1]) - 4;
                    p.config.logInpBuffSize = 15 + grow + scale;
                    p.config.logWgtBuffSize = 18 + (shape[1] - 4) + (shape[2] - 4) + scale;
                    p.config.logAccBuffSize = 17 + (shape[0] + shape[2]) - 4 + scale;
                    p.timing = base;
                    p.timing.busBytes = bus;
                    p.timing.gemmII = ii;
                    p.areaMm2 = areaMm2(p.config, p.timing);
                    const Diagnostics bad = p.config.validate();
                    if (!bad.empty()) {
                        p.error = bad.front().field + ": " + bad.front().message;
                    } else {
                        JobSlice slice(ctx, double(points.size()) / double(total), 1.0 / double(total),
                                       p.label() + ": ");
                        try {
                            const NetworkRun run = runNetwork(layers, p.config, p.timing, &slice, options);
                            if (run.cancelled) {
                                markPareto(points);
                                return points;
                            }
                            if (run.error) p.error = *run.error;
                            p.cycles = run.totalCycles;
                            p.dramBytes = run.totalCounters.inpLoadNbytes + run.totalCounters.wgtLoadNbytes +
                                          run.totalCounters.accLoadNbytes + run.totalCounters.uopLoadNbytes +
                                          run.totalCounters.outStoreNbytes;
                        } catch (const NestorError& e) {
                            p.error = e.what();
                        }
                    }
                    points.push_back(std::move(p));
                }
    markPareto(points);
    return points;
}

} // namespace nestor::vta
