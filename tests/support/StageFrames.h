#pragma once
// The stages of one mapping as the model forms them, for the tests that check the closed forms
// stage by stage.
#include "model/NestLayout.h"
#include "model/StageAnalysis.h"
#include "model/StageFrame.h"

#include <QtTest>

#include <vector>

namespace nestor::test {

// visit(spec, frame) for every stage of mapping m, tensor by tensor and level by level (spec
// carries both, and the nest). False at the first stage whose frame does not build; stops early,
// true, once the running test has failed (a failed check inside visit returns from visit only).
template <class Visit>
bool forEachStage(const Workload& w, const Architecture& a, const Mapping& m, const ModelOptions& options, Visit&& visit)
{
    const model::NestLayout nest = model::buildNestLayout(w, m);
    for (int t = 0; t < w.numTensors(); ++t) {
        const std::vector<model::Vec> steps = model::projectSteps(w, nest, t);
        for (int level = 0; level < a.numLevels(); ++level) {
            const model::StageSpec spec = model::stageSpecFor(w, m, nest, steps, options, level, t);
            model::StageFrame frame;
            if (!model::buildStageFrame(spec, frame)) return false;
            visit(spec, frame);
            if (QTest::currentTestFailed()) return true;
        }
    }
    return true;
}

} // namespace nestor::test
