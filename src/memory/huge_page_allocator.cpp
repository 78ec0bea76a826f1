#include "memory/huge_page_allocator.hpp"

#include <cstdint>
#include <new>
#include <sys/mman.h>

namespace sluice {

namespace {

constexpr size_t kHugePage = size_t(2) << 20;

size_t MappedBytes(size_t bytes) {
    return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}

} // namespace

void* AllocateForRandomAccess(size_t bytes) {
    if (bytes < kHugePage) {
        return ::operator new(bytes);
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
    munmap(data, MappedBytes(bytes));
}

} // namespace sluice
