#pragma once

#include "sql/table_function.hpp"

namespace sluice {

class Database;

using MakeSourceFunction = decltype(BoundTableFunction::make_source);

// A table function's source over rows computed at bind time, restricted to the projected columns.
MakeSourceFunction MaterializedSource(std::vector<LogicalType> types,
                                      std::vector<std::vector<Value>> rows);

// The table functions every database starts with: sluice_settings(), read_parquet(), glob(),
// sluice_http_stats() ...
void RegisterBuiltinTableFunctions(Database& database);

} // namespace sluice
