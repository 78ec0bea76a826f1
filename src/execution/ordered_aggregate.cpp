#include "execution/ordered_aggregate.hpp"

#include <algorithm>
#include <memory>
#include <set>

namespace sluice {

namespace {

// A group's rows: inner's arguments, then the order keys.
struct OrderedRows {
    std::vector<std::vector<Value>> rows;
};

OrderedRows*& RowsOf(uint8_t* state) {
    return *reinterpret_cast<OrderedRows**>(state);
}
OrderedRows* RowsOf(const uint8_t* state) {
    return *reinterpret_cast<OrderedRows* const*>(state);
}

// Orders values by one key: a negative, zero or positive result. NULLs go first or last whatever
// the direction (DESC reverses the values, not where the NULLs are).
int CompareKey(const Value& a, const Value& b, const AggregateOrder& order) {
    if (a.IsNull() || b.IsNull()) {
        if (a.IsNull() && b.IsNull()) {
            return 0;
        }
        return (a.IsNull() == order.nulls_first) ? -1 : 1;
    }
    int compared = a.Compare(b);
    return order.descending ? -compared : compared;
}

} // namespace

AggregateFunction MakeOrdered(AggregateFunction inner, const std::vector<LogicalType>& key_types,
                              std::vector<AggregateOrder> orders, bool distinct) {
    AggregateFunction function;
    function.name = inner.name;
    function.argument_types = inner.argument_types;
    function.argument_types.insert(function.argument_types.end(), key_types.begin(),
                                   key_types.end());
    function.return_type = inner.return_type;
    function.state_size = sizeof(OrderedRows*);
    function.spillable = false;
    function.initialize = [](uint8_t* state) { RowsOf(state) = new OrderedRows(); };
    function.destroy = [](uint8_t* state) {
        delete RowsOf(state);
        RowsOf(state) = nullptr;
    };
    function.update = [](const std::vector<const Vector*>& args, idx_t count, uint8_t** states,
                         idx_t offset, StringHeap& heap) {
        for (idx_t row = 0; row < count; row++) {
            std::vector<Value> values;
            values.reserve(args.size());
            size_t bytes = sizeof(values) + 16;
            for (const Vector* argument : args) {
                values.push_back(argument->GetValue(row));
                bytes += sizeof(Value) + values.back().GetString().size();
            }
            heap.CountExternal(bytes);
            RowsOf(states[row] + offset)->rows.push_back(std::move(values));
        }
    };
    function.combine = [](const uint8_t* source, uint8_t* target, StringHeap& /*heap*/) {
        auto& from = RowsOf(source)->rows;
        auto& to = RowsOf(target)->rows;
        to.insert(to.end(), from.begin(), from.end());
    };
    auto shared_inner = std::make_shared<AggregateFunction>(std::move(inner));
    function.finalize = [shared_inner, orders, distinct](const uint8_t* state, Vector& result,
                                                         idx_t row) {
        const AggregateFunction& aggregate = *shared_inner;
        size_t width = aggregate.argument_types.size();
        std::vector<std::vector<Value>>& rows = RowsOf(state)->rows;
        std::stable_sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
            for (size_t key = 0; key < orders.size(); key++) {
                int order = CompareKey(a[width + key], b[width + key], orders[key]);
                if (order != 0) {
                    return order < 0;
                }
            }
            return false;
        });
        auto arguments_less = [width](const std::vector<Value>* a, const std::vector<Value>* b) {
            for (size_t i = 0; i < width; i++) {
                int order = CompareKey((*a)[i], (*b)[i], AggregateOrder{});
                if (order != 0) {
                    return order < 0;
                }
            }
            return false;
        };
        std::set<const std::vector<Value>*, decltype(arguments_less)> seen(arguments_less);

        auto feed = [&](const ValueRowSink& sink) {
            for (const std::vector<Value>& each : rows) {
                // NULL is one more distinct value: the aggregate skips it or keeps it (list)
                // as without DISTINCT.
                if (distinct && !seen.insert(&each).second) {
                    continue;
                }
                sink(each.data());
            }
        };
        AggregateValueRows(aggregate, feed, result, row);
    };
    return function;
}

} // namespace sluice
