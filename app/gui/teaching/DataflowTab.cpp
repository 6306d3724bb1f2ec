#include "DataflowTab.h"

#include "DataflowContext.h"
#include "DataflowExport.h"
#include "DataflowView.h"
#include "LoopNestProgress.h"
#include "MappingSession.h"
#include "NumberFormat.h"
#include "PlaybackControls.h"
#include "RunningTotals.h"
#include "jobs/BackgroundJob.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QProgressDialog>
#include <QSignalBlocker>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

namespace nestor::app {

using widgets::NumberFormat::count;

int DataflowTab::defaultLevel(const Architecture& a, const Mapping& m)
{
    // Tensors are not known here; a level keeps something when its keep list is empty or has a true.
    auto keeps = [&](int l) {
        if (l >= int(m.levels.size())) return false;
        const auto& k = m.levels[std::size_t(l)].keep;
        return k.empty() || std::find(k.begin(), k.end(), true) != k.end();
    };
    for (int l = 0; l < a.numLevels(); ++l)
        if (a.levels[std::size_t(l)].instances == a.compute.instances && a.levels[std::size_t(l)].instances > 1 && keeps(l)) return l;
    for (int l = 0; l < a.numLevels(); ++l)
        if (a.levels[std::size_t(l)].instances > 1 && keeps(l)) return l;
    return a.numLevels() - 1;
}

DataflowTab::DataflowTab(MappingSession* session, QWidget* parent)
    : QWidget(parent), session_(session), view_(new widgets::DataflowView), loopNest_(new LoopNestProgress),
      playback_(new PlaybackControls), levels_(new QComboBox), tensors_(new QComboBox), export_(new QToolButton),
      title_(new QLabel), error_(new QLabel), counts_(new QLabel), totalsJob_(new BackgroundJob(this)), nextJob_(new BackgroundJob(this))
{
    setObjectName(QStringLiteral("dataflowTab"));
    levels_->setObjectName(QStringLiteral("dataflowLevel"));
    tensors_->setObjectName(QStringLiteral("dataflowTensor"));
    levels_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    tensors_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    levels_->setToolTip(tr("The storage level whose instances are drawn (levels with several instances first)"));
    tensors_->setToolTip(tr("The tensor whose tiles and moves are drawn"));
    error_->setObjectName(QStringLiteral("dataflowError"));
    error_->setWordWrap(true);
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_->setStyleSheet(QStringLiteral("color: #b00020;"));
    error_->hide();
    counts_->setObjectName(QStringLiteral("dataflowCounts"));
    counts_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    counts_->setWordWrap(true);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    export_->setText(tr("Export"));
    export_->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(export_);
    menu->addAction(tr("Frame as PNG…"), this, [this] { exportWithDialog(0); });
    menu->addAction(tr("Frame as PDF…"), this, [this] { exportWithDialog(1); });
    menu->addAction(tr("Frame as SVG…"), this, [this] { exportWithDialog(3); });
    menu->addAction(tr("Steps as PNG sequence…"), this, [this] { exportWithDialog(2); });
    menu->addAction(tr("Steps as animated GIF…"), this, [this] { exportWithDialog(4); });
    export_->setMenu(menu);

    auto* top = new QHBoxLayout;
    top->addWidget(title_, 1);
    top->addWidget(new QLabel(tr("Level:")));
    top->addWidget(levels_);
    top->addWidget(new QLabel(tr("Tensor:")));
    top->addWidget(tensors_);
    top->addWidget(export_);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(view_);
    split->addWidget(loopNest_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    split->setSizes({1000, 190});

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(error_);
    layout->addWidget(split, 1);
    layout->addWidget(counts_);
    layout->addWidget(playback_);

    connect(levels_, &QComboBox::activated, this, [this](int i) { setLevel(levels_->itemData(i).toInt()); });
    connect(tensors_, &QComboBox::activated, this, [this](int i) { setTensor(i); });
    connect(playback_, &PlaybackControls::stepRequested, this, [this](std::int64_t s) { goToStep(s); });
    connect(playback_, &PlaybackControls::nextChangeRequested, this, &DataflowTab::nextTileChange);
    connect(totalsJob_, &BackgroundJob::finished, this, &DataflowTab::busyChanged);
    connect(totalsJob_, &BackgroundJob::progressed, this, [this](const JobProgress& p) {
        totalsProgress_ = p.fraction;
        updateCounts();
    });
    connect(totalsJob_, &BackgroundJob::failed, this, [this](const QString& m) { emit message(tr("Dataflow totals: %1").arg(m)); });
    connect(nextJob_, &BackgroundJob::finished, this, &DataflowTab::busyChanged);
    connect(nextJob_, &BackgroundJob::failed, this, [this](const QString& m) { emit message(tr("Next tile change: %1").arg(m)); });

    if (session_) {
        connect(session_, &MappingSession::selected, this,
                [this](const QString&, const QString& title, const Workload& w, const Architecture& a, const Mapping& m) {
                    showMapping(title, w, a, m);
                });
        connect(session_, &MappingSession::edited, this,
                [this](const Workload& w, const Architecture& a, const Mapping& m) { showMapping(mappingTitle_, w, a, m); });
        connect(session_, &MappingSession::cleared, this, &DataflowTab::clear);
    }
    clear();
}

QString DataflowTab::countsText() const
{
    return counts_->text();
}

std::int64_t DataflowTab::numSteps() const
{
    return trace_ ? trace_->numSteps() : 0;
}

bool DataflowTab::isBusy() const
{
    return totalsJob_->isRunning() || nextJob_->isRunning();
}

void DataflowTab::clear()
{
    playback_->pause();
    totalsJob_->discard();
    nextJob_->discard();
    workload_.reset();
    trace_.reset();
    frame_.reset();
    totals_.clear();
    totalsStep_ = -1;
    errorText_.clear();
    note_.clear();
    error_->hide();
    levels_->clear();
    tensors_->clear();
    view_->clearFrame();
    loopNest_->clearLoops();
    playback_->setNumSteps(0);
    title_->setText(tr("Select a mapping to step through its dataflow."));
    counts_->clear();
    export_->setEnabled(false);
}

void DataflowTab::showMapping(const QString& title, const Workload& w, const Architecture& a, const Mapping& m)
{
    const bool sameLevels = [&] {
        if (level_ < 0 || level_ >= a.numLevels() || level_ >= architecture_.numLevels()) return false;
        return a.levels[std::size_t(level_)].name == architecture_.levels[std::size_t(level_)].name;
    }();
    mappingTitle_ = title;
    workload_ = w;
    architecture_ = a;
    mapping_ = m;
    if (!sameLevels) level_ = defaultLevel(a, m);
    if (tensor_ >= w.numTensors() || !m.keeps(level_, tensor_)) {
        tensor_ = 0;
        for (int t = 0; t < w.numTensors(); ++t)
            if (m.keeps(level_, t)) {
                tensor_ = t;
                break;
            }
    }
    title_->setText(tr("<b>%1</b> · %2 on %3").arg(title.toHtmlEscaped(), QString::fromStdString(w.name).toHtmlEscaped(),
                                                  QString::fromStdString(a.name).toHtmlEscaped()));
    fillLevelChooser();
    fillTensorChooser();
    rebuild();
}

void DataflowTab::fillLevelChooser()
{
    const QSignalBlocker block(levels_);
    levels_->clear();
    std::vector<int> order;
    for (int pass = 0; pass < 2; ++pass)
        for (int l = 0; l < architecture_.numLevels(); ++l)
            if ((architecture_.levels[std::size_t(l)].instances > 1) == (pass == 0)) order.push_back(l);
    for (int l : order) {
        const StorageLevel& s = architecture_.levels[std::size_t(l)];
        const QString text = s.instances > 1 ? tr("%1 (%2 = %3 × %4)").arg(QString::fromStdString(s.name)).arg(s.instances).arg(s.meshX).arg(s.meshY())
                                             : QString::fromStdString(s.name);
        levels_->addItem(text, l);
    }
    levels_->setCurrentIndex(levels_->findData(level_));
}

void DataflowTab::fillTensorChooser()
{
    const QSignalBlocker block(tensors_);
    tensors_->clear();
    if (!workload_) return;
    for (int t = 0; t < workload_->numTensors(); ++t) {
        const QString name = QString::fromStdString(workload_->tensors[std::size_t(t)].name);
        tensors_->addItem(mapping_.keeps(level_, t) ? name : tr("%1 (not kept here)").arg(name));
    }
    tensors_->setCurrentIndex(tensor_);
}

void DataflowTab::setLevel(int level)
{
    if (!workload_ || level < 0 || level >= architecture_.numLevels()) return;
    level_ = level;
    if (!mapping_.keeps(level_, tensor_))
        for (int t = 0; t < workload_->numTensors(); ++t)
            if (mapping_.keeps(level_, t)) {
                tensor_ = t;
                break;
            }
    fillLevelChooser();
    fillTensorChooser();
    rebuild();
}

void DataflowTab::setTensor(int tensor)
{
    if (!workload_ || tensor < 0 || tensor >= workload_->numTensors()) return;
    tensor_ = tensor;
    {
        const QSignalBlocker block(tensors_);
        tensors_->setCurrentIndex(tensor);
    }
    note_.clear();
    view_->setTensor(tensor);
    updateCounts();   // the totals cover every tensor already
}

void DataflowTab::showError(const QString& text)
{
    errorText_ = text;
    error_->setText(tr("This mapping cannot be stepped through: %1").arg(text));
    error_->show();
    trace_.reset();
    frame_.reset();
    view_->clearFrame();
    loopNest_->clearLoops();
    playback_->setNumSteps(0);
    counts_->clear();
    export_->setEnabled(false);
}

void DataflowTab::rebuild()
{
    playback_->pause();
    totalsJob_->discard();
    nextJob_->discard();
    totals_.clear();
    totalsStep_ = -1;
    note_.clear();
    trace_.reset();
    frame_.reset();
    if (!workload_) return;
    try {
        trace_.emplace(*workload_, architecture_, mapping_, level_);
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
        return;
    }
    errorText_.clear();
    error_->hide();
    export_->setEnabled(true);
    view_->setContext(widgets::makeDataflowContext(*workload_, architecture_, mapping_, level_));
    view_->setTensor(tensor_);
    loopNest_->setLoops(trace_->loops(), *workload_, architecture_);
    const std::int64_t n = trace_->numSteps();
    playback_->setNumSteps(n);
    goToStep(std::clamp<std::int64_t>(step_, 0, std::max<std::int64_t>(0, n - 1)));
}

void DataflowTab::goToStep(std::int64_t step)
{
    if (!trace_ || trace_->numSteps() <= 0) return;
    step = std::clamp<std::int64_t>(step, 0, trace_->numSteps() - 1);
    try {
        trace::StepFrame f = trace_->frame(step);
        std::optional<trace::StepFrame> previous;
        if (step > 0) previous = trace_->frame(step - 1);
        view_->setFrame(f, previous);
        loopNest_->setIndices(step, f.loopIndex);
        frame_ = std::move(f);
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
        return;
    }
    step_ = step;
    playback_->setStep(step);
    updateCounts();
    requestTotals();
}

void DataflowTab::updateCounts()
{
    if (!frame_ || !workload_ || tensor_ >= workload_->numTensors()) {
        counts_->clear();
        return;
    }
    trace::TensorCounts now;
    for (const trace::Move& m : frame_->moves) {
        if (m.tensor != tensor_) continue;
        switch (m.kind) {
        case trace::MoveKind::Fill: now.fills += m.words; break;
        case trace::MoveKind::Read: now.reads += m.words; break;
        case trace::MoveKind::Update: now.updates += m.words; break;
        case trace::MoveKind::Link: now.linkTransfers += m.words; break;
        }
    }
    auto line = [](const trace::TensorCounts& c) {
        return tr("fills %1 · reads %2 · updates %3 · links %4").arg(count(c.fills), count(c.reads), count(c.updates), count(c.linkTransfers));
    };
    const QString tensor = QString::fromStdString(workload_->tensors[std::size_t(tensor_)].name);
    const QString level = QString::fromStdString(architecture_.levels[std::size_t(level_)].name);
    QString text = tr("%1 at %2 — this step: %3").arg(tensor, level, line(now));
    if (totalsStep_ == step_ && tensor_ < int(totals_.size()))
        text += tr("   |   steps 0–%1: %2").arg(count(step_), line(totals_[std::size_t(tensor_)]));
    else
        text += totalsProgress_ >= 0 ? tr("   |   steps 0–%1: summing… %2").arg(count(step_), widgets::NumberFormat::percent(totalsProgress_))
                                     : tr("   |   steps 0–%1: summing…").arg(count(step_));
    if (!note_.isEmpty()) text += QStringLiteral("   |   ") + note_;
    counts_->setText(text);
}

void DataflowTab::requestTotals()
{
    // Latest wins: a new step cancels the sum still running (it stops within one chunk) and
    // starts from the last finished sum, so playing forward counts only the new steps.
    if (!trace_) return;
    if (totalsStep_ == step_) {   // back where the last sum ended: what still runs is stale
        totalsJob_->discard();
        emit busyChanged();
        return;
    }
    const trace::StepTrace t = *trace_;
    const std::int64_t s = step_;
    const KnownTotals known{totalsStep_, totals_};
    totalsProgress_ = -1;
    totalsJob_->start<std::optional<std::vector<trace::TensorCounts>>>(
        [t, s, known](RunningJob& job) { return totalsThrough(t, s, known, job); },
        [this, s](std::optional<std::vector<trace::TensorCounts>> counts) {
            if (!counts) return;
            totals_ = std::move(*counts);
            totalsStep_ = s;
            updateCounts();
        });
    emit busyChanged();
}

void DataflowTab::nextTileChange()
{
    if (!trace_) return;
    const trace::StepTrace t = *trace_;
    const std::int64_t s = step_;
    const int tensor = tensor_;
    nextJob_->start<std::int64_t>([t, s, tensor](RunningJob&) { return t.nextTileChange(s, tensor); },
                                  [this, tensor](std::int64_t next) {
                                      if (tensor != tensor_) return;
                                      if (next < 0) {
                                          note_ = tr("the tile does not change again");
                                          updateCounts();
                                          return;
                                      }
                                      note_.clear();
                                      goToStep(next);
                                  });
    emit busyChanged();
}

bool DataflowTab::exportFramePng(const QString& path)
{
    return frame_ && DataflowExport::png(view_, path);
}

bool DataflowTab::exportFramePdf(const QString& path)
{
    return frame_ && DataflowExport::pdf(view_, path, tr("%1, step %2").arg(mappingTitle_, count(step_)));
}

int DataflowTab::exportPngSequence(const QString& directory, std::int64_t begin, std::int64_t end, QString* error)
{
    if (!trace_) {
        if (error) *error = errorText_.isEmpty() ? tr("No mapping is shown.") : errorText_;
        return -1;
    }
    return DataflowExport::pngSequence(view_, *trace_, begin, end, directory, error);
}

bool DataflowTab::exportFrameSvg(const QString& path, QString* error)
{
    if (!frame_) {
        if (error) *error = errorText_.isEmpty() ? tr("No mapping is shown.") : errorText_;
        return false;
    }
    return DataflowExport::svg(view_, path, tr("%1, step %2").arg(mappingTitle_, count(step_)), error);
}

int DataflowTab::exportGif(const QString& path, std::int64_t begin, std::int64_t end, QString* error,
                           const std::function<bool(int, int)>& progress)
{
    if (!trace_) {
        if (error) *error = errorText_.isEmpty() ? tr("No mapping is shown.") : errorText_;
        return -1;
    }
    playback_->pause();
    return DataflowExport::gif(view_, *trace_, begin, end, DataflowExport::gifDelayForSpeed(playback_->stepsPerSecond()), path,
                               error, progress);
}

void DataflowTab::exportGifWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export steps as animated GIF"), QString(), tr("Animated GIF (*.gif)"));
    if (path.isEmpty()) return;
    bool ok = false;
    const int frames = QInputDialog::getInt(this, tr("Export steps"),
                                            tr("Frames from step %1 (one step each, at %2 steps/s):").arg(count(step_)).arg(playback_->stepsPerSecond()),
                                            100, 1, DataflowExport::kMaxSequenceFrames, 1, &ok);
    if (!ok) return;
    QProgressDialog progress(tr("Writing the GIF…"), tr("Cancel"), 0, frames, this);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(500);
    QString error;
    const int n = exportGif(path, step_, step_ + frames, &error, [&progress](int done, int total) {
        progress.setMaximum(total);
        progress.setValue(done);
        return !progress.wasCanceled();
    });
    emit message(n < 0 ? tr("Export failed: %1").arg(error) : tr("Wrote %1 frames to %2").arg(n).arg(path));
}

void DataflowTab::exportWithDialog(int kind)
{
    if (kind == 4) {
        exportGifWithDialog();
        return;
    }
    if (kind == 3) {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export frame as SVG"), QString(), tr("SVG image (*.svg)"));
        if (path.isEmpty()) return;
        QString error;
        emit message(exportFrameSvg(path, &error) ? tr("Exported %1").arg(path) : tr("Export failed: %1").arg(error));
        return;
    }
    if (kind == 2) {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export steps as PNG sequence"));
        if (dir.isEmpty()) return;
        bool ok = false;
        const int frames = QInputDialog::getInt(this, tr("Export steps"), tr("Frames from step %1:").arg(count(step_)), 100, 1,
                                                DataflowExport::kMaxSequenceFrames, 1, &ok);
        if (!ok) return;
        QString error;
        const int n = exportPngSequence(dir, step_, step_ + frames, &error);
        emit message(n < 0 ? tr("Export failed: %1").arg(error) : tr("Wrote %1 frames to %2").arg(n).arg(dir));
        return;
    }
    const bool pdf = kind == 1;
    const QString path = QFileDialog::getSaveFileName(this, pdf ? tr("Export frame as PDF") : tr("Export frame as PNG"), QString(),
                                                      pdf ? tr("PDF (*.pdf)") : tr("PNG image (*.png)"));
    if (path.isEmpty()) return;
    const bool ok = pdf ? exportFramePdf(path) : exportFramePng(path);
    emit message(ok ? tr("Exported %1").arg(path) : tr("Cannot write %1").arg(path));
}

} // namespace nestor::app
