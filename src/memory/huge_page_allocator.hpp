#pragma once

#include <cstddef>

namespace sluice {

// Memory for large arrays read at random (hash tables' buckets and entries): from 2 MiB up,
// mapped on its own and advised to be backed by transparent huge pages, so that a random
// access costs a cache miss but rarely also a TLB miss and a page walk (a 4 KiB page covers
// a few dozen entries; a 2 MiB page, tens of thousands). Smaller blocks come from the heap.
void* AllocateForRandomAccess(size_t bytes);
void FreeForRandomAccess(void* data, size_t bytes);

// A std::allocator for vectors of such arrays.
template <class T>
struct RandomAccessAllocator {
    using value_type = T;
    RandomAccessAllocator() = default;
    template <class U>
    RandomAccessAllocator(const RandomAccessAllocator<U>&) {}
    T* allocate(size_t count) {
        return static_cast<T*>(AllocateForRandomAccess(count * sizeof(T)));
    }
    void deallocate(T* data, size_t count) { FreeForRandomAccess(data, count * sizeof(T)); }
    template <class U>
    bool operator==(const RandomAccessAllocator<U>&) const {
        return true;
    }
};

} // namespace sluice
