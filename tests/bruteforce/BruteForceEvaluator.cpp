#include "bruteforce/BruteForceEvaluator.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

namespace nestor::test {
namespace {

using i64 = std::int64_t;
using Points = std::vector<i64>;  // sorted linear indices into the tensor's full box

enum class Kind { Temporal, SpatialY, SpatialX };

struct FlatLoop {
    int dim = 0;
    i64 bound = 1;
    i64 residual = 1;
    int level = 0;
    Kind kind = Kind::Temporal;
};

// Delta memory of one child instance for one tensor (section 1).
struct TileState {
    bool has = false;
    std::vector<i64> lo, ext;
    bool hasTrans = false;
    std::vector<i64> trans;
};

// Results of one spatial stage (parent level j -> children at level j+1 or the MACs),
// for one tensor.
struct StageTensor {
    std::vector<i64> accNoLink;  // per parent instance: sum over steps of grouped |delta|
    std::vector<i64> accUsed;    // same, with the link-transfer alternative where it wins
    std::vector<i64> childSum;   // per parent instance: sum over steps and children of |delta|
    std::vector<i64> link;       // per parent instance: words delivered over links
    // per child instance (level j+1)
    std::vector<i64> received, partition, maxTile;
    std::vector<i64> peerSent;   // words this child sent to a neighbour over a link
    std::vector<char> active;
};

class Walker {
public:
    Walker(const Workload& w, const Architecture& a, const Mapping& m, const BruteForceOptions& o)
        : w_(w), a_(a), m_(m), opt_(o)
    {
        L_ = a.numLevels();
        D_ = w.numDims();
        T_ = w.numTensors();
        build();
    }

    BFResult run();

private:
    // ---- setup -------------------------------------------------------------------
    void build()
    {
        fanX_.assign(L_, 1);
        fanY_.assign(L_, 1);
        fan_.assign(L_, 1);
        for (int i = 0; i < L_; ++i) {
            const auto& l = a_.levels[i];
            const i64 mx = std::max<i64>(1, l.meshX);
            const i64 my = std::max<i64>(1, l.instances / mx);
            const i64 cmx = std::max<i64>(1, i + 1 < L_ ? a_.levels[i + 1].meshX : a_.compute.meshX);
            const i64 cinst = i + 1 < L_ ? a_.levels[i + 1].instances : a_.compute.instances;
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
            const LevelMapping& lm = m_.levels[i];
            tBegin_[i] = static_cast<int>(loops_.size());
            for (const auto& l : lm.temporal) loops_.push_back({l.dim, l.bound, l.residual, i, Kind::Temporal});
            yBegin_[i] = static_cast<int>(loops_.size());
            for (const auto& l : lm.spatialY) loops_.push_back({l.dim, l.bound, l.residual, i, Kind::SpatialY});
            xBegin_[i] = static_cast<int>(loops_.size());
            for (const auto& l : lm.spatialX) loops_.push_back({l.dim, l.bound, l.residual, i, Kind::SpatialX});
            lEnd_[i] = static_cast<int>(loops_.size());
        }
        n_ = static_cast<int>(loops_.size());
        idx_.assign(n_, 0);
        trip_.assign(n_, 1);

        sameDimBefore_.assign(n_, {});
        for (int k = 0; k < n_; ++k)
            for (int q = 0; q < k; ++q)
                if (loops_[q].dim == loops_[k].dim) sameDimBefore_[k].push_back(q);
        strideAfter_.assign(n_, 1);
        for (int k = 0; k < n_; ++k)
            for (int q = k + 1; q < n_; ++q)
                if (loops_[q].dim == loops_[k].dim) strideAfter_[k] *= loops_[q].bound;
        // inner covered size / inner bound product per boundary and dimension
        innerCov_.assign(n_ + 1, std::vector<i64>(D_, 1));
        innerProd_.assign(n_ + 1, std::vector<i64>(D_, 1));
        for (int b = n_ - 1; b >= 0; --b) {
            innerCov_[b] = innerCov_[b + 1];
            innerProd_[b] = innerProd_[b + 1];
            const auto& l = loops_[b];
            innerCov_[b][l.dim] = innerCov_[b + 1][l.dim] + (l.residual - 1) * innerProd_[b + 1][l.dim];
            innerProd_[b][l.dim] = innerProd_[b + 1][l.dim] * l.bound;
        }

        tExt_.assign(T_, {});
        tStride_.assign(T_, {});
        tSize_.assign(T_, 1);
        for (int t = 0; t < T_; ++t) {
            const auto& ranks = w_.tensors[t].ranks;
            tExt_[t].assign(ranks.size(), 1);
            for (std::size_t r = 0; r < ranks.size(); ++r) {
                i64 e = 1;
                for (const auto& term : ranks[r]) e += term.coef * (w_.bounds[term.dim] - 1);
                tExt_[t][r] = e;
            }
            tStride_[t].assign(ranks.size(), 1);
            for (int r = static_cast<int>(ranks.size()) - 2; r >= 0; --r) tStride_[t][r] = tStride_[t][r + 1] * tExt_[t][r + 1];
            for (i64 e : tExt_[t]) tSize_[t] *= e;
        }

        keep_.assign(L_, std::vector<char>(T_, 0));
        for (int i = 0; i < L_; ++i)
            for (int t = 0; t < T_; ++t) {
                const auto& k = m_.levels[i].keep;
                const bool kept = k.empty() || (t < static_cast<int>(k.size()) && k[t]);
                keep_[i][t] = kept && !a_.levels[i].isSpatialOnly();
            }
    }

