#pragma once

#include "common/value.hpp"
#include "formats/parquet/parquet_reader.hpp"

#include <string>
#include <vector>

namespace sluice::parquet {

// The rows of parquet_metadata() and parquet_schema() for one file, with DuckDB's column names
// and types (the scalar ones; DuckDB's MAP, STRUCT and LIST columns are left out).
struct MetadataTable {
    std::vector<std::string> names;
    std::vector<LogicalType> types;
    std::vector<std::vector<Value>> rows;
};

// One row per column chunk of every row group.
MetadataTable ParquetMetadataTable(const ParquetFileReader& file);
// One row per schema element, the root included.
MetadataTable ParquetSchemaTable(const ParquetFileReader& file);

// Adds `file`'s rows to `table` (which starts empty or with the same columns).
void AppendTable(MetadataTable& table, MetadataTable file);

} // namespace sluice::parquet
