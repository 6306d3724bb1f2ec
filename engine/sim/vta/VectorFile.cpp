#include "sim/vta/VectorFile.h"

#include "common/TextFile.h"

#include "sim/vta/Disassembler.h"
#include "sim/vta/JsonValue.h"
#include "sim/vta/Program.h"

#include <algorithm>

namespace nestor::vta {

namespace {

std::uint64_t nonNegative(const JsonValue& v, const std::string& field, std::uint64_t max = ~std::uint64_t{0})
{
    const std::int64_t n = v.asInteger(field);
    if (n < 0) v.fail(field, "must be >= 0 (got " + std::to_string(n) + ")");
    if (static_cast<std::uint64_t>(n) > max) v.fail(field, std::to_string(n) + " is larger than " + std::to_string(max));
    return static_cast<std::uint64_t>(n);
}

int hexDigit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Bytes of a hex string; a bad digit is reported at its own column (the strings hold no escapes).
std::vector<std::uint8_t> hexBytes(const JsonValue& v, const std::string& field)
{
    const std::string& s = v.asString(field);
    if (s.size() % 2 != 0) v.fail(field, "hex string has an odd number of digits (" + std::to_string(s.size()) + ")");
    std::vector<std::uint8_t> out(s.size() / 2);
    for (std::size_t i = 0; i < s.size(); ++i) {
        const int d = hexDigit(s[i]);
        if (d < 0) {
            SourceLocation at = v.location();
            at.column += 1 + static_cast<int>(i);
            const auto c = static_cast<unsigned char>(s[i]);
            const std::string shown = c >= 0x20 && c < 0x7f ? std::string("'") + s[i] + "'" : "byte " + std::to_string(c);
            throw NestorError(field, "not a hex digit: " + shown + " at offset " + std::to_string(i), at);
        }
        out[i / 2] = static_cast<std::uint8_t>(out[i / 2] * 16 + d);
    }
    return out;
}

MemType memTypeFromName(const JsonValue& v, const std::string& field)
{
    const std::string& s = v.asString(field);
    for (int t = 0; t < kMemTypeCount; ++t)
        if (s == memTypeName(static_cast<MemType>(t))) return static_cast<MemType>(t);
    v.fail(field, "unknown memory type '" + s + "' (UOP, WGT, INP, ACC or OUT)");
}

void checkFormat(const JsonValue& root)
{
    const JsonValue& format = root.at("format", "");
    if (format.asString("format") != "vta-fsim-vector")
        format.fail("format", "expected \"vta-fsim-vector\", found \"" + format.asString("format") + "\"");
    const JsonValue& version = root.at("version", "");
    if (version.asInteger("version") != 1)
        version.fail("version", "unsupported version " + std::to_string(version.asInteger("version")) + " (this reader knows 1)");
}

void readConfig(ProgramVector& vec, const JsonValue& root, const VtaConfig* simulated)
{
    const JsonValue& cfg = root.at("config", "");
    vec.config = readVtaConfig(cfg, "config");
    if (simulated && !(vec.config == *simulated))
        cfg.fail("config", "the vector's configuration (" + vec.config.summary() +
                               ") differs from the simulated one (" + simulated->summary() + "): " +
                               configDifferences(vec.config, *simulated));
}

void readRegions(ProgramVector& vec, const JsonValue& root)
{
    const JsonValue& dram = root.at("dram", "");
    vec.dramStart = nonNegative(dram.at("start", "dram"), "dram.start");
    vec.dramEnd = nonNegative(dram.at("end", "dram"), "dram.end");
    if (vec.dramEnd <= vec.dramStart)
        dram.at("end", "dram").fail("dram.end", "must be larger than dram.start (" + std::to_string(vec.dramStart) + ")");
    if (vec.dramEnd - vec.dramStart > kMaxVectorDramBytes)
        dram.at("end", "dram").fail("dram.end", "the DRAM image is larger than 1 GiB");
    const auto& list = dram.at("regions", "dram").asArray("dram.regions");
    for (std::size_t i = 0; i < list.size(); ++i) {
        const JsonValue& r = list[i];
        const std::string f = "dram.regions[" + std::to_string(i) + "]";
        VectorRegion region;
        region.location = r.location();
        region.name = r.at("name", f).asString(f + ".name");
        region.memType = memTypeFromName(r.at("mem_type", f), f + ".mem_type");
        const JsonValue& memId = r.at("mem_id", f);
        if (nonNegative(memId, f + ".mem_id") != static_cast<std::uint64_t>(region.memType))
            memId.fail(f + ".mem_id", "does not match mem_type " + std::string(memTypeName(region.memType)));
        const std::uint64_t elemBytes = static_cast<std::uint64_t>(vec.config.elemBytes(region.memType));
        const JsonValue& eb = r.at("elem_bytes", f);
        if (nonNegative(eb, f + ".elem_bytes") != elemBytes)
            eb.fail(f + ".elem_bytes", "a " + std::string(memTypeName(region.memType)) + " element has " +
                                           std::to_string(elemBytes) + " bytes in this configuration");
        region.byteAddr = nonNegative(r.at("byte_addr", f), f + ".byte_addr");
        if (region.byteAddr % elemBytes != 0)
            r.at("byte_addr", f).fail(f + ".byte_addr", "is not a multiple of the element size " + std::to_string(elemBytes));
        if (const JsonValue* be = r.find("base_elem"); be && nonNegative(*be, f + ".base_elem") != region.byteAddr / elemBytes)
            be->fail(f + ".base_elem", "must be byte_addr / elem_bytes = " + std::to_string(region.byteAddr / elemBytes));
        const std::uint64_t nbytes = nonNegative(r.at("nbytes", f), f + ".nbytes", kMaxVectorDramBytes);
        if (const JsonValue* ne = r.find("n_elems"); ne && nonNegative(*ne, f + ".n_elems") * elemBytes != nbytes)
            ne->fail(f + ".n_elems", "n_elems x elem_bytes must equal nbytes (" + std::to_string(nbytes) + ")");
        const JsonValue& hex = r.at("hex", f);
        region.bytes = hexBytes(hex, f + ".hex");
        if (region.bytes.size() != nbytes)
            hex.fail(f + ".hex", "holds " + std::to_string(region.bytes.size()) + " bytes; nbytes says " + std::to_string(nbytes));
        if (region.byteAddr < vec.dramStart || region.byteAddr > vec.dramEnd || nbytes > vec.dramEnd - region.byteAddr)
            r.at("byte_addr", f).fail(f + ".byte_addr", "bytes [" + std::to_string(region.byteAddr) + ", " +
                                                            std::to_string(region.byteAddr + nbytes) +
                                                            ") are outside dram [start, end)");
        if (const JsonValue* uops = r.find("uops")) {
            const auto& words = uops->asArray(f + ".uops");
            if (region.memType != MemType::Uop) uops->fail(f + ".uops", "only UOP regions list uops");
            if (words.size() * 4 != nbytes) uops->fail(f + ".uops", "lists " + std::to_string(words.size()) + " uops for " + std::to_string(nbytes) + " bytes");
            for (std::size_t k = 0; k < words.size(); ++k) {
                const std::string wf = f + ".uops[" + std::to_string(k) + "]";
                const auto b = hexBytes(words[k], wf);
                if (b.size() != 4) words[k].fail(wf, "a uop is 8 hex digits");
                // Most significant digit first (FORMAT.md §3); the bytes in memory are little-endian.
                for (std::size_t j = 0; j < 4; ++j)
                    if (b[3 - j] != region.bytes[k * 4 + j]) words[k].fail(wf, "differs from the region's hex bytes");
            }
        }
        for (const VectorRegion& other : vec.regions) {
            const bool overlap = region.byteAddr < other.byteAddr + other.bytes.size() &&
                                 other.byteAddr < region.byteAddr + region.bytes.size();
            if (overlap && !region.bytes.empty() && !other.bytes.empty())
                r.fail(f, "region '" + region.name + "' overlaps region '" + other.name + "' (declared at line " +
                              std::to_string(other.location.line) + ")");
        }
        vec.regions.push_back(std::move(region));
    }
}

void readProgram(ProgramVector& vec, const JsonValue& root)
{
    const JsonValue& program = root.at("program", "");
    const IsaLayout layout(vec.config);
    const auto& list = program.at("insns", "program").asArray("program.insns");
    const JsonValue& count = program.at("insn_count", "program");
    if (nonNegative(count, "program.insn_count") != list.size())
        count.fail("program.insn_count", "says " + std::to_string(count.asInteger("")) + " but insns lists " + std::to_string(list.size()));
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string f = "program.insns[" + std::to_string(i) + "]";
        const auto bytes = hexBytes(list[i], f);
        if (bytes.size() != 16) list[i].fail(f, "an instruction is 32 hex digits (16 bytes), found " + std::to_string(bytes.size() * 2));
        try {
            vec.insns.push_back(layout.decode(InsnBits::fromBytes(bytes.data()), i));
        } catch (const NestorError& e) {
            Diagnostics d = e.diagnostics();
            for (auto& x : d) {
                x.location = list[i].location();
                x.field = "program." + x.field;
            }
            throw NestorError(d);
        }
        vec.insnLocations.push_back(list[i].location());
    }
    Diagnostics problems;
    const Program routed = buildProgram(vec.insns, layout, problems);
    for (auto& p : problems) {
        // "insns[i]..." names the instruction; point at its string in the file.
        p.location = program.location();
        if (p.field.rfind("insns[", 0) == 0) {
            const std::size_t index = std::stoul(p.field.substr(6));
            if (index < vec.insnLocations.size()) p.location = vec.insnLocations[index];
        }
        p.field = "program." + p.field;
    }
    if (!problems.empty()) throw NestorError(problems);
    if (const JsonValue* counts = program.find("module_insn_counts")) {
        for (int m = 0; m < kModuleCount; ++m) {
            const auto mod = static_cast<Module>(m);
            const std::string key = moduleName(mod);
            const std::string f = "program.module_insn_counts." + key;
            const JsonValue& v = counts->at(key, "program.module_insn_counts");
            if (nonNegative(v, f) != routed.moduleInsns[m].size())
                v.fail(f, "says " + std::to_string(v.asInteger("")) + " but the instructions route " +
                              std::to_string(routed.moduleInsns[m].size()) + " to the " + key + " module");
        }
    }
}

void readExpected(ProgramVector& vec, const JsonValue& root)
{
    const JsonValue& expected = root.at("expected", "");
    const auto& list = expected.at("dram", "expected").asArray("expected.dram");
    for (std::size_t i = 0; i < list.size(); ++i) {
        const JsonValue& e = list[i];
        const std::string f = "expected.dram[" + std::to_string(i) + "]";
        ExpectedRegion r;
        r.location = e.location();
        r.name = e.at("name", f).asString(f + ".name");
        r.byteAddr = nonNegative(e.at("byte_addr", f), f + ".byte_addr");
        const std::uint64_t nbytes = nonNegative(e.at("nbytes", f), f + ".nbytes", kMaxVectorDramBytes);
        const JsonValue& hex = e.at("hex", f);
        r.bytes = hexBytes(hex, f + ".hex");
        if (r.bytes.size() != nbytes)
            hex.fail(f + ".hex", "holds " + std::to_string(r.bytes.size()) + " bytes; nbytes says " + std::to_string(nbytes));
        const auto match = std::find_if(vec.regions.begin(), vec.regions.end(), [&](const VectorRegion& d) {
            return d.name == r.name && d.byteAddr == r.byteAddr && d.bytes.size() == r.bytes.size();
        });
        if (match == vec.regions.end())
            e.fail(f, "no dram region '" + r.name + "' at byte_addr " + std::to_string(r.byteAddr) + " with " +
                          std::to_string(nbytes) + " bytes");
        vec.expectedDram.push_back(std::move(r));
    }
    const JsonValue& counters = expected.at("counters", "expected");
    Counters& c = vec.expectedCounters;
    std::uint64_t* fields[] = {&c.inpLoadNbytes, &c.wgtLoadNbytes, &c.accLoadNbytes, &c.uopLoadNbytes,
                               &c.outStoreNbytes, &c.gemmCounter, &c.aluCounter};
    const auto names = Counters{}.named();
    for (std::size_t i = 0; i < names.size(); ++i)
        *fields[i] = nonNegative(counters.at(names[i].first, "expected.counters"), "expected.counters." + names[i].first);
    const JsonValue& pushes = expected.at("token_pushes", "expected");
    for (int q = 0; q < kTokenQueueCount; ++q) {
        const std::string key = tokenQueueKey(static_cast<TokenQueue>(q));
        vec.expectedTokenPushes[static_cast<std::size_t>(q)] =
            nonNegative(pushes.at(key, "expected.token_pushes"), "expected.token_pushes." + key);
    }
}

} // namespace

