#include "sim/vta/lowering/NetworkRun.h"

#include "sim/vta/FunctionalSim.h"
#include "sim/vta/TimingModel.h"
#include "sim/vta/lowering/Lowering.h"
#include "sim/vta/lowering/ReferenceLayer.h"
#include "sim/vta/reference/ReferenceOps.h"

#include <algorithm>
#include <random>

namespace nestor::vta {

double RooflinePoint::attainable() const { return std::min(computeRoof, bytesPerCycle * opsPerByte); }

std::uint64_t LayerRun::dramBytes() const
{
    return counters.inpLoadNbytes + counters.wgtLoadNbytes + counters.accLoadNbytes + counters.uopLoadNbytes +
           counters.outStoreNbytes;
}

namespace {

void addCounters(Counters& into, const Counters& c)
{
    into.inpLoadNbytes += c.inpLoadNbytes;
    into.wgtLoadNbytes += c.wgtLoadNbytes;
    into.accLoadNbytes += c.accLoadNbytes;
    into.uopLoadNbytes += c.uopLoadNbytes;
    into.outStoreNbytes += c.outStoreNbytes;
    into.gemmCounter += c.gemmCounter;
    into.aluCounter += c.aluCounter;
}

// The bytes each instruction moves, without executing it (timing-only runs): the same figures
// the functional simulator counts.
Counters countBytes(const std::vector<Instruction>& insns, const VtaConfig& config)
{
    Counters c;
    for (const Instruction& i : insns) {
        if (i.isLoop()) {
            if (i.opcode == Opcode::Alu) c.aluCounter += i.loopCount();
            else if (!i.reset) c.gemmCounter += i.loopCount();
            continue;
        }
        if (!i.isMemory()) continue;
        const std::uint64_t bytes = std::uint64_t{i.xSize} * i.ySize * static_cast<std::uint64_t>(config.elemBytes(i.mem()));
        if (i.isStore()) c.outStoreNbytes += bytes;
        else if (i.mem() == MemType::Inp) c.inpLoadNbytes += bytes;
        else if (i.mem() == MemType::Wgt) c.wgtLoadNbytes += bytes;
        else if (i.mem() == MemType::Acc) c.accLoadNbytes += bytes;
        else if (i.mem() == MemType::Uop) c.uopLoadNbytes += bytes;
    }
    return c;
}

std::vector<std::int8_t> randomBytes(std::size_t n, std::uint64_t seed, int lo, int hi)
{
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> dist(lo, hi);
    std::vector<std::int8_t> v(n);
    for (auto& x : v) x = static_cast<std::int8_t>(dist(rng));
    return v;
}


} // namespace

ActivityTrace networkTrace(const NetworkRun& run)
{
    ActivityTrace all;
    for (const LayerRun& l : run.layers) {
        for (int lane = 0; lane < kTraceLanes; ++lane)
            for (const ActivityInterval& i : l.trace.lanes[static_cast<std::size_t>(lane)])
                all.add(lane, i.begin + l.firstCycle, i.end + l.firstCycle, i.activity, i.insnIndex, i.opcode);
    }
    all.totalCycles = run.totalCycles;
    return all;
}

RooflinePoint rooflinePoint(const LayerSpec& l, std::uint64_t ops, std::uint64_t bytes, std::uint64_t cycles,
                            const VtaConfig& config, const TimingConfig& timing)
{
    RooflinePoint p;
    const bool alu = l.kind == LayerKind::MaxPool || l.kind == LayerKind::Add;
    p.computeRoof = alu ? double(config.lanes(MemType::Acc)) / timing.aluVectorII
                        : double(config.lanes(MemType::Inp)) * config.blockOut() / timing.gemmII;
    p.bytesPerCycle = timing.busBytes;
    p.opsPerByte = bytes ? double(ops) / double(bytes) : 0.0;
    p.opsPerCycle = cycles ? double(ops) / double(cycles) : 0.0;
    return p;
}

NetworkRun runNetwork(const std::vector<LayerSpec>& layers, const VtaConfig& config, const TimingConfig& timing,
                      JobContext* job, const RunNetworkOptions& options)
{
    NetworkRun run;
    NullJobContext none;
    JobContext& ctx = job ? *job : none;
    const IsaLayout layout(config);
    // Activations of every layer (functional runs), the network input first.
    std::vector<reference::Tensor8> outputs(layers.size());
    reference::Tensor8 input;
    if (!layers.empty() && options.functional) {
        const LayerSpec& f = layers.front();
        input = reference::Tensor8(f.n, f.c, f.h, f.w);
        input.data = randomBytes(input.data.size(), options.seed, -64, 63);
    }
    for (std::size_t li = 0; li < layers.size(); ++li) {
        const LayerSpec& l = layers[li];
        if (ctx.cancelRequested()) {
            run.cancelled = true;
            return run;
        }
        ctx.reportProgress({double(li) / double(layers.size()),
                            "layer " + std::to_string(li + 1) + " of " + std::to_string(layers.size()) + ": " + l.name});
        auto fail = [&](const std::string& why) {
            run.error = l.name + ": " + why;
            return run;
        };
        const Diagnostics problems = l.validate();
        if (!problems.empty()) return fail(problems.front().field + ": " + problems.front().message);
        std::string why;
        const std::optional<Tiling> tiling = searchTiling(l, config, &why);
        if (!tiling) return fail(why);

        LayerRun lr;
        lr.name = l.name;
        lr.kind = l.kind;
        lr.tiling = *tiling;
        lr.ops = l.ops();
        std::vector<const reference::Tensor8*> inputs;
        std::vector<std::int8_t> weights;
        if (options.functional) {
            for (const int from : l.inputs) {
                if (from >= static_cast<int>(li)) return fail("input " + std::to_string(from) + " is not an earlier layer");
                inputs.push_back(from < 0 ? &input : &outputs[static_cast<std::size_t>(from)]);
            }
            weights = randomBytes(l.weightCount(), options.seed * 7919 + li + 1, -16, 15);
        }
        const LayerData data{inputs, &weights};
        LoweredLayer lowered;
        Program program;
        try {
            lowered = lowerLayer(l, config, *tiling, options.functional ? &data : nullptr);
            Diagnostics invalid;
            program = buildProgram(lowered.insns, layout, invalid);
            if (!invalid.empty()) return fail("lowered program invalid: " + invalid.front().field + ": " + invalid.front().message);
        } catch (const NestorError& e) {
            return fail(e.what());
        }
        lr.instructions = lowered.insns.size();
        if (options.functional) {
            Dram dram(0, lowered.dram.size());
            std::copy(lowered.dram.begin(), lowered.dram.end(), dram.write(0, lowered.dram.size(), "image"));
            MachineState state(config, std::move(dram));
            const RunResult r = runFunctional(program, layout, state);
            if (!r.ok()) return fail(describeFailure(*r.failure));
            lr.counters = state.counters;
            outputs[li] = unpackOutput(lowered, config, state.dram);
            if (options.checkReference)
                lr.outputMatchesReference = referenceLayerOutput(l, inputs, weights).data == outputs[li].data;
        } else {
            lr.counters = countBytes(lowered.insns, config);
        }
        TimingResult t = simulateTiming(program, config, timing);
        if (t.error) return fail("timing: " + *t.error);
        lr.cycles = t.cycles;
        lr.firstCycle = run.totalCycles;
        for (int lane = 0; lane < kTraceLanes; ++lane) lr.utilization[static_cast<std::size_t>(lane)] = t.trace.utilization(lane);
        lr.roofline = rooflinePoint(l, lr.ops, lr.dramBytes(), lr.cycles, config, timing);
        if (options.keepTraces) lr.trace = std::move(t.trace);
        run.totalCycles += lr.cycles;
        run.totalOps += lr.ops;
        addCounters(run.totalCounters, lr.counters);
        run.layers.push_back(std::move(lr));
        // Activations no later layer reads could be dropped here; ResNet-18 keeps them all (a few MB).
    }
    ctx.reportProgress({1.0, "done"});
    return run;
}

} // namespace nestor::vta
