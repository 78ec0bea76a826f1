#pragma once

#include "main/connection.hpp"
#include "python/python_arrow.hpp"

#include <pybind11/pybind11.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>

namespace sluice {

namespace py = pybind11;

// The rows of one statement, read as Python objects: row by row (fetchone, fetchmany,
// fetchall) or column by column (fetchnumpy, df). What was fetched is gone from the others.
//
// A SELECT given to sql() is a relation, as in DuckDB: bound at once (errors then, and the
// DataFrames it names taken then), run when first read, so that arrow() runs it with its rows
// exported to Arrow by the threads that produce them.
class PythonResult {
public:
    // `scheduler` (the database's) exports Arrow batches ahead on its threads.
    PythonResult(std::unique_ptr<QueryResult> result, std::shared_ptr<TaskScheduler> scheduler);
    // A SELECT to run on `connection` when first read, unless `closed` is set by then.
    PythonResult(std::unique_ptr<PendingQuery> pending, std::shared_ptr<Connection> connection,
                 std::shared_ptr<const std::atomic<bool>> closed,
                 std::shared_ptr<TaskScheduler> scheduler);

    py::object FetchOne();
    py::list FetchMany(idx_t count);
    py::list FetchAll();
    py::dict FetchNumpy();
    py::object DataFrame();
    // The rows not yet fetched for Arrow consumers (python_arrow.hpp): arrow() as a
    // pyarrow.Table if pyarrow is installed, else the stream; ArrowStream() the stream itself.
    py::object Arrow();
    py::object ArrowStream();
    // DB-API: (name, type, None, None, None, None, None) per column.
    py::list Description() const;
    py::list ColumnNames() const;
    py::list ColumnTypes() const;

private:
    // The result, the pending query run first if it has not run.
    QueryResult& Result();
    // The rows not yet fetched, as a QueryResult of their own.
    std::unique_ptr<QueryResult> Rest();
    std::shared_ptr<PythonArrowStream> RestAsArrow();
    // The rows not yet fetched as numpy arrays (python_numpy.hpp), made as the query produces
    // them if it has not run.
    py::dict Numpy(bool nanoseconds);

    std::vector<std::string> names_;
    std::vector<LogicalType> types_;
    std::unique_ptr<PendingQuery> pending_; // until it runs
    // The pending query's connection, held as DuckDB's relations hold theirs (a relation of a
    // connection nobody else holds still runs), unless close() was called.
    std::shared_ptr<Connection> connection_;
    std::shared_ptr<const std::atomic<bool>> closed_;
    std::unique_ptr<QueryResult> result_;
    std::shared_ptr<TaskScheduler> scheduler_;
    std::unique_ptr<DataChunk> chunk_; // being fetched row by row
    idx_t row_ = 0;
};

// sluice.connect(): a database of its own and a connection on it. execute() keeps the result
// on the connection (DB-API cursor style); sql() hands it back as a result object.
class PythonConnection {
public:
    PythonConnection(const std::string& database, const py::dict& config);

    void Execute(const std::string& query, const py::object& parameters);
    std::shared_ptr<PythonResult> Sql(const std::string& query, const py::object& parameters);
    PythonResult& Result();
    void Close();

private:
    // Runs `query` with the GIL released, interrupted by Ctrl-C (KeyboardInterrupt); binds
    // a single SELECT only, when `pending` is given (*pending then null if it is not one).
    std::unique_ptr<QueryResult> Run(const std::string& query, const py::object& parameters,
                                     std::unique_ptr<PendingQuery>* pending = nullptr);
    Connection& Open();
    std::shared_ptr<TaskScheduler> Scheduler() const;

    // Shared with the Arrow streams of its results, which export on its scheduler's threads
    // and may outlive close().
    std::shared_ptr<Database> database_;
    std::shared_ptr<Connection> connection_; // shared with pending results
    std::shared_ptr<std::atomic<bool>> closed_ = std::make_shared<std::atomic<bool>>(false);
    std::unique_ptr<PythonResult> result_;
};

} // namespace sluice
