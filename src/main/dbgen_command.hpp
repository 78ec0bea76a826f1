#pragma once

#include "formats/parquet/parquet_metadata.hpp"
#include "sql/table_function.hpp"
#include "tpch/tpch_tables.hpp"

#include <string>
#include <vector>

namespace sluice {

// What CALL dbgen(...) and `sluice gen-tpch` were asked for.
struct DbgenOptions {
    double scale_factor = 1;
    std::string path;               // empty: create the tables in memory
    std::string format = "parquet"; // with a path: parquet, csv or tbl (dbgen's text)
    uint64_t row_group_size = 122880;
    uint64_t files = 1; // per table (at most one per row, for the tiny tables)
    parquet::Codec codec = parquet::Codec::SNAPPY;
    std::vector<tpch::Table> tables; // all eight when empty

    // From CALL dbgen's arguments: sf, path, format, row_group_size, files, compression, tables.
    static DbgenOptions FromArguments(const TableFunctionInput& input);
    // Adds comma-separated table names (once each); throws InvalidInput for an unknown one.
    void AddTables(const std::string& names);
    // Throws InvalidInput naming the first absurd setting.
    void Validate() const;
};

// The files of one table: `files` == 1 gives DIR/table.ext, otherwise DIR/table/table_NNNN.ext.
std::vector<std::string> DbgenFilePaths(const DbgenOptions& options, tpch::Table table,
                                        uint64_t files);

// The table functions tpch_queries() (query_nr, query) and the PRAGMA tpch(N) text.
TableFunction TpchQueriesFunction();

} // namespace sluice
