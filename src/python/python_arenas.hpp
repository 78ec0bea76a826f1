#pragma once

#include <cstddef>

namespace sluice {

// Keeps up to `limit` bytes of the arenas Python's object allocator frees, for its next ones.
// A DataFrame of text holds millions of str objects; when it goes, the arenas they filled go back
// to the system, and the next frame's strs fault every page of them in anew (a fifth of the time
// of df() of TPC-H's lineitem, 130 K page faults). Kept arenas are marked MADV_FREE: the kernel
// may still take their pages under memory pressure, and until it does, reusing them costs nothing.
// Process-wide, like the allocator it wraps; a second call only changes the limit.
void KeepFreedObjectArenas(size_t limit);

} // namespace sluice
