#include "execution/physical_unnest.hpp"

#include "execution/expression_executor.hpp"

#include <algorithm>

namespace sluice {

namespace {

// The current input chunk's evaluated lists, the row being unnested and how many of its
// elements have been emitted.
struct UnnestState : LocalState {
    bool started = false;
    std::vector<Vector> lists;
    idx_t row = 0;
    idx_t emitted = 0;
};

list_entry_t EntryAt(const Vector& list, idx_t row) {
    if (!list.RowIsValid(row)) {
        return list_entry_t{0, 0};
    }
    return list.ListEntry(row);
}

} // namespace

PhysicalUnnest::PhysicalUnnest(std::vector<LogicalType> input_types, std::vector<idx_t> passed,
                               std::vector<ExpressionPtr> lists)
    : input_types_(std::move(input_types)), passed_(std::move(passed)), lists_(std::move(lists)) {
}

std::vector<LogicalType> PhysicalUnnest::OutputTypes() const {
    std::vector<LogicalType> types;
    for (idx_t column : passed_) {
        types.push_back(input_types_[column]);
    }
    for (const auto& list : lists_) {
        types.push_back(list->type.element());
    }
    return types;
}

std::unique_ptr<LocalState> PhysicalUnnest::InitLocal() {
    auto state = std::make_unique<UnnestState>();
    for (const auto& list : lists_) {
        state->lists.emplace_back(list->type);
    }
    return state;
}

OperatorResult PhysicalUnnest::Execute(DataChunk& input, DataChunk& output, LocalState* local) {
    auto& state = static_cast<UnnestState&>(*local);
    if (!state.started) {
        ExpressionExecutor executor;
        for (size_t i = 0; i < lists_.size(); i++) {
            state.lists[i].Reset();
            executor.Execute(*lists_[i], input, state.lists[i]);
        }
        state.row = 0;
        state.emitted = 0;
        state.started = true;
    }
    // Which input row and which element position each output row takes.
    idx_t rows[kVectorSize];
    idx_t positions[kVectorSize];
    idx_t produced = 0;
    while (state.row < input.size() && produced < kVectorSize) {
        idx_t longest = 0;
        for (const Vector& list : state.lists) {
            longest = std::max<idx_t>(longest, EntryAt(list, state.row).length);
        }
        idx_t take = std::min(longest - state.emitted, kVectorSize - produced);
        for (idx_t i = 0; i < take; i++) {
            rows[produced] = state.row;
            positions[produced++] = state.emitted++;
        }
        if (state.emitted == longest) {
            state.row++;
            state.emitted = 0;
        }
    }
    idx_t input_columns = passed_.size();
    for (idx_t column = 0; column < input_columns; column++) {
        output.column(column).Gather(input.column(passed_[column]), rows, produced);
    }
    idx_t elements[kVectorSize];
    for (size_t i = 0; i < state.lists.size(); i++) {
        const Vector& list = state.lists[i];
        Vector& out = output.column(input_columns + i);
        // Every output row has an element: a slice of the elements when they follow each other
        // (lists laid out in row order: no copy, structs included), else one Gather. Row by row
        // where lists ran out.
        bool complete = true;
        bool consecutive = true;
        for (idx_t r = 0; r < produced; r++) {
            list_entry_t entry = EntryAt(list, rows[r]);
            complete = complete && positions[r] < entry.length;
            elements[r] = entry.offset + positions[r];
            consecutive = consecutive && elements[r] == elements[0] + r;
        }
        if (complete && consecutive && produced > 0 &&
            list.list_child().vector_type() == VectorType::FLAT) {
            out.Slice(list.list_child(), elements[0], produced);
            continue;
        }
        if (complete) {
            out.Gather(list.list_child(), elements, produced);
            continue;
        }
        for (idx_t r = 0; r < produced; r++) {
            if (positions[r] < EntryAt(list, rows[r]).length) {
                out.CopyRow(list.list_child(), elements[r], r);
            } else {
                out.SetNull(r);
            }
        }
    }
    output.SetSize(produced);
    if (state.row < input.size()) {
        return OperatorResult::HaveMoreOutput;
    }
    state.started = false;
    return OperatorResult::NeedMoreInput;
}

} // namespace sluice
