// The problem shapes a Timeloop installation ships (its problem-shapes/ folder), which a problem
// names instead of describing (`shape: cnn-layer`), or omits (Timeloop then assumes cnn-layer).
// Written out here from their definitions, so an import never depends on an installation.
#include "io/TimeloopImportParts.h"

#include <array>
#include <utility>

namespace nestor::timeloopimport {

namespace {

// A convolution layer: output P x Q x K per batch item N, filter R x S over C channels; an input
// coordinate is R * dilation + P * stride along each axis.
constexpr const char* kCnnLayer = R"(name: CNN-Layer
dimensions: [R, S, P, Q, C, K, N]
coefficients:
  - {name: Wstride, default: 1}
  - {name: Hstride, default: 1}
  - {name: Wdilation, default: 1}
  - {name: Hdilation, default: 1}
data_spaces:
  - name: Weights
    projection: [[[C]], [[K]], [[R]], [[S]]]
  - name: Inputs
    projection: [[[N]], [[C]], [[R, Wdilation], [P, Wstride]], [[S, Hdilation], [Q, Hstride]]]
  - name: Outputs
    projection: [[[N]], [[K]], [[Q]], [[P]]]
    read_write: true
)";

// Z[M][N] += A[M][K] * B[N][K].
constexpr const char* kGemmAbz = R"(name: gemm-ABZ
dimensions: [M, N, K]
data_spaces:
  - name: A
    projection: [[[M]], [[K]]]
  - name: B
    projection: [[[N]], [[K]]]
  - name: Z
    projection: [[[M]], [[N]]]
    read_write: true
)";

// Timeloop finds NAME.yaml or NAME.cfg (or NAME itself, with its extension); these are the files
// of its problem-shapes folder.
constexpr std::array<std::pair<const char*, const char*>, 4> kBundled{{
    {"cnn-layer", kCnnLayer},
    {"cnn_layer", kCnnLayer},
    {"gemm-ABZ", kGemmAbz},
    {"gemm_ABZ", kGemmAbz},
}};

std::string withoutExtension(const std::string& name)
{
    for (const char* ext : {".yaml", ".yml", ".cfg"}) {
        const std::string e(ext);
        if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0)
            return name.substr(0, name.size() - e.size());
    }
    return name;
}

} // namespace

std::optional<std::string> bundledTimeloopShape(const std::string& name)
{
    const std::string bare = withoutExtension(name);
    for (const auto& [known, text] : kBundled)
        if (bare == known) return std::string(text);
    return std::nullopt;
}

std::string bundledTimeloopShapeNames()
{
    std::string names;
    for (const auto& entry : kBundled) names += (names.empty() ? "" : ", ") + std::string(entry.first);
    return names;
}

} // namespace nestor::timeloopimport
