#pragma once

#include "common/types.hpp"
#include "memory/memory_statistics.hpp"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace sluice {

class TemporaryDirectory;

// Tracks the memory operators hold against `memory_limit`. Operators do not allocate through
// it; they reserve what their data structures grow to (hash tables, materialised build sides,
// sort runs) with a MemoryReservation, and a reservation beyond the limit fails with an
// Out of Memory error instead of the process running out.
class MemoryManager {
public:
    explicit MemoryManager(idx_t limit) : limit_(limit) {}

    void SetLimit(idx_t limit) { limit_.store(limit); }
    idx_t limit() const { return limit_.load(); }
    idx_t used() const { return used_.load(); }
    // The most that was in use at once since the last ResetPeak.
    idx_t peak() const { return peak_.load(); }
    void ResetPeak() { peak_.store(used_.load()); }

    // Adds `bytes` to the memory in use; throws OutOfMemory (naming `owner`) if that would
    // pass the limit.
    // Before failing, the reclaimer (the TemporaryMemoryManager) is asked to give back memory
    // that temporary states were granted but do not use.
    void Reserve(idx_t bytes, const std::string& owner);
    // As Reserve, but returns false instead of throwing: the caller spills instead.
    bool TryReserve(idx_t bytes);
    // Adds up to `bytes` and returns how much was added (what fits under the limit).
    idx_t ReservePartly(idx_t bytes);
    // Adds `bytes` even past the limit: the minimum an operator needs to make progress at all.
    void ReserveForced(idx_t bytes) {
        NotePeak(used_.fetch_add(bytes) + bytes);
        NoteGrowth(bytes);
    }
    void Release(idx_t bytes);

    void SetReclaimer(std::function<void()> reclaimer) { reclaimer_ = std::move(reclaimer); }
    // Called on the reserving thread each time reservations have grown by a sixteenth of the
    // limit (at least kTrimCheckBytes) since the last call: the Database checks there whether
    // the process holds much more than is reserved (glibc keeps what a spilled hash table or a
    // finished sort freed in its arenas) and gives the free pages back. Set before queries run;
    // cleared before the callee goes.
    void SetTrimmer(std::function<void()> trimmer) { trimmer_ = std::move(trimmer); }
    static constexpr idx_t kTrimCheckBytes = 16 << 20;

    // The counter of memory held by reservations named `owner` (created on first use; stable).
    std::atomic<idx_t>* OwnerCounter(const std::string& owner);
    // Memory held now per owner name, owners holding nothing left out (sluice_memory()).
    std::vector<std::pair<std::string, idx_t>> UsageByOwner() const;

    // Where operators that cannot reserve more spill to; null: they cannot spill.
    void SetTemporaryDirectory(TemporaryDirectory* directory) { temporary_directory_ = directory; }
    TemporaryDirectory* temporary_directory() const { return temporary_directory_; }

private:
    bool TryAdd(idx_t bytes);
    void NoteGrowth(idx_t bytes);
    void NotePeak(idx_t used) {
        idx_t peak = peak_.load();
        while (used > peak && !peak_.compare_exchange_weak(peak, used)) {
        }
    }

    std::atomic<idx_t> limit_;
    std::atomic<idx_t> used_{0};
    std::atomic<idx_t> peak_{0};
    std::function<void()> reclaimer_;
    std::function<void()> trimmer_;
    std::atomic<idx_t> reserved_since_check_{0};
    TemporaryDirectory* temporary_directory_ = nullptr;
    mutable std::mutex owners_mutex_;
    std::map<std::string, std::unique_ptr<std::atomic<idx_t>>> owners_;
};

// Memory held by one operator's state, released when it is destroyed. Not thread-safe: one per
// task-local or global structure.
class MemoryReservation {
public:
    // `statistics` (optional) adds up the reservations of one operator.
    MemoryReservation(MemoryManager* manager, std::string owner,
                      MemoryStatistics* statistics = nullptr)
        : manager_(manager), owner_(std::move(owner)), statistics_(statistics),
          owner_counter_(manager ? manager->OwnerCounter(owner_) : nullptr) {}
    ~MemoryReservation();
    MemoryReservation(const MemoryReservation&) = delete;
    MemoryReservation& operator=(const MemoryReservation&) = delete;

    // Makes the reservation `bytes` (growing or shrinking it). Throws OutOfMemory when growing
    // past the limit; the reservation keeps its old size then.
    void Resize(idx_t bytes);
    void SetStatistics(MemoryStatistics* statistics);
    // As Resize, but returns false (keeping the old size) instead of throwing.
    bool TryResize(idx_t bytes);
    // As Resize, but past the limit if need be: for the least an operator needs to progress
    // at all (one merged partition), so that the others see the memory is gone and spill.
    void ForceResize(idx_t bytes);
    idx_t size() const { return size_; }
    // The largest size the reservation had.
    idx_t peak() const { return peak_; }
    MemoryManager* manager() const { return manager_; }

private:
    void Record(idx_t bytes); // the new size, also in the statistics

    MemoryManager* manager_; // null: not accounted (tests, tools)
    std::string owner_;
    MemoryStatistics* statistics_;
    std::atomic<idx_t>* owner_counter_;
    idx_t size_ = 0;
    idx_t peak_ = 0;
};

} // namespace sluice
