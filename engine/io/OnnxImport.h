#pragma once
// ONNX model -> Nestor layers and a network (docs/onnx-import.md). Shapes are inferred over the
// graph from its inputs; every Conv, Gemm and MatMul becomes a layer with exact dimensions, and
// identical layers share one workload with a repeat count in the network.
#include "core/Project.h"
#include "io/OnnxProtobuf.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nestor {

struct OnnxImportOptions {
    std::int64_t batch = 1;        // value of symbolic (dim_param) dimensions of the graph inputs
    std::string networkName;       // empty: the graph name, else the file's stem
};

struct OnnxImportResult {
    std::vector<ProjectWorkload> workloads;  // distinct layers, in network order
    ProjectNetwork network;
    std::vector<std::string> warnings;
    std::int64_t layerCount = 0;             // MAC layers before merging (repeats included)
    std::int64_t totalMacs = 0;
    std::string summary() const;             // "imported network N: 53 layers (24 distinct), 4.09e+09 MACs"
};

// Throws NestorError naming the file, the node (name, op_type, index) or the byte offset.
OnnxImportResult importOnnx(const std::string& path, const OnnxImportOptions& options);
OnnxImportResult importOnnxModel(const OnnxModel& model, const OnnxImportOptions& options);

// Adds the workloads and the network to `project`. Workload names already in the project get a
// numeric suffix (the network refers to the new names); a network name already present is an error.
void addOnnxImportToProject(Project& project, const OnnxImportResult& imported);

} // namespace nestor
