#pragma once
// The frame the Dataflow export tests draw: examples/eyeriss-like.yaml's row-stationary mapping
// (VGG-16 conv3_1) traced at ifmap_spad (14 x 12 instances, Inputs only), shown in a
// DataflowView with the Inputs tensor selected. Widget tests only (needs NESTOR_EXAMPLES_DIR).
#include "DataflowContext.h"
#include "DataflowView.h"
#include "io/ProjectYaml.h"
#include "trace/StepTrace.h"

#include <QSize>

#include <memory>

namespace nestor::test {

struct RowStationaryDataflow {
    Project project = readProject(NESTOR_EXAMPLES_DIR "/eyeriss-like.yaml");
    const ProjectMapping* mapping = project.findMapping("row-stationary");
    const Workload* workload = mapping ? &project.findWorkload(mapping->workload)->workload : nullptr;
    int level = project.architecture.levelIndex("ifmap_spad");
    std::unique_ptr<trace::StepTrace> trace =
        workload && level >= 0 ? std::make_unique<trace::StepTrace>(*workload, project.architecture, mapping->mapping, level) : nullptr;

    // False when the example no longer has the mapping or the level.
    bool ok() const { return trace != nullptr; }

    // The view at `size` on the Inputs tensor (context only: the caller sets the frame).
    void showIn(widgets::DataflowView& view, QSize size) const
    {
        view.resize(size);
        view.setContext(widgets::makeDataflowContext(*workload, project.architecture, mapping->mapping, level));
        view.setTensor(1);
    }
};

} // namespace nestor::test
