#include "execution/physical_filter.hpp"

#include "execution/expression_executor.hpp"

namespace sluice {

OperatorResult PhysicalFilter::Execute(DataChunk& input, DataChunk& output, LocalState* /*local*/) {
    idx_t selection[kVectorSize];
    ExpressionExecutor executor;
    idx_t count = executor.Select(*predicate_, input, selection);
    output.AppendSelected(input, selection, count);
    return OperatorResult::NeedMoreInput;
}

} // namespace sluice
