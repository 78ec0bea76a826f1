#pragma once

#include "common/byte_buffer.hpp"
#include "common/data_chunk.hpp"
#include "common/table_filter.hpp"
#include "formats/parquet/column_reader.hpp"
#include "formats/parquet/nested_column_reader.hpp"
#include "formats/parquet/page_index.hpp"
#include "formats/parquet/parquet_metadata.hpp"
#include "formats/parquet/parquet_schema.hpp"
#include "io/byte_range.hpp"
#include "io/file_system.hpp"

#include <memory>
#include <string>
#include <vector>

namespace sluice::parquet {

// What one job decodes of a row group: rows [first_row, first_row + rows) of the group, and the
// byte ranges of each projected column that hold them: the whole column chunk, or (cut by its
// offset index) its dictionary page and the run of data pages covering those rows.
struct RowGroupSlice {
    size_t row_group = 0;
    uint64_t first_row = 0;
    uint64_t rows = 0;
    std::vector<ByteRange> ranges;      // every column's ranges, in projection order
    std::vector<size_t> range_counts;   // how many of `ranges` each column has
    std::vector<uint64_t> ranges_start; // the group row each column's ranges start at
    // Per column: of a nested one, the leaves whose chunks are in `ranges` (empty: all).
    std::vector<LeafMask> leaf_masks;
};

// One Parquet file's metadata, and the plan of what to fetch for a row group. The reader does
// no I/O after Open: callers fetch the planned ranges (synchronously today, asynchronously in the
// read-ahead scan) and hand the bytes to a RowGroupDecoder.
class ParquetFileReader {
public:
    static constexpr uint64_t kDefaultTailRead = 64 * 1024;

    // Reads the footer with one read of the file's tail, and a second only when the footer is
    // larger than that. Errors are Invalid Input errors naming the file.
    static std::shared_ptr<ParquetFileReader> Open(FileHandle& file, const IoContext& context = {},
                                                   uint64_t tail_read = kDefaultTailRead);

    const std::string& path() const { return path_; }
    uint64_t file_size() const { return file_size_; }
    const FileMetaData& metadata() const { return metadata_; }
    const std::vector<ParquetColumn>& columns() const { return columns_; }
    size_t RowGroupCount() const { return metadata_.row_groups.size(); }
    int64_t RowGroupRows(size_t row_group) const {
        return metadata_.row_groups[row_group].num_rows;
    }

    // The byte range of each projected column chunk of `row_group`, in projection order; of a
    // nested column, the chunks of the leaves `leaf_masks` (per column, or empty) selects.
    std::vector<ByteRange> PlanRowGroup(size_t row_group, const std::vector<size_t>& column_ids,
                                        const std::vector<LeafMask>& leaf_masks = {}) const;
    // All rows of `row_group`: each column's whole chunk (of a nested one, the selected leaves').
    RowGroupSlice WholeRowGroup(size_t row_group, const std::vector<size_t>& column_ids,
                                const std::vector<LeafMask>& leaf_masks = {}) const;
    // Rows [first_row, first_row + rows) of `row_group`, each projected column cut by its offset
    // index (`offset_indexes[i]` for column_ids[i], checked by DecodeOffsetIndex).
    RowGroupSlice SliceRowGroup(size_t row_group, const std::vector<size_t>& column_ids,
                                const std::vector<OffsetIndex>& offset_indexes, uint64_t first_row,
                                uint64_t rows) const;
    // Where the offset index and the column index of a chunk are, if it has them and they lie
    // inside the file.
    std::optional<ByteRange> OffsetIndexRange(size_t row_group, size_t column_id) const;
    std::optional<ByteRange> ColumnIndexRange(size_t row_group, size_t column_id) const;

