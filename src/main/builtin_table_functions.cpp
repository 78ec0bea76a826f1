#include "main/builtin_table_functions.hpp"

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "common/sql_keywords.hpp"
#include "common/string_util.hpp"
#include "execution/range_source.hpp"
#include "execution/rows_source.hpp"
#include "formats/parquet/parquet_metadata_tables.hpp"
#include "formats/parquet/parquet_scan_format.hpp"
#include "io/virtual_file_system.hpp"
#include "main/database.hpp"
#include "main/dbgen_command.hpp"
#include "main/file_scan_functions.hpp"
#include "parallel/run_concurrently.hpp"

#include <algorithm>

namespace sluice {

MakeSourceFunction MaterializedSource(std::vector<LogicalType> types,
                                      std::vector<std::vector<Value>> rows) {
    return [types = std::move(types), rows = std::move(rows)](const std::vector<idx_t>& column_ids,
                                                              const std::vector<TableFilter>&,
                                                              const std::vector<LeafMask>&) {
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

namespace {

// For the functions that take nothing: sluice_settings(), sluice_memory(), ...
void CheckNoArguments(const TableFunctionInput& input, const std::string& name) {
    if (!input.positional.empty()) {
        throw Exception(ErrorKind::Binder, name + "() takes no arguments");
    }
    input.CheckNamed({}, name);
}

TableFunction SettingsFunction(Settings& settings) {
    TableFunction function;
    function.name = "sluice_settings";
    function.bind = [&settings](const TableFunctionInput& input) {
        CheckNoArguments(input, "sluice_settings");
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

// duckdb_settings(): the settings as DuckDB lists its own (name, value, description,
// input_type, scope, aliases), for the queries DuckDB users already have.
TableFunction DuckDBSettingsFunction(Settings& settings) {
    TableFunction function;
    function.name = "duckdb_settings";
    function.bind = [&settings](const TableFunctionInput& input) {
        CheckNoArguments(input, "duckdb_settings");
        BoundTableFunction bound;
        LogicalType names = LogicalType::List(LogicalTypeId::VARCHAR);
        bound.names = {"name", "value", "description", "input_type", "scope", "aliases"};
        bound.types = {LogicalTypeId::VARCHAR, LogicalTypeId::VARCHAR, LogicalTypeId::VARCHAR,
                       LogicalTypeId::VARCHAR, LogicalTypeId::VARCHAR, names};
        std::vector<std::vector<Value>> rows;
        for (const auto& definition : Settings::Definitions()) {
            rows.push_back(
                {Value::Varchar(definition.name), Value::Varchar(settings.Display(definition.name)),
                 Value::Varchar(definition.description), Value::Varchar(definition.input_type),
                 Value::Varchar("GLOBAL"), Value::Nested(names, {})});
        }
        bound.make_source = MaterializedSource(bound.types, std::move(rows));
        return bound;
    };
    return function;
}

// sluice_memory(): what is reserved against memory_limit now, by whom (as DuckDB's
// duckdb_memory()): one row per owner of reservations, one for the scans' read-ahead grants
// and one for the spill files in temp_directory.
TableFunction MemoryFunction(Database& database) {
    TableFunction function;
    function.name = "sluice_memory";
    function.bind = [&database](const TableFunctionInput& input) {
        CheckNoArguments(input, "sluice_memory");
        BoundTableFunction bound;
        bound.names = {"tag", "memory_usage_bytes", "temporary_storage_bytes"};
        bound.types = {LogicalTypeId::VARCHAR, LogicalTypeId::BIGINT, LogicalTypeId::BIGINT};
        auto row = [](const std::string& tag, idx_t memory, idx_t temporary) {
            return std::vector<Value>{Value::Varchar(tag),
                                      Value::Integer(LogicalTypeId::BIGINT, memory),
                                      Value::Integer(LogicalTypeId::BIGINT, temporary)};
        };
        std::vector<std::vector<Value>> rows;
        for (const auto& [owner, bytes] : database.memory().UsageByOwner()) {
            rows.push_back(row(owner, bytes, 0));
        }
        rows.push_back(row("scan read-ahead", database.temporary_memory().Granted(), 0));
        rows.push_back(row("spill files", 0, database.temporary_directory().used()));
        bound.make_source = MaterializedSource(bound.types, std::move(rows));
        return bound;
    };
    return function;
}

// sluice_tables(): every table and view with its column count and a CREATE statement (as
// DuckDB's duckdb_tables() and duckdb_views()); the shell's .tables and .schema read it.
TableFunction TablesFunction(Database& database) {
    TableFunction function;
    function.name = "sluice_tables";
    function.bind = [&database](const TableFunctionInput& input) {
        CheckNoArguments(input, "sluice_tables");
        BoundTableFunction bound;
        bound.names = {"name", "type", "column_count", "sql"};
        bound.types = {LogicalTypeId::VARCHAR, LogicalTypeId::VARCHAR, LogicalTypeId::BIGINT,
                       LogicalTypeId::VARCHAR};
        std::vector<std::vector<Value>> rows;
        const Catalog& catalog = database.catalog();
        for (const auto& table : catalog.Tables()) {
            std::string sql = "CREATE TABLE " + QuoteIdentifierIfNeeded(table->name, false) + "(";
            for (idx_t i = 0; i < table->names.size(); i++) {
                sql += (i ? ", " : "") + QuoteIdentifierIfNeeded(table->names[i], false) + " " +
                       table->types[i].ToString();
            }
            rows.push_back({Value::Varchar(table->name), Value::Varchar("table"),
                            Value::Integer(LogicalTypeId::BIGINT, table->names.size()),
                            Value::Varchar(sql + ");")});
        }
        for (const auto& view : catalog.Views()) {
            // The view's columns are known once it is bound, which is not done here.
            rows.push_back({Value::Varchar(view->name), Value::Varchar("view"),
                            Value::Null(LogicalTypeId::BIGINT),
                            Value::Varchar(std::string(Trim(view->sql)) + ";")});
        }
        bound.make_source = MaterializedSource(bound.types, std::move(rows));
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
        std::vector<std::shared_ptr<ParquetScanFile>> files(matches.size());
        RunConcurrently(database.scheduler(), TaskPool::Async, files.size(), [&](size_t i) {
            files[i] = OpenParquetFile(file_system, matches[i].path);
        });
        parquet::MetadataTable table;
        for (const auto& file : files) {
            parquet::AppendTable(table, table_of(file->reader()));
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
                                                const std::vector<TableFilter>&,
                                                const std::vector<LeafMask>&) {
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
// retries, body bytes, failed attempts and their statuses, status 0 being a transport error;
// how often a host's concurrency window was halved by throttling, and the smallest it got).
TableFunction HttpStatsFunction(const HttpStats& stats) {
    TableFunction function;
    function.name = "sluice_http_stats";
    function.bind = [&stats](const TableFunctionInput& input) {
        CheckNoArguments(input, "sluice_http_stats");
        std::string by_status;
        for (const auto& [status, count] : stats.FailuresByStatus()) {
            by_status += (by_status.empty() ? "" : ", ") + std::to_string(status) + ": " +
                         std::to_string(count);
        }
        auto integer = [](uint64_t value) {
            return Value::Integer(LogicalTypeId::BIGINT, static_cast<int64_t>(value));
        };
        BoundTableFunction bound;
        uint64_t smallest = stats.smallest_window.load();
        bound.names = {"requests",           "retries",   "bytes",           "failures",
                       "failures_by_status", "throttled", "smallest_window", "connections",
                       "tls_handshakes",     "hedged"};
        bound.types = {LogicalTypeId::BIGINT, LogicalTypeId::BIGINT,  LogicalTypeId::BIGINT,
                       LogicalTypeId::BIGINT, LogicalTypeId::VARCHAR, LogicalTypeId::BIGINT,
                       LogicalTypeId::BIGINT, LogicalTypeId::BIGINT,  LogicalTypeId::BIGINT,
                       LogicalTypeId::BIGINT};
        bound.make_source = MaterializedSource(
            bound.types,
            {{integer(stats.requests.load()), integer(stats.retries.load()),
              integer(stats.bytes.load()), integer(stats.failures.load()),
              Value::Varchar(by_status), integer(stats.throttled.load()),
              smallest == UINT64_MAX ? Value::Null(LogicalTypeId::BIGINT) : integer(smallest),
              integer(stats.connections.load()), integer(stats.tls_handshakes.load()),
              integer(stats.hedged.load())}});
        return bound;
    };
    return function;
}

} // namespace

void RegisterBuiltinTableFunctions(Database& database) {
    TableFunctionCatalog& catalog = database.catalog().table_functions();
    VirtualFileSystem& file_system = database.file_system();
    catalog.Register(SettingsFunction(database.settings()));
    catalog.Register(DuckDBSettingsFunction(database.settings()));
    catalog.Register(MemoryFunction(database));
    catalog.Register(TablesFunction(database));
    RegisterFileScanFunctions(database);
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
