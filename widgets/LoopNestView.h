#pragma once
// A tree view of the mapping's loop nest (see LoopNestModel), kept fully expanded.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "model/Evaluation.h"
#include "workload/Workload.h"

#include <QTreeView>

namespace nestor::widgets {

class LoopNestModel;

class LoopNestView : public QTreeView {
    Q_OBJECT
public:
    explicit LoopNestView(QWidget* parent = nullptr);

    void setMapping(const Workload& w, const Architecture& a, const Mapping& m);
    void setEvaluation(const Evaluation& e);
    void clear();

    LoopNestModel* loopNestModel() const { return model_; }

private:
    void refreshLayout();

    LoopNestModel* model_;
};

} // namespace nestor::widgets
