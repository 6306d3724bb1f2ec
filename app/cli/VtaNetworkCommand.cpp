#include "VtaNetworkCommand.h"

#include "ExitCodes.h"
#include "io/TextFormat.h"
#include "SearchCommand.h"
#include "io/AtomicFile.h"
#include "io/JsonWriter.h"
#include "sim/vta/lowering/NetworkRun.h"
#include "sim/vta/lowering/ResNet18.h"
#include "sim/vta/lowering/Sweep.h"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <sstream>

namespace nestor::cli {

namespace {

using namespace nestor::vta;

struct Usage {
    std::string message;
};

struct Options {
    std::string action;  // layer | network | sweep
    std::string network; // resnet18
    std::vector<int> conv;  // N,C,H,W,K,R,S,stride,pad
    TimingConfig timing;
    int image = 224;
    bool check = false;
    bool quiet = false;
    std::string csv, json, traceCsv;
};

int toInt(const std::string& v, const std::string& what)
{
    int n = 0;
    const auto r = std::from_chars(v.data(), v.data() + v.size(), n);
    if (v.empty() || r.ec != std::errc() || r.ptr != v.data() + v.size() || n < 0)
        throw Usage{what + " needs a non-negative integer (got '" + v + "')"};
    return n;
}

Options parse(const std::vector<std::string>& args)
{
    Options o;
    o.action = args.at(0);
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= args.size()) throw Usage{"option " + a + " needs a value"};
            return args[++i];
        };
        if (a == "--conv") {
            std::stringstream ss(value());
            std::string part;
            while (std::getline(ss, part, ',')) o.conv.push_back(toInt(part, "--conv"));
            if (o.conv.size() != 9) throw Usage{"--conv takes N,C,H,W,K,R,S,stride,pad (9 integers)"};
        } else if (a == "--gemm-ii") o.timing.gemmII = toInt(value(), a);
        else if (a == "--bus-bits") {
            const int n = toInt(value(), a);
            if (n % 8 != 0) throw Usage{"--bus-bits needs a multiple of 8"};
            o.timing.busBytes = n / 8;
        } else if (a == "--alu-ii") {
            o.timing.aluImmII = o.timing.aluVectorII = toInt(value(), a);
        } else if (a == "--read-latency") o.timing.readLatency = toInt(value(), a);
        else if (a == "--image") o.image = toInt(value(), a);
        else if (a == "--csv") o.csv = value();
        else if (a == "--json") o.json = value();
        else if (a == "--trace-csv") o.traceCsv = value();
        else if (a == "--check") o.check = true;
        else if (a == "--quiet") o.quiet = true;
        else if (!a.empty() && a[0] == '-') throw Usage{"unknown option '" + a + "'"};
        else if (o.network.empty()) o.network = a;
        else throw Usage{"unexpected argument '" + a + "'"};
    }
    if (o.action == "layer" && o.conv.empty()) throw Usage{"vta layer needs --conv N,C,H,W,K,R,S,stride,pad"};
    if (o.action != "layer" && o.network != "resnet18")
        throw Usage{"vta " + o.action + " takes a network name: resnet18"};
    if (o.image < 32 || o.image % 32 != 0) throw Usage{"--image needs a multiple of 32"};
    const Diagnostics bad = o.timing.validate();
    if (!bad.empty()) throw Usage{NestorError(bad).what()};
    return o;
}

using text::padded;

const char* kCsvHeader =
    "layer,kind,tiling,first_cycle,cycles,ops,inp_bytes,wgt_bytes,acc_bytes,uop_bytes,out_bytes,"
    "load_util,compute_util,store_util,ops_per_byte,ops_per_cycle,compute_roof,bytes_per_cycle\n";

