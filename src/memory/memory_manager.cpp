#include "memory/memory_manager.hpp"

#include "common/exception.hpp"
#include "common/memory_size.hpp"

#include <algorithm>

namespace sluice {

bool MemoryManager::TryAdd(idx_t bytes) {
    idx_t used = used_.fetch_add(bytes) + bytes;
    if (used > limit_.load()) {
        used_.fetch_sub(bytes);
        return false;
    }
    NotePeak(used);
    NoteGrowth(bytes);
    return true;
}

bool MemoryManager::TryReserve(idx_t bytes) {
    if (TryAdd(bytes)) {
        return true;
    }
    if (reclaimer_) {
        reclaimer_();
        return TryAdd(bytes);
    }
    return false;
}

void MemoryManager::Reserve(idx_t bytes, const std::string& owner) {
    if (TryReserve(bytes)) {
        return;
    }
    throw Exception(ErrorKind::OutOfMemory, "could not allocate " + FormatMemorySize(bytes) +
                                                " for " + owner + " (memory_limit " +
                                                FormatMemorySize(limit_.load()) + ", " +
                                                FormatMemorySize(used_.load()) + " in use)");
}

idx_t MemoryManager::ReservePartly(idx_t bytes) {
    idx_t used = used_.load();
    while (true) {
        idx_t limit = limit_.load();
        idx_t take = used >= limit ? 0 : std::min(bytes, limit - used);
        if (take == 0 || used_.compare_exchange_weak(used, used + take)) {
            NotePeak(used + take);
            NoteGrowth(take);
            return take;
        }
    }
}

void MemoryManager::Release(idx_t bytes) {
    used_.fetch_sub(bytes);
}

void MemoryManager::NoteGrowth(idx_t bytes) {
    if (!trimmer_) {
        return;
    }
    idx_t grown = reserved_since_check_.fetch_add(bytes) + bytes;
    if (grown >= std::max(limit_.load() / 16, kTrimCheckBytes)) {
        // Two threads crossing the mark at once may both check: harmless.
        reserved_since_check_.store(0);
        trimmer_();
    }
}

std::atomic<idx_t>* MemoryManager::OwnerCounter(const std::string& owner) {
    std::lock_guard<std::mutex> guard(owners_mutex_);
    auto& counter = owners_[owner];
    if (!counter) {
        counter = std::make_unique<std::atomic<idx_t>>(0);
    }
    return counter.get();
}

std::vector<std::pair<std::string, idx_t>> MemoryManager::UsageByOwner() const {
    std::lock_guard<std::mutex> guard(owners_mutex_);
    std::vector<std::pair<std::string, idx_t>> usage;
    for (const auto& [owner, counter] : owners_) {
        if (counter->load() > 0) {
            usage.emplace_back(owner, counter->load());
        }
    }
    return usage;
}

MemoryReservation::~MemoryReservation() {
    if (manager_ && size_ > 0) {
        manager_->Release(size_);
    }
    if (statistics_) {
        statistics_->Shrink(size_);
    }
    if (owner_counter_) {
        owner_counter_->fetch_sub(size_);
    }
}

void MemoryReservation::SetStatistics(MemoryStatistics* statistics) {
    if (statistics_) {
        statistics_->Shrink(size_);
    }
    statistics_ = statistics;
    if (statistics_) {
        statistics_->Grow(size_);
    }
}

void MemoryReservation::Record(idx_t bytes) {
    if (owner_counter_) {
        owner_counter_->fetch_add(bytes - size_); // wraps correctly when shrinking
    }
    if (statistics_ && bytes > size_) {
        statistics_->Grow(bytes - size_);
    } else if (statistics_) {
        statistics_->Shrink(size_ - bytes);
    }
    size_ = bytes;
    peak_ = std::max(peak_, size_);
}

void MemoryReservation::Resize(idx_t bytes) {
    if (manager_ && bytes > size_) {
        manager_->Reserve(bytes - size_, owner_);
    } else if (manager_ && bytes < size_) {
        manager_->Release(size_ - bytes);
    }
    Record(bytes);
}

void MemoryReservation::ForceResize(idx_t bytes) {
    if (manager_ && bytes > size_ && !manager_->TryReserve(bytes - size_)) {
        manager_->ReserveForced(bytes - size_);
    } else if (manager_ && bytes < size_) {
        manager_->Release(size_ - bytes);
    }
    Record(bytes);
}

bool MemoryReservation::TryResize(idx_t bytes) {
    if (manager_ && bytes > size_ && !manager_->TryReserve(bytes - size_)) {
        return false;
    }
    if (manager_ && bytes < size_) {
        manager_->Release(size_ - bytes);
    }
    Record(bytes);
    return true;
}

} // namespace sluice
