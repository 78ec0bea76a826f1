#include "io/hedging_policy.hpp"

#include <algorithm>

namespace sluice {

void HedgingPolicy::Record(double first_byte_seconds) {
    samples_[next_] = first_byte_seconds;
    next_ = (next_ + 1) % kSamples;
    count_ = std::min(count_ + 1, kSamples);
    if (count_ < kMinimumSamples) {
        return;
    }
    std::array<double, kSamples> sorted = samples_;
    std::sort(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(count_));
    double median = sorted[count_ / 2];
    double percentile = sorted[static_cast<size_t>(kPercentile * static_cast<double>(count_ - 1))];
    delay_ = std::max({percentile, kMedianMultiple * median, kFloorSeconds});
}

} // namespace sluice
