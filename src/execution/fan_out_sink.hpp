#pragma once

#include "common/data_chunk.hpp"
#include "parallel/pipeline.hpp"

#include <memory>
#include <vector>

namespace sluice {

// Hands every chunk to several sinks, each seeing its own choice of the chunk's columns (by
// reference, no copy): one pass over an input feeds the hash aggregates of every grouping set.
class FanOutSink : public PipelineSink {
public:
    struct Target {
        std::shared_ptr<PipelineSink> sink;
        std::vector<idx_t> columns; // of the input chunk, in the order the sink takes them
        std::vector<LogicalType> types;
    };
    explicit FanOutSink(std::vector<Target> targets) : targets_(std::move(targets)) {}

    std::string Name() const override { return "FAN_OUT"; }
    std::unique_ptr<LocalState> InitLocal() override;
    SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) override;
    void Combine(LocalState* local) override;
    void Finalize() override;
    std::string ProfileDetails() const override;

private:
    std::vector<Target> targets_;
};

} // namespace sluice
