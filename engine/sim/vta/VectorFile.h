#pragma once
// Loader of the VTA program-vector format (tests/data/vta/FORMAT.md): DRAM image, instruction
// stream and fsim's expected results. Everything is checked on load (format, configuration,
// hex, region bounds and overlaps, instruction decoding and validity, the FINISH rules), and
// every problem is a NestorError located at file:line:column of the offending value.
#include "sim/vta/Counters.h"
#include "sim/vta/Dram.h"
#include "sim/vta/Instruction.h"
#include "sim/vta/Routing.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace nestor::vta {

struct VectorRegion {
    std::string name;
    MemType memType = MemType::Inp;
    std::uint64_t byteAddr = 0;
    std::vector<std::uint8_t> bytes;
    SourceLocation location;
};

struct ExpectedRegion {
    std::string name;
    std::uint64_t byteAddr = 0;
    std::vector<std::uint8_t> bytes;
    SourceLocation location;
};

struct ProgramVector {
    std::string file;
    std::string name;
    std::string description;
    std::vector<std::string> flags;
    VtaConfig config;
    std::uint64_t dramStart = 0;
    std::uint64_t dramEnd = 0;
    std::vector<VectorRegion> regions;
    std::vector<Instruction> insns;
    std::vector<SourceLocation> insnLocations;

    std::vector<ExpectedRegion> expectedDram;
    Counters expectedCounters;
    std::array<std::uint64_t, kTokenQueueCount> expectedTokenPushes{};

    // A DRAM covering [dram.start, dram.end) with every region's bytes in place.
    Dram initialDram() const;
};

// `simulated`: the configuration the caller simulates; a vector whose `config` differs is
// rejected. nullptr accepts the vector's own configuration.
ProgramVector loadVector(const std::string& path, const VtaConfig* simulated);
ProgramVector parseVector(const std::string& text, const std::string& file, const VtaConfig* simulated);

// Largest DRAM image a vector may declare (dram.end - dram.start), to refuse absurd allocations.
inline constexpr std::uint64_t kMaxVectorDramBytes = std::uint64_t{1} << 30;

} // namespace nestor::vta
