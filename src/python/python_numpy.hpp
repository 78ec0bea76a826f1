#pragma once

#include "main/query_result.hpp"
#include "parallel/task_scheduler.hpp"

#include <pybind11/pybind11.h>

namespace sluice {

namespace py = pybind11;

// The rest of `result` column by column (fetchnumpy): fixed-width numbers as numpy arrays of
// their type, masked where NULL; DECIMAL and HUGEINT as float64; DATE and the timestamps as
// datetime64 (TIMESTAMP WITH TIME ZONE in UTC); INTERVAL as timedelta64; other types as arrays
// of Python objects.
// `nanoseconds`: dates and times as datetime64[ns] (what pandas before 2.0 holds; an instant
// outside its years 1677 to 2262 is an error), else as datetime64[us] as DuckDB gives them.
// `scheduler`: the numeric columns are filled on its REGULAR threads, without the GIL, while
// this thread makes the other columns' Python objects.
py::dict ToNumpy(QueryResult& result, bool nanoseconds = false, TaskScheduler* scheduler = nullptr);

} // namespace sluice