std::string csvOf(const NetworkRun& run)
{
    std::string s = kCsvHeader;
    for (const LayerRun& l : run.layers) {
        const Counters& c = l.counters;
        s += l.name + "," + layerKindName(l.kind) + "," + l.tiling.describe() + "," + std::to_string(l.firstCycle) + "," +
             std::to_string(l.cycles) + "," + std::to_string(l.ops) + "," + std::to_string(c.inpLoadNbytes) + "," +
             std::to_string(c.wgtLoadNbytes) + "," + std::to_string(c.accLoadNbytes) + "," +
             std::to_string(c.uopLoadNbytes) + "," + std::to_string(c.outStoreNbytes) + "," +
             padded(l.utilization[0], 4) + "," + padded(l.utilization[1], 4) + "," + padded(l.utilization[2], 4) + "," +
             padded(l.roofline.opsPerByte, 4) + "," + padded(l.roofline.opsPerCycle, 4) + "," +
             padded(l.roofline.computeRoof, 2) + "," + padded(l.roofline.bytesPerCycle, 2) + "\n";
    }
    return s;
}

void jsonOf(JsonWriter& w, const NetworkRun& run, const VtaConfig& config, const TimingConfig& timing)
{
    w.beginObject();
    w.field("config", config.summary()).field("gemm_ii", timing.gemmII).field("bus_bits", timing.busBytes * 8);
    w.field("total_cycles", static_cast<std::int64_t>(run.totalCycles)).field("total_ops", static_cast<std::int64_t>(run.totalOps));
    w.field("cancelled", run.cancelled);
    if (run.error) w.field("error", *run.error);
    w.key("layers").beginArray();
    for (const LayerRun& l : run.layers) {
        w.beginObject().field("name", l.name).field("kind", layerKindName(l.kind)).field("tiling", l.tiling.describe());
        w.field("first_cycle", static_cast<std::int64_t>(l.firstCycle)).field("cycles", static_cast<std::int64_t>(l.cycles));
        w.field("ops", static_cast<std::int64_t>(l.ops)).field("instructions", static_cast<std::int64_t>(l.instructions));
        w.key("bytes").beginObject();
        for (const auto& [k, v] : l.counters.named()) w.field(k, static_cast<std::int64_t>(v));
        w.endObject();
        w.key("utilization").beginObject();
        for (int lane = 0; lane < kTraceLanes; ++lane) w.field(laneName(lane), l.utilization[static_cast<std::size_t>(lane)]);
        w.endObject();
        w.key("roofline").beginObject().field("ops_per_byte", l.roofline.opsPerByte)
            .field("ops_per_cycle", l.roofline.opsPerCycle).field("compute_roof", l.roofline.computeRoof)
            .field("bytes_per_cycle", l.roofline.bytesPerCycle).field("attainable", l.roofline.attainable()).endObject();
        w.endObject();
    }
    w.endArray().endObject();
}

// Every activity interval of every layer on the network's time axis: a utilization timeline.
std::string traceCsvOf(const NetworkRun& run)
{
    std::string s = "layer,lane,begin,end,activity,insn,opcode\n";
    for (const LayerRun& l : run.layers)
        for (int lane = 0; lane < kTraceLanes; ++lane)
            for (const ActivityInterval& i : l.trace.lanes[static_cast<std::size_t>(lane)])
                s += l.name + "," + laneName(lane) + "," + std::to_string(i.begin + l.firstCycle) + "," +
                     std::to_string(i.end + l.firstCycle) + "," + activityName(i.activity) + "," +
                     std::to_string(i.insnIndex) + "," + opcodeName(i.opcode) + "\n";
    return s;
}

