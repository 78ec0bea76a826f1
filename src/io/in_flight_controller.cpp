#include "io/in_flight_controller.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sluice {

namespace {

constexpr double kProbeStep = 1.25;
constexpr double kNearlyBest = 0.95; // a bandwidth this close to the best is as good
// Requests beyond the link's knee: the scan consumes jobs in order, and a few jobs complete ahead
// absorb the spread of their arrival times (on the rig's far profile 64 in flight beat 32 by 9%,
// although 32 already filled the link most of the time).
constexpr double kHeadroom = 2;
constexpr size_t kRecentSteps = 10;
constexpr int kStartupStalls = 2; // steps without growth that end the startup
constexpr uint64_t kTimedBodyBytes = 64 * 1024;

// A moving average over about the last eight samples; the first sample is taken as it is.
double Average(double average, double sample, uint64_t samples) {
    return samples == 1 ? sample : average * 0.875 + sample / 8;
}

const char* PhaseName(InFlightController::Phase phase) {
    switch (phase) {
    case InFlightController::Phase::Startup:
        return "startup";
    case InFlightController::Phase::Drain:
        return "drain";
    case InFlightController::Phase::Cruise:
        return "cruise";
    case InFlightController::Phase::ProbeKnee:
        return "probing the knee";
    case InFlightController::Phase::ProbeDown:
        return "probing down";
    case InFlightController::Phase::ProbeUp:
        return "probing up";
    case InFlightController::Phase::Pinned:
        return "pinned";
    }
    return "";
}

} // namespace

InFlightController::InFlightController(uint32_t ceiling, Clock::time_point now)
    : origin_(now), ceiling_(std::max<double>(1, ceiling)) {
    SetTarget(kInitialTarget, now);
}

void InFlightController::SetLimits(uint32_t ceiling, uint32_t pinned) {
    std::lock_guard<std::mutex> guard(mutex_);
    auto now = Clock::now();
    ceiling_ = std::max<double>(1, ceiling);
    if (pinned > 0) {
        phase_ = Phase::Pinned;
        target_value_ = std::min<double>(pinned, ceiling_);
        target_.store(static_cast<uint32_t>(target_value_), std::memory_order_relaxed);
        return;
    }
    if (phase_ == Phase::Pinned) {
        phase_ = Phase::Startup;
        previous_bandwidth_ = 0;
        recent_.clear();
        SetTarget(kInitialTarget, now);
    } else if (target_value_ > ceiling_) {
        SetTarget(ceiling_, now);
    }
}

void InFlightController::Completed(double seconds, double first_byte_seconds, uint64_t bytes) {
    std::lock_guard<std::mutex> guard(mutex_);
    completed_++;
    mean_request_seconds_ = Average(mean_request_seconds_, seconds, completed_);
    if (first_byte_seconds > 0 &&
        (min_first_byte_seconds_ == 0 || first_byte_seconds < min_first_byte_seconds_)) {
        min_first_byte_seconds_ = first_byte_seconds;
    }
    // A body arriving in less than a millisecond or so times the clock, not the link.
    double body_seconds = seconds - first_byte_seconds;
    if (first_byte_seconds > 0 && bytes >= kTimedBodyBytes && body_seconds > 0) {
        timed_bodies_++;
        mean_first_byte_seconds_ =
            Average(mean_first_byte_seconds_, first_byte_seconds, timed_bodies_);
        mean_body_bytes_ = Average(mean_body_bytes_, static_cast<double>(bytes), timed_bodies_);
        mean_body_seconds_ = Average(mean_body_seconds_, body_seconds, timed_bodies_);
    }
}

std::optional<InFlightController::RequestEstimate> InFlightController::Estimate() const {
    std::lock_guard<std::mutex> guard(mutex_);
    if (timed_bodies_ < kEstimateSamples) {
        return std::nullopt;
    }
    bool knee_found = phase_ != Phase::Startup && phase_ != Phase::Pinned && !recent_.empty() &&
                      KneeTarget() < ceiling_;
    return RequestEstimate{mean_first_byte_seconds_, mean_body_bytes_ / mean_body_seconds_,
                           knee_found};
}

double InFlightController::StepSeconds() const {
    // One request duration lets a new target take effect (requests started under the old one
    // end); bounded so that fast links still average over enough bytes and slow ones still move.
    return completed_ == 0 ? 0.1 : std::clamp(mean_request_seconds_, 0.02, 1.0);
}

void InFlightController::Tick(Clock::time_point now) {
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock() || phase_ == Phase::Pinned) {
        return;
    }
    if (!measuring_) {
        // The measurement starts once requests wait for the target, so that what the query did
        // before (opening files, reading footers) is not taken for the link's answer to it.
        if (now < measure_from_ || !waited_.exchange(false, std::memory_order_relaxed)) {
            return;
        }
        measuring_ = true;
        measure_from_ = now;
        // Two requests long, so that answers of small requests arriving together do not fall in
        // or out of it whole.
        step_end_ = now + std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double>(2 * StepSeconds()));
        received_at_measure_ = received_.load(std::memory_order_relaxed);
        return;
    }
    if (now < step_end_) {
        return;
    }
    double seconds = std::chrono::duration<double>(now - measure_from_).count();
    bool limiting = waited_.exchange(false, std::memory_order_relaxed);
    if (!limiting || seconds <= 0) {
        // Nothing waited for the target: the query, not the target, set this step's pace.
        Remeasure(now);
        return;
    }
    uint64_t received = received_.load(std::memory_order_relaxed);
    Decide(static_cast<double>(received - received_at_measure_) / seconds, now);
}

