#include "main/builtin_table_functions.hpp"

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "execution/range_source.hpp"
#include "execution/rows_source.hpp"
#include "formats/parquet/parquet_metadata_tables.hpp"
#include "io/virtual_file_system.hpp"
#include "main/database.hpp"
#include "main/dbgen_command.hpp"
#include "parallel/run_concurrently.hpp"
#include "scan/multi_file_scan.hpp"
#include "scan/parquet_scan_format.hpp"

#include <algorithm>

namespace sluice {

namespace {

// A source over rows computed at bind time, restricted to the projected columns.
std::function<std::shared_ptr<PipelineSource>(const std::vector<idx_t>&,
                                              const std::vector<TableFilter>&)>
MaterializedSource(std::vector<LogicalType> types, std::vector<std::vector<Value>> rows) {
    return [types = std::move(types), rows = std::move(rows)](const std::vector<idx_t>& column_ids,
                                                              const std::vector<TableFilter>&) {
        std::vector<LogicalType> projected_types;
        for (idx_t id : column_ids) {
            projected_types.push_back(types[id]);
        }
        std::vector<std::vector<Value>> projected_rows;
        projected_rows.reserve(rows.size());
        for (const auto& row : rows) {
            std::vector<Value> projected;
            for (idx_t id : column_ids) {
                projected.push_back(row[id]);
            }
            projected_rows.push_back(std::move(projected));
        }
        return std::make_shared<RowsSource>(std::move(projected_types), std::move(projected_rows));
    };
}

TableFunction SettingsFunction(Settings& settings) {
    TableFunction function;
    function.name = "sluice_settings";
    function.bind = [&settings](const TableFunctionInput& input) {
        if (!input.positional.empty()) {
            throw Exception(ErrorKind::Binder, "sluice_settings() takes no arguments");
        }
        input.CheckNamed({}, "sluice_settings");
        BoundTableFunction bound;
        bound.names = {"name", "value", "default", "description", "type"};
        bound.types.assign(5, LogicalTypeId::VARCHAR);
        std::vector<std::vector<Value>> rows;
        for (const auto& definition : Settings::Definitions()) {
            rows.push_back(
                {Value::Varchar(definition.name), Value::Varchar(settings.Display(definition.name)),
                 Value::Varchar(settings.DisplayDefault(definition.name)),
                 Value::Varchar(definition.description), Value::Varchar(definition.input_type)});
        }
        bound.make_source = MaterializedSource(bound.types, std::move(rows));
        return bound;
    };
    return function;
}

TableFunction ReadParquetFunction(Database& database) {
    TableFunction function;
    function.name = "read_parquet";
    function.bind = [&database](const TableFunctionInput& input) {
        const std::string name = "read_parquet";
        FileSystem& file_system = database.file_system();
        input.CheckNamed({"filename", "file_row_number", "union_by_name"}, name);
        if (input.positional.size() != 1) {
            throw Exception(
                ErrorKind::Binder,
                "read_parquet takes one argument: a path, a glob pattern or a list of them");
        }
        std::vector<std::string> paths;
        for (const Value& pattern : input.positional[0].values) {
            if (pattern.type().id() != LogicalTypeId::VARCHAR) {
                throw Exception(ErrorKind::Binder,
                                "read_parquet: file names must be strings, got " +
                                    pattern.ToString());
            }
            for (const FileInfo& info : file_system.Glob(pattern.GetString())) {
                paths.push_back(info.path);
            }
        }
        if (paths.empty()) {
            throw Exception(ErrorKind::Binder, "read_parquet needs at least one file");
        }
        // Binding needs the first file's schema; the scan opens the others ahead of need. With
        // union_by_name the schema is every file's, so all are opened now, concurrently.
        bool union_by_name = input.Flag("union_by_name", name);
        std::vector<ParquetFile> files(union_by_name ? paths.size() : 1);
        RunConcurrently(database.scheduler(), TaskPool::Async, files.size(),
                        [&](size_t i) { files[i] = OpenParquetFile(file_system, paths[i]); });
        std::vector<parquet::ParquetColumn> columns = files[0].reader->columns();
        if (union_by_name) {
            for (auto& file : files) {
                for (const auto& column : file.reader->columns()) {
                    auto known =
                        std::find_if(columns.begin(), columns.end(),
                                     [&](const auto& other) { return other.name == column.name; });
                    if (known == columns.end()) {
                        columns.push_back(column);
                    } else if (known->type != column.type) {
                        throw Exception(
                            ErrorKind::InvalidInput,
                            "column \"" + column.name + "\" is " + column.type.ToString() +
                                " in '" + file.reader->path() + "' but " + known->type.ToString() +
                                " in another file; union_by_name needs one type per column");
                    } else if (known->unsupported.empty()) {
                        known->unsupported = column.unsupported;
                    }
                }
            }
            for (auto& file : files) {
                const auto& own = file.reader->columns();
                for (const auto& column : columns) {
                    auto found = std::find_if(own.begin(), own.end(), [&](const auto& other) {
                        return other.name == column.name;
                    });
                    file.column_map.push_back(found == own.end() ? -1 : found - own.begin());
                }
            }
        }
        BoundTableFunction bound;
        for (const auto& column : columns) {
            bound.names.push_back(column.name);
            bound.types.push_back(column.type);
        }
        // Optional virtual columns, after the file's own.
        std::vector<size_t> virtual_ids;
        if (input.Flag("filename", name)) {
            bound.names.push_back("filename");
            bound.types.push_back(LogicalTypeId::VARCHAR);
            virtual_ids.push_back(ParquetScanFormat::kFilenameColumn);
        }
        if (input.Flag("file_row_number", name)) {
            bound.names.push_back("file_row_number");
            bound.types.push_back(LogicalTypeId::BIGINT);
            virtual_ids.push_back(ParquetScanFormat::kFileRowNumberColumn);
        }
        // Files not opened yet are assumed to be like the first.
        double rows_per_file = static_cast<double>(files[0].reader->metadata().num_rows);
        bound.estimated_rows = 0;
        for (size_t i = 0; i < paths.size(); i++) {
            bound.estimated_rows += i < files.size()
                                        ? static_cast<double>(files[i].reader->metadata().num_rows)
                                        : rows_per_file;
        }
        auto types = bound.types;
        bound.make_source = [&database, paths, files, columns, virtual_ids,
                             types](const std::vector<idx_t>& column_ids,
                                    const std::vector<TableFilter>& filters) {
            std::vector<size_t> ids;
            std::vector<LogicalType> projected_types;
            for (idx_t id : column_ids) {
                projected_types.push_back(types[id]);
                if (id >= columns.size()) {
                    ids.push_back(virtual_ids[id - columns.size()]);
                    continue;
                }
                const auto& column = columns[id];
                if (!column.unsupported.empty()) {
                    throw Exception(ErrorKind::NotImplemented,
                                    "not supported: " + column.unsupported + " in column \"" +
                                        column.name + "\" of '" + paths[0] + "'");
                }
                ids.push_back(id);
            }
            auto format = std::make_shared<ParquetScanFormat>(database.file_system(), paths, files,
                                                              columns, std::move(ids),
                                                              std::move(projected_types), filters);
            return std::make_shared<MultiFileScan>(std::move(format), database.CurrentScanOptions(),
                                                   database.Services());
        };
        return bound;
    };
    return function;
}

// parquet_metadata('glob') and parquet_schema('glob'): the footer of every matching file.
TableFunction
ParquetMetadataFunction(Database& database, const std::string& name,
                        parquet::MetadataTable (*table_of)(const parquet::ParquetFileReader&)) {
    TableFunction function;
    function.name = name;
    function.bind = [&database, name, table_of](const TableFunctionInput& input) {
        FileSystem& file_system = database.file_system();
        input.CheckNamed({}, name);
        if (input.positional.size() != 1 ||
            input.Scalar(0, name).type().id() != LogicalTypeId::VARCHAR) {
            throw Exception(ErrorKind::Binder,
                            name + " takes one argument: a file path or glob pattern");
        }
        std::vector<FileInfo> matches = file_system.Glob(input.Scalar(0, name).GetString());
        std::vector<ParquetFile> files(matches.size());
        RunConcurrently(database.scheduler(), TaskPool::Async, files.size(), [&](size_t i) {
            files[i] = OpenParquetFile(file_system, matches[i].path);
        });
        parquet::MetadataTable table;
        for (const ParquetFile& file : files) {
            parquet::AppendTable(table, table_of(*file.reader));
        }
        BoundTableFunction bound;
        bound.names = table.names;
        bound.types = table.types;
        bound.make_source = MaterializedSource(std::move(table.types), std::move(table.rows));
        return bound;
    };
    return function;
}

TableFunction RangeFunction() {
    TableFunction function;
    function.name = "range";
    function.bind = [](const TableFunctionInput& input) {
        input.CheckNamed({}, "range");
        if (input.positional.empty() || input.positional.size() > 3) {
            throw Exception(ErrorKind::Binder,
                            "range takes (stop), (start, stop) or (start, stop, step)");
        }
        std::vector<int64_t> numbers;
        for (size_t i = 0; i < input.positional.size(); i++) {
            const Value& argument = input.Scalar(i, "range");
            Value number;
            if (argument.IsNull() || !TryCastValue(argument, LogicalTypeId::BIGINT, number)) {
                throw Exception(ErrorKind::Binder,
                                "range arguments must be BIGINT, got " + argument.ToString());
            }
            numbers.push_back(static_cast<int64_t>(number.GetInteger()));
        }
        int64_t start = numbers.size() > 1 ? numbers[0] : 0;
        int64_t stop = numbers.size() > 1 ? numbers[1] : numbers[0];
        int64_t step = numbers.size() > 2 ? numbers[2] : 1;
        RangeSource::Count(start, stop, step); // validates the step now, at bind time
        BoundTableFunction bound;
        bound.names = {"range"};
        bound.types = {LogicalTypeId::BIGINT};
        bound.estimated_rows = static_cast<double>(RangeSource::Count(start, stop, step));
        bound.make_source = [start, stop, step](const std::vector<idx_t>& column_ids,
                                                const std::vector<TableFilter>&) {
            return std::make_shared<RangeSource>(start, stop, step, !column_ids.empty());
        };
        return bound;
    };
    return function;
}

// glob(pattern): the files a pattern matches, one row each (column "file"), as DuckDB's glob;
// no match is no rows.
TableFunction GlobFunction(FileSystem& file_system) {
    TableFunction function;
    function.name = "glob";
    function.bind = [&file_system](const TableFunctionInput& input) {
        input.CheckNamed({}, "glob");
        if (input.positional.size() != 1) {
            throw Exception(ErrorKind::Binder, "glob takes one argument: a pattern");
        }
        const Value& pattern = input.Scalar(0, "glob");
        if (pattern.IsNull()) {
            throw Exception(ErrorKind::Binder, "glob: the pattern is NULL");
        }
        std::vector<std::vector<Value>> rows;
        try {
            for (const auto& file : file_system.Glob(pattern.ToString())) {
                rows.push_back({Value::Varchar(file.path)});
            }
        } catch (const Exception& error) {
            if (error.RawMessage().rfind("No files found", 0) != 0) {
                throw;
            }
        }
        BoundTableFunction bound;
        bound.names = {"file"};
        bound.types = {LogicalTypeId::VARCHAR};
        bound.estimated_rows = static_cast<double>(rows.size());
        bound.make_source = MaterializedSource(bound.types, std::move(rows));
        return bound;
    };
    return function;
}

// sluice_http_stats(): what the database's HTTP client has done since it started (requests,
// retries, body bytes, failed attempts and their statuses; status 0 is a transport error).
TableFunction HttpStatsFunction(const HttpStats& stats) {
    TableFunction function;
    function.name = "sluice_http_stats";
    function.bind = [&stats](const TableFunctionInput& input) {
        if (!input.positional.empty()) {
            throw Exception(ErrorKind::Binder, "sluice_http_stats() takes no arguments");
        }
        input.CheckNamed({}, "sluice_http_stats");
        std::string by_status;
        for (const auto& [status, count] : stats.FailuresByStatus()) {
            by_status += (by_status.empty() ? "" : ", ") + std::to_string(status) + ": " +
                         std::to_string(count);
        }
        auto integer = [](uint64_t value) {
            return Value::Integer(LogicalTypeId::BIGINT, static_cast<int64_t>(value));
        };
        BoundTableFunction bound;
        bound.names = {"requests", "retries", "bytes", "failures", "failures_by_status"};
        bound.types = {LogicalTypeId::BIGINT, LogicalTypeId::BIGINT, LogicalTypeId::BIGINT,
                       LogicalTypeId::BIGINT, LogicalTypeId::VARCHAR};
        bound.make_source = MaterializedSource(
            bound.types, {{integer(stats.requests.load()), integer(stats.retries.load()),
                           integer(stats.bytes.load()), integer(stats.failures.load()),
                           Value::Varchar(by_status)}});
        return bound;
    };
    return function;
}

} // namespace

void RegisterBuiltinTableFunctions(Database& database) {
    TableFunctionCatalog& catalog = database.catalog().table_functions();
    VirtualFileSystem& file_system = database.file_system();
    catalog.Register(SettingsFunction(database.settings()));
    catalog.Register(ReadParquetFunction(database));
    catalog.Register(RangeFunction());
    catalog.Register(TpchQueriesFunction());
    catalog.Register(GlobFunction(file_system));
    catalog.Register(HttpStatsFunction(file_system.http().stats()));
    catalog.Register(
        ParquetMetadataFunction(database, "parquet_metadata", parquet::ParquetMetadataTable));
    catalog.Register(
        ParquetMetadataFunction(database, "parquet_schema", parquet::ParquetSchemaTable));
}

} // namespace sluice
