#include "execution/arrow_batch_collector.hpp"

#include "execution/row_operations.hpp"

#include <algorithm>

namespace sluice {

ArrowBatchCollector::ArrowBatchCollector(MemoryManager* memory)
    : reservation_(memory, "an Arrow result", &statistics_) {
}

ArrowBatchCollector::~ArrowBatchCollector() {
    for (Batch& batch : batches_) {
        if (batch.array.release != nullptr) {
            batch.array.release(&batch.array);
        }
    }
}

SinkResult ArrowBatchCollector::Sink(DataChunk& chunk, LocalState* /*local*/, idx_t batch_index) {
    if (chunk.size() == 0) {
        return SinkResult::NeedMoreInput;
    }
    // The batch holds about what the chunk does (strings laid out, narrow decimals widened).
    idx_t bytes = ChunkMemory(chunk);
    {
        std::lock_guard<std::mutex> guard(mutex_);
        reservation_.Resize(reservation_.size() + bytes); // else the Out of Memory error
    }
    ArrowArray array{};
    ExportChunkCopy(chunk, &array);
    std::lock_guard<std::mutex> guard(mutex_);
    batches_.push_back({batch_index, batches_.size(), array});
    return SinkResult::NeedMoreInput;
}

std::vector<ArrowArray> ArrowBatchCollector::TakeBatches() {
    std::lock_guard<std::mutex> guard(mutex_);
    std::sort(batches_.begin(), batches_.end(), [](const Batch& a, const Batch& b) {
        return a.batch_index != b.batch_index ? a.batch_index < b.batch_index
                                              : a.arrival < b.arrival;
    });
    std::vector<ArrowArray> arrays;
    arrays.reserve(batches_.size());
    for (Batch& batch : batches_) {
        arrays.push_back(batch.array);
    }
    batches_.clear();
    reservation_.Resize(0); // the batches now belong to the caller
    return arrays;
}

} // namespace sluice
