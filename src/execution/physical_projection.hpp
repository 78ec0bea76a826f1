#pragma once

#include "execution/expression.hpp"
#include "parallel/pipeline.hpp"

namespace sluice {

// Computes one output column per expression.
class PhysicalProjection : public PipelineOperator {
public:
    std::string Name() const override { return "PROJECTION"; }
    explicit PhysicalProjection(std::vector<ExpressionPtr> expressions);

    std::vector<LogicalType> OutputTypes() const override { return types_; }
    OperatorResult Execute(DataChunk& input, DataChunk& output, LocalState* local) override;

private:
    std::vector<ExpressionPtr> expressions_;
    std::vector<LogicalType> types_;
};

} // namespace sluice
