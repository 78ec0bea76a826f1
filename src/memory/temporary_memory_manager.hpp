#pragma once

#include "memory/memory_manager.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sluice {

class TemporaryMemoryManager;

// One operator's share of temporary memory: memory that makes it faster but that it can do
// without down to a minimum (a scan's read-ahead buffers; later the spilling join, aggregate and
// sort). The grant is reserved in the MemoryManager, so every other operator sees it as used.
// Thread-safe.
class TemporaryMemoryState {
public:
    ~TemporaryMemoryState();
    TemporaryMemoryState(const TemporaryMemoryState&) = delete;
    TemporaryMemoryState& operator=(const TemporaryMemoryState&) = delete;

    // Asks for a grant of `wanted` bytes in all; returns what is granted: at least the minimum,
    // at most `wanted`, less when memory is short (a partial grant).
    idx_t Request(idx_t wanted);
    idx_t granted() const { return granted_.load(); }
    // What the owner actually holds. The manager never shrinks a grant below it (or below the
    // minimum) when it reclaims memory for others.
    void SetInUse(idx_t bytes) { in_use_.store(bytes); }
    idx_t in_use() const { return in_use_.load(); }
    idx_t minimum() const { return minimum_; }
    // Times the manager took back part of this grant (memory pressure).
    uint64_t shrinks() const { return shrinks_.load(); }

private:
    friend class TemporaryMemoryManager;
    TemporaryMemoryState(TemporaryMemoryManager& manager, idx_t minimum)
        : manager_(manager), minimum_(minimum) {}
    // Gives back what is granted beyond max(minimum, in use); returns the bytes given back.
    idx_t Shrink();

    TemporaryMemoryManager& manager_;
    const idx_t minimum_;
    std::mutex mutex_; // serialises changes of the grant
    std::atomic<idx_t> granted_{0};
    std::atomic<idx_t> in_use_{0};
    std::atomic<uint64_t> shrinks_{0};
};

// Shares the memory under memory_limit that nobody has reserved among the temporary states.
// Temporary states together get at most half of the limit, split evenly among the states that
// want it; when an ordinary reservation would fail, the manager first takes back whatever the
// states were granted but do not hold (MemoryManager's reclaimer), and their next Request sees
// the smaller share.
class TemporaryMemoryManager {
public:
    explicit TemporaryMemoryManager(MemoryManager& memory);
    ~TemporaryMemoryManager();

    std::unique_ptr<TemporaryMemoryState> Register(idx_t minimum);
    MemoryManager& memory() { return memory_; }
    // What the states hold granted now, and how many there are.
    idx_t Granted() const;
    idx_t StateCount() const;

    // Temporary states may hold together at most this fraction of memory_limit, so read-ahead
    // never crowds out the operators that must hold their data.
    static constexpr double kMaxShareOfLimit = 0.5;

private:
    friend class TemporaryMemoryState;
    void Unregister(TemporaryMemoryState* state);
    // The most one state may hold now: an even share of the temporary allowance.
    idx_t FairShare() const;
    void Reclaim();

    MemoryManager& memory_;
    mutable std::mutex mutex_;
    std::vector<TemporaryMemoryState*> states_;
};

} // namespace sluice
