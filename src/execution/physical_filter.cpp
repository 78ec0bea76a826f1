#include "execution/physical_filter.hpp"

#include "execution/expression_executor.hpp"

namespace sluice {

OperatorResult PhysicalFilter::Execute(DataChunk& input, DataChunk& output, LocalState* /*local*/) {
    idx_t selection[kVectorSize];
    ExpressionExecutor executor;
    idx_t count = executor.Select(*predicate_, input, selection);
    if (count == input.size()) {
        // Every row passes: hand the input on without copying it.
        for (idx_t column = 0; column < input.ColumnCount(); column++) {
            output.column(column).Reference(input.column(column));
        }
        output.SetSize(count);
        return OperatorResult::NeedMoreInput;
    }
    output.AppendSelected(input, selection, count);
    return OperatorResult::NeedMoreInput;
}

} // namespace sluice
