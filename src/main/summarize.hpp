#pragma once

#include "main/query_result.hpp"
#include "sql/ast.hpp"

#include <memory>
#include <string>

namespace sluice {

class Connection;

// SUMMARIZE: one row per column of the summarized query, with DuckDB's columns (column_name,
// column_type, min, max, approx_unique, avg, std, q25, q50, q75, count, null_percentage), all
// computed by one aggregate query over it. Quartiles are exact (quantile_disc) where DuckDB's
// are approximations; avg and std are given for numeric columns, quartiles for those and for
// dates and times.
std::unique_ptr<QueryResult> Summarize(Connection& connection, const Statement& statement,
                                       const std::string& sql);

} // namespace sluice
