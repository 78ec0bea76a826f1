#include "memory/allocator.hpp"

#include <malloc.h>

namespace sluice {

void ReturnFreedMemoryToSystem() {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace sluice
