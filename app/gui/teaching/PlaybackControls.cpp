#include "PlaybackControls.h"

#include "NumberFormat.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace nestor::app {

int PlaybackControls::sliderMaximum(std::int64_t numSteps)
{
    return int(std::clamp<std::int64_t>(numSteps - 1, 0, kSliderMax));
}

std::int64_t PlaybackControls::stepAt(int position, std::int64_t numSteps)
{
    const int max = sliderMaximum(numSteps);
    if (max <= 0) return 0;
    const std::int64_t p = std::clamp(position, 0, max);
    // p * (numSteps - 1) / max, rounded, without overflow: numSteps may be 10^18 and p 10^5.
    const std::int64_t q = (numSteps - 1) / max, r = (numSteps - 1) % max;
    return p * q + (p * r + max / 2) / max;
}

int PlaybackControls::positionOf(std::int64_t step, std::int64_t numSteps)
{
    const int max = sliderMaximum(numSteps);
    if (max <= 0 || numSteps <= 1) return 0;
    const auto s = static_cast<long double>(std::clamp<std::int64_t>(step, 0, numSteps - 1));
    return int(std::lround(static_cast<double>(s * max / static_cast<long double>(numSteps - 1))));   // display only
}

PlaybackControls::PlaybackControls(QWidget* parent)
    : QWidget(parent), back_(new QPushButton), playPause_(new QPushButton), forward_(new QPushButton),
      nextChange_(new QPushButton(tr("Next tile change"))), slider_(new QSlider(Qt::Horizontal)), label_(new QLabel),
      speed_(new QSpinBox), stride_(new QSpinBox), timer_(new QTimer(this))
{
    back_->setIcon(style()->standardIcon(QStyle::SP_MediaSeekBackward));
    back_->setToolTip(tr("Step back"));
    playPause_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    playPause_->setToolTip(tr("Play / pause"));
    forward_->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
    forward_->setToolTip(tr("Step forward"));
    nextChange_->setToolTip(tr("Jump to the next step at which the chosen tensor's tile changes in any instance"));
    back_->setObjectName(QStringLiteral("stepBack"));
    playPause_->setObjectName(QStringLiteral("playPause"));
    forward_->setObjectName(QStringLiteral("stepForward"));
    nextChange_->setObjectName(QStringLiteral("nextTileChange"));
    slider_->setObjectName(QStringLiteral("scrubSlider"));
    speed_->setRange(1, 1000);
    speed_->setValue(4);
    speed_->setSuffix(tr(" steps/s"));
    speed_->setToolTip(tr("Playback speed"));
    stride_->setRange(1, 1000000);
    stride_->setValue(1);
    stride_->setPrefix(tr("× "));
    stride_->setSuffix(tr(" per frame"));
    stride_->setToolTip(tr("Steps advanced per frame shown (to move quickly through long nests)"));
    label_->setMinimumWidth(label_->fontMetrics().horizontalAdvance(QStringLiteral("0,000,000,000 / 0,000,000,000")));
    label_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);

    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(back_);
    row->addWidget(playPause_);
    row->addWidget(forward_);
    row->addWidget(slider_, 1);
    row->addWidget(label_);
    row->addWidget(speed_);
    row->addWidget(stride_);
    row->addWidget(nextChange_);

    connect(back_, &QPushButton::clicked, this, &PlaybackControls::stepBack);
    connect(forward_, &QPushButton::clicked, this, &PlaybackControls::stepForward);
    connect(playPause_, &QPushButton::clicked, this, [this] { isPlaying() ? pause() : play(); });
    connect(nextChange_, &QPushButton::clicked, this, &PlaybackControls::nextChangeRequested);
    connect(slider_, &QSlider::valueChanged, this, [this](int p) {
        if (!syncing_) scrubTo(p);
    });
    connect(speed_, &QSpinBox::valueChanged, this, &PlaybackControls::updateTimer);
    connect(timer_, &QTimer::timeout, this, &PlaybackControls::tick);
    setNumSteps(0);
}

void PlaybackControls::setNumSteps(std::int64_t numSteps)
{
    numSteps_ = std::max<std::int64_t>(0, numSteps);
    if (numSteps_ == 0) pause();
    for (QWidget* w : {static_cast<QWidget*>(back_), static_cast<QWidget*>(playPause_), static_cast<QWidget*>(forward_),
                       static_cast<QWidget*>(slider_), static_cast<QWidget*>(nextChange_)})
        w->setEnabled(numSteps_ > 0);
    syncing_ = true;
    slider_->setRange(0, sliderMaximum(numSteps_));
    syncing_ = false;
    setStep(std::min(step_, std::max<std::int64_t>(0, numSteps_ - 1)));
}

void PlaybackControls::setStep(std::int64_t step)
{
    step_ = step;
    syncing_ = true;
    slider_->setValue(positionOf(step, numSteps_));
    syncing_ = false;
    updateLabel();
}

void PlaybackControls::updateLabel()
{
    using widgets::NumberFormat::count;
    label_->setText(numSteps_ > 0 ? tr("%1 / %2").arg(count(step_), count(numSteps_ - 1)) : QString());
}

void PlaybackControls::play()
{
    if (numSteps_ <= 0) return;
    if (step_ >= numSteps_ - 1) request(0);   // play again from the start
    updateTimer();
    timer_->start();
    playPause_->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
    emit playingChanged(true);
}

void PlaybackControls::pause()
{
    const bool was = timer_->isActive();
    timer_->stop();
    playPause_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    if (was) emit playingChanged(false);
}

bool PlaybackControls::isPlaying() const
{
    return timer_->isActive();
}

void PlaybackControls::stepForward()
{
    if (step_ + 1 < numSteps_) request(step_ + 1);
}

void PlaybackControls::stepBack()
{
    if (step_ > 0) request(step_ - 1);
}

void PlaybackControls::scrubTo(int sliderPosition)
{
    if (numSteps_ > 0) request(stepAt(sliderPosition, numSteps_));
}

void PlaybackControls::setStepsPerSecond(int steps)
{
    speed_->setValue(steps);
}

int PlaybackControls::stepsPerSecond() const
{
    return speed_->value();
}

void PlaybackControls::setStride(int steps)
{
    stride_->setValue(steps);
}

void PlaybackControls::updateTimer()
{
    // At most 30 frames a second; faster speeds advance several steps per frame.
    const int ticks = std::min(speed_->value(), kMaxTicksPerSecond);
    timer_->setInterval(1000 / ticks);
}

void PlaybackControls::tick()
{
    const int ticks = std::min(speed_->value(), kMaxTicksPerSecond);
    const std::int64_t perTick = std::int64_t(std::lround(double(speed_->value()) / ticks)) * stride_->value();
    const std::int64_t next = std::min(step_ + perTick, numSteps_ - 1);
    if (next <= step_) {
        pause();
        return;
    }
    request(next);
    if (next >= numSteps_ - 1) pause();
}

void PlaybackControls::request(std::int64_t step)
{
    setStep(step);
    emit stepRequested(step);
}

} // namespace nestor::app
