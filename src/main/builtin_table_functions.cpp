#include "main/builtin_table_functions.hpp"

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "execution/range_source.hpp"
#include "execution/rows_source.hpp"
#include "formats/parquet/parquet_metadata_tables.hpp"
#include "formats/parquet/parquet_scan.hpp"
#include "io/file_system.hpp"

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
    function.bind = [&settings](const std::vector<Value>& arguments) {
        if (!arguments.empty()) {
            throw Exception(ErrorKind::Binder, "sluice_settings() takes no arguments");
        }
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

std::string ColumnSignature(const parquet::ParquetColumn& column) {
    return column.name + " " + column.type.ToString();
}

TableFunction ReadParquetFunction(FileSystem& file_system) {
    TableFunction function;
    function.name = "read_parquet";
    function.bind = [&file_system](const std::vector<Value>& arguments) {
        if (arguments.size() != 1 || arguments[0].type().id() != LogicalTypeId::VARCHAR) {
            throw Exception(ErrorKind::Binder,
                            "read_parquet takes one argument: a file path or glob pattern");
        }
        std::vector<parquet::ParquetFile> files;
        for (const FileInfo& info : file_system.Glob(arguments[0].GetString())) {
            parquet::ParquetFile file;
            file.handle = file_system.Open(info.path);
            file.reader = parquet::ParquetFileReader::Open(*file.handle);
            files.push_back(std::move(file));
        }
        const auto& columns = files[0].reader->columns();
        for (const auto& file : files) {
            const auto& other = file.reader->columns();
            bool same = other.size() == columns.size();
            for (size_t i = 0; same && i < columns.size(); i++) {
                same = ColumnSignature(other[i]) == ColumnSignature(columns[i]);
            }
            if (!same) {
                throw Exception(ErrorKind::InvalidInput,
                                "file '" + file.reader->path() + "' has a different schema than '" +
                                    files[0].reader->path() +
                                    "' (union_by_name is not supported yet)");
            }
        }
        BoundTableFunction bound;
        for (const auto& column : columns) {
            bound.names.push_back(column.name);
            bound.types.push_back(column.type);
        }
        bound.make_source = [files, columns](const std::vector<idx_t>& column_ids,
                                             const std::vector<TableFilter>& filters) {
            std::vector<size_t> ids;
            std::vector<LogicalType> types;
            for (idx_t id : column_ids) {
                const auto& column = columns[id];
                if (!column.unsupported.empty()) {
                    throw Exception(ErrorKind::NotImplemented,
                                    "not supported: " + column.unsupported + " in column \"" +
                                        column.name + "\" of '" + files[0].reader->path() + "'");
                }
                ids.push_back(id);
                types.push_back(column.type);
            }
            return std::make_shared<parquet::ParquetScanSource>(files, std::move(ids),
                                                                std::move(types), filters);
        };
        return bound;
    };
    return function;
}

// parquet_metadata('glob') and parquet_schema('glob'): the footer of every matching file.
TableFunction
ParquetMetadataFunction(FileSystem& file_system, const std::string& name,
                        parquet::MetadataTable (*table_of)(const parquet::ParquetFileReader&)) {
    TableFunction function;
    function.name = name;
    function.bind = [&file_system, name, table_of](const std::vector<Value>& arguments) {
        if (arguments.size() != 1 || arguments[0].type().id() != LogicalTypeId::VARCHAR) {
            throw Exception(ErrorKind::Binder,
                            name + " takes one argument: a file path or glob pattern");
        }
        parquet::MetadataTable table;
        for (const FileInfo& info : file_system.Glob(arguments[0].GetString())) {
            auto handle = file_system.Open(info.path);
            parquet::AppendTable(table, table_of(*parquet::ParquetFileReader::Open(*handle)));
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
    function.bind = [](const std::vector<Value>& arguments) {
        if (arguments.empty() || arguments.size() > 3) {
            throw Exception(ErrorKind::Binder,
                            "range takes (stop), (start, stop) or (start, stop, step)");
        }
        std::vector<int64_t> numbers;
        for (const auto& argument : arguments) {
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
        bound.make_source = [start, stop, step](const std::vector<idx_t>& column_ids,
                                                const std::vector<TableFilter>&) {
            return std::make_shared<RangeSource>(start, stop, step, !column_ids.empty());
        };
        return bound;
    };
    return function;
}

} // namespace

void RegisterBuiltinTableFunctions(TableFunctionCatalog& catalog, Settings& settings,
                                   FileSystem& file_system) {
    catalog.Register(SettingsFunction(settings));
    catalog.Register(ReadParquetFunction(file_system));
    catalog.Register(RangeFunction());
    catalog.Register(
        ParquetMetadataFunction(file_system, "parquet_metadata", parquet::ParquetMetadataTable));
    catalog.Register(
        ParquetMetadataFunction(file_system, "parquet_schema", parquet::ParquetSchemaTable));
}

} // namespace sluice
