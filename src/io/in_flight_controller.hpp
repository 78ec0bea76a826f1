#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sluice {

// How many requests to one host should be in flight, found by watching the link rather than
// counting threads. More requests than the link needs buy no bandwidth and delay every job (the
// oldest job's bytes share the link with the newest's), fewer leave it idle; the knee between
// the two depends on time to first byte, per-connection and aggregate bandwidth, and how fast
// the query consumes, none known in advance, and the curve bends softly (connections, TCP, the
// order in which jobs are consumed). So the controller measures the bytes received in steps (a
// mean request duration to settle at a new target, two to measure), remembers the last
// kRecentSteps, and finds the knee: the fewest requests in flight among them that had 95% of the
// best bandwidth. It keeps twice that in flight (the scan consumes jobs in order, and jobs
// completed ahead absorb the spread of arrivals). In the spirit of BBR's probing:
//
//   Startup: from kInitialTarget, x2, then x4 while a step's bandwidth nearly doubles, x2 while it
//            rises by a quarter, until two steps in a row do not.
//   Drain:   halve while the bandwidth stays within 5% of the best; then cruise.
//   Cruise:  kCruiseSteps steps at twice the knee, then one at the knee, one at 1/1.25 of it (as
//            much bandwidth there moves the knee down) and one at 1.25x the cruise (more bandwidth
//            there moves it up); again.
//
// A step in which no request waited for the target (the query asked for less) teaches nothing
// and is measured again. Throttling (503, 429) is not handled here: each event loop's
// ConcurrencyWindow halves on it, and the smaller of the two limits applies. Thread-safe: the
// event threads call Received for every body chunk, Completed for every answer and Tick at every
// wake.
class InFlightController {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr double kInitialTarget = 16;
    static constexpr double kMinimumTarget = 2;
    static constexpr int kCruiseSteps = 4;
    static constexpr uint64_t kEstimateSamples = 8;

    enum class Phase { Startup, Drain, Cruise, ProbeKnee, ProbeDown, ProbeUp, Pinned };

    // What one request sees of the link, averaged over recent answers: how long until its first
    // byte, and how fast its body then arrives (its share of the link while others run). And
    // whether the link is full: the controller found a knee below its ceiling, so more requests
    // in flight bring no more bandwidth and the bytes, not the requests, are what costs.
    struct RequestEstimate {
        double first_byte_seconds = 0;
        double bytes_per_second = 0;
        bool link_full = false;
    };

    InFlightController(uint32_t ceiling, Clock::time_point now);

    // http_connections_per_host is the ceiling; a pinned target (http_max_in_flight > 0) stops
    // the tuning, 0 resumes it.
    void SetLimits(uint32_t ceiling, uint32_t pinned);

    // A request waited because the target was reached: the target is what limits.
    void Waited() { waited_.store(true, std::memory_order_relaxed); }
    // Body bytes arrived.
    void Received(uint64_t bytes) { received_.fetch_add(bytes, std::memory_order_relaxed); }
    // A request's answer arrived: its whole duration, its time to first byte and its body bytes.
    void Completed(double seconds, double first_byte_seconds, uint64_t bytes);
    // Ends the step when its time has come and decides the next target.
    void Tick(Clock::time_point now);

    // Requests to have in flight to this host (the sum over all event loops).
    uint32_t target() const { return target_.load(std::memory_order_relaxed); }
    // Once kEstimateSamples answers with a body of some size arrived; none before.
    std::optional<RequestEstimate> Estimate() const;

    // "in flight per host 64, self-tuned (cruise; ...): 2x the knee, 32 requests with 95% of the
    // best bandwidth seen, 99.7 MB/s; first byte 80 ms, request 0.235 s", or "... (pinned ...)".
    std::string Describe() const;
    // The target after each change, in seconds since the controller was made.
    std::vector<std::pair<double, uint32_t>> History() const;

private:
    struct Step {
        double target;
        double bandwidth; // bytes per second received
    };
    void Decide(double bandwidth, Clock::time_point now);
    double BestBandwidth() const;
    double KneeTarget() const;
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
    std::atomic<uint64_t> received_{0};
    std::atomic<bool> waited_{false};

    // The current step: settling until measure_from_, measuring until step_end_.
    Clock::time_point measure_from_;
    Clock::time_point step_end_;
    uint64_t received_at_measure_ = 0;
    bool measuring_ = false;

    double mean_request_seconds_ = 0; // moving average; 0 until a request ends
    double min_first_byte_seconds_ = 0;
    uint64_t completed_ = 0;
    // Moving averages over answers with a body worth timing (Estimate).
    double mean_first_byte_seconds_ = 0;
    double mean_body_bytes_ = 0;
    double mean_body_seconds_ = 0;
    uint64_t timed_bodies_ = 0;
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
