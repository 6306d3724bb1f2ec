#pragma once
// The registry of closed-form stage analyses. analyzeStage() builds the stage's frame once and
// tries the forms in order; the first that accepts and completes takes the stage, else the
// memoized walker (StageWalker.h) does. tst_stage_closed_forms checks every registered form
// against the walker on random nests, so a new form is one entry here plus its two functions.
#include "model/StageDecline.h"
#include "model/StageFrame.h"

#include <span>

namespace nestor::model {

struct ClosedStageForm {
    const char* name;
    // A cheap structural test on the frame: None when analyze() will take the stage (unless one
    // of its fixed tables turns out too small, or a condition only its analysis finds holds).
    StageDecline (*accepts)(const StageFrame& frame);
    // Writes the stage's result into `out` and returns None; or returns why it declines after
    // all (then `out` holds no figures).
    StageDecline (*analyze)(const StageFrame& frame, StageResult& out);
};

// In the order analyzeStage tries them.
std::span<const ClosedStageForm> closedStageForms();

} // namespace nestor::model
