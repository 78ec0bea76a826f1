#pragma once

#include "common/data_chunk.hpp"
#include "formats/parquet/page_index.hpp"
#include "formats/parquet/row_group_encoder.hpp"
#include "formats/parquet/write_schema.hpp"

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
    // Column and offset indexes after the row groups (parquet-format's PageIndex.md).
    bool write_page_index = true;

    ColumnEncodeOptions ColumnOptions(const std::string& spill_directory) const;
};

// The codec a COMPRESSION option names (uncompressed, snappy, gzip, zstd, lz4, lz4_raw, brotli);
// throws an InvalidInput error listing them otherwise.
Codec CodecFromName(const std::string& name);

// Writes a Parquet file: row groups of `row_group_size` rows, dictionary encoding while it pays,
// data pages of about `page_size` bytes with statistics, min/max/null-count statistics per column
// chunk, and a page index (column and offset index) per chunk; every column OPTIONAL, nested
// ones shredded into their leaves (see WriteSchema). Rows are
// encoded as they arrive (Append), so a row group of any size streams through bounded memory; or
// row groups encoded elsewhere, possibly in parallel, are placed (AppendRowGroup, and
// OrderRowGroups when they were not appended in their order).
class ParquetWriter {
public:
    ParquetWriter(std::string path, const std::vector<std::string>& names,
                  const std::vector<LogicalType>& types, ParquetWriteOptions options);
    // A file of a schema already built (the row groups placed into it were encoded to it).
    ParquetWriter(std::string path, WriteSchema schema, ParquetWriteOptions options);
    ~ParquetWriter();

    void Append(const DataChunk& chunk);
    void AppendRowGroup(EncodedRowGroup group);
    // The footer, which alone says in what order row groups are read, lists the row groups
    // appended so far in `order` (their indexes in the order they were appended): row groups
    // encoded in parallel are appended as they are done, and put in order here.
    void OrderRowGroups(const std::vector<size_t>& order);
    // Writes the last row group and the footer; the file is complete only after this.
    void Finish();
    uint64_t rows_written() const { return rows_written_; }
    uint64_t bytes_written() const { return offset_; }

    // The directory temporary files of a file at `path` go to: the file's own.
    static std::string DirectoryOf(const std::string& path);

private:
    // A column chunk written to the file, described in the footer once the page indexes that
    // follow the last row group have their places.
    struct PlacedChunk {
        uint64_t start = 0;
        uint64_t data_offset = 0;
        std::optional<uint64_t> dictionary_offset;
        uint64_t values = 0, uncompressed = 0, compressed = 0;
        int64_t nulls = 0;
        MinMax range;
        std::vector<Encoding> encodings;
        OffsetIndex offset_index;
        std::optional<ColumnIndex> column_index; // absent when a page's bounds are not writable
        uint64_t column_index_offset = 0, offset_index_offset = 0;
        uint32_t column_index_length = 0, offset_index_length = 0;
    };
    struct PlacedRowGroup {
        std::vector<PlacedChunk> chunks;
        uint64_t start = 0, rows = 0, uncompressed = 0, compressed = 0;
    };

    void FlushRowGroup();
    PlacedChunk PlaceColumnChunk(EncodedColumnChunk& chunk);
    void WritePageIndexes();
    void EncodeColumnChunk(ThriftCompactWriter& writer, const PlacedChunk& chunk,
                           const WriteLeaf& leaf) const;
    void Write(const void* data, size_t size);

    std::string path_;
    WriteSchema schema_;
    ParquetWriteOptions options_;
    ColumnEncodeOptions column_options_;
    FILE* file_ = nullptr;
    uint64_t offset_ = 0;
    uint64_t rows_written_ = 0;
    bool finished_ = false;

    std::unique_ptr<RowGroupEncoder> current_;
    std::vector<PlacedRowGroup> row_groups_;
};

} // namespace sluice::parquet
