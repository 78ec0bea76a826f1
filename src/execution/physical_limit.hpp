#pragma once

#include "parallel/pipeline.hpp"

#include <mutex>
#include <optional>

namespace sluice {

// LIMIT/OFFSET over the rows that pass through it. Returns Finished once the limit is reached,
// which stops the pipeline's source early. Row order follows arrival order, so it runs in
// single-task pipelines until ordered (batch-indexed) collection exists.
class PhysicalLimit : public PipelineOperator {
public:
    std::string Name() const override { return "LIMIT"; }
    PhysicalLimit(std::vector<LogicalType> types, std::optional<uint64_t> limit, uint64_t offset)
        : types_(std::move(types)), limit_(limit), offset_(offset) {}

    std::vector<LogicalType> OutputTypes() const override { return types_; }
    OperatorResult Execute(DataChunk& input, DataChunk& output, LocalState* local) override;

private:
    std::vector<LogicalType> types_;
    std::optional<uint64_t> limit_;
    uint64_t offset_;
    std::mutex mutex_;
    uint64_t seen_ = 0; // rows that reached this operator
};

} // namespace sluice
