#include "SimulatorView.h"

#include "LogAxisTicker.h"
#include "NumberFormat.h"
#include "ParetoChart.h"
#include "UtilizationTimeline.h"
#include "VtaTraceLanes.h"
#include "jobs/BackgroundJob.h"
#include "sim/vta/Program.h"
#include "sim/vta/TimingModel.h"
#include "sim/vta/VectorCheck.h"
#include "sim/vta/VectorFile.h"
#include "sim/vta/lowering/ResNet18.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QHeaderView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <exception>

namespace nestor::app {

namespace {

QSpinBox* cycles(int lo, int hi, int value, const QString& tip)
{
    auto* s = new QSpinBox;
    s->setRange(lo, hi);
    s->setValue(value);
    s->setToolTip(tip);
    return s;
}

} // namespace

SimulationOutcome SimulatorView::simulate(const QString& path, const vta::TimingConfig& timing, vta::Fidelity fidelity)
{
    SimulationOutcome o;
    o.file = path;
    try {
        const vta::ProgramVector vec = vta::loadVector(path.toStdString(), nullptr);
        vta::RunOptions run;
        run.fidelity = fidelity;
        const vta::VectorCheckResult check = vta::checkVector(vec, run);
        o.passed = check.passed();
        o.report = QString::fromStdString(vta::formatReport(vec, check));
        o.insns = vec.insns;
        if (check.run.ok()) {
            Diagnostics problems;
            const vta::Program program = vta::buildProgram(vec.insns, vta::IsaLayout(vec.config), problems);
            vta::TimingResult t = vta::simulateTiming(program, vec.config, timing);
            if (t.error) o.timingError = QString::fromStdString(*t.error);
            else o.cycles = t.cycles;
            o.trace = std::move(t.trace);
        }
    } catch (const std::exception& e) {
        o.error = QString::fromStdString(e.what());
    }
    return o;
}

SimulatorView::SimulatorView(QWidget* parent)
    : QWidget(parent), job_(new BackgroundJob(this)), path_(new QLineEdit), open_(new QPushButton(tr("Open vector…"))),
      run_(new QPushButton(tr("Run"))), runNetwork_(new QPushButton(tr("Run ResNet-18"))), imageSize_(new QSpinBox),
      cancel_(new QPushButton(tr("Cancel"))), sweepButton_(new QPushButton(tr("Sweep configurations"))),
      gemmII_(cycles(1, 64, 1, tr("Cycles per GEMM uop: 1 = the pipelined core, 4 = the original VTA core"))),
      aluImmII_(cycles(1, 64, 1, tr("Cycles per ALU uop with an immediate"))),
      aluVectorII_(cycles(1, 64, 2, tr("Cycles per vector-vector ALU uop (one read port: src and dst reads alternate)"))),
      busBits_(new QComboBox), readLatency_(cycles(0, 100000, 20, tr("Cycles to the first beat of a read when the memory was idle"))),
      fidelity_(new QComboBox), summary_(new QLabel), report_(new QPlainTextEdit), layers_(new QTableWidget),
      roofline_(new QCustomPlot), pareto_(new widgets::ParetoChart), details_(new QTabWidget), timeline_(new widgets::UtilizationTimeline)
{
    runNetwork_->setObjectName(QStringLiteral("runResNet18"));
    imageSize_->setRange(32, 224);
    imageSize_->setSingleStep(32);
    imageSize_->setValue(224);
    imageSize_->setSuffix(tr(" px"));
    imageSize_->setToolTip(tr("Input image size: 224 is the paper's ResNet-18; smaller sizes (multiples of 32) run faster"));
    cancel_->setEnabled(false);
    layers_->setColumnCount(9);
    layers_->setHorizontalHeaderLabels({tr("Layer"), tr("Kind"), tr("Cycles"), tr("MACs / ops"), tr("DRAM bytes"),
                                        tr("Ops/cycle"), tr("Ops/byte"), tr("Load busy"), tr("Compute busy")});
    layers_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layers_->verticalHeader()->setVisible(false);
    layers_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    for (QCPAxis* axis : {roofline_->xAxis, roofline_->yAxis}) {
        widgets::useLogScale(axis);
        axis->setNumberFormat(QStringLiteral("gb"));
        axis->setNumberPrecision(0);
    }
    roofline_->xAxis->setLabel(tr("ops per DRAM byte"));
    roofline_->yAxis->setLabel(tr("ops per cycle"));
    roofline_->setMinimumHeight(160);
    path_->setReadOnly(true);
    path_->setPlaceholderText(tr("a VTA program vector (.json, tests/data/vta/FORMAT.md)"));
    run_->setObjectName(QStringLiteral("runSimulation"));
    for (int bits : {64, 128, 256, 512}) busBits_->addItem(tr("%1 bit").arg(bits), bits);
    busBits_->setToolTip(tr("Width of the memory bus (AXI data width)"));
    fidelity_->addItem(tr("fsim (reference)"), int(vta::Fidelity::Fsim));
    fidelity_->addItem(tr("hardware (Chisel)"), int(vta::Fidelity::Hardware));
    fidelity_->setToolTip(tr("Where fsim and the hardware differ: STORE from ACC or the OUT buffer; ALU immediates on acc[dst] or acc[src]"));
    setTimingConfig(vta::TimingConfig{});

    auto* file = new QHBoxLayout;
    file->addWidget(new QLabel(tr("Program:")));
    file->addWidget(path_, 1);
    file->addWidget(open_);
    file->addWidget(run_);
    file->addSpacing(16);
    file->addWidget(runNetwork_);
    file->addWidget(imageSize_);
    file->addWidget(sweepButton_);
    file->addWidget(cancel_);
    auto* knobs = new QHBoxLayout;
    auto addKnob = [&](const QString& label, QWidget* w) {
        knobs->addWidget(new QLabel(label));
        knobs->addWidget(w);
        knobs->addSpacing(10);
    };
    addKnob(tr("GEMM II"), gemmII_);
    addKnob(tr("ALU imm II"), aluImmII_);
    addKnob(tr("ALU vector II"), aluVectorII_);
    addKnob(tr("Bus"), busBits_);
    addKnob(tr("Read latency"), readLatency_);
    addKnob(tr("Semantics"), fidelity_);
    knobs->addStretch(1);

    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setText(tr("Open a program vector and press Run. The timeline shows when load, compute and store are busy "
                         "or stalled; wheel to zoom, drag to pan, double-click for the whole run."));
    report_->setReadOnly(true);
    report_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    report_->setLineWrapMode(QPlainTextEdit::NoWrap);
    timeline_->setLegend(vtaTraceLegend());

    details_->addTab(report_, tr("Report"));
    details_->addTab(layers_, tr("Layers"));
    details_->addTab(roofline_, tr("Roofline"));
    details_->addTab(pareto_, tr("Area vs cycles"));
    pareto_->setAxisLabels(tr("Area (mm²)"), tr("Cycles"));
    sweepButton_->setToolTip(tr("GEMM shape, bus width, scratchpad sizes and GEMM II over ResNet-18 at the chosen image size "
                                "(timing only); click a point to see its timeline"));
    details_->setDocumentMode(true);
    split_ = new QSplitter(Qt::Vertical);
    split_->addWidget(timeline_);
    split_->addWidget(details_);
    split_->setStretchFactor(0, 3);
    split_->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(file);
    layout->addLayout(knobs);
    layout->addWidget(summary_);
    layout->addWidget(split_, 1);

    connect(open_, &QPushButton::clicked, this, &SimulatorView::openWithDialog);
    connect(run_, &QPushButton::clicked, this, [this] {
        if (!path_->text().isEmpty()) runVector(path_->text());
    });
    connect(runNetwork_, &QPushButton::clicked, this, [this] { runResNet18(imageSize_->value(), false); });
    connect(cancel_, &QPushButton::clicked, this, &SimulatorView::cancel);
    connect(sweepButton_, &QPushButton::clicked, this, [this] { runSweep(imageSize_->value()); });
    connect(pareto_, &widgets::ParetoChart::pointClicked, this, [this](int, int index) { openSweepPoint(index); });
    connect(job_, &BackgroundJob::failed, this, [this](const QString& message) {
        summary_->setText(tr("The simulation failed: %1").arg(message));
    });
    connect(job_, &BackgroundJob::progressed, this, [this](const JobProgress& p) {
        if (!p.message.empty()) summary_->setText(tr("Simulating: %1").arg(QString::fromStdString(p.message)));
    });
    connect(job_, &BackgroundJob::finished, this, [this] {
        setRunning(false);
        emit finished();
    });
}

SimulatorView::~SimulatorView() = default;

void SimulatorView::setJobsDock(JobsDock* dock)
{
    job_->showIn(dock, tr("VTA simulation"));
}

vta::TimingConfig SimulatorView::timingConfig() const
{
    vta::TimingConfig c;
    c.gemmII = gemmII_->value();
    c.aluImmII = aluImmII_->value();
    c.aluVectorII = aluVectorII_->value();
    c.busBytes = busBits_->currentData().toInt() / 8;
    c.readLatency = readLatency_->value();
    return c;
}

void SimulatorView::setTimingConfig(const vta::TimingConfig& c)
{
    gemmII_->setValue(c.gemmII);
    aluImmII_->setValue(c.aluImmII);
    aluVectorII_->setValue(c.aluVectorII);
    const int i = busBits_->findData(c.busBytes * 8);
    if (i >= 0) busBits_->setCurrentIndex(i);
    readLatency_->setValue(c.readLatency);
}

vta::Fidelity SimulatorView::fidelity() const
{
    return vta::Fidelity(fidelity_->currentData().toInt());
}

bool SimulatorView::isRunning() const
{
    return job_->isRunning();
}

void SimulatorView::openWithDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("VTA program vector"), QFileInfo(path_->text()).absolutePath(),
                                                      tr("Program vectors (*.json)"));
    if (path.isEmpty()) return;
    path_->setText(path);
    runVector(path);
}