    // "file 'x', row group 2, column 'y'"
    std::string Context(size_t row_group, const std::string& column) const;

private:
    // The mask of column_ids[i] in `leaf_masks`, if it selects leaves of that column.
    LeafMask MaskOf(const std::vector<size_t>& column_ids, const std::vector<LeafMask>& leaf_masks,
                    size_t i) const;
    // The validated byte range of a flat column's (or a leaf's) chunk.
    ByteRange ChunkRange(size_t row_group, const ParquetColumn& column) const;
    std::optional<ByteRange> IndexRange(std::optional<int64_t> offset,
                                        std::optional<int32_t> length) const;

    std::string path_;
    uint64_t file_size_ = 0;
    uint64_t metadata_start_ = 0; // where the footer begins: column data must end before it
    FileMetaData metadata_;
    std::vector<ParquetColumn> columns_;
};

// Decodes a slice of a row group, whose ranges are in memory, 2048 rows at a time. Given filters,
// it drops the rows they rule out while decoding: the filtered columns first, each only for the
// rows that passed the ones before (the most selective first, as measured), then the other
// columns only for the rows that passed all.
class RowGroupDecoder {
public:
    // `buffers` hold the slice's ranges, in its order; `filters` are on file column indices
    // (those on columns not in `column_ids` are ignored).
    // With `memory`, the readers' decompression buffers are reserved there.
    RowGroupDecoder(std::shared_ptr<const ParquetFileReader> file, const RowGroupSlice& slice,
                    const std::vector<size_t>& column_ids, std::vector<ByteBuffer> buffers,
                    const std::vector<TableFilter>& filters = {}, MemoryManager* memory = nullptr);
    // The whole row group.
    RowGroupDecoder(std::shared_ptr<const ParquetFileReader> file, size_t row_group,
                    const std::vector<size_t>& column_ids, std::vector<ByteBuffer> buffers,
                    const std::vector<TableFilter>& filters = {}, MemoryManager* memory = nullptr);

    // Fills the next rows into `out`, the i-th decoded column into column `positions[i]` (all
    // columns in order when `positions` is empty); false once the group is done. With filters,
    // a chunk holds only rows that pass them, and never zero rows.
    bool Next(DataChunk& out, const std::vector<idx_t>& positions = {});

    // With filters: the row of the slice each row of the last chunk is. Null without filters
    // (the chunk's rows are the next rows of the slice).
    const uint64_t* RowsInSlice() const { return filters_.empty() ? nullptr : rows_in_slice_; }
    // Rows the filters dropped so far.
    uint64_t RowsFiltered() const { return rows_filtered_; }

private:
    // The reader of one decoded column: a flat column's chunk, or a nested column's leaves.
    struct ColumnSource {
        std::unique_ptr<ColumnReader> flat;
        std::unique_ptr<NestedColumnReader> nested;

        void Skip(uint64_t count);
        void Read(idx_t count, Vector& out);
        void ReadSelected(idx_t count, const uint32_t* selection, size_t selected, Vector& out);
    };

    // The filters on one decoded column, and how many rows they let through so far.
    struct ColumnFilters {
        size_t reader;
        std::vector<TableFilter> filters;
        uint64_t rows_in = 0;
        uint64_t rows_out = 0;
        std::vector<uint32_t> rows; // rows of the batch its vector holds, after its filters
    };

    // Decodes the filtered columns of the next `count` rows; returns how many pass, their rows
    // in `selection_`.
    size_t DecodeFiltered(idx_t count, DataChunk& out, const std::vector<idx_t>& positions);

    std::shared_ptr<const ParquetFileReader> file_;

    std::vector<ColumnSource> readers_;
    std::vector<bool> filtered_; // per reader
    std::vector<ColumnFilters> filters_;
    uint64_t rows_left_;
    uint64_t rows_done_ = 0;
    uint64_t rows_filtered_ = 0;
    uint32_t selection_[kVectorSize];
    uint32_t positions_[kVectorSize];
    uint64_t rows_in_slice_[kVectorSize];
};

} // namespace sluice::parquet
