#include "formats/parquet/parquet_scan.hpp"

#include "formats/parquet/parquet_statistics.hpp"

namespace sluice::parquet {

namespace {

struct ScanLocal : LocalState {
    std::unique_ptr<RowGroupDecoder> decoder;
    size_t job = 0;
    idx_t chunk_in_job = 0;
    int64_t rows_in_job = 0;
};

// Batch indices order chunks by job, then by position within the job.
constexpr int kChunkBits = 32;

} // namespace

ParquetScanSource::ParquetScanSource(std::vector<ParquetFile> files, std::vector<size_t> column_ids,
                                     std::vector<LogicalType> types,
                                     const std::vector<TableFilter>& filters)
    : files_(std::move(files)), column_ids_(std::move(column_ids)), types_(std::move(types)) {
    for (const auto& file : files_) {
        FileProjection projection;
        for (size_t i = 0; i < column_ids_.size(); i++) {
            if (column_ids_[i] == kFilenameColumn || column_ids_[i] == kFileRowNumberColumn) {
                has_virtual_columns_ = true;
                continue;
            }
            int64_t column = file.FileColumn(column_ids_[i]);
            if (column < 0) {
                projection.missing.push_back(i);
            } else {
                projection.decoded.push_back(static_cast<size_t>(column));
                projection.positions.push_back(i);
            }
        }
        projections_.push_back(std::move(projection));
    }
    for (const auto& file : files_) {
        std::vector<int64_t> first_rows;
        int64_t row = 0;
        for (size_t g = 0; g < file.reader->RowGroupCount(); g++) {
            first_rows.push_back(row);
            row += file.reader->RowGroupRows(g);
        }
        first_rows_.push_back(std::move(first_rows));
    }
    auto may_match = [&](const ParquetFile& file, size_t row_group) {
        const ParquetFileReader& reader = *file.reader;
        const RowGroup& group = reader.metadata().row_groups[row_group];
        for (const TableFilter& filter : filters) {
            int64_t file_column = file.column_map.empty() || filter.column < file.column_map.size()
                                      ? file.FileColumn(filter.column)
                                      : -1;
            if (file_column < 0 || static_cast<size_t>(file_column) >= reader.columns().size()) {
                continue; // filename, file_row_number, or a column this file lacks
            }
            const ParquetColumn& column = reader.columns()[file_column];
            ColumnStatistics statistics =
                ReadColumnStatistics(column, group.columns[column.leaf_index], group.num_rows);
            if (!MayMatch(filter, statistics)) {
                return false;
            }
        }
        return true;
    };
    for (size_t f = 0; f < files_.size(); f++) {
        for (size_t g = 0; g < files_[f].reader->RowGroupCount(); g++) {
            // Empty row groups have nothing to fetch (and writers leave their offsets at 0).
            if (files_[f].reader->RowGroupRows(g) == 0) {
                continue;
            }
            if (!may_match(files_[f], g)) {
                pruned_++;
                continue;
            }
            jobs_.push_back({f, g});
        }
    }
}

std::unique_ptr<LocalState> ParquetScanSource::InitLocal() {
    return std::make_unique<ScanLocal>();
}

idx_t ParquetScanSource::BatchIndex(LocalState* local) const {
    auto& state = *static_cast<ScanLocal*>(local);
    return (static_cast<idx_t>(state.job) << kChunkBits) | state.chunk_in_job;
}

double ParquetScanSource::Progress() const {
    return jobs_.empty() ? 1.0
                         : std::min(1.0, static_cast<double>(next_job_.load()) / jobs_.size());
}

void ParquetScanSource::FillVirtualColumns(DataChunk& out, const Job& job,
                                           int64_t first_row) const {
    for (size_t i = 0; i < column_ids_.size(); i++) {
        if (column_ids_[i] == kFilenameColumn) {
            out.column(i).SetConstant(Value::Varchar(files_[job.file].reader->path()));
            out.column(i).Flatten(out.size());
        } else if (column_ids_[i] == kFileRowNumberColumn) {
            int64_t* numbers = out.column(i).data<int64_t>();
            for (idx_t row = 0; row < out.size(); row++) {
                numbers[row] = first_row + static_cast<int64_t>(row);
            }
        }
    }
}

SourceResult ParquetScanSource::GetData(DataChunk& out, LocalState* local,
                                        TaskContext& /*context*/) {
    auto& state = *static_cast<ScanLocal*>(local);
    while (true) {
        if (state.decoder) {
            const Job& job = jobs_[state.job];
            const FileProjection& projection = projections_[job.file];
            if (state.decoder->Next(out, projection.positions)) {
                for (idx_t position : projection.missing) {
                    out.column(position).SetConstant(Value::Null(types_[position]));
                }
                if (has_virtual_columns_) {
                    FillVirtualColumns(out, job,
                                       first_rows_[job.file][job.row_group] + state.rows_in_job);
                }
                state.rows_in_job += static_cast<int64_t>(out.size());
                state.chunk_in_job++;
                return SourceResult::HaveMoreOutput;
            }
            state.decoder.reset();
        }
        size_t job_index = next_job_.fetch_add(1);
        if (job_index >= jobs_.size()) {
            return SourceResult::Finished;
        }
        const Job& job = jobs_[job_index];
        const ParquetFile& file = files_[job.file];
        const std::vector<size_t>& decoded = projections_[job.file].decoded;
        std::vector<ByteRange> ranges = file.reader->PlanRowGroup(job.row_group, decoded);
        std::vector<ByteBuffer> buffers;
        for (const ByteRange& range : ranges) {
            buffers.push_back(ByteBuffer::Allocate(range.length));
            file.handle->Read(buffers.back().get(), range.length, range.offset);
        }
        state.decoder = std::make_unique<RowGroupDecoder>(file.reader, job.row_group, decoded,
                                                          std::move(buffers));
        state.job = job_index;
        state.chunk_in_job = 0;
        state.rows_in_job = 0;
    }
}

} // namespace sluice::parquet
