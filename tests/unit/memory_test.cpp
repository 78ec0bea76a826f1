#include "common/exception.hpp"
#include "memory/memory_manager.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace sluice {

TEST(Memory, ReservationsCountAgainstTheLimitAndGiveBack) {
    MemoryManager manager(1000);
    {
        MemoryReservation a(&manager, "a");
        MemoryReservation b(&manager, "b");
        a.Resize(600);
        b.Resize(300);
        EXPECT_EQ(manager.used(), 900u);
        try {
            b.Resize(500);
            FAIL() << "a reservation past the limit must fail";
        } catch (const Exception& error) {
            EXPECT_EQ(error.Kind(), ErrorKind::OutOfMemory);
            EXPECT_NE(std::string(error.what()).find("for b"), std::string::npos);
        }
        EXPECT_EQ(b.size(), 300u); // unchanged by the failed growth
        EXPECT_EQ(manager.used(), 900u);
        a.Resize(100);
        b.Resize(800);
        EXPECT_EQ(manager.used(), 900u);
    }
    EXPECT_EQ(manager.used(), 0u);
}

TEST(Memory, LimitCanChangeAndNullManagerIsUnaccounted) {
    MemoryManager manager(100);
    MemoryReservation reservation(&manager, "x");
    EXPECT_THROW(reservation.Resize(200), Exception);
    manager.SetLimit(300);
    reservation.Resize(200);
    EXPECT_EQ(manager.used(), 200u);
    MemoryReservation free_standing(nullptr, "y");
    free_standing.Resize(1ULL << 40);
    EXPECT_EQ(free_standing.size(), 1ULL << 40);
}

} // namespace sluice
