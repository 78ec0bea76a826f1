#pragma once

#include "common/types.hpp"
#include "formats/parquet/nested_schema.hpp"
#include "formats/parquet/parquet_metadata.hpp"

#include <memory>

#include <string>
#include <vector>

namespace sluice::parquet {

// How a leaf column's physical values become Sluice values.
enum class Conversion : uint8_t {
    Boolean,
    Int32,           // INTEGER, DATE (days)
    Int32ToInt8,     // TINYINT
    Int32ToInt16,    // SMALLINT
    Int64,           // BIGINT
    UInt8,           // INT32 holding UINT_8 -> UTINYINT
    UInt16,          // INT32 holding UINT_16 -> USMALLINT
    UInt32,          // INT32 bits as UINT_32 -> UINTEGER
    UInt64,          // INT64 bits as UINT_64 -> UBIGINT
    TimeMillis,      // INT32 milliseconds -> TIME
    TimeMicros,      // INT64 microseconds -> TIME
    TimeNanos,       // INT64 nanoseconds -> TIME
    TimestampMillis, // INT64 -> TIMESTAMP
    TimestampMicros,
    TimestampNanos,
    Int96Timestamp, // Impala/Spark nanoseconds-of-day + Julian day
    Float,
    Double,
    Float16, // FIXED_LEN_BYTE_ARRAY(2) half precision -> FLOAT
    Varchar, // UTF-8 checked
    Blob,
    DecimalFromInt32,
    DecimalFromInt64,
    DecimalFromBytes, // big-endian two's complement in BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY
    Uuid,             // FIXED_LEN_BYTE_ARRAY(16), big-endian
};

// A top-level column of a Parquet file as Sluice sees it, or one leaf of a nested column.
// Unsupported columns are listed too, so that queries not touching them still read the file.
struct ParquetColumn {
    std::string name;
    LogicalType type;
    std::string unsupported; // empty when readable; else what is not supported
    size_t leaf_index = 0;   // position among the row group's column chunks (nested: the first)
    Type physical = Type::INT32;
    int32_t type_length = 0;
    uint32_t max_definition_level = 0;
    uint32_t max_repetition_level = 0;
    Conversion conversion = Conversion::Int32;
    // Nested columns: how their values are spelled in the levels, and their leaf columns (whose
    // chunks follow one another from leaf_index).
    std::shared_ptr<const NestedNode> nested;
    std::vector<ParquetColumn> leaves;
};

// Decides the type of a primitive column (physical type and length set) from its annotations,
// as DuckDB reads them; sets `unsupported` for types Sluice does not read.
void MapPrimitive(const SchemaElement& element, ParquetColumn& column);

// Maps the flattened schema tree to columns; throws CorruptData on a malformed schema.
std::vector<ParquetColumn> BuildColumns(const FileMetaData& metadata);

} // namespace sluice::parquet
