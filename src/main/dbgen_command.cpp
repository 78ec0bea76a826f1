#include "main/dbgen_command.hpp"

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "execution/batch_file_sinks.hpp"
#include "execution/result_collector.hpp"
#include "execution/rows_source.hpp"
#include "formats/parquet/parquet_writer.hpp"
#include "main/connection.hpp"
#include "main/database.hpp"
#include "parallel/executor.hpp"
#include "tpch/tbl_formatter.hpp"
#include "tpch/tpch_queries.hpp"
#include "tpch/tpch_table_source.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

namespace sluice {

namespace {

Value Cast(const Value& value, LogicalTypeId type, const std::string& name) {
    Value result;
    if (value.IsNull() || !TryCastValue(value, type, result)) {
        throw Exception(ErrorKind::InvalidInput, "dbgen: " + name + " must be " +
                                                     LogicalType(type).ToString() + ", got " +
                                                     value.ToString());
    }
    return result;
}

std::vector<std::string> SplitNames(const std::string& text) {
    std::vector<std::string> names;
    size_t start = 0;
    while (start <= text.size()) {
        size_t comma = text.find(',', start);
        if (comma == std::string::npos) {
            comma = text.size();
        }
        names.emplace_back(Trim(std::string_view(text).substr(start, comma - start)));
        start = comma + 1;
    }
    return names;
}

} // namespace

DbgenOptions DbgenOptions::FromArguments(const TableFunctionInput& input) {
    input.CheckNamed({"sf", "path", "format", "row_group_size", "files", "compression", "tables",
                      "suffix", "children", "step"},
                     "dbgen");
    if (!input.positional.empty()) {
        throw Exception(ErrorKind::InvalidInput,
                        "dbgen takes named parameters only, e.g. CALL dbgen(sf = 1)");
    }
    for (const char* unsupported : {"suffix", "children", "step"}) {
        if (input.named.count(unsupported)) {
            throw Exception(ErrorKind::NotImplemented,
                            std::string("dbgen parameter ") + unsupported + " is not supported");
        }
    }
    DbgenOptions options;
    auto named = [&](const std::string& name) -> const Value* {
        auto entry = input.named.find(name);
        return entry == input.named.end() ? nullptr : &entry->second;
    };
    if (const Value* sf = named("sf")) {
        options.scale_factor = Cast(*sf, LogicalTypeId::DOUBLE, "sf").GetDouble();
    }
    if (const Value* path = named("path")) {
        options.path = path->ToString();
    }
    if (const Value* format = named("format")) {
        options.format = Lower(format->ToString());
    }
    if (const Value* rows = named("row_group_size")) {
        int64_t value = Cast(*rows, LogicalTypeId::BIGINT, "row_group_size").GetInteger();
        options.row_group_size = value < 1 ? 0 : static_cast<uint64_t>(value);
    }
    if (const Value* files = named("files")) {
        int64_t value = Cast(*files, LogicalTypeId::BIGINT, "files").GetInteger();
        options.files = value < 1 ? 0 : static_cast<uint64_t>(value);
    }
    if (const Value* compression = named("compression")) {
        options.codec = parquet::CodecFromName(compression->ToString());
    }
    std::vector<Value> tables;
    if (auto list = input.named_lists.find("tables"); list != input.named_lists.end()) {
        tables = list->second;
    } else if (const Value* table = named("tables")) {
        tables.push_back(*table); // a single name, or a comma-separated list
    }
    for (const Value& value : tables) {
        options.AddTables(value.ToString());
    }
    options.Validate();
    return options;
}

void DbgenOptions::AddTables(const std::string& names) {
    for (const std::string& name : SplitNames(names)) {
        auto table = tpch::TableFromName(Lower(name));
        if (!table) {
            throw Exception(ErrorKind::InvalidInput,
                            "dbgen: unknown TPC-H table \"" + name +
                                "\" (tables are part, supplier, partsupp, customer, orders, "
                                "lineitem, nation, region)");
        }
        if (std::find(tables.begin(), tables.end(), *table) == tables.end()) {
            tables.push_back(*table);
        }
    }
}

void DbgenOptions::Validate() const {
    tpch::CheckScaleFactor(scale_factor);
    if (format != "parquet" && format != "csv" && format != "tbl") {
        throw Exception(ErrorKind::InvalidInput,
                        "dbgen: format must be 'parquet', 'csv' or 'tbl', got '" + format + "'");
    }
    if (row_group_size < 1 || row_group_size > (uint64_t(1) << 40)) {
        throw Exception(ErrorKind::InvalidInput,
                        "dbgen: row_group_size must be between 1 and 2^40 rows");
    }
    if (files < 1 || files > 1000000) {
        throw Exception(ErrorKind::InvalidInput, "dbgen: files must be between 1 and 1000000");
    }
}

std::vector<std::string> DbgenFilePaths(const DbgenOptions& options, tpch::Table table,
                                        uint64_t files) {
    const std::string& name = tpch::TableName(table);
    std::string extension = "." + options.format;
    if (files == 1) {
        return {options.path + "/" + name + extension};
    }
    int width = std::max(4, static_cast<int>(std::to_string(files - 1).size()));
    std::vector<std::string> paths;
    for (uint64_t file = 0; file < files; file++) {
        std::string number = std::to_string(file);
        number.insert(0, static_cast<size_t>(width) - std::min<size_t>(number.size(), width), '0');
        paths.push_back(options.path + "/" + name + "/" + name + "_" + number + extension);
    }
    return paths;
}

TableFunction TpchQueriesFunction() {
    TableFunction function;
    function.name = "tpch_queries";
    function.bind = [](const TableFunctionInput& input) {
        if (!input.positional.empty()) {
            throw Exception(ErrorKind::Binder, "tpch_queries() takes no arguments");
        }
        input.CheckNamed({}, "tpch_queries");
        BoundTableFunction bound;
        bound.names = {"query_nr", "query"};
        bound.types = {LogicalTypeId::INTEGER, LogicalTypeId::VARCHAR};
        bound.estimated_rows = tpch::kQueryCount;
        bound.make_source = [](const std::vector<idx_t>& column_ids,
                               const std::vector<TableFilter>&, const std::vector<LeafMask>&) {
            std::vector<LogicalType> types;
            for (idx_t id : column_ids) {
                types.push_back(id == 0 ? LogicalType(LogicalTypeId::INTEGER)
                                        : LogicalType(LogicalTypeId::VARCHAR));
            }
            std::vector<std::vector<Value>> rows;
            for (int number = 1; number <= tpch::kQueryCount; number++) {
                std::vector<Value> row;
                for (idx_t id : column_ids) {
                    row.push_back(id == 0 ? Value::Integer(LogicalTypeId::INTEGER, number)
                                          : Value::Varchar(tpch::QueryText(number)));
                }
                rows.push_back(std::move(row));
            }
            return std::make_shared<RowsSource>(std::move(types), std::move(rows));
        };
        return bound;
    };
    return function;
}

} // namespace sluice

