#include "formats/parquet/parquet_scan_format.hpp"

#include "formats/parquet/parquet_footer_cache.hpp"
#include "formats/parquet/parquet_statistics.hpp"

namespace sluice {

namespace {

class ParquetJobDecoder : public ScanJobDecoder {
public:
    ParquetJobDecoder(std::shared_ptr<const parquet::ParquetFileReader> reader,
                      const FileProjection& projection, const ScanJobPlan& job,
                      std::vector<ByteBuffer> buffers)
        : decoder_(std::move(reader), job.index_in_file, projection.columns, std::move(buffers)),
          positions_(projection.positions) {}

    bool Next(DataChunk& out) override { return decoder_.Next(out, positions_); }

private:
    parquet::RowGroupDecoder decoder_;
    const std::vector<idx_t>& positions_;
};

} // namespace

ParquetScanFile::ParquetScanFile(std::shared_ptr<FileHandle> handle,
                                 std::shared_ptr<const parquet::ParquetFileReader> reader)
    : handle_(std::move(handle)), reader_(std::move(reader)) {
    for (const parquet::ParquetColumn& column : reader_->columns()) {
        columns_.push_back({column.name, column.type, column.unsupported});
    }
}

double ParquetScanFile::EstimatedRows() const {
    return static_cast<double>(reader_->metadata().num_rows);
}

bool ParquetScanFile::RowGroupMayMatch(size_t row_group,
                                       const std::vector<TableFilter>& filters) const {
    const parquet::RowGroup& group = reader_->metadata().row_groups[row_group];
    for (const TableFilter& filter : filters) {
        const parquet::ParquetColumn& column = reader_->columns()[filter.column];
        ColumnStatistics statistics =
            parquet::ReadColumnStatistics(column, group.columns[column.leaf_index], group.num_rows);
        if (!MayMatch(filter, statistics)) {
            return false;
        }
    }
    return true;
}

FileJobs ParquetScanFile::PlanJobs(const FileProjection& projection) {
    projection_ = projection;
    FileJobs planned;
    int64_t first_row = 0;
    for (size_t g = 0; g < reader_->RowGroupCount(); g++) {
        int64_t rows = reader_->RowGroupRows(g);
        // Empty row groups have nothing to fetch (and writers leave their offsets at 0).
        if (rows > 0) {
            if (RowGroupMayMatch(g, projection.filters)) {
                ScanJobPlan job;
                job.index_in_file = g;
                job.ranges = reader_->PlanRowGroup(g, projection_.columns);
                job.rows = rows;
                job.first_row = first_row;
                planned.jobs.push_back(std::move(job));
            } else {
                planned.jobs_pruned++;
            }
        }
        first_row += rows;
    }
    return planned;
}

std::unique_ptr<ScanJobDecoder> ParquetScanFile::Decode(const ScanJobPlan& job,
                                                        std::vector<ByteBuffer> buffers) {
    return std::make_unique<ParquetJobDecoder>(reader_, projection_, job, std::move(buffers));
}

std::shared_ptr<ParquetScanFile> OpenParquetFile(FileSystem& file_system, const std::string& path) {
    std::shared_ptr<FileHandle> handle = file_system.Open(path);
    auto reader = parquet::ParquetFooterCache::Instance().Get(*handle);
    return std::make_shared<ParquetScanFile>(std::move(handle), std::move(reader));
}

std::shared_ptr<ScanFile> ParquetScanFormat::Open(FileSystem& file_system,
                                                  const std::string& path) {
    return OpenParquetFile(file_system, path);
}

} // namespace sluice
