#pragma once

#include "formats/parquet/parquet_reader.hpp"
#include "formats/scan_format.hpp"
#include "io/file_system.hpp"

#include <memory>
#include <mutex>
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
    // For a remote file only the first row group that may match is planned at once, without
    // reading its page index or bloom filters unless it must be cut into page-level jobs: its
    // fetch then leaves right after the footer, and the other groups' index reads (a round trip
    // and, for a large file, hundreds of KB) follow in PlanRemainingJobs meanwhile.
    FileJobs PlanJobs(const FileProjection& projection, const IoContext& context) override;
    FileJobs PlanRemainingJobs(const IoContext& context) override;
    std::unique_ptr<ScanJobDecoder> Decode(const ScanJobPlan& job, std::vector<ByteBuffer> buffers,
                                           const IoContext& context) override;

    const parquet::ParquetFileReader& reader() const { return *reader_; }

private:
    // The chunk whose statistics and bloom filter bound what `filter` reads: a flat column's,
    // or for a filter on a struct field, its leaf's (unless inside a list). Null: none.
    const parquet::ParquetColumn* FilteredChunk(const TableFilter& filter) const;
    bool RowGroupMayMatch(size_t row_group, const std::vector<TableFilter>& filters) const;
    // Whether the bloom filters of `row_group` leave a value of every equality and IN filter
    // possible. Reads each filtered column's bloom filter (one small read each, on the thread
    // planning the file); chunks without one say yes.
    bool BloomFiltersMayMatch(size_t row_group, const std::vector<TableFilter>& filters,
                              const IoContext& context) const;

    // Plans `groups` (ascending). `first_fast`: no bloom filter or page bound is read, only the
    // page index of a group that must be cut.
    FileJobs PlanGroups(const std::vector<size_t>& groups, const IoContext& context,
                        bool first_fast);

    std::shared_ptr<FileHandle> handle_;
    std::shared_ptr<const parquet::ParquetFileReader> reader_;
    std::vector<ScanColumn> columns_;
    FileProjection projection_;
    std::vector<int64_t> first_rows_;            // of each row group in the file, and the total
    std::vector<size_t> remaining_;              // groups PlanRemainingJobs plans
    mutable std::mutex slices_mutex_;            // slices_ grows while jobs decode
    std::vector<parquet::RowGroupSlice> slices_; // what job `index_in_file` decodes
};

class ParquetScanFormat : public ScanFormat {
public:
    std::string Name() const override { return "READ_PARQUET"; }
    bool FiltersRows() const override { return true; }
    std::shared_ptr<ScanFile> Open(FileSystem& file_system, const std::string& path,
                                   const IoContext& context) override;
};

// Opens `path` as a Parquet file (its footer read through the cache).
std::shared_ptr<ParquetScanFile> OpenParquetFile(FileSystem& file_system, const std::string& path,
                                                 const IoContext& context = {});

} // namespace sluice
