#include "main/file_scan_functions.hpp"

#include "common/exception.hpp"
#include "formats/parquet/parquet_scan_format.hpp"
#include "main/database.hpp"
#include "scan/multi_file_reader.hpp"
#include "scan/multi_file_scan.hpp"
#include "sql/catalog.hpp"

namespace sluice {

namespace {

const std::vector<std::string> kMultiFileParameters = {"filename", "file_row_number",
                                                       "union_by_name", "hive_partitioning"};

// The files argument: a path, a glob, or a list of them.
std::vector<std::string> FilePatterns(const TableFunctionInput& input, const std::string& name) {
    if (input.positional.size() != 1) {
        throw Exception(ErrorKind::Binder,
                        name + " takes one argument: a path, a glob pattern or a list of them");
    }
    std::vector<std::string> patterns;
    for (const Value& pattern : input.positional[0].values) {
        if (pattern.type().id() != LogicalTypeId::VARCHAR) {
            throw Exception(ErrorKind::Binder,
                            name + ": file names must be strings, got " + pattern.ToString());
        }
        patterns.push_back(pattern.GetString());
    }
    return patterns;
}

MultiFileOptions ReadMultiFileOptions(const TableFunctionInput& input, const std::string& name) {
    MultiFileOptions options;
    options.filename = input.Flag("filename", name);
    options.file_row_number = input.Flag("file_row_number", name);
    options.union_by_name = input.Flag("union_by_name", name);
    if (input.named.count("hive_partitioning")) {
        options.hive_partitioning = input.Flag("hive_partitioning", name);
    }
    return options;
}

// Binds a multi-file scan of `format` over the files the input names.
BoundTableFunction BindFileScan(Database& database, std::shared_ptr<ScanFormat> format,
                                const TableFunctionInput& input, const std::string& name) {
    std::shared_ptr<const MultiFileBinding> binding =
        BindMultiFile(*format, database.file_system(), database.scheduler(),
                      FilePatterns(input, name), ReadMultiFileOptions(input, name), name);
    BoundTableFunction bound;
    bound.names = binding->names;
    bound.types = binding->types;
    bound.estimated_rows = binding->estimated_rows;
    bound.make_source = [&database, format, binding](const std::vector<idx_t>& column_ids,
                                                     const std::vector<TableFilter>& filters) {
        binding->CheckReadable(column_ids);
        return std::make_shared<MultiFileScan>(format, binding, column_ids, filters,
                                               database.CurrentScanOptions(), database.Services());
    };
    return bound;
}

TableFunction ReadParquetFunction(Database& database) {
    TableFunction function;
    function.name = "read_parquet";
    function.bind = [&database](const TableFunctionInput& input) {
        input.CheckNamed(kMultiFileParameters, "read_parquet");
        return BindFileScan(database, std::make_shared<ParquetScanFormat>(), input,
                            "read_parquet");
    };
    return function;
}

} // namespace

void RegisterFileScanFunctions(Database& database) {
    TableFunctionCatalog& catalog = database.catalog().table_functions();
    catalog.Register(ReadParquetFunction(database));
}

} // namespace sluice
