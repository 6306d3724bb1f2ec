#include "sim/vta/VectorCheck.h"

#include "sim/vta/Program.h"

namespace nestor::vta {

namespace {

std::string hexByte(std::uint8_t b)
{
    const char* d = "0123456789abcdef";
    return std::string("0x") + d[b >> 4] + d[b & 15];
}

// The first differing byte and the number of differing bytes, or "" when equal.
std::string compareBytes(const std::string& what, std::uint64_t byteAddr, std::uint64_t elemBytes,
                         const std::uint8_t* expected, const std::uint8_t* got, std::size_t n)
{
    std::size_t first = n, count = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (expected[i] != got[i]) {
            if (first == n) first = i;
            ++count;
        }
    if (count == 0) return {};
    return what + ": first difference at offset " + std::to_string(first) + " (byte address " +
           std::to_string(byteAddr + first) + ", element " + std::to_string(first / elemBytes) + " of " + std::to_string(elemBytes) +
           " B, byte " + std::to_string(first % elemBytes) + "): expected " + hexByte(expected[first]) + ", got " + hexByte(got[first]) +
           "; " + std::to_string(count) + " of " + std::to_string(n) + " bytes differ";
}

} // namespace

VectorCheckResult checkVector(const ProgramVector& vec, const RunOptions& options)
{
    VectorCheckResult r;
    const IsaLayout layout(vec.config);
    MachineState state(vec.config, vec.initialDram());
    Diagnostics problems;
    const Program program = buildProgram(vec.insns, layout, problems);
    if (!problems.empty()) {
        RunFailure f;
        f.message = NestorError(problems).what();
        r.run.failure = f;
        return r;
    }
    r.run = runFunctional(program, layout, state, options);
    if (!r.run.ok()) return r;

    for (const ExpectedRegion& e : vec.expectedDram) {
        const std::uint8_t* got = state.dram.read(e.byteAddr, e.bytes.size(), "expected region " + e.name);
        const std::string diff = compareBytes("region '" + e.name + "'", e.byteAddr,
                                              static_cast<std::uint64_t>(vec.config.elemBytes(MemType::Out)), e.bytes.data(), got, e.bytes.size());
        if (!diff.empty()) r.mismatches.push_back(diff);
    }
    for (const VectorRegion& region : vec.regions) {
        if (region.memType == MemType::Out) continue;
        const std::uint8_t* got = state.dram.read(region.byteAddr, region.bytes.size(), "region " + region.name);
        const std::string diff = compareBytes("input region '" + region.name + "' (must stay unchanged)",
                                              region.byteAddr,
                                              static_cast<std::uint64_t>(vec.config.elemBytes(region.memType)),
                                              region.bytes.data(), got, region.bytes.size());
        if (!diff.empty()) r.mismatches.push_back(diff);
    }
    const auto expected = vec.expectedCounters.named();
    const auto got = r.run.counters.named();
    for (std::size_t i = 0; i < expected.size(); ++i)
        if (expected[i].second != got[i].second)
            r.mismatches.push_back("counter " + expected[i].first + ": expected " + std::to_string(expected[i].second) +
                                   ", got " + std::to_string(got[i].second));
    for (int q = 0; q < kTokenQueueCount; ++q) {
        const auto i = static_cast<std::size_t>(q);
        if (vec.expectedTokenPushes[i] != r.run.tokenPushes[i])
            r.mismatches.push_back(std::string("token pushes ") + tokenQueueKey(static_cast<TokenQueue>(q)) + " (" +
                                   tokenQueueArrow(static_cast<TokenQueue>(q)) + "): expected " +
                                   std::to_string(vec.expectedTokenPushes[i]) + ", got " +
                                   std::to_string(r.run.tokenPushes[i]));
    }
    return r;
}

std::string formatReport(const ProgramVector& vec, const VectorCheckResult& result)
{
    std::string s = std::string(result.passed() ? "PASS" : "FAIL") + " " + vec.file + " (" + vec.name + ", " +
                    std::to_string(vec.insns.size()) + " instructions)\n";
    if (result.run.failure) s += "  run stopped: " + describeFailure(*result.run.failure) + "\n";
    for (const std::string& m : result.mismatches) s += "  mismatch: " + m + "\n";
    if (result.run.ok()) {
        s += "  counters:";
        for (const auto& [k, v] : result.run.counters.named()) s += " " + k + "=" + std::to_string(v);
        s += "\n  token pushes:";
        for (int q = 0; q < kTokenQueueCount; ++q)
            s += std::string(" ") + tokenQueueKey(static_cast<TokenQueue>(q)) + "=" +
                 std::to_string(result.run.tokenPushes[static_cast<std::size_t>(q)]);
        s += "\n";
    }
    for (const std::string& w : result.run.warnings) s += "  warning: " + w + "\n";
    return s;
}

} // namespace nestor::vta
