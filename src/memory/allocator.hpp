#pragma once

namespace sluice {

// Gives the pages the allocator holds free back to the operating system. Called when a
// statement ends: glibc keeps freed memory of a finished query's hash tables and sorts in its
// arenas otherwise, and the process's RSS stays at the query's peak long after it.
// (A preloaded jemalloc or mimalloc ignores this; they return memory on their own schedule.)
void ReturnFreedMemoryToSystem();

} // namespace sluice
