#include "analysis/Roofline.h"

namespace nestor {
namespace {

struct PortWords {
    double read = 0.0;   // busiest instance's reads, summed over kept tensors
    double write = 0.0;  // fills + updates, likewise
};

// The per-instance words the model's timing divides by each bandwidth (EnergyAndTiming.cpp).
PortWords busiestWords(const LevelStats& level)
{
    PortWords w;
    for (const TensorLevelStats& t : level.tensors) {
        if (!t.kept) continue;
        w.read += static_cast<double>(t.reads_max);
        w.write += static_cast<double>(t.fills_max + t.updates_max);
    }
    return w;
}

BandwidthRoof makeRoof(const StorageLevel& l, int index, BandwidthPort port, double bandwidth, double words, double macs,
                       double peak)
{
    const double bytesPerWord = l.word_bits / 8.0;
    BandwidthRoof r;
    r.level = l.name;
    r.levelIndex = index;
    r.port = port;
    r.bandwidth_words_per_cycle = bandwidth;
    r.instances = l.instances;
    r.bytes_per_cycle = bandwidth * static_cast<double>(l.instances) * bytesPerWord;
    r.ridge_macs_per_byte = r.bytes_per_cycle > 0 ? peak / r.bytes_per_cycle : 0.0;
    r.traffic_bytes = words * static_cast<double>(l.instances) * bytesPerWord;
    r.intensity_macs_per_byte = r.traffic_bytes > 0 ? macs / r.traffic_bytes : 0.0;
    r.cycles = bandwidth > 0 ? words / bandwidth : 0.0;
    return r;
}

} // namespace

const char* bandwidthPortName(BandwidthPort p)
{
    switch (p) {
    case BandwidthPort::Read: return "read";
    case BandwidthPort::Write: return "write";
    case BandwidthPort::Shared: return "shared";
    }
    return "";
}

std::string BandwidthRoof::label() const
{
    return level + " " + bandwidthPortName(port);
}

std::string Roofline::boundBy() const
{
    if (!valid) return {};
    if (!binding) return "compute";
    return roofs[*binding].label() + " bandwidth";
}

Roofline computeRoofline(const Architecture& a, const Evaluation& e)
{
    Roofline out;
    out.computeName = a.compute.name.empty() ? "compute" : a.compute.name;
    out.compute_macs_per_cycle = static_cast<double>(a.compute.instances);
    if (!e.valid || e.cycles <= 0 || e.levels.size() != a.levels.size()) return out;
    out.valid = true;
    const double macs = static_cast<double>(e.macs);
    const double peak = out.compute_macs_per_cycle;
    for (int i = 0; i < a.numLevels(); ++i) {
        const StorageLevel& l = a.levels[static_cast<std::size_t>(i)];
        const PortWords w = busiestWords(e.levels[static_cast<std::size_t>(i)]);
        if (l.read_bw_words_per_cycle)
            out.roofs.push_back(makeRoof(l, i, BandwidthPort::Read, *l.read_bw_words_per_cycle, w.read, macs, peak));
        if (l.write_bw_words_per_cycle)
            out.roofs.push_back(makeRoof(l, i, BandwidthPort::Write, *l.write_bw_words_per_cycle, w.write, macs, peak));
        if (l.shared_bw_words_per_cycle)
            out.roofs.push_back(makeRoof(l, i, BandwidthPort::Shared, *l.shared_bw_words_per_cycle, w.read + w.write, macs, peak));
    }
    // The tightest bandwidth limit (first of equals, outermost level first, as the model's max).
    std::optional<std::size_t> tightest;
    for (std::size_t r = 0; r < out.roofs.size(); ++r)
        if (out.roofs[r].traffic_bytes > 0 && (!tightest || out.roofs[r].cycles > out.roofs[*tightest].cycles)) tightest = r;
    // The model's cycles exceed the compute cycles only when some bandwidth stretched them.
    if (e.cycles > e.compute_cycles && tightest) out.binding = tightest;

    out.operating.macs_per_cycle = macs / static_cast<double>(e.cycles);
    if (tightest) {
        out.operating.intensity_macs_per_byte = out.roofs[*tightest].intensity_macs_per_byte;
        out.operatingAt = out.roofs[*tightest].label();
    } else if (!a.levels.empty()) {
        // No bandwidth sees traffic: the classic roofline's intensity, against the backing store.
        const StorageLevel& outer = a.levels.front();
        const PortWords w = busiestWords(e.levels.front());
        const double bytes = (w.read + w.write) * static_cast<double>(outer.instances) * outer.word_bits / 8.0;
        out.operating.intensity_macs_per_byte = bytes > 0 ? macs / bytes : 0.0;
        out.operatingAt = outer.name;
    }
    return out;
}

} // namespace nestor
