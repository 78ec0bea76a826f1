#include "main/csv_rejects_tables.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"

#include <algorithm>

namespace sluice {

namespace {

Value Unsigned(LogicalTypeId type, uint64_t value) {
    return Value::Integer(type, static_cast<hugeint_t>(value));
}

Value Text(const std::optional<std::string>& text) {
    return text ? Value::Varchar(*text) : Value::Null(LogicalTypeId::VARCHAR);
}

// The table `name` with these columns: created when missing; an existing one must match.
void EnsureTable(Catalog& catalog, const std::string& name, const std::vector<std::string>& names,
                 const std::vector<LogicalType>& types) {
    if (auto existing = catalog.FindTable(name)) {
        if (existing->types.size() != types.size() ||
            !std::equal(types.begin(), types.end(), existing->types.begin())) {
            throw Exception(ErrorKind::Catalog, "the rejects table \"" + name +
                                                    "\" exists with other columns (drop it, or "
                                                    "name another with rejects_table / "
                                                    "rejects_scan)");
        }
        return;
    }
    auto table = std::make_shared<TableEntry>();
    table->name = name;
    table->names = names;
    table->types = types;
    catalog.CreateTable(std::move(table), false, true);
}

void Append(Catalog& catalog, const std::string& name, const std::vector<LogicalType>& types,
            const std::vector<std::vector<Value>>& rows) {
    ChunkList chunks;
    for (size_t start = 0; start < rows.size(); start += kVectorSize) {
        size_t count = std::min<size_t>(kVectorSize, rows.size() - start);
        auto chunk = std::make_shared<DataChunk>(types, count);
        for (size_t r = 0; r < count; r++) {
            for (size_t c = 0; c < types.size(); c++) {
                chunk->SetValue(c, r, rows[start + r][c]);
            }
        }
        chunk->SetSize(count);
        chunks.push_back(std::move(chunk));
    }
    catalog.AppendRows(name, chunks);
}

} // namespace

std::function<void()> StoreCsvRejects(Database& database, CsvRejectsTarget target,
                                      std::shared_ptr<CsvScanFormat> format,
                                      std::shared_ptr<const MultiFileBinding> binding,
                                      std::shared_ptr<std::atomic<uint64_t>> scan_ids) {
    return [&database, target, format, binding, scan_ids] {
        std::vector<csv::CsvRejectedRow> rejected = target.rejects->Take();
        Catalog& catalog = database.catalog();
        const LogicalTypeId U64 = LogicalTypeId::UBIGINT;
        const std::vector<LogicalType> scan_types = {U64,
                                                     U64,
                                                     LogicalTypeId::VARCHAR,
                                                     LogicalTypeId::VARCHAR,
                                                     LogicalTypeId::VARCHAR,
                                                     LogicalTypeId::VARCHAR,
                                                     LogicalTypeId::VARCHAR,
                                                     LogicalTypeId::UINTEGER,
                                                     LogicalTypeId::BOOLEAN,
                                                     LogicalTypeId::VARCHAR,
                                                     LogicalTypeId::VARCHAR,
                                                     LogicalTypeId::VARCHAR,
                                                     LogicalTypeId::VARCHAR};
        // error_type is VARCHAR where DuckDB has an ENUM (Sluice has no ENUM type yet).
        const std::vector<LogicalType> error_types = {U64,
                                                      U64,
                                                      U64,
                                                      U64,
                                                      U64,
                                                      U64,
                                                      LogicalTypeId::VARCHAR,
                                                      LogicalTypeId::VARCHAR,
                                                      LogicalTypeId::VARCHAR,
                                                      LogicalTypeId::VARCHAR};
        EnsureTable(catalog, target.scans_table,
                    {"scan_id", "file_id", "file_path", "delimiter", "quote", "escape",
                     "newline_delimiter", "skip_rows", "has_header", "columns", "date_format",
                     "timestamp_format", "user_arguments"},
                    scan_types);
        EnsureTable(catalog, target.errors_table,
                    {"scan_id", "file_id", "line", "line_byte_position", "byte_position",
                     "column_idx", "column_name", "error_type", "csv_line", "error_message"},
                    error_types);
        uint64_t scan_id = ++*scan_ids;
        auto file_id = [&](const std::string& path) {
            auto found = std::find(binding->paths.begin(), binding->paths.end(), path);
            return static_cast<uint64_t>(found - binding->paths.begin());
        };
        std::stable_sort(rejected.begin(), rejected.end(), [&](const auto& a, const auto& b) {
            return file_id(a.path) < file_id(b.path);
        });
        std::vector<std::vector<Value>> scans;
        std::vector<std::vector<Value>> errors;
        std::optional<uint64_t> last_file;
        for (const csv::CsvRejectedRow& row : rejected) {
            uint64_t file = file_id(row.path);
            if (last_file != file) {
                last_file = file;
                csv::CsvSniffResult sniffed = format->Sniffed();
                const csv::CsvDialect& dialect = sniffed.dialect;
                scans.push_back(
                    {Unsigned(U64, scan_id), Unsigned(U64, file), Value::Varchar(row.path),
                     Value::Varchar(dialect.ShowDelimiter()),
                     Value::Varchar(csv::CsvDialect::Show(dialect.quote)),
                     Value::Varchar(csv::CsvDialect::Show(dialect.escape)), Value::Varchar("\\n"),
                     Unsigned(LogicalTypeId::UINTEGER, dialect.skip),
                     Value::Boolean(dialect.header),
                     Text(target.columns.empty() ? std::nullopt
                                                 : std::optional<std::string>(target.columns)),
                     Text(target.date_format), Text(target.timestamp_format),
                     Value::Varchar(target.user_arguments)});
            }
            errors.push_back(
                {Unsigned(U64, scan_id), Unsigned(U64, file),
                 row.line ? Unsigned(U64, *row.line) : Value::Null(U64),
                 Unsigned(U64, row.line_byte_position), Unsigned(U64, row.byte_position),
                 row.column_idx ? Unsigned(U64, *row.column_idx) : Value::Null(U64),
                 Text(row.column_name), Value::Varchar(csv::CsvErrorTypeName(row.type)),
                 Value::Varchar(row.csv_line), Value::Varchar(row.error_message)});
        }
        Append(catalog, target.scans_table, scan_types, scans);
        Append(catalog, target.errors_table, error_types, errors);
    };
}

} // namespace sluice
