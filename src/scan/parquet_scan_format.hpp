#pragma once

#include "common/table_filter.hpp"
#include "formats/parquet/parquet_reader.hpp"
#include "io/file_system.hpp"
#include "scan/scan_format.hpp"

#include <memory>
#include <string>
#include <vector>

namespace sluice {

// An opened Parquet file: its handle (thread-safe positional reads) and its footer.
struct ParquetFile {
    std::shared_ptr<FileHandle> handle;
    std::shared_ptr<const parquet::ParquetFileReader> reader;
    // The file's column for each column of the scan (-1: the file lacks it, read as NULLs).
    // Empty means the file's columns are the scan's (no union_by_name).
    std::vector<int64_t> column_map;

    int64_t FileColumn(size_t scan_column) const {
        return column_map.empty() ? static_cast<int64_t>(scan_column) : column_map[scan_column];
    }
};

// Opens `path`, its footer read once per process and file version (ParquetFooterCache).
ParquetFile OpenParquetFile(FileSystem& file_system, const std::string& path);

// read_parquet's files for the MultiFileScan: one job per row group (row groups whose statistics
// rule out the filters are pruned when the file is planned), whose ranges are the projected
// columns' chunks; decoding fills the scan's columns, NULLs for columns a file lacks
// (union_by_name) and the virtual filename / file_row_number columns.
class ParquetScanFormat : public ScanFormat {
public:
    // Column ids beyond the files' columns: the file's path and the row's number in its file.
    static constexpr size_t kFilenameColumn = SIZE_MAX - 1;
    static constexpr size_t kFileRowNumberColumn = SIZE_MAX - 2;

    // `opened[i]`, where it has a reader, is file i opened at bind time; the other files are
    // opened when planned and must have the columns of `schema` (same names and types).
    ParquetScanFormat(FileSystem& file_system, std::vector<std::string> paths,
                      std::vector<ParquetFile> opened, std::vector<parquet::ParquetColumn> schema,
                      std::vector<size_t> column_ids, std::vector<LogicalType> types,
                      std::vector<TableFilter> filters);

    std::string Name() const override { return "READ_PARQUET"; }
    std::vector<LogicalType> OutputTypes() const override { return types_; }
    size_t FileCount() const override { return paths_.size(); }
    const std::string& FilePath(size_t file) const override { return paths_[file]; }
    PlannedFile PlanFile(size_t file) override;
    std::unique_ptr<ScanJobDecoder> Decode(size_t file, const ScanJobPlan& job,
                                           std::vector<ByteBuffer> buffers) override;

    // Per file: the file columns to decode, where each goes in the output chunk, and the output
    // columns the file lacks (NULL).
    struct FileProjection {
        std::vector<size_t> decoded;
        std::vector<idx_t> positions;
        std::vector<idx_t> missing;
    };

private:
    bool RowGroupMayMatch(const ParquetFile& file, size_t row_group) const;

    FileSystem& file_system_;
    std::vector<std::string> paths_;
    std::vector<ParquetFile> files_; // slot i filled by PlanFile(i) unless opened at bind
    std::vector<FileProjection> projections_;
    std::vector<parquet::ParquetColumn> schema_;
    std::vector<size_t> column_ids_;
    std::vector<LogicalType> types_;
    std::vector<TableFilter> filters_;
};

} // namespace sluice
