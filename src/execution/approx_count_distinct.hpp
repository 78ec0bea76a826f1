#pragma once

#include "execution/aggregate_function.hpp"

namespace sluice {

// approx_count_distinct(x): the number of distinct non-NULL values, estimated by HyperLogLog
// (Flajolet et al. 2007) over 1024 one-byte registers, with linear counting for small counts
// (Heule et al. 2013): a standard error of about 3%, a fixed 1 KiB state per group that merges
// by register-wise maximum, so it spills and combines like any fixed-size state.
AggregateFunction ApproxCountDistinct(const LogicalType& argument);

} // namespace sluice
