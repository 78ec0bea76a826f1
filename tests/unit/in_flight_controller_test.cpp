// The in-flight controller against simulated links on a virtual clock: a link is a function from
// requests in flight to bandwidth, and the controller must find its knee (the fewest requests that
// get nearly all of it) and keep twice that, grow to the ceiling on a link that only has latency,
// leave the target alone when the query asks for less, and keep a pinned target.
#include "io/in_flight_controller.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>

namespace sluice {
namespace {

using Clock = InFlightController::Clock;

struct SimulatedLink {
    double first_byte_seconds;
    double request_bytes;
    double stream_bytes_per_second; // one connection's limit
    double link_bytes_per_second;   // the link's, or the query's consumption (CPU-bound)
    uint32_t demand = 100000;       // requests the query has ready

    double Bandwidth(double in_flight) const {
        double unloaded = first_byte_seconds + request_bytes / stream_bytes_per_second;
        return std::min(link_bytes_per_second, in_flight * request_bytes / unloaded);
    }
};

// Runs `seconds` of simulated time in 5 ms ticks, with +-3% noise on the bandwidth, and returns
// the mean target over the last `tail_seconds`.
double Simulate(InFlightController& controller, const SimulatedLink& link, double seconds,
                double tail_seconds, Clock::time_point& now) {
    std::minstd_rand random(7);
    std::uniform_real_distribution<double> noise(0.97, 1.03);
    const auto tick = std::chrono::milliseconds(5);
    double tail_sum = 0;
    int tail_ticks = 0;
    int ticks = static_cast<int>(seconds / 0.005);
    double completions = 0;
    for (int i = 0; i < ticks; i++) {
        double in_flight = std::min<double>(controller.target(), link.demand);
        if (link.demand > controller.target()) {
            controller.Waited();
        }
        double bandwidth = link.Bandwidth(in_flight) * noise(random);
        controller.Received(static_cast<uint64_t>(bandwidth * 0.005));
        // Little's law: a request takes in_flight x size / bandwidth.
        double request_seconds = in_flight * link.request_bytes / bandwidth;
        completions += bandwidth * 0.005 / link.request_bytes;
        for (; completions >= 1; completions--) {
            controller.Completed(request_seconds, link.first_byte_seconds,
                                 static_cast<uint64_t>(link.request_bytes));
        }
        now += tick;
        controller.Tick(now);
        if (i >= ticks - static_cast<int>(tail_seconds / 0.005)) {
            tail_sum += controller.target();
            tail_ticks++;
        }
    }
    return tail_sum / tail_ticks;
}

TEST(InFlightController, FindsTheKneeOfALinkLimitedByConnectionsAndBandwidth) {
    // The rig's far profile: 80 ms to first byte, 10 MB/s per connection, 100 MB/s in all, 1 MB
    // requests. A request holds its slot 0.18 s unloaded, so 18 requests fill the link.
    SimulatedLink far{0.080, 1e6, 10e6, 100e6};
    auto now = Clock::now();
    InFlightController controller(512, now);
    double target = Simulate(controller, far, 30, 10, now);
    // Twice the knee is kept in flight: half the target nearly fills the link, and the target is
    // not far beyond twice the knee.
    EXPECT_GE(far.Bandwidth(target / 2), 0.9 * far.link_bytes_per_second) << controller.Describe();
    EXPECT_LE(target, 2 * 18 * 2) << controller.Describe();
}

TEST(InFlightController, KeepsFewRequestsWhenTheQueryConsumesSlowerThanTheLink) {
    // The lan profile with a CPU-bound query: 300 MB/s consumed, 1 ms to first byte, 200 MB/s
    // per connection: two requests carry it, and more only delay the oldest job's bytes.
    SimulatedLink lan{0.001, 1e6, 200e6, 300e6};
    auto now = Clock::now();
    InFlightController controller(512, now);
    double target = Simulate(controller, lan, 20, 5, now);
    EXPECT_LE(target, 6) << controller.Describe();
    EXPECT_GE(lan.Bandwidth(target), 0.9 * lan.link_bytes_per_second);
}

TEST(InFlightController, GrowsToTheCeilingOnALinkThatOnlyHasLatency) {
    // 200 ms per request and tiny bodies: every request more is bandwidth more.
    SimulatedLink latency{0.200, 8e3, 1e9, 1e12};
    auto now = Clock::now();
    InFlightController controller(512, now);
    Simulate(controller, latency, 3, 1, now);
    EXPECT_EQ(controller.target(), 512u) << controller.Describe();
    // Startup doubles, then quadruples while the bandwidth nearly doubles: 16, 32, 128, 512,
    // each step three request durations (0.6 s).
    auto history = controller.History();
    ASSERT_GE(history.size(), 4u);
    EXPECT_EQ(history[1].second, 32u);
    EXPECT_EQ(history[2].second, 128u);
    EXPECT_EQ(history[3].second, 512u);
    EXPECT_LT(history[3].first, 2.0);
}

TEST(InFlightController, LeavesTheTargetAloneWhenNothingWaits) {
    SimulatedLink far{0.080, 1e6, 10e6, 100e6};
    far.demand = 4; // the query never has more than 4 requests ready
    auto now = Clock::now();
    InFlightController controller(512, now);
    Simulate(controller, far, 10, 1, now);
    EXPECT_EQ(controller.target(), static_cast<uint32_t>(InFlightController::kInitialTarget));
    EXPECT_EQ(controller.History().size(), 1u);
}

TEST(InFlightController, APinnedTargetStaysAndTheCeilingBounds) {
    SimulatedLink far{0.080, 1e6, 10e6, 100e6};
    auto now = Clock::now();
    InFlightController controller(512, now);
    controller.SetLimits(512, 7);
    Simulate(controller, far, 5, 1, now);
    EXPECT_EQ(controller.target(), 7u);
    EXPECT_NE(controller.Describe().find("pinned"), std::string::npos);
    controller.SetLimits(4, 7);
    EXPECT_EQ(controller.target(), 4u);
    // Unpinned, it tunes again, within the ceiling.
    controller.SetLimits(12, 0);
    Simulate(controller, far, 10, 1, now);
    EXPECT_EQ(controller.target(), 12u) << controller.Describe();
}

TEST(InFlightController, EstimatesWhatOneRequestSeesOfTheLink) {
    // Pinned at 32 on the far link: 100 MB/s shared by 32 requests of 1 MB, so each takes 0.32 s,
    // 80 ms of it waiting for its first byte; its body arrives at 1 MB / 0.24 s.
    SimulatedLink far{0.080, 1e6, 10e6, 100e6};
    auto now = Clock::now();
    InFlightController controller(512, now);
    EXPECT_FALSE(controller.Estimate().has_value());
    controller.SetLimits(512, 32);
    Simulate(controller, far, 5, 1, now);
    auto estimate = controller.Estimate();
    ASSERT_TRUE(estimate.has_value());
    EXPECT_NEAR(estimate->first_byte_seconds, 0.080, 1e-9);
    EXPECT_NEAR(estimate->bytes_per_second, 1e6 / 0.24, 0.05 * 1e6 / 0.24);
    EXPECT_FALSE(estimate->link_full); // pinned: nothing learnt about the link's knee
    // Self-tuned, the controller finds the knee of the far link below its ceiling.
    InFlightController tuned(512, now);
    Simulate(tuned, far, 30, 1, now);
    ASSERT_TRUE(tuned.Estimate().has_value());
    EXPECT_TRUE(tuned.Estimate()->link_full) << tuned.Describe();
    // On a link that only has latency it climbs to the ceiling: requests are what is scarce.
    SimulatedLink latency{0.200, 8e5, 1e9, 1e12};
    InFlightController climbing(64, now);
    Simulate(climbing, latency, 10, 1, now);
    ASSERT_TRUE(climbing.Estimate().has_value());
    EXPECT_FALSE(climbing.Estimate()->link_full) << climbing.Describe();
}

TEST(InFlightController, TimesOnlyBodiesLargeEnoughToMeasure) {
    auto now = Clock::now();
    InFlightController controller(512, now);
    for (int i = 0; i < 100; i++) {
        controller.Completed(0.0101, 0.010, 1000); // footers, page indexes: 1 KB each
    }
    EXPECT_FALSE(controller.Estimate().has_value());
}

} // namespace
} // namespace sluice
