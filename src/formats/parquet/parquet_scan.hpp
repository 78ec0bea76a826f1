#pragma once

#include "common/table_filter.hpp"
#include "formats/parquet/parquet_reader.hpp"
#include "io/file_system.hpp"
#include "parallel/pipeline.hpp"

#include <atomic>
#include <memory>
#include <vector>

namespace sluice::parquet {

// An opened Parquet file: its handle (thread-safe positional reads) and its metadata.
struct ParquetFile {
    std::shared_ptr<FileHandle> handle;
    std::shared_ptr<const ParquetFileReader> reader;
    // The file's column for each column of the scan (-1: the file lacks it, read as NULLs).
    // Empty means the file's columns are the scan's (no union_by_name).
    std::vector<int64_t> column_map;

    int64_t FileColumn(size_t scan_column) const {
        return column_map.empty() ? static_cast<int64_t>(scan_column) : column_map[scan_column];
    }
};

// The synchronous driver of read_parquet: each task claims the next row group (across all
// files, in order), reads its planned byte ranges with blocking reads, and decodes it 2048 rows
// at a time. The asynchronous read-ahead scan replaces the blocking reads.
class ParquetScanSource : public PipelineSource {
public:
    std::string Name() const override { return "READ_PARQUET"; }
    // Column ids beyond the file's columns: the file's path and the row's number in its file.
    static constexpr size_t kFilenameColumn = SIZE_MAX - 1;
    static constexpr size_t kFileRowNumberColumn = SIZE_MAX - 2;
    // Row groups whose statistics rule out `filters` (on file columns) are never read.
    ParquetScanSource(std::vector<ParquetFile> files, std::vector<size_t> column_ids,
                      std::vector<LogicalType> types, const std::vector<TableFilter>& filters = {});

    std::vector<LogicalType> OutputTypes() const override { return types_; }
    std::unique_ptr<LocalState> InitLocal() override;
    SourceResult GetData(DataChunk& out, LocalState* local, TaskContext& context) override;
    idx_t MaxThreads() const override { return jobs_.size() == 0 ? 1 : jobs_.size(); }
    idx_t BatchIndex(LocalState* local) const override;
    double Progress() const override;

    size_t row_groups_to_read() const { return jobs_.size(); }
    size_t row_groups_pruned() const { return pruned_; }

private:
    struct Job {
        size_t file;
        size_t row_group;
    };
    void FillVirtualColumns(DataChunk& out, const Job& job, int64_t first_row) const;

    std::vector<ParquetFile> files_;
    std::vector<size_t> column_ids_;
    // Per file: the file columns to decode, where each goes in the output chunk, and the output
    // columns the file lacks (NULL).
    struct FileProjection {
        std::vector<size_t> decoded;
        std::vector<idx_t> positions;
        std::vector<idx_t> missing;
    };
    std::vector<FileProjection> projections_;
    bool has_virtual_columns_ = false;
    std::vector<std::vector<int64_t>>
        first_rows_; // per file, the first row number of each row group
    std::vector<LogicalType> types_;
    std::vector<Job> jobs_;
    std::atomic<size_t> next_job_{0};
    size_t pruned_ = 0;
};

} // namespace sluice::parquet
