#include "memory/huge_page_allocator.hpp"

#include "memory/allocator.hpp"

#include <cstdint>
#include <map>
#include <mutex>
#include <new>
#include <sys/mman.h>

namespace sluice {

namespace {

constexpr size_t kHugePage = size_t(2) << 20;

size_t MappedBytes(size_t bytes) {
    return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}

// Freed mappings by size, kept for reuse (SetRandomAccessCacheLimit).
class MappingCache {
public:
    void* Take(size_t mapped) {
        std::lock_guard<std::mutex> guard(mutex_);
        auto found = free_.find(mapped);
        if (found == free_.end()) {
            return nullptr;
        }
        void* data = found->second;
        free_.erase(found);
        bytes_ -= mapped;
        return data;
    }
    bool Keep(void* data, size_t mapped) {
        uint64_t resident = ResidentMemory(); // a read of /proc: not under the lock
        std::lock_guard<std::mutex> guard(mutex_);
        if (bytes_ + mapped > limit_ || resident >= resident_ceiling_) {
            return false;
        }
        free_.emplace(mapped, data);
        bytes_ += mapped;
        return true;
    }
    void SetLimit(size_t limit, size_t resident_ceiling) {
        std::lock_guard<std::mutex> guard(mutex_);
        limit_ = limit;
        resident_ceiling_ = resident_ceiling;
        ReleaseAbove(limit);
    }
    void Release() {
        std::lock_guard<std::mutex> guard(mutex_);
        ReleaseAbove(0);
    }
    size_t bytes() {
        std::lock_guard<std::mutex> guard(mutex_);
        return bytes_;
    }

private:
    void ReleaseAbove(size_t limit) {
        while (bytes_ > limit) {
            auto largest = std::prev(free_.end());
            munmap(largest->second, largest->first);
            bytes_ -= largest->first;
            free_.erase(largest);
        }
    }

    std::mutex mutex_;
    std::multimap<size_t, void*> free_;
    size_t bytes_ = 0;
    size_t limit_ = 0;
    size_t resident_ceiling_ = SIZE_MAX;
};

MappingCache& Cache() {
    static MappingCache* cache = new MappingCache(); // never destroyed: frees may come late
    return *cache;
}

} // namespace

void SetRandomAccessCacheLimit(size_t bytes, size_t resident_ceiling) {
    Cache().SetLimit(bytes, resident_ceiling);
}

void ReleaseCachedRandomAccessMemory() {
    Cache().Release();
}

size_t CachedRandomAccessBytes() {
    return Cache().bytes();
}

void* AllocateForRandomAccess(size_t bytes) {
    if (bytes < kHugePage) {
        return ::operator new(bytes);
    }
    if (void* kept = Cache().Take(MappedBytes(bytes))) {
        return kept;
    }
    // Mapped one huge page larger, then trimmed to a huge page boundary at both ends: the kernel
    // backs only aligned 2 MiB ranges with huge pages.
    size_t mapped = MappedBytes(bytes);
    void* raw = mmap(nullptr, mapped + kHugePage, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) {
        throw std::bad_alloc();
    }
    auto start = reinterpret_cast<uintptr_t>(raw);
    uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
    if (aligned > start) {
        munmap(raw, aligned - start);
    }
    size_t after = start + mapped + kHugePage - (aligned + mapped);
    if (after > 0) {
        munmap(reinterpret_cast<void*>(aligned + mapped), after);
    }
    madvise(reinterpret_cast<void*>(aligned), mapped, MADV_HUGEPAGE);
    return reinterpret_cast<void*>(aligned);
}

void FreeForRandomAccess(void* data, size_t bytes) {
    if (bytes < kHugePage) {
        ::operator delete(data);
        return;
    }
    if (!Cache().Keep(data, MappedBytes(bytes))) {
        munmap(data, MappedBytes(bytes));
    }
}

} // namespace sluice
