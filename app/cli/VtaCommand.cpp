#include "VtaCommand.h"
#include "VtaNetworkCommand.h"

#include "ExitCodes.h"
#include "io/JsonWriter.h"
#include "sim/vta/Disassembler.h"
#include "sim/vta/Program.h"
#include "sim/vta/TimingModel.h"
#include "sim/vta/VectorCheck.h"

#include <charconv>
#include <cstdio>
#include <fstream>

namespace nestor::cli {

namespace {

using namespace nestor::vta;

struct VtaOptions {
    std::string action;  // run | disasm
    std::vector<std::string> files;
    bool json = false;
    bool vectorConfig = false;  // simulate the vector's own configuration
    Fidelity fidelity = Fidelity::Fsim;
    std::uint64_t uopBudget = RunOptions{}.uopBudget;
    bool timing = false;
    TimingConfig timingConfig;
    std::string traceCsv;  // per-module activity intervals of the (single) vector
};

struct VtaUsageError {
    std::string message;
};

VtaOptions parse(const std::vector<std::string>& args, bool& help)
{
    VtaOptions o;
    help = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= args.size()) throw VtaUsageError{"option " + a + " needs a value"};
            return args[++i];
        };
        if (a == "-h" || a == "--help") {
            help = true;
            return o;
        }
        if (a == "--json") o.json = true;
        else if (a == "--vector-config") o.vectorConfig = true;
        else if (a == "--fidelity") {
            const std::string v = value();
            if (v == "fsim") o.fidelity = Fidelity::Fsim;
            else if (v == "hardware") o.fidelity = Fidelity::Hardware;
            else throw VtaUsageError{"--fidelity is fsim or hardware (got '" + v + "')"};
        } else if (a == "--max-uops") {
            const std::string v = value();
            std::uint64_t n = 0;
            const auto r = std::from_chars(v.data(), v.data() + v.size(), n);
            if (v.empty() || r.ec != std::errc() || r.ptr != v.data() + v.size() || n == 0)
                throw VtaUsageError{"--max-uops needs a positive integer (got '" + v + "')"};
            o.uopBudget = n;
        } else if (a == "--timing") {
            o.timing = true;
        } else if (a == "--trace-csv") {
            o.traceCsv = value();
            o.timing = true;
        } else if (a == "--gemm-ii" || a == "--alu-ii" || a == "--bus-bits" || a == "--read-latency") {
            const std::string v = value();
            int n = 0;
            const auto r = std::from_chars(v.data(), v.data() + v.size(), n);
            if (v.empty() || r.ec != std::errc() || r.ptr != v.data() + v.size() || n < 0)
                throw VtaUsageError{a + " needs a non-negative integer (got '" + v + "')"};
            if (a == "--gemm-ii") o.timingConfig.gemmII = n;
            else if (a == "--alu-ii") o.timingConfig.aluImmII = o.timingConfig.aluVectorII = n;
            else if (a == "--read-latency") o.timingConfig.readLatency = n;
            else {
                if (n % 8 != 0) throw VtaUsageError{"--bus-bits needs a multiple of 8 (got " + v + ")"};
                o.timingConfig.busBytes = n / 8;
            }
            o.timing = true;
        } else if (!a.empty() && a[0] == '-') {
            throw VtaUsageError{"unknown option '" + a + "'"};
        } else if (o.action.empty()) {
            if (a != "run" && a != "disasm") throw VtaUsageError{"unknown vta action '" + a + "' (run or disasm)"};
            o.action = a;
        } else {
            o.files.push_back(a);
        }
    }
    if (o.action.empty()) throw VtaUsageError{"vta needs an action: run or disasm"};
    if (o.files.empty()) throw VtaUsageError{"vta " + o.action + " needs at least one vector file"};
    if (!o.traceCsv.empty() && o.files.size() != 1) throw VtaUsageError{"--trace-csv takes exactly one vector file"};
    const Diagnostics problems = o.timingConfig.validate();
    if (!problems.empty()) throw VtaUsageError{NestorError(problems).what()};
    return o;
}

std::string percent(double x)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f%%", 100.0 * x);
    return buffer;
}

