#include "common/exception.hpp"
#include "memory/allocator.hpp"
#include "memory/freed_memory_trimmer.hpp"
#include "memory/huge_page_allocator.hpp"
#include "memory/memory_manager.hpp"
#include "memory/temporary_memory_manager.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

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

TEST(Memory, UsageIsKnownPerOwnerAndAtItsPeak) {
    MemoryManager manager(1000);
    {
        MemoryReservation a(&manager, "a hash join");
        MemoryReservation b(&manager, "ORDER BY");
        MemoryReservation c(&manager, "ORDER BY");
        a.Resize(100);
        b.Resize(200);
        c.Resize(300);
        c.Resize(50);
        auto usage = manager.UsageByOwner();
        ASSERT_EQ(usage.size(), 2u);
        EXPECT_EQ(usage[0], (std::pair<std::string, idx_t>("ORDER BY", 250)));
        EXPECT_EQ(usage[1], (std::pair<std::string, idx_t>("a hash join", 100)));
        EXPECT_EQ(manager.peak(), 600u);
        EXPECT_FALSE(b.TryResize(2000));
        EXPECT_EQ(b.size(), 200u);
        b.ForceResize(2000); // past the limit: the least an operator needs
        EXPECT_EQ(manager.used(), 2150u);
        EXPECT_EQ(manager.peak(), 2150u);
    }
    EXPECT_TRUE(manager.UsageByOwner().empty());
    manager.ResetPeak();
    EXPECT_EQ(manager.peak(), 0u);
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

// The trimmer (which returns freed pages when RSS passes the limit) is asked after every
// sixteenth of the limit that reservations grow by, whichever way they grow, and never on release.
TEST(Memory, TheTrimmerIsAskedAsReservationsGrow) {
    const idx_t limit = 64 * MemoryManager::kTrimCheckBytes;
    MemoryManager manager(limit);
    int checks = 0;
    manager.SetTrimmer([&] { checks++; });
    MemoryReservation reservation(&manager, "r");
    const idx_t step = limit / 16;
    reservation.Resize(step - 1);
    EXPECT_EQ(checks, 0);
    reservation.Resize(step);
    EXPECT_EQ(checks, 1);
    reservation.Resize(0); // releases are not growth
    EXPECT_EQ(checks, 1);
    EXPECT_TRUE(reservation.TryResize(step));
    EXPECT_EQ(checks, 2);
    reservation.ForceResize(limit + 2 * step);
    EXPECT_EQ(checks, 3); // one check, however far a single step goes
    manager.SetTrimmer(nullptr);
    reservation.Resize(0);
    reservation.Resize(limit / 2);
    EXPECT_EQ(checks, 3);
}

// Asked once, the trimmer trims for as long as the process is too large, every interval, then
// sleeps until asked again.
TEST(Memory, TheTrimmerTrimsWhileTheProcessIsTooLargeThenSleeps) {
    std::atomic<int> checks_left{3};
    FreedMemoryTrimmer trimmer([&] { return checks_left.fetch_sub(1) > 0; });
    EXPECT_EQ(trimmer.trims(), 0u);
    trimmer.Request();
    for (int i = 0; i < 500 && checks_left.load() >= 0; i++) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::this_thread::sleep_for(3 * FreedMemoryTrimmer::kInterval);
    EXPECT_EQ(trimmer.trims(), 3u);
    checks_left.store(1);
    trimmer.Request();
    for (int i = 0; i < 500 && trimmer.trims() < 4; i++) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::this_thread::sleep_for(3 * FreedMemoryTrimmer::kInterval);
    EXPECT_EQ(trimmer.trims(), 4u);
}

// Freed memory goes back to the system once no statement has run for the idle delay: not while
// one runs, not at once when one ends (the next reuses it), and a statement started within the
// delay puts it off.
TEST(Memory, TheTrimmerTrimsOnceNoStatementHasRunForTheIdleDelay) {
    constexpr auto kDelay = std::chrono::milliseconds(200);
    FreedMemoryTrimmer trimmer([] { return false; }, kDelay);
    auto wait_for_idle_trims = [&](unsigned long count) {
        for (int i = 0; i < 300 && trimmer.idle_trims() < count; i++) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    };
    // A freed hash-table mapping kept for reuse: released by the idle trim.
    constexpr size_t kBytes = size_t(3) << 20;
    ReleaseCachedRandomAccessMemory(); // what tests before this one left
    SetRandomAccessCacheLimit(size_t(8) << 20);
    void* kept = AllocateForRandomAccess(kBytes);
    FreeForRandomAccess(kept, kBytes);

    trimmer.StatementStarted();
    trimmer.StatementStarted(); // two connections
    trimmer.StatementEnded();
    std::this_thread::sleep_for(2 * kDelay);
    EXPECT_EQ(trimmer.idle_trims(), 0u);                   // one still runs
    EXPECT_EQ(CachedRandomAccessBytes(), size_t(4) << 20); // a whole number of huge pages

    auto ended = std::chrono::steady_clock::now();
    trimmer.StatementEnded();
    wait_for_idle_trims(1);
    EXPECT_EQ(trimmer.idle_trims(), 1u);
    EXPECT_GE(std::chrono::steady_clock::now() - ended, kDelay);
    EXPECT_EQ(CachedRandomAccessBytes(), 0u);
    SetRandomAccessCacheLimit(0);

    // Another statement right after the first: the trim waits for the idle delay after it.
    trimmer.StatementStarted();
    trimmer.StatementEnded();
    trimmer.StatementStarted();
    std::this_thread::sleep_for(2 * kDelay);
    EXPECT_EQ(trimmer.idle_trims(), 1u);
    trimmer.StatementEnded();
    wait_for_idle_trims(2);
    EXPECT_EQ(trimmer.idle_trims(), 2u);
    std::this_thread::sleep_for(2 * kDelay);
    EXPECT_EQ(trimmer.idle_trims(), 2u); // once per idle spell
    EXPECT_EQ(trimmer.trims(), 0u);      // never too large here
}

TEST(TemporaryMemory, GrantsAreSharedAndPartial) {
    MemoryManager memory(1000);
    TemporaryMemoryManager temporary(memory);
    auto a = temporary.Register(100);
    // Temporary states get at most half the limit together.
    EXPECT_EQ(a->Request(10000), 500u);
    EXPECT_EQ(memory.used(), 500u);
    EXPECT_EQ(a->Request(200), 200u); // asking for less gives back the rest
    EXPECT_EQ(memory.used(), 200u);
    EXPECT_EQ(a->Request(10000), 500u);
    auto b = temporary.Register(0);
    EXPECT_EQ(b->Request(10000), 250u); // an even share of the allowance
    EXPECT_EQ(a->Request(10000), 250u); // and the first state comes down to its share
    EXPECT_EQ(memory.used(), 500u);
    b.reset();
    EXPECT_EQ(memory.used(), 250u);
    a.reset();
    EXPECT_EQ(memory.used(), 0u);
}

TEST(TemporaryMemory, OrdinaryReservationsReclaimUnusedGrants) {
    MemoryManager memory(1000);
    TemporaryMemoryManager temporary(memory);
    auto scan = temporary.Register(50);
    EXPECT_EQ(scan->Request(10000), 500u);
    scan->SetInUse(100);
    {
        // 700 more would pass the limit; the unused 400 of the grant are taken back first.
        MemoryReservation join(&memory, "a hash join");
        join.Resize(700);
        EXPECT_EQ(scan->granted(), 100u);
        EXPECT_EQ(scan->shrinks(), 1u);
        EXPECT_EQ(memory.used(), 800u);
        // Under pressure the next request gets only what is free.
        EXPECT_EQ(scan->Request(10000), 300u);
        // What the state holds is never taken: this still fails.
        EXPECT_THROW(join.Resize(1000), Exception);
    }
    EXPECT_EQ(scan->Request(10000), 500u); // memory returned: the grant grows again
}

TEST(TemporaryMemory, TheMinimumIsGrantedEvenPastTheLimit) {
    MemoryManager memory(1000);
    TemporaryMemoryManager temporary(memory);
    MemoryReservation other(&memory, "other");
    other.Resize(1000);
    auto state = temporary.Register(64);
    EXPECT_EQ(state->Request(500), 64u);
    EXPECT_EQ(memory.used(), 1064u);
}

TEST(Memory, FreedHugeMappingsAreKeptForTheNextAllocationOfTheirSize) {
    constexpr size_t kBytes = size_t(3) << 20;
    SetRandomAccessCacheLimit(size_t(8) << 20);
    auto* first = static_cast<uint8_t*>(AllocateForRandomAccess(kBytes));
    first[kBytes - 1] = 7;
    FreeForRandomAccess(first, kBytes);
    auto* second = static_cast<uint8_t*>(AllocateForRandomAccess(kBytes));
    EXPECT_EQ(second, first); // the kept mapping, not a new one
    FreeForRandomAccess(second, kBytes);
    ReleaseCachedRandomAccessMemory();
    SetRandomAccessCacheLimit(0);
}

TEST(Memory, FreedHugeMappingsAreNotKeptAboveTheResidentCeiling) {
    constexpr size_t kBytes = size_t(3) << 20;
    ReleaseCachedRandomAccessMemory(); // what tests before this one left
    SetRandomAccessCacheLimit(size_t(8) << 20, ResidentMemory() + (size_t(1) << 30));
    void* kept = AllocateForRandomAccess(kBytes);
    FreeForRandomAccess(kept, kBytes);
    EXPECT_EQ(CachedRandomAccessBytes(), size_t(4) << 20); // below the ceiling: kept
    ReleaseCachedRandomAccessMemory();
    SetRandomAccessCacheLimit(size_t(8) << 20, 1); // any process is above 1 byte
    void* freed = AllocateForRandomAccess(kBytes);
    FreeForRandomAccess(freed, kBytes);
    EXPECT_EQ(CachedRandomAccessBytes(), 0u);
    SetRandomAccessCacheLimit(0);
}

TEST(Memory, RandomAccessArraysMoveTheirMemory) {
    RandomAccessArray<uint32_t> array(size_t(1) << 20); // 4 MiB: a mapping of its own
    std::fill(array.data(), array.data() + array.size(), 5u);
    RandomAccessArray<uint32_t> moved(std::move(array));
    EXPECT_EQ(array.size(), 0u);
    EXPECT_EQ(moved.size(), size_t(1) << 20);
    EXPECT_EQ(moved[12345], 5u);
    array = std::move(moved);
    EXPECT_EQ(array[(size_t(1) << 20) - 1], 5u);
}

} // namespace sluice