std::string tableOf(const NetworkRun& run)
{
    std::string s;
    char line[256];
    std::snprintf(line, sizeof line, "%-10s %-9s %11s %13s %11s %6s %6s %6s %8s %8s  %s\n", "layer", "kind", "cycles",
                  "MACs/ops", "DRAM bytes", "load", "comp", "store", "ops/B", "ops/cyc", "tiling");
    s += line;
    for (const LayerRun& l : run.layers) {
        std::snprintf(line, sizeof line, "%-10s %-9s %11llu %13llu %11llu %5.1f%% %5.1f%% %5.1f%% %8.2f %8.2f  %s\n",
                      l.name.c_str(), layerKindName(l.kind), static_cast<unsigned long long>(l.cycles),
                      static_cast<unsigned long long>(l.ops), static_cast<unsigned long long>(l.dramBytes()),
                      100 * l.utilization[0], 100 * l.utilization[1], 100 * l.utilization[2], l.roofline.opsPerByte,
                      l.roofline.opsPerCycle, l.tiling.describe().c_str());
        s += line;
    }
    return s;
}

bool writeOut(const std::string& path, const std::string& text, std::ostream& err)
{
    try {
        writeFileAtomically(path, text);
        return true;
    } catch (const std::exception& e) {
        err << "nestor-cli vta: cannot write " << path << ": " << e.what() << "\n";
        return false;
    }
}

int networkOrLayer(const Options& o, std::ostream& out, std::ostream& err)
{
    std::vector<vta::LayerSpec> layers;
    if (o.action == "layer") {
        const auto& v = o.conv;
        const int terms = v[1] * v[5] * v[6];
        layers.push_back(convLayer("layer", v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8],
                                   requantShift(static_cast<std::uint64_t>(terms)), true));
    } else {
        layers = resnet18Layers(o.image);
    }
    const VtaConfig config;
    const std::atomic<bool>* cancel = installInterruptHandler();
    FlagJobContext job(cancel, [&](const JobProgress& p) {
        if (!o.quiet) err << "\r" << padded(100 * (p.known() ? p.fraction : 0), 0) << "% " << p.message << "\033[K" << std::flush;
    });
    RunNetworkOptions options;
    options.keepTraces = !o.traceCsv.empty();
    options.checkReference = o.check;
    const auto t0 = std::chrono::steady_clock::now();
    const NetworkRun run = runNetwork(layers, config, o.timing, &job, options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!o.quiet) err << "\n";
    out << tableOf(run);
    out << "total: " << run.totalCycles << " cycles, " << run.totalOps << " ops, GEMM II " << o.timing.gemmII << ", bus "
        << o.timing.busBytes * 8 << " bit, " << config.summary() << "; simulated in " << padded(seconds, 2) << " s"
        << (run.cancelled ? " (interrupted)" : "") << "\n";
    int status = kExitOk;
    if (o.check) {
        std::size_t matches = 0;
        for (const LayerRun& l : run.layers) matches += l.outputMatchesReference ? 1 : 0;
        out << "reference check: " << matches << " of " << run.layers.size() << " layers bit-equal\n";
        if (matches != run.layers.size()) status = kExitCheckFailed;
    }
    if (run.error) {
        err << "nestor-cli vta: " << *run.error << "\n";
        status = kExitCheckFailed;
    }
    if (!o.csv.empty() && !writeOut(o.csv, csvOf(run), err)) status = kExitInput;
    if (!o.traceCsv.empty() && !writeOut(o.traceCsv, traceCsvOf(run), err)) status = kExitInput;
    if (!o.json.empty()) {
        JsonWriter w;
        jsonOf(w, run, config, o.timing);
        if (!writeOut(o.json, w.str(), err)) status = kExitInput;
    }
    return status;
}

