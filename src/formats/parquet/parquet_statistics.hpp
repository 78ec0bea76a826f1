#pragma once

#include "common/table_filter.hpp"
#include "formats/parquet/parquet_metadata.hpp"
#include "formats/parquet/parquet_schema.hpp"

namespace sluice::parquet {

// A column chunk's statistics in the column's Sluice type. min/max are left out whenever their
// order cannot be trusted: the deprecated min/max fields of byte arrays (written with signed
// byte comparison by old writers), INT96, NaN bounds, or bytes of the wrong size.
ColumnStatistics ReadColumnStatistics(const ParquetColumn& column, const ColumnChunk& chunk,
                                      int64_t row_count);

// Statistics of `row_count` rows from bounds stored per the column order (a chunk's min_value /
// max_value, a page's column index entry), either of them possibly absent.
ColumnStatistics StatisticsFromBounds(const ParquetColumn& column, const std::string* min,
                                      const std::string* max, std::optional<int64_t> null_count,
                                      int64_t row_count);

} // namespace sluice::parquet
