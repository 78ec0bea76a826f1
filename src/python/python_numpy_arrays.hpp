#pragma once

#include "common/data_chunk.hpp"
#include "parallel/task_scheduler.hpp"

#include <pybind11/numpy.h>

#include <functional>
#include <memory>
#include <vector>

namespace sluice {

namespace py = pybind11;

// The numpy arrays of a result's columns, filled from its chunks (in the result's order) by
// work that needs no GIL, on the engine's threads.

using Chunks = std::vector<std::unique_ptr<DataChunk>>;
// A column's array once filled (called with the GIL held).
using ArrayMaker = std::function<py::object()>;
// Work that fills arrays (or adds chunks) without the GIL.
using Fills = std::vector<std::function<void()>>;

// Runs every fill: on the scheduler's REGULAR threads while this one waits without the GIL, or
// here when there is no scheduler.
void RunFills(TaskScheduler* scheduler, const Fills& fills);

// Memory for a numpy array's items from the huge-page mappings the engine keeps for reuse:
// freed with the last array that views it, so that a frame made again (the usual notebook
// loop) finds its memory already backed instead of the kernel faulting in and zeroing every
// page of hundreds of megabytes.
class ArrayMemory {
public:
    explicit ArrayMemory(size_t bytes);
    ~ArrayMemory(); // with the GIL held when it holds objects
    ArrayMemory(const ArrayMemory&) = delete;
    ArrayMemory& operator=(const ArrayMemory&) = delete;

    void* data() const { return data_; }
    // Items [0, count) are Python objects this memory holds a reference to (an array of dtype
    // object over memory it does not own leaves its items to the owner; the GIL is held when
    // the owner goes).
    void HoldObjects(size_t count) { objects_ = count; }

    // A 1-dimensional numpy array of `dtype` over this memory, which it then owns.
    static py::array Wrap(std::unique_ptr<ArrayMemory> memory, const py::dtype& dtype, idx_t rows);

private:
    void* data_;
    size_t bytes_;
    size_t objects_ = 0;
};

// Copies `bytes` to `to` with non-temporal stores: an array filled once and read later (by pandas,
// by the user) need not be read into the cache first to be written, as ordinary stores do,
// which halves the memory traffic of a fill (the fills are bound by it). The caller ends its
// fill with StreamedStoresDone.
void StreamBytes(void* to, const void* from, size_t bytes);
// Orders the streamed stores before whatever signals that the fill is done.
void StreamedStoresDone();

// Values a numpy array holds natively (numbers, times), as opposed to Python objects.
bool IsNumpyNative(const LogicalType& type);

// The array of a column numpy holds natively (IsNumpyNative), filled by a work added to `fills`
// from `chunks`, which must outlive it: numbers as arrays of their type, masked where NULL;
// DECIMAL and HUGEINT as float64; DATE and the timestamps as datetime64 (in ns if `nanoseconds`,
// else in us); INTERVAL as timedelta64.
ArrayMaker NativeColumn(Fills& fills, const Chunks& chunks, idx_t column, idx_t rows,
                        const LogicalType& type, bool nanoseconds);

} // namespace sluice
