#pragma once

#include "main/database.hpp"
#include "main/dbgen_command.hpp"
#include "main/query_result.hpp"
#include "sql/catalog.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

struct ArrowArrayStream; // the Arrow C Stream interface's (formats/arrow/arrow_c_data.hpp)

namespace sluice {

class Executor;
class PipelineSink;
struct BoundQuery;
struct SelectStatement;
struct Statement;
struct TableEntry;

// A SELECT bound now and run later, once (a Python relation): its columns are known before it
// runs, and the tables it names were resolved when it was bound.
struct PendingQuery {
    PendingQuery();
    ~PendingQuery();
    std::vector<std::string> names;
    std::vector<LogicalType> types;
    std::unique_ptr<BoundQuery> query; // null once run
};

// A session on a Database. Runs SQL and returns results; errors are thrown as
// sluice::Exception ("<Kind> Error: message"). One query at a time per connection.
class Connection {
public:
    explicit Connection(Database& database);
    ~Connection();

    // Runs every statement of `sql`; returns the result of the last one.
    std::unique_ptr<QueryResult> Query(const std::string& sql);
    // Runs the one statement of `sql` with `parameters` as the values of its parameters ($1,
    // $2, ... by number; ? numbered in order): as many values as it has parameters.
    std::unique_ptr<QueryResult> Query(const std::string& sql,
                                       const std::vector<Value>& parameters);
    // How many parameters the one statement of `sql` takes (checks it parses).
    size_t ParameterCount(const std::string& sql);
    // Tables this connection's queries may name beyond the catalog's (see ReplacementScan).
    void SetReplacementScan(ReplacementScan scan) { replacement_scan_ = std::move(scan); }
    // Runs every statement of `sql`, handing each result to `on_result` as it completes.
    // The whole text is parsed first, so a syntax error anywhere runs nothing.
    void QueryEach(const std::string& sql,
                   const std::function<void(std::unique_ptr<QueryResult>)>& on_result);

    // The one SELECT of `sql` bound as Query(sql) (or Query(sql, *parameters)) would bind it, to
    // run later; nullptr when `sql` is anything else (Query runs it at once).
    std::unique_ptr<PendingQuery> BindSelect(const std::string& sql,
                                             const std::vector<Value>* parameters);
    // Runs a pending query: its result.
    std::unique_ptr<QueryResult> RunPending(PendingQuery& pending);
    // Runs a pending query with its rows going to `sink` (one the caller made for them).
    void RunPendingInto(PendingQuery& pending, std::shared_ptr<PipelineSink> sink);
    // Runs a pending query with each chunk of its result exported to an Arrow record batch by
    // the thread that produced it (ArrowBatchCollector), handed out in order by `out`.
    void RunPendingToArrow(PendingQuery& pending, ArrowArrayStream* out);

    // Callable from another thread while a query runs.
    void Interrupt();
    // Progress of the running query in [0, 1], or negative when idle.
    double QueryProgress() const;

    Database& database() { return database_; }

    // Generates TPC-H tables (CALL dbgen); returns one row per table: rows, files, bytes, seconds.
    std::unique_ptr<QueryResult> RunDbgen(const DbgenOptions& options);

private:
    std::unique_ptr<QueryResult> ExecuteCall(const Statement& statement, const std::string& sql);
    std::unique_ptr<QueryResult> ExecutePragma(const Statement& statement, const std::string& sql);
    std::unique_ptr<QueryResult> Execute(const Statement& statement, const std::string& sql);
    std::unique_ptr<QueryResult> ExecuteSelect(const Statement& statement, const std::string& sql);
    std::unique_ptr<QueryResult> ExecuteDescribe(const Statement& statement,
                                                 const std::string& sql);
    std::unique_ptr<QueryResult> ExecuteCopy(const Statement& statement, const std::string& sql);
    std::unique_ptr<QueryResult> ExecuteExplain(const Statement& statement, const std::string& sql);
    std::unique_ptr<QueryResult> ExecuteCreate(const Statement& statement, const std::string& sql);
    std::unique_ptr<QueryResult> ExecuteInsert(const Statement& statement, const std::string& sql);
    std::unique_ptr<QueryResult> ExecuteCopyFrom(const Statement& statement,
                                                 const std::string& sql);
    // Appends the rows of `select` to `table`: its columns, in order, go to `targets`.
    std::unique_ptr<QueryResult> InsertRows(const TableEntry& table,
                                            const std::vector<idx_t>& targets,
                                            const SelectStatement& select, const std::string& sql);
    // Optimizes, plans and runs a bound query; returns its result chunks in order.
    std::vector<std::unique_ptr<DataChunk>> RunQuery(BoundQuery& query);
    // RunQuery for an optimized query; with `profile`, also its EXPLAIN ANALYZE report.
    std::vector<std::unique_ptr<DataChunk>> RunOptimized(BoundQuery& query, std::string* profile);
    // Plans and runs an optimized query with its rows going to `sink`.
    void RunInto(BoundQuery& query, std::shared_ptr<PipelineSink> sink, std::string* profile);
    // Execute with a trace of the scheduler's threads written to trace_file.
    std::unique_ptr<QueryResult> ExecuteTraced(const Statement& statement, const std::string& sql);
    // Throws unless `parameters` are as many as the one statement of `sql` takes.
    void CheckParameterCount(const std::string& sql, const std::vector<Value>& parameters);
    // The bound query of a pending one, which runs now (an error if it ran already).
    std::unique_ptr<BoundQuery> TakePending(PendingQuery& pending);
    // Runs a planned query, interruptible through Interrupt().
    void Run(Executor& executor);

    Database& database_;
    // While Query(sql, parameters) runs: its values, for every Binder of the statement.
    const std::vector<Value>* parameters_ = nullptr;
    ReplacementScan replacement_scan_;
    mutable std::mutex running_mutex_;
    Executor* running_ = nullptr;
    std::atomic<bool> interrupted_{false};
    std::chrono::steady_clock::time_point statement_started_; // of the running statement
};

} // namespace sluice
