// When a slow request is sent again: the delay follows the recent first-byte times' tail.
#include "io/hedging_policy.hpp"

#include <gtest/gtest.h>

using namespace sluice;

TEST(HedgingPolicy, NoHedgingBeforeEnoughAnswers) {
    HedgingPolicy policy;
    for (size_t i = 1; i < HedgingPolicy::kMinimumSamples; i++) {
        policy.Record(0.5);
        EXPECT_FALSE(policy.Delay()) << i << " answers";
    }
    policy.Record(0.5);
    ASSERT_TRUE(policy.Delay());
    // All alike: three times the median, not the percentile (which would hedge for nothing).
    EXPECT_DOUBLE_EQ(*policy.Delay(), 1.5);
}

TEST(HedgingPolicy, TheDelayIsTheTailsPercentileWhenTheTailIsLong) {
    HedgingPolicy policy;
    // 60 answers at 0.2 s, 4 at 5 s: the 95th percentile of 64 is the 60th smallest (0.2 s),
    // so the median rule (0.6 s) holds; with 10 slow ones the percentile is 5 s.
    for (int i = 0; i < 60; i++) {
        policy.Record(0.2);
    }
    for (int i = 0; i < 4; i++) {
        policy.Record(5);
    }
    EXPECT_NEAR(*policy.Delay(), 0.6, 1e-12);
    for (int i = 0; i < 6; i++) {
        policy.Record(5); // replaces the oldest fast answers
    }
    EXPECT_DOUBLE_EQ(*policy.Delay(), 5);
}

TEST(HedgingPolicy, AFastLinkIsNotHedgedBelowTheFloor) {
    HedgingPolicy policy;
    for (int i = 0; i < 64; i++) {
        policy.Record(0.001);
    }
    EXPECT_DOUBLE_EQ(*policy.Delay(), HedgingPolicy::kFloorSeconds);
}
