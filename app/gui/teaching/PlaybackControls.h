#pragma once
// Playback of a step trace: play / pause, step back / forward, a scrub slider over [0, numSteps)
// (numSteps may be ~10^9, so the slider's int range maps onto steps through a 64-bit scale),
// the speed in steps per second and the stride (steps per tick), and "next tile change".
// It only requests steps (stepRequested); the owner shows them and calls setStep().
#include <QWidget>

#include <cstdint>

class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QTimer;

namespace nestor::app {

class PlaybackControls : public QWidget {
    Q_OBJECT
public:
    static constexpr int kSliderMax = 100000;   // slider positions when there are more steps
    static constexpr int kMaxTicksPerSecond = 30;

    explicit PlaybackControls(QWidget* parent = nullptr);

    void setNumSteps(std::int64_t numSteps);    // 0 disables the controls
    void setStep(std::int64_t step);            // shows `step` without requesting it
    std::int64_t numSteps() const { return numSteps_; }
    std::int64_t step() const { return step_; }

    void play();
    void pause();
    bool isPlaying() const;
    void stepForward();
    void stepBack();
    void scrubTo(int sliderPosition);           // as if the user dragged the slider there
    void setStepsPerSecond(int steps);          // 1..1000
    int stepsPerSecond() const;
    void setStride(int steps);                  // steps advanced per frame shown

    QSlider* slider() const { return slider_; }
    QPushButton* nextChangeButton() const { return nextChange_; }

    // The slider scale: position p of [0, max] <-> step round(p * (numSteps - 1) / max).
    static int sliderMaximum(std::int64_t numSteps);
    static std::int64_t stepAt(int position, std::int64_t numSteps);
    static int positionOf(std::int64_t step, std::int64_t numSteps);

signals:
    void stepRequested(std::int64_t step);
    void nextChangeRequested();
    void playingChanged(bool playing);

private:
    void tick();
    void request(std::int64_t step);
    void updateTimer();
    void updateLabel();

    QPushButton* back_;
    QPushButton* playPause_;
    QPushButton* forward_;
    QPushButton* nextChange_;
    QSlider* slider_;
    QLabel* label_;
    QSpinBox* speed_;
    QSpinBox* stride_;
    QTimer* timer_;
    std::int64_t numSteps_ = 0;
    std::int64_t step_ = 0;
    bool syncing_ = false;
};

} // namespace nestor::app
