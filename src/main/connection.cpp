#include "main/connection.hpp"
#include "main/summarize.hpp"

#include "main/arrow_result_stream.hpp"
#include "main/copy_from.hpp"

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "execution/arrow_batch_collector.hpp"
#include "execution/copy_to_file_sink.hpp"
#include "execution/csv_copy_sink.hpp"
#include "execution/expression_executor.hpp"
#include "execution/parquet_copy_sink.hpp"
#include "execution/result_collector.hpp"
#include "formats/arrow/arrow_ipc_writer.hpp"
#include "parallel/executor.hpp"
#include "parallel/trace_recorder.hpp"
#include "sql/binder.hpp"
#include "sql/lexer.hpp"
#include "sql/optimizer.hpp"
#include "sql/parser.hpp"
#include "sql/planner.hpp"
#include "sql/type_names.hpp"
#include "tpch/tpch_queries.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>

namespace sluice {

namespace {

std::unique_ptr<QueryResult> EmptyResult() {
    return std::make_unique<QueryResult>(std::vector<std::string>{}, std::vector<LogicalType>{},
                                         std::vector<std::unique_ptr<DataChunk>>{});
}

std::unique_ptr<QueryResult> SingleValueResult(const std::string& name, const Value& value) {
    auto chunk = std::make_unique<DataChunk>(std::vector<LogicalType>{value.type()}, 1);
    chunk->SetValue(0, 0, value);
    chunk->SetSize(1);
    std::vector<std::unique_ptr<DataChunk>> chunks;
    chunks.push_back(std::move(chunk));
    return std::make_unique<QueryResult>(std::vector<std::string>{name},
                                         std::vector<LogicalType>{value.type()}, std::move(chunks));
}

// Calls `finish` of every table function the query scanned, once each.
void FinishTableFunctions(const BoundQuery& query) {
    std::vector<const BoundTableFunction*> finished;
    std::function<void(const LogicalOperator&)> visit = [&](const LogicalOperator& op) {
        if (op.kind == LogicalOperatorKind::Get && op.function && op.function->finish &&
            std::find(finished.begin(), finished.end(), op.function.get()) == finished.end()) {
            finished.push_back(op.function.get());
            op.function->finish();
        }
        for (const auto& child : op.children) {
            visit(*child);
        }
    };
    for (const auto& subplan : query.subplans) {
        visit(*subplan.plan);
    }
    visit(*query.plan);
}

// A statement runs for the guard's lifetime, however it ends: once none has run for a while, what
// they freed goes back to the system (FreedMemoryTrimmer).
class StatementRunning {
public:
    // Records the statement's start in `started` (max_execution_time counts from it).
    StatementRunning(Database& database, std::chrono::steady_clock::time_point& started)
        : trimmer_(database.trimmer()) {
        started = std::chrono::steady_clock::now();
        trimmer_.StatementStarted();
    }
    ~StatementRunning() { trimmer_.StatementEnded(); }
    StatementRunning(const StatementRunning&) = delete;
    StatementRunning& operator=(const StatementRunning&) = delete;

private:
    FreedMemoryTrimmer& trimmer_;
};

void OptimizeQuery(BoundQuery& query) {
    for (auto& subplan : query.subplans) {
        subplan.plan = Optimizer().Optimize(std::move(subplan.plan));
        if (subplan.cte) {
            // References are planned later, by then knowing what the CTE yields.
            subplan.cte->Function()->estimated_rows = subplan.plan->estimated_rows;
        }
    }
    query.plan = Optimizer().Optimize(std::move(query.plan));
}

} // namespace

Connection::Connection(Database& database) : database_(database) {
}

Connection::~Connection() = default;

std::unique_ptr<QueryResult> Connection::Query(const std::string& sql) {
    std::unique_ptr<QueryResult> last;
    QueryEach(sql, [&](std::unique_ptr<QueryResult> result) { last = std::move(result); });
    if (!last) {
        throw Exception(ErrorKind::InvalidInput, "no statement to execute");
    }
    return last;
}

namespace {

// The one statement of `sql`, for a statement with parameters.
Statement OneStatement(const std::string& sql) {
    std::vector<Statement> statements = Parser(sql).ParseStatements();
    if (statements.size() != 1) {
        throw Exception(ErrorKind::InvalidInput,
                        "a statement with parameters must be one statement, not " +
                            std::to_string(statements.size()));
    }
    return std::move(statements[0]);
}

} // namespace

size_t Connection::ParameterCount(const std::string& sql) {
    OneStatement(sql);
    // $n by number, ? in order (Parser numbers them so).
    size_t numbered = 0, questions = 0;
    for (const Token& token : Lexer(sql).Tokenize()) {
        if (token.type != TokenType::Parameter) {
            continue;
        }
        if (token.text.empty()) {
            questions++;
        } else {
            numbered = std::max<size_t>(numbered, std::stoul(token.text));
        }
    }
    return std::max(numbered, questions);
}

void Connection::CheckParameterCount(const std::string& sql, const std::vector<Value>& parameters) {
    size_t expected = ParameterCount(sql);
    if (parameters.size() != expected) {
        throw Exception(ErrorKind::InvalidInput,
                        "the statement takes " + std::to_string(expected) + " parameters, but " +
                            std::to_string(parameters.size()) + " were given");
    }
}

std::unique_ptr<QueryResult> Connection::Query(const std::string& sql,
                                               const std::vector<Value>& parameters) {
    CheckParameterCount(sql, parameters);
    Statement statement = OneStatement(sql);
    interrupted_.store(false);
    struct Bind {
        const std::vector<Value>*& slot;
        ~Bind() { slot = nullptr; }
    } bind{parameters_};
    parameters_ = &parameters;
    StatementRunning running(database_, statement_started_);
    return Execute(statement, sql);
}

PendingQuery::PendingQuery() = default;
PendingQuery::~PendingQuery() = default;

std::unique_ptr<PendingQuery> Connection::BindSelect(const std::string& sql,
                                                     const std::vector<Value>* parameters) {
    std::vector<Statement> statements = Parser(sql).ParseStatements();
    if (statements.size() != 1 || statements[0].kind != StatementKind::Select ||
        !database_.settings().GetString("trace_file").empty()) {
        return nullptr;
    }
    if (parameters) {
        CheckParameterCount(sql, *parameters);
    }
    Binder binder(database_.catalog(), sql, parameters, &replacement_scan_);
    auto pending = std::make_unique<PendingQuery>();
    pending->query = std::make_unique<BoundQuery>(binder.BindStatementQuery(*statements[0].select));
    pending->names = pending->query->names;
    pending->types = pending->query->types;
    return pending;
}

std::unique_ptr<QueryResult> Connection::RunPending(PendingQuery& pending) {
    std::unique_ptr<BoundQuery> query = TakePending(pending);
    StatementRunning running(database_, statement_started_);
    auto chunks = RunQuery(*query);
    return std::make_unique<QueryResult>(pending.names, pending.types, std::move(chunks));
}

void Connection::RunPendingInto(PendingQuery& pending, std::shared_ptr<PipelineSink> sink) {
    std::unique_ptr<BoundQuery> query = TakePending(pending);
    StatementRunning running(database_, statement_started_);
    OptimizeQuery(*query);
    RunInto(*query, std::move(sink), nullptr);
}

void Connection::RunPendingToArrow(PendingQuery& pending, ArrowArrayStream* out) {
    auto collector = std::make_shared<ArrowBatchCollector>(&database_.memory());
    RunPendingInto(pending, collector);
    ExportBatchStream(pending.names, pending.types, collector->TakeBatches(), out);
}

std::unique_ptr<BoundQuery> Connection::TakePending(PendingQuery& pending) {
    if (!pending.query) {
        throw Exception(ErrorKind::InvalidInput, "this query has already run");
    }
    interrupted_.store(false);
    return std::move(pending.query);
}

void Connection::QueryEach(const std::string& sql,
                           const std::function<void(std::unique_ptr<QueryResult>)>& on_result) {
    interrupted_.store(false);
    std::vector<Statement> statements = Parser(sql).ParseStatements();
    for (const auto& statement : statements) {
        bool traced = statement.kind != StatementKind::Set &&
                      statement.kind != StatementKind::Reset &&
                      !database_.settings().GetString("trace_file").empty();
        StatementRunning running(database_, statement_started_);
        on_result(traced ? ExecuteTraced(statement, sql) : Execute(statement, sql));
    }
}

std::unique_ptr<QueryResult> Connection::ExecuteTraced(const Statement& statement,
                                                       const std::string& sql) {
    // The trace is of this one statement: the setting is cleared whatever happens.
    std::string path = database_.settings().GetString("trace_file");
    database_.ResetSetting("trace_file");
    auto recorder = std::make_shared<TraceRecorder>();
    TraceRecorder::Activate(recorder);
    std::unique_ptr<QueryResult> result;
    try {
        result = Execute(statement, sql);
    } catch (...) {
        TraceRecorder::Deactivate();
        throw;
    }
    TraceRecorder::Deactivate();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << recorder->ToJson();
    if (!out.flush()) {
        throw Exception(ErrorKind::IO, "could not write the trace to \"" + path + "\"");
    }
    return result;
}

std::unique_ptr<QueryResult> Connection::Execute(const Statement& statement,
                                                 const std::string& sql) {
    switch (statement.kind) {
    case StatementKind::Select:
        return ExecuteSelect(statement, sql);
    case StatementKind::Describe:
        return ExecuteDescribe(statement, sql);
    case StatementKind::Summarize:
        return Summarize(*this, statement, sql);
    case StatementKind::Copy:
        return ExecuteCopy(statement, sql);
    case StatementKind::Call:
        return ExecuteCall(statement, sql);
    case StatementKind::Pragma:
        return ExecutePragma(statement, sql);
    case StatementKind::Explain:
        return ExecuteExplain(statement, sql);
    case StatementKind::CreateTable:
    case StatementKind::CreateView:
        return ExecuteCreate(statement, sql);
    case StatementKind::Insert:
        return ExecuteInsert(statement, sql);
    case StatementKind::CopyFrom:
        return ExecuteCopyFrom(statement, sql);
    case StatementKind::Drop:
        database_.catalog().Drop(statement.object_name, statement.drop_view, statement.if_exists);
        return EmptyResult();
    case StatementKind::Set: {
        Binder binder(database_.catalog(), sql, parameters_, &replacement_scan_);
        Value value = binder.EvaluateConstant(*statement.value, "SET value");
        database_.ApplySetting(statement.setting_name, value);
        return EmptyResult();
    }
    case StatementKind::Reset:
        database_.ResetSetting(statement.setting_name);
        return EmptyResult();
    }
    throw Exception(ErrorKind::Internal, "unknown statement kind");
}

std::vector<std::unique_ptr<DataChunk>> Connection::RunQuery(BoundQuery& query) {
    OptimizeQuery(query);
    return RunOptimized(query, nullptr);
}

std::vector<std::unique_ptr<DataChunk>> Connection::RunOptimized(BoundQuery& query,
                                                                 std::string* profile) {
    auto collector = std::make_shared<ResultCollector>(query.types, &database_.memory());
    RunInto(query, collector, profile);
    return collector->TakeChunks();
}

void Connection::RunInto(BoundQuery& query, std::shared_ptr<PipelineSink> sink,
                         std::string* profile) {
    Executor executor(database_.scheduler());
    if (profile) {
        executor.EnableProfiling();
    }
    PlanQuery(query, executor, &database_.memory(), std::move(sink));
    Run(executor);
    FinishTableFunctions(query);
    if (profile) {
        *profile = executor.ProfileReport();
    }
}

std::unique_ptr<QueryResult> Connection::ExecuteSelect(const Statement& statement,
                                                       const std::string& sql) {
    Binder binder(database_.catalog(), sql, parameters_, &replacement_scan_);
    BoundQuery query = binder.BindStatementQuery(*statement.select);
    auto chunks = RunQuery(query);
    return std::make_unique<QueryResult>(query.names, query.types, std::move(chunks));
}

std::unique_ptr<QueryResult> Connection::ExecuteExplain(const Statement& statement,
                                                        const std::string& sql) {
    Binder binder(database_.catalog(), sql, parameters_, &replacement_scan_);
    BoundQuery query = binder.BindStatementQuery(*statement.select);
    OptimizeQuery(query);
    std::string plan;
    for (const auto& subplan : query.subplans) {
        plan +=
            (subplan.cte ? "MATERIALIZED CTE " + subplan.cte->Name() : std::string("SUBQUERY")) +
            "\n" + subplan.plan->ToString(1);
    }
    plan += query.plan->ToString();
    std::string key = "logical_plan";
    if (statement.analyze) {
        key = "analyzed_plan";
        auto start = std::chrono::steady_clock::now();
        std::string profile;
        idx_t rows = 0;
        for (const auto& chunk : RunOptimized(query, &profile)) {
            rows += chunk->size();
        }
        double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        plan += "\n" + profile;
        plan += "total: " + std::to_string(rows) + " rows in " + std::to_string(seconds) + " s\n";
    }
    std::vector<std::string> names = {"explain_key", "explain_value"};
    std::vector<LogicalType> types(2, LogicalTypeId::VARCHAR);
    auto chunk = std::make_unique<DataChunk>(types, 1);
    chunk->SetValue(0, 0, Value::Varchar(key));
    chunk->SetValue(1, 0, Value::Varchar(plan));
    chunk->SetSize(1);
    std::vector<std::unique_ptr<DataChunk>> chunks;
    chunks.push_back(std::move(chunk));
    return std::make_unique<QueryResult>(std::move(names), std::move(types), std::move(chunks));
}

std::unique_ptr<QueryResult> Connection::ExecuteCreate(const Statement& statement,
                                                       const std::string& sql) {
    Catalog& catalog = database_.catalog();
    if (statement.kind == StatementKind::CreateView) {
        Binder binder(catalog, sql);
        binder.BindStatementQuery(*statement.select); // the view must bind now
        auto view = std::make_shared<ViewEntry>();
        view->name = statement.object_name;
        view->query = statement.select;
        view->sql = statement.text;
        catalog.CreateView(std::move(view), statement.or_replace);
        return EmptyResult();
    }
    auto table = std::make_shared<TableEntry>();
    table->name = statement.object_name;
    if (statement.select && !statement.or_replace && catalog.FindTable(table->name)) {
        // The table is there: nothing to make, so the query does not run (DuckDB's early abort).
        if (statement.if_not_exists) {
            return EmptyResult();
        }
        throw Exception(ErrorKind::Catalog,
                        "Table with name \"" + table->name + "\" already exists!");
    }
    if (statement.select) {
        Binder binder(catalog, sql, parameters_, &replacement_scan_);
        BoundQuery query = binder.BindStatementQuery(*statement.select);
        table->names = UniqueColumnNames(query.names);
        table->types = query.types;
        auto chunks = std::make_shared<ChunkList>();
        for (auto& chunk : RunQuery(query)) {
            chunks->push_back(std::move(chunk));
        }
        idx_t rows = 0;
        for (const auto& chunk : *chunks) {
            rows += chunk->size();
        }
        table->chunks = std::move(chunks);
        catalog.CreateTable(std::move(table), statement.or_replace, statement.if_not_exists);
        return SingleValueResult("Count",
                                 Value::Integer(LogicalTypeId::BIGINT, static_cast<int64_t>(rows)));
    } else {
        for (const auto& column : statement.columns) {
            auto type = ResolveTypeName(column.type);
            if (!type) {
                throw Exception(ErrorKind::Catalog,
                                "Type with name " + column.type.name + " does not exist!");
            }
            table->names.push_back(column.name);
            table->types.push_back(*type);
        }
    }
    catalog.CreateTable(std::move(table), statement.or_replace, statement.if_not_exists);
    return EmptyResult();
}

namespace {

std::shared_ptr<const TableEntry> InsertTable(const Catalog& catalog, const Statement& statement) {
    auto table = catalog.FindTable(statement.object_name);
    if (!table) {
        throw Exception(ErrorKind::Catalog,
                        "Table with name " + statement.object_name + " does not exist!");
    }
    return table;
}

// The target column of each inserted column: all columns in order, or the listed ones.
std::vector<idx_t> InsertTargets(const TableEntry& table, const Statement& statement) {
    std::vector<idx_t> targets;
    if (statement.columns.empty()) {
        for (idx_t i = 0; i < table.names.size(); i++) {
            targets.push_back(i);
        }
        return targets;
    }
    for (const auto& column : statement.columns) {
        auto found = std::find_if(table.names.begin(), table.names.end(), [&](const auto& name) {
            return EqualsIgnoreCase(name, column.name);
        });
        if (found == table.names.end()) {
            throw Exception(ErrorKind::Binder, "Table \"" + table.name +
                                                   "\" does not have a column with name \"" +
                                                   column.name + "\"");
        }
        targets.push_back(static_cast<idx_t>(found - table.names.begin()));
    }
    return targets;
}

} // namespace

std::unique_ptr<QueryResult> Connection::ExecuteInsert(const Statement& statement,
                                                       const std::string& sql) {
    auto table = InsertTable(database_.catalog(), statement);
    return InsertRows(*table, InsertTargets(*table, statement), *statement.select, sql);
}

std::unique_ptr<QueryResult> Connection::ExecuteCopyFrom(const Statement& statement,
                                                         const std::string& sql) {
    auto table = InsertTable(database_.catalog(), statement);
    auto targets = InsertTargets(*table, statement);
    return InsertRows(*table, targets, *CopyFromQuery(statement, *table, targets), sql);
}

std::unique_ptr<QueryResult> Connection::InsertRows(const TableEntry& table,
                                                    const std::vector<idx_t>& targets,
                                                    const SelectStatement& select,
                                                    const std::string& sql) {
    Catalog& catalog = database_.catalog();
    Binder binder(catalog, sql, parameters_, &replacement_scan_);
    BoundQuery query = binder.BindStatementQuery(select);
    if (query.types.size() != targets.size()) {
        throw Exception(ErrorKind::Binder, "table " + table.name + " has " +
                                               std::to_string(targets.size()) + " columns but " +
                                               std::to_string(query.types.size()) +
                                               " values were supplied");
    }
    auto chunks = RunQuery(query);
    ChunkList converted;
    int64_t rows = 0;
    for (auto& chunk : chunks) {
        auto target = std::make_shared<DataChunk>(table.types, std::max<idx_t>(chunk->size(), 1));
        for (idx_t column = 0; column < table.types.size(); column++) {
            auto position = std::find(targets.begin(), targets.end(), column);
            Vector& out = target->column(column);
            if (position == targets.end()) {
                for (idx_t row = 0; row < chunk->size(); row++) {
                    out.SetNull(row);
                }
                continue;
            }
            Vector& in = chunk->column(static_cast<idx_t>(position - targets.begin()));
            if (in.type() == out.type()) {
                out.Reference(in);
            } else {
                CastVector(in, out, chunk->size());
            }
        }
        target->SetSize(chunk->size());
        rows += static_cast<int64_t>(chunk->size());
        converted.push_back(std::move(target));
    }
    catalog.AppendRows(table.name, converted);
    return SingleValueResult("Count", Value::Integer(LogicalTypeId::BIGINT, rows));
}

std::unique_ptr<QueryResult> Connection::ExecuteCopy(const Statement& statement,
                                                     const std::string& sql) {
    Binder binder(database_.catalog(), sql, parameters_, &replacement_scan_);
    BoundCopy copy = binder.BindCopy(statement);
    OptimizeQuery(copy.query);
    std::shared_ptr<PipelineSink> sink;
    std::function<uint64_t()> rows_written;
    // One task keeps the query's row order as a writer streams it; CsvCopySink and
    // ParquetCopySink run on all and put their batches in order themselves.
    idx_t threads = 1;
    if (copy.format != "csv") {
        // A Parquet or Arrow file's columns are found by name: repeated ones are renamed (c_1).
        copy.query.names = UniqueColumnNames(copy.query.names);
    }
    if (copy.format == "csv") {
        auto csv_sink = std::make_shared<CsvCopySink>(copy.path, copy.query.names, copy.csv_options,
                                                      &database_.memory());
        rows_written = [csv_sink] { return csv_sink->rows_written(); };
        sink = csv_sink;
        threads = 0;
    } else if (copy.format == "arrow") {
        auto arrow_sink = std::make_shared<CopyToFileSink<arrow::ArrowIpcWriter>>(
            "COPY_TO_ARROW",
            std::make_unique<arrow::ArrowIpcWriter>(copy.path, copy.query.names, copy.query.types,
                                                    copy.arrow_stream ? arrow::IpcForm::kStream
                                                                      : arrow::IpcForm::kFile));
        rows_written = [arrow_sink] { return arrow_sink->rows_written(); };
        sink = arrow_sink;
    } else if (copy.options.row_group_size <= ParquetCopySink::kMaxRowGroupRows) {
        auto parquet_sink = std::make_shared<ParquetCopySink>(
            copy.path, copy.query.names, copy.query.types, copy.options, &database_.memory());
        rows_written = [parquet_sink] { return parquet_sink->rows_written(); };
        sink = parquet_sink;
        threads = 0;
    } else {
        auto parquet_sink = std::make_shared<CopyToFileSink<parquet::ParquetWriter>>(
            "COPY_TO_PARQUET", std::make_unique<parquet::ParquetWriter>(
                                   copy.path, copy.query.names, copy.query.types, copy.options));
        rows_written = [parquet_sink] { return parquet_sink->rows_written(); };
        sink = parquet_sink;
    }
    Executor executor(database_.scheduler());
    PlanQuery(copy.query, executor, &database_.memory(), sink, threads);
    Run(executor);
    FinishTableFunctions(copy.query);
    return SingleValueResult(
        "Count", Value::Integer(LogicalTypeId::BIGINT, static_cast<int64_t>(rows_written())));
}

std::unique_ptr<QueryResult> Connection::ExecuteCall(const Statement& statement,
                                                     const std::string& sql) {
    const TableRef& call = *statement.select->from;
    if (call.name == "dbgen") {
        Binder binder(database_.catalog(), sql, parameters_, &replacement_scan_);
        TableFunctionInput input = binder.BindTableFunctionInput(call);
        return RunDbgen(DbgenOptions::FromArguments(input));
    }
    return ExecuteSelect(statement, sql); // CALL f(args) is SELECT * FROM f(args)
}

std::unique_ptr<QueryResult> Connection::ExecutePragma(const Statement& statement,
                                                       const std::string& sql) {
    const TableRef& pragma = *statement.select->from;
    if (pragma.name == "tpch") {
        Binder binder(database_.catalog(), sql, parameters_, &replacement_scan_);
        TableFunctionInput input = binder.BindTableFunctionInput(pragma);
        Value number;
        if (input.positional.size() != 1 || !input.named.empty() ||
            !TryCastValue(input.Scalar(0, "tpch"), LogicalTypeId::INTEGER, number) ||
            number.IsNull()) {
            throw Exception(ErrorKind::Binder, "PRAGMA tpch takes a query number: PRAGMA tpch(6)");
        }
        return Query(tpch::QueryText(static_cast<int>(number.GetInteger())));
    }
    throw Exception(ErrorKind::Catalog, "unknown PRAGMA " + pragma.name + " (Sluice has tpch)");
}

void Connection::Run(Executor& executor) {
    int64_t limit_ms = database_.settings().GetInteger("max_execution_time");
    if (limit_ms > 0) {
        executor.SetDeadline(statement_started_ + std::chrono::milliseconds(limit_ms), limit_ms);
    }
    {
        std::lock_guard<std::mutex> guard(running_mutex_);
        running_ = &executor;
        if (interrupted_.load()) {
            executor.Cancel();
        }
    }
    try {
        executor.Execute();
    } catch (...) {
        std::lock_guard<std::mutex> guard(running_mutex_);
        running_ = nullptr;
        throw;
    }
    std::lock_guard<std::mutex> guard(running_mutex_);
    running_ = nullptr;
}

std::unique_ptr<QueryResult> Connection::ExecuteDescribe(const Statement& statement,
                                                         const std::string& sql) {
    Binder binder(database_.catalog(), sql, parameters_, &replacement_scan_);
    BoundQuery bound = binder.BindStatementQuery(*statement.select);
    std::vector<std::string> names = {"column_name", "column_type", "null",
                                      "key",         "default",     "extra"};
    std::vector<LogicalType> types(names.size(), LogicalTypeId::VARCHAR);
    auto chunk = std::make_unique<DataChunk>(types, std::max<idx_t>(bound.names.size(), 1));
    for (idx_t i = 0; i < bound.names.size(); i++) {
        chunk->SetValue(0, i, Value::Varchar(bound.names[i]));
        chunk->SetValue(1, i, Value::Varchar(bound.types[i].ToString()));
        chunk->SetValue(2, i, Value::Varchar("YES"));
        for (idx_t column = 3; column < names.size(); column++) {
            chunk->SetValue(column, i, Value::Null(LogicalTypeId::VARCHAR));
        }
    }
    chunk->SetSize(bound.names.size());
    std::vector<std::unique_ptr<DataChunk>> chunks;
    chunks.push_back(std::move(chunk));
    return std::make_unique<QueryResult>(std::move(names), std::move(types), std::move(chunks));
}

void Connection::Interrupt() {
    std::lock_guard<std::mutex> guard(running_mutex_);
    interrupted_.store(true);
    if (running_) {
        running_->Cancel();
    }
}

double Connection::QueryProgress() const {
    std::lock_guard<std::mutex> guard(running_mutex_);
    return running_ ? running_->Progress() : -1.0;
}

} // namespace sluice
