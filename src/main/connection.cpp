#include "main/connection.hpp"

#include "common/exception.hpp"
#include "execution/expression_executor.hpp"
#include "execution/parquet_copy_sink.hpp"
#include "execution/result_collector.hpp"
#include "parallel/executor.hpp"
#include "sql/binder.hpp"
#include "sql/parser.hpp"
#include "sql/planner.hpp"

namespace sluice {

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

void Connection::QueryEach(const std::string& sql,
                           const std::function<void(std::unique_ptr<QueryResult>)>& on_result) {
    interrupted_.store(false);
    std::vector<Statement> statements = Parser(sql).ParseStatements();
    for (const auto& statement : statements) {
        on_result(Execute(statement, sql));
    }
}

std::unique_ptr<QueryResult> Connection::Execute(const Statement& statement,
                                                 const std::string& sql) {
    switch (statement.kind) {
    case StatementKind::Select:
        return ExecuteSelect(statement, sql);
    case StatementKind::Describe:
        return ExecuteDescribe(statement, sql);
    case StatementKind::Copy:
        return ExecuteCopy(statement, sql);
    case StatementKind::Set: {
        Binder binder(database_.table_functions(), sql);
        Value value =
            ExpressionExecutor::EvaluateConstant(*binder.BindConstantExpression(*statement.value));
        database_.ApplySetting(statement.setting_name, value);
        return std::make_unique<QueryResult>(std::vector<std::string>{}, std::vector<LogicalType>{},
                                             std::vector<std::unique_ptr<DataChunk>>{});
    }
    case StatementKind::Reset:
        database_.ResetSetting(statement.setting_name);
        return std::make_unique<QueryResult>(std::vector<std::string>{}, std::vector<LogicalType>{},
                                             std::vector<std::unique_ptr<DataChunk>>{});
    }
    throw Exception(ErrorKind::Internal, "unknown statement kind");
}

std::unique_ptr<QueryResult> Connection::ExecuteSelect(const Statement& statement,
                                                       const std::string& sql) {
    Binder binder(database_.table_functions(), sql);
    BoundSelect bound = binder.BindSelect(*statement.select);
    std::vector<std::string> names = bound.names;
    std::vector<LogicalType> types = bound.types;

    Executor executor(database_.scheduler(), database_.scheduler().RegularThreads());
    auto collector = std::make_shared<ResultCollector>(types);
    PlanSelect(std::move(bound), executor).sink = collector;
    Run(executor);
    return std::make_unique<QueryResult>(std::move(names), std::move(types),
                                         collector->TakeChunks());
}

std::unique_ptr<QueryResult> Connection::ExecuteCopy(const Statement& statement,
                                                     const std::string& sql) {
    Binder binder(database_.table_functions(), sql);
    BoundCopy copy = binder.BindCopy(statement);
    auto writer = std::make_unique<parquet::ParquetWriter>(copy.path, copy.select.names,
                                                           copy.select.types, copy.options);
    auto sink = std::make_shared<ParquetCopySink>(std::move(writer));
    Executor executor(database_.scheduler(), database_.scheduler().RegularThreads());
    Pipeline& pipeline = PlanSelect(std::move(copy.select), executor);
    pipeline.sink = sink;
    pipeline.max_threads = 1; // the file keeps the query's row order
    Run(executor);
    auto chunk = std::make_unique<DataChunk>(std::vector<LogicalType>{LogicalTypeId::BIGINT}, 1);
    chunk->SetValue(
        0, 0, Value::Integer(LogicalTypeId::BIGINT, static_cast<int64_t>(sink->rows_written())));
    chunk->SetSize(1);
    std::vector<std::unique_ptr<DataChunk>> chunks;
    chunks.push_back(std::move(chunk));
    return std::make_unique<QueryResult>(std::vector<std::string>{"Count"},
                                         std::vector<LogicalType>{LogicalTypeId::BIGINT},
                                         std::move(chunks));
}

void Connection::Run(Executor& executor) {
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
    Binder binder(database_.table_functions(), sql);
    BoundSelect bound = binder.BindSelect(*statement.select);
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
