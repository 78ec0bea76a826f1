#pragma once

#include "execution/materialized_rows.hpp"
#include "parallel/pipeline.hpp"

#include <memory>
#include <vector>

namespace sluice {

// The sink of a pipeline whose rows are kept: the query's last one (for the QueryResult), a
// UNION input's, a materialised CTE's. Keeps the chunks in the source's order (by batch index)
// however many tasks produced them, reserved against `memory` and spilled past its limit.
class ResultCollector : public PipelineSink {
public:
    std::string Name() const override { return "RESULT"; }
    explicit ResultCollector(std::vector<LogicalType> types, MemoryManager* memory = nullptr)
        : rows_(std::make_shared<MaterializedRows>(std::move(types), memory, true)) {}

    SinkResult Sink(DataChunk& chunk, LocalState* /*local*/, idx_t batch_index) override {
        rows_->Append(chunk, batch_index);
        return SinkResult::NeedMoreInput;
    }
    std::string ProfileDetails() const override;

    // Every chunk, in memory (the query's result, no longer reserved).
    std::vector<std::unique_ptr<DataChunk>> TakeChunks() { return rows_->TakeAll(); }
    // The rows to scan, in order, after the pipeline has finished.
    std::shared_ptr<const ChunkSequence> TakeRows() {
        rows_->Finish();
        return rows_;
    }

private:
    std::shared_ptr<MaterializedRows> rows_;
};

} // namespace sluice