void SimulatorView::setRunning(bool running)
{
    run_->setEnabled(!running);
    runNetwork_->setEnabled(!running);
    sweepButton_->setEnabled(!running);
    cancel_->setEnabled(running);
}

bool SimulatorView::runSweep(int imageSize)
{
    if (job_->isRunning()) return false;
    setRunning(true);
    sweepImageSize_ = imageSize;
    summary_->setText(tr("Sweeping VTA configurations on ResNet-18 (%1 px)…").arg(imageSize));
    job_->setTitle(tr("VTA configuration sweep (ResNet-18, %1 px)").arg(imageSize));
    job_->start<std::vector<vta::SweepPoint>>(
        [imageSize, timing = timingConfig()](RunningJob& job) {
            return vta::runSweep(vta::resnet18Layers(imageSize), vta::SweepSpace{}, timing, &job);
        },
        [this](std::vector<vta::SweepPoint> points) {
            sweep_ = std::move(points);
            showSweep();
        });
    return true;
}

void SimulatorView::giveRoomTo(QWidget* pane)
{
    const int total = split_->height();
    split_->setSizes(pane == timeline_ ? QList<int>{total * 3 / 4, total / 4} : QList<int>{total / 4, total * 3 / 4});
}

void SimulatorView::showSweep()
{
    using widgets::NumberFormat::count;
    // The sweep has no timeline of its own until a point is clicked: the plot gets the room.
    giveRoomTo(details_);
    pareto_->clear();
    QVector<QPointF> pts;
    QStringList labels;
    std::vector<int> index;
    int front = 0;
    for (std::size_t i = 0; i < sweep_.size(); ++i) {
        const vta::SweepPoint& p = sweep_[i];
        if (p.error || p.cycles == 0) continue;
        pts << QPointF(p.areaMm2, double(p.cycles));
        labels << QString::fromStdString(p.label());
        front += p.pareto ? 1 : 0;
    }
    pareto_->addSeries(tr("ResNet-18 (%1 px)").arg(sweepImageSize_), pts, labels);
    details_->setCurrentWidget(pareto_);
    summary_->setText(tr("<b>Configuration sweep</b> (ResNet-18, %1 px): %2 configurations, %3 on the area-vs-cycles front. "
                         "Click a point to see its timeline.")
                          .arg(sweepImageSize_)
                          .arg(pts.size())
                          .arg(front));
    emit message(tr("VTA: configuration sweep, %1 configurations").arg(pts.size()));
}

