#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sluice {

// How many requests to one host should be in flight, found by watching the link rather than
// counting threads. More requests than the link needs buy no bandwidth and delay every job (the
// oldest job's bytes share the link with the newest's), fewer leave it idle; the knee between
// the two depends on time to first byte, per-connection and aggregate bandwidth, and how fast
// the query consumes, none known in advance. So the controller measures the bandwidth of each
// step (a mean request duration to settle at a new target, one and a half to measure) and keeps
// a model in the spirit of BBR: the target is the best bandwidth of the last kRecentSteps steps
// over the best yield of one request in flight (bandwidth / target) among them, with headroom:
// Little's law at the knee, where requests do not yet compete.
//
//   Startup: from kInitialTarget, x2, then x4 while a step's bandwidth nearly doubles, x2 while it
//            rises by a quarter, until two steps in a row do not.
//   Drain:   halve until the bandwidth drops by a tenth (the yield below the knee is then seen),
//            then the model's target.
//   Cruise:  kCruiseSteps steps at the model's target, one at 1.25x (more bandwidth, if the link
//            has it, raises the best) and one at 1/1.25x (a better yield, if the target was past
//            the knee, lowers the model); again.
//
// A step in which no request waited for the target (the query asked for less) teaches nothing
// and is measured again. Throttling (503, 429) is not handled here: each event loop's
// ConcurrencyWindow halves on it, and the smaller of the two limits applies. Thread-safe: the
// event threads call Completed for every answer and Tick at every wake.
class InFlightController {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr double kInitialTarget = 16;
    static constexpr double kMinimumTarget = 2;
    static constexpr int kCruiseSteps = 4;

    enum class Phase { Startup, Drain, Cruise, ProbeUp, ProbeDown, Pinned };

    InFlightController(uint32_t ceiling, Clock::time_point now);

    // http_connections_per_host is the ceiling; a pinned target (http_max_in_flight > 0) stops
    // the tuning, 0 resumes it.
    void SetLimits(uint32_t ceiling, uint32_t pinned);

    // A request waited because the target was reached: the target is what limits.
    void Waited() { waited_.store(true, std::memory_order_relaxed); }
    // A request ended: its whole duration, its time to first byte and the bytes it brought.
    void Completed(double seconds, double first_byte_seconds, uint64_t bytes);
    // Ends the step when its time has come and decides the next target.
    void Tick(Clock::time_point now);

    // Requests to have in flight to this host (the sum over all event loops).
    uint32_t target() const { return target_.load(std::memory_order_relaxed); }

    // "self-tuned target 21 (cruise): 97.9 MB/s best, first byte 81 ms, request 0.19 s; ..."
    std::string Describe() const;
    // The target after each change, in seconds since the controller was made.
    std::vector<std::pair<double, uint32_t>> History() const;

private:
    struct Step {
        double target;
        double bandwidth;
    };
    void Decide(double bandwidth, Clock::time_point now);
    double ModelTarget() const;
    // A new target: settle for a request's duration, then measure.
    void SetTarget(double target, Clock::time_point now);
    // The same target, measured again from now.
    void Remeasure(Clock::time_point now);
    double StepSeconds() const;

    mutable std::mutex mutex_;
    Clock::time_point origin_;
    double ceiling_;
    Phase phase_ = Phase::Startup;
    double target_value_ = kInitialTarget;
    std::atomic<uint32_t> target_{static_cast<uint32_t>(kInitialTarget)};
    std::atomic<bool> waited_{false};

    // The current step: settling until measure_from_, measuring until step_end_.
    Clock::time_point measure_from_;
    Clock::time_point step_end_;
    double step_bytes_ = 0;           // of requests ended while measuring
    double step_request_seconds_ = 0; // their durations, summed
    bool measuring_ = false;

    double mean_request_seconds_ = 0; // moving average; 0 until a request ends
    double min_first_byte_seconds_ = 0;
    uint64_t completed_ = 0;
    std::vector<Step> recent_;      // the last kRecentSteps measured steps
    double previous_bandwidth_ = 0; // startup: the last step that grew
    int startup_stalls_ = 0;
    int cruise_steps_ = 0;
    uint64_t probes_ = 0;
    std::vector<std::pair<double, uint32_t>> history_;
};

// One controller per host (scheme, name and port), shared by every event loop and every query of
// one HttpClient.
class InFlightControllers {
public:
    std::shared_ptr<InFlightController> For(const std::string& host, uint32_t ceiling);

private:
    std::mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<InFlightController>> controllers_;
};

} // namespace sluice