std::string timingText(const TimingResult& t, const TimingConfig& c)
{
    if (t.error) return "  timing: " + *t.error + "\n";
    std::string s = "  timing: " + std::to_string(t.cycles) + " cycles (GEMM II " + std::to_string(c.gemmII) +
                    ", ALU II " + std::to_string(c.aluImmII) + "/" + std::to_string(c.aluVectorII) + ", bus " +
                    std::to_string(c.busBytes * 8) + " bit, read latency " + std::to_string(c.readLatency) + ")\n";
    for (int lane = 0; lane < kTraceLanes; ++lane) {
        const double total = static_cast<double>(t.cycles == 0 ? 1 : t.cycles);
        std::string name = laneName(lane);
        name.resize(8, ' ');
        s += "    " + name + "busy " + percent(t.trace.utilization(lane)) + ", stalled on token " +
             percent(static_cast<double>(t.trace.cycles(lane, Activity::StallToken)) / total) +
             ", stalled on memory " + percent(static_cast<double>(t.trace.cycles(lane, Activity::StallMemory)) / total);
        if (const std::uint64_t q = t.trace.cycles(lane, Activity::StallQueue))
            s += ", stalled on a full queue " + percent(static_cast<double>(q) / total);
        s += "\n";
    }
    return s;
}

bool writeTraceCsv(const std::string& path, const ProgramVector& vec, const TimingResult& t, std::ostream& err)
{
    std::ofstream f(path);
    f << "lane,begin,end,activity,instruction,opcode,disassembly\n";
    for (int lane = 0; lane < kTraceLanes; ++lane)
        for (const ActivityInterval& i : t.trace.lanes[static_cast<std::size_t>(lane)])
            f << laneName(lane) << "," << i.begin << "," << i.end << "," << activityName(i.activity) << ","
              << i.insnIndex << "," << opcodeName(i.opcode) << ",\"" << disassemble(vec.insns[i.insnIndex]) << "\"\n";
    if (!f) {
        err << "nestor-cli vta: cannot write " << path << "\n";
        return false;
    }
    return true;
}

void writeTimingJson(JsonWriter& w, const TimingResult& t)
{
    w.key("timing").beginObject();
    if (t.error) w.field("error", *t.error);
    w.field("cycles", static_cast<std::int64_t>(t.cycles));
    w.field("read_beats", static_cast<std::int64_t>(t.readBeats)).field("write_beats", static_cast<std::int64_t>(t.writeBeats));
    w.key("modules").beginObject();
    for (int lane = 0; lane < kTraceLanes; ++lane) {
        w.key(laneName(lane)).beginObject();
        w.field("busy", static_cast<std::int64_t>(t.trace.cycles(lane, Activity::Busy)));
        w.field("stalled_on_token", static_cast<std::int64_t>(t.trace.cycles(lane, Activity::StallToken)));
        w.field("stalled_on_memory", static_cast<std::int64_t>(t.trace.cycles(lane, Activity::StallMemory)));
        w.field("stalled_on_full_queue", static_cast<std::int64_t>(t.trace.cycles(lane, Activity::StallQueue)));
        w.field("utilization", t.trace.utilization(lane));
        w.endObject();
    }
    w.endObject().endObject();
}

void writeJson(JsonWriter& w, const ProgramVector& vec, const VectorCheckResult& r, const std::optional<TimingResult>& timing)
{
    w.beginObject();
    w.field("file", vec.file).field("name", vec.name).field("passed", r.passed());
    if (r.run.failure) {
        const RunFailure& f = *r.run.failure;
        w.key("failure").beginObject().field("kind", RunFailure::kindName(f.kind));
        if (f.module) w.field("module", moduleName(*f.module));
        if (f.insnIndex) w.field("instruction", static_cast<std::int64_t>(*f.insnIndex)).field("disassembly", f.disassembly);
        w.field("message", f.message).endObject();
    }
    w.key("mismatches").beginArray();
    for (const auto& m : r.mismatches) w.value(m);
    w.endArray();
    w.key("counters").beginObject();
    for (const auto& [k, v] : r.run.counters.named()) w.field(k, static_cast<std::int64_t>(v));
    w.endObject();
    w.key("token_pushes").beginObject();
    for (int q = 0; q < kTokenQueueCount; ++q)
        w.field(tokenQueueKey(static_cast<TokenQueue>(q)), static_cast<std::int64_t>(r.run.tokenPushes[static_cast<std::size_t>(q)]));
    w.endObject();
    w.key("warnings").beginArray();
    for (const auto& m : r.run.warnings) w.value(m);
    w.endArray();
    if (timing) writeTimingJson(w, *timing);
    w.endObject();
}