bool SimulatorView::openSweepPoint(int index)
{
    // Indices are those of the plotted (mapped) points, in sweep order.
    int plotted = -1;
    for (const vta::SweepPoint& p : sweep_) {
        if (p.error || p.cycles == 0) continue;
        if (++plotted != index) continue;
        setTimingConfig(p.timing);
        return runResNet18(sweepImageSize_, false, p.config);
    }
    return false;
}

void SimulatorView::cancel()
{
    job_->cancel();
}

void SimulatorView::showDetail(Detail d)
{
    QWidget* const pages[] = {report_, layers_, roofline_, pareto_};
    details_->setCurrentWidget(pages[static_cast<int>(d)]);
}

bool SimulatorView::runResNet18(int imageSize, bool bitExact, const vta::VtaConfig& config)
{
    if (job_->isRunning()) return false;
    setRunning(true);
    summary_->setText(tr("Simulating ResNet-18 (%1 px)…").arg(imageSize));
    job_->setTitle(tr("VTA simulation (ResNet-18, %1 px)").arg(imageSize));
    job_->start<vta::NetworkRun>(
        [imageSize, bitExact, config, timing = timingConfig()](RunningJob& job) {
            vta::RunNetworkOptions options;
            options.functional = bitExact;
            options.keepTraces = true;
            return vta::runNetwork(vta::resnet18Layers(imageSize), config, timing, &job, options);
        },
        [this, imageSize](vta::NetworkRun run) { showNetwork(run, imageSize); });
    return true;
}

