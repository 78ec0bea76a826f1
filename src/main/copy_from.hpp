#pragma once

#include "sql/ast.hpp"
#include "sql/catalog.hpp"

#include <memory>
#include <vector>

namespace sluice {

// COPY table [(columns)] FROM 'path' (options) as the query INSERT runs: SELECT * FROM
// read_csv('path', options, types = the target columns' types) or read_parquet('path'). The
// format is FORMAT's, else the path's extension's (.parquet), else CSV; COPY's option names
// (DELIMITER, NULL, a bare HEADER) become read_csv's. Like DuckDB, the dialect and header are
// still sniffed, but values are parsed straight into the table's types, so a bad value is
// reported with its line.
std::shared_ptr<SelectStatement> CopyFromQuery(const Statement& statement, const TableEntry& table,
                                               const std::vector<idx_t>& targets);

} // namespace sluice
