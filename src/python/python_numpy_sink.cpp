#include "python/python_numpy_sink.hpp"

#include "execution/row_operations.hpp"

namespace sluice {

NumpySink::NumpySink(NumpyConversion& conversion, MemoryManager* memory,
                     std::function<void()> added)
    : conversion_(conversion), added_(std::move(added)),
      reservation_(memory, "a NumPy or pandas result", &statistics_) {
}

SinkResult NumpySink::Sink(DataChunk& chunk, LocalState* /*local*/, idx_t batch_index) {
    if (chunk.size() == 0) {
        return SinkResult::NeedMoreInput;
    }
    std::unique_ptr<DataChunk> kept = KeepChunk(chunk);
    {
        std::lock_guard<std::mutex> guard(mutex_);
        reservation_.Resize(reservation_.size() + ChunkMemory(*kept)); // else Out of Memory
    }
    conversion_.Add(std::move(kept), batch_index);
    added_();
    return SinkResult::NeedMoreInput;
}

} // namespace sluice
