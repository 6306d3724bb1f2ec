#pragma once
// `nestor-cli import-onnx MODEL.onnx --arch PROJECT.yaml [--batch N] [--name NET] [-o OUT.yaml]`:
// the layers of an ONNX model added as workloads and a network to a copy of an existing project
// (its architecture, energy model and constraints), written to OUT.yaml (atomically) or to
// stdout; a summary and the warnings go to stderr. Parses its own options (args exclude "import-onnx").
#include <ostream>
#include <string>
#include <vector>

namespace nestor::cli {

std::string importOnnxUsage();
int runImportOnnxCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace nestor::cli
