#pragma once
// The layers and network of an ONNX model (engine/io/OnnxImport.h) added to the open project
// as one undo step.
#include "io/OnnxImport.h"

#include <QString>

namespace nestor::app {

class ProjectDocument;

namespace commands {
// Adds the imported workloads and network (names made unique, engine rules) as one undo step.
// Returns the reason when refused (e.g. the network name is taken), else an empty string.
QString addImportedNetwork(ProjectDocument& doc, const OnnxImportResult& imported);
} // namespace commands

} // namespace nestor::app
