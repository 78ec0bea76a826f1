#pragma once

#include "formats/arrow/arrow_c_data.hpp"
#include "memory/memory_manager.hpp"
#include "parallel/pipeline.hpp"

#include <mutex>
#include <vector>

namespace sluice {

// The sink of a query whose rows go to an Arrow consumer: each chunk becomes a record batch on
// the task that produced it, while its data is in cache (exporting a materialised result
// afterwards reads all of it from memory again: a third of the time of arrow() on TPC-H's
// lineitem). The batches are kept in the source's order (by batch index), reserved against
// `memory` while the query runs (a result that passes memory_limit is an Out of Memory error:
// an Arrow table lives in memory), and handed over by TakeBatches.
class ArrowBatchCollector : public PipelineSink {
public:
    explicit ArrowBatchCollector(MemoryManager* memory);
    ~ArrowBatchCollector() override;
    ArrowBatchCollector(const ArrowBatchCollector&) = delete;
    ArrowBatchCollector& operator=(const ArrowBatchCollector&) = delete;

    std::string Name() const override { return "ARROW_RESULT"; }
    SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) override;

    // The record batches in order; the caller releases each (no longer reserved).
    std::vector<ArrowArray> TakeBatches();

private:
    struct Batch {
        idx_t batch_index;
        idx_t arrival;
        ArrowArray array;
    };

    std::mutex mutex_;
    std::vector<Batch> batches_;
    MemoryStatistics statistics_;
    MemoryReservation reservation_;
};

} // namespace sluice