void disasm(const ProgramVector& vec, std::ostream& out)
{
    out << vec.file << ": " << vec.insns.size() << " instructions, configuration " << vec.config.summary() << "\n";
    for (std::size_t i = 0; i < vec.insns.size(); ++i) {
        std::string m = moduleName(moduleOf(vec.insns[i]));
        m.resize(8, ' ');
        out << "  " << i << "\t" << m << disassemble(vec.insns[i]) << "\n";
    }
}

} // namespace

std::string vtaUsage()
{
    return "Usage: nestor-cli vta run VECTOR.json... [options]\n"
           "       nestor-cli vta disasm VECTOR.json...\n"
           "\n"
           "Runs VTA program vectors (tests/data/vta/FORMAT.md) on the behavioural simulator and\n"
           "compares every expected output byte, the fsim counters and the token pushes.\n"
           "A deadlock, a missing FINISH, an instruction after FINISH or an index outside a\n"
           "scratchpad or DRAM stops the run with a report naming the module and instruction.\n"
           "\n"
           "  --json                 the results as JSON on stdout\n"
           "  --fidelity fsim|hardware\n"
           "                         fsim (default): STORE reads ACC, ALU immediates use acc[dst];\n"
           "                         hardware: STORE reads the OUT buffer, immediates use acc[src]\n"
           "  --vector-config        simulate the vector's configuration (default: reject any\n"
           "                         vector whose config is not the default VTA configuration)\n"
           "  --max-uops N           stop after N GEMM/ALU micro-ops (default 2^28)\n"
           "  --timing               also run the cycle model: cycles and per-module busy /\n"
           "                         stalled-on-token / stalled-on-memory shares (docs/vta-simulator.md)\n"
           "  --gemm-ii N            GEMM initiation interval (1 pipelined, default; 4 original)\n"
           "  --alu-ii N             ALU initiation interval, immediate and vector (default 1 and 2)\n"
           "  --bus-bits N           memory bus width (default 64)\n"
           "  --read-latency N       first-beat DRAM latency in cycles when idle (default 20)\n"
           "  --trace-csv FILE       the per-module activity intervals (lane, cycles, activity,\n"
           "                         instruction) of one vector as CSV\n"
           "                         (each of the last five implies --timing)\n"
           "  -h, --help             show this help\n"
           "\n"
           "Exit status: 0 every vector matches, 1 a mismatch or a run error, 2 usage error,\n"
           "3 a vector file cannot be read or is invalid.\n" + vtaNetworkUsage();
}

int runVtaCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    if (!args.empty() && isVtaNetworkAction(args.front())) return runVtaNetworkCommand(args, out, err);
    VtaOptions o;
    try {
        bool help = false;
        o = parse(args, help);
        if (help) {
            out << vtaUsage();
            return kExitOk;
        }
    } catch (const VtaUsageError& e) {
        err << "nestor-cli vta: " << e.message << "\n\n" << vtaUsage();
        return kExitUsage;
    }
    const VtaConfig defaultConfig;
    int status = kExitOk;
    JsonWriter json;
    if (o.json) json.beginArray();
    for (const std::string& file : o.files) {
        ProgramVector vec;
        try {
            vec = loadVector(file, o.vectorConfig ? nullptr : &defaultConfig);
        } catch (const NestorError& e) {
            err << "nestor-cli vta: invalid vector:\n";
            for (const Diagnostic& d : e.diagnostics()) err << "  " << d.toString() << "\n";  // as eval lists its reasons
            if (o.json) json.beginObject().field("file", file).field("passed", false).field("error", e.what()).endObject();
            status = kExitInput;
            continue;
        }
        if (o.action == "disasm") {
            disasm(vec, out);
            continue;
        }
        RunOptions run;
        run.fidelity = o.fidelity;
        run.uopBudget = o.uopBudget;
        const VectorCheckResult r = checkVector(vec, run);
        std::optional<TimingResult> timing;
        if (o.timing && r.run.ok()) {
            Diagnostics problems;
            const Program program = buildProgram(vec.insns, IsaLayout(vec.config), problems);
            timing = simulateTiming(program, vec.config, o.timingConfig);
            if (timing->error && status == kExitOk) status = kExitCheckFailed;
            if (!o.traceCsv.empty() && !writeTraceCsv(o.traceCsv, vec, *timing, err)) status = kExitInput;
        }
        if (o.json) writeJson(json, vec, r, timing);
        else out << formatReport(vec, r) << (timing ? timingText(*timing, o.timingConfig) : std::string());
        if (!r.passed() && status == kExitOk) status = kExitCheckFailed;
    }
    if (o.json) {
        json.endArray();
        out << json.str();
    }
    return status;
}

} // namespace nestor::cli
