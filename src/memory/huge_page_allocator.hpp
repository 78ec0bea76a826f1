#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace sluice {

// Memory for large arrays read at random (hash tables' buckets and entries): from 2 MiB up,
// mapped on its own and advised to be backed by transparent huge pages, so that a random
// access costs a cache miss but rarely also a TLB miss and a page walk (a 4 KiB page covers
// a few dozen entries; a 2 MiB page, tens of thousands). Smaller blocks come from the heap.
void* AllocateForRandomAccess(size_t bytes);
void FreeForRandomAccess(void* data, size_t bytes);

// Freed mappings are kept, up to this many bytes in all, for the next allocation of the same
// size: a query run again (or the next query like it) then finds its hash tables' memory
// already backed, instead of the kernel faulting in and zeroing every huge page anew (TPC-H Q9
// spent 8% of its time in the kernel zeroing pages). A mapping is kept only while the process's
// resident memory is below `resident_ceiling`: near memory_limit, memory kept for a next query
// would be memory the running ones lack. The Database sets both from memory_limit; a limit of 0
// keeps nothing.
void SetRandomAccessCacheLimit(size_t bytes, size_t resident_ceiling = SIZE_MAX);
// Unmaps every kept mapping (the process holds more than it should).
void ReleaseCachedRandomAccessMemory();
// The bytes of the mappings kept now.
size_t CachedRandomAccessBytes();

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

// A fixed-size array of such memory, left uninitialized: whoever fills it first touches its
// pages, so that a large one's page faults and zeroing by the kernel are shared by the
// threads that fill their parts of it (a vector's resize would do it all on one thread).
template <class T>
class RandomAccessArray {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

public:
    RandomAccessArray() = default;
    explicit RandomAccessArray(size_t size)
        : data_(static_cast<T*>(AllocateForRandomAccess(size * sizeof(T)))), size_(size) {}
    ~RandomAccessArray() { Free(); }
    RandomAccessArray(RandomAccessArray&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
    RandomAccessArray& operator=(RandomAccessArray&& other) noexcept {
        if (this != &other) {
            Free();
            data_ = std::exchange(other.data_, nullptr);
            size_ = std::exchange(other.size_, 0);
        }
        return *this;
    }

    T& operator[](size_t index) { return data_[index]; }
    const T& operator[](size_t index) const { return data_[index]; }
    T* data() { return data_; }
    size_t size() const { return size_; }

private:
    void Free() {
        if (data_ != nullptr) {
            FreeForRandomAccess(data_, size_ * sizeof(T));
        }
    }

    T* data_ = nullptr;
    size_t size_ = 0;
};

} // namespace sluice
