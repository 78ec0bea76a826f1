#pragma once

#include "execution/aggregate_function.hpp"

#include <vector>

namespace sluice {

// One ORDER BY term of an aggregate call.
struct AggregateOrder {
    bool descending = false;
    bool nulls_first = false;
};

// `inner` fed each group's rows in the order of `orders`, as in string_agg(s, ',' ORDER BY k).
// The function's arguments are inner's followed by one per order key. A group's rows are kept
// (as Values, counted against the aggregate's memory; like DISTINCT sets, they do not spill)
// and sorted, stably, when the group is finalized. With `distinct`, rows whose arguments repeat
// are fed once, at their first place in the order, and rows with a NULL argument not at all.
AggregateFunction MakeOrdered(AggregateFunction inner, const std::vector<LogicalType>& key_types,
                              std::vector<AggregateOrder> orders, bool distinct);

} // namespace sluice
