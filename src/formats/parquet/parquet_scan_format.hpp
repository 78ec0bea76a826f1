#pragma once

#include "formats/parquet/parquet_reader.hpp"
#include "formats/scan_format.hpp"
#include "io/file_system.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sluice {

// An opened Parquet file for the multi-file scan: one job per row group (row groups whose
// statistics or bloom filters rule out the filters are pruned when the file is planned), whose
// ranges are the projected columns' chunks. Where the chunks have a page index, a row group
// larger than the scan's job size is cut into jobs of row ranges at page boundaries, and rows
// whose pages' bounds rule out the filters are left out of every job. The footer is read once
// per process and file version (ParquetFooterCache).
class ParquetScanFile : public ScanFile {
public:
    ParquetScanFile(std::shared_ptr<FileHandle> handle,
                    std::shared_ptr<const parquet::ParquetFileReader> reader);

    const std::string& path() const override { return reader_->path(); }
    std::shared_ptr<FileHandle> handle() const override { return handle_; }
    const std::vector<ScanColumn>& Columns() const override { return columns_; }
    double EstimatedRows() const override;
    double DistinctEstimate(size_t column) const override;
    bool KnowsRowNumbers() const override { return true; }
    FileJobs PlanJobs(const FileProjection& projection) override;
    std::unique_ptr<ScanJobDecoder> Decode(const ScanJobPlan& job,
                                           std::vector<ByteBuffer> buffers) override;

    const parquet::ParquetFileReader& reader() const { return *reader_; }

private:
    // The page index of a row group's projected and filtered columns, where it has one.
    struct PageIndexes {
        std::vector<parquet::OffsetIndex> offsets; // per projected column; empty if one lacks it
        std::vector<std::optional<parquet::OffsetIndex>> filter_offsets; // per filter
        std::vector<std::optional<parquet::ColumnIndex>> filter_bounds;  // per filter
    };

    bool RowGroupMayMatch(size_t row_group, const std::vector<TableFilter>& filters) const;
    // Whether the bloom filters of `row_group` leave a value of every equality and IN filter
    // possible. Reads each filtered column's bloom filter (one small read each, on the thread
    // planning the file); chunks without one say yes.
    bool BloomFiltersMayMatch(size_t row_group, const std::vector<TableFilter>& filters) const;

    // The page locations of a chunk without an offset index, from its page headers: one small
    // read per page, so only for local files. Nullopt when the headers do not add up to the
    // row group (the group is then read whole, and errors reported by its decoder).
    std::optional<parquet::OffsetIndex> WalkPageHeaders(size_t group, size_t column) const;
    // Reads and decodes the page indexes of `groups` (one read per stretch of index bytes); for
    // columns without an offset index, walks their page headers. False entries of `usable`:
    // groups whose pages could not be located.
    std::vector<PageIndexes> ReadPageIndexes(const std::vector<size_t>& groups,
                                             std::vector<bool>& usable) const;
    // The rows of `group` in which every filter may match by the page index: ascending,
    // disjoint [begin, end) ranges.
    std::vector<std::pair<uint64_t, uint64_t>> RowsThatMayMatch(size_t group,
                                                                const PageIndexes& indexes) const;
    // Jobs over rows [begin, end) of `group`, cut at page boundaries into pieces of about
    // projection_.max_job_bytes.
    void CutIntoJobs(size_t group, const PageIndexes& indexes, uint64_t begin, uint64_t end,
                     int64_t group_first_row, FileJobs& planned);

    std::shared_ptr<FileHandle> handle_;
    std::shared_ptr<const parquet::ParquetFileReader> reader_;
    std::vector<ScanColumn> columns_;
    FileProjection projection_;
    std::vector<parquet::RowGroupSlice> slices_; // what job `index_in_file` decodes
};

class ParquetScanFormat : public ScanFormat {
public:
    std::string Name() const override { return "READ_PARQUET"; }
    std::shared_ptr<ScanFile> Open(FileSystem& file_system, const std::string& path) override;
};

// Opens `path` as a Parquet file (its footer read through the cache).
std::shared_ptr<ParquetScanFile> OpenParquetFile(FileSystem& file_system, const std::string& path);

} // namespace sluice
