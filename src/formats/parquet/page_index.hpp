#pragma once

#include "common/table_filter.hpp"
#include "formats/parquet/parquet_schema.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sluice::parquet {

// The page index of a column chunk (parquet-format's PageIndex.md): where each data page is and
// which rows it starts with (OffsetIndex), and each page's bounds (ColumnIndex). Writers put
// them between the last row group and the footer; the ColumnChunk records where.

struct PageLocation {
    int64_t offset = 0;               // of the page header in the file
    int32_t compressed_page_size = 0; // header included
    int64_t first_row_index = 0;      // in the row group
};

struct OffsetIndex {
    std::vector<PageLocation> page_locations;
};

struct ColumnIndex {
    std::vector<bool> null_pages;
    std::vector<std::string> min_values; // per the column order; empty for null pages
    std::vector<std::string> max_values;
    std::vector<int64_t> null_counts; // empty when the writer left them out
};

// Decoders; throw CorruptData with a reason on malformed input. DecodeOffsetIndex also
// checks the pages against the chunk: offsets ascending inside [chunk_begin, chunk_end), rows
// starting at 0 and ascending below `rows`.
OffsetIndex DecodeOffsetIndex(const uint8_t* data, size_t size, uint64_t chunk_begin,
                              uint64_t chunk_end, int64_t rows);
ColumnIndex DecodeColumnIndex(const uint8_t* data, size_t size, size_t page_count);

// Encoders, for the writer.
void EncodeOffsetIndex(const OffsetIndex& index, std::vector<uint8_t>& out);
void EncodeColumnIndex(const ColumnIndex& index, std::vector<uint8_t>& out);

// Page `page` of `index` as statistics of `rows` rows in the column's Sluice type, trusted as
// a chunk's statistics are (parquet_statistics).
ColumnStatistics PageStatistics(const ParquetColumn& column, const ColumnIndex& index, size_t page,
                                int64_t rows);

} // namespace sluice::parquet
