#include "solvers/thistle/ThistleProgram.h"

#include "arch/EnergyModels.h"
#include "common/CheckedMath.h"

#include <algorithm>
#include <cmath>

namespace nestor::thistle {

Technology Technology::thistle45nm()
{
    Technology t;
    t.sigmaR_pJ = nestor::thistle45nm::kSigmaR_pJ_per_word;
    t.sigmaS_pJ = nestor::thistle45nm::kSigmaS_pJ_per_sqrt_word;
    t.dram_pJ = nestor::thistle45nm::kDramEnergy_pJ;
    t.mac_pJ = nestor::thistle45nm::kMacEnergy_pJ;
    t.areaRegister_um2 = nestor::thistle45nm::kAreaRegister_um2;
    t.areaSramWord_um2 = nestor::thistle45nm::kAreaSramWord_um2;
    t.areaMac_um2 = nestor::thistle45nm::kAreaMac_um2;
    return t;
}

double ThistleCounts::energy_pJ(double eR, double eS, double eD, double eMac) const
{
    return macs * eMac + eR * rfAccesses + eS * (sramReads + sramWrites) + eD * (dramReads + dramWrites);
}

double ThistleCounts::cycles(const Bandwidths& bw) const
{
    double c = macs / std::max(1.0, peUsed);
    auto limit = [&](double words, const std::optional<double>& b) {
        if (b && *b > 0) c = std::max(c, words / *b);
    };
    limit(dramReads, bw.dramRead);
    limit(dramWrites, bw.dramWrite);
    limit(sramReads, bw.sramRead);
    limit(sramWrites, bw.sramWrite);
    limit(rfReadsPerPe, bw.rfRead);
    limit(rfWritesPerPe, bw.rfWrite);
    return c;
}

namespace {

// The pieces of the counts, generic over exact numbers and posynomials.
template <class V>
struct Pieces {
    V rfFootprint, sramFootprint;
    V rfFills, rfDrains, sramForPes, sramFromPes, sramFills, sramDrains, dramReads, dramWrites;
};

int outputTensor(const Workload& w)
{
    for (int t = 0; t < w.numTensors(); ++t)
        if (w.tensors[static_cast<std::size_t>(t)].readWrite) return t;
    return -1;
}

} // namespace

ThistleCounts exactCounts(const ThistleLayer& L, const TileNest& nest, const std::vector<std::int64_t>& trips)
{
    return ExactCounter(L, nest)(trips);
}

ExactCounter::ExactCounter(const ThistleLayer& L, const TileNest& nest) : layer_(L), nest_(nest), output_(outputTensor(L.w))
{
    const Workload& w = L.w;
    allPe_ = spatialAbove(nest_, kRegisterLevel);
    for (int t = 0; t < w.numTensors(); ++t) {
        rfFootprint_.push_back(footprintExpr(w, nest_, t, kRegisterLevel));
        sramFootprint_.push_back(footprintExpr(w, nest_, t, kSramLevel));
        rfParentSpatial_.push_back(parentSpatial(w, nest_, t, kRegisterLevel));
        sramParentSpatial_.push_back(parentSpatial(w, nest_, t, kSramLevel));
    }
}

ThistleCounts ExactCounter::tiles(const std::vector<std::int64_t>& trips) const
{
    const Workload& w = layer_.w;
    ThistleCounts c;
    c.macs = static_cast<double>(w.macs());
    c.peUsed = static_cast<double>(productOf(allPe_, trips));
    for (std::size_t t = 0; t < rfFootprint_.size(); ++t) {
        c.rfFootprint += static_cast<double>(rfFootprint_[t].exact(w, trips));
        c.sramFootprint += static_cast<double>(sramFootprint_[t].exact(w, trips));
    }
    return c;
}

ThistleCounts ExactCounter::operator()(const std::vector<std::int64_t>& trips)
{
    const Workload& w = layer_.w;
    std::vector<bool> moving(trips.size());
    for (std::size_t v = 0; v < trips.size(); ++v) moving[v] = trips[v] > 1;
    auto found = volumes_.find(moving);
    if (found == volumes_.end()) {
        Volumes vol;
        for (int t = 0; t < w.numTensors(); ++t) {
            vol.rf.push_back(instanceVolumeExprAt(w, nest_, t, kRegisterLevel, trips));
            vol.sram.push_back(instanceVolumeExprAt(w, nest_, t, kSramLevel, trips));
        }
        found = volumes_.emplace(std::move(moving), std::move(vol)).first;
    }
    const Volumes& vol = found->second;

    ThistleCounts c = tiles(trips);
    const std::int64_t peUsed = productOf(allPe_, trips);
    double rfFills = 0, rfDrains = 0, sramForPes = 0, sramFromPes = 0, sramFills = 0, sramDrains = 0, dramR = 0, dramW = 0;
    for (int t = 0; t < w.numTensors(); ++t) {
        const std::size_t tu = static_cast<std::size_t>(t);
        const std::int64_t volRF = vol.rf[tu].exact(w, trips);
        const double fillsRF = static_cast<double>(limitedMul(volRF, peUsed));
        const double accRF = static_cast<double>(limitedMul(volRF, productOf(rfParentSpatial_[tu], trips)));
        const double accS = static_cast<double>(limitedMul(vol.sram[tu].exact(w, trips), productOf(sramParentSpatial_[tu], trips)));
        rfFills += fillsRF;
        sramForPes += accRF;
        sramFills += accS;
        dramR += accS;
        if (t == output_) {
            rfDrains += accRF;
            sramFromPes += accRF;
            sramDrains += accS;
            dramW += accS;
        }
    }
    c.rfAccesses = 4 * c.macs + rfFills + rfDrains;
    c.sramReads = sramForPes + sramDrains;
    c.sramWrites = sramFromPes + sramFills;
    c.dramReads = dramR;
    c.dramWrites = dramW;
    c.rfReadsPerPe = (3 * c.macs + rfDrains) / std::max(1.0, c.peUsed);
    c.rfWritesPerPe = (c.macs + rfFills) / std::max(1.0, c.peUsed);
    return c;
}

std::vector<double> ThistleProgram::valuesAt(const std::vector<double>& y) const
{
    std::vector<double> x = fixedValue;
    for (std::size_t g = 0; g < yOfVar.size(); ++g)
        if (yOfVar[g] >= 0) x[g] = std::exp(y[static_cast<std::size_t>(yOfVar[g])]);
    return x;
}

namespace {

// A posynomial over global ids -> over y indices, fixed variables folded into coefficients.
Posynomial compile(const Posynomial& p, const ThistleProgram& prog)
{
    Posynomial r;
    for (const auto& m : p.terms) {
        Monomial c;
        c.coef = m.coef;
        for (const auto& [var, e] : m.powers) {
            const int y = prog.yOfVar[static_cast<std::size_t>(var)];
            if (y < 0) c.coef *= std::pow(prog.fixedValue[static_cast<std::size_t>(var)], e);
            else c.powers.emplace_back(y, e);
        }
        std::sort(c.powers.begin(), c.powers.end());
        r.terms.push_back(c);
    }
    r.simplify();
    return r;
}

} // namespace

ThistleProgram buildProgram(const ThistleLayer& L, const Permutation& perm, const ProgramSpec& spec)
{
    const Workload& w = L.w;
    const TileNest nest = buildNest(L, perm);
    const int out = outputTensor(w);
    ThistleProgram prog;
    const int V = L.numNestVars;
    prog.varR = V;
    prog.varS = V + 1;
    prog.varP = V + 2;
    prog.varT = V + 3;
    const int G = V + 4;
    prog.fixedValue.assign(static_cast<std::size_t>(G), 0.0);
    for (int v = 0; v < V; ++v) prog.fixedValue[static_cast<std::size_t>(v)] = L.fixedTrips[static_cast<std::size_t>(v)];
    if (!spec.codesign) {
        prog.fixedValue[static_cast<std::size_t>(prog.varR)] = spec.registers;
        prog.fixedValue[static_cast<std::size_t>(prog.varS)] = spec.sramWords;
        prog.fixedValue[static_cast<std::size_t>(prog.varP)] = spec.pes;
    }
    if (spec.objective == Objective::Energy) prog.fixedValue[static_cast<std::size_t>(prog.varT)] = 1.0;  // unused
    prog.yOfVar.assign(static_cast<std::size_t>(G), -1);
    int n = 0;
    for (int g = 0; g < G; ++g)
        if (prog.fixedValue[static_cast<std::size_t>(g)] <= 0) prog.yOfVar[static_cast<std::size_t>(g)] = n++;

    // The pieces as posynomials over global ids (fixed trips folded in by TileExpr).
    const std::vector<double>& fixedTrips = L.fixedTrips;
    Posynomial rfFoot, sramFoot, rfFills, rfDrains, sramForPes, sramFromPes, sramFills, sramDrains, dramR, dramW;
    const std::vector<int> allPe = spatialAbove(nest, kRegisterLevel);
    for (int t = 0; t < w.numTensors(); ++t) {
        rfFoot += footprintExpr(w, nest, t, kRegisterLevel).posynomial(w, &fixedTrips);
        sramFoot += footprintExpr(w, nest, t, kSramLevel).posynomial(w, &fixedTrips);
        const Posynomial volRF = instanceVolumeExpr(w, nest, t, kRegisterLevel).posynomial(w, &fixedTrips);
        const Posynomial fillsRF = volRF * monomialOf(allPe);
        const Posynomial accRF = volRF * monomialOf(parentSpatial(w, nest, t, kRegisterLevel));
        const Posynomial accS = instanceVolumeExpr(w, nest, t, kSramLevel).posynomial(w, &fixedTrips);
        rfFills += fillsRF;
        sramForPes += accRF;
        sramFills += accS;
        dramR += accS;
        if (t == out) {
            rfDrains += accRF;
            sramFromPes += accRF;
            sramDrains += accS;
            dramW += accS;
        }
    }
    const double macs = static_cast<double>(w.macs());
    const Posynomial xR = Posynomial::variable(prog.varR), xS = Posynomial::variable(prog.varS), xP = Posynomial::variable(prog.varP);
    Posynomial peUsed = monomialOf(allPe);

    GpProblem& gp = prog.gp;
    gp.numVars = n;
    auto addConstraint = [&](Posynomial p, const std::string& name) {
        gp.atMostOne.push_back(compile(p, prog));
        gp.constraintNames.push_back(name);
    };
    // Capacities: the three register tiles fit in R words, the three SRAM tiles in S words.
    addConstraint(rfFoot * Posynomial::variable(prog.varR, -1.0), "register tiles <= registers per PE");
    addConstraint(sramFoot * Posynomial::variable(prog.varS, -1.0), "SRAM tiles <= SRAM words");
    addConstraint(peUsed * Posynomial::variable(prog.varP, -1.0), "PEs used <= PEs");
    if (spec.codesign) {
        // Eq. 5: (Area_R R + Area_MAC) P + Area_S S <= Area.
        Posynomial area = (xR * xP).scale(spec.tech.areaRegister_um2) + Posynomial(xP).scale(spec.tech.areaMac_um2) +
                          Posynomial(xS).scale(spec.tech.areaSramWord_um2);
        addConstraint(area.scale(1.0 / spec.area_um2), "area <= budget");
    }

    const Posynomial rfAcc = Posynomial::constant(4 * macs) + rfFills + rfDrains;
    const Posynomial sramReads = sramForPes + sramDrains, sramWrites = sramFromPes + sramFills;
    if (spec.objective == Objective::Energy) {
        const Posynomial eR = spec.codesign ? Posynomial(xR).scale(spec.tech.sigmaR_pJ) : Posynomial::constant(spec.eR_pJ);
        const Posynomial eS = spec.codesign ? Posynomial::variable(prog.varS, 0.5).scale(spec.tech.sigmaS_pJ) : Posynomial::constant(spec.eS_pJ);
        const double eD = spec.codesign ? spec.tech.dram_pJ : spec.eD_pJ;
        const double eMac = spec.codesign ? spec.tech.mac_pJ : spec.eMac_pJ;
        Posynomial energy = Posynomial::constant(macs * eMac) + eR * rfAcc + eS * (sramReads + sramWrites) +
                            (dramR + dramW).scale(eD);
        gp.objective = compile(energy.scale(1.0 / macs), prog);  // pJ per MAC: well scaled
    } else {
        const Posynomial invT = Posynomial::variable(prog.varT, -1.0);
        Monomial perPe;
        for (int v : allPe) perPe = perPe * Monomial{1.0, {{v, -1.0}}};
        Posynomial invPe;
        invPe.terms.push_back(perPe);
        addConstraint(Posynomial::constant(macs) * invPe * invT, "compute cycles <= T");
        auto limit = [&](const Posynomial& words, const std::optional<double>& b, const std::string& name) {
            if (b && *b > 0) {
                Posynomial p = words * invT;
                addConstraint(p.scale(1.0 / *b), name + " cycles <= T");
            }
        };
        limit(dramR, spec.bw.dramRead, "DRAM read");
        limit(dramW, spec.bw.dramWrite, "DRAM write");
        limit(sramReads, spec.bw.sramRead, "SRAM read");
        limit(sramWrites, spec.bw.sramWrite, "SRAM write");
        limit((Posynomial::constant(3 * macs) + rfDrains) * invPe, spec.bw.rfRead, "register read");
        limit((Posynomial::constant(macs) + rfFills) * invPe, spec.bw.rfWrite, "register write");
        gp.objective = compile(Posynomial::variable(prog.varT), prog);
    }

    // Every tiled dimension: the four trip counts multiply to its bound.
    for (int d : L.tiled) {
        LinearEquality eq;
        for (const auto* vars : {&L.varDram, &L.varSram, &L.varPe, &L.varReg}) eq.vars.push_back(prog.yOfVar[static_cast<std::size_t>((*vars)[static_cast<std::size_t>(d)])]);
        eq.rhs = std::log(static_cast<double>(w.bounds[static_cast<std::size_t>(d)]));
        gp.equalities.push_back(eq);
    }
    // Bounds and a start: trips in [1, bound], spread evenly; R, S, P, T generous.
    gp.lower.assign(static_cast<std::size_t>(n), 0.0);
    gp.upper.assign(static_cast<std::size_t>(n), 0.0);
    gp.start.assign(static_cast<std::size_t>(n), 0.0);
    for (int d : L.tiled) {
        const double lb = std::log(static_cast<double>(w.bounds[static_cast<std::size_t>(d)]));
        for (const auto* vars : {&L.varDram, &L.varSram, &L.varPe, &L.varReg}) {
            const int y = prog.yOfVar[static_cast<std::size_t>((*vars)[static_cast<std::size_t>(d)])];
            gp.upper[static_cast<std::size_t>(y)] = lb;
            gp.start[static_cast<std::size_t>(y)] = lb / 4;
        }
    }
    auto archBounds = [&](int var, double hi, double start) {
        const int y = prog.yOfVar[static_cast<std::size_t>(var)];
        if (y < 0) return;
        gp.upper[static_cast<std::size_t>(y)] = std::log(hi);
        gp.start[static_cast<std::size_t>(y)] = std::log(start);
    };
    const double a = std::max(1.0, spec.area_um2);
    archBounds(prog.varR, std::max(2.0, a / std::max(1e-9, spec.tech.areaRegister_um2)), 64);
    archBounds(prog.varS, std::max(2.0, a / std::max(1e-9, spec.tech.areaSramWord_um2)), 4096);
    archBounds(prog.varP, std::max(2.0, a / std::max(1e-9, spec.tech.areaMac_um2)), 16);
    archBounds(prog.varT, std::max(2.0, macs * 1e6), macs);
    return prog;
}

} // namespace nestor::thistle