void InFlightController::Decide(double bandwidth, Clock::time_point now) {
    recent_.push_back({target_value_, bandwidth});
    if (recent_.size() > kRecentSteps) {
        recent_.erase(recent_.begin());
    }
    switch (phase_) {
    case Phase::Startup: {
        // Doubling the target nearly doubled the bandwidth: far from the knee, so quadruple.
        double ratio = previous_bandwidth_ > 0 ? bandwidth / previous_bandwidth_ : 0;
        double growth = previous_bandwidth_ == 0 ? 2 : ratio >= 1.8 ? 4 : ratio >= 1.25 ? 2 : 1;
        if (growth > 1) {
            previous_bandwidth_ = bandwidth;
            startup_stalls_ = 0;
        }
        if (target_value_ < ceiling_ && growth > 1) {
            SetTarget(target_value_ * growth, now);
            return;
        }
        if (target_value_ < ceiling_ && ++startup_stalls_ < kStartupStalls) {
            Remeasure(now); // a stall is measured again, once
            return;
        }
        // Past the knee, maybe far past: halve until the bandwidth drops.
        phase_ = Phase::Drain;
        SetTarget(target_value_ / 2, now);
        return;
    }
    case Phase::Drain:
        if (bandwidth >= kNearlyBest * BestBandwidth() && target_value_ / 2 >= kMinimumTarget) {
            SetTarget(target_value_ / 2, now);
            return;
        }
        phase_ = Phase::Cruise;
        cruise_steps_ = 0;
        SetTarget(KneeTarget() * kHeadroom, now);
        return;
    case Phase::Cruise:
        // kCruiseSteps steps above the knee, then the knee itself and below it (as much
        // bandwidth: the knee moved down), and one above the cruise (more bandwidth, if the link
        // now has it); again.
        if (++cruise_steps_ < kCruiseSteps) {
            double target = KneeTarget() * kHeadroom;
            if (std::abs(target - target_value_) < 0.5) {
                Remeasure(now);
            } else {
                SetTarget(target, now);
            }
            return;
        }
        phase_ = Phase::ProbeKnee;
        probes_++;
        SetTarget(KneeTarget(), now);
        return;
    case Phase::ProbeKnee:
        phase_ = Phase::ProbeDown;
        probes_++;
        SetTarget(KneeTarget() / kProbeStep, now);
        return;
    case Phase::ProbeDown:
        phase_ = Phase::ProbeUp;
        probes_++;
        SetTarget(KneeTarget() * kHeadroom * kProbeStep, now);
        return;
    case Phase::ProbeUp:
        phase_ = Phase::Cruise;
        cruise_steps_ = 0;
        SetTarget(KneeTarget() * kHeadroom, now);
        return;
    case Phase::Pinned:
        return;
    }
}

double InFlightController::BestBandwidth() const {
    double best = 0;
    for (const Step& step : recent_) {
        best = std::max(best, step.bandwidth);
    }
    return best;
}

double InFlightController::KneeTarget() const {
    // The fewest requests in flight among recent steps that had nearly the best bandwidth.
    double best = BestBandwidth();
    double knee = ceiling_;
    for (const Step& step : recent_) {
        if (step.bandwidth >= kNearlyBest * best) {
            knee = std::min(knee, step.target);
        }
    }
    return recent_.empty() ? target_value_ : knee;
}

void InFlightController::Remeasure(Clock::time_point now) {
    measuring_ = false;
    measure_from_ = now;
}

void InFlightController::SetTarget(double target, Clock::time_point now) {
    target_value_ = std::clamp(target, std::min(kMinimumTarget, ceiling_), ceiling_);
    auto rounded = static_cast<uint32_t>(std::lround(target_value_));
    if (history_.empty() || history_.back().second != rounded) {
        history_.emplace_back(std::chrono::duration<double>(now - origin_).count(), rounded);
    }
    target_.store(rounded, std::memory_order_relaxed);
    measuring_ = false;
    measure_from_ = now + std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double>(StepSeconds()));
}

std::string InFlightController::Describe() const {
    std::lock_guard<std::mutex> guard(mutex_);
    char text[256];
    if (phase_ == Phase::Pinned) {
        std::snprintf(text, sizeof(text), "in flight per host %u (pinned by http_max_in_flight)",
                      target_.load());
        return text;
    }
    std::snprintf(
        text, sizeof(text),
        "in flight per host %u, self-tuned (%s; %zu changes, %llu probes): %.0fx the knee, "
        "%.0f requests with 95%% of the best bandwidth seen, %.1f MB/s; first byte %.0f "
        "ms, request %.3f s",
        target_.load(), PhaseName(phase_), history_.size() - 1,
        static_cast<unsigned long long>(probes_), kHeadroom, KneeTarget(), BestBandwidth() / 1e6,
        min_first_byte_seconds_ * 1000, mean_request_seconds_);
    return text;
}

std::vector<std::pair<double, uint32_t>> InFlightController::History() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return history_;
}

std::shared_ptr<InFlightController> InFlightControllers::For(const std::string& host,
                                                             uint32_t ceiling) {
    std::lock_guard<std::mutex> guard(mutex_);
    auto& controller = controllers_[host];
    if (!controller) {
        controller =
            std::make_shared<InFlightController>(ceiling, InFlightController::Clock::now());
    }
    return controller;
}

} // namespace sluice