Dram ProgramVector::initialDram() const
{
    Dram d(dramStart, dramEnd);
    for (const VectorRegion& r : regions)
        if (!r.bytes.empty()) std::copy(r.bytes.begin(), r.bytes.end(), d.write(r.byteAddr, r.bytes.size(), "region " + r.name));
    return d;
}

ProgramVector parseVector(const std::string& text, const std::string& file, const VtaConfig* simulated)
{
    const JsonValue root = parseJson(text, file);
    root.members("");
    ProgramVector vec;
    vec.file = file;
    checkFormat(root);
    if (const JsonValue* n = root.find("name")) vec.name = n->asString("name");
    if (const JsonValue* d = root.find("description")) vec.description = d->asString("description");
    if (const JsonValue* flags = root.find("flags"))
        for (std::size_t i = 0; i < flags->asArray("flags").size(); ++i)
            vec.flags.push_back(flags->asArray("flags")[i].asString("flags[" + std::to_string(i) + "]"));
    readConfig(vec, root, simulated);
    readRegions(vec, root);
    readProgram(vec, root);
    readExpected(vec, root);
    return vec;
}

ProgramVector loadVector(const std::string& path, const VtaConfig* simulated)
{
    return parseVector(readTextFile(path), path, simulated);
}

} // namespace nestor::vta