bool SimulatorView::runVector(const QString& path)
{
    if (job_->isRunning()) return false;
    path_->setText(path);
    setRunning(true);
    summary_->setText(tr("Simulating %1…").arg(QFileInfo(path).fileName()));
    job_->setTitle(tr("VTA simulation (%1)").arg(QFileInfo(path).fileName()));
    job_->start<SimulationOutcome>(
        [path, timing = timingConfig(), fidelity = fidelity()](RunningJob&) { return simulate(path, timing, fidelity); },
        [this](SimulationOutcome o) { show(o); });
    return true;
}

void SimulatorView::show(const SimulationOutcome& o)
{
    giveRoomTo(timeline_);
    using widgets::NumberFormat::count;
    using widgets::NumberFormat::percent;
    outcome_ = o;
    const QString name = QFileInfo(o.file).fileName();
    if (!o.error.isEmpty()) {
        summary_->setText(tr("<b>%1</b> cannot be run.").arg(name.toHtmlEscaped()));
        report_->setPlainText(o.error);
        timeline_->clear();
        emit message(tr("VTA: %1 cannot be run: %2").arg(name, o.error.section(QLatin1Char('\n'), 0, 0)));
        return;
    }
    QString text = o.passed ? tr("<b>%1</b>: <span style='color:#1b7f3b'>output bytes, counters and token pushes match</span>")
                            : tr("<b>%1</b>: <span style='color:#b00020'>does not match its expected results</span>");
    text = text.arg(name.toHtmlEscaped());
    if (o.cycles) {
        QStringList lanes;
        for (int l = 0; l < vta::kTraceLanes; ++l)
            lanes << tr("%1 %2").arg(QString::fromLatin1(vta::laneName(l)), percent(o.trace.utilization(l)));
        text += tr("<br>%1 cycles; busy: %2").arg(count(std::int64_t(*o.cycles)), lanes.join(QStringLiteral(", ")));
    } else if (!o.timingError.isEmpty()) {
        text += tr("<br>cycle model: %1").arg(o.timingError.toHtmlEscaped());
    }
    summary_->setText(text);
    report_->setPlainText(o.report);
    details_->setCurrentWidget(report_);
    timeline_->setMarkers({});
    timeline_->setLanes(vtaTraceLanes(o.trace, &o.insns), o.trace.totalCycles);
    emit message(tr("VTA: %1 %2%3").arg(name, o.passed ? tr("passed") : tr("FAILED"),
                                        o.cycles ? tr(", %1 cycles").arg(count(std::int64_t(*o.cycles))) : QString()));
}

