#include "trace/NestOdometer.h"

#include <algorithm>

namespace nestor::trace::detail {

NestOdometer::NestOdometer(const Workload& w, const Architecture& a, const Mapping& m)
{
    L_ = a.numLevels();
    D_ = w.numDims();
    if (D_ > 16) throw NestorError("workload.dims", "the step trace handles at most 16 dimensions");
    fanX_.assign(L_, 1);
    fanY_.assign(L_, 1);
    fan_.assign(L_, 1);
    // Same fanout rule as the model and the brute force: mesh of the level below over this one.
    for (int i = 0; i < L_; ++i) {
        const auto& l = a.levels[i];
        const i64 mx = std::max<i64>(1, l.meshX);
        const i64 my = std::max<i64>(1, l.instances / mx);
        const i64 cmx = std::max<i64>(1, i + 1 < L_ ? a.levels[i + 1].meshX : a.compute.meshX);
        const i64 cinst = i + 1 < L_ ? a.levels[i + 1].instances : a.compute.instances;
        const i64 cmy = std::max<i64>(1, cinst / cmx);
        fanX_[i] = std::max<i64>(1, cmx / mx);
        fanY_[i] = std::max<i64>(1, cmy / my);
        fan_[i] = fanX_[i] * fanY_[i];
    }
    inst_.assign(L_ + 1, 1);
    for (int i = 0; i < L_; ++i) inst_[i + 1] = inst_[i] * fan_[i];

    tBegin_.assign(L_, 0);
    yBegin_.assign(L_, 0);
    xBegin_.assign(L_, 0);
    lEnd_.assign(L_, 0);
    for (int i = 0; i < L_; ++i) {
        const LevelMapping& lm = m.levels[i];
        auto add = [&](const std::vector<Loop>& v, LoopKind kind) {
            for (std::size_t k = 0; k < v.size(); ++k) {
                FlatLoop f{v[k].dim, v[k].bound, v[k].residual, i, kind, static_cast<int>(k), -1};
                if (kind == LoopKind::Temporal) {
                    f.temporalIndex = static_cast<int>(temporal_.size());
                    temporal_.push_back(static_cast<int>(loops_.size()));
                }
                loops_.push_back(f);
            }
        };
        tBegin_[i] = numLoops();
        add(lm.temporal, LoopKind::Temporal);
        yBegin_[i] = numLoops();
        add(lm.spatialY, LoopKind::SpatialY);
        xBegin_[i] = numLoops();
        add(lm.spatialX, LoopKind::SpatialX);
        lEnd_[i] = numLoops();
    }
    const int n = numLoops();
    strideAfter_.assign(n, 1);
    for (int k = 0; k < n; ++k)
        for (int q = k + 1; q < n; ++q)
            if (loops_[q].dim == loops_[k].dim) strideAfter_[k] *= loops_[q].bound;
    innerCov_.assign(n + 1, std::vector<i64>(D_, 1));
    innerProd_.assign(n + 1, std::vector<i64>(D_, 1));
    for (int b = n - 1; b >= 0; --b) {
        innerCov_[b] = innerCov_[b + 1];
        innerProd_[b] = innerProd_[b + 1];
        const auto& l = loops_[b];
        innerCov_[b][l.dim] = innerCov_[b + 1][l.dim] + (l.residual - 1) * innerProd_[b + 1][l.dim];
        innerProd_[b][l.dim] = innerProd_[b + 1][l.dim] * l.bound;
    }

    // Steps of the global nest from position q on, per context (bit d: every loop of dim d so
    // far at its last iteration). A spatial loop keeps the bit only when it has one trip: a
    // global step exists as long as some instance runs it, so trips are the largest any
    // instance has (instances at a spatial loop's last index get the residual and idle).
    const std::size_t nc = std::size_t{1} << D_;
    count_.assign((static_cast<std::size_t>(n) + 1) * nc, 1);
    for (int q = n - 1; q >= 0; --q) {
        const auto& l = loops_[q];
        const unsigned bit = 1u << l.dim;
        for (unsigned ctx = 0; ctx < nc; ++ctx) {
            const i64 t = trip(l, ctx & bit);
            i64 c;
            if (l.kind != LoopKind::Temporal) c = count(q + 1, t > 1 ? ctx & ~bit : ctx);
            else if (t <= 1) c = count(q + 1, ctx);
            else c = (t - 1) * count(q + 1, ctx & ~bit) + count(q + 1, ctx);
            count_[static_cast<std::size_t>(q) * nc + ctx] = c;
        }
    }
    steps_ = count(0, static_cast<unsigned>(nc - 1));
}

std::vector<i64> NestOdometer::unrank(i64 step) const
{
    std::vector<i64> out(temporal_.size(), 0);
    unsigned ctx = (1u << D_) - 1;
    for (int q = 0; q < numLoops(); ++q) {
        const auto& l = loops_[q];
        const unsigned bit = 1u << l.dim;
        const i64 t = trip(l, ctx & bit);
        if (l.kind != LoopKind::Temporal) {
            if (t > 1) ctx &= ~bit;
            continue;
        }
        if (t <= 1) continue;
        const i64 c = count(q + 1, ctx & ~bit);
        if (step < (t - 1) * c) {
            out[l.temporalIndex] = step / c;
            step %= c;
            ctx &= ~bit;
        } else {
            out[l.temporalIndex] = t - 1;
            step -= (t - 1) * c;
        }
    }
    return out;
}

i64 NestOdometer::rank(const std::vector<i64>& tidx) const
{
    i64 step = 0;
    unsigned ctx = (1u << D_) - 1;
    for (int q = 0; q < numLoops(); ++q) {
        const auto& l = loops_[q];
        const unsigned bit = 1u << l.dim;
        const i64 t = trip(l, ctx & bit);
        if (l.kind != LoopKind::Temporal) {
            if (t > 1) ctx &= ~bit;
            continue;
        }
        const i64 i = tidx[l.temporalIndex];
        step += i * count(q + 1, ctx & ~bit);
        if (i != t - 1) ctx &= ~bit;
    }
    return step;
}

bool NestOdometer::fillSpatial(int level, i64 instance, std::vector<i64>& idx) const
{
    idx.resize(loops_.size(), 0);
    // instance = ((c_0 * fan_1 + c_1) * fan_2 + ...): the child index at each level above
    for (int i = level - 1; i >= 0; --i) {
        const i64 c = instance % fan_[i];
        instance /= fan_[i];
        i64 y = c / fanX_[i], x = c % fanX_[i];
        for (int k = lEnd_[i] - 1; k >= xBegin_[i]; --k) {
            idx[k] = x % loops_[k].bound;
            x /= loops_[k].bound;
        }
        for (int k = xBegin_[i] - 1; k >= yBegin_[i]; --k) {
            idx[k] = y % loops_[k].bound;
            y /= loops_[k].bound;
        }
        if (x != 0 || y != 0) return false;  // beyond the used part of the fanout
    }
    return true;
}

void NestOdometer::fillTemporal(const std::vector<i64>& tidx, std::vector<i64>& idx) const
{
    idx.resize(loops_.size(), 0);
    for (std::size_t k = 0; k < temporal_.size(); ++k) idx[temporal_[k]] = tidx[k];
}

bool NestOdometer::walk(const std::vector<i64>& idx, int end, i64* base, i64* ext) const
{
    unsigned last = (1u << D_) - 1;
    if (base)
        for (int d = 0; d < D_; ++d) base[d] = 0;
    for (int k = 0; k < end; ++k) {
        const auto& l = loops_[k];
        const unsigned bit = 1u << l.dim;
        const i64 t = trip(l, last & bit);
        if (idx[k] >= t) return false;
        if (idx[k] != t - 1) last &= ~bit;
        if (base) base[l.dim] += idx[k] * strideAfter_[k];
    }
    if (ext)
        for (int d = 0; d < D_; ++d) ext[d] = (last & (1u << d)) ? innerCov_[end][d] : innerProd_[end][d];
    return true;
}

int NestOdometer::walkFailure(const std::vector<i64>& idx, int end) const
{
    unsigned last = (1u << D_) - 1;
    for (int k = 0; k < end; ++k) {
        const auto& l = loops_[k];
        const unsigned bit = 1u << l.dim;
        const i64 t = trip(l, last & bit);
        if (idx[k] >= t) return k;
        if (idx[k] != t - 1) last &= ~bit;
    }
    return -1;
}

bool NestOdometer::busy(const std::vector<i64>& idx, int level) const
{
    const int own = level < L_ ? tBegin_[level] : numLoops();
    unsigned last = (1u << D_) - 1;
    for (int k = 0; k < numLoops(); ++k) {
        const auto& l = loops_[k];
        const unsigned bit = 1u << l.dim;
        const i64 t = trip(l, last & bit);
        if (l.kind != LoopKind::Temporal && k >= own) {  // below the instance: the busiest child
            if (t > 1) last &= ~bit;
            continue;
        }
        if (idx[k] >= t) return false;
        if (idx[k] != t - 1) last &= ~bit;
    }
    return true;
}

void NestOdometer::setLast(std::vector<i64>& idx, int from, int end) const
{
    unsigned last = (1u << D_) - 1;
    for (int k = 0; k < end; ++k) {
        const auto& l = loops_[k];
        const unsigned bit = 1u << l.dim;
        const i64 t = trip(l, last & bit);
        if (k >= from && l.kind == LoopKind::Temporal) idx[k] = t - 1;
        if (idx[k] != t - 1) last &= ~bit;
    }
}

bool NestOdometer::previous(std::vector<i64>& idx, int end) const
{
    int limit = end;  // decrement only loops above this flat position
    for (;;) {
        int k = limit - 1;
        while (k >= 0 && (loops_[k].kind != LoopKind::Temporal || idx[k] == 0)) --k;
        if (k < 0) return false;
        --idx[k];
        setLast(idx, k + 1, end);
        const int f = walkFailure(idx, end);
        if (f < 0) return true;
        // every position sharing the indices above the failing loop is outside the instance's run
        limit = f;
    }
}

} // namespace nestor::trace::detail
