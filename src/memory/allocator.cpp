#include "memory/allocator.hpp"

#include <cstdio>
#include <malloc.h>
#include <unistd.h>

namespace sluice {

void ReturnFreedMemoryToSystem() {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

uint64_t ResidentMemory() {
    FILE* statm = std::fopen("/proc/self/statm", "r");
    if (!statm) {
        return 0;
    }
    unsigned long long pages = 0, resident = 0;
    if (std::fscanf(statm, "%llu %llu", &pages, &resident) != 2) {
        resident = 0;
    }
    std::fclose(statm);
    return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

} // namespace sluice
