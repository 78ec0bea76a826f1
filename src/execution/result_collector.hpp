#pragma once

#include "parallel/pipeline.hpp"

#include <memory>
#include <mutex>
#include <vector>

namespace sluice {

// The sink of a query's last pipeline: keeps the result chunks for the QueryResult.
class ResultCollector : public PipelineSink {
public:
    explicit ResultCollector(std::vector<LogicalType> types) : types_(std::move(types)) {}

    SinkResult Sink(DataChunk& chunk, LocalState* local) override;
    std::vector<std::unique_ptr<DataChunk>> TakeChunks();

private:
    std::vector<LogicalType> types_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<DataChunk>> chunks_;
};

} // namespace sluice