    // ---- loop iteration with the residual rule ----------------------------------
    bool outerAllLast(int pos) const
    {
        for (int q : sameDimBefore_[pos])
            if (idx_[q] != trip_[q] - 1) return false;
        return true;
    }

    template <class F>
    void iterate(int pos, int end, F& leaf)
    {
        if (pos == end) {
            leaf();
            return;
        }
        const FlatLoop& l = loops_[pos];
        const i64 tc = outerAllLast(pos) ? l.residual : l.bound;
        trip_[pos] = tc;
        for (i64 i = 0; i < tc; ++i) {
            idx_[pos] = i;
            iterate(pos + 1, end, leaf);
        }
    }

    i64 childIndex(int level) const
    {
        i64 y = 0, x = 0;
        for (int k = yBegin_[level]; k < xBegin_[level]; ++k) y = y * loops_[k].bound + idx_[k];
        for (int k = xBegin_[level]; k < lEnd_[level]; ++k) x = x * loops_[k].bound + idx_[k];
        return y * fanX_[level] + x;
    }

    i64 instanceId(int level) const  // id of the level's instance given the spatial indices above it
    {
        i64 id = 0;
        for (int i = 0; i < level; ++i) id = id * fan_[i] + childIndex(i);
        return id;
    }

    // Dimension ranges of the tile below boundary b (loops at positions < b fixed).
    void dimRanges(int b, std::vector<i64>& base, std::vector<i64>& ext) const
    {
        base.assign(D_, 0);
        std::vector<char> allLast(D_, 1);
        for (int k = 0; k < b; ++k) {
            const auto& l = loops_[k];
            base[l.dim] += idx_[k] * strideAfter_[k];
            if (idx_[k] != trip_[k] - 1) allLast[l.dim] = 0;
        }
        ext.assign(D_, 1);
        for (int d = 0; d < D_; ++d) ext[d] = allLast[d] ? innerCov_[b][d] : innerProd_[b][d];
    }

    void tensorBox(int t, const std::vector<i64>& base, const std::vector<i64>& ext, std::vector<i64>& lo,
                   std::vector<i64>& rext) const
    {
        const auto& ranks = w_.tensors[t].ranks;
        lo.assign(ranks.size(), 0);
        rext.assign(ranks.size(), 1);
        for (std::size_t r = 0; r < ranks.size(); ++r) {
            i64 l = 0, e = 1;
            for (const auto& term : ranks[r]) {
                l += term.coef * base[term.dim];
                e += term.coef * (ext[term.dim] - 1);
            }
            lo[r] = l;
            rext[r] = e;
        }
    }

