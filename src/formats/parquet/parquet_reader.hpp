#pragma once

#include "common/byte_buffer.hpp"
#include "common/data_chunk.hpp"
#include "formats/parquet/column_reader.hpp"
#include "formats/parquet/parquet_metadata.hpp"
#include "formats/parquet/parquet_schema.hpp"
#include "io/byte_range.hpp"
#include "io/file_system.hpp"

#include <memory>
#include <string>
#include <vector>

namespace sluice::parquet {

// One Parquet file's metadata, and the plan of what to fetch for a row group. The reader does
// no I/O after Open: callers fetch the planned ranges (synchronously today, asynchronously in the
// read-ahead scan) and hand the bytes to a RowGroupDecoder.
class ParquetFileReader {
public:
    static constexpr uint64_t kDefaultTailRead = 64 * 1024;

    // Reads the footer with one read of the file's tail, and a second only when the footer is
    // larger than that. Errors are Invalid Input errors naming the file.
    static std::shared_ptr<ParquetFileReader> Open(FileHandle& file,
                                                   uint64_t tail_read = kDefaultTailRead);

    const std::string& path() const { return path_; }
    uint64_t file_size() const { return file_size_; }
    const FileMetaData& metadata() const { return metadata_; }
    const std::vector<ParquetColumn>& columns() const { return columns_; }
    size_t RowGroupCount() const { return metadata_.row_groups.size(); }
    int64_t RowGroupRows(size_t row_group) const {
        return metadata_.row_groups[row_group].num_rows;
    }

    // The byte range of each projected column chunk of `row_group`, in projection order.
    std::vector<ByteRange> PlanRowGroup(size_t row_group,
                                        const std::vector<size_t>& column_ids) const;

    // "file 'x', row group 2, column 'y'"
    std::string Context(size_t row_group, const std::string& column) const;

private:
    std::string path_;
    uint64_t file_size_ = 0;
    uint64_t metadata_start_ = 0; // where the footer begins: column data must end before it
    FileMetaData metadata_;
    std::vector<ParquetColumn> columns_;
};

// Decodes one row group, whose planned ranges are in memory, 2048 rows at a time.
class RowGroupDecoder {
public:
    // `buffers` hold the planned ranges, in the plan's order.
    RowGroupDecoder(std::shared_ptr<const ParquetFileReader> file, size_t row_group,
                    const std::vector<size_t>& column_ids, std::vector<ByteBuffer> buffers);

    // Fills the next rows into `out`, the i-th decoded column into column `positions[i]` (all
    // columns in order when `positions` is empty); false once the group is done.
    bool Next(DataChunk& out, const std::vector<idx_t>& positions = {});

private:
    std::shared_ptr<const ParquetFileReader> file_;

    std::vector<std::unique_ptr<ColumnReader>> readers_;
    uint64_t rows_left_;
};

} // namespace sluice::parquet
