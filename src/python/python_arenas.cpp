#include "python/python_arenas.hpp"

#include <Python.h>

#include <map>
#include <sys/mman.h>
#include <vector>

namespace sluice {

namespace {

// Called by Python with the GIL held, so never concurrently. Python takes blocks of a few sizes
// from it: its object arenas (1 MiB since 3.10), and the 16 KiB chunks of its frames' stacks.
struct ArenaCache {
    PyObjectArenaAllocator wrapped;            // what allocates and frees past the cache
    std::map<size_t, std::vector<void*>> kept; // by size
    size_t bytes = 0;                          // kept in all
    size_t limit = 0;

    void ReleaseAbove(size_t most) {
        for (auto& [size, blocks] : kept) {
            while (bytes > most && !blocks.empty()) {
                wrapped.free(wrapped.ctx, blocks.back(), size);
                blocks.pop_back();
                bytes -= size;
            }
        }
    }
};

void* AllocateArena(void* context, size_t size) {
    auto* cache = static_cast<ArenaCache*>(context);
    auto found = cache->kept.find(size);
    if (found != cache->kept.end() && !found->second.empty()) {
        void* arena = found->second.back();
        found->second.pop_back();
        cache->bytes -= size;
        return arena;
    }
    return cache->wrapped.alloc(cache->wrapped.ctx, size);
}

void FreeArena(void* context, void* arena, size_t size) {
    auto* cache = static_cast<ArenaCache*>(context);
    if (cache->bytes + size > cache->limit) {
        cache->wrapped.free(cache->wrapped.ctx, arena, size);
        return;
    }
    madvise(arena, size, MADV_FREE);
    cache->kept[size].push_back(arena);
    cache->bytes += size;
}

} // namespace

void KeepFreedObjectArenas(size_t limit) {
    // Never destroyed: Python frees arenas until the very end of the process.
    static ArenaCache* cache = nullptr;
    if (cache == nullptr) {
        cache = new ArenaCache();
        PyObject_GetArenaAllocator(&cache->wrapped);
        PyObjectArenaAllocator allocator{cache, AllocateArena, FreeArena};
        PyObject_SetArenaAllocator(&allocator);
    }
    cache->limit = limit;
    cache->ReleaseAbove(limit);
}

} // namespace sluice
