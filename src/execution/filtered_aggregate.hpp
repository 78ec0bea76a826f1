#pragma once

#include "execution/aggregate_function.hpp"

namespace sluice {

// `inner` over the rows whose condition is true, as in list(x) FILTER (WHERE c): the function's
// arguments are inner's followed by the BOOLEAN condition. Its states are inner's (they combine,
// finalize and spill as inner's do). Aggregates that skip NULLs need no wrapper: the binder
// gives them CASE WHEN c THEN x END instead.
AggregateFunction MakeFiltered(AggregateFunction inner);

} // namespace sluice
