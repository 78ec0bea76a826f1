#pragma once

#include "parallel/pipeline.hpp"

#include <atomic>

namespace sluice {

// The rows of range(start, stop, step): one BIGINT column, produced in parallel chunks.
class RangeSource : public PipelineSource {
public:
    std::string Name() const override { return "RANGE"; }
    RangeSource(int64_t start, int64_t stop, int64_t step, bool emit_column);

    std::vector<LogicalType> OutputTypes() const override;
    std::unique_ptr<LocalState> InitLocal() override;
    SourceResult GetData(DataChunk& out, LocalState* local, TaskContext& context) override;
    idx_t MaxThreads() const override;
    idx_t BatchIndex(LocalState* local) const override;
    double Progress() const override;

    // The number of values of range(start, stop, step); throws for step 0.
    static uint64_t Count(int64_t start, int64_t stop, int64_t step);

private:
    int64_t start_;
    int64_t step_;
    uint64_t count_;
    bool emit_column_; // false when the query reads no column, only rows
    std::atomic<uint64_t> next_chunk_{0};
};

} // namespace sluice
