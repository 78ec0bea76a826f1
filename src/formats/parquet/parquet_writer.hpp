#pragma once

#include "common/data_chunk.hpp"
#include "formats/parquet/parquet_metadata.hpp"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace sluice::parquet {

struct ParquetWriteOptions {
    uint64_t row_group_size = 122880; // rows, DuckDB's default
    Codec codec = Codec::SNAPPY;
    uint64_t page_size = 1 << 20; // target uncompressed bytes per data page
    // Columns with at most this many distinct values in a row group are dictionary encoded.
    uint32_t max_dictionary_values = 1 << 16;
};

// Writes rows to a Parquet file: row groups of `row_group_size` rows, dictionary encoding for
// low-cardinality columns, data pages of about `page_size` bytes with statistics, and
// min/max/null-count statistics per column chunk. Every column is written OPTIONAL.
class ParquetWriter {
public:
    ParquetWriter(std::string path, std::vector<std::string> names, std::vector<LogicalType> types,
                  ParquetWriteOptions options);
    ~ParquetWriter();

    void Append(const DataChunk& chunk);
    // Writes the last row group and the footer; the file is complete only after this.
    void Finish();
    uint64_t rows_written() const { return rows_written_; }

private:
    struct ColumnChunkResult;

    void FlushRowGroup();
    ColumnChunkResult WriteColumn(size_t column);
    void Write(const void* data, size_t size);

    std::string path_;
    std::vector<std::string> names_;
    std::vector<LogicalType> types_;
    ParquetWriteOptions options_;
    FILE* file_ = nullptr;
    uint64_t offset_ = 0;
    uint64_t rows_written_ = 0;
    bool finished_ = false;

    std::vector<std::unique_ptr<DataChunk>> buffered_;
    uint64_t buffered_rows_ = 0;
    std::vector<uint8_t> footer_row_groups_; // encoded RowGroup structs
    uint32_t row_group_count_ = 0;
};

} // namespace sluice::parquet
