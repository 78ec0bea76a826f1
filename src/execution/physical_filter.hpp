#pragma once

#include "execution/expression.hpp"
#include "parallel/pipeline.hpp"

namespace sluice {

// Keeps the rows for which a BOOLEAN predicate is true (NULL counts as false).
class PhysicalFilter : public PipelineOperator {
public:
    std::string Name() const override { return "FILTER"; }
    PhysicalFilter(std::vector<LogicalType> types, ExpressionPtr predicate)
        : types_(std::move(types)), predicate_(std::move(predicate)) {}

    std::vector<LogicalType> OutputTypes() const override { return types_; }
    OperatorResult Execute(DataChunk& input, DataChunk& output, LocalState* local) override;

private:
    std::vector<LogicalType> types_;
    ExpressionPtr predicate_;
};

} // namespace sluice
