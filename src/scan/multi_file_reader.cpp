#include "scan/multi_file_reader.hpp"

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "parallel/run_concurrently.hpp"

#include <algorithm>

namespace sluice {

namespace {

bool SameColumn(const ScanColumn& a, const ScanColumn& b) {
    return a.name == b.name && a.type == b.type;
}

// Folder values are typed as DuckDB types them: the narrowest of DATE, TIMESTAMP and BIGINT that
// every file's value parses as, else VARCHAR. "NULL" is a NULL of any type.
LogicalType PartitionType(const std::vector<std::string>& values) {
    for (LogicalTypeId candidate :
         {LogicalTypeId::DATE, LogicalTypeId::TIMESTAMP, LogicalTypeId::BIGINT}) {
        bool all = std::all_of(values.begin(), values.end(), [&](const std::string& text) {
            Value parsed;
            return text == "NULL" || TryParseValue(text, candidate, parsed);
        });
        if (all) {
            return candidate;
        }
    }
    return LogicalTypeId::VARCHAR;
}

void AddHivePartitions(MultiFileBinding& binding, const MultiFileOptions& options) {
    auto first = HivePartitions(binding.paths[0]);
    bool enabled = options.hive_partitioning.value_or(!first.empty());
    if (!enabled) {
        return;
    }
    for (const auto& [key, value] : first) {
        binding.partition_keys.push_back(key);
    }
    std::vector<std::vector<std::string>> texts(binding.partition_keys.size());
    for (const std::string& path : binding.paths) {
        auto partitions = HivePartitions(path);
        std::map<std::string, std::string> by_key(partitions.begin(), partitions.end());
        for (size_t k = 0; k < binding.partition_keys.size(); k++) {
            auto found = by_key.find(binding.partition_keys[k]);
            if (found == by_key.end()) {
                throw Exception(ErrorKind::InvalidInput,
                                "hive partitioning: '" + path + "' has no folder for key \"" +
                                    binding.partition_keys[k] + "\" (its first file '" +
                                    binding.paths[0] +
                                    "' has); hive_partitioning = false "
                                    "reads the files without partitions");
            }
            texts[k].push_back(found->second);
        }
    }
    for (size_t k = 0; k < binding.partition_keys.size(); k++) {
        auto given = options.hive_types.find(Lower(binding.partition_keys[k]));
        binding.partition_types.push_back(
            given != options.hive_types.end() ? given->second : PartitionType(texts[k]));
    }
    binding.partition_values.resize(binding.paths.size());
    for (size_t f = 0; f < binding.paths.size(); f++) {
        for (size_t k = 0; k < binding.partition_keys.size(); k++) {
            const std::string& text = texts[k][f];
            Value value;
            if (text == "NULL") {
                value = Value::Null(binding.partition_types[k]);
            } else if (!TryParseValue(text, binding.partition_types[k], value)) {
                throw Exception(ErrorKind::InvalidInput,
                                "hive partitioning: \"" + binding.partition_keys[k] + "=" + text +
                                    "\" in '" + binding.paths[f] + "' is not a " +
                                    binding.partition_types[k].ToString() + " (hive_types)");
            }
            binding.partition_values[f].push_back(std::move(value));
        }
    }
}

// Merges every opened file's columns by name; each file gets the unified columns' order.
void UnifyByName(MultiFileBinding& binding) {
    for (const auto& file : binding.opened) {
        for (const ScanColumn& column : file->Columns()) {
            auto known =
                std::find_if(binding.file_columns.begin(), binding.file_columns.end(),
                             [&](const ScanColumn& other) { return other.name == column.name; });
            if (known == binding.file_columns.end()) {
                binding.file_columns.push_back(column);
            } else if (known->type != column.type) {
                throw Exception(ErrorKind::InvalidInput,
                                "column \"" + column.name + "\" is " + column.type.ToString() +
                                    " in '" + file->path() + "' but " + known->type.ToString() +
                                    " in another file; union_by_name needs one type per column");
            } else if (known->unsupported.empty()) {
                known->unsupported = column.unsupported;
            }
        }
    }
}

class CompletingDecoder : public ScanJobDecoder {
public:
    struct Constant {
        idx_t position;
        Value value;
        bool flatten; // a real value rather than a missing column's NULL: flat, as decoded ones
    };
    CompletingDecoder(std::unique_ptr<ScanJobDecoder> inner, std::vector<Constant> constants,
                      std::vector<idx_t> row_numbers, int64_t first_row)
        : inner_(std::move(inner)), constants_(std::move(constants)),
          row_numbers_(std::move(row_numbers)), first_row_(first_row), next_row_(first_row) {}

