#pragma once

#include "execution/expression.hpp"
#include "parallel/pipeline.hpp"

#include <mutex>
#include <optional>

namespace sluice {

// LIMIT's or OFFSET's value as a count of rows; NULL is none (no limit, no offset). Bound
// constants fail as DuckDB's binder fails them (negative, not a number); values known only at
// run time (a subquery's) as its executor does.
std::optional<uint64_t> LimitCount(const Value& value, bool at_run_time);

// LIMIT/OFFSET over the rows that pass through it. Returns Finished once the limit is reached,
// which stops the pipeline's source early. Row order follows arrival order, so it runs in
// single-task pipelines until ordered (batch-indexed) collection exists.
class PhysicalLimit : public PipelineOperator {
public:
    std::string Name() const override { return "LIMIT"; }
    // `limit_expression` and `offset_expression`, when set, stand for `limit` and `offset` and
    // are evaluated when the first rows arrive (after the subqueries they read have run).
    PhysicalLimit(std::vector<LogicalType> types, std::optional<uint64_t> limit, uint64_t offset,
                  ExpressionPtr limit_expression = nullptr,
                  ExpressionPtr offset_expression = nullptr)
        : types_(std::move(types)), limit_(limit), offset_(offset),
          limit_expression_(std::move(limit_expression)),
          offset_expression_(std::move(offset_expression)) {}

    std::vector<LogicalType> OutputTypes() const override { return types_; }
    OperatorResult Execute(DataChunk& input, DataChunk& output, LocalState* local) override;

private:
    std::vector<LogicalType> types_;
    std::optional<uint64_t> limit_;
    uint64_t offset_;
    ExpressionPtr limit_expression_;
    ExpressionPtr offset_expression_;
    bool counts_known_ = false;
    std::mutex mutex_;
    uint64_t seen_ = 0; // rows that reached this operator
};

} // namespace sluice
