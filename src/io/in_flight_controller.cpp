#include "io/in_flight_controller.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sluice {

namespace {

constexpr double kProbeStep = 1.25;
constexpr double kHeadroom = 1.15; // above the knee: the bandwidth's ups and downs
constexpr size_t kRecentSteps = 10;
constexpr int kStartupStalls = 2;       // steps without growth that end the startup
constexpr double kStillSaturated = 0.9; // draining: the bandwidth did not really drop

const char* PhaseName(InFlightController::Phase phase) {
    switch (phase) {
    case InFlightController::Phase::Startup:
        return "startup";
    case InFlightController::Phase::Drain:
        return "drain";
    case InFlightController::Phase::Cruise:
        return "cruise";
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
    if (measuring_) {
        step_bytes_ += static_cast<double>(bytes);
        step_request_seconds_ += seconds;
    }
    mean_request_seconds_ = completed_ == 1 ? seconds : mean_request_seconds_ * 0.875 + seconds / 8;
    if (first_byte_seconds > 0 &&
        (min_first_byte_seconds_ == 0 || first_byte_seconds < min_first_byte_seconds_)) {
        min_first_byte_seconds_ = first_byte_seconds;
    }
}

double InFlightController::StepSeconds() const {
    // One request duration lets a new target take effect (requests started under the old one
    // end); bounded so that fast links still average over enough bytes and slow ones still move.
    return completed_ == 0 ? 0.1 : std::clamp(mean_request_seconds_, 0.05, 1.0);
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
        // Longer than a request, so that bursts of answers do not fall in or out of it whole.
        step_end_ = now + std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double>(1.5 * StepSeconds()));
        step_bytes_ = 0;
        step_request_seconds_ = 0;
        return;
    }
    if (now < step_end_) {
        return;
    }
    bool limiting = waited_.exchange(false, std::memory_order_relaxed);
    if (!limiting || step_request_seconds_ <= 0) {
        // Nothing waited for the target (the query, not the target, set this step's pace), or
        // nothing ended: measure again.
        Remeasure(now);
        return;
    }
    // Little's law: with the target's requests in flight all the time, the bandwidth is the
    // target times what one request delivers per second of its life. Unlike bytes per second of
    // the step, it does not jump with the answers of small requests that arrive together.
    Decide(target_value_ * step_bytes_ / step_request_seconds_, now);
}

void InFlightController::Decide(double bandwidth, Clock::time_point now) {
    recent_.push_back({target_value_, bandwidth});
    if (recent_.size() > kRecentSteps) {
        recent_.erase(recent_.begin());
    }
    if (phase_ == Phase::Startup) {
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
        // Past the knee, maybe far past: halve until the bandwidth drops, which shows the yield
        // of one request below the knee.
        phase_ = Phase::Drain;
        SetTarget(target_value_ / 2, now);
        return;
    }
    if (phase_ == Phase::Drain) {
        double best = 0;
        for (const Step& step : recent_) {
            best = std::max(best, step.bandwidth);
        }
        if (bandwidth >= kStillSaturated * best && target_value_ / 2 >= kMinimumTarget) {
            SetTarget(target_value_ / 2, now);
            return;
        }
        phase_ = Phase::Cruise;
        cruise_steps_ = 0;
        SetTarget(ModelTarget(), now);
        return;
    }
    // A cycle of kCruiseSteps steps at the model's target, one above it (more bandwidth, if the
    // link has it, raises the best seen) and one below (a better yield per request, if the target
    // was past the knee, lowers the model).
    if (phase_ == Phase::Cruise && ++cruise_steps_ < kCruiseSteps) {
        double model = ModelTarget();
        if (std::abs(model - target_value_) < 0.5) {
            Remeasure(now);
        } else {
            SetTarget(model, now);
        }
        return;
    }
    if (phase_ == Phase::Cruise) {
        phase_ = Phase::ProbeUp;
        probes_++;
        SetTarget(ModelTarget() * kProbeStep, now);
    } else if (phase_ == Phase::ProbeUp) {
        phase_ = Phase::ProbeDown;
        probes_++;
        SetTarget(ModelTarget() / kProbeStep, now);
    } else {
        phase_ = Phase::Cruise;
        cruise_steps_ = 0;
        SetTarget(ModelTarget(), now);
    }
}

double InFlightController::ModelTarget() const {
    // Little's law: the link's bandwidth over what one request in flight delivers when requests
    // do not yet compete (the best yield per request seen, from steps below the knee).
    double best = 0;
    double yield = 0;
    for (const Step& step : recent_) {
        best = std::max(best, step.bandwidth);
        yield = std::max(yield, step.bandwidth / step.target);
    }
    return yield > 0 ? kHeadroom * best / yield : target_value_;
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
    double best = 0;
    double yield = 0;
    for (const Step& step : recent_) {
        best = std::max(best, step.bandwidth);
        yield = std::max(yield, step.bandwidth / step.target);
    }
    std::snprintf(text, sizeof(text),
                  "in flight per host %u, self-tuned (%s; %zu changes, %llu probes): link %.1f "
                  "MB/s / %.2f MB/s per request below the knee x %.2f headroom; first byte %.0f "
                  "ms, request %.3f s",
                  target_.load(), PhaseName(phase_), history_.size() - 1,
                  static_cast<unsigned long long>(probes_), best / 1e6, yield / 1e6, kHeadroom,
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
