#pragma once

#include "memory/memory_manager.hpp"
#include "parallel/pipeline.hpp"
#include "python/python_numpy.hpp"

#include <functional>
#include <mutex>

namespace sluice {

// The sink of a query read by fetchnumpy() or df(): each chunk goes to `conversion` from the
// thread that produced it, reserved against `memory` while the query runs (a result past
// memory_limit is an Out of Memory error: a DataFrame lives in memory), and `added` is called
// so that the Python thread makes its objects while the query goes on.
class NumpySink : public PipelineSink {
public:
    NumpySink(NumpyConversion& conversion, MemoryManager* memory, std::function<void()> added);

    std::string Name() const override { return "NUMPY_RESULT"; }
    SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) override;

private:
    NumpyConversion& conversion_;
    std::function<void()> added_;
    std::mutex mutex_;
    MemoryStatistics statistics_;
    MemoryReservation reservation_; // under mutex_
};

} // namespace sluice
