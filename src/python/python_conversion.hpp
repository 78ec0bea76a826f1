#pragma once

#include "common/value.hpp"
#include "common/vector.hpp"

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

} // namespace sluice