int sweep(const Options& o, std::ostream& out, std::ostream& err)
{
    const std::atomic<bool>* cancel = installInterruptHandler();
    FlagJobContext job(cancel, [&](const JobProgress& p) {
        if (!o.quiet) err << "\r" << padded(100 * (p.known() ? p.fraction : 0), 0) << "% " << p.message << "\033[K" << std::flush;
    });
    const std::vector<SweepPoint> points = runSweep(resnet18Layers(o.image), SweepSpace{}, o.timing, &job);
    if (!o.quiet) err << "\n";
    std::string csv = "label,batch,block_in,block_out,log_inp_buff,log_wgt_buff,log_acc_buff,bus_bits,gemm_ii,area_mm2,cycles,dram_bytes,pareto,error\n";
    char line[256];
    out << "Pareto front (area vs cycles):\n";
    for (const SweepPoint& p : points) {
        csv += p.label() + "," + std::to_string(p.config.batch()) + "," + std::to_string(p.config.blockIn()) + "," +
               std::to_string(p.config.blockOut()) + "," + std::to_string(p.config.logInpBuffSize) + "," +
               std::to_string(p.config.logWgtBuffSize) + "," + std::to_string(p.config.logAccBuffSize) + "," +
               std::to_string(p.timing.busBytes * 8) + "," + std::to_string(p.timing.gemmII) + "," +
               padded(p.areaMm2, 4) + "," + std::to_string(p.cycles) + "," + std::to_string(p.dramBytes) + "," +
               (p.pareto ? "1" : "0") + ",\"" + (p.error ? *p.error : "") + "\"\n";
        if (!p.pareto) continue;
        std::snprintf(line, sizeof line, "  %-32s %8.3f mm2 %12llu cycles\n", p.label().c_str(), p.areaMm2,
                      static_cast<unsigned long long>(p.cycles));
        out << line;
    }
    std::size_t failed = 0;
    for (const SweepPoint& p : points) failed += p.error ? 1 : 0;
    out << points.size() << " points, " << failed << " do not map (see --csv for why)\n";
    if (!o.csv.empty() && !writeOut(o.csv, csv, err)) return kExitInput;
    if (!o.json.empty()) {
        JsonWriter w;
        w.beginArray();
        for (const SweepPoint& p : points) {
            w.beginObject().field("label", p.label()).field("area_mm2", p.areaMm2)
                .field("cycles", static_cast<std::int64_t>(p.cycles)).field("dram_bytes", static_cast<std::int64_t>(p.dramBytes))
                .field("pareto", p.pareto);
            if (p.error) w.field("error", *p.error);
            w.endObject();
        }
        w.endArray();
        if (!writeOut(o.json, w.str(), err)) return kExitInput;
    }
    return kExitOk;
}

} // namespace

bool isVtaNetworkAction(const std::string& action) { return action == "layer" || action == "network" || action == "sweep"; }

std::string vtaNetworkUsage()
{
    return "       nestor-cli vta layer --conv N,C,H,W,K,R,S,stride,pad [--gemm-ii 1|4] [--bus-bits N] [--check] [--csv F] [--json F]\n"
           "       nestor-cli vta network resnet18 [--gemm-ii 1|4] [--alu-ii N] [--bus-bits N] [--image 224] [--check] [--csv F] [--json F] [--trace-csv F]\n"
           "       nestor-cli vta sweep resnet18 [--image 224] [--csv F] [--json F]\n"
           "  layer/network: lower int8 layers to VTA programs (TPS tiling, double buffering), run them bit-exact\n"
           "  and timed; per layer cycles, DRAM bytes per buffer, utilization, roofline point. --check compares\n"
           "  every output with the reference implementation. sweep: GEMM shape x bus x scratchpads x II,\n"
           "  area estimate and the area-vs-cycles Pareto front. Progress on stderr (--quiet: none); Ctrl-C cancels.\n";
}

int runVtaNetworkCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    Options o;
    try {
        o = parse(args);
    } catch (const Usage& u) {
        err << "nestor-cli vta: " << u.message << "\n\nUsage:\n" << vtaNetworkUsage();
        return kExitUsage;
    }
    try {
        return o.action == "sweep" ? sweep(o, out, err) : networkOrLayer(o, out, err);
    } catch (const NestorError& e) {
        err << "nestor-cli vta: " << e.what() << "\n";
        return kExitInput;
    }
}

} // namespace nestor::cli