    static i64 boxSize(const std::vector<i64>& ext)
    {
        i64 s = 1;
        for (i64 e : ext) s *= e;
        return s;
    }

    // Enumerates the points of box (lo, ext) in row-major order, skipping those inside the
    // optional box (slo, sext). Calls f(linearIndex).
    template <class F>
    void forEachPoint(int t, const std::vector<i64>& lo, const std::vector<i64>& ext, const std::vector<i64>* slo,
                      const std::vector<i64>* sext, F&& f) const
    {
        const int R = static_cast<int>(lo.size());
        if (R == 0) {
            if (!slo) f(0);
            return;
        }
        std::vector<i64> c(lo);
        for (;;) {
            bool inside = slo != nullptr;
            if (slo)
                for (int r = 0; r < R; ++r)
                    if (c[r] < (*slo)[r] || c[r] >= (*slo)[r] + (*sext)[r]) {
                        inside = false;
                        break;
                    }
            if (!inside) {
                i64 li = 0;
                for (int r = 0; r < R; ++r) li += c[r] * tStride_[t][r];
                f(li);
            }
            int r = R - 1;
            while (r >= 0) {
                if (++c[r] < lo[r] + ext[r]) break;
                c[r] = lo[r];
                --r;
            }
            if (r < 0) break;
        }
    }

    // Section 1: delta of a child tile against its remembered state.
    void delta(int t, TileState& st, const std::vector<i64>& lo, const std::vector<i64>& ext, Points& out) const
    {
        out.clear();
        bool whole = false;
        if (!st.has) {
            whole = true;
        } else {
            const std::size_t R = lo.size();
            std::vector<i64> tr(R, 0);
            bool zero = true;
            for (std::size_t r = 0; r < R; ++r) {
                const double cNew = static_cast<double>(lo[r]) + static_cast<double>(ext[r] - 1) / 2.0;
                const double cOld = static_cast<double>(st.lo[r]) + static_cast<double>(st.ext[r] - 1) / 2.0;
                tr[r] = static_cast<i64>(std::round(cNew - cOld));
                if (tr[r] != 0) zero = false;
            }
            if (zero && !opt_.legacyZeroTranslationRule) {
                // stationary: set difference; the zero translation is not remembered
            } else if (!st.hasTrans) {
                st.hasTrans = true;
                st.trans = tr;
            } else if (tr == st.trans) {
                // same stride: set difference
            } else {
                whole = true;
                st.hasTrans = false;
                st.trans.clear();
            }
        }
        if (whole)
            forEachPoint(t, lo, ext, nullptr, nullptr, [&](i64 p) { out.push_back(p); });
        else
            forEachPoint(t, lo, ext, &st.lo, &st.ext, [&](i64 p) { out.push_back(p); });
        st.has = true;
        st.lo = lo;
        st.ext = ext;
    }

    void runStage(int j);
    void assemble(BFResult& res);

    // Leakage's instances of level k: the mean, over the level's time steps (tuples of the
    // temporal indices above it), of its busy instances. Every leaf of the loops above the
    // level is one busy instance at one step.
    double averageBusyInstances(int k)
    {
        if (k == 0) return 1.0;
        const int end = lEnd_[k - 1];
        std::set<std::vector<i64>> steps;
        std::vector<i64> key;
        i64 pairs = 0;
        auto leaf = [&]() {
            ++pairs;
            key.clear();
            for (int q = 0; q < end; ++q)
                if (loops_[q].kind == Kind::Temporal) key.push_back(idx_[q]);
            steps.insert(key);
        };
        iterate(0, end, leaf);
        return steps.empty() ? 0.0 : static_cast<double>(pairs) / static_cast<double>(steps.size());
    }

