#include "memory/memory_manager.hpp"

#include "common/exception.hpp"
#include "common/memory_size.hpp"

#include <algorithm>

namespace sluice {

bool MemoryManager::TryReserve(idx_t bytes) {
    idx_t used = used_.fetch_add(bytes) + bytes;
    if (used > limit_.load()) {
        used_.fetch_sub(bytes);
        return false;
    }
    return true;
}

void MemoryManager::Reserve(idx_t bytes, const std::string& owner) {
    if (TryReserve(bytes)) {
        return;
    }
    if (reclaimer_) {
        reclaimer_();
        if (TryReserve(bytes)) {
            return;
        }
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
            return take;
        }
    }
}

void MemoryManager::Release(idx_t bytes) {
    used_.fetch_sub(bytes);
}

MemoryReservation::~MemoryReservation() {
    if (manager_ && size_ > 0) {
        manager_->Release(size_);
    }
}

void MemoryReservation::Resize(idx_t bytes) {
    if (!manager_ || bytes == size_) {
        size_ = bytes;
        return;
    }
    if (bytes > size_) {
        manager_->Reserve(bytes - size_, owner_);
    } else {
        manager_->Release(size_ - bytes);
    }
    size_ = bytes;
}

} // namespace sluice