// Connection::RunDbgen: generating tables is a pipeline per table, TPC-H source to a sink that
// keeps the rows (in memory) or encodes each batch into a row group / CSV run on the task that
// generated it and writes the batches in order.
namespace sluice {

std::unique_ptr<QueryResult> Connection::RunDbgen(const DbgenOptions& options) {
    options.Validate();
    std::vector<tpch::Table> tables = options.tables.empty() ? tpch::AllTables() : options.tables;
    bool to_files = !options.path.empty();
    if (to_files) {
        std::error_code error;
        std::filesystem::create_directories(options.path, error);
        if (error) {
            throw Exception(ErrorKind::IO, "dbgen: cannot create directory \"" + options.path +
                                               "\": " + error.message());
        }
    }
    std::vector<std::string> names = {"table_name", "rows", "files", "bytes", "seconds"};
    std::vector<LogicalType> types = {LogicalTypeId::VARCHAR, LogicalTypeId::BIGINT,
                                      LogicalTypeId::BIGINT, LogicalTypeId::BIGINT,
                                      LogicalTypeId::DOUBLE};
    auto summary = std::make_unique<DataChunk>(types, tables.size());
    for (size_t i = 0; i < tables.size(); i++) {
        tpch::Table table = tables[i];
        auto start = std::chrono::steady_clock::now();
        auto generator = std::make_shared<tpch::TableGenerator>(table, options.scale_factor);
        const tpch::TableSchema& schema = tpch::SchemaOf(table);
        uint64_t rows = generator->row_count();
        uint64_t files = to_files ? std::min<uint64_t>(options.files, rows) : 1;
        // Batches: row groups of each file (Parquet), runs of lines (CSV), or chunks of rows.
        uint64_t batch_rows =
            to_files && options.format == "parquet" ? options.row_group_size : 122880;
        std::vector<tpch::RowBatch> batches;
        FileBatchPlan plan;
        for (uint64_t file = 0; file < files; file++) {
            uint64_t first = rows * file / files, last = rows * (file + 1) / files;
            plan.first_batch.push_back(batches.size());
            tpch::AppendBatches(first, last - first, batch_rows, batches);
        }
        plan.first_batch.push_back(batches.size());
        std::shared_ptr<PipelineSink> sink;
        std::shared_ptr<ResultCollector> collector;
        std::function<uint64_t()> bytes_written = [] { return uint64_t(0); };
        if (!to_files) {
            collector = std::make_shared<ResultCollector>(schema.types);
            sink = collector;
        } else {
            plan.paths = DbgenFilePaths(options, table, files);
            if (files > 1) {
                std::filesystem::create_directories(options.path + "/" + tpch::TableName(table));
            }
            if (options.format == "parquet") {
                parquet::ParquetWriteOptions write;
                write.row_group_size = options.row_group_size;
                write.codec = options.codec;
                auto parquet_sink =
                    std::make_shared<ParquetRowGroupSink>(plan, schema.names, schema.types, write);
                bytes_written = [parquet_sink] { return parquet_sink->bytes_written(); };
                sink = parquet_sink;
            } else {
                std::shared_ptr<TextBatchSink> text_sink;
                if (options.format == "csv") {
                    text_sink = TextBatchSink::Csv(plan, schema.names, csv::CsvWriteOptions{});
                } else {
                    csv::CsvWriteOptions no_header;
                    no_header.header = false;
                    auto formatter = std::make_shared<tpch::TblFormatter>(table);
                    text_sink = std::make_shared<TextBatchSink>(
                        plan, schema.names, no_header,
                        [formatter](const DataChunk& chunk, std::string& out) {
                            formatter->AppendRows(chunk, out);
                        });
                }
                bytes_written = [text_sink] { return text_sink->bytes_written(); };
                sink = text_sink;
            }
        }
        Executor executor(database_.scheduler());
        Pipeline& pipeline = executor.AddPipeline();
        pipeline.source = std::make_shared<tpch::TpchTableSource>(generator, std::move(batches));
        pipeline.sink = sink;
        Run(executor);
        if (collector) {
            auto entry = std::make_shared<TableEntry>();
            entry->name = tpch::TableName(table);
            entry->names = schema.names;
            entry->types = schema.types;
            auto chunks = std::make_shared<ChunkList>();
            for (auto& chunk : collector->TakeChunks()) {
                chunks->push_back(std::move(chunk));
            }
            entry->chunks = std::move(chunks);
            database_.catalog().CreateTable(std::move(entry), true, false);
        }
        double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        summary->SetValue(0, i, Value::Varchar(tpch::TableName(table)));
        summary->SetValue(1, i, Value::Integer(LogicalTypeId::BIGINT, static_cast<int64_t>(rows)));
        summary->SetValue(
            2, i,
            Value::Integer(LogicalTypeId::BIGINT, to_files ? static_cast<int64_t>(files) : 0));
        summary->SetValue(
            3, i, Value::Integer(LogicalTypeId::BIGINT, static_cast<int64_t>(bytes_written())));
        summary->SetValue(4, i, Value::Double(seconds));
    }
    summary->SetSize(tables.size());
    std::vector<std::unique_ptr<DataChunk>> chunks;
    chunks.push_back(std::move(summary));
    return std::make_unique<QueryResult>(std::move(names), std::move(types), std::move(chunks));
}

} // namespace sluice
