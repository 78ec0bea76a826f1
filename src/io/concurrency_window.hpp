#pragma once

#include <chrono>
#include <cstdint>

namespace sluice {

// How many requests one event thread lets run at once against one host: additive increase,
// multiplicative decrease, as TCP does with its congestion window. A throttling answer (503
// SlowDown, 429) halves the window, at most once per kCalmDown so that one burst of refusals
// counts once; every answer that is not throttling grows it by 1/window (one request per
// window's worth of answers), up to the ceiling (http_connections_per_host's share).
class ConcurrencyWindow {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr auto kCalmDown = std::chrono::milliseconds(100);

    explicit ConcurrencyWindow(double ceiling) : ceiling_(ceiling), window_(ceiling) {}

    bool CanStart() const { return static_cast<double>(running_) < window_; }
    void Started() { running_++; }
    // An answer arrived (or the transfer ended otherwise). True when it halved the window.
    bool Finished(bool throttled, Clock::time_point now);
    void SetCeiling(double ceiling);

    double window() const { return window_; }
    uint64_t running() const { return running_; }

private:
    double ceiling_;
    double window_;
    uint64_t running_ = 0;
    Clock::time_point last_decrease_{};
};

} // namespace sluice
