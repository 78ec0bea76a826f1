#include "execution/physical_projection.hpp"

#include "execution/expression_executor.hpp"

namespace sluice {

PhysicalProjection::PhysicalProjection(std::vector<ExpressionPtr> expressions)
    : expressions_(std::move(expressions)) {
    for (const auto& expression : expressions_) {
        types_.push_back(expression->type);
    }
}

OperatorResult PhysicalProjection::Execute(DataChunk& input, DataChunk& output,
                                           LocalState* /*local*/) {
    ExpressionExecutor executor;
    for (idx_t i = 0; i < expressions_.size(); i++) {
        executor.Execute(*expressions_[i], input, output.column(i));
    }
    output.SetSize(input.size());
    return OperatorResult::NeedMoreInput;
}

} // namespace sluice
