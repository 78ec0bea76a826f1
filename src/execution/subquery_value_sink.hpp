#pragma once

#include "execution/expression.hpp"
#include "parallel/pipeline.hpp"

#include <memory>
#include <mutex>

namespace sluice {

// The sink of an uncorrelated scalar or EXISTS subquery: fills the SubqueryValue that the outer
// query's expressions read. A scalar subquery yields its single value (NULL without rows; more
// than one row is an error, as in DuckDB); EXISTS yields whether any row came.
class SubqueryValueSink : public PipelineSink {
public:
    std::string Name() const override { return "SUBQUERY"; }
    SubqueryValueSink(std::shared_ptr<SubqueryValue> target, LogicalType type, bool exists)
        : target_(std::move(target)), type_(std::move(type)), exists_(exists) {}

    SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) override;
    void Finalize() override;

private:
    std::shared_ptr<SubqueryValue> target_;
    LogicalType type_;
    bool exists_;
    std::mutex mutex_;
    idx_t rows_ = 0;
};

} // namespace sluice
