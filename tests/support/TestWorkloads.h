#pragma once
// Small workloads shared by the engine tests.
#include "workload/Workload.h"

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

} // namespace nestor::test