    const Workload& w_;
    const Architecture& a_;
    const Mapping& m_;
    BruteForceOptions opt_;
    int L_ = 0, D_ = 0, T_ = 0, n_ = 0;
    std::vector<i64> fanX_, fanY_, fan_, inst_;
    std::vector<int> tBegin_, yBegin_, xBegin_, lEnd_;
    std::vector<FlatLoop> loops_;
    std::vector<i64> idx_, trip_;
    std::vector<std::vector<int>> sameDimBefore_;
    std::vector<i64> strideAfter_;
    std::vector<std::vector<i64>> innerCov_, innerProd_;
    std::vector<std::vector<i64>> tExt_, tStride_;
    std::vector<i64> tSize_;
    std::vector<std::vector<char>> keep_;

    std::vector<std::vector<StageTensor>> stage_;  // [level j][tensor]
    std::vector<i64> ops_;                         // per MAC
};

void Walker::runStage(int j)
{
    const bool macStage = (j == L_ - 1);
    const i64 f = fan_[j];
    const i64 nParents = inst_[j];
    const i64 nChildren = inst_[j + 1];
    auto& st = stage_[j];
    st.assign(T_, {});
    for (auto& s : st) {
        s.accNoLink.assign(nParents, 0);
        s.accUsed.assign(nParents, 0);
        s.childSum.assign(nParents, 0);
        s.link.assign(nParents, 0);
        s.received.assign(nChildren, 0);
        s.partition.assign(nChildren, 0);
        s.maxTile.assign(nChildren, 0);
        s.peerSent.assign(nChildren, 0);
        s.active.assign(nChildren, 0);
    }
    if (macStage) ops_.assign(nChildren, 0);

    std::vector<std::vector<TileState>> states(T_, std::vector<TileState>(macStage ? 0 : nChildren));
    std::vector<std::vector<std::vector<char>>> held(T_, std::vector<std::vector<char>>(macStage ? 0 : nChildren));
    std::vector<std::vector<Points>> prevDelta(T_, std::vector<Points>(nChildren));
    std::vector<std::vector<Points>> cur(T_, std::vector<Points>(f));
    std::vector<char> curActive(f, 0);
    std::vector<i64> base, ext, lo, rext;
    i64 parent = 0;

    auto childLeaf = [&]() {
        const i64 c = childIndex(j);
        const i64 gid = parent * f + c;
        curActive[c] = 1;
        if (macStage) ++ops_[gid];
        dimRanges(lEnd_[j], base, ext);
        for (int t = 0; t < T_; ++t) {
            auto& s = st[t];
            tensorBox(t, base, ext, lo, rext);
            s.active[gid] = 1;
            const i64 size = boxSize(rext);
            s.maxTile[gid] = std::max(s.maxTile[gid], size);
            if (macStage) {
                // every MAC operation accesses its operand point: no reuse at level 0
                cur[t][c].clear();
                forEachPoint(t, lo, rext, nullptr, nullptr, [&](i64 p) { cur[t][c].push_back(p); });
                s.received[gid] += static_cast<i64>(cur[t][c].size());
                continue;
            }
            TileState& ts = states[t][gid];
            const bool changed = !ts.has || ts.lo != lo || ts.ext != rext;
            delta(t, ts, lo, rext, cur[t][c]);
            s.received[gid] += static_cast<i64>(cur[t][c].size());
            if (changed) {
                auto& bm = held[t][gid];
                if (bm.empty()) bm.assign(tSize_[t], 0);
                forEachPoint(t, lo, rext, nullptr, nullptr, [&](i64 p) {
                    if (!bm[p]) {
                        bm[p] = 1;
                        ++s.partition[gid];
                    }
                });
            }
        }
    };

    auto stepLeaf = [&]() {
        parent = instanceId(j);
        std::fill(curActive.begin(), curActive.end(), 0);
        for (auto& v : cur)
            for (auto& p : v) p.clear();
        iterate(yBegin_[j], lEnd_[j], childLeaf);

        for (int t = 0; t < T_; ++t) {
            auto& s = st[t];
            std::map<Points, i64> groups;
            i64 childSum = 0;
            for (i64 c = 0; c < f; ++c) {
                if (!curActive[c] || cur[t][c].empty()) continue;
                childSum += static_cast<i64>(cur[t][c].size());
                ++groups[cur[t][c]];
            }
            i64 noLink = 0;
            for (const auto& g : groups) noLink += static_cast<i64>(g.first.size());
            i64 used = noLink, linkWords = 0;
            // links only where this stage's accesses are charged to a keeping level: the
            // children keep the tensor (or are the MACs) and some level at or above j keeps it
            bool keptAbove = false;
            for (int q = 0; q <= j; ++q) keptAbove = keptAbove || keep_[q][t];
            const bool linkStage = opt_.linkTransfers && keptAbove && (macStage || keep_[j + 1][t]);
            if (linkStage && f > 1 && noLink > 0) {
                std::vector<i64> sender(f, -1);
                bool any = false;
                for (i64 c = 0; c < f; ++c) {
                    if (!curActive[c] || cur[t][c].empty()) continue;
                    const i64 cx = c % fanX_[j], cy = c / fanX_[j];
                    // Timeloop's order: from above, from below, from the left, from the right
                    const i64 nbs[4][2] = {{cx, cy - 1}, {cx, cy + 1}, {cx - 1, cy}, {cx + 1, cy}};
                    for (const auto& nb : nbs) {
                        if (nb[0] < 0 || nb[0] >= fanX_[j] || nb[1] < 0 || nb[1] >= fanY_[j]) continue;
                        const i64 nl = nb[1] * fanX_[j] + nb[0];
                        if (prevDelta[t][parent * f + nl] == cur[t][c]) {
                            sender[c] = nl;
                            any = true;
                            break;
                        }
                    }
                }
                if (any) {
                    std::map<Points, i64> rest;
                    i64 servedWords = 0;
                    for (i64 c = 0; c < f; ++c) {
                        if (!curActive[c] || cur[t][c].empty()) continue;
                        if (sender[c] >= 0)
                            servedWords += static_cast<i64>(cur[t][c].size());
                        else
                            ++rest[cur[t][c]];
                    }
                    i64 withLink = 0;
                    for (const auto& g : rest) withLink += static_cast<i64>(g.first.size());
                    if (withLink < noLink) {
                        used = withLink;
                        linkWords = servedWords;
                        for (i64 c = 0; c < f; ++c)
                            if (sender[c] >= 0 && curActive[c] && !cur[t][c].empty())
                                s.peerSent[parent * f + sender[c]] += static_cast<i64>(cur[t][c].size());
                    }
                }
            }
            s.accNoLink[parent] += noLink;
            s.accUsed[parent] += used;
            s.childSum[parent] += childSum;
            s.link[parent] += linkWords;
            for (i64 c = 0; c < f; ++c) {
                auto& pd = prevDelta[t][parent * f + c];
                if (curActive[c])
                    pd = cur[t][c];
                else
                    pd.clear();
            }
        }
    };

    iterate(0, yBegin_[j], stepLeaf);
}

static i64 ceilDiv(i64 a, i64 b) { return b <= 0 ? a : (a + b - 1) / b; }

void Walker::assemble(BFResult& res)
{
    res.levels.assign(L_, {});
    for (int i = 0; i < L_; ++i) {
        res.levels[i].name = a_.levels[i].name;
        res.levels[i].tensors.assign(T_, {});
    }

    // compute
    res.macs = 0;
    res.compute_cycles = 0;
    res.utilized_macs = 0;
    for (i64 o : ops_) {
        res.macs += o;
        res.compute_cycles = std::max(res.compute_cycles, o);
        if (o > 0) ++res.utilized_macs;
    }

    for (int t = 0; t < T_; ++t) {
        std::vector<int> keepers;
        for (int i = 0; i < L_; ++i)
            if (keep_[i][t]) keepers.push_back(i);
        for (std::size_t q = 0; q < keepers.size(); ++q) {
            const int K = keepers[q];
            const int C = q + 1 < keepers.size() ? keepers[q + 1] : L_;
            const int s0 = C - 1;
            // content accesses of K: accesses at the stage right above C, scaled up through
            // the bypassed stages by fanout / multicast (per instance: sum / multicast)
            std::vector<double> V(inst_[s0]);
            for (i64 p = 0; p < inst_[s0]; ++p) V[p] = static_cast<double>(stage_[s0][t].accUsed[p]);
            for (int j = s0 - 1; j >= K; --j) {
                std::vector<double> nv(inst_[j], 0.0);
                const auto& sj = stage_[j][t];
                for (i64 p = 0; p < inst_[j]; ++p) {
                    double sum = 0.0;
                    for (i64 c = 0; c < fan_[j]; ++c) sum += V[p * fan_[j] + c];
                    const double mc = sj.accNoLink[p] > 0
                                          ? static_cast<double>(sj.childSum[p]) / static_cast<double>(sj.accNoLink[p])
                                          : 1.0;
                    nv[p] = sum / mc;
                }
                V.swap(nv);
            }
            i64 linkTotal = 0;
            for (i64 v : stage_[s0][t].link) linkTotal += v;
            res.levels[s0].tensors[t].link_transfers += linkTotal;

            // instance-level facts of K
            const i64 nK = inst_[K];
            std::vector<char> active(nK, 0);
            std::vector<i64> received(nK, 0), partition(nK, 0), maxTile(nK, 0), peer(nK, 0);
            if (K == 0) {
                std::vector<i64> base, ext, lo, rext;
                dimRanges(0, base, ext);
                tensorBox(t, base, ext, lo, rext);
                active[0] = res.macs > 0 ? 1 : 0;
                partition[0] = boxSize(rext);
                maxTile[0] = partition[0];
            } else {
                const auto& sk = stage_[K - 1][t];
                for (i64 p = 0; p < nK; ++p) {
                    active[p] = sk.active[p];
                    received[p] = sk.received[p];
                    partition[p] = sk.partition[p];
                    maxTile[p] = sk.maxTile[p];
                    peer[p] = opt_.peerReads ? sk.peerSent[p] : 0;
                }
            }
            const bool backing = (q == 0);
            const bool rw = w_.tensors[t].readWrite;
            auto& ts = res.levels[K].tensors[t];
            ts.kept = true;
            ts.inst_reads.assign(nK, 0);
            ts.inst_fills.assign(nK, 0);
            ts.inst_updates.assign(nK, 0);
            ts.inst_active = active;
            bool first = true;
            for (i64 p = 0; p < nK; ++p) {
                if (!active[p]) continue;
                const i64 content = std::llround(V[p]);
                i64 r = 0, f = 0, u = 0;
                if (rw) {
                    u = content;
                    r = (opt_.firstReadElision ? content - partition[p] : content) + peer[p];
                    f = backing ? 0 : received[p] - partition[p];
                } else {
                    r = content + peer[p];
                    f = backing ? 0 : received[p];
                }
                ts.inst_reads[p] = r;
                ts.inst_fills[p] = f;
                ts.inst_updates[p] = u;
                ts.reads += r;
                ts.fills += f;
                ts.updates += u;
                ++ts.utilized_instances;
                ts.utilized_capacity = std::max(ts.utilized_capacity, maxTile[p]);
                ts.partition_size = std::max(ts.partition_size, partition[p]);
                if (first) {
                    ts.reads_min = ts.reads_max = r;
                    ts.fills_min = ts.fills_max = f;
                    ts.updates_min = ts.updates_max = u;
                    first = false;
                } else {
                    ts.reads_min = std::min(ts.reads_min, r);
                    ts.reads_max = std::max(ts.reads_max, r);
                    ts.fills_min = std::min(ts.fills_min, f);
                    ts.fills_max = std::max(ts.fills_max, f);
                    ts.updates_min = std::min(ts.updates_min, u);
                    ts.updates_max = std::max(ts.updates_max, u);
                }
            }
        }
    }

    // energies (section 5) and cycles (section 6)
    res.cycles = res.compute_cycles;
    for (int i = 0; i < L_; ++i) {
        const auto& lvl = a_.levels[i];
        auto& ls = res.levels[i];
        i64 expansion = 1;
        for (int q = 0; q < i; ++q) {
            for (const auto& l : m_.levels[q].spatialX) expansion *= l.bound;
            for (const auto& l : m_.levels[q].spatialY) expansion *= l.bound;
        }
        const i64 cs = std::max(1, lvl.cluster_size);
        const i64 clusters = std::min<i64>(expansion, lvl.instances / cs);
        const double clusterFactor = expansion > 0 ? static_cast<double>(clusters) / static_cast<double>(expansion) : 1.0;
        const i64 bs = std::max(1, lvl.block_size);
        std::vector<i64> rd(inst_[i], 0), wr(inst_[i], 0);
        for (int t = 0; t < T_; ++t) {
            auto& ts = ls.tensors[t];
            if (!ts.kept) continue;
            ls.utilized_instances = std::max(ls.utilized_instances, ts.utilized_instances);
            for (i64 p = 0; p < inst_[i]; ++p) {
                if (!ts.inst_active[p]) continue;
                const double e = static_cast<double>(ceilDiv(ts.inst_reads[p], bs)) * lvl.energy.read_pJ +
                                 static_cast<double>(ceilDiv(ts.inst_fills[p], bs)) * lvl.energy.fill_pJ +
                                 static_cast<double>(ceilDiv(ts.inst_updates[p], bs)) * lvl.energy.update_pJ;
                ts.energy_pJ += e * clusterFactor;
                rd[p] += ts.inst_reads[p];
                wr[p] += ts.inst_fills[p] + ts.inst_updates[p];
            }
        }
        i64 cyc = res.compute_cycles;
        auto need = [](i64 words, double bw) -> i64 {
            return static_cast<i64>(std::ceil(static_cast<double>(words) / bw - 1e-9));
        };
        for (i64 p = 0; p < inst_[i]; ++p) {
            if (lvl.read_bw_words_per_cycle) cyc = std::max(cyc, need(rd[p], *lvl.read_bw_words_per_cycle));
            if (lvl.write_bw_words_per_cycle) cyc = std::max(cyc, need(wr[p], *lvl.write_bw_words_per_cycle));
            if (lvl.shared_bw_words_per_cycle) cyc = std::max(cyc, need(rd[p] + wr[p], *lvl.shared_bw_words_per_cycle));
        }
        ls.cycles = cyc;
        res.cycles = std::max(res.cycles, cyc);
    }
    res.compute_energy_pJ = static_cast<double>(res.macs) * a_.compute.mac_energy_pJ;
    res.energy_pJ = res.compute_energy_pJ;
    for (int i = 0; i < L_; ++i) {
        auto& ls = res.levels[i];
        ls.cycles = std::max(ls.cycles, res.compute_cycles);
        bool keepsAny = false;
        for (const auto& ts : ls.tensors) keepsAny = keepsAny || ts.kept;
        ls.average_busy_instances = keepsAny ? averageBusyInstances(i) : 0.0;
        ls.leakage_energy_pJ = a_.levels[i].energy.leak_pJ * static_cast<double>(res.cycles) *
                               std::max(1.0, ls.average_busy_instances);
        ls.energy_pJ = ls.leakage_energy_pJ;
        for (const auto& ts : ls.tensors) ls.energy_pJ += ts.energy_pJ;
        res.energy_pJ += ls.energy_pJ;
    }
    res.utilization = res.cycles > 0 && a_.compute.instances > 0
                          ? static_cast<double>(res.macs) /
                                (static_cast<double>(a_.compute.instances) * static_cast<double>(res.cycles))
                          : 0.0;
}

BFResult Walker::run()
{
    BFResult res;
    if (L_ == 0 || static_cast<int>(m_.levels.size()) != L_) return res;
    stage_.assign(L_, {});
    for (int j = 0; j < L_; ++j) runStage(j);
    assemble(res);
    return res;
}

std::string loopsToString(const Workload& w, const std::vector<Loop>& loops)
{
    std::string s = "[";
    for (std::size_t k = 0; k < loops.size(); ++k) {
        if (k) s += " ";
        const auto& l = loops[k];
        s += (l.dim >= 0 && l.dim < w.numDims() ? w.dimNames[l.dim] : std::string("?")) + std::to_string(l.bound);
        if (l.isImperfect()) s += "," + std::to_string(l.residual);
    }
    return s + "]";
}

} // namespace

BFResult bruteForceEvaluate(const Workload& w, const Architecture& a, const Mapping& m, const BruteForceOptions& opt)
{
    Walker walker(w, a, m, opt);
    return walker.run();
}

std::string describeCase(const Workload& w, const Architecture& a, const Mapping& m)
{
    std::ostringstream o;
    o << "workload:";
    for (int d = 0; d < w.numDims(); ++d) o << " " << w.dimNames[d] << "=" << w.bounds[d];
    o << "\n";
    for (const auto& t : w.tensors) {
        o << "  " << t.name << (t.readWrite ? " (rw)" : "") << "[";
        for (std::size_t r = 0; r < t.ranks.size(); ++r) {
            if (r) o << ", ";
            for (std::size_t k = 0; k < t.ranks[r].size(); ++k) {
                const auto& term = t.ranks[r][k];
                if (k) o << "+";
                if (term.coef != 1) o << term.coef << "*";
                o << (term.dim >= 0 && term.dim < w.numDims() ? w.dimNames[term.dim] : std::string("?"));
            }
        }
        o << "]\n";
    }
    o << "architecture (outermost first):\n";
    for (const auto& l : a.levels) {
        o << "  " << l.name << ": instances " << l.instances << " meshX " << l.meshX << " size "
          << (l.size_words ? std::to_string(*l.size_words) : std::string("inf")) << " block " << l.block_size
          << " cluster " << l.cluster_size;
        if (l.read_bw_words_per_cycle) o << " read_bw " << *l.read_bw_words_per_cycle;
        if (l.write_bw_words_per_cycle) o << " write_bw " << *l.write_bw_words_per_cycle;
        if (l.shared_bw_words_per_cycle) o << " shared_bw " << *l.shared_bw_words_per_cycle;
        o << " E(r/f/u/leak) " << l.energy.read_pJ << "/" << l.energy.fill_pJ << "/" << l.energy.update_pJ << "/"
          << l.energy.leak_pJ << "\n";
    }
    o << "  " << a.compute.name << ": instances " << a.compute.instances << " meshX " << a.compute.meshX
      << " mac_energy " << a.compute.mac_energy_pJ << "\n";
    o << "mapping (levels outermost first, loops outermost first; spatial below temporal, Y outside X):\n";
    for (std::size_t i = 0; i < m.levels.size(); ++i) {
        const auto& lm = m.levels[i];
        o << "  " << (i < a.levels.size() ? a.levels[i].name : std::string("?")) << ": T" << loopsToString(w, lm.temporal);
        if (!lm.spatialY.empty()) o << " Y" << loopsToString(w, lm.spatialY);
        if (!lm.spatialX.empty()) o << " X" << loopsToString(w, lm.spatialX);
        o << " keep{";
        bool firstK = true;
        for (int t = 0; t < w.numTensors(); ++t)
            if (lm.keep.empty() || (t < static_cast<int>(lm.keep.size()) && lm.keep[t])) {
                o << (firstK ? "" : ",") << w.tensors[t].name;
                firstK = false;
            }
        o << "}\n";
    }
    return o.str();
}

} // namespace nestor::test
