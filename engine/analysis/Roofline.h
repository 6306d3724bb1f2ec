#pragma once
// The roofline of an evaluated mapping, built from the same limits the model's timing uses
// (model/EnergyAndTiming.cpp): a level's read, write and shared bandwidths are separate roofs,
// each timed against the busiest instance's words on that port (per tensor, the maximum over
// instances, summed over the kept tensors). So the roof that binds is the one the summary's
// "bound by" names, and the operating point lies on it (up to the rounding of cycles to
// whole cycles).
//
// Axes: operational intensity (MACs per byte moved through a limit) against throughput (MACs
// per cycle). The compute roof is the MAC count. A bandwidth roof is aggregate: bandwidth x
// instances x bytes per word; its traffic counts every instance as busy as the busiest one,
// so roof x intensity = bandwidth x MACs / busiest words, the throughput that limit allows.
#include "arch/Architecture.h"
#include "model/Evaluation.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nestor {

enum class BandwidthPort { Read, Write, Shared };

const char* bandwidthPortName(BandwidthPort p);  // "read", "write", "shared"

struct BandwidthRoof {
    std::string level;
    int levelIndex = 0;
    BandwidthPort port = BandwidthPort::Read;
    double bandwidth_words_per_cycle = 0.0;  // as declared: per instance
    std::int64_t instances = 1;
    double bytes_per_cycle = 0.0;            // the roof's slope: bandwidth x instances x bytes per word
    double ridge_macs_per_byte = 0.0;        // where it meets the compute roof
    // The mapping against this limit.
    double traffic_bytes = 0.0;              // busiest instance's words on this port x instances x bytes per word
    double intensity_macs_per_byte = 0.0;    // MACs / traffic_bytes; 0 when nothing moves through it
    double cycles = 0.0;                     // what this limit alone needs: busiest words / bandwidth

    std::string label() const;               // "GLB read"
};

struct RooflinePoint {
    double intensity_macs_per_byte = 0.0;
    double macs_per_cycle = 0.0;
};

struct Roofline {
    bool valid = false;                      // false: no figures (invalid evaluation or no cycles)
    std::string computeName;
    double compute_macs_per_cycle = 0.0;     // the compute roof: MAC instances
    std::vector<BandwidthRoof> roofs;        // outermost level first; read, write, shared per level
    std::optional<std::size_t> binding;      // index into roofs of the limit that sets the cycles; none: compute
    // The mapping: achieved MACs per cycle, at the intensity of the binding roof (compute-bound:
    // of the tightest bandwidth roof, else of all of the outermost level's accesses).
    RooflinePoint operating;
    std::string operatingAt;                 // what the operating intensity is measured at: "GLB read", "DRAM"

    bool computeBound() const { return valid && !binding; }
    std::string boundBy() const;             // "compute" or "GLB read bandwidth"
};

Roofline computeRoofline(const Architecture& a, const Evaluation& e);

} // namespace nestor