void SimulatorView::showNetwork(const vta::NetworkRun& run, int imageSize)
{
    using widgets::NumberFormat::count;
    using widgets::NumberFormat::decimal;
    using widgets::NumberFormat::percent;
    giveRoomTo(timeline_);
    network_ = run;
    const vta::ActivityTrace trace = vta::networkTrace(run);
    QString text = tr("<b>ResNet-18</b> (%1 px, %2 layers%3): %4 cycles, %5 MACs")
                       .arg(imageSize)
                       .arg(run.layers.size())
                       .arg(run.cancelled ? tr(", cancelled") : QString(), count(std::int64_t(run.totalCycles)),
                            count(std::int64_t(run.totalOps)));
    if (run.error) text += tr("<br><span style='color:#b00020'>%1</span>").arg(QString::fromStdString(*run.error).toHtmlEscaped());
    QStringList lanes;
    for (int l = 0; l < vta::kTraceLanes; ++l)
        lanes << tr("%1 %2").arg(QString::fromLatin1(vta::laneName(l)), percent(trace.utilization(l)));
    text += tr("<br>busy: %1").arg(lanes.join(QStringLiteral(", ")));
    summary_->setText(text);

    std::vector<TraceLayerStart> starts;
    std::vector<widgets::TimelineMarker> markers;
    layers_->setRowCount(int(run.layers.size()));
    for (std::size_t i = 0; i < run.layers.size(); ++i) {
        const vta::LayerRun& l = run.layers[i];
        const QString name = QString::fromStdString(l.name);
        starts.push_back({l.firstCycle, name});
        markers.push_back({l.firstCycle, name});
        const QStringList cells{name,
                                QString::fromLatin1(vta::layerKindName(l.kind)),
                                count(std::int64_t(l.cycles)),
                                count(std::int64_t(l.ops)),
                                count(std::int64_t(l.dramBytes())),
                                decimal(l.roofline.opsPerCycle, 3),
                                decimal(l.roofline.opsPerByte, 3),
                                percent(l.utilization[std::size_t(vta::Module::Load)]),
                                percent(l.utilization[std::size_t(vta::Module::Compute)])};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c >= 2) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            layers_->setItem(int(i), c, item);
        }
    }
    report_->setPlainText(QString());
    details_->setCurrentWidget(layers_);
    timeline_->setLanes(vtaTraceLanes(trace, nullptr, &starts), std::max(trace.totalCycles, run.totalCycles));
    timeline_->setMarkers(std::move(markers));
    showRoofline(run);
    emit message(tr("VTA: ResNet-18 (%1 px) %2 cycles%3").arg(imageSize).arg(count(std::int64_t(run.totalCycles)),
                                                              run.error ? tr(" (stopped: %1)").arg(QString::fromStdString(*run.error)) : QString()));
}

void SimulatorView::showRoofline(const vta::NetworkRun& run)
{
    roofline_->clearGraphs();
    if (run.layers.empty()) {
        roofline_->replot();
        return;
    }
    double xMin = 1e30, xMax = 0, roof = 0, bandwidth = 0;
    QVector<double> xs, ys;
    for (const vta::LayerRun& l : run.layers) {
        if (l.roofline.opsPerByte <= 0 || l.roofline.opsPerCycle <= 0) continue;
        xs << l.roofline.opsPerByte;
        ys << l.roofline.opsPerCycle;
        xMin = std::min(xMin, l.roofline.opsPerByte);
        xMax = std::max(xMax, l.roofline.opsPerByte);
        roof = std::max(roof, l.roofline.computeRoof);
        bandwidth = std::max(bandwidth, l.roofline.bytesPerCycle);
    }
    if (xs.isEmpty()) {
        roofline_->replot();
        return;
    }
    xMin /= 4;
    xMax *= 4;
    QVector<double> lineX, lineY;
    for (int k = 0; k <= 60; ++k) {
        const double x = xMin * std::pow(xMax / xMin, k / 60.0);
        lineX << x;
        lineY << std::min(roof, bandwidth * x);
    }
    QCPGraph* limit = roofline_->addGraph();
    limit->setData(lineX, lineY);
    limit->setPen(QPen(QColor(0x44, 0x44, 0x44), 2));
    limit->setName(tr("roof: %1 ops/cycle, %2 B/cycle").arg(roof).arg(bandwidth));
    QCPGraph* points = roofline_->addGraph();
    points->setLineStyle(QCPGraph::lsNone);
    points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(0x1F, 0x6F, 0xB4), 7));
    points->setData(xs, ys);
    points->setName(tr("layers"));
    roofline_->xAxis->setRange(xMin, xMax);
    const double yMin = *std::min_element(ys.begin(), ys.end());
    roofline_->yAxis->setRange(std::max(1e-3, yMin / 4), roof * 3);
    roofline_->replot();
}

} // namespace nestor::app
