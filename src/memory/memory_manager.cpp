#include "memory/memory_manager.hpp"

#include "common/exception.hpp"
#include "common/memory_size.hpp"

namespace sluice {

void MemoryManager::Reserve(idx_t bytes, const std::string& owner) {
    idx_t used = used_.fetch_add(bytes) + bytes;
    if (used > limit_.load()) {
        used_.fetch_sub(bytes);
        throw Exception(ErrorKind::OutOfMemory, "could not allocate " + FormatMemorySize(bytes) +
                                                    " for " + owner + " (memory_limit " +
                                                    FormatMemorySize(limit_.load()) + ", " +
                                                    FormatMemorySize(used - bytes) + " in use)");
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
