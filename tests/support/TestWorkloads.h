#pragma once
// Small workloads shared by the engine tests.
#include "workload/Workload.h"

#include <random>

namespace nestor::test {

// The 1-D convolution of semantics.md section 9: Weights[R], Inputs[s*P + d*R], Outputs[P].
inline Workload conv1d(std::int64_t P, std::int64_t R, std::int64_t stride = 1, std::int64_t dilation = 1)
{
    Workload w;
    w.name = "conv1d";
    w.dimNames = {"P", "R"};
    w.bounds = {P, R};
    w.tensors = {Tensor{"Weights", false, {{{1, 1}}}}, Tensor{"Inputs", false, {{{0, stride}, {1, dilation}}}},
                 Tensor{"Outputs", true, {{{0, 1}}}}};
    return w;
}

// The search benchmark's layers (bench/bench_search, docs/search.md): AlexNet conv2 (one group)
// and VGG-16 conv3_1, batch 1.
inline Workload alexnetConv2()
{
    ConvParams cp;
    cp.M = 96; cp.C = 48; cp.P = 27; cp.Q = 27; cp.R = 5; cp.S = 5;
    return makeConv2d(cp);
}

inline Workload vggConv3_1()
{
    ConvParams cp;
    cp.M = 256; cp.C = 128; cp.P = 56; cp.Q = 56; cp.R = 3; cp.S = 3;
    return makeConv2d(cp);
}

// A random small convolution (M 2-8, C 1-5, P 3-8, Q 2-6, R 1-3; S 1, or 1 to maxFilterWidth),
// drawn in that order (tests' asserted counts depend on the draws).
inline Workload randomSmallConv(std::mt19937_64& rng, std::int64_t maxFilterWidth = 1)
{
    ConvParams cp;
    cp.M = 2 + std::int64_t(rng() % 7);
    cp.C = 1 + std::int64_t(rng() % 5);
    cp.P = 3 + std::int64_t(rng() % 6);
    cp.Q = 2 + std::int64_t(rng() % 5);
    cp.R = 1 + std::int64_t(rng() % 3);
    cp.S = maxFilterWidth == 1 ? 1 : 1 + std::int64_t(rng() % static_cast<std::uint64_t>(maxFilterWidth));
    return makeConv2d(cp);
}

} // namespace nestor::test