    bool Ready(const Waker& waker) override { return inner_->Ready(waker); }
    const uint64_t* RowsInJob() const override { return inner_->RowsInJob(); }
    uint64_t RowsFiltered() const override { return inner_->RowsFiltered(); }

    bool Next(DataChunk& out) override {
        if (!inner_->Next(out)) {
            return false;
        }
        for (const Constant& constant : constants_) {
            out.column(constant.position).SetConstant(constant.value);
            if (constant.flatten) {
                out.column(constant.position).Flatten(out.size());
            }
        }
        if (const uint64_t* rows_in_job = inner_->RowsInJob()) {
            // The decoder dropped rows: number each row by its place in the job.
            for (idx_t position : row_numbers_) {
                int64_t* numbers = out.column(position).data<int64_t>();
                for (idx_t row = 0; row < out.size(); row++) {
                    numbers[row] = first_row_ + static_cast<int64_t>(rows_in_job[row]);
                }
            }
            return true;
        }
        for (idx_t position : row_numbers_) {
            int64_t* numbers = out.column(position).data<int64_t>();
            for (idx_t row = 0; row < out.size(); row++) {
                numbers[row] = next_row_ + static_cast<int64_t>(row);
            }
        }
        next_row_ += static_cast<int64_t>(out.size());
        return true;
    }

private:
    std::unique_ptr<ScanJobDecoder> inner_;
    std::vector<Constant> constants_;
    std::vector<idx_t> row_numbers_;
    int64_t first_row_;
    int64_t next_row_;
};

} // namespace

std::unique_ptr<ScanJobDecoder> MultiFileBinding::CompleteDecoder(
    size_t file, const ProjectedFile& projected, const std::vector<idx_t>& column_ids,
    const std::vector<LogicalType>& types, std::unique_ptr<ScanJobDecoder> decoder,
    int64_t first_row) const {
    std::vector<CompletingDecoder::Constant> constants;
    std::vector<idx_t> row_numbers;
    for (idx_t position : projected.missing) {
        constants.push_back({position, Value::Null(types[position]), false});
    }
    for (idx_t position = 0; position < column_ids.size(); position++) {
        const MultiFileColumn& column = columns[column_ids[position]];
        if (column.kind == MultiFileColumn::Kind::Partition) {
            constants.push_back({position, partition_values[file][column.index], true});
        } else if (column.kind == MultiFileColumn::Kind::Filename) {
            constants.push_back({position, Value::Varchar(paths[file]), true});
        } else if (column.kind == MultiFileColumn::Kind::FileRowNumber) {
            row_numbers.push_back(position);
        }
    }
    if (constants.empty() && row_numbers.empty()) {
        return decoder;
    }
    return std::make_unique<CompletingDecoder>(std::move(decoder), std::move(constants),
                                               std::move(row_numbers), first_row);
}

std::vector<std::pair<std::string, std::string>> HivePartitions(const std::string& path) {
    std::vector<std::pair<std::string, std::string>> partitions;
    size_t start = 0;
    while (true) {
        size_t slash = path.find('/', start);
        if (slash == std::string::npos) {
            break; // the last segment is the file name
        }
        std::string segment = path.substr(start, slash - start);
        size_t equals = segment.find('=');
        if (equals != std::string::npos && equals > 0) {
            partitions.emplace_back(PercentDecode(segment.substr(0, equals)),
                                    PercentDecode(segment.substr(equals + 1)));
        }
        start = slash + 1;
    }
    return partitions;
}

std::shared_ptr<MultiFileBinding> BindMultiFile(ScanFormat& format, FileSystem& file_system,
                                                TaskScheduler& scheduler,
                                                const std::vector<std::string>& patterns,
                                                const MultiFileOptions& options,
                                                const std::string& function) {
    auto binding = std::make_shared<MultiFileBinding>();
    for (const std::string& pattern : patterns) {
        for (const FileInfo& info : file_system.Glob(pattern)) {
            binding->paths.push_back(info.path);
        }
    }
    if (binding->paths.empty()) {
        throw Exception(ErrorKind::Binder, function + " needs at least one file");
    }
    binding->union_by_name = options.union_by_name;
    // Binding needs the first file's columns; the scan opens the others ahead of need. With
    // union_by_name the columns are every file's, so all are opened now, concurrently.
    size_t open_now = options.union_by_name ? binding->paths.size() : 1;
    binding->opened.resize(binding->paths.size());
    RunConcurrently(scheduler, TaskPool::Async, open_now, [&](size_t i) {
        binding->opened[i] = format.Open(file_system, binding->paths[i], IoContext{});
    });
    if (options.union_by_name) {
        UnifyByName(*binding);
    } else {
        binding->file_columns = binding->opened[0]->Columns();
    }
    AddHivePartitions(*binding, options);

    for (size_t i = 0; i < binding->file_columns.size(); i++) {
        const ScanColumn& column = binding->file_columns[i];
        if (std::find(binding->partition_keys.begin(), binding->partition_keys.end(),
                      column.name) != binding->partition_keys.end()) {
            continue; // a partition column also stored in the file: the folder's value wins
        }
        binding->names.push_back(column.name);
        binding->types.push_back(column.type);
        binding->columns.push_back({MultiFileColumn::Kind::File, i});
    }
    for (size_t k = 0; k < binding->partition_keys.size(); k++) {
        binding->names.push_back(binding->partition_keys[k]);
        binding->types.push_back(binding->partition_types[k]);
        binding->columns.push_back({MultiFileColumn::Kind::Partition, k});
    }
    if (options.filename) {
        binding->names.push_back("filename");
        binding->types.push_back(LogicalTypeId::VARCHAR);
        binding->columns.push_back({MultiFileColumn::Kind::Filename, 0});
    }
    if (options.file_row_number) {
        if (!binding->opened[0]->KnowsRowNumbers()) {
            throw Exception(ErrorKind::Binder, function + " does not support file_row_number");
        }
        binding->names.push_back("file_row_number");
        binding->types.push_back(LogicalTypeId::BIGINT);
        binding->columns.push_back({MultiFileColumn::Kind::FileRowNumber, 0});
    }

    // From the first file's statistics (with union_by_name, columns are not the first file's).
    for (const MultiFileColumn& column : binding->columns) {
        bool own = column.kind == MultiFileColumn::Kind::File && !options.union_by_name &&
                   column.index < binding->opened[0]->Columns().size();
        binding->distinct_estimates.push_back(
            own ? binding->opened[0]->DistinctEstimate(column.index) : -1);
    }
    // Files not opened yet are assumed to be like the first.
    double first_rows = binding->opened[0]->EstimatedRows();
    if (first_rows >= 0) {
        binding->estimated_rows = 0;
        for (const auto& file : binding->opened) {
            binding->estimated_rows += file ? std::max(0.0, file->EstimatedRows()) : first_rows;
        }
    }
    return binding;
}

std::vector<size_t> MultiFileBinding::FilesMatching(const std::vector<TableFilter>& filters) const {
    std::vector<size_t> files;
    for (size_t f = 0; f < paths.size(); f++) {
        bool may_match = true;
        for (const TableFilter& filter : filters) {
            const MultiFileColumn& column = columns[filter.column];
            if (column.kind != MultiFileColumn::Kind::Partition || !filter.fields.empty()) {
                continue;
            }
            const Value& value = partition_values[f][column.index];
            ColumnStatistics statistics;
            statistics.row_count = 1;
            statistics.null_count = value.IsNull() ? 1 : 0;
            if (!value.IsNull()) {
                statistics.min = value;
                statistics.max = value;
            }
            may_match = may_match && MayMatch(filter, statistics);
        }
        if (may_match) {
            files.push_back(f);
        }
    }
    return files;
}

bool MultiFileBinding::RowsMayMatch(const std::vector<TableFilter>& filters, int64_t first_row,
                                    int64_t rows) const {
    if (first_row < 0 || rows <= 0) {
        return true; // not known before decoding
    }
    for (const TableFilter& filter : filters) {
        if (columns[filter.column].kind != MultiFileColumn::Kind::FileRowNumber) {
            continue;
        }
        ColumnStatistics statistics;
        statistics.row_count = static_cast<uint64_t>(rows);
        statistics.null_count = 0;
        statistics.min = Value::Integer(LogicalTypeId::BIGINT, first_row);
        statistics.max = Value::Integer(LogicalTypeId::BIGINT, first_row + rows - 1);
        if (!MayMatch(filter, statistics)) {
            return false;
        }
    }
    return true;
}

void MultiFileBinding::CheckReadable(const std::vector<idx_t>& column_ids) const {
    for (idx_t id : column_ids) {
        if (columns[id].kind != MultiFileColumn::Kind::File) {
            continue;
        }
        const ScanColumn& column = file_columns[columns[id].index];
        if (!column.unsupported.empty()) {
            throw Exception(ErrorKind::NotImplemented, "not supported: " + column.unsupported +
                                                           " in column \"" + column.name +
                                                           "\" of '" + paths[0] + "'");
        }
    }
}

ProjectedFile MultiFileBinding::Project(size_t file, const ScanFile& opened_file,
                                        const std::vector<idx_t>& column_ids,
                                        const std::vector<LeafMask>& leaf_masks,
                                        const std::vector<TableFilter>& filters) const {
    const std::vector<ScanColumn>& own = opened_file.Columns();
    // The file's column for each unified column (-1: the file lacks it).
    std::vector<int64_t> column_map(file_columns.size(), -1);
    if (union_by_name) {
        for (size_t i = 0; i < file_columns.size(); i++) {
            auto found = std::find_if(own.begin(), own.end(), [&](const ScanColumn& column) {
                return column.name == file_columns[i].name;
            });
            if (found != own.end()) {
                column_map[i] = found - own.begin();
            }
        }
    } else {
        bool same = own.size() == file_columns.size() &&
                    std::equal(own.begin(), own.end(), file_columns.begin(), SameColumn);
        if (!same) {
            throw Exception(ErrorKind::InvalidInput,
                            "file '" + paths[file] + "' has a different schema than '" + paths[0] +
                                "'; union_by_name = true reads them by column name");
        }
        for (size_t i = 0; i < file_columns.size(); i++) {
            column_map[i] = static_cast<int64_t>(i);
        }
    }
    ProjectedFile projected;
    for (idx_t position = 0; position < column_ids.size(); position++) {
        const MultiFileColumn& column = columns[column_ids[position]];
        if (column.kind != MultiFileColumn::Kind::File) {
            continue;
        }
        int64_t file_column = column_map[column.index];
        if (file_column < 0) {
            projected.missing.push_back(position);
        } else {
            projected.projection.columns.push_back(static_cast<size_t>(file_column));
            projected.projection.positions.push_back(position);
            bool same_type =
                own[static_cast<size_t>(file_column)].type == types[column_ids[position]];
            projected.projection.leaf_masks.push_back(
                position < leaf_masks.size() && same_type ? leaf_masks[position] : LeafMask{});
        }
    }
    for (const TableFilter& filter : filters) {
        const MultiFileColumn& column = columns[filter.column];
        if (column.kind != MultiFileColumn::Kind::File || column_map[column.index] < 0) {
            continue;
        }
        // A filter on a field path needs the file's struct to be the scan's.
        if (filter.fields.empty() ||
            own[static_cast<size_t>(column_map[column.index])].type == types[filter.column]) {
            TableFilter mapped = filter;
            mapped.column = static_cast<idx_t>(column_map[column.index]);
            projected.projection.filters.push_back(std::move(mapped));
        }
    }
    return projected;
}

} // namespace sluice
