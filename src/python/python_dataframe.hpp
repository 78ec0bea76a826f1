#pragma once

#include "sql/catalog.hpp"

#include <pybind11/pybind11.h>

#include <memory>
#include <string>

namespace sluice {

namespace py = pybind11;

// A pandas DataFrame as a table named `name` (a copy of its rows), for queries that name the
// DataFrame (the Python connection's replacement scan). Columns map by numpy dtype: bool,
// signed and unsigned integers, floats (NaN as NULL, as DuckDB reads pandas) and datetime64
// (NaT as NULL) to their Sluice types;
// object columns (and pandas' nullable dtypes) by the Python values they hold: str, int, float,
// bool, None and NA. Another kind of column is an error naming it.
std::shared_ptr<const TableEntry> DataFrameTable(const std::string& name, py::handle frame);

} // namespace sluice
