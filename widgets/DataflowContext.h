#pragma once
// What the Dataflow view needs to know besides one StepFrame: the traced level, where its fills
// come from, the mesh its instances sit on, and each tensor's full shape (rank names and
// extents) so that a tile can be drawn over it. Built from the workload, architecture and
// mapping once per trace; cheap.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "workload/Workload.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace nestor::widgets {

struct DataflowTensorShape {
    QString name;
    std::vector<QString> rankNames;       // "C", "P+R" (dims of the rank's terms, with strides)
    std::vector<std::int64_t> extents;    // full extent of every rank
    bool keptAtLevel = false;             // the traced level keeps this tensor
    QString source;                       // the nearest level above that keeps it (fills come from there)
};

struct DataflowContext {
    QString levelName;                    // the traced level
    QString parentName;                   // the level directly above ("" = none)
    int meshX = 1, meshY = 1;             // instances of the traced level = meshX * meshY
    // The children (instances of the level below, or MACs) per instance, as a fanX x fanY block:
    // child c sits at (c % (meshX * fanX), c / (meshX * fanX)) of the children's mesh. Link moves
    // name children.
    int fanX = 1, fanY = 1;
    std::vector<DataflowTensorShape> tensors;
};

// Throws nothing: an out-of-range level gives an empty context with a 1 x 1 mesh.
DataflowContext makeDataflowContext(const Workload& w, const Architecture& a, const Mapping& m, int level);

} // namespace nestor::widgets
