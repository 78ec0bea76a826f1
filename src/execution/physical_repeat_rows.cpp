#include "execution/physical_repeat_rows.hpp"

#include "execution/expression_executor.hpp"

namespace sluice {

namespace {

// Where the current input chunk stands: its evaluated counts, the row being repeated and how
// often it has been emitted.
struct RepeatState : LocalState {
    bool started = false;
    Vector counts{LogicalType(LogicalTypeId::BIGINT)};
    idx_t row = 0;
    int64_t emitted = 0;
};

} // namespace

std::unique_ptr<LocalState> PhysicalRepeatRows::InitLocal() {
    return std::make_unique<RepeatState>();
}

OperatorResult PhysicalRepeatRows::Execute(DataChunk& input, DataChunk& output, LocalState* local) {
    auto& state = static_cast<RepeatState&>(*local);
    if (!state.started) {
        state.counts.Reset();
        ExpressionExecutor executor;
        executor.Execute(*count_, input, state.counts);
        state.row = 0;
        state.emitted = 0;
        state.started = true;
    }
    bool constant = state.counts.vector_type() == VectorType::CONSTANT;
    idx_t selection[kVectorSize];
    idx_t selected = 0;
    while (state.row < input.size() && selected < kVectorSize) {
        idx_t index = constant ? 0 : state.row;
        int64_t times =
            state.counts.RowIsValid(index) ? state.counts.data<int64_t>()[index] : int64_t(0);
        if (state.emitted < times) {
            selection[selected++] = state.row;
            state.emitted++;
        } else {
            state.row++;
            state.emitted = 0;
        }
    }
    output.AppendSelected(input, selection, selected);
    if (state.row < input.size()) {
        return OperatorResult::HaveMoreOutput;
    }
    state.started = false;
    return OperatorResult::NeedMoreInput;
}

} // namespace sluice
