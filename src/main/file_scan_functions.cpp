#include "main/file_scan_functions.hpp"

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "formats/csv/csv_scan_format.hpp"
#include "formats/parquet/parquet_scan_format.hpp"
#include "main/builtin_table_functions.hpp"
#include "main/csv_rejects_tables.hpp"
#include "main/database.hpp"
#include "scan/multi_file_reader.hpp"
#include "scan/multi_file_scan.hpp"
#include "sql/catalog.hpp"
#include "sql/type_names.hpp"

#include <algorithm>

namespace sluice {

namespace {

const std::vector<std::string> kMultiFileParameters = {
    "filename", "file_row_number", "union_by_name", "hive_partitioning", "hive_types"};

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

// 'DECIMAL(15,2)', 'varchar', 'INT': a type named in an option.
LogicalType TypeFromText(const Value& value, const std::string& function,
                         const std::string& option) {
    std::string text(Trim(value.ToString()));
    TypeName name;
    size_t open = text.find('(');
    name.name = Upper(Trim(text.substr(0, open)));
    if (open != std::string::npos) {
        size_t close = text.find(')', open);
        std::string inside = text.substr(open + 1, close == std::string::npos ? std::string::npos
                                                                              : close - open - 1);
        size_t start = 0;
        while (start <= inside.size()) {
            size_t comma = std::min(inside.find(',', start), inside.size());
            Value modifier;
            if (!TryParseValue(inside.substr(start, comma - start), LogicalTypeId::BIGINT,
                               modifier)) {
                throw Exception(ErrorKind::Binder,
                                function + ": " + option + ": invalid type \"" + text + "\"");
            }
            name.modifiers.push_back(static_cast<int64_t>(modifier.GetInteger()));
            start = comma + 1;
        }
    }
    std::optional<LogicalType> type = ResolveTypeName(name);
    if (!type) {
        throw Exception(ErrorKind::Binder,
                        function + ": " + option + ": unknown type \"" + text + "\"");
    }
    return *type;
}

MultiFileOptions ReadMultiFileOptions(const TableFunctionInput& input, const std::string& name) {
    MultiFileOptions options;
    options.filename = input.Flag("filename", name);
    options.file_row_number = input.Flag("file_row_number", name);
    options.union_by_name = input.Flag("union_by_name", name);
    if (input.named_structs.count("hive_types")) {
        // hive_types = {'year': 'INTEGER'}: the partition columns' types, as DuckDB's; giving
        // them turns hive partitioning on.
        options.hive_partitioning = true;
        for (const auto& [key, type] : input.named_structs.at("hive_types")) {
            options.hive_types[Lower(key)] = TypeFromText(type, name, "hive_types");
        }
    }
    if (input.named.count("hive_partitioning")) {
        options.hive_partitioning = input.Flag("hive_partitioning", name);
    }
    return options;
}

// Binds a multi-file scan of `format` over the files the input names.
BoundTableFunction BindFileScan(Database& database, std::shared_ptr<ScanFormat> format,
                                const TableFunctionInput& input, const std::string& name,
                                std::shared_ptr<const MultiFileBinding>* bound_files = nullptr) {
    std::shared_ptr<const MultiFileBinding> binding =
        BindMultiFile(*format, database.file_system(), database.scheduler(),
                      FilePatterns(input, name), ReadMultiFileOptions(input, name), name);
    if (bound_files) {
        *bound_files = binding;
    }
    BoundTableFunction bound;
    bound.names = binding->names;
    bound.types = binding->types;
    bound.estimated_rows = binding->estimated_rows;
    bound.distinct_estimates = binding->distinct_estimates;
    bound.filters_rows = format->FiltersRows();
    bound.make_source = [&database, format, binding](const std::vector<idx_t>& column_ids,
                                                     const std::vector<TableFilter>& filters,
                                                     const std::vector<LeafMask>& leaf_masks) {
        binding->CheckReadable(column_ids);
        return std::make_shared<MultiFileScan>(format, binding, column_ids, leaf_masks, filters,
                                               database.CurrentScanOptions(), database.Services());
    };
    return bound;
}

TableFunction ReadParquetFunction(Database& database) {
    TableFunction function;
    function.name = "read_parquet";
    function.bind = [&database](const TableFunctionInput& input) {
        input.CheckNamed(kMultiFileParameters, "read_parquet");
        return BindFileScan(database, std::make_shared<ParquetScanFormat>(), input, "read_parquet");
    };
    return function;
}

const std::vector<std::string> kCsvParameters = {"delim",
                                                 "sep",
                                                 "quote",
                                                 "escape",
                                                 "new_line",
                                                 "header",
                                                 "skip",
                                                 "comment",
                                                 "nullstr",
                                                 "columns",
                                                 "types",
                                                 "dtypes",
                                                 "names",
                                                 "column_names",
                                                 "auto_detect",
                                                 "sample_size",
                                                 "all_varchar",
                                                 "dateformat",
                                                 "date_format",
                                                 "timestampformat",
                                                 "timestamp_format",
                                                 "decimal_separator",
                                                 "thousands",
                                                 "null_padding",
                                                 "strict_mode",
                                                 "ignore_errors",
                                                 "store_rejects",
                                                 "rejects_scan",
                                                 "rejects_table",
                                                 "rejects_limit",
                                                 "max_line_size",
                                                 "buffer_size",
                                                 "encoding",
                                                 "parallel",
                                                 "compression",
                                                 "auto_type_candidates",
                                                 "filename",
                                                 "union_by_name",
                                                 "hive_partitioning",
                                                 "hive_types",
                                                 "file_row_number"};

std::string StringOption(const TableFunctionInput& input, const std::string& name) {
    const Value& value = input.named.at(name);
    if (value.IsNull()) {
        throw Exception(ErrorKind::Binder, "read_csv: " + name + " must not be NULL");
    }
    return value.ToString();
}

int64_t IntegerOption(const TableFunctionInput& input, const std::string& name, int64_t minimum,
                      int64_t maximum) {
    Value number;
    const Value& value = input.named.at(name);
    if (value.IsNull() || !TryCastValue(value, LogicalTypeId::BIGINT, number) ||
        static_cast<int64_t>(number.GetInteger()) < minimum ||
        static_cast<int64_t>(number.GetInteger()) > maximum) {
        throw Exception(ErrorKind::Binder, "read_csv: " + name + " must be an integer from " +
                                               std::to_string(minimum) + " to " +
                                               std::to_string(maximum) + ", got " +
                                               value.ToString());
    }
    return static_cast<int64_t>(number.GetInteger());
}

// quote = '"', escape = '', comment = '#': one character, or none.
std::optional<char> CharacterOption(const TableFunctionInput& input, const std::string& name) {
    std::string text = StringOption(input, name);
    if (text.size() > 1) {
        throw Exception(ErrorKind::Binder, "read_csv: " + name +
                                               " must be one character or empty, got '" + text +
                                               "'");
    }
    return text.empty() ? '\0' : text[0];
}

struct CsvBindOptions {
    csv::CsvReadOptions read;
    bool parallel = true;
    std::optional<CsvRejectsTarget> rejects; // store_rejects
};

CsvBindOptions ReadCsvOptions(const TableFunctionInput& input) {
    CsvBindOptions bind;
    csv::CsvReadOptions& options = bind.read;
    auto has = [&](const std::string& name) { return input.named.count(name) > 0; };
    for (const char* name : {"delim", "sep"}) {
        if (has(name)) {
            std::string delimiter = StringOption(input, name);
            if (delimiter.empty() || delimiter.size() > 4) {
                throw Exception(ErrorKind::Binder, std::string("read_csv: ") + name +
                                                       " must be 1 to 4 bytes long, got '" +
                                                       delimiter + "'");
            }
            if (delimiter == "\\t") {
                delimiter = "\t";
            }
            options.delimiter = delimiter;
        }
    }
    if (has("quote")) {
        options.quote = CharacterOption(input, "quote");
    }
    if (has("escape")) {
        options.escape = CharacterOption(input, "escape");
    }
    if (has("comment")) {
        options.comment = CharacterOption(input, "comment");
    }
    if (has("new_line")) {
        std::string text = StringOption(input, "new_line");
        static const std::vector<std::string> kNewLines = {"\n",  "\r\n",   "\r",
                                                           "\\n", "\\r\\n", "\\r"};
        if (std::find(kNewLines.begin(), kNewLines.end(), text) == kNewLines.end()) {
            throw Exception(ErrorKind::Binder,
                            "read_csv: new_line must be '\\n', '\\r\\n' or '\\r'");
        }
        options.new_line = text;
    }
    if (has("header")) {
        options.header = input.Flag("header", "read_csv");
    }
    if (has("skip")) {
        options.skip = IntegerOption(input, "skip", 0, INT32_MAX);
    }
    if (has("nullstr")) {
        options.null_strings = {StringOption(input, "nullstr")};
    } else if (input.named_lists.count("nullstr")) {
        options.null_strings.clear();
        for (const Value& value : input.named_lists.at("nullstr")) {
            options.null_strings.push_back(value.ToString());
        }
    }
    if (has("auto_detect")) {
        options.auto_detect = input.Flag("auto_detect", "read_csv");
    }
    if (has("sample_size")) {
        options.sample_size = IntegerOption(input, "sample_size", -1, INT64_MAX);
        if (options.sample_size == 0) {
            throw Exception(ErrorKind::Binder, "read_csv: sample_size must be -1 or positive");
        }
    }
    options.all_varchar = input.Flag("all_varchar", "read_csv");
    options.null_padding = input.Flag("null_padding", "read_csv");
    options.ignore_errors = input.Flag("ignore_errors", "read_csv");
    if (has("strict_mode")) {
        options.strict_mode = input.Flag("strict_mode", "read_csv");
    }
    if (has("parallel")) {
        bind.parallel = input.Flag("parallel", "read_csv");
    }
    if (has("max_line_size")) {
        options.max_line_size = IntegerOption(input, "max_line_size", 1, int64_t{1} << 30);
    }
    if (has("buffer_size")) {
        options.buffer_size =
            static_cast<uint64_t>(IntegerOption(input, "buffer_size", 1, int64_t{1} << 30));
    }
    if (has("decimal_separator")) {
        std::string separator = StringOption(input, "decimal_separator");
        if (separator != "." && separator != ",") {
            throw Exception(ErrorKind::Binder, "read_csv: decimal_separator must be '.' or ','");
        }
        options.decimal_separator = separator[0];
    }
    // dateformat = '%d/%m/%Y', timestampformat = '%m-%d-%Y %I:%M:%S %p': checked now.
    for (const char* name : {"dateformat", "date_format", "timestampformat", "timestamp_format"}) {
        if (has(name)) {
            std::string spec = StringOption(input, name);
            std::string error;
            if (!csv::CsvDateFormat::Parse(spec, error)) {
                throw Exception(ErrorKind::Binder, std::string("read_csv: ") + name + ": " + error);
            }
            (std::string(name).find("time") == 0 ? options.timestamp_format : options.date_format) =
                spec;
        }
    }
    if (has("encoding")) {
        options.encoding = EncodingFromOption(StringOption(input, "encoding"), "read_csv");
    }
    if (has("compression")) {
        options.compression = StringOption(input, "compression");
        CompressionFromOption(options.compression, "", "read_csv"); // validated now
    }
    if (has("thousands")) {
        std::string separator = StringOption(input, "thousands");
        if (separator.size() > 1) {
            throw Exception(ErrorKind::Binder, "read_csv: thousands must be one character");
        }
        if (!separator.empty()) {
            if (separator[0] == options.decimal_separator) {
                throw Exception(ErrorKind::Binder,
                                "read_csv: thousands and decimal_separator must differ");
            }
            options.thousands = separator[0];
        }
    }
    // store_rejects, or naming a rejects table, keeps rejected rows (and implies ignore_errors).
    bool store_rejects = has("store_rejects") ? input.Flag("store_rejects", "read_csv")
                                              : has("rejects_table") || has("rejects_scan");
    if (store_rejects) {
        CsvRejectsTarget target;
        int64_t limit =
            has("rejects_limit") ? IntegerOption(input, "rejects_limit", 0, INT64_MAX) : 0;
        target.rejects = std::make_shared<csv::CsvRejects>(static_cast<uint64_t>(limit));
        for (auto [option, table] : {std::pair{"rejects_table", &target.errors_table},
                                     std::pair{"rejects_scan", &target.scans_table}}) {
            if (has(option)) {
                *table = StringOption(input, option);
            }
        }
        if (EqualsIgnoreCase(target.errors_table, target.scans_table)) {
            throw Exception(ErrorKind::Binder,
                            "read_csv: rejects_table and rejects_scan must name different tables");
        }
        for (const auto& [name, value] : input.named) {
            target.user_arguments += (target.user_arguments.empty() ? "" : ", ") + name + "=" +
                                     (value.IsNull() ? "NULL" : value.ToString());
        }
        if (input.named_structs.count("columns")) {
            target.columns = "{";
            for (const auto& [name, type] : input.named_structs.at("columns")) {
                target.columns += (target.columns.size() > 1 ? "," : "") + std::string("'") + name +
                                  "': '" + TypeFromText(type, "read_csv", "columns").ToString() +
                                  "'";
            }
            target.columns += "}";
        }
        target.date_format = options.date_format;
        target.timestamp_format = options.timestamp_format;
        options.rejects = target.rejects;
        bind.rejects = std::move(target);
    } else if (has("rejects_limit")) {
        throw Exception(ErrorKind::Binder, "read_csv: rejects_limit needs store_rejects = true");
    }
    if (input.named_structs.count("columns")) {
        for (const auto& [name, type] : input.named_structs.at("columns")) {
            options.columns.emplace_back(name, TypeFromText(type, "read_csv", "columns"));
        }
        if (options.columns.empty()) {
            throw Exception(ErrorKind::Binder, "read_csv: columns needs at least one column");
        }
    }
    for (const char* name : {"types", "dtypes"}) {
        if (input.named_structs.count(name)) {
            for (const auto& [column, type] : input.named_structs.at(name)) {
                options.types_by_name.emplace_back(column, TypeFromText(type, "read_csv", name));
            }
        }
        if (input.named_lists.count(name)) {
            for (const Value& type : input.named_lists.at(name)) {
                options.types_by_position.push_back(TypeFromText(type, "read_csv", name));
            }
        }
    }
    for (const char* name : {"names", "column_names"}) {
        if (input.named_lists.count(name)) {
            for (const Value& value : input.named_lists.at(name)) {
                options.names.push_back(value.ToString());
            }
        }
    }
    if (input.named_lists.count("auto_type_candidates")) {
        for (const Value& type : input.named_lists.at("auto_type_candidates")) {
            options.auto_type_candidates.push_back(
                TypeFromText(type, "read_csv", "auto_type_candidates"));
        }
    }
    if (!options.auto_detect && options.columns.empty()) {
        throw Exception(ErrorKind::Binder,
                        "read_csv: auto_detect = false needs columns = {'name': 'TYPE', ...}");
    }
    return bind;
}

TableFunction ReadCsvFunction(Database& database, const std::string& name) {
    TableFunction function;
    function.name = name;
    // DuckDB's scan_id in the rejects tables: one sequence per database.
    auto scan_ids = std::make_shared<std::atomic<uint64_t>>(0);
    function.bind = [&database, name, scan_ids](const TableFunctionInput& input) {
        input.CheckNamed(kCsvParameters, name);
        CsvBindOptions options = ReadCsvOptions(input);
        bool union_by_name = input.Flag("union_by_name", name);
        auto format =
            std::make_shared<CsvScanFormat>(options.read, union_by_name, options.parallel);
        std::shared_ptr<const MultiFileBinding> binding;
        BoundTableFunction bound = BindFileScan(database, format, input, name, &binding);
        if (options.rejects) {
            bound.finish = StoreCsvRejects(database, *options.rejects, format, binding, scan_ids);
        }
        return bound;
    };
    return function;
}

// sniff_csv(path): what the sniffer finds, in DuckDB's columns.
TableFunction SniffCsvFunction(Database& database) {
    TableFunction function;
    function.name = "sniff_csv";
    function.bind = [&database](const TableFunctionInput& input) {
        input.CheckNamed(kCsvParameters, "sniff_csv");
        CsvBindOptions options = ReadCsvOptions(input);
        if (input.positional.size() != 1) {
            throw Exception(ErrorKind::Binder, "sniff_csv takes one argument: a file path");
        }
        CsvScanFormat format(options.read, false, options.parallel);
        format.Open(database.file_system(), input.Scalar(0, "sniff_csv").ToString(), IoContext{});
        csv::CsvSniffResult sniffed = format.Sniffed();
        std::string columns = "[";
        std::string prompt_columns;
        for (size_t i = 0; i < sniffed.names.size(); i++) {
            columns += std::string(i ? ", " : "") + "{'name': '" + sniffed.names[i] +
                       "', 'type': '" + sniffed.types[i].ToString() + "'}";
            prompt_columns += std::string(i ? ", " : "") + "'" + sniffed.names[i] + "': '" +
                              sniffed.types[i].ToString() + "'";
        }
        columns += "]";
        const csv::CsvDialect& dialect = sniffed.dialect;
        BoundTableFunction bound;
        bound.names = {"Delimiter", "Quote",   "Escape", "NewLineDelimiter", "Comment", "SkipRows",
                       "HasHeader", "Columns", "Prompt"};
        bound.types = {LogicalTypeId::VARCHAR, LogicalTypeId::VARCHAR, LogicalTypeId::VARCHAR,
                       LogicalTypeId::VARCHAR, LogicalTypeId::VARCHAR, LogicalTypeId::BIGINT,
                       LogicalTypeId::BOOLEAN, LogicalTypeId::VARCHAR, LogicalTypeId::VARCHAR};
        std::string path = input.Scalar(0, "sniff_csv").ToString();
        std::string prompt =
            "FROM read_csv('" + path + "', auto_detect=false, delim='" + dialect.ShowDelimiter() +
            "', quote='" + std::string(dialect.quote ? 1 : 0, dialect.quote) + "', escape='" +
            std::string(dialect.escape ? 1 : 0, dialect.escape) +
            "', header=" + (dialect.header ? "true" : "false") +
            ", skip=" + std::to_string(dialect.skip) + ", columns={" + prompt_columns + "});";
        std::vector<std::vector<Value>> rows = {
            {Value::Varchar(dialect.ShowDelimiter()),
             Value::Varchar(csv::CsvDialect::Show(dialect.quote)),
             Value::Varchar(csv::CsvDialect::Show(dialect.escape)), Value::Varchar("\\n"),
             Value::Varchar(csv::CsvDialect::Show(dialect.comment)),
             Value::Integer(LogicalTypeId::BIGINT, dialect.skip), Value::Boolean(dialect.header),
             Value::Varchar(columns), Value::Varchar(prompt)}};
        bound.make_source = MaterializedSource(bound.types, std::move(rows));
        return bound;
    };
    return function;
}

} // namespace

void RegisterFileScanFunctions(Database& database) {
    TableFunctionCatalog& catalog = database.catalog().table_functions();
    catalog.Register(ReadParquetFunction(database));
    catalog.Register(ReadCsvFunction(database, "read_csv"));
    catalog.Register(ReadCsvFunction(database, "read_csv_auto"));
    catalog.Register(SniffCsvFunction(database));
}

} // namespace sluice
