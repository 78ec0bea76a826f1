#include "scan/parquet_scan_format.hpp"

#include "common/exception.hpp"
#include "formats/parquet/parquet_footer_cache.hpp"
#include "formats/parquet/parquet_statistics.hpp"

namespace sluice {

namespace {

std::string ColumnSignature(const parquet::ParquetColumn& column) {
    return column.name + " " + column.type.ToString();
}

class ParquetJobDecoder : public ScanJobDecoder {
public:
    ParquetJobDecoder(const ParquetFile& file, const ParquetScanFormat::FileProjection& projection,
                      const std::vector<size_t>& column_ids, const std::vector<LogicalType>& types,
                      const ScanJobPlan& job, std::vector<ByteBuffer> buffers)
        : decoder_(file.reader, job.index_in_file, projection.decoded, std::move(buffers)),
          projection_(projection), column_ids_(column_ids), types_(types),
          path_(file.reader->path()), next_row_(job.first_row) {}

    bool Next(DataChunk& out) override {
        if (!decoder_.Next(out, projection_.positions)) {
            return false;
        }
        for (idx_t position : projection_.missing) {
            out.column(position).SetConstant(Value::Null(types_[position]));
        }
        for (size_t i = 0; i < column_ids_.size(); i++) {
            if (column_ids_[i] == ParquetScanFormat::kFilenameColumn) {
                out.column(i).SetConstant(Value::Varchar(path_));
                out.column(i).Flatten(out.size());
            } else if (column_ids_[i] == ParquetScanFormat::kFileRowNumberColumn) {
                int64_t* numbers = out.column(i).data<int64_t>();
                for (idx_t row = 0; row < out.size(); row++) {
                    numbers[row] = next_row_ + static_cast<int64_t>(row);
                }
            }
        }
        next_row_ += static_cast<int64_t>(out.size());
        return true;
    }

private:
    parquet::RowGroupDecoder decoder_;
    const ParquetScanFormat::FileProjection& projection_;
    const std::vector<size_t>& column_ids_;
    const std::vector<LogicalType>& types_;
    std::string path_;
    int64_t next_row_;
};

// Throws unless `file` has the columns of `schema`.
void CheckSameSchema(const ParquetFile& file, const std::vector<parquet::ParquetColumn>& schema,
                     const std::string& schema_source) {
    const auto& other = file.reader->columns();
    bool same = other.size() == schema.size();
    for (size_t i = 0; same && i < schema.size(); i++) {
        same = ColumnSignature(other[i]) == ColumnSignature(schema[i]);
    }
    if (!same) {
        throw Exception(ErrorKind::InvalidInput, "file '" + file.reader->path() +
                                                     "' has a different schema than '" +
                                                     schema_source +
                                                     "'; union_by_name = true reads them by "
                                                     "column name");
    }
}

} // namespace

ParquetFile OpenParquetFile(FileSystem& file_system, const std::string& path) {
    ParquetFile file;
    file.handle = file_system.Open(path);
    file.reader = parquet::ParquetFooterCache::Instance().Get(*file.handle);
    return file;
}

ParquetScanFormat::ParquetScanFormat(FileSystem& file_system, std::vector<std::string> paths,
                                     std::vector<ParquetFile> opened,
                                     std::vector<parquet::ParquetColumn> schema,
                                     std::vector<size_t> column_ids, std::vector<LogicalType> types,
                                     std::vector<TableFilter> filters)
    : file_system_(file_system), paths_(std::move(paths)), files_(std::move(opened)),
      schema_(std::move(schema)), column_ids_(std::move(column_ids)), types_(std::move(types)),
      filters_(std::move(filters)) {
    files_.resize(paths_.size());
    projections_.resize(paths_.size());
}

bool ParquetScanFormat::RowGroupMayMatch(const ParquetFile& file, size_t row_group) const {
    const parquet::ParquetFileReader& reader = *file.reader;
    const parquet::RowGroup& group = reader.metadata().row_groups[row_group];
    for (const TableFilter& filter : filters_) {
        int64_t file_column = file.column_map.empty() || filter.column < file.column_map.size()
                                  ? file.FileColumn(filter.column)
                                  : -1;
        if (file_column < 0 || static_cast<size_t>(file_column) >= reader.columns().size()) {
            continue; // filename, file_row_number, or a column this file lacks
        }
        const parquet::ParquetColumn& column = reader.columns()[file_column];
        ColumnStatistics statistics =
            parquet::ReadColumnStatistics(column, group.columns[column.leaf_index], group.num_rows);
        if (!MayMatch(filter, statistics)) {
            return false;
        }
    }
    return true;
}

PlannedFile ParquetScanFormat::PlanFile(size_t index) {
    ParquetFile& file = files_[index];
    if (!file.reader) {
        file = OpenParquetFile(file_system_, paths_[index]);
        CheckSameSchema(file, schema_, paths_[0]);
    }
    FileProjection& projection = projections_[index];
    for (size_t i = 0; i < column_ids_.size(); i++) {
        if (column_ids_[i] == kFilenameColumn || column_ids_[i] == kFileRowNumberColumn) {
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
    PlannedFile planned;
    planned.handle = file.handle;
    int64_t first_row = 0;
    for (size_t g = 0; g < file.reader->RowGroupCount(); g++) {
        int64_t rows = file.reader->RowGroupRows(g);
        // Empty row groups have nothing to fetch (and writers leave their offsets at 0).
        if (rows > 0) {
            if (RowGroupMayMatch(file, g)) {
                ScanJobPlan job;
                job.index_in_file = g;
                job.ranges = file.reader->PlanRowGroup(g, projection.decoded);
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

std::unique_ptr<ScanJobDecoder> ParquetScanFormat::Decode(size_t file, const ScanJobPlan& job,
                                                          std::vector<ByteBuffer> buffers) {
    return std::make_unique<ParquetJobDecoder>(files_[file], projections_[file], column_ids_,
                                               types_, job, std::move(buffers));
}

} // namespace sluice
