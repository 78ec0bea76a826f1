#pragma once

#include "common/value.hpp"
#include "main/query_result.hpp"
#include "parallel/task_scheduler.hpp"

#include <pybind11/pybind11.h>

namespace sluice {

namespace py = pybind11;

// A Sluice value as the Python object DuckDB's Python API gives: None, bool, int, float,
// decimal.Decimal, str, bytes, datetime.date / time / datetime (with UTC for TIMESTAMP WITH TIME
// ZONE), datetime.timedelta (a month as 30 days), uuid.UUID, list, dict (STRUCT and MAP).
py::object ToPython(const Value& value);
// Rows [begin, end) of a flat vector as ToPython gives them, a column at a time (numbers,
// booleans and strings without a Value each).
std::vector<py::object> ToPython(const Vector& vector, idx_t begin, idx_t end);

// A Python object as a parameter value: None, bool, int (BIGINT, else HUGEINT), float, str,
// bytes, decimal.Decimal, datetime.date / time / datetime, datetime.timedelta.
Value FromPython(py::handle object);

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
