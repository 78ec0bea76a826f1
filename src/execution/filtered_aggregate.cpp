#include "execution/filtered_aggregate.hpp"

namespace sluice {

namespace {

bool ConditionHolds(const Vector& condition, idx_t row) {
    return condition.RowIsValid(row) && condition.data<bool>()[condition.RowIndex(row)];
}

} // namespace

AggregateFunction MakeFiltered(AggregateFunction inner) {
    AggregateFunction function = inner;
    function.argument_types.push_back(LogicalTypeId::BOOLEAN);
    auto update = inner.update;
    auto types = inner.argument_types;
    function.update = [update, types](const std::vector<const Vector*>& args, idx_t count,
                                      uint8_t** states, idx_t offset, StringHeap& heap) {
        const Vector& condition = *args.back();
        std::vector<const Vector*> inner_args(args.begin(), args.end() - 1);
        idx_t rows[kVectorSize];
        uint8_t* kept_states[kVectorSize];
        idx_t kept = 0;
        for (idx_t row = 0; row < count; row++) {
            if (ConditionHolds(condition, row)) {
                rows[kept] = row;
                kept_states[kept++] = states[row];
            }
        }
        if (kept == count) {
            update(inner_args, count, states, offset, heap);
            return;
        }
        // The kept rows, gathered to the front of vectors of their own.
        std::vector<Vector> gathered;
        gathered.reserve(types.size());
        for (size_t i = 0; i < types.size(); i++) {
            gathered.emplace_back(types[i]);
            gathered.back().Gather(*inner_args[i], rows, kept);
            inner_args[i] = &gathered.back();
        }
        update(inner_args, kept, kept_states, offset, heap);
    };
    if (inner.update_one_state) {
        auto update_one_state = inner.update_one_state;
        function.update_one_state = [update_one_state](const std::vector<const Vector*>& args,
                                                       const uint32_t* rows, idx_t count,
                                                       uint8_t* state) {
            const Vector& condition = *args.back();
            std::vector<const Vector*> inner_args(args.begin(), args.end() - 1);
            uint32_t kept_rows[kVectorSize];
            idx_t kept = 0;
            for (idx_t i = 0; i < count; i++) {
                if (ConditionHolds(condition, rows[i])) {
                    kept_rows[kept++] = rows[i];
                }
            }
            update_one_state(inner_args, kept_rows, kept, state);
        };
    }
    return function;
}

} // namespace sluice
