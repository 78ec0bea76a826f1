#pragma once

#include <array>
#include <cstddef>
#include <optional>

namespace sluice {

// When to send a second copy of a request that is slow to answer (a hedged request, as in Dean
// and Barroso's "The Tail at Scale"): once it has waited for its first byte longer than nearly
// all recent requests to the same host did. The delay is the larger of the 95th percentile of the
// last kSamples first-byte times, kMedianMultiple times their median (on a link whose times are
// all alike, the percentile alone would hedge one request in twenty for nothing) and
// kFloorSeconds; none before kMinimumSamples answers. So at most about one request in twenty is
// hedged, and only where the tail is long. Not thread-safe: one per host in each event loop.
class HedgingPolicy {
public:
    static constexpr size_t kSamples = 64;
    static constexpr size_t kMinimumSamples = 16;
    static constexpr double kPercentile = 0.95;
    static constexpr double kMedianMultiple = 3;
    static constexpr double kFloorSeconds = 0.1;

    // An answer's time to its first byte.
    void Record(double first_byte_seconds);
    // Seconds without a first byte after which a request is hedged; none yet.
    std::optional<double> Delay() const { return delay_; }

private:
    std::array<double, kSamples> samples_{};
    size_t count_ = 0;
    size_t next_ = 0;
    std::optional<double> delay_;
};

} // namespace sluice
