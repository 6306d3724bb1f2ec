#pragma once
// Seeded random small nests (workload, architecture, mapping): perfect and imperfect factors,
// 2-4 levels, spatial fanouts on X and Y, spatial-only levels, bypass. The population of
// tst_bruteforce_agreement (model vs brute force) and tst_step_trace (trace vs model).
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "workload/Workload.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace nestor::test::random_nests {

inline ProjectionTerm term(int dim, std::int64_t coef = 1) { return ProjectionTerm{dim, coef}; }

struct Case {
    Workload w;
    Architecture a;
    Mapping m;
};

class CaseGenerator {
public:
    explicit CaseGenerator(std::uint64_t seed) : rng_(seed) {}

    Case next()
    {
        for (;;) {
            Case c;
            c.w = workload();
            c.a = architecture();
            if (!mapping(c)) continue;
            if (!c.m.validate(c.w, c.a).empty()) continue;  // generator slip: skip (counted by the caller)
            return c;
        }
    }

private:
    int uni(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    bool coin(double p) { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < p; }
    template <class T>
    const T& pick(const std::vector<T>& v) { return v[static_cast<std::size_t>(uni(0, static_cast<int>(v.size()) - 1))]; }

    Workload workload()
    {
        static const std::vector<std::string> names = {"P", "R", "K", "C", "Q", "S"};
        Workload w;
        w.name = "random";
        const int nd = uni(2, 4);
        for (;;) {
            w.dimNames.assign(names.begin(), names.begin() + nd);
            w.bounds.clear();
            std::int64_t prod = 1;
            for (int d = 0; d < nd; ++d) {
                w.bounds.push_back(uni(1, nd <= 2 ? 9 : 6));
                prod *= w.bounds.back();
            }
            if (prod <= 1200 && prod >= 12) break;
        }
        const int nt = uni(1, 3);
        bool haveRw = false;
        const std::vector<std::string> roNames = {"Inputs", "Weights", "Extra"};
        int roUsed = 0;
        for (int t = 0; t < nt; ++t) {
            Tensor ten;
            if (!haveRw && coin(0.6)) {
                haveRw = true;
                ten.name = "Outputs";
                ten.readWrite = true;
                // single-dimension ranks, coefficient 1 (partial sums are dense)
                std::vector<int> dims(nd);
                for (int d = 0; d < nd; ++d) dims[d] = d;
                std::shuffle(dims.begin(), dims.end(), rng_);
                const int nr = uni(1, std::max(1, nd - 1));
                for (int r = 0; r < nr; ++r) ten.ranks.push_back({term(dims[r])});
            } else {
                ten.name = roNames[roUsed++];
                std::vector<int> dims(nd);
                for (int d = 0; d < nd; ++d) dims[d] = d;
                std::shuffle(dims.begin(), dims.end(), rng_);
                std::size_t used = 0;
                const int nr = uni(1, 2);
                for (int r = 0; r < nr && used < dims.size(); ++r) {
                    const int kind = uni(0, 5);
                    if (kind >= 2 && used + 2 <= dims.size()) {
                        const int p = dims[used++], q = dims[used++];
                        if (kind == 2 || kind == 3) ten.ranks.push_back({term(p), term(q)});  // sliding window
                        else if (kind == 4) ten.ranks.push_back({term(p, 2), term(q)});        // stride 2
                        else ten.ranks.push_back({term(p), term(q, 2)});                       // dilation 2
                    } else {
                        ten.ranks.push_back({term(dims[used++])});
                    }
                }
            }
            w.tensors.push_back(std::move(ten));
        }
        return w;
    }

    Architecture architecture()
    {
        Architecture a;
        a.name = "random";
        const int L = uni(2, 4);
        std::int64_t inst = 1, meshX = 1;
        fanX_.assign(L, 1);
        fanY_.assign(L, 1);
        dummy_.assign(L, false);
        const std::vector<int> blocks = {1, 1, 2, 4};
        const std::vector<double> energies = {0.25, 0.5, 1.0, 2.0, 3.5, 8.0};
        for (int i = 0; i < L; ++i) {
            StorageLevel l;
            l.name = i == 0 ? "DRAM" : "L" + std::to_string(i);
            l.instances = inst;
            l.meshX = meshX;
            if (i == 0) {
                l.size_words = std::nullopt;
                l.technology = "DRAM";
            } else if (coin(0.2)) {
                l.size_words = 0;  // spatial-only level, keeps nothing
                l.technology = "dummy";
                dummy_[i] = true;
            } else {
                l.size_words = 1 << 20;
            }
            l.block_size = pick(blocks);
            l.cluster_size = (inst % 2 == 0 && coin(0.2)) ? 2 : 1;
            l.energy.read_pJ = pick(energies);
            l.energy.fill_pJ = pick(energies);
            l.energy.update_pJ = pick(energies);
            l.energy.leak_pJ = coin(0.3) ? 0.01 : 0.0;
            if (i > 0 && !dummy_[i] && coin(0.15)) {
                const std::vector<double> bws = {0.5, 1.0, 2.0};
                l.read_bw_words_per_cycle = pick(bws);
                if (coin(0.5)) l.write_bw_words_per_cycle = pick(bws);
            }
            // fanout below this level
            if (coin(0.45) || dummy_[i]) {
                for (int tries = 0; tries < 10; ++tries) {
                    fanX_[i] = uni(1, 4);
                    fanY_[i] = coin(0.35) ? uni(2, 3) : 1;
                    if (fanX_[i] * fanY_[i] > 1 && inst * fanX_[i] * fanY_[i] <= 36) break;
                    fanX_[i] = fanY_[i] = 1;
                }
            }
            inst *= fanX_[i] * fanY_[i];
            meshX *= fanX_[i];
            a.levels.push_back(l);
        }
        a.compute.name = "MAC";
        a.compute.instances = inst;
        a.compute.meshX = meshX;
        a.compute.mac_energy_pJ = 0.5;
        return a;
    }

    struct Slot {
        int level;
        int kind;  // 0 temporal, 1 Y, 2 X
    };

    // Factors of `bound` over k loops (outer first): perfect or imperfect (residuals).
    std::vector<Loop> factors(int dim, std::int64_t bound, int k)
    {
        std::vector<Loop> loops(k);
        if (coin(0.5)) {  // perfect: successive random divisors, innermost first
            std::int64_t rest = bound;
            for (int q = k - 1; q >= 1; --q) {
                std::vector<std::int64_t> divs;
                for (std::int64_t d = 1; d <= rest; ++d)
                    if (rest % d == 0) divs.push_back(d);
                const std::int64_t f = pick(divs);
                loops[q] = makeLoop(dim, f);
                rest /= f;
            }
            loops[0] = makeLoop(dim, rest);
        } else {  // imperfect: random inner bounds, residuals = mixed-radix digits of bound-1
            std::int64_t rem = bound - 1;
            for (int q = k - 1; q >= 1; --q) {
                const std::int64_t b = uni(1, static_cast<int>(std::min<std::int64_t>(bound, 5)));
                loops[q] = makeLoop(dim, b, rem % b + 1);
                rem /= b;
            }
            const std::int64_t r0 = rem + 1;
            loops[0] = makeLoop(dim, coin(0.3) ? r0 + 1 : r0, r0);
        }
        for (auto& l : loops) l.dim = dim;
        return loops;
    }

    bool mapping(Case& c)
    {
        const Workload& w = c.w;
        const int L = c.a.numLevels();
        std::vector<Slot> slotList;
        for (int i = 0; i < L; ++i) {
            slotList.push_back({i, 0});
            if (fanY_[i] > 1) slotList.push_back({i, 1});
            if (fanX_[i] > 1) slotList.push_back({i, 2});
        }
        for (int attempt = 0; attempt < 20; ++attempt) {
            Mapping m;
            m.name = "random";
            m.levels.assign(L, {});
            for (int d = 0; d < w.numDims(); ++d) {
                const std::int64_t B = w.bounds[d];
                if (B == 1 && coin(0.7)) continue;
                const int k = uni(1, std::min<int>(3, static_cast<int>(slotList.size())));
                std::vector<int> chosen(slotList.size());
                for (std::size_t s = 0; s < slotList.size(); ++s) chosen[s] = static_cast<int>(s);
                std::shuffle(chosen.begin(), chosen.end(), rng_);
                chosen.resize(k);
                std::sort(chosen.begin(), chosen.end());
                const auto loops = factors(d, B, k);
                for (int q = 0; q < k; ++q) {
                    const Slot& s = slotList[chosen[q]];
                    auto& lm = m.levels[s.level];
                    auto& v = s.kind == 0 ? lm.temporal : s.kind == 1 ? lm.spatialY : lm.spatialX;
                    v.push_back(loops[q]);
                }
            }
            bool ok = true;
            for (int i = 0; i < L && ok; ++i) {
                auto& lm = m.levels[i];
                std::int64_t px = 1, py = 1;
                for (const auto& l : lm.spatialX) px *= l.bound;
                for (const auto& l : lm.spatialY) py *= l.bound;
                ok = px <= fanX_[i] && py <= fanY_[i];
                std::shuffle(lm.temporal.begin(), lm.temporal.end(), rng_);
                std::shuffle(lm.spatialX.begin(), lm.spatialX.end(), rng_);
                std::shuffle(lm.spatialY.begin(), lm.spatialY.end(), rng_);
            }
            if (!ok) continue;
            // keep / bypass
            for (int i = 0; i < L; ++i) m.levels[i].keep.assign(w.numTensors(), false);
            for (int t = 0; t < w.numTensors(); ++t) {
                bool any = false;
                for (int i = 0; i < L; ++i) {
                    if (dummy_[i]) continue;
                    const bool k = i == 0 ? coin(0.9) : coin(0.7);
                    m.levels[i].keep[t] = k;
                    any = any || k;
                }
                if (!any) m.levels[0].keep[t] = true;
            }
            c.m = std::move(m);
            return true;
        }
        return false;
    }

    std::mt19937_64 rng_;
    std::vector<std::int64_t> fanX_, fanY_;
    std::vector<bool> dummy_;
};

} // namespace nestor::test::random_nests
