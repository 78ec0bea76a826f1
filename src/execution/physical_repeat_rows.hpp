#pragma once

#include "execution/expression.hpp"
#include "parallel/pipeline.hpp"

namespace sluice {

// Emits each input row as many times as a BIGINT expression over it says (none for NULL or
// less than one): the multiplicities of EXCEPT ALL and INTERSECT ALL. A row repeated beyond
// one output chunk continues in the next call (HaveMoreOutput).
class PhysicalRepeatRows : public PipelineOperator {
public:
    std::string Name() const override { return "REPEAT_ROWS"; }
    PhysicalRepeatRows(std::vector<LogicalType> types, ExpressionPtr count)
        : types_(std::move(types)), count_(std::move(count)) {}

    std::vector<LogicalType> OutputTypes() const override { return types_; }
    std::unique_ptr<LocalState> InitLocal() override;
    OperatorResult Execute(DataChunk& input, DataChunk& output, LocalState* local) override;

private:
    std::vector<LogicalType> types_;
    ExpressionPtr count_;
};

} // namespace sluice
