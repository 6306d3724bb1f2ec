#pragma once
// Whether a step that may save work is worth doing for every item: judged on windows of kWindow
// steps, it is while at least one in kSampling is useful. While it is not, the step is done for
// every kSampling-th item only (enough to notice it becoming useful again). The search's stage
// memo (a lookup is useful when it hits) and its capacity check on the candidate's point (useful
// when it rejects the candidate) each keep one.
#include <cstdint>

namespace nestor::model {

class SampledUse {
public:
    // Whether the step is done for the item at hand.
    bool admit()
    {
        active_ = useful_ || ++tick_ % kSampling == 0;
        if (!active_) return false;
        if (++steps_ == kWindow) {  // judged on the window that ends here
            useful_ = hits_ * kSampling >= steps_;
            steps_ = hits_ = 0;
        }
        return true;
    }
    void hit() { ++hits_; }  // the step just admitted was useful
    bool active() const { return active_; }  // the item last passed to admit() was admitted
    bool useful() const { return useful_; }

private:
    static constexpr std::int64_t kWindow = 4096, kSampling = 16;
    std::int64_t steps_ = 0, hits_ = 0, tick_ = 0;
    bool useful_ = true;
    bool active_ = false;
};

} // namespace nestor::model
