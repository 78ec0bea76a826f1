#pragma once

#include "parallel/pipeline.hpp"

#include <memory>
#include <mutex>
#include <vector>

namespace sluice {

// The sink of a query's last pipeline: keeps the result chunks for the QueryResult, in the
// source's order (by batch index) however many tasks produced them.
class ResultCollector : public PipelineSink {
public:
    std::string Name() const override { return "RESULT"; }
    explicit ResultCollector(std::vector<LogicalType> types) : types_(std::move(types)) {}

    SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) override;
    std::vector<std::unique_ptr<DataChunk>> TakeChunks();

private:
    struct Entry {
        idx_t batch_index;
        idx_t arrival; // keeps chunks of one batch in the order they came
        std::unique_ptr<DataChunk> chunk;
    };
    std::vector<LogicalType> types_;
    std::mutex mutex_;
    std::vector<Entry> entries_;
};

} // namespace sluice
